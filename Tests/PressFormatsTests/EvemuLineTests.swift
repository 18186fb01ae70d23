// evemu lines one by one, and bad lines in an evemu recording.
import Testing
import PressCore
@testable import PressFormats

@Suite struct EvemuLineTests {
    @Test func eventLineHasHexTypeAndCodeAndDecimalValue() {
        // evemu prints `%04x %04x %04d`: 0039 is ABS_MT_TRACKING_ID, -001 is −1.
        #expect(EvemuLine.parse("E: 0.810270 0003 0039 -001\t# EV_ABS / ABS_MT_TRACKING_ID   -1")
                == .event(InputEvent(time: 0.810270, type: 3, code: 0x39, value: -1)))
        #expect(EvemuLine.parse("E: 0.054565 0003 0035 0222") == .event(InputEvent(time: 0.054565, type: 3, code: 0x35, value: 222)))
    }

    @Test func headerLines() {
        #expect(EvemuLine.parse("A: 35 0 799 0 0 0") == .axisRange(device: "", code: 0x35, AxisRange(min: 0, max: 799)))
        for line in ["# EVEMU 1.3", "N: Atmel maXTouch Touchscreen", "I: 0018 0000 0000 0000",
                     "P: 02 00 00 00 00 00 00 00", "B: 03 03 00 00 00 00 80 e0 0a", "   ", "#     Event code 0 (ABS_X)"] {
            #expect(EvemuLine.parse(Substring(line)) == .skip, "\(line)")
        }
    }

    // Bad lines in an evemu recording, each rejected at its line; the rest makes one contact.
    // Rejected lines do not move the clock, so line 13 goes backwards against line 9 (0.0001 s).
    @Test func badLinesAreRejectedAndTheRestIsRead() throws {
        let text = """
        # EVEMU 1.3
        N: test
        A: 35 0 799 0 0 0
        A: 36 0 479 0 0 0
        E: 0.000100 0003 0039 5
        E: 0.000100 0003 0035 400
        E: 0.000100 0003 0036 2x0
        E: 0.000100 0003 0036 200
        E: 0.000100 0000 0000 0000
        E: 0.010000 0003 0035
        E: 0.010000 0009 0035 1
        E: 0.010000 0003 0045 1
        E: 0.000050 0003 0035 410
        E: 0.010000 0003 0035 0x1a
        Z: what
        E: 0.020000 0003 0039 -001
        E: 0.020000 0000 0000 0000
        """
        let result = readRecording(text, format: .evemu, file: "bad.events")
        let reasons = result.rejects.map { "\($0.source.line) \($0.reason)" }
        try #require(result.rejects.map(\.source.line) == [7, 10, 11, 12, 13, 14, 15], "\(reasons)")
        #expect(result.rejects.map(\.source.file).allSatisfy { $0 == "bad.events" })
        #expect(result.rejects[0].reason.contains("not a decimal integer"))
        #expect(result.rejects[1].reason.contains("truncated"))
        #expect(result.rejects[2].reason.contains("unknown event type 0x0009"))
        #expect(result.rejects[3].reason.contains("unknown EV_ABS code 0x0045"))
        #expect(result.rejects[4].reason.contains("time goes backwards"))
        #expect(result.rejects[5].reason.contains("not a decimal integer"))
        #expect(result.rejects[6].raw == "Z: what")
        // Ranges 0…799 and 0…479 without a screen size: px = raw − 0; 1 px per pt.
        #expect(result.records.map(\.sample) == [
            TouchSample(t: 0.0001, x: 400, y: 200, phase: .began),
            TouchSample(t: 0.02, x: 400, y: 200, phase: .ended),
        ])
    }
}
