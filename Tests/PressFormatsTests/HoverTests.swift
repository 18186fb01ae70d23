// Hover is not touch: a tool tracked on a protocol-B slot that hovers (ABS_MT_DISTANCE above 0,
// or a pen in range, BTN_TOOL_PEN 1, without BTN_TOUCH) gives no contact until it touches, and
// its contact ends when it lifts or hovers away (Linux event-codes.rst: BTN_TOOL_<name> says a
// tool is in range, BTN_TOUCH that it touches, ABS_DISTANCE/ABS_MT_DISTANCE its height above the
// surface). The dumps are written here by hand in evtest's and evemu-record's syntax; the
// expected samples are worked out by hand from those rules.
import Testing
import PressCore
@testable import PressFormats

/// evemu-record's event line: `E: S.US TTTT CCCC V` (type and code hex, value decimal).
private func evemu(_ t: Double, _ type: Int, _ code: Int, _ value: Int, _ name: String) -> String {
    func hex(_ n: Int) -> String { let s = String(n, radix: 16); return String(repeating: "0", count: 4 - s.count) + s }
    let v = value < 0 ? "-" + String(repeating: "0", count: max(0, 3 - String(-value).count)) + String(-value)
                      : String(repeating: "0", count: max(0, 4 - String(value).count)) + String(value)
    return "E: " + String(format: "%.6f", t) + " \(hex(type)) \(hex(code)) \(v)\t# \(name)"
}
private func evemuSyn(_ t: Double) -> String { evemu(t, 0, 0, 0, "------------ SYN_REPORT (0) ----------") }
private let (ABS, KEY) = (3, 1)
private let (MTX, MTY, TID, SLOT, DIST, TOUCH, PEN) = (0x35, 0x36, 0x39, 0x2f, 0x3b, 0x14a, 0x140)

