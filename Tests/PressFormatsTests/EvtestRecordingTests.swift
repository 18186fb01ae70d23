// evtest dumps read end to end: hand-made dumps of each touch protocol (their contacts worked
// out by hand from the kernel's rules, Documentation/input/multi-touch-protocol.rst), and the
// shared real ones (/work/shared/data/evtest).
//
// The shared recordings' expected contacts come from scripts/count-contacts, a python3 script
// written from evtest's output format (evtest.c print_events) and the kernel's protocol rules,
// not from pressdb's code: `scripts/count-contacts --detail ../shared/data/evtest/*` prints, per
// contact, the touch-down and lift times (the SYN_REPORT lines' timestamps) and raw positions
// (slot values kept across frames and contacts), and the records a session of it has (its
// touch-down frame, each later frame with an event for its slot, and its lift frame).
import Foundation
import Testing
import PressCore
@testable import PressFormats

/// evtest's event line (print_events): `Event: time S.US, type T (?), code C (?), value V`.
func evtestEvent(_ t: Double, _ type: Int, _ code: Int, _ value: Int) -> String {
    "Event: time \(evtestTime(t)), type \(type) (?), code \(code) (?), value \(value)"
}
func evtestSyn(_ t: Double, mt: Bool = false) -> String {
    mt ? "Event: time \(evtestTime(t)), ++++++++++++++ SYN_MT_REPORT ++++++++++++"
       : "Event: time \(evtestTime(t)), -------------- SYN_REPORT ------------"
}
/// `%ld.%06ld`.
private func evtestTime(_ t: Double) -> String {
    let us = Int((t * 1_000_000).rounded())
    let frac = String(us % 1_000_000)
    return "\(us / 1_000_000)." + String(repeating: "0", count: 6 - frac.count) + frac
}
/// Reads `lines` as an evtest dump and checks it gives exactly `sessions` (each session's
/// samples, in contact order) and no reject.
private func expectSessions(_ lines: [String], _ sessions: [[TouchSample]], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let result = readRecording(lines.joined(separator: "\n"), format: .evtest)
    #expect(result.rejects.isEmpty, "\(result.rejects)", sourceLocation: sourceLocation)
    #expect(result.sessions.map { $0.records.map(\.sample) } == sessions, sourceLocation: sourceLocation)
}
private let (ABS, KEY) = (3, 1)
private let (X, Y, MTX, MTY, TID, SLOT, TOUCH) = (0, 1, 0x35, 0x36, 0x39, 0x2f, 0x14a)

@Suite struct EvtestProtocolTests {
    /// Protocol A: frame 1 lists (100, 200) and (500, 600); frame 2 only (505, 604), nearest to the
    /// second, so the first lifts; frame 3 is empty (an MT report alone): the second lifts.
    @Test func protocolA() {
        let lines = [
            evtestEvent(1.0, ABS, MTX, 100), evtestEvent(1.0, ABS, MTY, 200), evtestSyn(1.0, mt: true),
            evtestEvent(1.0, ABS, MTX, 500), evtestEvent(1.0, ABS, MTY, 600), evtestSyn(1.0, mt: true), evtestSyn(1.0),
            evtestEvent(1.1, ABS, MTX, 505), evtestEvent(1.1, ABS, MTY, 604), evtestSyn(1.1, mt: true), evtestSyn(1.1),
            evtestSyn(1.2, mt: true), evtestSyn(1.2),
        ]
        expectSessions(lines, [
            [TouchSample(t: 1.0, x: 100, y: 200, phase: .began), TouchSample(t: 1.1, x: 100, y: 200, phase: .ended)],
            [TouchSample(t: 1.0, x: 500, y: 600, phase: .began), TouchSample(t: 1.1, x: 505, y: 604, phase: .moved),
             TouchSample(t: 1.2, x: 505, y: 604, phase: .ended)],
        ])
        var reader = DeviceLogReader(format: .evtest, file: "a", contentHash: "0")
        for line in lines { _ = reader.read(line: line) }
        #expect(reader.touchProtocol() == .multiTouchA)
    }

