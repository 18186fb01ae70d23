// One line of an `evtest` dump (freedesktop.org evtest, evtest.c), read with what the lines
// before it said (the header's current axis).
//
//   Input driver version is 1.0.1                              header (skipped)
//   Input device ID: bus 0x3 vendor 0x4f3 product 0x106 …
//   Input device name: "ELAN Touchscreen"
//   Supported events:
//     Event type 3 (EV_ABS)                                    the type the codes below belong to
//       Event code 53 (ABS_MT_POSITION_X)                      an axis (keys and LEDs may add ` state N`)
//         Value      0                                         Value, Min, Max always; Fuzz, Flat,
//                                                              (ABS_MT_SLOT's Value: the slot current)
//         Min        0                                         Resolution only when not 0
//         Max     4089                                         (print_absdata)
//         Resolution       9
//   Properties:
//     Property type 1 (INPUT_PROP_DIRECT)
//   Testing ... (interrupt to exit)
//   Event: time 1395784284.739323, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 197
//   Event: time 1395784284.739323, -------------- SYN_REPORT ------------
//   Event: time 1395784284.739323, ++++++++++++++ SYN_MT_REPORT ++++++++++++
//   Event: time 1395784284.739323, >>>>>>>>>>>>>> SYN_DROPPED <<<<<<<<<<<<
//
// print_events writes the value with `%d`, except EV_MSC MSC_RAW and MSC_SCAN with `%02x`; the
// type and code names are `?` when evtest does not know them (`code 53 (?)`), and the older
// evtest (the kernel-2.6 era one, before it printed the kernel's names) printed other names (`type 3 (Absolute)`, `-------------- Report Sync ------------`, and
// `Config Sync` for every EV_SYN code but 0, SYN_MT_REPORT included). The numbers are what
// count, so names are not checked. Before the header there may be evtest's device selection
// (`No device specified, trying to scan all of /dev/input/event*`, `Available devices:`, one
// `/dev/input/eventN:<tab>NAME` line per device, `Select the device event number [0-N]: N`) and
// a shell prompt running it (`$ evtest`, `root@pi:~# evtest /dev/input/event0`). Lines between
// `Testing ... (interrupt to exit)` and the first event are remarks of the tool that ran evtest
// (Chromium OS's recordings have two) and are skipped too; any other line is rejected.

/// What the lines read so far say about the header: the event type and axis being described,
/// and whether an event has been read (after it, unknown lines are errors, not preamble).
public struct EvtestHeaderState: Hashable, Sendable {
    var type: UInt16?
    var code: UInt16?
    var min: Int?
    var max: Int?
    var resolution = 0
    /// Within `Key repeat handling:`, whose `Value` lines are not an axis's.
    var inRepeat = false
    /// `Testing ... (interrupt to exit)` has been read: until the first event, other lines are remarks.
    var seenTesting = false
    /// An `Event:` line has been read.
    public internal(set) var seenEvent = false
    /// A non-blank line has been read (the first may be a prompt of any shape running evtest).
    var seenLine = false
    public init() {}
}

/// Reads single evtest lines.
public enum EvtestLine {
    /// Lines evtest prints besides the axes and events (header, device selection, grab banner).
    static let headerPrefixes = ["Input driver version is", "Input device ID:", "Input device name:", "Supported events:",
                                 "Properties:", "Property type", "Testing ... (interrupt to exit)",
                                 "No device specified", "Not running as root", "Available devices:",
                                 "Select the device event number", "/dev/input/event", "***", "$"]

    /// EV_SYN names as evtest prints them between the dashes (`codename()`), and the older evtest's.
    static let synNames: [Substring: UInt16] = [
        "SYN_REPORT": InputEventCode.synReport, "SYN_CONFIG": InputEventCode.synConfig,
        "SYN_MT_REPORT": InputEventCode.synMTReport, "SYN_DROPPED": InputEventCode.synDropped,
        "Report Sync": InputEventCode.synReport, "Config Sync": InputEventCode.synMTReport,
    ]

