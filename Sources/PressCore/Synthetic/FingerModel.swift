// A documented model of fingers on buttons: what a synthetic touch does between touch-down and
// lift. It is a caricature for testing and benchmarking pressdb, not a measurement of people; every
// number below is a named parameter, and docs/generator.md repeats them.
#if canImport(Glibc)
import Glibc
#endif

/// What a synthetic finger does on a button during one touch.
public enum FingerBehavior: String, CaseIterable, Hashable, Sendable {
    /// A still finger: touch-down, sub-point jitter, lift where it went down.
    case tap
    /// A sloppy tap: the finger slides a few points (`FingerModel.driftDistance`) and lifts,
    /// still on the button.
    case drift
    /// The finger drags off the button, beyond UIControl's retention margin, and lifts there.
    case dragOut = "drag_out"
    /// The finger drags off beyond the retention margin, comes back, and lifts on the button.
    case dragBack = "drag_back"
    /// A scroll flick starting on the button: at least 10 pt along the container's scroll axis,
    /// fast, lifting while moving. Only in scroll containers.
    case flick
    /// The system cancels the touch (a call, a system gesture): the last sample is `cancelled`.
    case systemCancel = "cancel"
}

/// How often each behaviour happens: probabilities for the behaviours other than `tap` (which
/// takes what is left), plus the share of flicks in a scroll container.
///
/// In a scroll container a touch is first a `flick` with probability `flickInScrollContainer`;
/// otherwise (and always outside scroll containers) it is drawn from `drift`, `dragOut`,
/// `dragBack`, `systemCancel`, and `tap` for the rest.
public struct BehaviorMix: Hashable, Sendable {
    public var drift: Double
    public var dragOut: Double
    public var dragBack: Double
    public var systemCancel: Double
    /// P(flick) for a touch in a scroll container (`scroll`, `table`, `scroll-immediate`).
    public var flickInScrollContainer: Double

    /// The defaults: drift 0.06, drag out 0.025, drag back 0.015, system cancel 0.005 (so taps 0.895),
    /// flicks 0.2 of the touches in scroll containers. Chosen by us to give every outcome of the
    /// press model (reference §2) a few hundred occurrences per 10,000 sessions, not measured.
    public static let standard = BehaviorMix(drift: 0.06, dragOut: 0.025, dragBack: 0.015,
                                             systemCancel: 0.005, flickInScrollContainer: 0.2)

    public init(drift: Double, dragOut: Double, dragBack: Double, systemCancel: Double,
                flickInScrollContainer: Double) {
        self.drift = drift; self.dragOut = dragOut; self.dragBack = dragBack
        self.systemCancel = systemCancel; self.flickInScrollContainer = flickInScrollContainer
    }

    /// P(tap) outside a flick: 1 − (drift + dragOut + dragBack + systemCancel).
    public var tap: Double { 1 - (drift + dragOut + dragBack + systemCancel) }

    /// The probability of `behavior` (for `flick`: within a scroll container; for the others:
    /// among the touches that are not flicks).
    public func probability(of behavior: FingerBehavior) -> Double {
        switch behavior {
        case .tap: return tap
        case .drift: return drift
        case .dragOut: return dragOut
        case .dragBack: return dragBack
        case .systemCancel: return systemCancel
        case .flick: return flickInScrollContainer
        }
    }

    /// This mix with `delta` added to `behavior`'s probability (for the non-flick behaviours the
    /// tap share absorbs it). Returns nil when a probability would leave [0, 1].
    public func adjusting(_ behavior: FingerBehavior, by delta: Double) -> BehaviorMix? {
        var m = self
        switch behavior {
        case .tap: return nil
        case .drift: m.drift += delta
        case .dragOut: m.dragOut += delta
        case .dragBack: m.dragBack += delta
        case .systemCancel: m.systemCancel += delta
        case .flick: m.flickInScrollContainer += delta
        }
        let all = [m.drift, m.dragOut, m.dragBack, m.systemCancel, m.flickInScrollContainer, m.tap]
        return all.allSatisfy({ $0 >= 0 && $0 <= 1 }) ? m : nil
    }

