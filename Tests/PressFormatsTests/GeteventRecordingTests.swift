// The shared getevent recordings (/work/shared/data/getevent), read end to end.
//
// Expected values were worked out without pressdb: a separate python3 script split each file into
// frames at SYN_REPORT, took a contact's touch-down as the first frame with an
// ABS_MT_POSITION_X/Y pair after an empty frame (protocol A) or the frame with BTN_TOUCH DOWN
// (single touch), its lift as the next empty frame (only SYN_MT_REPORT, or BTN_TOUCH alone) or
// BTN_TOUCH UP, and converted the hex values with int(v, 16); the first lines were also checked by
// hand (emulator-single-touch: ABS_X 0x163 = 355, ABS_Y 0x397 = 919; numeric-tap: 0x1be = 446,
// 0x258 = 600). Positions are raw device units: getevent -lt carries no axis ranges, so with the
// default options px = raw and 1 px = 1 pt, and the records' points equal the raw values.
// Record counts are 1 per frame in which the contact is present, plus the `ended` record.
import Foundation
import Testing
import PressCore
@testable import PressFormats

@Suite(.enabled(if: SharedRecordings.available, "the shared recordings (../shared/data beside the package) are not here"))
struct GeteventRecordingTests {
    static let expected: [String: [ExpectedContact]] = [
        // Single touch: ABS_X/ABS_Y + BTN_TOUCH DOWN/UP; 26 frames while down (the DOWN frame and
        // 25 ABS_X/ABS_Y updates).
        "getevent/emulator-drag.getevent-lt.txt": [
            ExpectedContact(began: 460.610221, start: (360, 914), ended: 461.585677, end: (663, 906), records: 27),
        ],
        "getevent/emulator-single-touch.getevent-lt.txt": [
            ExpectedContact(began: 335.519891, start: (355, 919), ended: 335.738915, end: (355, 919), records: 2),
        ],
        // Protocol A with BTN_TOUCH, numeric: 8 identical frames, then BTN_TOUCH 0 + an empty frame.
        "getevent/numeric-tap.getevent-t.txt": [
            ExpectedContact(began: 53890.813990, start: (446, 600), ended: 53890.926938, end: (446, 600), records: 9),
        ],
        // Protocol A: a 26-frame drag, then two one-frame taps, each followed by an empty frame.
        "getevent/phone-openCalender.getevent-lt.txt": [
            ExpectedContact(began: 2658.269193, start: (521, 759), ended: 2658.700360, end: (1006, 774), records: 27),
            ExpectedContact(began: 2660.072658, start: (504, 1003), ended: 2660.187566, end: (504, 1003), records: 2),
            ExpectedContact(began: 2663.408744, start: (95, 324), ended: 2663.523905, end: (95, 324), records: 2),
        ],
        "getevent/phone-single-drag.getevent-lt.txt": [
            ExpectedContact(began: 1411.748223, start: (627, 774), ended: 1412.162500, end: (1019, 763), records: 25),
        ],
        "getevent/phone-single-touch.getevent-lt.txt": [
            ExpectedContact(began: 1193.605736, start: (531, 761), ended: 1193.676258, end: (531, 761), records: 2),
        ],
        "getevent/tablet-openCalender-drag-tap-tap.getevent-lt.txt": [
            ExpectedContact(began: 176865.769027, start: (1138, 494), ended: 176866.148117, end: (1340, 479), records: 25),
            ExpectedContact(began: 176867.232725, start: (1552, 29), ended: 176867.309946, end: (1552, 29), records: 2),
            ExpectedContact(began: 176868.949414, start: (866, 133), ended: 176868.986028, end: (866, 133), records: 2),
        ],
        "getevent/tablet-single-touch.getevent-lt.txt": [
            ExpectedContact(began: 212916.728769, start: (1136, 488), ended: 212916.896640, end: (1136, 488), records: 2),
        ],
    ]

    @Test func everySharedFileHasAnExpectation() throws {
        #expect(try SharedRecordings.files(in: "getevent") == Self.expected.keys.sorted())
    }

