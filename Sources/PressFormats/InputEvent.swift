// Linux input events as `getevent`, `evemu-record`, `evtest` and `libinput record` print them: a time, a type, a code and a
// value (`struct input_event`). Codes and names are those of the kernel's
// include/uapi/linux/input-event-codes.h; the multi-touch semantics are those of
// Documentation/input/multi-touch-protocol.rst.

/// One Linux input event: when it was stamped, its type, code and value, and the input device it
/// came from.
public struct InputEvent: Hashable, Sendable {
    /// The event's timestamp in seconds (`sec.usec` as printed; getevent uses the monotonic
    /// clock, evemu counts from the first event). Only differences matter.
    public var time: Double
    /// `EV_*` (see `InputEventType`).
    public var type: UInt16
    /// The code within the type (`ABS_MT_POSITION_X`, `BTN_TOUCH`, …; see `InputEventCode`).
    public var code: UInt16
    /// The value, a signed 32-bit integer as in `struct input_event` (getevent prints it as 8 hex
    /// digits, so `ffffffff` is −1).
    public var value: Int32
    /// The device path the line names (`/dev/input/event1`), or "" when the log names none.
    public var device: String

    public init(time: Double, type: UInt16, code: UInt16, value: Int32, device: String = "") {
        self.time = time; self.type = type; self.code = code; self.value = value; self.device = device
    }
}

/// Event types (`EV_*`), from include/uapi/linux/input-event-codes.h.
public enum InputEventType {
    public static let syn: UInt16 = 0x00
    public static let key: UInt16 = 0x01
    public static let rel: UInt16 = 0x02
    public static let abs: UInt16 = 0x03
    public static let msc: UInt16 = 0x04
    public static let sw: UInt16 = 0x05
    public static let led: UInt16 = 0x11
    public static let snd: UInt16 = 0x12
    public static let rep: UInt16 = 0x14
    public static let ff: UInt16 = 0x15
    public static let pwr: UInt16 = 0x16
    public static let ffStatus: UInt16 = 0x17

    /// Every defined type with its name and its largest defined code (`*_MAX`; nil: any code).
    /// A type or code outside this table is "unknown" and its line is rejected.
    static let table: [(type: UInt16, name: String, codePrefixes: [String], maxCode: UInt16?)] = [
        (syn, "EV_SYN", ["SYN_"], InputEventCode.synDropped),  // SYN_MAX is 0xf, but only 0…3 are defined
        (key, "EV_KEY", ["KEY_", "BTN_"], 0x2ff),                // KEY_MAX
        (rel, "EV_REL", ["REL_"], 0x0f),                          // REL_MAX
        (abs, "EV_ABS", ["ABS_"], 0x3f),                          // ABS_MAX
        (msc, "EV_MSC", ["MSC_"], 0x07),                          // MSC_MAX
        (sw, "EV_SW", ["SW_"], 0x10),                             // SW_MAX
        (led, "EV_LED", ["LED_"], 0x0f),                          // LED_MAX
        (snd, "EV_SND", ["SND_"], 0x07),                          // SND_MAX
        (rep, "EV_REP", ["REP_"], 0x01),                          // REP_MAX
        (ff, "EV_FF", ["FF_"], 0x7f),                             // FF_MAX
        (pwr, "EV_PWR", [], nil),
        (ffStatus, "EV_FF_STATUS", ["FF_STATUS_"], 0x01),         // FF_STATUS_MAX
    ]

    /// The type named `EV_…`, or nil.
    static func named(_ name: Substring) -> UInt16? { table.first { $0.name == name }?.type }

    /// Why a numeric type/code pair is not a defined event, or nil when it is.
    static func problem(type: UInt16, code: UInt16) -> String? {
        guard let entry = table.first(where: { $0.type == type }) else {
            return "unknown event type 0x\(hex4(type))"
        }
        if let max = entry.maxCode, code > max {
            return "unknown \(entry.name) code 0x\(hex4(code))"
        }
        return nil
    }

