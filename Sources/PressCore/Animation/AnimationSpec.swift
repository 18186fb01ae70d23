// What a press configuration asks the animation system to do. This file is the data only; the
// math (springs, curves, timeline) lives beside it in Sources/PressCore/Animation/.

/// A `CAMediaTimingFunction`: a cubic Bézier from (0, 0) to (1, 1) with two control points.
/// Named curves use Core Animation's control points (reference §3).
public enum TimingCurve: Hashable, Sendable {
    /// (0, 0, 1, 1)
    case linear
    /// (0.42, 0, 1, 1)
    case easeIn
    /// (0, 0, 0.58, 1)
    case easeOut
    /// (0.42, 0, 0.58, 1); `UIView.animate` without a curve option uses it.
    case easeInEaseOut
    /// (0.25, 0.1, 0.25, 1), `kCAMediaTimingFunctionDefault`.
    case `default`
    /// Arbitrary control points (x1, y1, x2, y2); x1 and x2 must lie in [0, 1].
    case cubicBezier(x1: Double, y1: Double, x2: Double, y2: Double)
}

/// `fillMode` of a Core Animation animation, as far as pressdb needs it.
public enum FillMode: String, Hashable, Sendable {
    /// `removed` (the default): outside its active time the animation shows nothing.
    case removed
    /// `forwards`: after its end the animation keeps showing its last value.
    case forwards
}

/// How a hand-added Core Animation animation (`layer.add(_:forKey:)`) is set up.
public struct LayerAnimationOptions: Hashable, Sendable {
    /// The key it is added for; adding another animation for the same key replaces it.
    public var key: String
    /// `fromValue`, used as given; `nil` starts from the value on screen.
    public var fromValue: Double?
    public var fillMode: FillMode
    public var isRemovedOnCompletion: Bool
    public init(key: String, fromValue: Double? = nil, fillMode: FillMode = .removed,
                isRemovedOnCompletion: Bool = true) {
        self.key = key; self.fromValue = fromValue; self.fillMode = fillMode
        self.isRemovedOnCompletion = isRemovedOnCompletion
    }
}

/// One animation of the button's scale, as a configuration specifies it. Durations in seconds;
/// spring velocities in units of the whole distance per second.
public enum AnimationSpec: Hashable, Sendable {
    /// `UIView.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:)`:
    /// additive, mapped to a spring by UIKit's Newton solve, linear timing.
    case uiViewSpring(duration: Double, dampingRatio: Double, initialSpringVelocity: Double)
    /// `UIView.animate(withDuration:)` with a timing curve (`.easeInEaseOut` without an option):
    /// additive.
    case uiViewCurve(duration: Double, curve: TimingCurve)
    /// A `CASpringAnimation` added by hand: not additive, cut at `duration`.
    case caSpring(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double,
                  duration: Double, options: LayerAnimationOptions)
    /// A `CABasicAnimation` added by hand: not additive.
    case caBasic(duration: Double, curve: TimingCurve, options: LayerAnimationOptions)
    /// SwiftUI's `.spring(response:dampingFraction:)` (`Spring(response:dampingRatio:)`): mass 1,
    /// k = (2π / response)², c = 4π · dampingFraction / response, starting at rest. Additive like
    /// a UIView animation, which for springs of one shape is SwiftUI's retargeting "preserving
    /// velocity" exactly (superposition); it ends at the spring's settling duration.
    case swiftUISpring(response: Double, dampingFraction: Double)
}

/// A configuration's press feedback: the animation run when the button is pressed, the one run
/// when it is released, the value the press animates to (0.95 shrinks by 5 %, 1.3 expands), and
/// what that value is on screen (`feedback`: the scale, the content's opacity, or a colour).
/// The rest value is 1.
public struct PressAnimation: Hashable, Sendable {
    public var press: AnimationSpec
    public var release: AnimationSpec
    /// The press animation's target value, e.g. 0.95: a scale, an opacity, or for `color` the
    /// weight of the rest colour (0: fully the pressed colour).
    public var pressedScale: Double
    /// What the value moves: `scale` unless said otherwise.
    public var feedback: PressFeedback
    public init(press: AnimationSpec, release: AnimationSpec, pressedScale: Double,
                feedback: PressFeedback = .scale) {
        self.press = press; self.release = release; self.pressedScale = pressedScale
        self.feedback = feedback
    }
}

/// What the gesture model tells the animation: start the press animation, or the release one.
public enum ScaleEvent: String, Hashable, Sendable {
    case press, release
}

/// A press or release at a time in seconds (same clock as the touch samples).
public struct TimedScaleEvent: Hashable, Sendable {
    public var time: Double
    public var event: ScaleEvent
    public init(time: Double, event: ScaleEvent) { self.time = time; self.event = event }
}
