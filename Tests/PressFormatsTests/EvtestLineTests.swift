// evtest lines read one at a time, against the formats evtest.c prints (print_events,
// print_absdata) and the older, kernel-2.6 era evtest printed; and small hand-made dumps of each touch protocol,
// their contacts worked out by hand from the kernel's rules (multi-touch-protocol.rst).
import Testing
import PressCore
@testable import PressFormats

private func parse(_ line: String, seenEvent: Bool = true) -> InputLogLine {
    var state = EvtestHeaderState()
    state.seenEvent = seenEvent
    return EvtestLine.parse(Substring(line), state: &state)
}

@Suite struct EvtestLineTests {
    @Test func events() {
        #expect(parse("Event: time 1395784284.739323, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 197")
                == .event(InputEvent(time: 1395784284.739323, type: 3, code: 0x39, value: 197)))
        #expect(parse("Event: time 1395784284.747319, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value -1")
                == .event(InputEvent(time: 1395784284.747319, type: 3, code: 0x39, value: -1)))
        #expect(parse("Event: time 1.000001, type 1 (EV_KEY), code 330 (BTN_TOUCH), value 1")
                == .event(InputEvent(time: 1.000001, type: 1, code: 0x14a, value: 1)))
        // Unknown names print as `?`, and the older evtest printed its own: the numbers count.
        #expect(parse("Event: time 1305760755.436598, type 3 (Absolute), code 53 (?), value 6287")
                == .event(InputEvent(time: 1305760755.436598, type: 3, code: 0x35, value: 6287)))
        #expect(parse("Event: time 5.000000, type 3 (?), code 54 (?), value 12")
                == .event(InputEvent(time: 5, type: 3, code: 0x36, value: 12)))
        // A monotonic-clock time (seconds since boot) reads the same way.
        #expect(parse("Event: time 1657.754638, type 1 (Key), code 30 (A), value 1")
                == .event(InputEvent(time: 1657.754638, type: 1, code: 30, value: 1)))
        // MSC_SCAN is printed in hex (%02x): checked, then not used.
        #expect(parse("Event: time 2.5, type 4 (EV_MSC), code 4 (MSC_SCAN), value 90001") == .otherEvent(time: 2.5, device: ""))
    }

    @Test func synSeparators() {
        let syn: (Double, UInt16) -> InputLogLine = { .event(InputEvent(time: $0, type: 0, code: $1, value: 0)) }
        #expect(parse("Event: time 1.5, -------------- SYN_REPORT ------------") == syn(1.5, 0))
        #expect(parse("Event: time 1.5, ++++++++++++++ SYN_MT_REPORT ++++++++++++") == syn(1.5, 2))
        #expect(parse("Event: time 1.5, >>>>>>>>>>>>>> SYN_DROPPED <<<<<<<<<<<<") == syn(1.5, 3))
        // The older evtest: `Report Sync` for code 0, `Config Sync` for every other code (an MT report).
        #expect(parse("Event: time 1294311437.197758, -------------- Report Sync ------------") == syn(1294311437.197758, 0))
        #expect(parse("Event: time 1305760755.417163, -------------- Config Sync ------------") == syn(1305760755.417163, 2))
    }

    @Test func malformedEventsSayWhy() {
        let cases: [(String, String)] = [
            ("Event: time 1.5", "nothing after the time"),
            ("Event: 1.5, -------------- SYN_REPORT ------------", "without a time"),
            ("Event: time 1.5s, -------------- SYN_REPORT ------------", "timestamp `1.5s`"),
            ("Event: time 1.5, -------------- ? ------------", "unknown EV_SYN separator `?`"),
            ("Event: time 1.5, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X)", "truncated event"),
            ("Event: time 1.5, type 3 (EV_ABS), code 99 (?), value 1", "unknown EV_ABS code 0x0063"),
            ("Event: time 1.5, type 9 (?), code 0 (?), value 1", "unknown event type 0x0009"),
            ("Event: time 1.5, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 0x1a4", "not a decimal integer"),
            ("Event: time 1.5, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 1, more", "unexpected text"),
            ("Event: time 1.5, type three (EV_ABS), code 53 (X), value 1", "event type `type three (EV_ABS)`"),
            ("Event: time 1.5, type 3 (EV_ABS), code 53 (X), value 99999999999", "not a decimal integer"),
        ]
        for (line, reason) in cases {
            guard case .malformed(let r) = parse(line) else { Issue.record("\(line): not malformed"); continue }
            #expect(r.contains(reason), "\(line): \(r)")
        }
    }

    /// The header's axes: ranges (and resolutions) at `Max` and `Resolution`; other types' codes and
    /// key-repeat values are not axes.
    @Test func headerAxes() {
        let header = """
            Input driver version is 1.0.1
            Input device ID: bus 0x3 vendor 0x4f3 product 0x106 version 0x110
            Input device name: "ELAN Touchscreen"
            Supported events:
              Event type 0 (EV_SYN)
              Event type 1 (EV_KEY)
                Event code 330 (BTN_TOUCH)
              Event type 3 (EV_ABS)
                Event code 53 (ABS_MT_POSITION_X)
                  Value      0
                  Min        0
                  Max     4089
                  Resolution       9
                Event code 54 (ABS_MT_POSITION_Y)
                  Value      0
                  Min       10
                  Max     2303
              Event type 17 (EV_LED)
                Event code 0 (LED_NUML) state 1
            Key repeat handling:
              Repeat type 20 (EV_REP)
                Repeat code 0 (REP_DELAY)
                  Value    250
            Properties:
              Property type 1 (INPUT_PROP_DIRECT)
            Testing ... (interrupt to exit)
            """
        var state = EvtestHeaderState()
        var axes: [InputLogLine] = []
        for line in header.split(separator: "\n") {
            let parsed = EvtestLine.parse(line, state: &state)
            if case .skip = parsed { continue }
            axes.append(parsed)
        }
        #expect(axes == [
            .axisRange(device: "", code: 0x35, AxisRange(min: 0, max: 4089)),
            .axisRange(device: "", code: 0x35, AxisRange(min: 0, max: 4089, resolution: 9)),
            .axisRange(device: "", code: 0x36, AxisRange(min: 10, max: 2303)),
        ])
        #expect(!state.seenEvent)
    }

    /// evtest's device selection and a prompt running it are skipped, as are remarks between
    /// `Testing ... (interrupt to exit)` and the first event (the Chromium OS recording's hint);
    /// any other line is rejected, before the events as after them.
    @Test func preambleAndStrayLines() {
        for line in ["$ sudo evtest", "root@pi:~# evtest /dev/input/event0", "No device specified, trying to scan all of /dev/input/event*",
                     "Available devices:", "/dev/input/event5:\tELAN Touchscreen", "Select the device event number [0-12]: 5",
                     "Not running as root, no devices may be available.", "   indented notes"] {
            #expect(parse(line, seenEvent: false) == .skip, "\(line)")
        }
        var state = EvtestHeaderState()
        for line in ["Testing ... (interrupt to exit)", "If the display isn't showing, this command may help:",
                     "echo 0 > /sys/module/i915/parameters/i915_enable_fbc"] {
            #expect(EvtestLine.parse(Substring(line), state: &state) == .skip, "\(line)")
        }
        for seenEvent in [false, true] {
            guard case .malformed(let r) = parse("echo 0 > /sys/module/i915/parameters/i915_enable_fbc", seenEvent: seenEvent) else {
                Issue.record("not rejected"); continue
            }
            #expect(r.hasPrefix("not an evtest line"))
        }
    }

    /// `--format auto` from the first lines (DeviceLogFormat.detect): the first decisive line wins.
    @Test func detection() throws {
        let cases: [(String, DeviceLogFormat?)] = [
            ("Input driver version is 1.0.1\nInput device ID: bus 0x3", .evtest),
            ("$ sudo evtest\nNo device specified, trying to scan all of /dev/input/event*", .evtest),
            ("No device specified, trying to scan all of /dev/input/event*\nAvailable devices:", .evtest),
            ("/dev/input/event0:\tPower Button\n/dev/input/event1:\tTouch\nSelect the device event number [0-1]: 1", .evtest),
            ("Event: time 1527639975.554003, type 3 (EV_ABS), code 47 (ABS_MT_SLOT), value 0", .evtest),
            ("Event: time 1.0, -------------- SYN_REPORT ------------", .evtest),
            ("Event: garbled", nil),
            ("# libinput record\nversion: 1", .libinput),
            ("version: 1\nndevices: 2\nlibinput:", .libinput),
            ("\n# a comment\nversion: 1\n# more\ndevices:", .libinput),
            ("version: 1\nname: something else", nil),
            ("# EVEMU 1.3", .evemu),
            ("[   1.000000] /dev/input/event2: EV_SYN SYN_REPORT 00000000", .getevent),
        ]
        for (text, format) in cases {
            #expect(DeviceLogFormat.detect(prefix: Array(text.utf8)) == format, "\(text)")
        }
        let input = ByteInput(text: "# libinput record\nversion: 1\n", name: "r.yaml")
        #expect(try InputFormat.detect(input) == .libinput)
        #expect(try InputFormat.detect(ByteInput(text: "Input driver version is 1.0.1\n", name: "e.txt")) == .evtest)
    }
}