@Suite struct HoverTests {
    /// A finger tracked at distance 5 (hovering) from 1.00 s, at 0 from 1.05 s (touch-down), moved
    /// at 1.07 s, at distance 3 from 1.10 s (hovered away: the contact ends there, where it was),
    /// its tracking id ended at 1.15 s. One contact, 1.05 s to 1.10 s; nothing rejected.
    @Test func aFingerTouchesAtDistanceZeroAndHoversAway() {
        let lines = [
            evtestEvent(1.00, ABS, TID, 20), evtestEvent(1.00, ABS, MTX, 100), evtestEvent(1.00, ABS, MTY, 200),
            evtestEvent(1.00, ABS, DIST, 5), evtestSyn(1.00),
            evtestEvent(1.02, ABS, MTX, 102), evtestSyn(1.02),
            evtestEvent(1.05, ABS, DIST, 0), evtestSyn(1.05),
            evtestEvent(1.07, ABS, MTX, 110), evtestSyn(1.07),
            evtestEvent(1.10, ABS, DIST, 3), evtestSyn(1.10),
            evtestEvent(1.12, ABS, MTX, 115), evtestSyn(1.12),
            evtestEvent(1.15, ABS, TID, -1), evtestSyn(1.15),
        ]
        let result = readRecording(lines.joined(separator: "\n"), format: .evtest)
        #expect(result.rejects.isEmpty, "\(result.rejects)")
        #expect(result.sessions.map { $0.records.map(\.sample) } == [[
            TouchSample(t: 1.05, x: 102, y: 200, phase: .began), TouchSample(t: 1.07, x: 110, y: 200, phase: .moved),
            TouchSample(t: 1.10, x: 110, y: 200, phase: .ended),
        ]])
    }

    /// A pen on slot 0 (the Goodix shape): in range (BTN_TOOL_PEN 1) and tracked from 1.000 s,
    /// BTN_TOUCH 1 at 1.060 s, 0 at 1.109 s, out of range at 1.174 s. The press lasts the 49 ms of
    /// touch, not the 174 ms the pen was tracked; hovering frames before and after give nothing.
    @Test func aPenPressLastsWhileItTouches() {
        let lines = [
            "# EVEMU 1.3", "N: Goodix Active Pen",
            evemu(1.000, KEY, PEN, 1, "EV_KEY / BTN_TOOL_PEN 1"), evemu(1.000, ABS, SLOT, 0, "EV_ABS / ABS_MT_SLOT 0"),
            evemu(1.000, ABS, TID, 7, "EV_ABS / ABS_MT_TRACKING_ID 7"), evemu(1.000, ABS, MTX, 500, "EV_ABS / ABS_MT_POSITION_X 500"),
            evemu(1.000, ABS, MTY, 600, "EV_ABS / ABS_MT_POSITION_Y 600"), evemuSyn(1.000),
            evemu(1.030, ABS, MTX, 505, "EV_ABS / ABS_MT_POSITION_X 505"), evemuSyn(1.030),
            evemu(1.060, KEY, TOUCH, 1, "EV_KEY / BTN_TOUCH 1"), evemu(1.060, ABS, MTX, 506, "EV_ABS / ABS_MT_POSITION_X 506"),
            evemuSyn(1.060),
            evemu(1.080, ABS, MTY, 610, "EV_ABS / ABS_MT_POSITION_Y 610"), evemuSyn(1.080),
            evemu(1.109, KEY, TOUCH, 0, "EV_KEY / BTN_TOUCH 0"), evemuSyn(1.109),
            evemu(1.140, ABS, MTX, 520, "EV_ABS / ABS_MT_POSITION_X 520"), evemuSyn(1.140),
            evemu(1.174, ABS, TID, -1, "EV_ABS / ABS_MT_TRACKING_ID -1"), evemu(1.174, KEY, PEN, 0, "EV_KEY / BTN_TOOL_PEN 0"),
            evemuSyn(1.174),
        ]
        let result = readRecording(lines.joined(separator: "\n"), format: .evemu)
        #expect(result.rejects.isEmpty, "\(result.rejects)")
        #expect(result.sessions.map { $0.records.map(\.sample) } == [[
            TouchSample(t: 1.060, x: 506, y: 600, phase: .began), TouchSample(t: 1.080, x: 506, y: 610, phase: .moved),
            TouchSample(t: 1.109, x: 506, y: 610, phase: .ended),
        ]])
        #expect(result.openContacts.isEmpty)
    }

    /// A pen that comes into range, hovers and leaves without BTN_TOUCH gives no session, no
    /// reject, nothing open; the same with a finger that stays at distance 4.
    @Test func aToolThatOnlyHoversGivesNoSession() {
        let pen = [
            evemu(2.0, KEY, PEN, 1, "EV_KEY / BTN_TOOL_PEN 1"), evemu(2.0, ABS, TID, 9, "EV_ABS / ABS_MT_TRACKING_ID 9"),
            evemu(2.0, ABS, MTX, 50, "EV_ABS / ABS_MT_POSITION_X 50"), evemuSyn(2.0),
            evemu(2.1, ABS, MTX, 60, "EV_ABS / ABS_MT_POSITION_X 60"), evemuSyn(2.1),
            evemu(2.2, ABS, TID, -1, "EV_ABS / ABS_MT_TRACKING_ID -1"), evemu(2.2, KEY, PEN, 0, "EV_KEY / BTN_TOOL_PEN 0"), evemuSyn(2.2),
        ]
        let finger = [
            evtestEvent(3.0, ABS, TID, 4), evtestEvent(3.0, ABS, DIST, 4), evtestEvent(3.0, ABS, MTX, 9), evtestSyn(3.0),
            evtestEvent(3.1, ABS, MTX, 12), evtestSyn(3.1),
            evtestEvent(3.2, ABS, TID, -1), evtestSyn(3.2),
        ]
        for (text, format) in [(pen, DeviceLogFormat.evemu), (finger, .evtest)] {
            let result = readRecording(text.joined(separator: "\n"), format: format)
            #expect(result.records.isEmpty, "\(format): \(result.records)")
            #expect(result.rejects.isEmpty, "\(format): \(result.rejects)")
            #expect(result.openContacts.isEmpty)
        }
    }

    /// The same rules in an Android `getevent -lt` recording (the names and 8-hex-digit values
    /// getevent prints): a stylus slot at ABS_MT_DISTANCE 0x0a hovers from 20.000 s, touches
    /// (distance 0) at 20.040 s and hovers away at 20.080 s; one contact, 20.040–20.080 s.
    @Test func getEventHoverFollowsTheSameRules() {
        func line(_ t: String, _ type: String, _ code: String, _ value: String) -> String {
            "[   \(t)] /dev/input/event3: \(type.padding(toLength: 12, withPad: " ", startingAt: 0))"
                + "\(code.padding(toLength: 20, withPad: " ", startingAt: 0)) \(value)"
        }
        let lines = [
            line("20.000000", "EV_ABS", "ABS_MT_SLOT", "00000000"), line("20.000000", "EV_ABS", "ABS_MT_TRACKING_ID", "0000002a"),
            line("20.000000", "EV_ABS", "ABS_MT_POSITION_X", "00000100"), line("20.000000", "EV_ABS", "ABS_MT_POSITION_Y", "00000200"),
            line("20.000000", "EV_ABS", "ABS_MT_DISTANCE", "0000000a"), line("20.000000", "EV_SYN", "SYN_REPORT", "00000000"),
            line("20.040000", "EV_ABS", "ABS_MT_DISTANCE", "00000000"), line("20.040000", "EV_SYN", "SYN_REPORT", "00000000"),
            line("20.060000", "EV_ABS", "ABS_MT_POSITION_X", "00000104"), line("20.060000", "EV_SYN", "SYN_REPORT", "00000000"),
            line("20.080000", "EV_ABS", "ABS_MT_DISTANCE", "00000006"), line("20.080000", "EV_SYN", "SYN_REPORT", "00000000"),
            line("20.100000", "EV_ABS", "ABS_MT_TRACKING_ID", "ffffffff"), line("20.100000", "EV_SYN", "SYN_REPORT", "00000000"),
        ]
        let result = readRecording(lines.joined(separator: "\n"), format: .getevent)
        #expect(result.rejects.isEmpty, "\(result.rejects)")
        // 0x100 = 256, 0x104 = 260, 0x200 = 512.
        #expect(result.sessions.map { $0.records.map(\.sample) } == [[
            TouchSample(t: 20.04, x: 256, y: 512, phase: .began), TouchSample(t: 20.06, x: 260, y: 512, phase: .moved),
            TouchSample(t: 20.08, x: 260, y: 512, phase: .ended),
        ]])
    }

    /// Two touches of one hovering pen, without losing track of it between them, are two
    /// contacts: touch 1.0–1.1 s, hover, touch 1.3–1.4 s.
    @Test func aPenThatTouchesTwiceWhileTrackedGivesTwoContacts() {
        let lines = [
            evtestEvent(0.9, KEY, PEN, 1), evtestEvent(0.9, ABS, TID, 3), evtestEvent(0.9, ABS, MTX, 10), evtestSyn(0.9),
            evtestEvent(1.0, KEY, TOUCH, 1), evtestSyn(1.0),
            evtestEvent(1.1, KEY, TOUCH, 0), evtestSyn(1.1),
            evtestEvent(1.2, ABS, MTX, 40), evtestSyn(1.2),
            evtestEvent(1.3, KEY, TOUCH, 1), evtestSyn(1.3),
            evtestEvent(1.4, KEY, TOUCH, 0), evtestSyn(1.4),
        ]
        let result = readRecording(lines.joined(separator: "\n"), format: .evtest)
        #expect(result.rejects.isEmpty, "\(result.rejects)")
        #expect(result.sessions.map { $0.records.map(\.sample) } == [
            [TouchSample(t: 1.0, x: 10, y: 0, phase: .began), TouchSample(t: 1.1, x: 10, y: 0, phase: .ended)],
            [TouchSample(t: 1.3, x: 40, y: 0, phase: .began), TouchSample(t: 1.4, x: 40, y: 0, phase: .ended)],
        ])
        // The pen is still in range at the end: tracked, but no contact is open.
        #expect(result.openContacts.isEmpty)
    }
}