    @Test(arguments: expected.keys.sorted())
    func contactsMatchTheHandCount(_ file: String) throws {
        let bytes = try SharedRecordings.bytes(file)
        #expect(DeviceLogFormat.detect(prefix: bytes.prefix(4096)) == .getevent)
        let result = DeviceLogReader.readAll(bytes, format: .getevent, file: file)
        #expect(result.rejects.isEmpty, "\(result.rejects)")
        #expect(result.openContacts.isEmpty)
        try expectContacts(result.sessions, Self.expected[file]!)
    }

    @Test func protocolsAreRecognised() throws {
        func proto(_ file: String) throws -> TouchProtocol? {
            var reader = DeviceLogReader(format: .getevent, file: file, contentHash: "0")
            _ = reader.read(bytes: try SharedRecordings.bytes(file))
            return reader.touchProtocol()
        }
        #expect(try proto("getevent/emulator-drag.getevent-lt.txt") == .singleTouch)
        #expect(try proto("getevent/phone-single-drag.getevent-lt.txt") == .multiTouchA)
        #expect(try proto("getevent/numeric-tap.getevent-t.txt") == .multiTouchA)
    }

    // numeric-tap repeats the same position for 8 frames: began, 7 stationary, ended.
    @Test func unchangedPositionIsStationary() throws {
        let file = "getevent/numeric-tap.getevent-t.txt"
        let result = DeviceLogReader.readAll(try SharedRecordings.bytes(file), format: .getevent, file: file)
        #expect(result.records.map(\.sample.phase) == [.began] + Array(repeating: .stationary, count: 7) + [.ended])
        // The first frame is committed by the SYN_REPORT on line 8 (7 events before it).
        #expect(result.records.first?.source == SourceLocation(file: file, line: 8))
    }

    // The recordings have CRLF line endings; the same text with LF reads the same.
    @Test func crlfReadsLikeLF() throws {
        let file = "getevent/phone-openCalender.getevent-lt.txt"
        let crlf = try SharedRecordings.bytes(file)
        #expect(crlf.contains(UInt8(ascii: "\r")))
        let lf = Array(String(decoding: crlf, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n").utf8)
        #expect(!lf.contains(UInt8(ascii: "\r")))
        let a = DeviceLogReader.readAll(crlf, format: .getevent, file: file)
        // Same content hash so that the session ids can be compared.
        var reader = DeviceLogReader(format: .getevent, file: file, contentHash: DeviceLogReader.contentHash(of: crlf))
        let b = reader.read(bytes: lf) + reader.finish()
        #expect(a.records.map(DeviceLogItem.record) == b)
        #expect(a.records.count == 31)
    }

    // Fed in odd-sized chunks, the reader gives the same items as fed whole.
    @Test func chunkedInputReadsTheSame() throws {
        let file = "getevent/tablet-openCalender-drag-tap-tap.getevent-lt.txt"
        let bytes = try SharedRecordings.bytes(file)
        let whole = DeviceLogReader.readAll(bytes, format: .getevent, file: file)
        var reader = DeviceLogReader(format: .getevent, file: file, contentHash: DeviceLogReader.contentHash(of: bytes))
        var items: [DeviceLogItem] = []
        var i = 0
        while i < bytes.count {
            items += reader.read(bytes: bytes[i..<min(bytes.count, i + 37)])
            i += 37
        }
        items += reader.finish()
        #expect(items == whole.records.map(DeviceLogItem.record))
    }

    // Session ids come from the content hash and the contact's order, so re-reading gives the same.
    @Test func sessionIdsAreStable() throws {
        let file = "getevent/phone-openCalender.getevent-lt.txt"
        let bytes = try SharedRecordings.bytes(file)
        let a = DeviceLogReader.readAll(bytes, format: .getevent, file: file)
        let b = DeviceLogReader.readAll(bytes, format: .getevent, file: "renamed.txt")
        let hash = FNV1a64.hex(String(decoding: bytes, as: UTF8.self))
        #expect(a.sessions.map(\.session) == ["\(hash)-c0001", "\(hash)-c0002", "\(hash)-c0003"])
        #expect(b.sessions.map(\.session) == a.sessions.map(\.session))
    }
}