    /// Protocol B without ABS_MT_SLOT events (slot 0 implied): tracking id 7 begins at (300, 400),
    /// x moves to 310, −1 lifts it.
    @Test func protocolBWithoutSlots() {
        let lines = [
            evtestEvent(2.0, ABS, TID, 7), evtestEvent(2.0, ABS, MTX, 300), evtestEvent(2.0, ABS, MTY, 400), evtestSyn(2.0),
            evtestEvent(2.1, ABS, MTX, 310), evtestSyn(2.1),
            evtestEvent(2.2, ABS, TID, -1), evtestSyn(2.2),
        ]
        expectSessions(lines, [[
            TouchSample(t: 2.0, x: 300, y: 400, phase: .began), TouchSample(t: 2.1, x: 310, y: 400, phase: .moved),
            TouchSample(t: 2.2, x: 310, y: 400, phase: .ended),
        ]])
    }

    /// Protocol B with slots: slot 1 touches down while slot 0 is down and lifts first.
    @Test func protocolBWithSlots() {
        let lines = [
            evtestEvent(1.0, ABS, SLOT, 0), evtestEvent(1.0, ABS, TID, 1), evtestEvent(1.0, ABS, MTX, 10), evtestEvent(1.0, ABS, MTY, 20), evtestSyn(1.0),
            evtestEvent(1.1, ABS, SLOT, 1), evtestEvent(1.1, ABS, TID, 2), evtestEvent(1.1, ABS, MTX, 30), evtestEvent(1.1, ABS, MTY, 40), evtestSyn(1.1),
            evtestEvent(1.2, ABS, TID, -1), evtestSyn(1.2),
            evtestEvent(1.3, ABS, SLOT, 0), evtestEvent(1.3, ABS, TID, -1), evtestSyn(1.3),
        ]
        expectSessions(lines, [
            [TouchSample(t: 1.0, x: 10, y: 20, phase: .began), TouchSample(t: 1.3, x: 10, y: 20, phase: .ended)],
            [TouchSample(t: 1.1, x: 30, y: 40, phase: .began), TouchSample(t: 1.2, x: 30, y: 40, phase: .ended)],
        ])
    }

    /// The header says slot 1 was current (`Event code 47 (ABS_MT_SLOT)`, `Value 1`): the first
    /// contact, sent without a slot event, is slot 1's, so slot 0's touch-down at 1.01 s begins a
    /// second contact beside it, and the first moves at 1.02 s and lifts at 1.03 s (worked out by
    /// hand from the kernel's protocol-B rules). Read as slot 0, the second contact ended the
    /// first at 1.01 s and the move and lift of slot 1 were rejected.
    @Test func theHeadersCurrentSlotOwnsTheFirstContact() {
        let header = [
            "Input driver version is 1.0.1", "Input device name: \"Atmel maXTouch Touchpad\"", "Supported events:",
            "  Event type 3 (EV_ABS)", "    Event code 47 (ABS_MT_SLOT)", "      Value      1", "      Min        0",
            "      Max        9", "    Event code 53 (ABS_MT_POSITION_X)", "      Value      0", "      Min        0",
            "      Max     1000", "    Event code 54 (ABS_MT_POSITION_Y)", "      Value      0", "      Min        0",
            "      Max     1000", "Properties:", "  Property type 0 (INPUT_PROP_POINTER)", "Testing ... (interrupt to exit)",
        ]
        let events = [
            evtestEvent(1.0, ABS, TID, 100), evtestEvent(1.0, ABS, MTX, 100), evtestEvent(1.0, ABS, MTY, 200), evtestSyn(1.0),
            evtestEvent(1.01, ABS, SLOT, 0), evtestEvent(1.01, ABS, TID, 101), evtestEvent(1.01, ABS, MTX, 300),
            evtestEvent(1.01, ABS, MTY, 400), evtestSyn(1.01),
            evtestEvent(1.02, ABS, SLOT, 1), evtestEvent(1.02, ABS, MTX, 110), evtestSyn(1.02),
            evtestEvent(1.03, ABS, TID, -1), evtestSyn(1.03),
            evtestEvent(1.04, ABS, SLOT, 0), evtestEvent(1.04, ABS, TID, -1), evtestSyn(1.04),
        ]
        expectSessions(header + events, [
            [TouchSample(t: 1.0, x: 100, y: 200, phase: .began), TouchSample(t: 1.02, x: 110, y: 200, phase: .moved),
             TouchSample(t: 1.03, x: 110, y: 200, phase: .ended)],
            [TouchSample(t: 1.01, x: 300, y: 400, phase: .began), TouchSample(t: 1.04, x: 300, y: 400, phase: .ended)],
        ])
        // Without the header the slot is 0, as the kernel's default; the same events then lose the
        // first contact's move and lift.
        let headerless = readRecording(events.joined(separator: "\n"), format: .evtest)
        #expect(headerless.rejects.count == 2)
    }

