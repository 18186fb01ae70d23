// Finger contacts from Linux input events: the kernel's three ways of reporting touches
// (Documentation/input/multi-touch-protocol.rst and event-codes.rst), turned into one stream of
// per-contact samples in raw device units.
import PressCore

/// How a device reports touches.
public enum TouchProtocol: String, Sendable, Hashable {
    /// Legacy single touch: `ABS_X`/`ABS_Y`, with `BTN_TOUCH` 1 on touch-down and 0 on lift.
    case singleTouch = "single-touch"
    /// Multi-touch protocol A: every frame lists every contact, each closed by `SYN_MT_REPORT`;
    /// contacts are anonymous unless the driver adds `ABS_MT_TRACKING_ID`.
    case multiTouchA = "protocol-A"
    /// Multi-touch protocol B: `ABS_MT_SLOT` selects a slot; `ABS_MT_TRACKING_ID` ≥ 0 begins a
    /// contact in it and −1 ends it; only changed axes are sent, so values carry over per slot.
    case multiTouchB = "protocol-B"
}

/// Which axes a sample's position was read from (their ranges may differ).
public enum ContactAxes: String, Sendable, Hashable {
    /// `ABS_MT_POSITION_X` / `ABS_MT_POSITION_Y`.
    case multiTouch
    /// `ABS_X` / `ABS_Y`.
    case singleTouch
}

/// One committed sample of one contact, in raw device units.
public struct ContactSample: Hashable, Sendable {
    /// The contact's 1-based number, in order of touch-down across the whole input.
    public var contact: Int
    /// The frame's time: the timestamp of the `SYN_REPORT` that committed it, in seconds.
    public var time: Double
    /// Raw axis values (device units; see `DeviceLogOptions` for the conversion to points).
    public var x: Int32
    public var y: Int32
    /// `began` at the first frame, `moved` when the position changed since the contact's previous
    /// sample, `stationary` when it was reported again at the same position, `ended` at the lift
    /// frame (at the last known position). Never `cancelled`: the kernel has no cancel.
    public var phase: TouchPhase
    public var axes: ContactAxes
    /// The device path (`/dev/input/event1`), or "" when the log names none.
    public var device: String
    /// The line number of the `SYN_REPORT` that committed the frame.
    public var line: Int
    /// True on the first sample of a contact after a `SYN_DROPPED` that happened while it was open:
    /// events were lost, so its path between the previous sample and this one is unknown.
    public var afterDrop: Bool

    public init(contact: Int, time: Double, x: Int32, y: Int32, phase: TouchPhase, axes: ContactAxes,
                device: String = "", line: Int, afterDrop: Bool = false) {
        self.contact = contact; self.time = time; self.x = x; self.y = y; self.phase = phase
        self.axes = axes; self.device = device; self.line = line; self.afterDrop = afterDrop
    }
}

