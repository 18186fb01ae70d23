// A streaming reader for device recordings (getevent, evemu): lines in, touch records and rejects
// out, in input order. Each finger contact becomes one session.
import Foundation
import PressCore

/// What a device recording's line yields: a touch record, or a reject for a line that could not be
/// read.
public enum DeviceLogItem: Hashable, Sendable {
    case record(TouchRecord)
    case reject(Reject)
}

/// A contact still down at the end of input: its session and last record. The ingest keeps such a
/// session pending, like any other session without an `ended` sample; it is not an error.
public struct DeviceLogOpenContact: Hashable, Sendable {
    public var session: String
    public var last: TouchRecord
    public init(session: String, last: TouchRecord) { self.session = session; self.last = last }
}

/// Everything read from one whole recording (see `DeviceLogReader.readAll`).
public struct DeviceLogResult: Hashable, Sendable {
    public var records: [TouchRecord]
    public var rejects: [Reject]
    public var openContacts: [DeviceLogOpenContact]
}

/// Reads a getevent or evemu recording line by line (or chunk by chunk) and yields, in input
/// order, one `TouchRecord` per contact per frame and a `Reject` per unreadable line.
///
///     var reader = DeviceLogReader(format: .getevent, file: "tap.txt", contentHash: hash)
///     for line in lines { for item in reader.read(line: line) { … } }
///     let tail = reader.finish()            // a last line without a newline
///     let pending = reader.openContacts     // contacts that never lifted
///
/// - Sessions: contact n (in touch-down order) is session `<contentHash>-c<n>`, n written with at
///   least 4 digits (`3f2a…-c0001`). The caller passes the content hash — FNV-1a 64 of the whole
///   input (`contentHash(of:)`), computed in a first pass; standard input is buffered first — so
///   re-ingesting the same recording gives the same ids, whatever its file name.
/// - Records: `began` on a contact's first frame (carrying `options.attributes`, with the layout
///   hit applied at the touch-down point), then `moved`/`stationary` for frames reporting it,
///   then `ended` at the lift frame's time at its last position. Times are the committing
///   `SYN_REPORT`'s timestamp in seconds as given; `source` is that `SYN_REPORT` line. A record
///   after a `SYN_DROPPED` carries `{"syn_dropped":true}` in its `extra` attributes.
/// - Rejects: unreadable lines (`GeteventLine`, `EvemuLine`), time going backwards on a device,
///   and events beyond `ContactTracker.maximumFrameEvents` in one frame. The rest is still read.
/// - Memory: the open contacts, one frame per device, one partial line.
public struct DeviceLogReader: Sendable {
    public let format: DeviceLogFormat
    /// The input's name in `SourceLocation`s (a path, or `-` for standard input).
    public let file: String
    /// 16 hex digits naming the input's content; session ids start with it.
    public let contentHash: String
    public let options: DeviceLogOptions
    /// Lines read so far (the number of the last line read).
    public private(set) var lineNumber = 0

    private var tracker = ContactTracker()
    private var lastTime: [String: Double] = [:]
    /// Axis ranges the recording gives, by device then code.
    private var headerRanges: [String: [UInt16: AxisRange]] = [:]
    private var headerDevice = ""
    private var partialLine: [UInt8] = []

    public init(format: DeviceLogFormat, file: String, contentHash: String,
                options: DeviceLogOptions = DeviceLogOptions()) {
        self.format = format; self.file = file; self.contentHash = contentHash; self.options = options
    }

    /// FNV-1a 64 of the bytes, as 16 hex digits: the `contentHash` for a recording.
    public static func contentHash<B: Sequence>(of bytes: B) -> String where B.Element == UInt8 {
        var h = FNV1a64()
        h.update(bytes)
        return h.hex
    }