    /// Single touch: BTN_TOUCH 1 at (50, 60), ABS_X to 55, BTN_TOUCH 0.
    @Test func singleTouch() {
        let lines = [
            evtestEvent(3.0, KEY, TOUCH, 1), evtestEvent(3.0, ABS, X, 50), evtestEvent(3.0, ABS, Y, 60), evtestSyn(3.0),
            evtestEvent(3.1, ABS, X, 55), evtestSyn(3.1),
            evtestEvent(3.2, KEY, TOUCH, 0), evtestSyn(3.2),
        ]
        expectSessions(lines, [[
            TouchSample(t: 3.0, x: 50, y: 60, phase: .began), TouchSample(t: 3.1, x: 55, y: 60, phase: .moved),
            TouchSample(t: 3.2, x: 55, y: 60, phase: .ended),
        ]])
    }

    /// A dump pasted with its device selection and prompt, CRLF line endings, an epoch time: the
    /// header's ranges apply (max 799 × 479, no screen: px = raw − min = raw), nothing is rejected.
    @Test func preambleHeaderAndEpochTimes() {
        let text = [
            "$ sudo evtest", "No device specified, trying to scan all of /dev/input/event*", "Available devices:",
            "/dev/input/event0:\tPower Button", "/dev/input/event5:\tFT5406 memory based driver",
            "Select the device event number [0-5]: 5",
            "Input driver version is 1.0.1", "Input device name: \"FT5406 memory based driver\"", "Supported events:",
            "  Event type 3 (EV_ABS)", "    Event code 53 (ABS_MT_POSITION_X)", "      Value      0", "      Min        0",
            "      Max      799", "    Event code 54 (ABS_MT_POSITION_Y)", "      Value      0", "      Min        0", "      Max      479",
            "Properties:", "  Property type 1 (INPUT_PROP_DIRECT)", "Testing ... (interrupt to exit)",
            evtestEvent(1527643165.133998, ABS, TID, 16), evtestEvent(1527643165.133998, ABS, MTX, 375),
            evtestEvent(1527643165.133998, ABS, MTY, 119), evtestSyn(1527643165.133998),
            evtestEvent(1527643165.293977, ABS, TID, -1), evtestSyn(1527643165.293977),
        ].joined(separator: "\r\n") + "\r\n"
        #expect(DeviceLogFormat.detect(prefix: Array(text.utf8)) == .evtest)
        let result = readRecording(text, format: .evtest)
        #expect(result.rejects.isEmpty, "\(result.rejects)")
        #expect(result.sessions.map { $0.records.map(\.sample) } == [[
            TouchSample(t: 1527643165.133998, x: 375, y: 119, phase: .began),
            TouchSample(t: 1527643165.293977, x: 375, y: 119, phase: .ended),
        ]])
        var reader = DeviceLogReader(format: .evtest, file: "p", contentHash: "0")
        _ = reader.read(bytes: Array(text.utf8))
        #expect(reader.ranges(device: "", axes: .multiTouch).x == AxisRange(min: 0, max: 799))
    }

    /// Without a header, `--abs-range` gives the ranges, as for getevent without -p: 0…799 and
    /// 0…479 on a 1600 × 960 px screen at 2 px/pt: x = 400 · 1600 / 800 / 2 = 400, y = 240 · 960 / 480 / 2 = 240.
    @Test func headerlessDumpTakesTheRangesFromTheOptions() throws {
        let text = [evtestEvent(5.0, ABS, TID, 3), evtestEvent(5.0, ABS, MTX, 400), evtestEvent(5.0, ABS, MTY, 240), evtestSyn(5.0),
                    evtestEvent(5.1, ABS, TID, -1), evtestSyn(5.1)].joined(separator: "\n")
        let options = DeviceLogOptions(absRange: try AbsRanges(parsing: "0:799,0:479"),
                                       screen: ScreenSize(width: 1600, height: 960), pixelsPerPoint: 2)
        let result = readRecording(text, format: .evtest, options: options)
        #expect(result.records.first?.sample.point == Point(x: 400, y: 240))
        #expect(DeviceLogFormat.detect(prefix: Array(text.utf8)) == .evtest)
    }

    /// A touchpad's header gives resolutions (units per mm): without a screen a position is
    /// physical, pt = raw / resolution · 160 / 25.4. (1600, 620) at 32 and 31 units/mm is
    /// (50 mm, 20 mm) = (314.960…, 125.984…) pt (python3: 50 * 160 / 25.4, 20 * 160 / 25.4).
    /// With --screen the pixel mapping applies instead: 1600 · 1000 / 4000 = 400, 620 · 500 / 2000 = 155.
    @Test func touchpadResolutionGivesPhysicalUnits() {
        let header = ["Supported events:", "  Event type 3 (EV_ABS)",
                      "    Event code 53 (ABS_MT_POSITION_X)", "      Value 0", "      Min 0", "      Max 3999", "      Resolution 32",
                      "    Event code 54 (ABS_MT_POSITION_Y)", "      Value 0", "      Min 0", "      Max 1999", "      Resolution 31"]
        let text = (header + [evtestEvent(1, ABS, TID, 1), evtestEvent(1, ABS, MTX, 1600), evtestEvent(1, ABS, MTY, 620), evtestSyn(1)])
            .joined(separator: "\n")
        let physical = readRecording(text, format: .evtest).records.first?.sample.point
        #expect(abs((physical?.x ?? 0) - 314.96062992125985) < 1e-9 && abs((physical?.y ?? 0) - 125.98425196850394) < 1e-9)
        let mapped = readRecording(text, format: .evtest, options: DeviceLogOptions(screen: ScreenSize(width: 1000, height: 500)))
        #expect(mapped.records.first?.sample.point == Point(x: 400, y: 155))
    }

    @Test func rejectsNameTheLineAndKeepTheRest() {
        let lines = [
            evtestEvent(1.0, ABS, TID, 1), evtestEvent(1.0, ABS, MTX, 10), evtestEvent(1.0, ABS, MTY, 20), evtestSyn(1.0),
            "Event: time 1.05, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value ten",
            "garbage pasted here",
            evtestEvent(0.5, ABS, MTX, 12), // time going backwards
            evtestEvent(1.1, ABS, TID, -1), evtestSyn(1.1),
        ]
        let result = readRecording(lines.joined(separator: "\n"), format: .evtest, file: "e.txt")
        #expect(result.rejects.map(\.source.description) == ["e.txt:5", "e.txt:6", "e.txt:7"])
        #expect(result.rejects.map(\.reason)[0].contains("not a decimal integer"))
        #expect(result.rejects.map(\.reason)[1].hasPrefix("not an evtest line"))
        #expect(result.rejects.map(\.reason)[2].hasPrefix("time goes backwards"))
        #expect(result.sessions.map { $0.records.map(\.sample) } == [[
            TouchSample(t: 1.0, x: 10, y: 20, phase: .began), TouchSample(t: 1.1, x: 10, y: 20, phase: .ended),
        ]])
    }
}