    /// `n` as 4 lowercase hex digits.
    static func hex4(_ n: UInt16) -> String {
        let s = String(n, radix: 16)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}

/// The event codes pressdb reads, from include/uapi/linux/input-event-codes.h. Everything else is
/// validated and then ignored.
public enum InputEventCode {
    /// `SYN_REPORT`: the end of a frame; everything since the previous report happened at once.
    public static let synReport: UInt16 = 0x00
    /// `SYN_CONFIG`.
    public static let synConfig: UInt16 = 0x01
    /// `SYN_MT_REPORT`: protocol A, the end of one contact's data within a frame.
    public static let synMTReport: UInt16 = 0x02
    /// `SYN_DROPPED`: the kernel's buffer overran; events up to the next `SYN_REPORT` are lost.
    public static let synDropped: UInt16 = 0x03

    /// `ABS_X`, `ABS_Y`: the single-touch (legacy) position.
    public static let absX: UInt16 = 0x00
    public static let absY: UInt16 = 0x01
    /// `ABS_MT_SLOT`: protocol B, the slot the following `ABS_MT_*` events apply to.
    public static let absMTSlot: UInt16 = 0x2f
    /// `ABS_MT_POSITION_X`, `ABS_MT_POSITION_Y`: a contact's centre.
    public static let absMTPositionX: UInt16 = 0x35
    public static let absMTPositionY: UInt16 = 0x36
    /// `ABS_MT_TRACKING_ID`: a contact's identity; −1 in protocol B ends the slot's contact.
    public static let absMTTrackingID: UInt16 = 0x39
    /// The range of `ABS_MT_*` codes (`ABS_MT_SLOT` … `ABS_MT_TOOL_Y`).
    public static let absMTFirst: UInt16 = 0x2f
    public static let absMTLast: UInt16 = 0x3d

    /// `ABS_MT_DISTANCE`: the contact's distance from the surface; above 0 it hovers.
    public static let absMTDistance: UInt16 = 0x3b

    /// `BTN_TOUCH`: 1 while the surface is touched (single-touch down/up).
    public static let btnTouch: UInt16 = 0x14a
    /// `BTN_TOOL_PEN`: 1 while a pen is in range (touching or hovering).
    public static let btnToolPen: UInt16 = 0x140

    /// Code names as `getevent -l` prints them, for the types whose codes pressdb must tell
    /// apart (EV_SYN, EV_ABS, and the touch buttons of EV_KEY).
    static let names: [String: (type: UInt16, code: UInt16)] = {
        var n: [String: (UInt16, UInt16)] = [:]
        let syn = ["SYN_REPORT", "SYN_CONFIG", "SYN_MT_REPORT", "SYN_DROPPED"]
        for (i, s) in syn.enumerated() { n[s] = (InputEventType.syn, UInt16(i)) }
        let abs: [(String, UInt16)] = [
            ("ABS_X", 0x00), ("ABS_Y", 0x01), ("ABS_Z", 0x02), ("ABS_RX", 0x03), ("ABS_RY", 0x04),
            ("ABS_RZ", 0x05), ("ABS_THROTTLE", 0x06), ("ABS_RUDDER", 0x07), ("ABS_WHEEL", 0x08),
            ("ABS_GAS", 0x09), ("ABS_BRAKE", 0x0a), ("ABS_HAT0X", 0x10), ("ABS_HAT0Y", 0x11),
            ("ABS_HAT1X", 0x12), ("ABS_HAT1Y", 0x13), ("ABS_HAT2X", 0x14), ("ABS_HAT2Y", 0x15),
            ("ABS_HAT3X", 0x16), ("ABS_HAT3Y", 0x17), ("ABS_PRESSURE", 0x18), ("ABS_DISTANCE", 0x19),
            ("ABS_TILT_X", 0x1a), ("ABS_TILT_Y", 0x1b), ("ABS_TOOL_WIDTH", 0x1c), ("ABS_VOLUME", 0x20),
            ("ABS_PROFILE", 0x21), ("ABS_MISC", 0x28), ("ABS_RESERVED", 0x2e), ("ABS_MT_SLOT", 0x2f),
            ("ABS_MT_TOUCH_MAJOR", 0x30), ("ABS_MT_TOUCH_MINOR", 0x31), ("ABS_MT_WIDTH_MAJOR", 0x32),
            ("ABS_MT_WIDTH_MINOR", 0x33), ("ABS_MT_ORIENTATION", 0x34), ("ABS_MT_POSITION_X", 0x35),
            ("ABS_MT_POSITION_Y", 0x36), ("ABS_MT_TOOL_TYPE", 0x37), ("ABS_MT_BLOB_ID", 0x38),
            ("ABS_MT_TRACKING_ID", 0x39), ("ABS_MT_PRESSURE", 0x3a), ("ABS_MT_DISTANCE", 0x3b),
            ("ABS_MT_TOOL_X", 0x3c), ("ABS_MT_TOOL_Y", 0x3d),
        ]
        for (s, c) in abs { n[s] = (InputEventType.abs, c) }
        let buttons: [(String, UInt16)] = [
            ("BTN_TOOL_PEN", 0x140), ("BTN_TOOL_RUBBER", 0x141), ("BTN_TOOL_BRUSH", 0x142),
            ("BTN_TOOL_PENCIL", 0x143), ("BTN_TOOL_AIRBRUSH", 0x144), ("BTN_TOOL_FINGER", 0x145),
            ("BTN_TOOL_MOUSE", 0x146), ("BTN_TOOL_LENS", 0x147), ("BTN_TOOL_QUINTTAP", 0x148),
            ("BTN_STYLUS3", 0x149), ("BTN_TOUCH", 0x14a), ("BTN_STYLUS", 0x14b), ("BTN_STYLUS2", 0x14c),
            ("BTN_TOOL_DOUBLETAP", 0x14d), ("BTN_TOOL_TRIPLETAP", 0x14e), ("BTN_TOOL_QUADTAP", 0x14f),
        ]
        for (s, c) in buttons { n[s] = (InputEventType.key, c) }
        return n
    }()

