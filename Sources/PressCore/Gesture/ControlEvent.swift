// UIControl's touch events (`UIControl.Event`), as the control model emits them.

/// One of `UIControl.Event`'s touch events. Raw values are UIKit's names (`touchDown`, …), which
/// configuration JSON uses too. Declaration order is `UIControl.Event`'s bit order, which is also
/// the order canonical JSON lists them in.
public enum ControlEvent: String, CaseIterable, Hashable, Sendable, Comparable {
    /// The finger touched down on the control (or the held touch was delivered to it).
    case touchDown
    /// A move with the finger inside the retention area, which it was already in.
    case touchDragInside
    /// A move with the finger outside the retention area, which it was already outside of.
    case touchDragOutside
    /// A move that brings the finger back inside the retention area.
    case touchDragEnter
    /// A move that takes the finger out of the retention area.
    case touchDragExit
    /// The finger lifted inside the retention area: the control's primary action.
    case touchUpInside
    /// The finger lifted outside the retention area.
    case touchUpOutside
    /// The system (a `cancelled` touch) or a cancelling scroll view took the touch away.
    case touchCancel

    /// The events that end tracking: `touchUpInside`, `touchUpOutside`, `touchCancel`.
    public var isTerminal: Bool {
        self == .touchUpInside || self == .touchUpOutside || self == .touchCancel
    }

    /// Declaration (bit) order.
    public static func < (a: ControlEvent, b: ControlEvent) -> Bool {
        a.order < b.order
    }

    private var order: Int { ControlEvent.allCases.firstIndex(of: self) ?? 0 }

    /// The event for a name: UIKit's (`touchDragEnter`) or its snake_case spelling
    /// (`touch_drag_enter`); nil for anything else.
    public init?(name: String) {
        if let e = ControlEvent(rawValue: name) { self = e; return }
        guard let e = ControlEvent.allCases.first(where: { $0.snakeCaseName == name }) else { return nil }
        self = e
    }

    /// `touch_drag_enter` for `touchDragEnter`.
    public var snakeCaseName: String {
        var out = ""
        for ch in rawValue {
            if ch.isUppercase { out.append("_"); out.append(contentsOf: ch.lowercased()) } else { out.append(ch) }
        }
        return out
    }
}

/// A set of control events as one bit each, in declaration order (`UIControl.Event`'s bits):
/// membership without hashing, for the classifier's loop over a session's events.
struct ControlEventMask: Hashable, Sendable {
    private var bits: UInt8 = 0

    /// No event.
    init() {}

    init(_ events: Set<ControlEvent>) {
        for e in events { bits |= ControlEventMask.bit(e) }
    }

    func contains(_ e: ControlEvent) -> Bool { bits & ControlEventMask.bit(e) != 0 }

    private static func bit(_ e: ControlEvent) -> UInt8 {
        switch e {
        case .touchDown: return 1 << 0
        case .touchDragInside: return 1 << 1
        case .touchDragOutside: return 1 << 2
        case .touchDragEnter: return 1 << 3
        case .touchDragExit: return 1 << 4
        case .touchUpInside: return 1 << 5
        case .touchUpOutside: return 1 << 6
        case .touchCancel: return 1 << 7
        }
    }
}

/// A control event at a time in seconds since the touch-down sample.
public struct TimedControlEvent: Hashable, Sendable {
    public var time: Double
    public var event: ControlEvent
    public init(time: Double, event: ControlEvent) { self.time = time; self.event = event }
}