    /// This mix for a user with drag-off multiplier `m` (`UserTraits.dragOffMultiplier`): drag_out
    /// and drag_back times m, the tap share absorbing the change. When that would leave taps below 0,
    /// m is lowered to the largest value that leaves none (drift, cancel and flick unchanged).
    public func scalingDragOff(by m: Double) -> BehaviorMix {
        var mix = self
        let dragOff = dragOut + dragBack
        guard dragOff > 0 else { return mix }
        let factor = min(max(0, m), (1 - drift - systemCancel) / dragOff)
        mix.dragOut = dragOut * factor
        mix.dragBack = dragBack * factor
        return mix
    }

    /// Draws a behaviour; `scrollContainer` allows flicks.
    public func draw(scrollContainer: Bool, using rng: inout SplitMix64) -> FingerBehavior {
        if scrollContainer, rng.bernoulli(flickInScrollContainer) { return .flick }
        let weights = [tap, drift, dragOut, dragBack, systemCancel]
        return [FingerBehavior.tap, .drift, .dragOut, .dragBack, .systemCancel][rng.index(weights: weights)]
    }
}

/// One synthetic user's persistent finger traits (`pressdb generate --assign user`): how prone the
/// user is to dragging off a button, and how long the user presses. Drawn once per user from the
/// user's own random stream, so they hold for every session of the user, whatever the arm.
///
/// - `dragOffMultiplier` m multiplies the arm's drag_out and drag_back probabilities
///   (`BehaviorMix.scalingDragOff`): m = χ²_k/k, the mean of k squared standard normals, with
///   k = `FingerModel.userDragOffDegreesOfFreedom` (1): mean 1, variance 2/k. With k = 1 a quarter
///   of the users (|Z| < 0.32) drag off less than a tenth as often as the average and one in twenty
///   (Z² > 3.84) about four times as often or more. The user's drag-out probability 0.025·m has
///   variance 2·0.025², so the drag-out indicator's intra-user correlation is
///   2·0.025/0.975 = 0.051, and 20 presses of one user carry the information of about 10 presses
///   of different users (design effect 1 + 19·0.051 = 1.97; Kish, Survey Sampling, 1965).
/// - `durationFactor` f multiplies the median durations of the user's taps and sloppy taps:
///   f = e^(σ_u·Z), σ_u = `FingerModel.userDurationSigma` (0.25), so users' median taps range over
///   about 55–147 ms (f between e^(∓1.96·0.25)); the σ of ln(duration) within a user shrinks to
///   √(σ² − σ_u²), so over all users durations keep the model's log-normal (median 0.090 s,
///   σ(ln) 0.45 for taps). Short presses reach the control at the lift in scroll views (the 150 ms
///   touch delay) and decide what is seen before the lift, so latency depends on the user too.
///
/// Our own choices, like every number of the model: a caricature of "careful and sloppy users",
/// not a measurement.
public struct UserTraits: Hashable, Sendable {
    public var dragOffMultiplier: Double
    public var durationFactor: Double

    public init(dragOffMultiplier: Double, durationFactor: Double) {
        self.dragOffMultiplier = dragOffMultiplier; self.durationFactor = durationFactor
    }

    /// Draws a user's traits (k normals for the multiplier, then one for the duration factor).
    public static func draw(_ model: FingerModel, using rng: inout SplitMix64) -> UserTraits {
        let k = max(1, model.userDragOffDegreesOfFreedom)
        var squares = 0.0
        for _ in 0..<k { let z = rng.normal(); squares += z * z }
        return UserTraits(dragOffMultiplier: squares / Double(k), durationFactor: exp(model.userDurationSigma * rng.normal()))
    }
}

/// A touch's path before sampling: the finger's position as straight segments between waypoints
/// (time in seconds from touch-down, point), the lift time, and how the touch ends.
public struct FingerPath: Hashable, Sendable {
    /// (time from touch-down in s, position); the first is (0, touch-down point), times ascending.
    /// The finger rests at the last waypoint after it.
    public var waypoints: [(t: Double, point: Point)]
    /// When the finger lifts (or the system cancels), seconds after touch-down.
    public var duration: Double
    /// `ended` or `cancelled`.
    public var terminal: TouchPhase

    public init(waypoints: [(t: Double, point: Point)], duration: Double, terminal: TouchPhase) {
        self.waypoints = waypoints; self.duration = duration; self.terminal = terminal
    }