    /// True for the `ABS_MT_*` codes.
    static func isMultiTouch(_ code: UInt16) -> Bool { code >= absMTFirst && code <= absMTLast }
}

/// An absolute axis's range as the kernel reports it (`struct input_absinfo` minimum and maximum,
/// both inclusive, in the device's raw units), and its resolution.
public struct AxisRange: Hashable, Sendable {
    public var min: Int
    public var max: Int
    /// `struct input_absinfo.resolution`: raw units per millimetre for the position axes
    /// (`ABS_X`/`ABS_Y`, `ABS_MT_POSITION_X/Y`; include/uapi/linux/input.h); 0 when not given.
    /// With it, and no `--screen`, positions become points physically (see `DeviceLogOptions`).
    public var resolution: Int
    public init(min: Int, max: Int, resolution: Int = 0) {
        self.min = min; self.max = max; self.resolution = resolution
    }
    /// The number of distinct raw values, max − min + 1 (saturating at `Int.max` instead of
    /// overflowing for absurd ranges; the kernel's are 32-bit).
    public var span: Int {
        let (d, o1) = max.subtractingReportingOverflow(min)
        let (n, o2) = d.addingReportingOverflow(1)
        return o1 || o2 ? Int.max : n
    }
}

/// What one line of a device log is, once read on its own.
public enum InputLogLine: Hashable, Sendable {
    /// Blank, a comment, or a header line that carries nothing pressdb uses.
    case skip
    /// A header line giving an axis's range: evemu `A:`, a `getevent -p` axis line, or evtest's
    /// `Max`/`Resolution` line under an axis.
    case axisRange(device: String, code: UInt16, AxisRange)
    /// A header line giving an axis's value when the recording began: evtest's `Value` line
    /// under `ABS_MT_SLOT`, the slot current then.
    case axisValue(device: String, code: UInt16, value: Int32)
    /// An event pressdb reads (EV_SYN, EV_ABS, EV_KEY).
    case event(InputEvent)
    /// A well-formed event of a type or code pressdb does not use (a key, a sensor): only its
    /// time is checked.
    case otherEvent(time: Double, device: String)
    /// A line that cannot be read; the reason is one sentence.
    case malformed(String)
}
