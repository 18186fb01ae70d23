// `libinput record` recordings (libinput's tools/libinput-record.c; man libinput-record, "FILE
// FORMAT"), read with libyaml's event parser:
//
//   # libinput record                      (not written before libinput 1.13 or so)
//   version: 1
//   ndevices: 1
//   libinput: {version: "1.29.1", git: "unknown"}
//   system: {os: "fedora:42", kernel: "6.16.9", dmi: "…"}
//   devices:
//   - node: /dev/input/event15
//     evdev:
//       name: "ELAN1206:00 04F3:30F1 Touchpad"
//       absinfo:
//         53: [0, 3987, 0, 0, 32]           code: [min, max, fuzz, flat, resolution]
//     hid: [0x05, 0x01, …]                  the HID report descriptor (ignored)
//     udev: {properties: [ID_INPUT=1, …]}
//     quirks: [AttrResolutionHint=45x45]
//     events:
//     # Current time is 11:14:38
//     - evdev:
//       - [  0,      0,   3,  57,      15]   [sec, usec, type, code, value], time relative to the
//       - [  0,      0,   0,   0,       0]   recording's start
//     - hid: {time: [0, 123], hidraw0: […]}   HID reports (ignored), as are `libinput:` entries
//
// Only `version`, each device's `node`, `evdev.absinfo` and `events[].evdev` are read; every other
// key is passed over, so what later libinput versions add does not matter.
import CYAML
import PressCore

/// Reads a `libinput record` YAML file from a `ByteInput`, streaming: libyaml asks for the text
/// one line at a time, and each `[sec, usec, type, code, value]` entry goes to the same contact
/// tracking as the line formats (`InputEventRecorder`).
///
/// - Devices: each `devices[]` entry is tracked on its own, under its `node` (or `device N`);
///   its `absinfo` gives the axis ranges and resolutions (a touchpad's positions become points
///   from them, see `DeviceLogOptions`).
/// - Rejects (`file:line: reason`, the entry's line as raw text): an event entry that is not five
///   integers, an unknown type or code, `usec` outside 0…999999, time going backwards on a
///   device, a bad `absinfo` entry, a `version` other than 1, nesting deeper than
///   `maximumDepth` (which ends the reading), and a YAML syntax error. libyaml cannot go on after
///   one, so the reader resumes with a new parser at the next line that starts a frame (`- evdev:`,
///   `- hid:`, `- libinput:`), a device (`- node:`) or a top-level key, in the context it was in;
///   the reject names the lines skipped. With no such line the reading ends (contacts still down
///   stay pending).
/// - Lines: the file's (`ByteInput`'s), also where a line holds a lone `\r` or U+2028, which
///   libyaml counts as line breaks: marks are mapped through their character offsets.
/// - Memory: libyaml's buffers, the last `recentLines` lines (for the rejects' raw text and a
///   resumption), the open contacts and one frame per device.
public struct LibinputRecordReader {
    /// Collections nested deeper than this end the reading (libinput's are 6 deep; a hostile
    /// `[[[[…` would otherwise grow libyaml's stacks without bound).
    public static let maximumDepth = 32
    /// The version of the format pressdb reads (`version: 1`, libinput 1.12 to 1.29 at least).
    public static let formatVersion = 1

    private var parser: YAMLParser
    private let input: ByteInput
    var recorder: InputEventRecorder
    /// The line of the last item returned (for `lastRaw`).
    public private(set) var lineNumber = 0
    /// The raw text of the line of the last item returned.
    public private(set) var lastRaw = ""
    private var queue: [DeviceLogItem] = []
    private var queueIndex = 0
    private var finished = false