/// Turns input events into contact samples, frame by frame. Feed events in order with
/// `consume(_:line:)`; samples come out when a `SYN_REPORT` commits a frame. Memory is bounded by
/// the open contacts and one frame's events per device (at most `maximumFrameEvents`).
///
/// Rules (Documentation/input/multi-touch-protocol.rst):
/// - A device's protocol is decided at its first frame carrying touch data: `ABS_MT_SLOT`, or
///   `ABS_MT_*` without `SYN_MT_REPORT`, is protocol B; `SYN_MT_REPORT` is protocol A; only
///   `ABS_X`/`ABS_Y`/`BTN_TOUCH` is single touch. Once a device sends `ABS_MT_*` its emulated
///   single-touch events (`ABS_X`, `ABS_Y`, `BTN_TOUCH`) are ignored.
/// - Protocol A: a frame with no contact (only `SYN_MT_REPORT`, or nothing, before `SYN_REPORT`)
///   lifts every contact. Contacts are matched frame to frame by `ABS_MT_TRACKING_ID` when both
///   frames give one, otherwise by nearest position (greedy, closest pair first, as Android's
///   `TouchInputMapper` assigns pointer ids); unmatched old contacts end, unmatched new ones begin.
/// - Protocol B: slot values persist (the kernel drops events that repeat a slot's value), also
///   from one contact to the next in the same slot; a slot never given a position reads 0. A
///   contact is reported in a frame when the frame carries an event for its slot.
/// - Hover is not touch (event-codes.rst, "BTN_TOOL_<name>", "ABS_DISTANCE"): a protocol-B slot
///   whose `ABS_MT_DISTANCE` is above 0, or any slot of a device whose `BTN_TOOL_PEN` is 1 while
///   `BTN_TOUCH` is 0, is tracked but hovering. A contact begins when its tool touches and ends
///   when it lifts or hovers away; a tool that only hovers gives no contact. (Single touch reads
///   `BTN_TOUCH` alone, so a hovering pen gives nothing there either.)
/// - `SYN_DROPPED` discards the frame in progress and every event up to and including the next
///   `SYN_REPORT`, and marks the device's open contacts (`ContactSample.afterDrop`).
public struct ContactTracker: Sendable {
    /// The most events one device's frame may hold before its `SYN_REPORT`; more are refused
    /// (`consume` returns nil), so a log without reports cannot exhaust memory.
    public static let maximumFrameEvents = 4096

    /// The number of contacts begun so far.
    public private(set) var contactCount = 0
    private var devices: [String: DeviceState] = [:]
    private var problems: [ContactProblem] = []

    public init() {}

    /// Feeds one event (`line`: its line number). Returns the samples a `SYN_REPORT` commits (in
    /// contact order; empty for other events), or nil when the event is refused because its
    /// frame already holds `maximumFrameEvents` events. Frames with data that belongs to no
    /// contact are reported by `takeProblems()`.
    public mutating func consume(_ event: InputEvent, line: Int) -> [ContactSample]? {
        var next = contactCount
        let out = devices[event.device, default: DeviceState()].consume(event, line: line, nextContact: &next,
                                                                        problems: &problems)
        contactCount = next
        return out
    }

    /// An axis's value when the recording began, as its header says: `ABS_MT_SLOT`'s is the slot
    /// that events before the first `ABS_MT_SLOT` event belong to (not slot 0). Others are not used.
    public mutating func startValue(device: String = "", code: UInt16, _ value: Int32) {
        if code == InputEventCode.absMTSlot { devices[device, default: DeviceState()].slot = value }
    }

    /// The problems found since the last call, in input order: protocol-B frames that update or
    /// lift a slot with no contact (its touch-down was not read: a rejected line, or a recording
    /// started while a finger was down). Their data belongs to no session and is dropped.
    public mutating func takeProblems() -> [ContactProblem] {
        defer { problems.removeAll() }
        return problems
    }

    /// The last sample of every contact that has begun and not yet lifted, in contact order. At
    /// the end of input these are the touches still down when the recording stopped.
    public var openContacts: [ContactSample] {
        devices.values.flatMap { $0.openContacts }.sorted { $0.contact < $1.contact }
    }

    /// Events read but not yet committed by a `SYN_REPORT` (at the end of input: a cut-off frame).
    public var uncommittedEvents: Int { devices.values.reduce(0) { $0 + $1.frame.count } }

    /// The protocol a device turned out to use, or nil before its first touch frame.
    public func touchProtocol(device: String = "") -> TouchProtocol? { devices[device]?.mode }
}

/// A committed frame whose data the tracker had to drop: the `SYN_REPORT`'s line, and why.
public struct ContactProblem: Hashable, Sendable {
    public var line: Int
    public var reason: String
    public init(line: Int, reason: String) { self.line = line; self.reason = reason }
}

/// One contact that has begun and not lifted.
private struct OpenContact: Sendable {
    var contact: Int
    var trackingID: Int32?
    /// Its last emitted sample; nil only between a protocol-B `ABS_MT_TRACKING_ID` and the
    /// `SYN_REPORT` that commits it.
    var last: ContactSample?
    var afterDrop = false
}

