// A press configuration: gesture model and parameters, press feedback, and action rule
// (reference §1). Data only; the gesture rules live in Gesture/, the animation math in Animation/.

/// The `control` gesture model's parameters: UIControl target-action.
public struct ControlGesture: Hashable, Sendable {
    /// Points added on each side of the frame for the inside test (reference §2.1 rule 4).
    public var retentionMargin: Double
    /// Control events whose target starts the press animation, e.g. `[.touchDown, .touchDragEnter]`.
    public var pressEvents: Set<ControlEvent>
    /// Control events whose target starts the release animation.
    public var releaseEvents: Set<ControlEvent>
    /// The feedback follows a state that is rendered once per event (UIKit's `isHighlighted`
    /// driving a button's look, SwiftUI's `isPressed`): a press and a release at the same instant
    /// — a quick tap a scroll view held back and delivered at lift — show nothing. False for
    /// target-action animations, which start at each event (docs/press-model.md).
    public var coalescesSimultaneousUpdates: Bool

    /// UIControl's retention margin on iPhone: 70 pt on each side. Not documented by Apple;
    /// Texture's `ASControlNode` comment and community measurements (reference §2.1).
    public static let iPhoneRetentionMargin = 70.0
    /// UIControl's retention margin on iPad: 25 pt on each side (same sources as the iPhone's).
    public static let iPadRetentionMargin = 25.0
    /// Press on `touchDown` and `touchDragEnter`: the highlight pattern of `spring-press`.
    public static let defaultPressEvents: Set<ControlEvent> = [.touchDown, .touchDragEnter]
    /// Release on `touchDragExit`, `touchCancel`, `touchUpInside`, `touchUpOutside`
    /// (`spring-press`).
    public static let defaultReleaseEvents: Set<ControlEvent> =
        [.touchDragExit, .touchCancel, .touchUpInside, .touchUpOutside]

    public init(retentionMargin: Double = ControlGesture.iPhoneRetentionMargin,
                pressEvents: Set<ControlEvent> = ControlGesture.defaultPressEvents,
                releaseEvents: Set<ControlEvent> = ControlGesture.defaultReleaseEvents,
                coalescesSimultaneousUpdates: Bool = false) {
        self.retentionMargin = retentionMargin
        self.pressEvents = pressEvents
        self.releaseEvents = releaseEvents
        self.coalescesSimultaneousUpdates = coalescesSimultaneousUpdates
    }
}

/// The `long-press` gesture model's parameters: `UILongPressGestureRecognizer` recognizing
/// simultaneously with the scroll view's pan, plus the article's safe-area handler.
public struct LongPressGesture: Hashable, Sendable {
    /// `minimumPressDuration`, in seconds: the press begins this long after touch-down.
    public var minimumPressDuration: Double
    /// `allowableMovement`, in points: moving farther (Euclidean, strictly) before the press
    /// begins fails the recognizer. It does not apply once the press has begun.
    public var allowableMovement: Double
    /// Half-size of the safe-area box around where the press began, in points: |dx| or |dy|
    /// strictly greater ends the press as cancelled (seeds/longpress-safe-area.txt,
    /// `safeArea = 5.0`). Nil: no such handler.
    public var safeArea: Double?

    /// UIKit's default `minimumPressDuration`: 0.5 s (Apple documentation).
    public static let defaultMinimumPressDuration = 0.5
    /// UIKit's default `allowableMovement`: 10 pt (Apple documentation).
    public static let defaultAllowableMovement = 10.0
    /// The article's safe area: 5 pt (seeds/longpress-safe-area.txt).
    public static let articleSafeArea = 5.0

    public init(minimumPressDuration: Double = LongPressGesture.defaultMinimumPressDuration,
                allowableMovement: Double = LongPressGesture.defaultAllowableMovement,
                safeArea: Double? = LongPressGesture.articleSafeArea) {
        self.minimumPressDuration = minimumPressDuration
        self.allowableMovement = allowableMovement
        self.safeArea = safeArea
    }
}

