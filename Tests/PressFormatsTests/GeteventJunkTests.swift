// A getevent line with junk before its `[` (a stray `0` pasted before the
// timestamp, seen in a real recording) was rejected, and then the contact it began vanished
// without a word, because the frames after it updated a protocol-B slot that had no contact. Now
// the line is read (with a warning naming file:line) when the rest of it parses, and frames that
// update or lift a slot with no contact are rejected with a reason instead of dropped silently.
import Foundation
import Testing
import PressCore
@testable import PressFormats

/// A protocol-B tap in `getevent -lt` form, one finger, lines 1–9 (worked out by hand: tracking
/// id 0x2a begins the contact in slot 0 at (0x1a4, 0x320) = (420, 800) on line 5's SYN_REPORT,
/// x moves to 0x1a8 = 424 on line 7's, and tracking id −1 lifts it on line 9's).
private let tap = """
    add device 1: /dev/input/event2
    [   100.000000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   0000002a
    [   100.000000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    000001a4
    [   100.000000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    00000320
    [   100.000000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
    [   100.016000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    000001a8
    [   100.016000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
    [   100.090000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   ffffffff
    [   100.090000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
    """

/// `text` with line `n` (1-based, lines split at LF bytes, a CR before it kept) changed by `line`.
private func replacingLine(_ n: Int, of text: String, with line: (String) -> String) -> String {
    var lines = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    lines[n - 1] = line(lines[n - 1])
    return lines.joined(separator: "\n")
}

@Suite struct GeteventJunkTests {
    @Test func aStrayCharacterBeforeTheTimestampIsReadWithAWarning() {
        let text = replacingLine(2, of: tap) { "0" + $0 }
        let result = readRecording(text, format: .getevent, file: "tap.txt")
        #expect(result.rejects.isEmpty, "\(result.rejects)")
        #expect(result.sessions.count == 1)
        #expect(result.sessions.first?.records.map(\.sample) == [
            TouchSample(t: 100.0, x: 420, y: 800, phase: .began),
            TouchSample(t: 100.016, x: 424, y: 800, phase: .moved),
            TouchSample(t: 100.09, x: 424, y: 800, phase: .ended),
        ])
        #expect(result.warnings.map(\.description) == [
            #"tap.txt:2: warning: text "0" before the timestamp is ignored; the rest of the line is read as an event"#,
        ])
        // The same records as the clean recording (session ids differ: the bytes differ).
        let clean = readRecording(tap, format: .getevent)
        #expect(clean.records.map(\.sample) == result.records.map(\.sample))
        #expect(clean.warnings.isEmpty)
    }

    /// When the rest of the line does not parse either, the line stays a reject; the frames that
    /// then update and lift slot 0, which has no contact, are rejected too (lines 7 and 9, their
    /// SYN_REPORTs), so nothing is dropped without a word.
    @Test func framesForASlotWithoutAContactAreRejected() {
        let text = replacingLine(2, of: tap) { "0" + $0.replacingOccurrences(of: "0000002a", with: "2a") }
        let result = readRecording(text, format: .getevent, file: "tap.txt")
        #expect(result.records.isEmpty)
        #expect(result.rejects.map(\.source.line) == [2, 5, 7, 9])
        #expect(result.rejects[0].reason.contains("not 8 hex digits"), "\(result.rejects[0])")
        #expect(result.rejects[1].reason == "this frame updates slot 0, which has no contact (no ABS_MT_TRACKING_ID ≥ 0 was read for it since its last lift); its data is dropped")
        #expect(result.rejects[3].reason == "this frame lifts slot 0, which has no contact (no ABS_MT_TRACKING_ID ≥ 0 was read for it since its last lift); its data is dropped")
        #expect(result.rejects[3].raw.hasSuffix("SYN_REPORT           00000000"))
    }

    /// The tablet recording (protocol A) with a `0` pasted before line 5's timestamp: the same
    /// three contacts and records as the file itself, one warning, no reject.
    @Test(.enabled(if: SharedRecordings.available, "the shared recordings are not here"))
    func aStrayZeroInARealRecording() throws {
        let file = "getevent/tablet-openCalender-drag-tap-tap.getevent-lt.txt"
        let text = String(decoding: try SharedRecordings.bytes(file), as: UTF8.self)
        let original = readRecording(text, format: .getevent)
        let pasted = readRecording(replacingLine(5, of: text) { "0" + $0 }, format: .getevent, file: "t.txt")
        #expect(pasted.rejects.isEmpty)
        #expect(pasted.warnings.map(\.source.line) == [5])
        #expect(pasted.sessions.count == 3)
        #expect(pasted.records.map(\.sample) == original.records.map(\.sample))
    }

    @Test func onlyAnEventAfterTheJunkIsRead() {
        // Junk before a `[` that starts no event stays a reject, with the usual reason.
        let result = readRecording("x[ not a time ] EV_SYN SYN_REPORT 00000000\n", format: .getevent)
        #expect(result.rejects.count == 1 && result.warnings.isEmpty)
        #expect(result.rejects.first?.reason.contains("not a getevent line") == true)
    }
}