    /// Where the parser is: one entry per open collection, outermost first.
    private var levels: [Level] = []
    /// The collections a parser resumed after a syntax error starts inside (its document's root
    /// stands for the next level down): `devices[i].events`, `devices`, or the top.
    private var base: [Level] = []
    /// The parser was started after a syntax error, inside `base`.
    private var resumed = false
    /// The entry (`absinfo` code, or an event) whose scalars are being gathered.
    private var entry: Entry?
    /// The current device's name and number (1-based).
    private var device = ""
    private var deviceNumber = 0
    private var sawDocument = false

    private enum Level {
        case mapping(key: String?)
        case sequence(index: Int)
    }

    private struct Entry {
        enum Kind { case absinfo(code: String), event }
        var kind: Kind
        var line: Int
        /// The depth of the entry's own sequence.
        var depth: Int
        var values: [String] = []
        var nested = false
    }

    /// Reads `input` (its name is the file in rejects and record sources).
    public init(_ input: ByteInput, contentHash: String, options: DeviceLogOptions = DeviceLogOptions()) {
        self.init(input, recorder: InputEventRecorder(file: input.name, contentHash: contentHash, options: options))
    }

    init(_ input: ByteInput, recorder: InputEventRecorder) {
        parser = YAMLParser(input, firstLine: input.lineNumber + 1)
        self.input = input
        self.recorder = recorder
    }