/// A protocol-B slot's state: its axis values persist between events and between contacts.
private struct Slot: Sendable {
    var x: Int32 = 0
    var y: Int32 = 0
    var distance: Int32 = 0
    /// The tool's `ABS_MT_TRACKING_ID` while one is tracked in the slot (touching or hovering).
    var trackingID: Int32?
    /// The contact while the tool touches.
    var open: OpenContact?
}

/// One protocol-A contact within a frame: the data between two `SYN_MT_REPORT`s.
private struct ReportedContact {
    var trackingID: Int32?
    var x: Int32?
    var y: Int32?
}

private struct DeviceState: Sendable {
    var mode: TouchProtocol?
    var frame: [InputEvent] = []
    var dropping = false
    // Single touch.
    var stX: Int32 = 0
    var stY: Int32 = 0
    var stContact: OpenContact?
    // Protocol A: the contacts of the previous frame, in contact order.
    var aContacts: [OpenContact] = []
    // Protocol B.
    var slot: Int32 = 0
    var slots: [Int32: Slot] = [:]
    /// `BTN_TOOL_PEN` and `BTN_TOUCH` as last reported: a pen in range that does not touch hovers.
    var penInRange = false
    var touchKey = false

    var openContacts: [ContactSample] {
        var all = aContacts.compactMap(\.last) + slots.values.compactMap { $0.open?.last }
        if let s = stContact?.last { all.append(s) }
        return all
    }

    mutating func consume(_ e: InputEvent, line: Int, nextContact: inout Int,
                          problems: inout [ContactProblem]) -> [ContactSample]? {
        let relevant = e.type == InputEventType.abs
            || (e.type == InputEventType.key && (e.code == InputEventCode.btnTouch || e.code == InputEventCode.btnToolPen))
            || (e.type == InputEventType.syn && e.code == InputEventCode.synMTReport)
        if e.type == InputEventType.syn && e.code == InputEventCode.synReport {
            defer { frame.removeAll(keepingCapacity: true) }
            if dropping { dropping = false; return [] }
            return commit(time: e.time, line: line, device: e.device, nextContact: &nextContact, problems: &problems)
        }
        if e.type == InputEventType.syn && e.code == InputEventCode.synDropped {
            dropping = true
            frame.removeAll(keepingCapacity: true)
            stContact?.afterDrop = true
            for i in aContacts.indices { aContacts[i].afterDrop = true }
            for k in slots.keys where slots[k]?.open != nil { slots[k]?.open?.afterDrop = true }
            return []
        }
        guard relevant, !dropping else { return [] }
        guard frame.count < ContactTracker.maximumFrameEvents else { return nil }
        frame.append(e)
        return []
    }

    /// A sample of `o` at (x, y); `moved` becomes `stationary` when the position is unchanged.
    static func emit(_ o: inout OpenContact, _ phase: TouchPhase, x: Int32, y: Int32, time: Double,
                     line: Int, axes: ContactAxes, device: String) -> ContactSample {
        var p = phase
        if p == .moved, let last = o.last, last.x == x, last.y == y { p = .stationary }
        let s = ContactSample(contact: o.contact, time: time, x: x, y: y, phase: p, axes: axes,
                              device: device, line: line, afterDrop: o.afterDrop)
        o.afterDrop = false
        o.last = s
        return s
    }