    /// The position at `t` seconds after touch-down, interpolated linearly between waypoints.
    public func position(at t: Double) -> Point {
        var previous = waypoints[0]
        if t <= previous.t { return previous.point }
        for w in waypoints.dropFirst() {
            if t <= w.t {
                let f = w.t > previous.t ? (t - previous.t) / (w.t - previous.t) : 1
                return Point(x: previous.point.x + (w.point.x - previous.point.x) * f,
                             y: previous.point.y + (w.point.y - previous.point.y) * f)
            }
            previous = w
        }
        return previous.point
    }

    /// Whether the finger is in motion at `t` (inside a segment whose ends differ).
    public func isMoving(at t: Double) -> Bool {
        var previous = waypoints[0]
        for w in waypoints.dropFirst() {
            if t > previous.t && t <= w.t { return w.point != previous.point }
            previous = w
        }
        return false
    }

    public static func == (a: FingerPath, b: FingerPath) -> Bool {
        a.duration == b.duration && a.terminal == b.terminal && a.waypoints.count == b.waypoints.count
            && zip(a.waypoints, b.waypoints).allSatisfy { $0.t == $1.t && $0.point == $1.point }
    }

    public func hash(into h: inout Hasher) {
        h.combine(duration); h.combine(terminal)
        for w in waypoints { h.combine(w.t); h.combine(w.point) }
    }
}

/// The finger model's parameters. Times in seconds, distances in points, speeds in points per
/// second. The defaults are our own round numbers, chosen to look like ordinary phone use; the
/// few that come from literature or UIKit say so.
public struct FingerModel: Hashable, Sendable {
    /// Median tap duration (touch-down to lift): 0.090 s. Tap durations on phones are typically
    /// around 100 ms; the log-normal shape follows the usual right-skewed duration data. With the
    /// other defaults it makes about 10 records per session at 60 Hz.
    public var tapMedianDuration = 0.090
    /// σ of ln(tap duration): 0.45, so 90 % of taps last about 43–190 ms (median · e^(±1.645·σ)).
    public var tapDurationSigma = 0.45
    /// Shortest touch the model produces: 0.020 s (two to three frames at 120 Hz).
    public var minimumDuration = 0.020
    /// Longest tap or cancelled hold: 1.5 s (longer draws are cut here).
    public var maximumHoldDuration = 1.5
    /// σ of the per-sample jitter on each axis: 0.2 pt, cut at ±`jitterLimit`.
    public var jitter = 0.2
    /// Largest jitter offset: 0.9 pt, so a still finger's jitter stays sub-point.
    public var jitterLimit = 0.9
    /// Probability that a sample of a resting finger repeats the previous position exactly
    /// (phase `stationary`): 0.3.
    public var stationaryProbability = 0.3

    /// How far a sloppy tap slides: uniform 2–12 pt (so some leave the long-press preset's
    /// 5 pt safe area and some reach the 10 pt scroll hysteresis).
    public var driftDistance: ClosedRange<Double> = 2...12
    /// Median duration of a sloppy tap: 0.15 s (σ of its logarithm: `driftDurationSigma`).
    public var driftMedianDuration = 0.15
    public var driftDurationSigma = 0.4

    /// How long a dragging finger rests before it moves: uniform 0.05–0.15 s.
    public var dragHold: ClosedRange<Double> = 0.05...0.15
    /// Dragging speed: uniform 200–800 pt/s.
    public var dragSpeed: ClosedRange<Double> = 200...800
    /// UIControl's retention margin on iPhone, 70 pt per side (reference §2.1: Texture's
    /// `ASControlNode` and community measurements). A drag out ends beyond the frame grown by it.
    public var retentionMargin = 70.0
    /// How far beyond the retention area a drag goes: uniform 10–60 pt.
    public var dragOvershoot: ClosedRange<Double> = 10...60
    /// How long the finger rests outside before lifting or coming back: uniform 0–0.15 s.
    public var dragOutsideHold: ClosedRange<Double> = 0...0.15
    /// Where a returning drag lifts: within this many points of the touch-down point, per axis.
    public var dragReturnSpread = 3.0
    /// Rest before lifting after coming back: uniform 0.03–0.15 s.
    public var dragReturnHold: ClosedRange<Double> = 0.03...0.15

