// One line of Android's `getevent` output (system/core/toolbox/getevent.c), read on its own.
//
//   getevent -lt:  [   12345.678901] /dev/input/event1: EV_ABS       ABS_MT_POSITION_X    000001a4
//   getevent -t:   [   12345.678901] /dev/input/event1: 0003 0035 000001a4
//
// The `/dev/input/eventN:` prefix is absent when getevent was given one device. getevent prints
// the type and code as 4 hex digits (`%04x`) or, with -l, as names when it knows them, and the
// value as 8 hex digits (`%08x`), or with -l as DOWN/UP/REPEAT for EV_KEY. Header lines
// (`add device 1: /dev/input/event1`, `  name: "…"`, and with -p the indented capability lists)
// are skipped; a -p axis line (`ABS_MT_POSITION_X : value 0, min 0, max 1079, …`) gives a range.

/// Reads single `getevent -t` / `getevent -lt` lines.
public enum GeteventLine {
    /// Number of hex digits getevent prints for a type or code (`%04x`).
    public static let codeDigits = 4
    /// Number of hex digits getevent prints for a value (`%08x`).
    public static let valueDigits = 8

    /// Header lines getevent prints before events (device discovery and -p/-i capability lists).
    static let headerPrefixes = ["add device", "remove device", "could not", "name:", "events:",
                                 "input props:", "version:", "location:", "id:", "bus:", "bus ",
                                 "driver:", "idc:", "INPUT_PROP_"]

    /// Reads one line (its terminator already removed; a trailing `\r` and blanks are ignored).
    /// `device` is the device the header last announced (`add device N: PATH`), used for -p ranges.
    public static func parse(_ raw: Substring, currentHeaderDevice device: String = "") -> InputLogLine {
        let line = raw.deviceLogTrimmed()
        if line.isEmpty { return .skip }
        guard line.first == "[" else {
            if line.hasPrefix("/dev/input/") {
                return .malformed("event without a timestamp: record with `getevent -t` or `getevent -lt`")
            }
            if let range = axisRangeLine(line, device: device) { return range }
            if headerPrefixes.contains(where: { line.hasPrefix($0) }) || raw.first == " " || raw.first == "\t" {
                return .skip
            }
            return .malformed("not a getevent line: expected `[ sec.usec ] type code value`")
        }
        guard let close = line.firstIndex(of: "]") else {
            return .malformed("truncated line: the timestamp has no closing `]`")
        }
        let stamp = line[line.index(after: line.startIndex)..<close].deviceLogTrimmed()
        guard let time = parseTimestamp(stamp) else {
            return .malformed("timestamp `\(stamp)` is not `seconds.microseconds`")
        }
        var fields = line[line.index(after: close)...].split(whereSeparator: { $0 == " " || $0 == "\t" })
        var deviceName = ""
        if let first = fields.first, first.hasSuffix(":") {
            deviceName = String(first.dropLast())
            fields.removeFirst()
        }
        guard fields.count >= 3 else {
            return .malformed("truncated line: expected an event type, code and value after the timestamp")
        }
        if fields.count > 3, fields[3] != "rate" {  // `getevent -r` appends `rate N` to SYN_REPORT
            return .malformed("unexpected text `\(fields[3...].joined(separator: " "))` after the value")
        }
        // Type.
        let type: UInt16
        if let named = InputEventType.named(fields[0]) {
            type = named
        } else if let n = hexNumber(fields[0], digits: codeDigits) {
            type = UInt16(n)
        } else {
            return .malformed("unknown event type `\(fields[0])`")
        }
        // Code: a known name, 4 hex digits, or (with -l) a name of the type's family we do not use.
        var code: UInt16? = nil
        if let named = InputEventCode.names[String(fields[1])] {
            guard named.type == type else {
                return .malformed("event code `\(fields[1])` does not belong to type `\(fields[0])`")
            }
            code = named.code
        } else if let n = hexNumber(fields[1], digits: codeDigits) {
            code = UInt16(n)
        } else {
            let entry = InputEventType.table.first { $0.type == type }
            let inFamily = entry.map { e in e.codePrefixes.contains { fields[1].hasPrefix($0) } } ?? false
            // EV_SYN and EV_ABS names are all in the table, so an unlisted one is unknown.
            guard inFamily, type != InputEventType.syn, type != InputEventType.abs else {
                return .malformed("unknown event code `\(fields[1])` for type `\(fields[0])`")
            }
        }
        if let code, let problem = InputEventType.problem(type: type, code: code) {
            return .malformed(problem)
        }
        // Value.
        let value: Int32
        switch (type, fields[2]) {
        case (InputEventType.key, "DOWN"): value = 1
        case (InputEventType.key, "UP"): value = 0
        case (InputEventType.key, "REPEAT"): value = 2
        default:
            guard let n = hexNumber(fields[2], digits: valueDigits) else {
                return .malformed("value `\(fields[2])` is not \(valueDigits) hex digits")
            }
            value = Int32(bitPattern: UInt32(n))
        }
        guard let code else { return .otherEvent(time: time, device: deviceName) }
        return .event(InputEvent(time: time, type: type, code: code, value: value, device: deviceName))
    }