    mutating func commit(time: Double, line: Int, device: String, nextContact: inout Int,
                         problems: inout [ContactProblem]) -> [ContactSample] {
        let isMT: (InputEvent) -> Bool = {
            ($0.type == InputEventType.abs && InputEventCode.isMultiTouch($0.code))
                || ($0.type == InputEventType.syn && $0.code == InputEventCode.synMTReport)
        }
        var out: [ContactSample] = []
        if mode == nil || mode == .singleTouch, frame.contains(where: isMT) {
            // The device turns out to be multi-touch: its single-touch events are emulated.
            if var o = stContact {
                out.append(Self.emit(&o, .ended, x: stX, y: stY, time: time, line: line,
                                     axes: .singleTouch, device: device))
                stContact = nil
            }
            let hasSlot = frame.contains { $0.type == InputEventType.abs && $0.code == InputEventCode.absMTSlot }
            let hasReport = frame.contains { $0.type == InputEventType.syn && $0.code == InputEventCode.synMTReport }
            mode = hasSlot || !hasReport ? .multiTouchB : .multiTouchA
        } else if mode == nil, frame.contains(where: {
            ($0.type == InputEventType.abs && ($0.code == InputEventCode.absX || $0.code == InputEventCode.absY))
                || $0.type == InputEventType.key
        }) {
            mode = .singleTouch
        }
        switch mode {
        case .singleTouch?: out += commitSingleTouch(time: time, line: line, device: device, nextContact: &nextContact)
        case .multiTouchA?: out += commitProtocolA(time: time, line: line, device: device, nextContact: &nextContact)
        case .multiTouchB?:
            out += commitProtocolB(time: time, line: line, device: device, nextContact: &nextContact, problems: &problems)
        case nil: break
        }
        return out
    }

    // MARK: Single touch

    mutating func commitSingleTouch(time: Double, line: Int, device: String, nextContact: inout Int) -> [ContactSample] {
        var touch: Int32? = nil
        var reported = false
        for e in frame {
            switch (e.type, e.code) {
            case (InputEventType.abs, InputEventCode.absX): stX = e.value; reported = true
            case (InputEventType.abs, InputEventCode.absY): stY = e.value; reported = true
            case (InputEventType.key, InputEventCode.btnTouch): touch = e.value
            default: break
            }
        }
        if var o = stContact {
            if touch == 0 {
                stContact = nil
                return [Self.emit(&o, .ended, x: stX, y: stY, time: time, line: line, axes: .singleTouch, device: device)]
            }
            guard reported || touch != nil else { return [] }
            let s = Self.emit(&o, .moved, x: stX, y: stY, time: time, line: line, axes: .singleTouch, device: device)
            stContact = o
            return [s]
        }
        guard let touch, touch != 0 else { return [] }
        nextContact += 1
        var o = OpenContact(contact: nextContact)
        let s = Self.emit(&o, .began, x: stX, y: stY, time: time, line: line, axes: .singleTouch, device: device)
        stContact = o
        return [s]
    }

    // MARK: Protocol A

