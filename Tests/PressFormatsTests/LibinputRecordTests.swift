// `libinput record` YAML read end to end: hand-made recordings of the variants libinput 1.12 to
// 1.29 write (contacts worked out by hand from the kernel's protocol-B rules), and the shared
// real one (/work/shared/data/libinput), whose expected contacts come from
// `scripts/count-contacts --detail` — a python3 script that reads the YAML with PyYAML's
// pure-Python loader (not libyaml) and applies the kernel's rules (see EvtestRecordingTests.swift).
import Foundation
import Testing
import PressCore
@testable import PressFormats

/// A protocol-B tap: tracking id `id` at (x, y) at `t`, lifted 0.1 s later; two `- evdev:` frames.
private func tap(_ t: Int, _ id: Int, _ x: Int, _ y: Int, indent: String = "  ") -> String {
    """
    \(indent)- evdev:
    \(indent)  - [  \(t),      0,   3,  57,   \(id)] # EV_ABS / ABS_MT_TRACKING_ID
    \(indent)  - [  \(t),      0,   3,  53,   \(x)]
    \(indent)  - [  \(t),      0,   3,  54,   \(y)]
    \(indent)  - [  \(t),      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
    \(indent)- evdev:
    \(indent)  - [  \(t), 100000,   3,  57,      -1]
    \(indent)  - [  \(t), 100000,   0,   0,       0]
    """
}

/// A recording of one device, /dev/input/event2, whose `events:` list is `events` (lines 5 on:
/// the header is lines 1 to 4).
private func oneDevice(_ events: String) -> String {
    "version: 1\ndevices:\n- node: /dev/input/event2\n  events:\n" + events
}

private func samples(_ result: DeviceLogResult) -> [[TouchSample]] { result.sessions.map { $0.records.map(\.sample) } }

@Suite struct LibinputRecordTests {
    /// libinput 1.12's layout: no `# libinput record` line, the devices list indented, no
    /// `system.os`, no `hid`. Axis ranges without resolution: points are raw.
    @Test func anOldRecording() {
        let text = """
            version: 1
            ndevices: 1
            libinput:
              version: "1.12.6"
              git: "unknown"
            system:
              kernel: "4.19.0"
              dmi: "dmi:bvnLENOVO"
            devices:
              - node: /dev/input/event4
                evdev:
                  # Name: Touchscreen
                  name: "Touchscreen"
                  id: [3, 1267, 262, 272]
                  codes:
                    0: [0, 1, 2] # EV_SYN
                    3: [0, 1, 47, 53, 54, 57] # EV_ABS
                  absinfo:
                    53: [0, 4095, 0, 0, 0]
                    54: [0, 4095, 0, 0, 0]
                  properties: [1]
                events:
            \(tap(1, 5, 100, 200, indent: "      "))
            """
        #expect(DeviceLogFormat.detect(prefix: Array(text.utf8)) == .libinput)
        let result = readRecording(text, format: .libinput, file: "old.yml")
        #expect(result.rejects.isEmpty, "\(result.rejects)")
        #expect(samples(result) == [[TouchSample(t: 1, x: 100, y: 200, phase: .began), TouchSample(t: 1.1, x: 100, y: 200, phase: .ended)]])
        // The record's source is its SYN_REPORT entry's line: `events:` is line 22, `- evdev:` 23,
        // its four entries 24 to 27 (counted in the text above).
        #expect(result.records.first?.source == SourceLocation(file: "old.yml", line: 27))
    }