    /// A line with text before its `[` (a stray character pasted before the timestamp, seen in
    /// real recordings): the line read from its first `[`, and the text before it. Nil when the
    /// line starts with `[` or has none. The caller reads the event only when `line` is one
    /// (`.event`, `.otherEvent`), with a warning naming the text.
    public static func parseAfterJunk(_ raw: Substring, currentHeaderDevice device: String = "")
        -> (line: InputLogLine, junk: Substring)? {
        let line = raw.deviceLogTrimmed()
        guard line.first != "[", let open = line.firstIndex(of: "[") else { return nil }
        return (parse(line[open...], currentHeaderDevice: device), line[..<open].deviceLogTrimmed())
    }

    /// The device path of an `add device N: /dev/input/eventX` header line, or nil.
    public static func addedDevice(_ raw: Substring) -> String? {
        let line = raw.deviceLogTrimmed()
        guard line.hasPrefix("add device"), let colon = line.firstIndex(of: ":") else { return nil }
        let path = line[line.index(after: colon)...].deviceLogTrimmed()
        return path.isEmpty ? nil : String(path)
    }

    /// A `getevent -p` axis line: `[ABS (0003):] NAME_OR_HEX : value V, min A, max B, fuzz …`.
    static func axisRangeLine(_ line: Substring, device: String) -> InputLogLine? {
        guard let valueMark = line.firstRange(of: ": value ") else { return nil }
        let head = line[..<valueMark.lowerBound].split(separator: " ").last.map(String.init) ?? ""
        let code: UInt16
        if let named = InputEventCode.names[head], named.type == InputEventType.abs {
            code = named.code
        } else if let n = hexNumber(Substring(head), digits: codeDigits) {
            code = UInt16(n)
        } else {
            return .skip
        }
        let parts = line[valueMark.upperBound...].split(separator: ",").map { $0.deviceLogTrimmed() }
        func number(_ key: String) -> Int? {
            parts.first { $0.hasPrefix(key + " ") }.flatMap { Int($0.dropFirst(key.count + 1)) }
        }
        guard let lo = number("min"), let hi = number("max") else { return .skip }
        return .axisRange(device: device, code: code, AxisRange(min: lo, max: hi, resolution: max(0, number("resolution") ?? 0)))
    }

    /// `sec.usec` → seconds.
    static func parseTimestamp(_ s: Substring) -> Double? {
        guard !s.isEmpty, s.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              s.filter({ $0 == "." }).count <= 1 else { return nil }
        return Double(s)
    }

    /// Exactly `digits` hex digits → their value.
    static func hexNumber(_ s: Substring, digits: Int) -> UInt64? {
        guard s.count == digits, s.allSatisfy(\.isHexDigit) else { return nil }
        return UInt64(s, radix: 16)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and carriage returns.
    func deviceLogTrimmed() -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\r\n" }
        var s = self[...]
        while let f = s.first, blank(f) { s = s.dropFirst() }
        while let l = s.last, blank(l) { s = s.dropLast() }
        return Substring(s)
    }
}