    /// The next record, reject or warning, or nil at the end.
    /// - Throws: `InputError` when the input cannot be read.
    public mutating func next() throws -> DeviceLogItem? {
        while queueIndex == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueIndex = 0
            if finished { return nil }
            try step()
        }
        let item = queue[queueIndex]
        queueIndex += 1
        switch item {
        case .record(let r): lineNumber = r.source.line; lastRaw = parser.text(ofLine: r.source.line)
        case .reject(let r): lineNumber = r.source.line; lastRaw = r.raw
        case .warning(let w): lineNumber = w.source.line; lastRaw = w.raw
        }
        return item
    }

    /// The contacts that have begun and not lifted, in touch-down order.
    public var openContacts: [DeviceLogOpenContact] { recorder.openContacts }
    /// Events after the last `SYN_REPORT` of a device (a recording cut off mid-frame).
    public var uncommittedEvents: Int { recorder.uncommittedEvents }
    /// The protocol a device (its `node`) turned out to use.
    public func touchProtocol(device: String) -> TouchProtocol? { recorder.touchProtocol(device: device) }
    /// The axis ranges used for a device's samples (see `DeviceLogReader.ranges`).
    public func ranges(device: String, axes: ContactAxes) -> (x: AxisRange?, y: AxisRange?) {
        recorder.ranges(device: device, axes: axes)
    }

    // MARK: Events

    private mutating func step() throws {
        switch parser.nextEvent() {
        case .failure(let problem):
            if let e = parser.inputError { throw e }
            try resume(after: problem)
        case .success(let event):
            handle(event)
        }
    }

    private mutating func handle(_ event: YAMLParser.Event) {
        switch event.kind {
        case .streamEnd:
            finished = true
            if sawDocument && deviceNumber == 0 {
                queue.append(recorder.reject("not a libinput record: no `devices:` list (with each device's `events:`)",
                                             line: 1, Substring(parser.text(ofLine: 1))))
            }
        case .documentStart:
            sawDocument = true
            levels = base
        case .documentEnd, .streamStart:
            levels = base
        case .scalar(let text):
            if case .mapping(key: nil)? = levels.last {
                levels[levels.count - 1] = .mapping(key: text)
                return
            }
            value(scalar: text, line: event.line)
            advance()
        case .alias:
            if case .mapping(key: nil)? = levels.last { levels[levels.count - 1] = .mapping(key: "*"); return }
            if entry != nil { entry?.nested = true }
            advance()
        case .sequenceStart, .mappingStart:
            if case .mapping(key: nil)? = levels.last {
                // A collection as a mapping key: not libinput's; pass over it under a key of its own.
                levels[levels.count - 1] = .mapping(key: "?")
            }
            if entry != nil { entry?.nested = true }
            if levels.count >= Self.maximumDepth {
                finished = true
                queue.append(recorder.reject("nested deeper than \(Self.maximumDepth) levels; the rest of the file is not read",
                                             line: event.line, Substring(parser.text(ofLine: event.line))))
                return
            }
            if case .sequenceStart = event.kind {
                if entry == nil, let kind = entryKind() { entry = Entry(kind: kind, line: event.line, depth: levels.count + 1) }
                levels.append(.sequence(index: 0))
            } else {
                if at(["devices", "#"]) { deviceNumber += 1; device = "device \(deviceNumber)" }
                levels.append(.mapping(key: nil))
            }
        case .sequenceEnd, .mappingEnd:
            if let e = entry, e.depth == levels.count {
                entry = nil
                levels.removeLast()
                finish(e)
            } else {
                levels.removeLast()
            }
            advance()
        }
    }

    /// After a syntax error: rejects the line it is on, finds the next line where a frame, a device
    /// or a top-level key starts (that line itself, unless the current parser started there),
    /// and reads on from it with a new parser, in the matching context.
    private mutating func resume(after problem: YAMLParser.Problem) throws {
        var from = problem.line > parser.firstLine ? problem.line : problem.line + 1
        var restart: (line: Int, base: [Level])? = nil
        while restart == nil, let (n, bytes) = try parser.line(atOrAfter: from) {
            from = n + 1
            restart = resumption(at: bytes).map { (n, $0) }
        }
        // A resumed parser's document ends where its context does (the next device, a top-level
        // key): not an error of the file, which the next parser reads on from.
        if resumed, let restart, restart.line == problem.line {
            entry = nil
            base = restart.base
            levels = base
            parser = YAMLParser(input, resumingFrom: parser, at: restart.line)
            return
        }
        let skipped: String
        if let restart {
            skipped = restart.line > problem.line + 1 ? "lines \(problem.line) to \(restart.line - 1) are skipped and reading resumes at line \(restart.line)"
                : restart.line == problem.line + 1 ? "line \(problem.line) is skipped and reading resumes at line \(restart.line)"
                : "reading resumes at this line"
        } else {
            skipped = "nothing after it starts a frame, device or key, so the rest of the file is not read"
        }
        queue.append(recorder.reject("not valid YAML: \(problem.message); \(skipped)", line: problem.line,
                                     Substring(parser.text(ofLine: problem.line))))
        guard let restart else { finished = true; return }
        resumed = true
        entry = nil
        base = restart.base
        levels = base
        parser = YAMLParser(input, resumingFrom: parser, at: restart.line)
    }

    /// The context a parser starting at this line reads in, or nil when it starts nothing.
    private func resumption(at bytes: [UInt8]) -> [Level]? {
        let line = String(decoding: bytes, as: UTF8.self)
        let trimmed = line.drop(while: { $0 == " " })
        if trimmed.hasPrefix("- evdev:") || trimmed.hasPrefix("- hid:") || trimmed.hasPrefix("- libinput:") {
            // Within the current device's events (or the last device's).
            let device: Level = levels.count > 1 && levels.first.map(isDevices) == true ? levels[1] : .sequence(index: max(0, deviceNumber - 1))
            return [.mapping(key: "devices"), device, .mapping(key: "events")]
        }
        if trimmed.hasPrefix("- node:") { return [.mapping(key: "devices")] }
        if let first = line.first, first.isLetter, line.contains(":") { return [] }
        return nil
    }

    private func isDevices(_ level: Level) -> Bool {
        if case .mapping(key: "devices") = level { return true }
        return false
    }

    /// After a node: the parent mapping expects its next key, the parent sequence its next item.
    private mutating func advance() {
        switch levels.last {
        case .mapping?: levels[levels.count - 1] = .mapping(key: nil)
        case .sequence(let i)?: levels[levels.count - 1] = .sequence(index: i + 1)
        case nil: break
        }
    }

    /// Whether the open collections are `pattern`: keys by name, `#` any sequence item, `?` any key.
    private func at(_ pattern: [String]) -> Bool {
        guard levels.count == pattern.count else { return false }
        for (level, p) in zip(levels, pattern) {
            switch level {
            case .mapping(let key): if p == "#" || (p != "?" && key != p) { return false }
            case .sequence: if p != "#" { return false }
            }
        }
        return true
    }

    private func entryKind() -> Entry.Kind? {
        if at(["devices", "#", "events", "#", "evdev", "#"]) { return .event }
        if at(["devices", "#", "evdev", "absinfo", "?"]), case .mapping(let key?)? = levels.last { return .absinfo(code: key) }
        return nil
    }

    private mutating func value(scalar text: String, line: Int) {
        if entry != nil {
            if entry!.depth == levels.count { entry!.values.append(text) } else { entry!.nested = true }
            return
        }
        if at(["version"]), text != String(Self.formatVersion) {
            queue.append(recorder.reject("libinput record version \(JSONText.string(text)): pressdb reads version \(Self.formatVersion)",
                                         line: line, Substring(parser.text(ofLine: line))))
        } else if at(["devices", "#", "node"]) {
            device = text
        }
    }

    private mutating func finish(_ e: Entry) {
        let raw = Substring(parser.text(ofLine: e.line))
        let numbers = e.values.map(Self.integer)
        switch e.kind {
        case .absinfo(let codeText):
            guard let code = UInt16(codeText), code <= 0x3f else {
                queue.append(recorder.reject("absinfo code \(JSONText.string(codeText)) is not an EV_ABS code (0 to 63)", line: e.line, raw))
                return
            }
            guard !e.nested, numbers.count >= 2, numbers.count <= 6, let lo = numbers[0], let hi = numbers[1],
                  numbers.allSatisfy({ $0 != nil }) else {
                queue.append(recorder.reject("absinfo \(code) is not [min, max, fuzz, flat, resolution] with integers", line: e.line, raw))
                return
            }
            guard lo <= hi else {
                queue.append(recorder.reject("absinfo \(code): the minimum \(lo) exceeds the maximum \(hi)", line: e.line, raw))
                return
            }
            let resolution = numbers.count >= 5 ? numbers[4]! : 0
            recorder.axis(device: device, code: code, AxisRange(min: lo, max: hi, resolution: max(0, resolution)))
        case .event:
            guard !e.nested, numbers.count == 5, let sec = numbers[0], let usec = numbers[1], let t = numbers[2],
                  let c = numbers[3], let v = numbers[4] else {
                queue.append(recorder.reject("an event is [sec, usec, type, code, value] with integers, not "
                    + "[\(e.values.map { JSONText.string($0) }.joined(separator: ", "))\(e.nested ? ", …" : "")]", line: e.line, raw))
                return
            }
            guard sec >= 0, (0..<1_000_000).contains(usec) else {
                queue.append(recorder.reject("time \(sec) s \(usec) µs: seconds must be ≥ 0 and microseconds 0 to 999999", line: e.line, raw))
                return
            }
            guard let type = UInt16(exactly: t), let code = UInt16(exactly: c) else {
                queue.append(recorder.reject("event type \(t) or code \(c) is outside 0 to 65535", line: e.line, raw))
                return
            }
            if let problem = InputEventType.problem(type: type, code: code) {
                queue.append(recorder.reject(problem, line: e.line, raw))
                return
            }
            guard let value = Int32(exactly: v) else {
                queue.append(recorder.reject("value \(v) is not a 32-bit integer", line: e.line, raw))
                return
            }
            let time = Double(sec) + Double(usec) / 1_000_000
            if type == InputEventType.syn || type == InputEventType.abs || type == InputEventType.key {
                queue += recorder.event(InputEvent(time: time, type: type, code: code, value: value, device: device),
                                        line: e.line, raw: raw)
            } else {
                queue += recorder.otherEvent(time: time, device: device, line: e.line, raw: raw)
            }
        }
    }

    /// A YAML integer as libinput writes it: decimal, optionally signed (or 0x hex).
    static func integer(_ text: String) -> Int? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return Int(text.dropFirst(2), radix: 16) }
        return Int(text)
    }
}

