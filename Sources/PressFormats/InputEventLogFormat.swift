// Telling a device recording's format from its first lines, for `--format auto`.

/// The device recording formats pressdb reads.
public enum DeviceLogFormat: String, Sendable, Hashable, CaseIterable {
    /// Android `getevent -t` or `getevent -lt` output.
    case getevent
    /// An `evemu-record` recording.
    case evemu
    /// An `evtest /dev/input/eventN` dump, with or without its header.
    case evtest
    /// A `libinput record` YAML recording (version 1).
    case libinput

    /// The number of lines `detect` looks at before giving up.
    public static let detectionLineLimit = 64

    /// The format of a recording from its first lines, or nil when it is none of them (NDJSON,
    /// CSV, …). The first decisive line wins:
    /// - `# libinput record`, or a YAML `version: N` line followed by `ndevices:`, `libinput:`,
    ///   `system:` or `devices:`, means libinput;
    /// - `# EVEMU`, an `N:`/`I:`/`P:`/`B:`/`A:` header or a readable `E:` event means evemu;
    /// - evtest's first header line (`Input driver version is …`), its device selection (`No device
    ///   specified, trying to scan …`, `Available devices:`, `Select the device event number`), a
    ///   shell prompt running evtest (`$ sudo evtest`) or a readable `Event: time …` line means evtest;
    ///   a first line that names evtest as a command in a prompt of another shape
    ///   (`device: ~/ ./evtest /dev/input/event1`) is looked past, and the lines after it decide;
    /// - `add device` or a readable `[ sec.usec ] …` event means getevent.
    /// Blank lines, other `#` comments, getevent's indented header lines and evtest's
    /// `/dev/input/eventN:` device list are passed over; any other line means none. Looks at most
    /// at `detectionLineLimit` lines.
    public static func detect<S: Sequence>(lines: S) -> DeviceLogFormat? where S.Element: StringProtocol {
        var seen = 0
        var yamlVersion = false
        var firstLine = true
        for raw in lines {
            seen += 1
            if seen > detectionLineLimit { break }
            let line = raw.deviceLogTrimmed()
            if line.isEmpty { continue }
            // A first line naming evtest is the prompt a pasted dump begins with: look past it.
            if firstLine, !EvtestLine.isSignature(line), EvtestLine.invokesEvtest(line) { firstLine = false; continue }
            firstLine = false
            if line.hasPrefix("# libinput record") { return .libinput }
            if line.hasPrefix("# EVEMU") { return .evemu }
            if line.first == "#" { continue }
            if yamlVersion {
                return ["ndevices:", "libinput:", "system:", "devices:"].contains(where: { line.hasPrefix($0) }) ? .libinput : nil
            }
            if line.hasPrefix("version:") { yamlVersion = true; continue }
            if ["N:", "I:", "P:", "B:", "A:"].contains(where: { line.hasPrefix($0) }) { return .evemu }
            if line.hasPrefix("E:") {
                if case .event = EvemuLine.parse(line) { return .evemu }
                return nil
            }
            if EvtestLine.isSignature(line) { return .evtest }
            if line.hasPrefix("Event:") { return nil }
            if line.hasPrefix("add device") { return .getevent }
            // evtest's device list (`/dev/input/event3:<tab>Name`) before `Select the device…`.
            if line.hasPrefix("/dev/input/event"), !line.contains("[") { continue }
            switch GeteventLine.parse(Substring(raw)) {
            case .event, .otherEvent: return .getevent
            case .skip, .axisRange, .axisValue: continue
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