    /// Share of flicks that start moving within the scroll view's touch delay: 0.6.
    public var flickEarlyProbability = 0.6
    /// When an early flick starts moving: uniform 0–0.15 s (0.150 s is `delaysContentTouches`'
    /// delay, reference §2.1).
    public var flickEarlyStart: ClosedRange<Double> = 0...0.15
    /// When a late flick starts moving: uniform 0.15–0.35 s.
    public var flickLateStart: ClosedRange<Double> = 0.15...0.35
    /// Flick speed along the axis: log-uniform 300–2500 pt/s.
    public var flickSpeed: ClosedRange<Double> = 300...2500
    /// How long the finger moves before lifting: uniform 0.05–0.15 s, and never fewer than
    /// `flickMinimumFrames` sample intervals.
    public var flickDuration: ClosedRange<Double> = 0.05...0.15
    /// 4: the last move sample comes at least max(0.05 s − i, 3i) into the motion (i the sample
    /// interval), at least 0.0375 s, so even the slowest flick (300 pt/s) shows ≥ 11.25 pt of
    /// travel — more than the 10 pt hysteresis plus the 0.9 pt jitter — in its move samples.
    public var flickMinimumFrames = 4.0
    /// Across-axis drift of a flick, as a fraction of its travel: uniform ±0.1.
    public var flickCrossRatio = 0.1

    /// Median time before a system cancel: 0.3 s (σ of its logarithm 0.5).
    public var cancelMedianDuration = 0.3
    public var cancelDurationSigma = 0.5

    /// The screen the frames lie on: 390 × 844 pt (iPhone 14 and 15 in portrait). Fingers stay on it.
    public var screen = Rect(x: 0, y: 0, width: 390, height: 844)

    /// k of a user's drag-off multiplier χ²_k/k (`UserTraits`): 1, so its variance is 2.
    public var userDragOffDegreesOfFreedom = 1
    /// σ of the logarithm of a user's duration factor (`UserTraits`): 0.25 (between users; the
    /// within-user σ of taps becomes √(0.45² − 0.25²) = 0.374, of sloppy taps √(0.4² − 0.25²) = 0.312).
    public var userDurationSigma = 0.25

    public init() {}

    /// The model for one user: tap and drift medians times `traits.durationFactor`, their σ(ln)
    /// reduced to the within-user part √(σ² − σ_u²) (0 if σ_u ≥ σ), so that over users the
    /// durations keep their log-normal distribution.
    public func personalised(_ traits: UserTraits) -> FingerModel {
        var m = self
        let between = userDurationSigma * userDurationSigma
        m.tapMedianDuration = tapMedianDuration * traits.durationFactor
        m.tapDurationSigma = max(0, tapDurationSigma * tapDurationSigma - between).squareRoot()
        m.driftMedianDuration = driftMedianDuration * traits.durationFactor
        m.driftDurationSigma = max(0, driftDurationSigma * driftDurationSigma - between).squareRoot()
        return m
    }

    /// A log-normal duration clamped to [`minimumDuration`, `maximumHoldDuration`].
    func holdDuration(median: Double, sigma: Double, _ rng: inout SplitMix64) -> Double {
        min(max(rng.logNormal(median: median, sigma: sigma), minimumDuration), maximumHoldDuration)
    }

    /// Keeps a point on the screen.
    func onScreen(_ p: Point) -> Point {
        Point(x: min(max(p.x, screen.x), screen.x + screen.width),
              y: min(max(p.y, screen.y), screen.y + screen.height))
    }