    /// Whether a line is evidently evtest's (for format detection): its header's first line, an
    /// event, the device selection or a shell prompt running evtest.
    static func isSignature(_ line: Substring) -> Bool {
        if line.hasPrefix("Input driver version is") || line.hasPrefix("No device specified, trying to scan")
            || line.hasPrefix("Select the device event number") || line.hasPrefix("Available devices:") {
            return true
        }
        if runsEvtest(line) { return true }
        if line.hasPrefix("Event:") { if case .event = event(line) { return true } }
        return false
    }

    /// A line naming evtest as a command (`evtest`, `./evtest`, `/usr/bin/evtest`): as the first
    /// line of a pasted dump it is the prompt that ran it, whatever the prompt's shape
    /// (`device: ~/ ./evtest /dev/input/event1`).
    static func invokesEvtest(_ line: Substring) -> Bool {
        line.split(separator: " ").contains { $0 == "evtest" || $0.hasSuffix("/evtest") }
    }

    /// A shell prompt line running evtest: `$ sudo evtest`, `root@pi:~# evtest /dev/input/event0`.
    static func runsEvtest(_ line: Substring) -> Bool {
        let words = line.split(separator: " ")
        guard let k = words.firstIndex(where: { $0 == "evtest" || $0.hasSuffix("/evtest") }), k > 0 else { return false }
        return words[..<k].contains { $0.hasSuffix("$") || $0.hasSuffix("#") || $0.hasSuffix(">") }
    }

    /// Reads one line (its terminator already removed; a trailing `\r` and blanks are ignored).
    public static func parse(_ raw: Substring, state: inout EvtestHeaderState) -> InputLogLine {
        let line = raw.deviceLogTrimmed()
        if line.isEmpty { return .skip }
        let firstLine = !state.seenLine
        state.seenLine = true
        if firstLine, !line.hasPrefix("Event:"), invokesEvtest(line) { return .skip }
        if line.hasPrefix("Event:") {
            let parsed = event(line)
            if case .malformed = parsed {} else { state.seenEvent = true }
            return parsed
        }
        if let axis = header(line, state: &state) { return axis }
        if line.hasPrefix("Testing ... (interrupt to exit)") { state.seenTesting = true }
        if headerPrefixes.contains(where: { line.hasPrefix($0) }) || raw.first == " " || raw.first == "\t"
            || (state.seenTesting && !state.seenEvent) || runsEvtest(line) {
            return .skip
        }
        return .malformed("not an evtest line: expected `Event: time S.US, type T (NAME), code C (NAME), value V`, "
            + "a SYN_REPORT separator or a header line")
    }

    /// A header line about types and axes: updates `state`, and returns the axis range when the
    /// line completes one (at `Max`, and again at `Resolution`); `.skip` for the other header
    /// lines it recognises; nil for any other line.
    static func header(_ line: Substring, state: inout EvtestHeaderState) -> InputLogLine? {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        guard let first = words.first else { return nil }
        switch first {
        case "Event" where words.count >= 3 && (words[1] == "type" || words[1] == "code"):
            guard let n = UInt16(words[2]) else { return nil }
            if words[1] == "type" {
                state = EvtestHeaderState(seenEvent: state.seenEvent, seenTesting: state.seenTesting, type: n)
            } else {
                state.code = n; state.min = nil; state.max = nil; state.resolution = 0
            }
            return .skip
        case "Key" where line.hasPrefix("Key repeat handling"), "Repeat":
            state = EvtestHeaderState(seenEvent: state.seenEvent, seenTesting: state.seenTesting, inRepeat: true)
            return .skip
        case "Value", "Min", "Max", "Fuzz", "Flat", "Resolution":
            guard words.count == 2, let n = Int(words[1]) else { return nil }
            guard !state.inRepeat, state.type == InputEventType.abs, let code = state.code else { return .skip }
            switch first {
            case "Value" where code == InputEventCode.absMTSlot:
                // The slot current when evtest started: events before the first slot event are its.
                guard let v = Int32(exactly: n), v >= 0 else { return .malformed("ABS_MT_SLOT value \(n) is not a slot") }
                return .axisValue(device: "", code: code, value: v)
            case "Min": state.min = n
            case "Max": state.max = n
            case "Resolution": state.resolution = n
            default: return .skip
            }
            guard first != "Min", let lo = state.min, let hi = state.max else { return .skip }
            guard code <= 0x3f else { return .malformed("unknown EV_ABS code \(code) in the header") }
            guard lo <= hi else { return .malformed("axis minimum \(lo) exceeds its maximum \(hi)") }
            return .axisRange(device: "", code: code, AxisRange(min: lo, max: hi, resolution: max(0, state.resolution)))
        default:
            return nil
        }
    }