    /// The session id of contact `n` (1-based): `<contentHash>-c` and n with at least 4 digits.
    public static func sessionID(contentHash: String, contact n: Int) -> String {
        let digits = String(n)
        return contentHash + "-c" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Reads a whole recording held in memory (hashing it for the session ids).
    public static func readAll(_ bytes: [UInt8], format: DeviceLogFormat, file: String,
                               options: DeviceLogOptions = DeviceLogOptions()) -> DeviceLogResult {
        var reader = DeviceLogReader(format: format, file: file, contentHash: contentHash(of: bytes), options: options)
        var items = reader.read(bytes: bytes)
        items += reader.finish()
        var result = DeviceLogResult(records: [], rejects: [], openContacts: reader.openContacts)
        for item in items {
            switch item {
            case .record(let r): result.records.append(r)
            case .reject(let r): result.rejects.append(r)
            }
        }
        return result
    }

    /// Reads a chunk of bytes; lines end at `\n` (a `\r` before it is dropped), and a line cut
    /// at the chunk's end waits for the next chunk or `finish()`.
    public mutating func read<B: Sequence>(bytes: B) -> [DeviceLogItem] where B.Element == UInt8 {
        var out: [DeviceLogItem] = []
        for b in bytes {
            if b == UInt8(ascii: "\n") {
                out += readBufferedLine()
            } else {
                partialLine.append(b)
            }
        }
        return out
    }

    /// Reads the last line when the input does not end with a newline. Call once at the end.
    public mutating func finish() -> [DeviceLogItem] {
        partialLine.isEmpty ? [] : readBufferedLine()
    }

    private mutating func readBufferedLine() -> [DeviceLogItem] {
        if partialLine.last == UInt8(ascii: "\r") { partialLine.removeLast() }
        let text = String(decoding: partialLine, as: UTF8.self)
        partialLine.removeAll(keepingCapacity: true)
        return read(line: text)
    }

    /// Reads one line, without its line terminator (a trailing `\r` is dropped).
    public mutating func read<S: StringProtocol>(line input: S) -> [DeviceLogItem] {
        lineNumber += 1
        var raw = Substring(input)
        if raw.last == "\r" || raw.last == "\r\n" { raw = raw.dropLast() }
        if format == .getevent, let device = GeteventLine.addedDevice(raw) { headerDevice = device }
        let parsed = format == .getevent ? GeteventLine.parse(raw, currentHeaderDevice: headerDevice)
                                         : EvemuLine.parse(raw)
        switch parsed {
        case .skip:
            return []
        case .axisRange(let device, let code, let range):
            headerRanges[device, default: [:]][code] = range
            return []
        case .malformed(let reason):
            return [reject(reason, raw)]
        case .otherEvent(let time, let device):
            if let r = checkTime(time, device: device, raw) { return [r] }
            return []
        case .event(let event):
            if let r = checkTime(event.time, device: event.device, raw) { return [r] }
            guard let samples = tracker.consume(event, line: lineNumber) else {
                return [reject("more than \(ContactTracker.maximumFrameEvents) events without a SYN_REPORT", raw)]
            }
            return samples.map { .record(record($0)) }
        }
    }

    /// The contacts that have begun and not lifted, in touch-down order, with their last record.
    public var openContacts: [DeviceLogOpenContact] {
        tracker.openContacts.map {
            DeviceLogOpenContact(session: Self.sessionID(contentHash: contentHash, contact: $0.contact),
                                 last: record($0, attributes: false))
        }
    }

    /// Events read after the last `SYN_REPORT` (a frame cut off at the end of input): they belong
    /// to no record. Not a reject — the lines themselves are well formed.
    public var uncommittedEvents: Int { tracker.uncommittedEvents }

    /// The protocol a device turned out to use ("" for logs that name no device).
    public func touchProtocol(device: String = "") -> TouchProtocol? { tracker.touchProtocol(device: device) }

    /// The axis ranges used for a sample's X and Y: `options.absRange`, else the recording's
    /// ranges for its axes (multi-touch axes fall back to the single-touch ones and vice versa).
    public func ranges(device: String, axes: ContactAxes) -> (x: AxisRange?, y: AxisRange?) {
        if let r = options.absRange { return (r.x, r.y) }
        let (mtX, mtY, stX, stY) = (InputEventCode.absMTPositionX, InputEventCode.absMTPositionY,
                                    InputEventCode.absX, InputEventCode.absY)
        let order: [(UInt16, UInt16)] = axes == .multiTouch ? [(mtX, mtY), (stX, stY)] : [(stX, stY), (mtX, mtY)]
        for (cx, cy) in order {
            if let x = headerRange(device: device, code: cx), let y = headerRange(device: device, code: cy) {
                return (x, y)
            }
        }
        return (nil, nil)
    }

    private func headerRange(device: String, code: UInt16) -> AxisRange? {
        if let r = headerRanges[device]?[code] ?? headerRanges[""]?[code] { return r }
        // A log naming no device, with -p ranges announced per device: use them when only one
        // device has this axis.
        let candidates = headerRanges.values.compactMap { $0[code] }
        return device.isEmpty && candidates.count == 1 ? candidates[0] : nil
    }

    private func record(_ s: ContactSample, attributes withAttributes: Bool = true) -> TouchRecord {
        let r = ranges(device: s.device, axes: s.axes)
        let p = options.point(rawX: s.x, rawY: s.y, xRange: r.x, yRange: r.y)
        var attributes = SessionAttributes()
        if withAttributes && s.phase == .began {
            attributes = options.layout?.sessionAttributes(touchDown: p, defaults: options.attributes)
                ?? options.attributes
        }
        if withAttributes && s.afterDrop {
            attributes.setExtraFields([Self.synDropped] + attributes.extraFields.filter { $0.key != Self.synDropped.key })
        }
        return TouchRecord(session: Self.sessionID(contentHash: contentHash, contact: s.contact),
                           sample: TouchSample(t: s.time, x: p.x, y: p.y, phase: s.phase),
                           attributes: attributes, source: SourceLocation(file: file, line: s.line))
    }

    /// The unknown field marking a sample after a `SYN_DROPPED`: `"syn_dropped": true`.
    static let synDropped = ExtraField(key: "syn_dropped", json: "true")

    private mutating func checkTime(_ time: Double, device: String, _ raw: Substring) -> DeviceLogItem? {
        if let last = lastTime[device], time < last {
            return reject("time goes backwards: \(time) s after \(last) s", raw)
        }
        lastTime[device] = time
        return nil
    }

    private func reject(_ reason: String, _ raw: Substring) -> DeviceLogItem {
        .reject(Reject(source: SourceLocation(file: file, line: lineNumber), reason: reason, raw: String(raw)))
    }
}
