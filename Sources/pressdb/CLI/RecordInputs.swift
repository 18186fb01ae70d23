// The inputs of a command that reads touch records — `pressdb ingest FILE…` and
// `pressdb replay --input FILE…`: opened first (a missing file fails before anything is
// written), each read by the reader its format calls for, through one `Ingester`.
import Foundation
import PressCore
import PressFormats
import PressStore
import PressIngest

/// Reads touch logs and device recordings through an `Ingester`, one input after another, in
/// the order given. Layout `{"type":"control"}` records of NDJSON inputs apply to the device
/// recordings read after them; device-recording warnings are kept for the summary.
struct RecordInputs {
    /// The device-recording options (units, layout, default attributes).
    var device: DeviceLogOptions
    /// Layout records read so far.
    private(set) var controlRecords = 0
    /// Device-recording warnings (the first few kept) and how many there were.
    private(set) var warnings: [DeviceLogWarning] = []
    private(set) var warningCount = 0

    /// How NDJSON and CSV logs are read (`--columns`, `--time-unit`, `--phase-names`).
    var touchLog = TouchLogOptions()

    init(device: DeviceLogOptions) { self.device = device }

    /// Opens every path (`-` is standard input).
    /// - Throws: `CLIError.failure` naming the first that cannot be read.
    static func open(_ paths: [String]) throws -> [ByteInput] {
        try paths.map { path in
            if path == "-" { return ByteInput(fileDescriptor: STDIN_FILENO, name: "-") }
            do { return try ByteInput(path: path) } catch let e as InputError {
                throw CLIError.failure("cannot read \(e.message)")
            }
        }
    }

    /// Reads `input` (opened from `path`) in `format`, or the format `InputFormat.detect` tells.
    /// - Throws: what `Ingester.ingest` throws; `InputError` when the format cannot be told.
    mutating func read(_ input: ByteInput, path: String, format: InputFormat?, into ingester: Ingester,
                       progress: ((Int, Int) -> Void)? = nil) throws {
        let f: InputFormat = try format ?? (touchLog.columns != nil || !touchLog.headerNames.isEmpty
            ? (input.peekFirstNonBlankByte() == UInt8(ascii: "{") ? .ndjson : .csv) : InputFormat.detect(input))
        switch f {
        case .ndjson:
            // Layout records apply to the device recordings read after them.
            var r = ControlRecordCollector(NDJSONReader(input, options: touchLog))
            try ingester.ingest(&r, input: input, progress: progress)
            noteFieldWarnings(r.base.fieldWarnings, count: r.base.fieldWarningCount)
            if !r.controls.isEmpty {
                controlRecords += r.controls.count
                device.layout = Layout(controls: (device.layout?.controls ?? []) + r.controls)
            }
        case .csv:
            var r = CSVReader(input, options: touchLog)
            try ingester.ingest(&r, input: input, progress: progress)
            noteFieldWarnings(r.fieldWarnings, count: r.fieldWarningCount)
        case .getevent, .evemu, .evtest, .libinput:
            var r = try DeviceLogSource(input, format: f.deviceLogFormat!, options: device,
                                        file: path == "-" ? nil : path)
            try ingester.ingest(&r, input: input, progress: progress)
            warnings += r.warnings
            warningCount += r.warningCount
        }
    }

    /// Keeps a touch log's warnings about misspelt-looking fields with the others.
    private mutating func noteFieldWarnings(_ found: [FieldWarning], count: Int) {
        warnings += found.map { DeviceLogWarning(source: $0.source, message: $0.message, raw: "") }
        warningCount += count
    }
}