@Suite(.enabled(if: SharedRecordings.available, "the shared recordings (../shared/data beside the package) are not here"))
struct EvtestRecordingTests {
    /// From `scripts/count-contacts --detail` (see the top of this file); raw positions.
    static let expected: [String: [ExpectedContact]] = [
        // 7 contacts, 2 at once (contacts 6 and 7 overlap, and 1 with 2, 3, 4 and 5).
        "evtest/chromeos-autotest_two_close_fingers_tracking.dat": [
            ExpectedContact(began: 1395784284.739323, start: (3680, 1027), ended: 1395784288.323233, end: (1619, 1019), records: 435),
            ExpectedContact(began: 1395784286.329282, start: (2728, 1025), ended: 1395784286.394248, end: (2728, 1025), records: 7),
            ExpectedContact(began: 1395784286.516247, start: (2713, 1023), ended: 1395784286.566246, end: (2713, 1023), records: 4),
            ExpectedContact(began: 1395784286.728279, start: (2483, 1023), ended: 1395784286.882244, end: (2453, 1023), records: 16),
            ExpectedContact(began: 1395784287.434237, start: (2058, 1022), ended: 1395784288.234235, end: (1627, 1016), records: 91),
            ExpectedContact(began: 1395784288.323233, start: (1577, 1018), ended: 1395784290.475223, end: (443, 1014), records: 261),
            ExpectedContact(began: 1395784288.552234, start: (1385, 1016), ended: 1395784290.394219, end: (389, 1014), records: 222),
        ],
        // One slide, protocol B without ABS_MT_SLOT events.
        "evtest/evtest_melfas-mms114_linux-input-2020-06-23.txt": [
            ExpectedContact(began: 1585880998.920994, start: (400, 1262), ended: 1585881001.122408, end: (488, 19), records: 191),
        ],
        // The header alone: no contact.
        "evtest/kobrakid_ft5406_evtest.txt": [],
        "evtest/kobrakid_ft5406_twodragoutput.txt": [
            ExpectedContact(began: 1527639975.554003, start: (286, 136), ended: 1527639977.273985, end: (296, 341), records: 25),
            ExpectedContact(began: 1527639975.554003, start: (596, 101), ended: 1527639977.273985, end: (596, 293), records: 24),
        ],
        "evtest/kobrakid_ft5406_twotouchoutput.txt": [
            ExpectedContact(began: 1527643165.133998, start: (375, 119), ended: 1527643165.333975, end: (375, 119), records: 2),
            ExpectedContact(began: 1527643165.133998, start: (330, 305), ended: 1527643165.293977, end: (330, 305), records: 2),
        ],
    ]

