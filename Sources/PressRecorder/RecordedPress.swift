// What the recorder is given: touches as UIKit delivers them and the pressed control as the app
// describes it, in plain values, so everything but the thin UIKit layer is tested on Linux.
import PressCore

/// One delivery of one finger (`UITouch`): which finger, its phase, where it is in the window and
/// when, and the samples coalesced into this delivery (`UIEvent.coalescedTouches(for:)`).
public struct RecordedTouch: Hashable, Sendable {
    /// The finger: stable from its `began` to its `ended`/`cancelled` (UIKit reuses one `UITouch`
    /// object per finger, so its `ObjectIdentifier`'s hash does).
    public var id: Int
    public var phase: TouchPhase
    /// `UITouch.location(in: nil)`: window coordinates, points.
    public var location: Point
    /// `UITouch.timestamp`: seconds on the system-uptime clock.
    public var timestamp: Double
    /// The coalesced samples of this delivery, oldest first (the delivered touch may be the last
    /// of them: samples not before the previous one written are skipped, so it is not written twice).
    public var coalesced: [CoalescedSample]

    public init(id: Int, phase: TouchPhase, location: Point, timestamp: Double, coalesced: [CoalescedSample] = []) {
        self.id = id; self.phase = phase; self.location = location; self.timestamp = timestamp; self.coalesced = coalesced
    }
}

/// A sample coalesced into a delivery: a location in window points and its time (uptime seconds).
public struct CoalescedSample: Hashable, Sendable {
    public var location: Point
    public var timestamp: Double
    public init(location: Point, timestamp: Double) { self.location = location; self.timestamp = timestamp }
}

/// The scroll view around a control, as `UIScrollView` gives it.
public enum ContainerKind: Hashable, Sendable {
    /// No scroll view between the control and the window.
    case none
    /// The nearest enclosing `UIScrollView` (a table or collection view too).
    case scrollView(ScrollViewParameters)
}

/// A scroll view's parameters that decide what happens to a press in it (docs/press-model.md).
public struct ScrollViewParameters: Hashable, Sendable {
    /// `UIScrollView.delaysContentTouches`.
    public var delaysContentTouches: Bool
    /// Whether a scroll that starts cancels the control's tracking: `canCancelContentTouches`
    /// and `touchesShouldCancel(in: control)` both true (UIScrollView's own answer for a
    /// `UIControl` is false; a table view's is true).
    public var cancelsControlTouches: Bool
    /// The axis it scrolls along, nil when not known (pressdb's replay then takes `vertical`).
    public var axis: ScrollAxis?

    public init(delaysContentTouches: Bool, cancelsControlTouches: Bool, axis: ScrollAxis? = nil) {
        self.delaysContentTouches = delaysContentTouches; self.cancelsControlTouches = cancelsControlTouches
        self.axis = axis
    }

    /// pressdb's container: the named one with these two parameters (`scroll`, `table`,
    /// `scroll-immediate`), else the parameters themselves.
    public var container: Container {
        Container.named.first { $0.isScrollView && $0.delaysContentTouches == delaysContentTouches
            && $0.cancelsControlTouches == cancelsControlTouches }
            ?? Container(name: nil, delaysContentTouches: delaysContentTouches, cancelsControlTouches: cancelsControlTouches)
    }
}

/// The pressed control as the app describes it: every field pressdb stores about a session,
/// and nothing else (docs/recording.md, "Privacy").
public struct PressedControl: Hashable, Sendable {
    /// The control's frame in window coordinates, points (`convert(bounds, to: nil)`).
    public var frame: Rect
    /// The press configuration the control runs (`spring-press`, or one of the app's own).
    public var configuration: String?
    /// The A/B arm.
    public var variant: String?
    /// Which button: an identifier of the app's choosing (`accessibilityIdentifier`).
    public var controlID: String?
    /// Which screen the control is on.
    public var screen: String?
    public var container: ContainerKind
    /// The display profile the device runs (pressdb's `display` attribute: `iphone-60hz`,
    /// `iphone-promotion`, …).
    public var displayProfile: String?
    /// A pseudonymous user id (never a name, an e-mail or a device identifier): reports group by
    /// it and the recorder samples by its hash.
    public var userID: String?

    public init(frame: Rect, configuration: String? = nil, variant: String? = nil, controlID: String? = nil,
                screen: String? = nil, container: ContainerKind = .none, displayProfile: String? = nil,
                userID: String? = nil) {
        self.frame = frame; self.configuration = configuration; self.variant = variant; self.controlID = controlID
        self.screen = screen; self.container = container; self.displayProfile = displayProfile; self.userID = userID
    }
}