    /// Two devices, each tracked on its own, with HID descriptors and interleaved `- hid:` and
    /// `- libinput:` entries and `# Current time is` comments, which are passed over. The touchpad
    /// (event15) gives resolutions 32 and 31 units/mm: its tap at (1600, 620) is (50 mm, 20 mm) =
    /// (314.960…, 125.984…) pt (python3: 50 * 160 / 25.4); the touchscreen's (event4) ranges have
    /// none: raw.
    @Test func twoDevicesAndInterleavedFrames() {
        let text = """
            # libinput record
            version: 1
            ndevices: 2
            libinput:
              version: "1.29.1"
            system:
              os: "fedora:42"
            devices:
            - node: /dev/input/event15
              evdev:
                name: "Touchpad"
                absinfo:
                  53: [0, 3999, 0, 0, 32]
                  54: [0, 1999, 0, 0, 31]
              hid: [
                0x05, 0x01, 0x09, 0x02,
              ]
              events:
              # Current time is 11:14:38
              - hid:
                  time: [0, 5]
                  hidraw0: [0x04, 0x01]
            \(tap(0, 15, 1600, 620))
              - libinput:
                - {time: 0.1, type: POINTER_BUTTON}
            - node: /dev/input/event4
              evdev:
                name: "Touchscreen"
                absinfo:
                  53: [0, 799, 0, 0]
                  54: [0, 479, 0, 0]
              events:
            \(tap(2, 8, 300, 100))
            """
        let result = readRecording(text, format: .libinput)
        #expect(result.rejects.isEmpty, "\(result.rejects)")
        let s = samples(result)
        try? #require(s.count == 2)
        #expect(abs(s[0][0].x - 314.96062992125985) < 1e-9 && abs(s[0][0].y - 125.98425196850394) < 1e-9)
        #expect(s[0].map(\.phase) == [.began, .ended])
        #expect(s[1] == [TouchSample(t: 2, x: 300, y: 100, phase: .began), TouchSample(t: 2.1, x: 300, y: 100, phase: .ended)])
    }

    /// Bad entries are rejected with their line and text, the rest read: line 9 has two numbers,
    /// line 10 an unknown EV_ABS code, line 11 a microsecond count of a million.
    @Test func badEntriesAreRejectedAndTheRestRead() {
        let text = oneDevice("""
              - evdev:
                - [0, 0, 3, 57, 1]
                - [0, 0, 3, 53, 10]
                - [0, 0, 3, 54, 20]
                - [0, 1]
                - [0, 0, 3, 99, 1]
                - [0, 1000000, 3, 53, 11]
                - [0, 0, 0, 0, 0]
              - evdev:
                - [0, 50000, 3, 57, -1]
                - [0, 50000, 0, 0, 0]
            """)
        let result = readRecording(text, format: .libinput, file: "b.yaml")
        #expect(result.rejects.map(\.source.description) == ["b.yaml:9", "b.yaml:10", "b.yaml:11"])
        #expect(result.rejects[0].reason.hasPrefix("an event is [sec, usec, type, code, value] with integers"))
        #expect(result.rejects[0].raw == "    - [0, 1]")
        #expect(result.rejects[1].reason == "unknown EV_ABS code 0x0063")
        #expect(result.rejects[2].reason.contains("microseconds 0 to 999999"))
        #expect(samples(result) == [[TouchSample(t: 0, x: 10, y: 20, phase: .began), TouchSample(t: 0.05, x: 10, y: 20, phase: .ended)]])
    }