    mutating func commitProtocolA(time: Double, line: Int, device: String, nextContact: inout Int) -> [ContactSample] {
        // The frame's contacts: the data between SYN_MT_REPORTs (a report with no position is the
        // "no contact" marker). Data after the last report is taken as one more contact.
        var reported: [ReportedContact] = []
        var current = ReportedContact()
        func close() {
            if current.x != nil || current.y != nil { reported.append(current) }
            current = ReportedContact()
        }
        for e in frame {
            if e.type == InputEventType.syn { close(); continue }
            guard e.type == InputEventType.abs else { continue }
            switch e.code {
            case InputEventCode.absMTPositionX: current.x = e.value
            case InputEventCode.absMTPositionY: current.y = e.value
            case InputEventCode.absMTTrackingID: current.trackingID = e.value >= 0 ? e.value : nil
            default: break
            }
        }
        close()

        // Match the previous frame's contacts to this frame's: tracking id first, then nearest.
        var match = [Int?](repeating: nil, count: aContacts.count)  // previous index → reported index
        var taken = Set<Int>()
        for i in aContacts.indices {
            guard let id = aContacts[i].trackingID else { continue }
            if let j = reported.indices.first(where: { !taken.contains($0) && reported[$0].trackingID == id }) {
                match[i] = j; taken.insert(j)
            }
        }
        var pairs: [(d: Double, i: Int, j: Int)] = []
        for i in aContacts.indices where match[i] == nil {
            guard let last = aContacts[i].last else { continue }
            for j in reported.indices where !taken.contains(j) {
                if aContacts[i].trackingID != nil && reported[j].trackingID != nil { continue }
                let dx = Double(reported[j].x ?? last.x) - Double(last.x)
                let dy = Double(reported[j].y ?? last.y) - Double(last.y)
                pairs.append((dx * dx + dy * dy, i, j))
            }
        }
        pairs.sort { ($0.d, $0.i, $0.j) < ($1.d, $1.i, $1.j) }
        for p in pairs where match[p.i] == nil && !taken.contains(p.j) {
            match[p.i] = p.j; taken.insert(p.j)
        }

        var out: [ContactSample] = []
        var kept: [OpenContact] = []
        for i in aContacts.indices {
            var o = aContacts[i]
            guard let last = o.last else { continue }
            if let j = match[i] {
                let r = reported[j]
                if let id = r.trackingID { o.trackingID = id }
                out.append(Self.emit(&o, .moved, x: r.x ?? last.x, y: r.y ?? last.y, time: time, line: line,
                                     axes: .multiTouch, device: device))
                kept.append(o)
            } else {
                out.append(Self.emit(&o, .ended, x: last.x, y: last.y, time: time, line: line,
                                     axes: .multiTouch, device: device))
            }
        }
        for j in reported.indices where !taken.contains(j) {
            nextContact += 1
            var o = OpenContact(contact: nextContact, trackingID: reported[j].trackingID)
            out.append(Self.emit(&o, .began, x: reported[j].x ?? 0, y: reported[j].y ?? 0, time: time,
                                 line: line, axes: .multiTouch, device: device))
            kept.append(o)
        }
        aContacts = kept
        return out
    }

    // MARK: Protocol B