    @Test func everySharedFileHasAnExpectation() throws {
        #expect(try SharedRecordings.files(in: "evtest") == Self.expected.keys.sorted())
    }

    @Test(arguments: expected.keys.sorted())
    func contactsMatchTheIndependentCount(_ file: String) throws {
        let bytes = try SharedRecordings.bytes(file)
        #expect(DeviceLogFormat.detect(prefix: bytes.prefix(16_384)) == .evtest)
        // Positions are compared raw: the header's ranges without their resolution make
        // px = raw − min = raw (every minimum is 0), and 1 px = 1 pt.
        var reader = DeviceLogReader(format: .evtest, file: file, contentHash: "0")
        _ = reader.read(bytes: bytes) + reader.finish()
        let header = reader.ranges(device: "", axes: .multiTouch)
        let raw = header.x.map { x in AbsRanges(x: AxisRange(min: x.min, max: x.max), y: AxisRange(min: header.y!.min, max: header.y!.max)) }
        let result = DeviceLogReader.readAll(bytes, format: .evtest, file: file, options: DeviceLogOptions(absRange: raw))
        #expect(result.rejects.isEmpty, "\(result.rejects)")
        #expect(result.warnings.isEmpty)
        #expect(result.openContacts.isEmpty)
        let expected = Self.expected[file]!
        let sessions = result.sessions.sorted { ($0.first.t, $0.session) < ($1.first.t, $1.session) }
        try #require(sessions.count == expected.count)
        for (s, e) in zip(sessions, expected) {
            #expect(s.first.phase == .began && s.last.phase == .ended)
            #expect(sameTime(s.first.t, e.began) && sameTime(s.last.t, e.ended), "\(s.first.t) \(s.last.t)")
            #expect(s.first.x == e.start.0 && s.first.y == e.start.1, "\(s.first)")
            #expect(s.last.x == e.end.0 && s.last.y == e.end.1, "\(s.last)")
            #expect(s.records.count == e.records)
        }
    }