/// Which gesture model turns a touch into press, release and action, with its parameters.
public enum GestureModel: Hashable, Sendable {
    case control(ControlGesture)
    case longPress(LongPressGesture)

    /// `control` or `long-press`, as configuration JSON names it.
    public var name: String {
        switch self {
        case .control: return "control"
        case .longPress: return "long-press"
        }
    }
}

/// When a configuration's action (the button's job) runs.
public enum ActionRule: String, Hashable, Sendable, CaseIterable {
    /// On `touchUpInside` (control) or on `.ended` not cancelled by the safe area (long-press).
    case upInside = "up_inside"
    /// On any release. Control: the touch's terminal event, `touchUpInside`, `touchUpOutside`
    /// or `touchCancel` (a table's scroll cancel included) — the expand pattern's `released()`
    /// target. Long-press: any `.ended`, the safe-area exit included (never after `.cancelled`,
    /// which the article's handler does not handle). A touch the control never received
    /// (held back, then scrolled or cancelled) or a long press that never began has no release.
    case anyRelease = "any_release"
}

/// A press configuration (reference §1): a name, the gesture model with its parameters, the
/// press feedback (`PressAnimation`), and when the action runs.
public struct PressConfiguration: Hashable, Sendable {
    /// The configuration's name, e.g. `spring-press`.
    public var name: String { didSet { updateVersion() } }
    public var gesture: GestureModel { didSet { updateVersion(); updateControlEventMasks() } }
    /// Press and release animations and the pressed scale.
    public var animation: PressAnimation { didSet { updateVersion(); resolvedAnimation = ResolvedPressAnimation(animation) } }
    public var actionRule: ActionRule { didSet { updateVersion() } }
    /// Seconds from the event that triggers the action to the action (e.g. 0.3 for the expand
    /// pattern's `DispatchQueue.main.asyncAfter(deadline: .now() + 0.3)`).
    public var actionDelay: Double { didSet { updateVersion() } }

    /// The content version: `FNV1a64.hex` of `definitionJSON`, 16 hex digits. Any change to the
    /// definition, the name included, gives a new version. Computed when the configuration is
    /// made and again whenever a field changes (hashing the canonical JSON costs far more than
    /// replaying a session, so it is never done per session).
    public private(set) var version: String = ""
    /// `animation` resolved (springs solved, curves set up), once when the configuration is made
    /// and again whenever `animation` changes, so that replaying a session does not solve UIKit's
    /// spring again (`Replay.trace(_:frame:…)` uses it).
    public private(set) var resolvedAnimation: ResolvedPressAnimation
    /// `pressEvents` and `releaseEvents` as bits, set with `gesture`, so that classifying a
    /// session does not walk the sets (a `Set<ControlEvent>` lookup hashes a String).
    private(set) var pressEventMask = ControlEventMask(), releaseEventMask = ControlEventMask()

    public init(name: String, gesture: GestureModel, animation: PressAnimation,
                actionRule: ActionRule = .upInside, actionDelay: Double = 0) {
        self.name = name; self.gesture = gesture; self.animation = animation
        self.actionRule = actionRule; self.actionDelay = actionDelay
        resolvedAnimation = ResolvedPressAnimation(animation)
        updateVersion()
        updateControlEventMasks()
    }

    private mutating func updateVersion() { version = FNV1a64.hex(definitionJSON) }

    private mutating func updateControlEventMasks() {
        pressEventMask = ControlEventMask(pressEvents)
        releaseEventMask = ControlEventMask(releaseEvents)
    }

    /// The control events that start the press animation; empty for a long press.
    public var pressEvents: Set<ControlEvent> {
        if case .control(let c) = gesture { return c.pressEvents }
        return []
    }

    /// The control events that start the release animation; empty for a long press.
    public var releaseEvents: Set<ControlEvent> {
        if case .control(let c) = gesture { return c.releaseEvents }
        return []
    }
}