    mutating func commitProtocolB(time: Double, line: Int, device: String, nextContact: inout Int,
                                  problems: inout [ContactProblem]) -> [ContactSample] {
        // Hover: the pen keys and every slot's distance as they stand at the end of the frame
        // decide whether a tracked tool touches.
        let hoveredBefore = penInRange && !touchKey
        var finalDistance: [Int32: Int32] = [:]
        var current = slot
        for e in frame {
            if e.type == InputEventType.key {
                if e.code == InputEventCode.btnToolPen { penInRange = e.value != 0 }
                if e.code == InputEventCode.btnTouch { touchKey = e.value != 0 }
            } else if e.type == InputEventType.abs {
                if e.code == InputEventCode.absMTSlot { current = e.value }
                if e.code == InputEventCode.absMTDistance { finalDistance[current] = e.value }
            }
        }
        let penHovers = penInRange && !touchKey

        var endings: [(contact: OpenContact, x: Int32, y: Int32)] = []
        var touched = Set<Int32>()
        // Slots this frame updates or lifts while they track no tool (and did not just lift).
        var orphanUpdates = Set<Int32>(), orphanLifts = Set<Int32>(), lifted = Set<Int32>()
        for e in frame where e.type == InputEventType.abs && InputEventCode.isMultiTouch(e.code) {
            if e.code == InputEventCode.absMTSlot { slot = e.value; continue }
            var s = slots[slot, default: Slot()]
            touched.insert(slot)
            if s.trackingID == nil, !lifted.contains(slot) {
                if e.code == InputEventCode.absMTTrackingID {
                    if e.value < 0 { orphanLifts.insert(slot) }
                } else {
                    orphanUpdates.insert(slot)
                }
            }
            switch e.code {
            case InputEventCode.absMTPositionX: s.x = e.value
            case InputEventCode.absMTPositionY: s.y = e.value
            case InputEventCode.absMTDistance: s.distance = e.value
            case InputEventCode.absMTTrackingID:
                if e.value < 0 {
                    if s.trackingID != nil { lifted.insert(slot) }
                    if let o = s.open { endings.append((o, s.x, s.y)); s.open = nil }
                    s.trackingID = nil
                } else if s.trackingID != e.value {
                    // A new id in an occupied slot replaces its contact (the old one lifted).
                    if let o = s.open { endings.append((o, s.x, s.y)); s.open = nil }
                    s.trackingID = e.value
                    if touches(slot, finalDistance, penHovers) {
                        nextContact += 1
                        s.open = OpenContact(contact: nextContact, trackingID: e.value)
                    }
                }
            default: break
            }
            slots[slot] = s
        }
        // A tracked tool that comes down touches now; one that rises hovers away (its contact ends
        // where it was). With the pen keys changed, every slot is looked at.
        let looked = hoveredBefore != penHovers ? Set(slots.keys) : touched
        for k in looked.sorted() {
            guard var s = slots[k], s.trackingID != nil else { continue }
            if s.open == nil, touches(k, finalDistance, penHovers) {
                nextContact += 1
                s.open = OpenContact(contact: nextContact, trackingID: s.trackingID)
                touched.insert(k)
            } else if let o = s.open, !touches(k, finalDistance, penHovers) {
                endings.append((o, s.x, s.y))
                s.open = nil
            }
            slots[k] = s
        }
        var out: [ContactSample] = []
        for (contact, x, y) in endings {
            var o = contact
            if o.last == nil {  // began and lifted within one frame
                out.append(Self.emit(&o, .began, x: x, y: y, time: time, line: line, axes: .multiTouch, device: device))
            }
            out.append(Self.emit(&o, .ended, x: x, y: y, time: time, line: line, axes: .multiTouch, device: device))
        }
        for k in touched.sorted() {
            guard var s = slots[k], var o = s.open else { continue }
            out.append(Self.emit(&o, o.last == nil ? .began : .moved, x: s.x, y: s.y, time: time, line: line,
                                 axes: .multiTouch, device: device))
            s.open = o
            slots[k] = s
        }
        if !orphanUpdates.isEmpty || !orphanLifts.isEmpty {
            problems.append(ContactProblem(line: line, reason: Self.orphanReason(updates: orphanUpdates, lifts: orphanLifts)))
        }
        // Contact order; a contact that began and ended here keeps began before ended.
        let rank: (TouchPhase) -> Int = { $0 == .began ? 0 : ($0 == .ended ? 2 : 1) }
        return out.enumerated().sorted {
            ($0.element.contact, rank($0.element.phase), $0.offset) < ($1.element.contact, rank($1.element.phase), $1.offset)
        }.map(\.element)
    }

    /// Whether slot `k`'s tool touches at the end of the frame: not a hovering pen, and at
    /// distance 0 (a slot never given a distance is at 0).
    func touches(_ k: Int32, _ finalDistance: [Int32: Int32], _ penHovers: Bool) -> Bool {
        !penHovers && (finalDistance[k] ?? slots[k]?.distance ?? 0) <= 0
    }

    /// "this frame updates slot 0 and lifts slot 2, which have no contact (…); their data is dropped".
    static func orphanReason(updates: Set<Int32>, lifts: Set<Int32>) -> String {
        func slots(_ s: Set<Int32>) -> String {
            let sorted = s.sorted().map(String.init)
            return (sorted.count == 1 ? "slot " : "slots ") + sorted.joined(separator: ", ")
        }
        var parts: [String] = []
        if !updates.isEmpty { parts.append("updates " + slots(updates)) }
        if !lifts.isEmpty { parts.append("lifts " + slots(lifts)) }
        let one = updates.union(lifts).count == 1
        return "this frame " + parts.joined(separator: " and ") + (one ? ", which has no contact" : ", which have no contact")
            + " (no ABS_MT_TRACKING_ID ≥ 0 was read for \(one ? "it" : "them") since \(one ? "its" : "their") last lift); "
            + "\(one ? "its" : "their") data is dropped"
    }
}