    /// The ELAN header's axes: 0…4089 × 0…2303 at 9 units/mm, so without a screen the first
    /// touch-down, raw (3680, 1027), is 3680 / 9 · 160 / 25.4 = 2575.678… by 1027 / 9 · 160 / 25.4 =
    /// 718.810… pt (python3). The MELFAS header gives ranges without resolution: points are raw.
    @Test func headerUnits() throws {
        let elan = "evtest/chromeos-autotest_two_close_fingers_tracking.dat"
        var reader = DeviceLogReader(format: .evtest, file: elan, contentHash: "0")
        let items = reader.read(bytes: try SharedRecordings.bytes(elan))
        #expect(reader.touchProtocol() == .multiTouchB)
        #expect(reader.ranges(device: "", axes: .multiTouch).x == AxisRange(min: 0, max: 4089, resolution: 9))
        #expect(reader.ranges(device: "", axes: .multiTouch).y == AxisRange(min: 0, max: 2303, resolution: 9))
        guard case .record(let first)? = items.first else { Issue.record("no record"); return }
        #expect(abs(first.sample.x - 2575.67804024497) < 1e-9 && abs(first.sample.y - 718.8101487314086) < 1e-9)
        let melfas = DeviceLogReader.readAll(try SharedRecordings.bytes("evtest/evtest_melfas-mms114_linux-input-2020-06-23.txt"),
                                             format: .evtest, file: "m")
        #expect(melfas.records.first?.sample.point == Point(x: 400, y: 1262))
    }
}

/// Old evtest dumps, pasted ones and mail-wrapped ones, written here by hand in
/// the kernel-2.6-era evtest's syntax (`type 3 (Absolute)`, `code 57 (?)`, `Config Sync` and
/// `Report Sync` separators, no `Properties:`); their contacts worked out by hand from protocol A's
/// rules.
@Suite struct OldAndPastedEvtestTests {
    static let prompt = "device: ~/ ./evtest /dev/input/event1"
    static let header = [
        "Input driver version is 1.0.0", "Input device ID: bus 0x0 vendor 0x0 product 0x0 version 0x0",
        "Input device name: \"cyttsp-i2c\"", "Supported events:", "  Event type 0 (Sync)", "  Event type 1 (Key)",
        "    Event code 330 (Touch)", "  Event type 3 (Absolute)", "    Event code 53 (?)", "      Value      0",
        "      Min        0", "      Max      479", "    Event code 54 (?)", "      Value      0", "      Min        0",
        "      Max      799", "    Event code 57 (?)", "      Value      0", "      Min        0", "      Max       15",
        "Testing ... (interrupt to exit)",
    ]
    static let events = [
        "Event: time 1294311437.197758, type 3 (Absolute), code 57 (?), value 0",
        "Event: time 1294311437.197758, type 3 (Absolute), code 53 (?), value 220",
        "Event: time 1294311437.197758, type 3 (Absolute), code 54 (?), value 400",
        "Event: time 1294311437.197758, -------------- Config Sync ------------",
        "Event: time 1294311437.197758, -------------- Report Sync ------------",
        "Event: time 1294311437.217758, type 3 (Absolute), code 57 (?), value 0",
        "Event: time 1294311437.217758, type 3 (Absolute), code 53 (?), value 225",
        "Event: time 1294311437.217758, type 3 (Absolute), code 54 (?), value 410",
        "Event: time 1294311437.217758, -------------- Config Sync ------------",
        "Event: time 1294311437.217758, -------------- Report Sync ------------",
        "Event: time 1294311437.237758, -------------- Config Sync ------------",
        "Event: time 1294311437.237758, -------------- Report Sync ------------",
    ]
    /// One contact: down at (220, 400), moved to (225, 410), lifted by the empty frame.
    static let contact = [
        TouchSample(t: 1294311437.197758, x: 220, y: 400, phase: .began),
        TouchSample(t: 1294311437.217758, x: 225, y: 410, phase: .moved),
        TouchSample(t: 1294311437.237758, x: 225, y: 410, phase: .ended),
    ]