    /// A YAML syntax error (line 11's entry is not closed, which libyaml finds at line 12): one
    /// reject naming it, and reading resumes with a new parser at the next frame (line 13, which
    /// lifts the contact) and goes on through the next device (line 16) without another reject.
    @Test func aSyntaxErrorSkipsToTheNextFrame() {
        let text = oneDevice("""
              - evdev:
                - [0, 0, 3, 57, 1]
                - [0, 0, 3, 53, 10]
                - [0, 0, 3, 54, 20]
                - [0, 0, 0, 0, 0]
              - evdev:
                - [0, 50000, 3, 53, 11
                - [0, 50000, 0, 0, 0]
              - evdev:
                - [0, 90000, 3, 57, -1]
                - [0, 90000, 0, 0, 0]
            - node: /dev/input/event3
              events:
              - evdev:
                - [1, 0, 3, 57, 4]
                - [1, 0, 3, 53, 30]
                - [1, 0, 3, 54, 40]
                - [1, 0, 0, 0, 0]
              - evdev:
                - [1, 50000, 3, 57, -1]
                - [1, 50000, 0, 0, 0]
            """)
        let result = readRecording(text, format: .libinput, file: "s.yaml")
        #expect(result.rejects.map(\.source.line) == [12], "\(result.rejects)")
        #expect(result.rejects.first?.reason.hasPrefix("not valid YAML: ") == true)
        #expect(result.rejects.first?.reason.hasSuffix("line 12 is skipped and reading resumes at line 13") == true, "\(result.rejects)")
        #expect(samples(result) == [
            [TouchSample(t: 0, x: 10, y: 20, phase: .began), TouchSample(t: 0.09, x: 10, y: 20, phase: .ended)],
            [TouchSample(t: 1, x: 30, y: 40, phase: .began), TouchSample(t: 1.05, x: 30, y: 40, phase: .ended)],
        ])
        #expect(result.openContacts.isEmpty)
        // Cut inside the broken entry, nothing starts a frame after it: the reading ends there,
        // the contact stays open (pending).
        let cut = readRecording(text.split(separator: "\n").prefix(11).joined(separator: "\n"), format: .libinput, file: "c.yaml")
        #expect(cut.rejects.count == 1 && cut.rejects.first?.reason.hasSuffix("the rest of the file is not read") == true, "\(cut.rejects)")
        #expect(cut.openContacts.count == 1)
    }

    /// Found by the seeded fuzz loop: libyaml also breaks lines at a lone `\r` (and U+2028), so its
    /// line count ran ahead of the file's; marks are mapped through character offsets instead. The
    /// quoted name on line 4 holds a CR and a U+2028; the bad entry is on line 8.
    @Test func linesAreTheFilesEvenWithALoneCarriageReturn() {
        let text = "version: 1\ndevices:\n- node: /dev/input/event2\n  name: \"a\rb\u{2028}c\"\n  events:\n  - evdev:\n"
            + "    - [0, 0, 3, 57, 1]\n    - [0, 1]\n    - [0, 0, 0, 0, 0]\n"
        let result = readRecording(text, format: .libinput, file: "cr.yaml")
        #expect(result.rejects.map(\.description) == ["cr.yaml:8: an event is [sec, usec, type, code, value] with integers, not [\"0\", \"1\"]"])
        #expect(result.records.first?.source.line == 9)
    }

    @Test func otherVersionsAndOtherDocumentsAreRejected() {
        let v2 = readRecording("version: 2\ndevices:\n- node: /dev/input/event2\n  events: []\n", format: .libinput, file: "v.yaml")
        #expect(v2.rejects.map(\.description) == [#"v.yaml:1: libinput record version "2": pressdb reads version 1"#])
        let other = readRecording("name: not a recording\nitems: [1, 2]\n", format: .libinput, file: "o.yaml")
        #expect(other.rejects.map(\.reason) == ["not a libinput record: no `devices:` list (with each device's `events:`)"])
        let deep = readRecording("version: 1\ndevices: " + String(repeating: "[", count: 100_000), format: .libinput, file: "d.yaml")
        #expect(deep.rejects.count == 1 && deep.rejects.first?.reason.hasPrefix("nested deeper than 32 levels") == true, "\(deep.rejects)")
        // An evtest dump given as libinput: line 2 is not valid YAML after line 1 (a plain scalar),
        // and what is read from line 2 on has no devices: two rejects, no records.
        let evtest = readRecording("Input driver version is 1.0.1\nInput device ID: bus 0x3\n", format: .libinput)
        #expect(evtest.rejects.map(\.source.line) == [2, 1] && evtest.records.isEmpty, "\(evtest.rejects)")
        #expect(evtest.rejects.last?.reason.hasPrefix("not a libinput record") == true)
    }

    /// `DeviceLogSource` streams the YAML from its input; the same items as `readAll`.
    @Test func theSourceStreamsTheSameItems() throws {
        let text = oneDevice(tap(3, 1, 40, 50) + "\n")
        var source = DeviceLogSource(ByteInput(text: text, name: "t.yaml"), format: .libinput, contentHash: "abc")
        var touches: [TouchRecord] = []
        while let item = try source.next() {
            if case .touch(let r) = item { touches.append(r) } else { Issue.record("\(item)") }
        }
        #expect(touches.map(\.sample) == [TouchSample(t: 3, x: 40, y: 50, phase: .began), TouchSample(t: 3.1, x: 40, y: 50, phase: .ended)])
        #expect(touches.map(\.session) == ["abc-c0001", "abc-c0001"])
        #expect(source.lastRaw == "    - [  3, 100000,   0,   0,       0]")
    }
}

