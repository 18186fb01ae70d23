// One line of an evemu recording (`evemu-record`, freedesktop.org evemu), read on its own.
//
//   # EVEMU 1.3                        comment (anything after `#`)
//   N: Atmel maXTouch Touchscreen      device name
//   I: 0018 0000 0000 0000             bus, vendor, product, version
//   P: 02 00 00 00 00 00 00 00         input properties bitmask
//   B: 03 03 00 00 00 00 80 e0 0a      event-code bitmasks
//   A: 35 0 799 0 0 0                  axis: code (hex), min, max, fuzz, flat, resolution (decimal)
//   E: 0.054565 0003 0039 0008         event: sec.usec, type (hex), code (hex), value (decimal)
//
// evemu prints the type and code with `%04x` and the value with `%04d`, so the value is decimal
// and may be negative (`-001` for a tracking id of −1).

/// Reads single evemu recording lines.
public enum EvemuLine {
    /// Header line prefixes that carry nothing pressdb uses (name, id, properties, bitmasks,
    /// LED and switch states).
    static let headerPrefixes = ["N:", "I:", "P:", "B:", "L:", "S:"]

    /// Reads one line (its terminator already removed; a trailing `\r` and blanks are ignored).
    public static func parse(_ raw: Substring) -> InputLogLine {
        var line = raw.deviceLogTrimmed()
        if line.isEmpty || line.first == "#" { return .skip }
        if let hash = line.firstIndex(of: "#") { line = line[..<hash].deviceLogTrimmed() }
        if line.hasPrefix("E:") { return event(line.dropFirst(2)) }
        if line.hasPrefix("A:") { return axis(line.dropFirst(2)) }
        if headerPrefixes.contains(where: { line.hasPrefix($0) }) { return .skip }
        return .malformed("not an evemu line: expected `E:`, a header (`N:`, `I:`, `P:`, `B:`, `A:`) or a `#` comment")
    }

    static func fields(_ s: Substring) -> [Substring] {
        s.split(whereSeparator: { $0 == " " || $0 == "\t" })
    }

    static func event(_ rest: Substring) -> InputLogLine {
        let f = fields(rest)
        guard f.count >= 4 else {
            return .malformed("truncated event: expected `E: sec.usec type code value`")
        }
        guard f.count == 4 else {
            return .malformed("unexpected text `\(f[4...].joined(separator: " "))` after the value")
        }
        guard let time = GeteventLine.parseTimestamp(f[0]) else {
            return .malformed("timestamp `\(f[0])` is not `seconds.microseconds`")
        }
        guard let type = hex(f[1]) else { return .malformed("event type `\(f[1])` is not hexadecimal") }
        guard let code = hex(f[2]) else { return .malformed("event code `\(f[2])` is not hexadecimal") }
        if let problem = InputEventType.problem(type: type, code: code) { return .malformed(problem) }
        guard let value = Int32(f[3]) else {
            return .malformed("value `\(f[3])` is not a decimal integer")
        }
        return .event(InputEvent(time: time, type: type, code: code, value: value))
    }

    static func axis(_ rest: Substring) -> InputLogLine {
        let f = fields(rest)
        guard f.count >= 3, let code = hex(f[0]), let lo = Int(f[1]), let hi = Int(f[2]) else {
            return .malformed("axis line is not `A: code min max fuzz flat [resolution]`")
        }
        guard code <= 0x3f else { return .malformed("unknown EV_ABS code 0x\(InputEventType.hex4(code))") }
        guard lo <= hi else { return .malformed("axis minimum \(lo) exceeds its maximum \(hi)") }
        // `A: code min max fuzz flat resolution`; evemu before 2.0 wrote no resolution.
        let resolution = f.count >= 6 ? Int(f[5]) ?? 0 : 0
        return .axisRange(device: "", code: code, AxisRange(min: lo, max: hi, resolution: max(0, resolution)))
    }

    /// 1 to 4 hex digits.
    static func hex(_ s: Substring) -> UInt16? {
        guard (1...4).contains(s.count), s.allSatisfy(\.isHexDigit) else { return nil }
        return UInt16(s, radix: 16)
    }
}
