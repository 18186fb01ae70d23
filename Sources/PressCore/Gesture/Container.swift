// The scroll view a control sits in, as a few UIScrollView parameters (reference §2.1).

/// The container of a control: whether it is a scroll view, whether it holds touches back
/// (`delaysContentTouches`) and whether a scroll cancels a tracking control
/// (`canCancelContentTouches` with `touchesShouldCancel(in:)` true for a UIControl).
public struct Container: Hashable, Sendable {
    /// The short name (`none`, `scroll`, `table`, `scroll-immediate`), or nil for custom parameters.
    public var name: String?
    /// False for `none`: no scroll view, the control gets the touch at touch-down.
    public var isScrollView: Bool
    /// `UIScrollView.delaysContentTouches`.
    public var delaysContentTouches: Bool
    /// A scroll that starts while the control tracks sends it `touchCancel`.
    public var cancelsControlTouches: Bool
    /// How long a delaying scroll view holds a touch back, in seconds. Default 0.150 s: Apple
    /// documents the timer, not its value; 150 ms is the value in decompiled UIKit.
    public var touchDelay: Double
    /// Movement along a scrollable axis at which the pan begins, in points (≥ counts). Default
    /// 10 pt: decompiled `UIPanGestureRecognizer` default hysteresis.
    public var hysteresis: Double

    /// `UIScrollView`'s delay before it delivers a held touch: 0.150 s (decompiled UIKit).
    public static let defaultTouchDelay = 0.150
    /// `UIPanGestureRecognizer`'s default hysteresis: 10 pt (decompiled UIKit).
    public static let defaultHysteresis = 10.0

    public init(name: String? = nil, isScrollView: Bool = true, delaysContentTouches: Bool,
                cancelsControlTouches: Bool, touchDelay: Double = Container.defaultTouchDelay,
                hysteresis: Double = Container.defaultHysteresis) {
        self.name = name
        self.isScrollView = isScrollView
        self.delaysContentTouches = delaysContentTouches
        self.cancelsControlTouches = cancelsControlTouches
        self.touchDelay = touchDelay
        self.hysteresis = hysteresis
    }

    /// No scroll view.
    public static let none = Container(name: "none", isScrollView: false,
                                       delaysContentTouches: false, cancelsControlTouches: false)
    /// Plain `UIScrollView` / collection view defaults.
    public static let scroll = Container(name: "scroll", delaysContentTouches: true,
                                         cancelsControlTouches: false)
    /// Table views, and scroll views overriding `touchesShouldCancel(in:)`.
    public static let table = Container(name: "table", delaysContentTouches: true,
                                        cancelsControlTouches: true)
    /// `delaysContentTouches = false` and a scroll that cancels the control.
    public static let scrollImmediate = Container(name: "scroll-immediate", delaysContentTouches: false,
                                                  cancelsControlTouches: true)

    /// The four named containers.
    public static let named: [Container] = [.none, .scroll, .table, .scrollImmediate]

    /// The container with this short name, or nil.
    public init?(named name: String) {
        guard let c = Container.named.first(where: { $0.name == name }) else { return nil }
        self = c
    }
}
