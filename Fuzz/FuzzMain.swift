// libFuzzer entry point for pressdb's readers (built by scripts/fuzz, not by SwiftPM). The
// target is chosen by PRESSDB_FUZZ_TARGET: ndjson, csv, getevent, evemu, evtest, libinput,
// config or layout.
// A crash, a hang (libFuzzer's -timeout) or a sanitizer report is a finding; a reject is not.
import Foundation
import PressFormats

private let target = ProcessInfo.processInfo.environment["PRESSDB_FUZZ_TARGET"] ?? "ndjson"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    switch target {
    case "ndjson":
        var r = NDJSONReader(ByteInput(bytes: bytes, name: "fuzz"))
        while let item = try? r.next() {
            if case .reject(let j) = item, j.reason.isEmpty { fatalError("reject without a reason") }
        }
    case "csv":
        var r = CSVReader(ByteInput(bytes: bytes, name: "fuzz"))
        while let item = try? r.next() {
            if case .reject(let j) = item, j.reason.isEmpty { fatalError("reject without a reason") }
        }
    case "getevent":
        _ = DeviceLogReader.readAll(bytes, format: .getevent, file: "fuzz")
    case "evemu":
        _ = DeviceLogReader.readAll(bytes, format: .evemu, file: "fuzz")
    case "evtest":
        _ = DeviceLogReader.readAll(bytes, format: .evtest, file: "fuzz")
    case "libinput":
        var r = LibinputRecordReader(ByteInput(bytes: bytes, name: "fuzz"), contentHash: "0")
        while let item = try? r.next() {
            if case .reject(let j) = item, j.reason.isEmpty || j.source.line < 1 { fatalError("reject without a reason or line") }
        }
    case "config":
        _ = try? ConfigurationJSON.parseFile(String(decoding: bytes, as: UTF8.self))
    case "layout":
        _ = try? LayoutJSON.parse(Data(bytes), file: "fuzz")
    default:
        fatalError("unknown PRESSDB_FUZZ_TARGET \(target)")
    }
    return 0
}