    /// `Event: time S.US, type T (NAME), code C (NAME), value V` or `Event: time S.US, ----- NAME -----`.
    static func event(_ line: Substring) -> InputLogLine {
        var rest = line.dropFirst("Event:".count).deviceLogTrimmed()
        guard rest.hasPrefix("time ") else { return .malformed("event without a time: expected `Event: time S.US, …`") }
        rest = rest.dropFirst("time ".count)
        guard let comma = rest.firstIndex(of: ",") else { return .malformed("truncated event: nothing after the time") }
        let stamp = rest[..<comma].deviceLogTrimmed()
        guard let time = GeteventLine.parseTimestamp(stamp) else {
            return .malformed("timestamp `\(stamp)` is not `seconds.microseconds`")
        }
        rest = rest[rest.index(after: comma)...].deviceLogTrimmed()
        // EV_SYN: a name between runs of -, + or > and <.
        if let mark = rest.first, mark == "-" || mark == "+" || mark == ">" {
            let inner = rest.drop(while: { $0 == mark }).reversed().drop(while: { $0 == "-" || $0 == "+" || $0 == "<" })
            let name = Substring(String(inner.reversed())).deviceLogTrimmed()
            guard let code = synNames[name] else {
                return .malformed("unknown EV_SYN separator `\(name)`: expected SYN_REPORT, SYN_MT_REPORT, SYN_DROPPED or SYN_CONFIG")
            }
            return .event(InputEvent(time: time, type: InputEventType.syn, code: code, value: 0))
        }
        // type T (NAME), code C (NAME), value V
        let parts = rest.split(separator: ",", omittingEmptySubsequences: false).map { $0.deviceLogTrimmed() }
        guard parts.count >= 3 else {
            return .malformed("truncated event: expected `type T (NAME), code C (NAME), value V` after the time")
        }
        guard parts.count == 3 else { return .malformed("unexpected text `\(parts[3...].joined(separator: ","))` after the value") }
        guard let type = number(parts[0], label: "type") else { return .malformed("event type `\(parts[0])` is not `type T (NAME)`") }
        guard let code = number(parts[1], label: "code") else { return .malformed("event code `\(parts[1])` is not `code C (NAME)`") }
        if let problem = InputEventType.problem(type: type, code: code) { return .malformed(problem) }
        guard parts[2].hasPrefix("value ") else { return .malformed("`\(parts[2])` is not `value V`") }
        let text = parts[2].dropFirst("value ".count).deviceLogTrimmed()
        // MSC_RAW and MSC_SCAN values are printed in hex (%02x).
        let hex = type == InputEventType.msc && (code == 3 || code == 4)
        guard let value = hex ? UInt32(text, radix: 16).map({ Int32(bitPattern: $0) }) : Int32(text) else {
            return .malformed("value `\(text)` is not \(hex ? "hexadecimal" : "a decimal integer")")
        }
        let used = type == InputEventType.syn || type == InputEventType.abs || type == InputEventType.key
        guard used else { return .otherEvent(time: time, device: "") }
        return .event(InputEvent(time: time, type: type, code: code, value: value))
    }

    /// `type 3 (EV_ABS)` / `code 53 (?)` → the number; the name in parentheses is not checked.
    static func number(_ part: Substring, label: String) -> UInt16? {
        guard part.hasPrefix(label + " ") else { return nil }
        let rest = part.dropFirst(label.count + 1)
        let digits = rest.prefix(while: \.isNumber)
        let after = rest.dropFirst(digits.count).deviceLogTrimmed()
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), after.isEmpty || (after.first == "(" && after.last == ")") else {
            return nil
        }
        return UInt16(digits)
    }
}

extension EvtestHeaderState {
    init(seenEvent: Bool, seenTesting: Bool, type: UInt16? = nil, inRepeat: Bool = false) {
        self.init()
        self.seenEvent = seenEvent; self.seenTesting = seenTesting; self.type = type; self.inRepeat = inRepeat
        seenLine = true
    }
}
