// A streaming reader for device recordings (getevent, evemu, evtest; libinput record through
// `LibinputRecordReader`): lines in, touch records and rejects out, in input order. Each finger
// contact becomes one session.
import PressCore

/// What a device recording's line yields: a touch record, or a reject for a line that could not be
/// read.
public enum DeviceLogItem: Hashable, Sendable {
    case record(TouchRecord)
    case reject(Reject)
    /// A line read in spite of a flaw (text before a getevent timestamp): nothing is lost, but the
    /// user should know.
    case warning(DeviceLogWarning)
}

/// Something a device recording's reader noticed and read past: where, what, and the line's text.
public struct DeviceLogWarning: Hashable, Sendable, CustomStringConvertible {
    public var source: SourceLocation
    public var message: String
    public var raw: String
    public init(source: SourceLocation, message: String, raw: String) {
        self.source = source; self.message = message; self.raw = raw
    }
    /// `file:line: warning: message`.
    public var description: String { "\(source): warning: \(message)" }
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
    public var warnings: [DeviceLogWarning] = []
}

/// Reads a device recording — getevent, evemu or evtest line by line (or chunk by chunk), a
/// `libinput record` YAML file whole — and yields, in input order, one `TouchRecord` per contact
/// per frame, a `Reject` per unreadable line and a warning per line read in spite of a flaw.
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
/// - Rejects: unreadable lines (`GeteventLine`, `EvemuLine`, `EvtestLine`, `LibinputRecordReader`),
///   time going backwards on a device, events beyond `ContactTracker.maximumFrameEvents` in one
///   frame, and frames whose data belongs to no contact. The rest is still read.
/// - libinput: YAML is not read line by line; `read(bytes:)`/`read(line:)` keep the text and
///   `finish()` reads it all through `LibinputRecordReader` (which `DeviceLogSource` uses directly,
///   streaming).
/// - Memory: the open contacts, one frame per device, one partial line (libinput: the text).
public struct DeviceLogReader: Sendable {
    public let format: DeviceLogFormat
    /// The input's name in `SourceLocation`s (a path, or `-` for standard input).
    public let file: String
    /// 16 hex digits naming the input's content; session ids start with it.
    public let contentHash: String
    public let options: DeviceLogOptions
    /// Lines read so far (the number of the last line read).
    public private(set) var lineNumber = 0

    private var recorder: InputEventRecorder
    private var headerDevice = ""
    private var evtestState = EvtestHeaderState()
    /// The raw text of the line each item the last `read(line:)` or `finish()` returned came from,
    /// in order (an evtest event is returned when the line after it is read).
    public private(set) var itemRaws: [String] = []
    /// evtest: the last `Event:` line, held until the next line says whether it was wrapped.
    private var heldEvtestLine: (raw: String, line: Int, parsed: InputLogLine)?
    private var partialLine: [UInt8] = []
    /// libinput: the whole text, read at `finish()`.
    private var yamlText: [UInt8] = []