    /// `line` broken as a mailer breaks it: at the last space before column `width`.
    static func wrap(_ line: String, width: Int = 60) -> [String] {
        let cut = line.prefix(width).lastIndex(of: " ")!
        return [String(line[..<cut]), String(line[line.index(after: cut)...])]
    }

    @Test func anOldDumpAfterAPromptIsDetectedAndRead() {
        let text = ([Self.prompt] + Self.header + Self.events).joined(separator: "\n") + "\n"
        #expect(DeviceLogFormat.detect(prefix: Array(text.utf8)) == .evtest)
        let result = readRecording(text, format: .evtest)
        #expect(result.rejects.isEmpty, "\(result.rejects)")
        #expect(result.sessions.map { $0.records.map(\.sample) } == [Self.contact])
        var reader = DeviceLogReader(format: .evtest, file: "old", contentHash: "0")
        _ = reader.read(bytes: Array(text.utf8))
        #expect(reader.touchProtocol() == .multiTouchA)
        #expect(reader.ranges(device: "", axes: .multiTouch).y == AxisRange(min: 0, max: 799))
    }

    /// Without the header, the prompt alone before the events: detection looks past it too.
    @Test func aPromptBeforeTheEventsIsLookedPast() {
        let text = ([Self.prompt] + Self.events).joined(separator: "\n")
        #expect(DeviceLogFormat.detect(prefix: Array(text.utf8)) == .evtest)
        #expect(readRecording(text, format: .evtest).rejects.isEmpty)
        // A first line that names no evtest is still no recording.
        #expect(DeviceLogFormat.detect(prefix: Array((["device: ~/ ls"] + Self.events).joined(separator: "\n").utf8)) == nil)
    }

    /// Three event lines wrapped at 60 columns (the move's x and y, a separator) and one split at a
    /// quoted-printable soft break (`=` at the end): the same contact, nothing rejected.
    @Test func mailWrappedEventLinesAreRejoined() {
        var lines = Self.header
        for (k, line) in Self.events.enumerated() {
            switch k {
            case 6, 7, 9: lines += Self.wrap(line)
            case 2: lines += [String(line.prefix(50)) + "=", String(line.dropFirst(50))]
            default: lines.append(line)
            }
        }
        #expect(lines.count == Self.header.count + Self.events.count + 4)
        let result = readRecording(lines.joined(separator: "\n"), format: .evtest, file: "w")
        #expect(result.rejects.isEmpty, "\(result.rejects)")
        #expect(result.sessions.map { $0.records.map(\.sample) } == [Self.contact])
    }

    /// A wrapped line whose rest was damaged (`(?), value 2x5`) does not join: both lines are
    /// rejected, each saying the lines look wrapped, and the rest is read.
    @Test func wrappedLinesThatDoNotJoinAreRejectedAsWrapped() {
        var lines = Self.header + Self.events
        let at = Self.header.count + 6
        let parts = Self.wrap(Self.events[6])
        #expect(parts[1] == "(?), value 225")
        lines.replaceSubrange(at...at, with: [parts[0], "(?), value 2x5"])
        let result = readRecording(lines.joined(separator: "\n"), format: .evtest, file: "d")
        #expect(result.rejects.map(\.source.description) == ["d:\(at + 1)", "d:\(at + 2)"])
        #expect(result.rejects.allSatisfy { $0.reason.contains("the lines look wrapped") }, "\(result.rejects)")
        // The move's x is lost; its y still moves the contact.
        #expect(result.sessions.map { $0.records.map(\.sample) } == [[
            Self.contact[0], TouchSample(t: 1294311437.217758, x: 220, y: 410, phase: .moved), TouchSample(t: 1294311437.237758, x: 220, y: 410, phase: .ended),
        ]])
    }
}
