// Contact tracking on small hand-written recordings whose expected contacts are worked out by
// hand from the kernel's protocol rules (Documentation/input/multi-touch-protocol.rst).
import Testing
import PressCore
@testable import PressFormats

/// getevent -t lines without a device prefix: `[ t] type code value`, value as 8 hex digits.
private func numeric(_ t: Double, _ type: UInt16, _ code: UInt16, _ value: Int32) -> String {
    func hex(_ v: UInt32, _ n: Int) -> String {
        let s = String(v, radix: 16); return String(repeating: "0", count: n - s.count) + s
    }
    return "[ \(t)] \(hex(UInt32(type), 4)) \(hex(UInt32(code), 4)) \(hex(UInt32(bitPattern: value), 8))"
}
private let (ABS, SYN, KEY): (UInt16, UInt16, UInt16) = (3, 0, 1)
private let (MTX, MTY, TID, SLOT): (UInt16, UInt16, UInt16, UInt16) = (0x35, 0x36, 0x39, 0x2f)
private let (REPORT, MTREPORT, DROPPED): (UInt16, UInt16, UInt16) = (0, 2, 3)

@Suite struct ContactTrackerTests {
    // Protocol A without tracking ids: contacts are matched by nearest position. Frame 2 lists
    // the two fingers in the other order; nearest matching keeps finger 1 at (105, 102) and
    // finger 2 at (510, 505). Frame 3 has one contact near finger 2: finger 1 lifts. Frame 4 is
    // empty: finger 2 lifts.
    @Test func protocolAAnonymousContactsMatchByNearestPosition() {
        var lines: [String] = []
        func contact(_ t: Double, _ x: Int32, _ y: Int32) {
            lines += [numeric(t, ABS, MTX, x), numeric(t, ABS, MTY, y), numeric(t, SYN, MTREPORT, 0)]
        }
        contact(1.0, 100, 100); contact(1.0, 500, 500); lines.append(numeric(1.0, SYN, REPORT, 0))
        contact(1.1, 510, 505); contact(1.1, 105, 102); lines.append(numeric(1.1, SYN, REPORT, 0))
        contact(1.2, 515, 510); lines.append(numeric(1.2, SYN, REPORT, 0))
        lines += [numeric(1.3, SYN, MTREPORT, 0), numeric(1.3, SYN, REPORT, 0)]
        let result = readRecording(lines.joined(separator: "\n"), format: .getevent)
        #expect(result.rejects.isEmpty)
        let s = result.sessions
        #expect(s.count == 2)
        #expect(s[0].records.map(\.sample) == [
            TouchSample(t: 1.0, x: 100, y: 100, phase: .began), TouchSample(t: 1.1, x: 105, y: 102, phase: .moved),
            TouchSample(t: 1.2, x: 105, y: 102, phase: .ended),
        ])
        #expect(s[1].records.map(\.sample) == [
            TouchSample(t: 1.0, x: 500, y: 500, phase: .began), TouchSample(t: 1.1, x: 510, y: 505, phase: .moved),
            TouchSample(t: 1.2, x: 515, y: 510, phase: .moved), TouchSample(t: 1.3, x: 515, y: 510, phase: .ended),
        ])
    }

    // Protocol A with tracking ids: ids win over distance. The fingers swap places between
    // frames; nearest matching would keep each still, ids make each move 10 units.
    @Test func protocolATrackingIdsWinOverDistance() {
        var lines: [String] = []
        func contact(_ t: Double, _ id: Int32, _ x: Int32, _ y: Int32) {
            lines += [numeric(t, ABS, TID, id), numeric(t, ABS, MTX, x), numeric(t, ABS, MTY, y),
                      numeric(t, SYN, MTREPORT, 0)]
        }
        contact(2.0, 1, 100, 100); contact(2.0, 2, 110, 110); lines.append(numeric(2.0, SYN, REPORT, 0))
        contact(2.1, 2, 100, 100); contact(2.1, 1, 110, 110); lines.append(numeric(2.1, SYN, REPORT, 0))
        let result = readRecording(lines.joined(separator: "\n"), format: .getevent)
        #expect(result.sessions.map { $0.last.point } == [Point(x: 110, y: 110), Point(x: 100, y: 100)])
        #expect(result.sessions.map { $0.last.phase } == [.moved, .moved])
        // Never lifted: both still open at the end, not errors.
        #expect(result.rejects.isEmpty)
        #expect(result.openContacts.map(\.session) == result.sessions.map(\.session))
        #expect(result.openContacts.map(\.last.sample.point) == [Point(x: 110, y: 110), Point(x: 100, y: 100)])
    }

    // Protocol B: a new tracking id in an occupied slot ends the old contact and begins a new
    // one; a contact that begins and lifts in one frame still gives began then ended.
    @Test func protocolBTrackingIdReplacementAndOneFrameContact() throws {
        let text = """
        E: 0.000000 0003 0039 5
        E: 0.000000 0003 0035 10
        E: 0.000000 0003 0036 20
        E: 0.000000 0000 0000 0000
        E: 0.100000 0003 0039 6
        E: 0.100000 0003 0035 30
        E: 0.100000 0000 0000 0000
        E: 0.200000 0003 002f 1
        E: 0.200000 0003 0039 7
        E: 0.200000 0003 0035 50
        E: 0.200000 0003 0036 60
        E: 0.200000 0003 0039 -1
        E: 0.200000 0003 002f 0
        E: 0.200000 0003 0039 -1
        E: 0.200000 0000 0000 0000
        """
        let result = readRecording(text, format: .evemu)
        #expect(result.rejects.isEmpty)
        let s = result.sessions
        try #require(s.count == 3)
        // Contact 1 (id 5) ends at 0.1 at its last position (10, 20) — slot values at the id change.
        #expect(s[0].records.map(\.sample) == [
            TouchSample(t: 0, x: 10, y: 20, phase: .began), TouchSample(t: 0.1, x: 10, y: 20, phase: .ended),
        ])
        // Contact 2 (id 6) keeps the slot's y, 20, and takes the new x, 30.
        #expect(s[1].records.map(\.sample) == [
            TouchSample(t: 0.1, x: 30, y: 20, phase: .began), TouchSample(t: 0.2, x: 30, y: 20, phase: .ended),
        ])
        #expect(s[2].records.map(\.sample) == [
            TouchSample(t: 0.2, x: 50, y: 60, phase: .began), TouchSample(t: 0.2, x: 50, y: 60, phase: .ended),
        ])
        #expect(result.openContacts.isEmpty)
    }

    // SYN_DROPPED: the frame in progress and everything up to and including the next SYN_REPORT
    // is discarded (x = 999 never appears); the open contact's next record says so.
    @Test func synDroppedDiscardsUntilTheNextReportAndMarksOpenContacts() {
        let text = """
        E: 1.000000 0003 0039 1
        E: 1.000000 0003 0035 100
        E: 1.000000 0003 0036 100
        E: 1.000000 0000 0000 0000
        E: 1.010000 0003 0035 999
        E: 1.010000 0000 0003 0000
        E: 1.020000 0003 0036 999
        E: 1.020000 0000 0000 0000
        E: 1.030000 0003 0035 110
        E: 1.030000 0000 0000 0000
        E: 1.040000 0003 0039 -1
        E: 1.040000 0000 0000 0000
        """
        let result = readRecording(text, format: .evemu)
        #expect(result.rejects.isEmpty)
        #expect(result.records.map(\.sample) == [
            TouchSample(t: 1.0, x: 100, y: 100, phase: .began), TouchSample(t: 1.03, x: 110, y: 100, phase: .moved),
            TouchSample(t: 1.04, x: 110, y: 100, phase: .ended),
        ])
        #expect(result.records.map(\.attributes.extra) == [nil, #"{"syn_dropped":true}"#, nil])
    }

    // A recording cut off mid-touch and mid-frame: the contact stays open, the cut frame's
    // events are counted as uncommitted, and nothing is rejected.
    @Test func cutOffRecordingLeavesOpenContactAndUncommittedEvents() {
        let text = """
        E: 3.000000 0003 0039 9
        E: 3.000000 0003 0035 7
        E: 3.000000 0003 0036 8
        E: 3.000000 0000 0000 0000
        E: 3.010000 0003 0035 9
        """
        var reader = DeviceLogReader(format: .evemu, file: "cut", contentHash: "00000000000000ab")
        let items = reader.read(bytes: Array(text.utf8)) + reader.finish()
        #expect(items.count == 1)
        #expect(reader.uncommittedEvents == 1)
        #expect(reader.openContacts.map(\.session) == ["00000000000000ab-c0001"])
        #expect(reader.openContacts.first?.last.sample == TouchSample(t: 3, x: 7, y: 8, phase: .began))
    }

    // Single touch: moves while BTN_TOUCH is down; a frame repeating the position is stationary;
    // nothing while up (hover); the lift is at the last position.
    @Test func singleTouchFollowsBtnTouch() {
        let lines = [
            numeric(1.0, ABS, 0, 5), numeric(1.0, SYN, REPORT, 0),                                // hover
            numeric(1.1, ABS, 1, 6), numeric(1.1, KEY, 0x14a, 1), numeric(1.1, SYN, REPORT, 0),  // down (5, 6)
            numeric(1.2, ABS, 0, 7), numeric(1.2, SYN, REPORT, 0),                                // moved
            numeric(1.3, ABS, 0, 7), numeric(1.3, SYN, REPORT, 0),                                // stationary
            numeric(1.4, KEY, 0x14a, 0), numeric(1.4, SYN, REPORT, 0),                            // up
            numeric(1.5, ABS, 0, 9), numeric(1.5, SYN, REPORT, 0),                                // hover
        ]
        let result = readRecording(lines.joined(separator: "\n"), format: .getevent)
        #expect(result.records.map(\.sample) == [
            TouchSample(t: 1.1, x: 5, y: 6, phase: .began), TouchSample(t: 1.2, x: 7, y: 6, phase: .moved),
            TouchSample(t: 1.3, x: 7, y: 6, phase: .stationary), TouchSample(t: 1.4, x: 7, y: 6, phase: .ended),
        ])
    }

    // A frame that never ends cannot grow without bound.
    @Test func overlongFrameIsRejectedNotBuffered() {
        var tracker = ContactTracker()
        let e = InputEvent(time: 0, type: ABS, code: MTX, value: 1)
        for i in 0..<ContactTracker.maximumFrameEvents { #expect(tracker.consume(e, line: i + 1) == []) }
        #expect(tracker.consume(e, line: 9999) == nil)
        #expect(tracker.uncommittedEvents == ContactTracker.maximumFrameEvents)
    }
}
