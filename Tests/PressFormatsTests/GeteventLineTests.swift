// getevent lines one by one, bad lines in a recording, and format detection.
import Testing
import PressCore
@testable import PressFormats

@Suite struct GeteventLineTests {
    @Test func labelledLineWithDevicePrefix() {
        let line = "[   12345.678901] /dev/input/event1: EV_ABS       ABS_MT_POSITION_X    000001a4            "
        // 0x1a4 = 420; ABS_MT_POSITION_X is 0x35 in input-event-codes.h.
        #expect(GeteventLine.parse(Substring(line)) == .event(InputEvent(
            time: 12345.678901, type: 3, code: 0x35, value: 420, device: "/dev/input/event1")))
    }

    @Test func numericLineWithoutPrefix() {
        // getevent -t: type 0003 (EV_ABS), code 0039 (ABS_MT_TRACKING_ID), ffffffff = −1 as int32.
        #expect(GeteventLine.parse("[   53890.813990] 0003 0039 ffffffff\r") == .event(InputEvent(
            time: 53890.813990, type: 3, code: 0x39, value: -1)))
    }

    @Test func keyValuesDownAndUp() {
        #expect(GeteventLine.parse("[ 1.5] EV_KEY BTN_TOUCH DOWN") == .event(InputEvent(time: 1.5, type: 1, code: 0x14a, value: 1)))
        #expect(GeteventLine.parse("[ 1.5] EV_KEY BTN_TOUCH UP") == .event(InputEvent(time: 1.5, type: 1, code: 0x14a, value: 0)))
        // A key pressdb does not track is still a well-formed event.
        #expect(GeteventLine.parse("[ 1.5] /dev/input/event0: EV_KEY KEY_VOLUMEDOWN DOWN")
                == .otherEvent(time: 1.5, device: "/dev/input/event0"))
    }

    @Test func headerLinesAreSkipped() {
        #expect(GeteventLine.parse("add device 1: /dev/input/event1") == .skip)
        #expect(GeteventLine.parse("  name:     \"touchscreen\"") == .skip)
        #expect(GeteventLine.parse("   \t ") == .skip)
        #expect(GeteventLine.addedDevice("add device 1: /dev/input/event4") == "/dev/input/event4")
    }

    // `getevent -p` prints each axis as `NAME : value V, min A, max B, fuzz F, flat L, resolution R`.
    @Test func getEventPAxisLinesGiveRanges() {
        #expect(GeteventLine.parse("    ABS (0003): ABS_MT_SLOT           : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0",
                                   currentHeaderDevice: "/dev/input/event2")
                == .axisRange(device: "/dev/input/event2", code: 0x2f, AxisRange(min: 0, max: 9)))
        #expect(GeteventLine.parse("                0035  : value 0, min 0, max 1439, fuzz 0, flat 0, resolution 0")
                == .axisRange(device: "", code: 0x35, AxisRange(min: 0, max: 1439)))
    }

    @Test(arguments: [
        ("[   100.000003] EV_ABS       ABS_MT_POSI", "truncated line"),
        ("[   100.03", "truncated line"),
        ("[   100.0] EV_BOGUS ABS_X 00000000", "unknown event type"),
        ("[   100.0] EV_ABS ABS_WHATEVER 00000000", "unknown event code"),
        ("[   100.0] EV_ABS BTN_TOUCH 00000001", "does not belong to type"),
        ("[   100.0] 0099 0000 00000000", "unknown event type 0x0099"),
        ("[   100.0] 0003 0040 00000000", "unknown EV_ABS code 0x0040"),
        ("[   100.0] 0000 0007 00000000", "unknown EV_SYN code 0x0007"),
        ("[   100.0] EV_ABS ABS_MT_POSITION_X 0000zz01", "is not 8 hex digits"),
        ("[   100.0] 0003 0035 1a4", "is not 8 hex digits"),
        ("[   1o0.0] 0003 0035 000001a4", "timestamp"),
        ("/dev/input/event1: 0003 0035 000001a4", "without a timestamp"),
        ("[   100.0] 0003 0035 000001a4 junk", "unexpected text"),
        ("hello", "not a getevent line"),
    ])
    func malformedLines(_ line: String, _ reason: String) {
        guard case .malformed(let why) = GeteventLine.parse(Substring(line)) else {
            Issue.record("\(line) was read"); return
        }
        #expect(why.contains(reason), "\(why)")
    }

    // A recording with bad lines: each gives a Reject at its file:line with the raw text, and the
    // good lines around them still make the contact (worked out by hand below).
    @Test func badLinesAreRejectedAndTheRestIsRead() throws {
        let text = [
            "add device 1: /dev/input/event1",                                                      // 1
            "  name:     \"touchscreen\"",                                                          // 2
            "[   100.000000] /dev/input/event1: EV_ABS       ABS_MT_TRACKING_ID   00000000",        // 3
            "[   100.000001] /dev/input/event1: EV_ABS       ABS_MT_POSITION_X    000001a4",        // 4: 420
            "[   100.000002] /dev/input/event1: EV_ABS       ABS_MT_POSITION_Y    000000c8",        // 5: 200
            "[   100.000003] /dev/input/event1: EV_ABS       ABS_MT_POSI",                          // 6: truncated
            "[   100.000004] /dev/input/event1: EV_SYN       SYN_MT_REPORT        00000000",        // 7
            "[   100.000005] /dev/input/event1: EV_SYN       SYN_REPORT           00000000",        // 8: began
            "[   100.010000] /dev/input/event1: EV_BOGUS     ABS_X                00000000",        // 9: type
            "[   100.010001] /dev/input/event1: EV_ABS       ABS_WHATEVER         00000000",        // 10: code
            "[   100.010002] /dev/input/event1: EV_ABS       ABS_MT_POSITION_X    0000zz01",        // 11: hex
            "[    99.000000] /dev/input/event1: EV_ABS       ABS_MT_POSITION_X    000001a5",        // 12: backwards
            "[   100.010003] /dev/input/event1: EV_ABS       ABS_MT_TRACKING_ID   00000000",        // 13
            "[   100.010004] /dev/input/event1: EV_ABS       ABS_MT_POSITION_X    000001ae",        // 14: 430
            "[   100.010005] /dev/input/event1: EV_ABS       ABS_MT_POSITION_Y    000000c8",        // 15: 200
            "[   100.010006] /dev/input/event1: EV_SYN       SYN_MT_REPORT        00000000",        // 16
            "[   100.010007] /dev/input/event1: EV_SYN       SYN_REPORT           00000000",        // 17: moved
            "[   100.020000] /dev/input/event1: EV_SYN       SYN_MT_REPORT        00000000",        // 18
            "[   100.020001] /dev/input/event1: EV_SYN       SYN_REPORT           00000000",        // 19: ended
            "[   100.03",                                                                           // 20: truncated
        ].joined(separator: "\r\n") + "\r\n"
        let result = readRecording(text, format: .getevent, file: "bad.txt")
        try #require(result.rejects.map(\.source.description) == ["bad.txt:6", "bad.txt:9", "bad.txt:10", "bad.txt:11", "bad.txt:12", "bad.txt:20"])
        #expect(result.rejects[0].raw == "[   100.000003] /dev/input/event1: EV_ABS       ABS_MT_POSI")
        #expect(result.rejects[4].reason.contains("time goes backwards"))
        #expect(result.rejects[5].raw == "[   100.03")
        let samples = result.records.map(\.sample)
        #expect(samples == [
            TouchSample(t: 100.000005, x: 420, y: 200, phase: .began),
            TouchSample(t: 100.010007, x: 430, y: 200, phase: .moved),
            TouchSample(t: 100.020001, x: 430, y: 200, phase: .ended),
        ])
        #expect(result.records.map(\.source.line) == [8, 17, 19])
    }

    // Events of another device (a volume key) in an all-devices recording are read and ignored,
    // and each device's clock is checked on its own.
    @Test func otherDevicesAreIgnored() {
        let text = """
        [   5.000000] /dev/input/event1: EV_ABS       ABS_X                00000010
        [   5.000001] /dev/input/event1: EV_ABS       ABS_Y                00000020
        [   5.000002] /dev/input/event1: EV_KEY       BTN_TOUCH            DOWN
        [   5.000003] /dev/input/event1: EV_SYN       SYN_REPORT           00000000
        [   4.900000] /dev/input/event0: EV_KEY       KEY_VOLUMEDOWN       DOWN
        [   4.900001] /dev/input/event0: EV_SYN       SYN_REPORT           00000000
        [   5.100000] /dev/input/event1: EV_KEY       BTN_TOUCH            UP
        [   5.100001] /dev/input/event1: EV_SYN       SYN_REPORT           00000000
        """
        let result = readRecording(text, format: .getevent)
        #expect(result.rejects.isEmpty)
        // 0x10 = 16, 0x20 = 32.
        #expect(result.records.map(\.sample) == [
            TouchSample(t: 5.000003, x: 16, y: 32, phase: .began),
            TouchSample(t: 5.100001, x: 16, y: 32, phase: .ended),
        ])
    }

    @Test func formatDetection() {
        #expect(DeviceLogFormat.detect(lines: ["[     335.519172] EV_ABS       ABS_X                00000163            \r"]) == .getevent)
        #expect(DeviceLogFormat.detect(lines: ["add device 1: /dev/input/event3", "  name: \"x\""]) == .getevent)
        #expect(DeviceLogFormat.detect(lines: ["[   53890.813990] 0001 014a 00000001"]) == .getevent)
        #expect(DeviceLogFormat.detect(lines: ["# EVEMU 1.3", "N: Atmel"]) == .evemu)
        #expect(DeviceLogFormat.detect(lines: ["", "E: 0.000001 0003 0039 0007\t# EV_ABS"]) == .evemu)
        #expect(DeviceLogFormat.detect(lines: [#"{"session":"a","t":0,"x":1,"y":2,"phase":"began"}"#]) == nil)
        #expect(DeviceLogFormat.detect(lines: ["session,t,x,y,phase", "a,0,1,2,began"]) == nil)
        #expect(DeviceLogFormat.detect(lines: [String]()) == nil)
        #expect(DeviceLogFormat.detect(prefix: Array("# comment\r\n[ 1.0] 0000 0000 00000000\r\n".utf8)) == .getevent)
    }
}