/// libyaml's event parser over a `ByteInput`, fed one line at a time; remembers the last lines
/// fed so a reject can quote its line.
final class YAMLParser {
    /// One parser event, with the 1-based line where its node starts.
    struct Event {
        enum Kind {
            case streamStart, streamEnd, documentStart, documentEnd
            case scalar(String), alias
            case sequenceStart, sequenceEnd, mappingStart, mappingEnd
        }
        var kind: Kind
        var line: Int
    }

    /// libyaml's error: what, with where (1-based line and column).
    struct Problem: Error {
        var message: String
        var line: Int
    }

    /// How many of the lines fed last are kept for rejects' raw text. libyaml reads ahead at most
    /// a token and a simple key's 1024 characters, so the line of any event is among them.
    static let recentLines = 256

    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: ByteInput
    private var pending: [UInt8] = []
    private var pendingOffset = 0
    /// The number of the first line this parser is fed; libyaml counts lines from it.
    let firstLine: Int
    /// The last line fed (or read ahead for a resumption).
    private var linesFed = 0
    /// Lines read from the input and not fed yet (a resumption's), in order.
    private var queued: [(line: Int, bytes: [UInt8])] = []
    private var recent: [(line: Int, bytes: [UInt8])] = []
    /// Where each line fed starts in libyaml's count of characters (`yaml_mark_t.index`), so a
    /// mark is mapped to our line numbers: libyaml also breaks lines at a lone `\r` and at
    /// U+0085, U+2028 and U+2029, which a line may hold.
    private var starts: [(line: Int, index: Int)] = []
    private var charactersFed = 0
    private(set) var inputError: InputError?
    private var failed = false