@Suite(.enabled(if: SharedRecordings.available, "the shared recordings (../shared/data beside the package) are not here"))
struct LibinputRecordingTests {
    static let file = "libinput/libinput-record_elan1206-touchpad_elan1206-bug.yaml"

    /// From `scripts/count-contacts --detail`: 25 one-finger taps of two records each, raw
    /// touch-down positions (the lift is at the same place), 0.000000 s … 4.991823 s.
    static let touchDowns: [(t: Double, x: Double, y: Double)] = [
        (0.000000, 1208, 1074), (0.207921, 1233, 466), (0.416079, 1898, 629), (0.623974, 2538, 1175),
        (0.831956, 3182, 502), (1.039964, 2278, 273), (1.247951, 972, 803), (1.456099, 1160, 196),
        (1.664098, 1745, 684), (1.871966, 2406, 1242), (2.079941, 3334, 557), (2.287979, 2834, 1095),
        (2.495967, 1772, 551), (2.703750, 821, 779), (2.911996, 1555, 63), (3.119851, 1668, 1260),
        (3.327981, 2721, 705), (3.535993, 3060, 1128), (3.743956, 2947, 1238), (3.951874, 1875, 812),
        (4.159821, 1191, 512), (4.367990, 848, 1127), (4.575966, 2071, 623), (4.783975, 2105, 1475),
        (4.991823, 3039, 498),
    ]

    @Test func everySharedFileIsCovered() throws {
        #expect(try SharedRecordings.files(in: "libinput") == [Self.file])
    }

    @Test func contactsMatchTheIndependentCount() throws {
        let bytes = try SharedRecordings.bytes(Self.file)
        #expect(DeviceLogFormat.detect(prefix: bytes.prefix(16_384)) == .libinput)
        // Raw positions: the absinfo ranges (0…3987 × 0…1960) without their resolution.
        let raw = try AbsRanges(parsing: "0:3987,0:1960")
        let result = DeviceLogReader.readAll(bytes, format: .libinput, file: Self.file, options: DeviceLogOptions(absRange: raw))
        #expect(result.rejects.isEmpty, "\(result.rejects)")
        #expect(result.openContacts.isEmpty)
        let sessions = result.sessions
        try #require(sessions.count == Self.touchDowns.count)
        for (s, e) in zip(sessions, Self.touchDowns) {
            #expect(s.records.count == 2)
            #expect(s.first.phase == .began && s.last.phase == .ended)
            #expect(sameTime(s.first.t, e.t) && s.first.x == e.x && s.first.y == e.y, "\(s.first)")
            #expect(s.last.x == e.x && s.last.y == e.y)
        }
    }

    /// A touchpad: units from the absinfo resolutions, 32 and 31 units/mm. The pad is
    /// 3987 / 32 = 124.6 by 1960 / 31 = 63.2 mm, as the recording's `# Size in mm: 124x63` says; the
    /// first tap, raw (1208, 1074), is 1208 / 32 · 160 / 25.4 = 237.795… by 1074 / 31 · 160 / 25.4 =
    /// 218.237… pt (python3).
    @Test func touchpadUnitsFromTheResolution() throws {
        var reader = LibinputRecordReader(ByteInput(bytes: try SharedRecordings.bytes(Self.file), name: "t"), contentHash: "0")
        var first: TouchRecord?
        while let item = try reader.next() { if first == nil, case .record(let r) = item { first = r } }
        #expect(reader.touchProtocol(device: "/dev/input/event15") == .multiTouchB)
        #expect(reader.ranges(device: "/dev/input/event15", axes: .multiTouch).x == AxisRange(min: 0, max: 3987, resolution: 32))
        #expect(abs((first?.sample.x ?? 0) - 237.7952755905512) < 1e-9 && abs((first?.sample.y ?? 0) - 218.23723647447298) < 1e-9)
    }
}