    public init(format: DeviceLogFormat, file: String, contentHash: String,
                options: DeviceLogOptions = DeviceLogOptions()) {
        self.format = format; self.file = file; self.contentHash = contentHash; self.options = options
        recorder = InputEventRecorder(file: file, contentHash: contentHash, options: options)
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
            case .warning(let w): result.warnings.append(w)
            }
        }
        return result
    }

    /// Reads a chunk of bytes; lines end at `\n` (a `\r` before it is dropped), and a line cut
    /// at the chunk's end waits for the next chunk or `finish()`.
    public mutating func read<B: Sequence>(bytes: B) -> [DeviceLogItem] where B.Element == UInt8 {
        if format == .libinput { yamlText.append(contentsOf: bytes); return [] }
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

    /// Reads the last line when the input does not end with a newline (libinput: the whole
    /// text). Call once at the end.
    public mutating func finish() -> [DeviceLogItem] {
        itemRaws.removeAll(keepingCapacity: true)
        if format == .libinput {
            var yaml = LibinputRecordReader(ByteInput(bytes: yamlText, name: file), recorder: recorder)
            var out: [DeviceLogItem] = []
            while let item = try? yaml.next() { out.append(item) }
            recorder = yaml.recorder
            lineNumber = yaml.lineNumber
            yamlText = []
            return out
        }
        var out = partialLine.isEmpty ? [] : readBufferedLine()
        if let held = heldEvtestLine {
            if out.isEmpty { itemRaws.removeAll(keepingCapacity: true) }
            heldEvtestLine = nil
            out += apply(held.parsed, line: held.line, raw: Substring(held.raw))
        }
        return out
    }

    private mutating func readBufferedLine() -> [DeviceLogItem] {
        if partialLine.last == UInt8(ascii: "\r") { partialLine.removeLast() }
        let text = String(decoding: partialLine, as: UTF8.self)
        partialLine.removeAll(keepingCapacity: true)
        return read(line: text)
    }

    /// Reads one line, without its line terminator (a trailing `\r` is dropped).
    public mutating func read<S: StringProtocol>(line input: S) -> [DeviceLogItem] {
        var raw = Substring(input)
        if raw.last == "\r" || raw.last == "\r\n" { raw = raw.dropLast() }
        if format == .libinput {
            yamlText.append(contentsOf: raw.utf8)
            yamlText.append(0x0A)
            return []
        }
        itemRaws.removeAll(keepingCapacity: true)
        lineNumber += 1
        var parsed: InputLogLine
        var warnings: [DeviceLogItem] = []
        switch format {
        case .getevent:
            if let device = GeteventLine.addedDevice(raw) { headerDevice = device }
            parsed = GeteventLine.parse(raw, currentHeaderDevice: headerDevice)
            if case .malformed = parsed, let (rest, junk) = GeteventLine.parseAfterJunk(raw, currentHeaderDevice: headerDevice) {
                switch rest {
                case .event, .otherEvent:
                    parsed = rest
                    warnings.append(recorder.warning("text \(JSONText.string(String(junk))) before the timestamp is ignored; "
                        + "the rest of the line is read as an event", line: lineNumber, raw))
                case .malformed(let reason):
                    parsed = .malformed("not a getevent line: text \(JSONText.string(String(junk))) before the timestamp, and \(reason)")
                case .skip, .axisRange, .axisValue:
                    break
                }
            }
        case .evemu: parsed = EvemuLine.parse(raw)
        case .evtest: return readEvtest(raw)
        case .libinput: parsed = .skip
        }
        itemRaws.append(contentsOf: repeatElement(String(raw), count: warnings.count))
        return warnings + apply(parsed, line: lineNumber, raw: raw)
    }

    /// What a parsed line gives: records, a reject, or nothing (a header line noted).
    private mutating func apply(_ parsed: InputLogLine, line: Int, raw: Substring) -> [DeviceLogItem] {
        let items = items(parsed, line: line, raw: raw)
        itemRaws.append(contentsOf: repeatElement(String(raw), count: items.count))
        return items
    }

    private mutating func items(_ parsed: InputLogLine, line: Int, raw: Substring) -> [DeviceLogItem] {
        switch parsed {
        case .skip:
            return []
        case .axisRange(let device, let code, let range):
            recorder.axis(device: device, code: code, range)
            return []
        case .axisValue(let device, let code, let value):
            recorder.axisValue(device: device, code: code, value)
            return []
        case .malformed(let reason):
            return [recorder.reject(reason, line: line, raw)]
        case .otherEvent(let time, let device):
            return recorder.otherEvent(time: time, device: device, line: line, raw: raw)
        case .event(let event):
            return recorder.event(event, line: line, raw: raw)
        }
    }

    /// The two rejects of lines that look wrapped and cannot be rejoined.
    private mutating func wrapped(_ why: String, _ held: (raw: String, line: Int, parsed: InputLogLine),
                                  _ raw: Substring) -> [DeviceLogItem] {
        itemRaws += [held.raw, String(raw)]
        return [recorder.reject(why, line: held.line, Substring(held.raw)), recorder.reject(why, line: lineNumber, raw)]
    }

    /// An evtest line. An `Event:` line is held until the next line is read: when that one is no
    /// evtest line by itself but completes the held one — a mailer wrapped the event line at a
    /// space (joined with one), or at a quoted-printable soft break (a trailing `=`, joined
    /// without) — the two are read as one event, numbered by the first line. When they do not
    /// join, the held line is rejected if it is not an event, and the next if it is no evtest
    /// line, each saying the lines look wrapped; when they join into another event than the held
    /// line alone is, both are rejected so.
    private mutating func readEvtest(_ raw: Substring) -> [DeviceLogItem] {
        if let held = heldEvtestLine {
            heldEvtestLine = nil
            let next = raw.deviceLogTrimmed()
            // After an `Event:` line, even a cut one, other lines are no longer preamble remarks.
            var probe = evtestState
            probe.seenEvent = true
            guard !next.isEmpty, !next.hasPrefix("Event:"), case .malformed = EvtestLine.parse(raw, state: &probe) else {
                return apply(held.parsed, line: held.line, raw: Substring(held.raw)) + readEvtest(raw)
            }
            let first = Substring(held.raw).deviceLogTrimmed()
            let joinedText = first.hasSuffix("=") ? String(first.dropLast()) + next : first + " " + next
            let joined = EvtestLine.event(Substring(joinedText))
            let heldValid: Bool
            if case .malformed = held.parsed { heldValid = false } else { heldValid = true }
            let joinedValid: Bool
            if case .malformed = joined { joinedValid = false } else { joinedValid = true }
            if joinedValid, !heldValid || joined == held.parsed {
                evtestState.seenEvent = true
                return apply(joined, line: held.line, raw: Substring(joinedText))
            }
            if joinedValid {
                let why = "lines \(held.line) and \(lineNumber) look like one event line wrapped in two (by a mailer?), "
                    + "but line \(held.line) is an event alone and another joined; rejoin or remove them by hand"
                return wrapped(why, held, raw)
            }
            guard case .malformed(let reason) = held.parsed else {
                // A whole event, then a line of another kind: each is read as it is.
                return apply(held.parsed, line: held.line, raw: Substring(held.raw)) + apply(EvtestLine.parse(raw, state: &evtestState), line: lineNumber, raw: raw)
            }
            let alone = EvtestLine.parse(raw, state: &evtestState)
            guard case .malformed(let nextReason) = alone else {
                return apply(held.parsed, line: held.line, raw: Substring(held.raw)) + apply(alone, line: lineNumber, raw: raw)
            }
            itemRaws += [held.raw, String(raw)]
            return [recorder.reject("\(reason) (the lines look wrapped: line \(lineNumber) may be its rest, but the two "
                                    + "do not join into one event; rejoin them by hand)", line: held.line, Substring(held.raw)),
                    recorder.reject("\(nextReason) (the lines look wrapped: this may be the rest of line \(held.line), but "
                                    + "the two do not join into one event)", line: lineNumber, raw)]
        }
        let parsed = EvtestLine.parse(raw, state: &evtestState)
        if raw.deviceLogTrimmed().hasPrefix("Event:") {
            heldEvtestLine = (String(raw), lineNumber, parsed)
            return []
        }
        return apply(parsed, line: lineNumber, raw: raw)
    }

    /// The contacts that have begun and not lifted, in touch-down order, with their last record.
    public var openContacts: [DeviceLogOpenContact] { recorder.openContacts }

    /// Events read after the last `SYN_REPORT` (a frame cut off at the end of input): they belong
    /// to no record. Not a reject — the lines themselves are well formed.
    public var uncommittedEvents: Int { recorder.uncommittedEvents }

    /// The protocol a device turned out to use ("" for logs that name no device).
    public func touchProtocol(device: String = "") -> TouchProtocol? { recorder.touchProtocol(device: device) }

    /// The axis ranges used for a sample's X and Y: `options.absRange`, else the recording's
    /// ranges for its axes (multi-touch axes fall back to the single-touch ones and vice versa).
    public func ranges(device: String, axes: ContactAxes) -> (x: AxisRange?, y: AxisRange?) {
        recorder.ranges(device: device, axes: axes)
    }
}