    /// A parser of `input` from its next line, numbered `firstLine`.
    convenience init(_ input: ByteInput, firstLine: Int) {
        self.init(input, firstLine: firstLine, queued: [], recent: [])
    }

    /// A parser of `input` from line `line`, which `previous` read (its lines after that are fed
    /// first, then the input's).
    convenience init(_ input: ByteInput, resumingFrom previous: YAMLParser, at line: Int) {
        self.init(input, firstLine: line, queued: previous.recent.filter { $0.line >= line }, recent: previous.recent)
        linesFed = previous.linesFed
    }

    private init(_ input: ByteInput, firstLine: Int, queued: [(line: Int, bytes: [UInt8])], recent: [(line: Int, bytes: [UInt8])]) {
        self.input = input
        self.firstLine = firstLine
        self.queued = queued
        self.recent = recent
        parser = .allocate(capacity: 1)
        yaml_parser_initialize(parser)
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input(parser, { data, buffer, size, sizeRead in
            let me = Unmanaged<YAMLParser>.fromOpaque(data!).takeUnretainedValue()
            return me.fill(buffer!, size, sizeRead!)
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
    }

    /// The text of line `n` (1-based) if it is among the last lines read, else "".
    func text(ofLine n: Int) -> String {
        recent.last(where: { $0.line == n }).map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
    }

    /// The first line numbered `n` or later, from the lines read already or the input (which it
    /// then reads, for a resumption to feed later); nil at the end.
    func line(atOrAfter n: Int) throws -> (Int, [UInt8])? {
        if let r = recent.first(where: { $0.line >= n }) { return (r.line, r.bytes) }
        guard let bytes = try readLine() else { return nil }
        return (linesFed, bytes)
    }

    /// The next line of the input, kept in `recent`.
    private func readLine() throws -> [UInt8]? {
        guard let line = try input.nextLine() else { return nil }
        let bytes = Array(line)
        linesFed = input.lineNumber
        recent.append((linesFed, bytes))
        if recent.count > 2 * Self.recentLines { recent.removeFirst(recent.count - Self.recentLines) }
        return bytes
    }

    /// libyaml's read handler: copies up to `size` bytes of the current line (with its `\n`),
    /// taking the next queued line or reading one from the input when it is used up; 0 bytes at
    /// the end.
    private func fill(_ buffer: UnsafeMutablePointer<UInt8>, _ size: Int, _ sizeRead: UnsafeMutablePointer<Int>) -> Int32 {
        if pendingOffset == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingOffset = 0
            let number: Int
            if !queued.isEmpty {
                (number, pending) = queued.removeFirst()
            } else {
                do {
                    guard let bytes = try readLine() else { sizeRead.pointee = 0; return 1 }
                    (number, pending) = (linesFed, bytes)
                } catch {
                    inputError = error as? InputError ?? InputError("\(input.name): \(error)")
                    return 0
                }
            }
            pending.append(0x0A)
            starts.append((number, charactersFed))
            if starts.count > 2 * Self.recentLines { starts.removeFirst(starts.count - Self.recentLines) }
            // UTF-8 characters: the bytes that are not continuation bytes (10xxxxxx).
            charactersFed += pending.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        }
        let n = min(size, pending.count - pendingOffset)
        pending.withUnsafeBufferPointer { b in buffer.update(from: b.baseAddress! + pendingOffset, count: n) }
        pendingOffset += n
        sizeRead.pointee = n
        return 1
    }

    /// Our number of the line a mark is on: the last line fed that starts at or before it.
    private func line(of mark: yaml_mark_t) -> Int {
        let index = Int(mark.index)
        guard let first = starts.first, index >= first.index else { return Int(mark.line) + firstLine }
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid].index <= index { lo = mid } else { hi = mid - 1 }
        }
        return starts[lo].line
    }

    /// The next event, or libyaml's error (after which there are no more events).
    func nextEvent() -> Result<Event, Problem> {
        if failed { return .failure(Problem(message: "the parser stopped at an earlier error", line: linesFed)) }
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else {
            failed = true
            let p = parser.pointee
            let problem = p.problem.map { String(cString: $0) } ?? "error"
            let line = self.line(of: p.problem_mark)
            var message = "\(problem) at line \(line), column \(Int(p.problem_mark.column) + 1)"
            if let context = p.context.map({ String(cString: $0) }) {
                message += " (\(context) at line \(self.line(of: p.context_mark)), column \(Int(p.context_mark.column) + 1))"
            }
            return .failure(Problem(message: message, line: min(max(line, firstLine), max(linesFed, firstLine))))
        }
        defer { yaml_event_delete(&event) }
        let line = self.line(of: event.start_mark)
        let kind: Event.Kind
        switch event.type {
        case YAML_STREAM_START_EVENT: kind = .streamStart
        case YAML_STREAM_END_EVENT: kind = .streamEnd
        case YAML_DOCUMENT_START_EVENT: kind = .documentStart
        case YAML_DOCUMENT_END_EVENT: kind = .documentEnd
        case YAML_ALIAS_EVENT: kind = .alias
        case YAML_SCALAR_EVENT:
            let s = event.data.scalar
            kind = .scalar(String(decoding: UnsafeBufferPointer(start: s.value, count: Int(s.length)), as: UTF8.self))
        case YAML_SEQUENCE_START_EVENT: kind = .sequenceStart
        case YAML_SEQUENCE_END_EVENT: kind = .sequenceEnd
        case YAML_MAPPING_START_EVENT: kind = .mappingStart
        case YAML_MAPPING_END_EVENT: kind = .mappingEnd
        default: kind = .streamEnd
        }
        return .success(Event(kind: kind, line: line))
    }
}