    /// The path of a touch with `behavior` that goes down at `start` on a control with `frame`,
    /// in a container scrolling along `axis` (nil: no scroll view). `sampleInterval` (s) keeps a
    /// flick long enough to show its motion in the samples.
    public func path(_ behavior: FingerBehavior, start: Point, frame: Rect, axis: ScrollAxis?,
                     sampleInterval: Double, using rng: inout SplitMix64) -> FingerPath {
        switch behavior {
        case .tap:
            let d = holdDuration(median: tapMedianDuration, sigma: tapDurationSigma, &rng)
            return FingerPath(waypoints: [(0, start)], duration: d, terminal: .ended)
        case .systemCancel:
            let d = holdDuration(median: cancelMedianDuration, sigma: cancelDurationSigma, &rng)
            return FingerPath(waypoints: [(0, start)], duration: d, terminal: .cancelled)
        case .drift:
            let d = holdDuration(median: driftMedianDuration, sigma: driftDurationSigma, &rng)
            let distance = rng.uniform(driftDistance)
            let angle = rng.uniform(0...(2 * Double.pi))
            let end = onScreen(Point(x: start.x + distance * cos(angle), y: start.y + distance * sin(angle)))
            return FingerPath(waypoints: [(0, start), (d, end)], duration: d, terminal: .ended)
        case .dragOut, .dragBack:
            let hold = rng.uniform(dragHold)
            let outside = exitPoint(from: start, frame: frame, using: &rng)
            let speed = rng.uniform(dragSpeed)
            let out = hold + distance(start, outside) / speed
            let rest = out + rng.uniform(dragOutsideHold)
            if behavior == .dragOut {
                return FingerPath(waypoints: [(0, start), (hold, start), (out, outside)],
                                  duration: max(rest, minimumDuration), terminal: .ended)
            }
            let back = Point(x: start.x + rng.uniform(-dragReturnSpread...dragReturnSpread),
                             y: start.y + rng.uniform(-dragReturnSpread...dragReturnSpread))
            let returned = rest + distance(outside, back) / speed
            let lift = returned + rng.uniform(dragReturnHold)
            return FingerPath(waypoints: [(0, start), (hold, start), (out, outside), (rest, outside),
                                          (returned, back)],
                              duration: lift, terminal: .ended)
        case .flick:
            let begin = rng.bernoulli(flickEarlyProbability) ? rng.uniform(flickEarlyStart)
                                                             : rng.uniform(flickLateStart)
            let speed = rng.logUniform(flickSpeed)
            let moving = max(rng.uniform(flickDuration), flickMinimumFrames * sampleInterval)
            let travel = speed * moving
            let cross = travel * rng.uniform(-flickCrossRatio...flickCrossRatio)
            let vertical: Bool
            switch axis ?? .vertical {
            case .vertical: vertical = true
            case .horizontal: vertical = false
            case .both: vertical = rng.bernoulli(0.5)
            }
            // Flick towards the side with room when the drawn side has too little.
            var sign: Double = rng.bernoulli(0.5) ? 1 : -1
            let lower = vertical ? start.y - screen.y : start.x - screen.x
            let upper = vertical ? screen.y + screen.height - start.y : screen.x + screen.width - start.x
            if (sign > 0 ? upper : lower) < travel { sign = upper >= lower ? 1 : -1 }
            let end = onScreen(vertical ? Point(x: start.x + cross, y: start.y + sign * travel)
                                        : Point(x: start.x + sign * travel, y: start.y + cross))
            return FingerPath(waypoints: [(0, start), (begin, start), (begin + moving, end)],
                              duration: begin + moving, terminal: .ended)
        }
    }

    /// A point beyond the control's retention area (the frame grown by `retentionMargin`), by
    /// `dragOvershoot`, on a side of the frame that has room for it on the screen, with some
    /// sideways wander.
    func exitPoint(from start: Point, frame: Rect, using rng: inout SplitMix64) -> Point {
        let overshoot = rng.uniform(dragOvershoot)
        // (point, whether it lies above or below the frame)
        let candidates: [(Point, Bool)] = [
            (Point(x: start.x, y: frame.y - retentionMargin - overshoot), true),
            (Point(x: start.x, y: frame.y + frame.height + retentionMargin + overshoot), true),
            (Point(x: frame.x - retentionMargin - overshoot, y: start.y), false),
            (Point(x: frame.x + frame.width + retentionMargin + overshoot, y: start.y), false),
        ]
        var sides = candidates.filter { c in
            c.0.x >= screen.x && c.0.x <= screen.x + screen.width
                && c.0.y >= screen.y && c.0.y <= screen.y + screen.height
        }
        // A frame too close to both ends of the screen: leave upwards or downwards, clamped.
        if sides.isEmpty { sides = [frame.midY > screen.midY ? candidates[0] : candidates[1]] }
        var (p, vertical) = sides[rng.below(sides.count)]
        // Wander along the side: stays outside the retention area, clamped to the screen.
        let wander = rng.uniform(-30...30)
        if vertical { p.x += wander } else { p.y += wander }
        return onScreen(p)
    }

    func distance(_ a: Point, _ b: Point) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }
}
