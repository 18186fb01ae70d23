// Telling a device recording's format from its first lines, for `--format auto`.

/// The device recording formats pressdb reads.
public enum DeviceLogFormat: String, Sendable, Hashable, CaseIterable {
    /// Android `getevent -t` or `getevent -lt` output.
    case getevent
    /// An `evemu-record` recording.
    case evemu

    /// The number of lines `detect` looks at before giving up.
    public static let detectionLineLimit = 64

    /// Reads one line in this format.
    public func parse(_ line: Substring) -> InputLogLine {
        switch self {
        case .getevent: return GeteventLine.parse(line)
        case .evemu: return EvemuLine.parse(line)
        }
    }

    /// The format of a recording from its first lines, or nil when it is neither (NDJSON, CSV, …).
    /// The first decisive line wins: `# EVEMU`, an `N:`/`I:`/`P:`/`B:`/`A:` header or a readable
    /// `E:` event means evemu; `add device` or a readable `[ sec.usec ] …` event means getevent.
    /// Blank lines, other `#` comments and getevent's indented header lines are passed over; any
    /// other line means neither. Looks at most at `detectionLineLimit` lines.
    public static func detect<S: Sequence>(lines: S) -> DeviceLogFormat? where S.Element: StringProtocol {
        var seen = 0
        for raw in lines {
            seen += 1
            if seen > detectionLineLimit { break }
            let line = raw.deviceLogTrimmed()
            if line.isEmpty { continue }
            if line.hasPrefix("# EVEMU") { return .evemu }
            if line.first == "#" { continue }
            if ["N:", "I:", "P:", "B:", "A:"].contains(where: { line.hasPrefix($0) }) { return .evemu }
            if line.hasPrefix("E:") {
                if case .event = EvemuLine.parse(line) { return .evemu }
                return nil
            }
            if line.hasPrefix("add device") { return .getevent }
            switch GeteventLine.parse(Substring(raw)) {
            case .event, .otherEvent: return .getevent
            case .skip, .axisRange: continue
            case .malformed: return nil
            }
        }
        return nil
    }

    /// The format of a recording from its first bytes (any prefix; 4 KiB is plenty). Lines are
    /// split at `\n`; bytes that are not UTF-8 are replaced.
    public static func detect<B: Sequence>(prefix bytes: B) -> DeviceLogFormat? where B.Element == UInt8 {
        let text = String(decoding: Array(bytes), as: UTF8.self)
        // "\r\n" is one Character in Swift, so it is a separator of its own.
        return detect(lines: text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }))
    }
}
