// The shared evemu recordings (/work/shared/data/evemu), read end to end.
//
// Expected values were worked out without pressdb: a separate python3 script read the `E:` lines
// (type and code hex, value decimal), applied each frame's events at its SYN_REPORT, followed
// ABS_MT_SLOT (initially 0) and ABS_MT_TRACKING_ID (≥ 0 begins, −1 ends the slot's contact) and
// kept ABS_MT_POSITION_X/Y per slot across frames and contacts. Record counts are the frames in
// which an event addressed the contact's slot, plus the `ended` record. Spot checks by hand:
// fast-taps' 5th tap (line 159) sends only ABS_MT_POSITION_Y 251, so its x, 364, carries over
// from the 4th tap (line 150); 2-fingers' second finger is slot 1, tracking id 8, at (222, 306)
// in the frame committed on line 131. Positions are raw: the `A:` ranges are 0…799 and 0…479, and without a
// screen size px = raw − min = raw, and with 1 px per pt the records' points equal them.
import Foundation
import Testing
import PressCore
@testable import PressFormats

@Suite(.enabled(if: SharedRecordings.available, "the shared recordings (../shared/data beside the package) are not here"))
struct EvemuRecordingTests {
    static let expected: [String: [ExpectedContact]] = [
        "evemu/Atmel-maXTouch-Touchscreen.1-finger-drag-up-down.events": [
            ExpectedContact(began: 0.000001, start: (361, 379), ended: 2.199870, end: (382, 393), records: 150),
        ],
        "evemu/Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events": [
            ExpectedContact(began: 0.000001, start: (340, 242), ended: 0.095573, end: (340, 242), records: 2),
            ExpectedContact(began: 0.233856, start: (354, 228), ended: 0.316645, end: (354, 228), records: 2),
            ExpectedContact(began: 0.469258, start: (357, 239), ended: 0.551496, end: (357, 239), records: 2),
            ExpectedContact(began: 0.690746, start: (364, 255), ended: 0.772994, end: (364, 255), records: 2),
            ExpectedContact(began: 0.911634, start: (364, 251), ended: 0.994298, end: (364, 251), records: 2),
            ExpectedContact(began: 1.132404, start: (345, 251), ended: 1.214633, end: (345, 251), records: 2),
            ExpectedContact(began: 1.367030, start: (349, 250), ended: 1.449650, end: (349, 250), records: 2),
            ExpectedContact(began: 1.574957, start: (349, 264), ended: 1.685151, end: (349, 264), records: 2),
            ExpectedContact(began: 1.823540, start: (373, 252), ended: 1.934008, end: (373, 252), records: 2),
        ],
        "evemu/Atmel-maXTouch-Touchscreen.2-fingers-touch-release.events": [
            ExpectedContact(began: 0.000001, start: (539, 167), ended: 0.824236, end: (538, 176), records: 8),
            ExpectedContact(began: 0.054565, start: (222, 306), ended: 0.810270, end: (224, 312), records: 10),
        ],
    ]

    @Test func everySharedFileHasAnExpectation() throws {
        #expect(try SharedRecordings.files(in: "evemu") == Self.expected.keys.sorted())
    }

    @Test(arguments: expected.keys.sorted())
    func contactsMatchTheHandCount(_ file: String) throws {
        let bytes = try SharedRecordings.bytes(file)
        #expect(DeviceLogFormat.detect(prefix: bytes.prefix(4096)) == .evemu)
        var reader = DeviceLogReader(format: .evemu, file: file, contentHash: DeviceLogReader.contentHash(of: bytes))
        let items = reader.read(bytes: bytes) + reader.finish()
        #expect(reader.touchProtocol() == .multiTouchB)
        #expect(reader.ranges(device: "", axes: .multiTouch).x == AxisRange(min: 0, max: 799))
        #expect(reader.ranges(device: "", axes: .multiTouch).y == AxisRange(min: 0, max: 479))
        let result = DeviceLogReader.readAll(bytes, format: .evemu, file: file)
        #expect(items == result.records.map(DeviceLogItem.record))
        #expect(result.rejects.isEmpty, "\(result.rejects)")
        #expect(result.openContacts.isEmpty)
        try expectContacts(result.sessions, Self.expected[file]!)
    }

    // Two fingers: the second touches down (0.054565 s) before the first lifts (0.824236 s) and
    // lifts first (0.810270 s): two overlapping sessions, interleaved in the record stream.
    @Test func twoFingersGiveTwoOverlappingSessions() throws {
        let file = "evemu/Atmel-maXTouch-Touchscreen.2-fingers-touch-release.events"
        let result = DeviceLogReader.readAll(try SharedRecordings.bytes(file), format: .evemu, file: file)
        let s = result.sessions
        try #require(s.count == 2)
        #expect(s[1].first.t < s[0].last.t && s[0].first.t < s[1].last.t)
        // The frame committed on line 155 (0.288263 s) moves both: slot 0's y to 180 (x still 535
        // from line 133) and slot 1's x to 228 (y still 318 from line 148).
        let both = result.records.filter { sameTime($0.sample.t, 0.288263) }
        #expect(both.map(\.session) == [s[0].session, s[1].session])
        #expect(both.allSatisfy { $0.source.line == 155 })
        #expect(both.map(\.sample.x) == [535, 228] && both.map(\.sample.y) == [180, 318])
    }
}
