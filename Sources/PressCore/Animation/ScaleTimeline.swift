// The button's scale over time: the press and release animations a configuration runs, started at
// the times the gesture model gives, composed as UIKit and Core Animation compose them
// (reference §3).

/// The scale on screen at one time, for charts and frame sampling.
public struct ScaleSample: Hashable, Sendable {
    /// Seconds, on the clock of the events.
    public var t: Double
    /// The displayed scale (1 at rest).
    public var scale: Double
    public init(t: Double, scale: Double) { self.t = t; self.scale = scale }
}

/// What is on screen for one property, the button's scale, given a configuration's animations and
/// the press/release events.
///
/// Composition (reference §3):
/// - UIView animations (`uiViewSpring`, `uiViewCurve`) are additive (iOS 8 and later): the model
///   value jumps to the target and an additive animation runs from (old model − new model) to 0
///   on top, so the displayed value stays continuous. A UIView spring is Core Animation's spring
///   with UIKit's parameters, linear timing, cut at its duration.
/// - Hand-added Core Animation animations (`caSpring`, `caBasic`) are not additive and do not
///   change the model value: the most recently added live animation wins; adding one for a key
///   removes the animation already there for that key; `fromValue` is used as given (nil: the
///   value on screen when it is added); after its duration an animation with `fillMode = forwards`
///   and `isRemovedOnCompletion = false` holds its last value (a spring its value at the cut),
///   any other is gone. Additive animations added after the winning one add on top of it.
/// - An animation lives on [start, start + duration). Events at the same time apply in the order
///   given; a time equal to an event's (within `simultaneityTolerance`) shows the state after it.
///
/// ```swift
/// let tl = try ScaleTimeline(animation: PressConfiguration.springPress.animation,
///                            events: [.init(time: 0, event: .press), .init(time: 0.1, event: .release)])
/// tl.scale(at: 0.05)
/// ```
public struct ScaleTimeline: Sendable {
    /// The scale at rest, and the target of a release: 1.
    public static let restScale = 1.0
    /// Two times closer than this are the same instant: 1e-9 s (reference §2, conventions).
    public static let simultaneityTolerance = 1e-9

    /// The configuration's animations.
    public var animation: PressAnimation { resolved.animation }
    /// The same, resolved: kept by reference, so building and copying a timeline copies no
    /// animation specification.
    let resolved: ResolvedPressAnimation
    /// The events, sorted by time (stable: simultaneous events keep their order).
    public let events: [TimedScaleEvent]

    /// One animation on the layer, resolved when it was added. Plain values only (its key is in
    /// `keys`), so the evaluation loops copy no reference.
    struct LayerAnimation: Sendable {
        enum Shape: Hashable, Sendable {
            /// Real seconds, cut at the duration.
            case spring(Spring)
            /// Fraction of the duration through the timing function.
            case curve(UnitBezier)
        }
        var start: Double
        var duration: Double
        var from: Double
        var to: Double
        var shape: Shape
        var isAdditive: Bool
        /// fillMode forwards and not removed on completion.
        var holdsAfterEnd: Bool
        /// `layer.add(_:forKey:)`'s key, as a small number (`ResolvedPressAnimation.Step.key`);
        /// nil for UIView's additive animations (unique keys).
        var key: Int8?
        /// When a later animation for the same key replaced it; +∞ if never.
        var removedAt: Double = .infinity
        /// `value(atLocal: duration)`, what a holding animation shows after its end: computed once,
        /// when it is added (the same call on the same value, so the same bits every time).
        var heldValue: Double = 0

        init(start: Double, duration: Double, from: Double, to: Double, shape: Shape, isAdditive: Bool,
             holdsAfterEnd: Bool, key: Int8?) {
            self.start = start; self.duration = duration; self.from = from; self.to = to; self.shape = shape
            self.isAdditive = isAdditive; self.holdsAfterEnd = holdsAfterEnd; self.key = key
            if holdsAfterEnd { heldValue = value(atLocal: duration) }
        }

        var end: Double { start + duration }

        /// The animation's value `local` seconds after its start, clamped to [0, duration].
        @inline(__always)
        func value(atLocal local: Double) -> Double {
            let tau = min(max(local, 0), duration)
            let p: Double
            switch shape {
            case .spring(let s): p = s.progress(at: tau)
            case .curve(let b): p = b.value(at: tau / duration)
            }
            return from + (to - from) * p
        }

        /// Bounds (lower, upper) of `value(atLocal: u)` for every u ≥ `local` (exact arithmetic):
        /// a spring stays within `displacementBound` of its target, a curve within its
        /// `valueRange` mapped onto [from, to]. A linear curve (`UnitBezier.isIdentity`) lies
        /// between its value at `local` and its end, as computed too: every step of
        /// `value(atLocal:)` (the clamps, the division by the duration, multiplying by to − from
        /// and adding from) is monotonic in floating point, so its values for u ≥ local are
        /// those at the two ends or between them.
        @inline(__always)
        func valueBounds(fromLocal local: Double) -> (lower: Double, upper: Double) {
            switch shape {
            case .spring(let s):
                let r = abs(from - to) * s.displacementBound(from: max(local, 0))
                return (to - r, to + r)
            case .curve(let b) where b.isIdentity:
                let now = value(atLocal: local), end = value(atLocal: duration)
                return (min(now, end), max(now, end))
            case .curve(let b):
                let y = b.valueRange
                let a = from + (to - from) * y.lowerBound, c = from + (to - from) * y.upperBound
                return (min(a, c), max(a, c))
            }
        }
    }

    /// A step of the model value (`layer.transform` as UIKit sets it), in time order.
    struct ModelChange: Sendable {
        var time: Double
        var value: Double
    }

    /// In the order added, which is time order (the events are sorted).
    private(set) var layerAnimations: [LayerAnimation] = []
    private(set) var modelChanges: [ModelChange] = []

    /// Resolves the animations `events` start.
    /// - Parameters:
    ///   - animation: the configuration's press and release animations and pressed scale.
    ///   - events: press and release times in seconds, any order (sorted stably by time).
    /// - Throws: `AnimationParameterError` when an animation has a negative or non-finite duration,
    ///   a Core Animation animation a zero duration, a spring impossible parameters, or a curve
    ///   control points with x outside [0, 1]. (A UIView animation of duration 0 is an immediate
    ///   change, as in UIKit.)
    public init(animation: PressAnimation, events: [TimedScaleEvent]) throws(AnimationParameterError) {
        try self.init(resolved: ResolvedPressAnimation(animation), events: events)
    }

    /// The same timeline from animations resolved beforehand (`ResolvedPressAnimation`): many
    /// timelines of one configuration then share its solved springs.
    /// - Throws: as `init(animation:events:)`, when an event uses an animation whose parameters
    ///   are invalid.
    public init(resolved: ResolvedPressAnimation, events: [TimedScaleEvent]) throws(AnimationParameterError) {
        self.resolved = resolved
        let pressedScale = resolved.animation.pressedScale
        // The gesture models give their events in time order already; a stable sort would keep them.
        var sorted = events
        if zip(events, events.dropFirst()).contains(where: { $0.time > $1.time }) {
            sorted = events.enumerated().sorted { a, b in
                a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
            }.map(\.element)
        }
        self.events = sorted
        try AnimationParameterError.check("pressedScale", pressedScale, true, "finite")
        layerAnimations.reserveCapacity(sorted.count)
        for e in sorted {
            try AnimationParameterError.check("time", e.time, true, "finite")
            switch e.event {
            case .press:
                guard let step = resolved.pressStep else { throw resolved.pressError! }
                add(step, at: e.time, target: pressedScale, eventCount: sorted.count)
            case .release:
                guard let step = resolved.releaseStep else { throw resolved.releaseError! }
                add(step, at: e.time, target: ScaleTimeline.restScale, eventCount: sorted.count)
            }
        }
    }

    /// An animation's shape: the spring solved or the timing curve set up, after its duration is
    /// checked.
    static func shape(_ spec: AnimationSpec) throws(AnimationParameterError) -> LayerAnimation.Shape {
        switch spec {
        case let .uiViewSpring(duration, dampingRatio, velocity):
            try AnimationParameterError.check("duration", duration, duration >= 0, "zero or positive")
            return .spring(try Spring(withDuration: duration, usingSpringWithDamping: dampingRatio,
                                      initialSpringVelocity: velocity))
        case let .uiViewCurve(duration, curve):
            try AnimationParameterError.check("duration", duration, duration >= 0, "zero or positive")
            return .curve(try curve.unitBezier())
        case let .caSpring(mass, stiffness, damping, initialVelocity, duration, _):
            try AnimationParameterError.check("duration", duration, duration > 0, "positive")
            return .spring(try Spring(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity))
        case let .caBasic(duration, curve, _):
            try AnimationParameterError.check("duration", duration, duration > 0, "positive")
            return .curve(try curve.unitBezier())
        case let .swiftUISpring(response, dampingFraction):
            return .spring(try Spring(response: response, dampingRatio: dampingFraction, allowsOverdamping: true))
        }
    }

    /// Starts the animation of one resolved step at `t` (a step whose animation is invalid
    /// throws its error when an event uses it, in `init`). `eventCount`: the events in all, at
    /// most one model change each.
    private mutating func add(_ s: ResolvedPressAnimation.Step, at t: Double, target: Double, eventCount: Int) {
        if let key = s.key {
            addLayer(s.shape, duration: s.duration, at: t, target: target, key: key, fromValue: s.fromValue,
                     holds: s.holdsAfterEnd)
        } else {
            addAdditive(s.shape, duration: s.duration, at: t, target: target, eventCount: eventCount)
        }
    }

    /// UIView: the model jumps to `target`; an additive animation runs (old − new) → 0.
    private mutating func addAdditive(_ shape: LayerAnimation.Shape, duration: Double, at t: Double, target: Double,
                                      eventCount: Int) {
        // One allocation for every change to come, not one and then a larger one.
        if modelChanges.isEmpty { modelChanges.reserveCapacity(eventCount) }
        let old = modelChanges.last?.value ?? ScaleTimeline.restScale
        modelChanges.append(ModelChange(time: t, value: target))
        guard duration > 0 else { return }
        layerAnimations.append(LayerAnimation(start: t, duration: duration, from: old - target, to: 0,
                                              shape: shape, isAdditive: true, holdsAfterEnd: false, key: nil))
    }

    /// `layer.add(_:forKey:)`: replaces the animation for the key; the model is unchanged.
    /// `fromValue` was checked finite when the step was resolved.
    private mutating func addLayer(_ shape: LayerAnimation.Shape, duration: Double, at t: Double, target: Double,
                                   key: Int8, fromValue: Double?, holds: Bool) {
        let from = fromValue ?? scale(at: t)
        for i in layerAnimations.indices where layerAnimations[i].key == key && layerAnimations[i].removedAt > t {
            layerAnimations[i].removedAt = t
        }
        layerAnimations.append(LayerAnimation(start: t, duration: duration, from: from, to: target, shape: shape,
                                              isAdditive: false, holdsAfterEnd: holds, key: key))
    }

    // MARK: Evaluation

    /// The displayed scale at `t` seconds: the state after any event or animation end at `t`.
    public func scale(at t: Double) -> Double { evaluate(t, justBefore: false) }

    /// The displayed scale an instant before `t` (the left limit): events and removals at `t` not yet
    /// applied, an animation ending at `t` still at its last value.
    public func scale(justBefore t: Double) -> Double { evaluate(t, justBefore: true) }

    /// The model value (what UIKit's animation blocks set, 1 until the first UIView animation) at `t`.
    public func modelScale(at t: Double) -> Double {
        var model = ScaleTimeline.restScale
        for m in modelChanges where m.time <= t + ScaleTimeline.simultaneityTolerance { model = m.value }
        return model
    }

    /// The composition of the type's doc, evaluating only what shows: the last hand-added animation
    /// showing at `t` hides the model value and everything added before it, so the animations are
    /// looked at from the latest started one back to it, and only it and the additive animations
    /// after it are evaluated, summed in the order added (the same additions as summing them all
    /// and starting over at each hand-added one, so the same bits). A holding animation's last
    /// value is the one computed when it was added.
    @inline(__always)
    private func evaluate(_ t: Double, justBefore: Bool) -> Double {
        layerAnimations.withUnsafeBufferPointer { all in
            compose(all, t, justBefore: justBefore) { i, local in all[i].value(atLocal: local) }
        }
    }

    /// `scale(justBefore: t)` and `scale(at: t)` together, each animation that runs in both
    /// states evaluated once (the same call on the same value, so the same bits as the two calls
    /// apart): what the jump at a change instant compares.
    func scalesAround(_ t: Double) -> (justBefore: Double, at: Double) {
        layerAnimations.withUnsafeBufferPointer { all in
            withUnsafeTemporaryAllocation(of: Double?.self, capacity: all.count) { memo in
                memo.initialize(repeating: nil)
                let value = { (i: Int, local: Double) -> Double in
                    if let v = memo[i] { return v }
                    let v = all[i].value(atLocal: local)
                    memo[i] = v
                    return v
                }
                return (compose(all, t, justBefore: true, value: value), compose(all, t, justBefore: false, value: value))
            }
        }
    }

    /// `evaluate`'s composition over `all` (the layer animations), with `value(i, local)` giving
    /// `all[i].value(atLocal: local)` for a running animation, local = t − its start.
    @inline(__always)
    private func compose(_ all: UnsafeBufferPointer<LayerAnimation>, _ t: Double, justBefore: Bool,
                         value: (Int, Double) -> Double) -> Double {
        let tol = ScaleTimeline.simultaneityTolerance
        /// Whether something at time `s` has happened by the state asked for.
        @inline(__always) func happened(_ s: Double) -> Bool { justBefore ? s < t - tol : s <= t + tol }
        /// What `all[i]` shows at `t`, or nil when it shows nothing (not started is checked by the caller).
        @inline(__always) func shown(_ i: Int) -> Double? {
            let a = all[i]
            if happened(a.removedAt) { return nil }
            let local = t - a.start
            let running = justBefore ? local <= a.duration + tol : local < a.duration - tol
            if running { return value(i, local) }
            return a.holdsAfterEnd ? a.heldValue : nil
        }
        var base = ScaleTimeline.restScale
        for m in modelChanges {
            guard happened(m.time) else { break }
            base = m.value
        }
        var started = 0
        while started < all.count, happened(all[started].start) { started += 1 }
        var first = 0
        var i = started
        while i > 0 {
            i -= 1
            guard !all[i].isAdditive, let v = shown(i) else { continue }
            base = v
            first = i + 1
            break
        }
        var additive = 0.0
        var j = first
        while j < started {
            if all[j].isAdditive, let v = shown(j) { additive += v }
            j += 1
        }
        return base + additive
    }

    /// The relative allowance `scaleBounds(from:)` adds for rounding: 1e-12 of the magnitudes
    /// summed (an evaluation is a handful of operations, each within half an ulp, 1.1e-16, and
    /// libm's exp, sin and cos within an ulp).
    static let boundsRoundingAllowance = 1e-12

    /// An interval (lower, upper) that holds `scale(at: u)` for every u in [t, until − tolerance),
    /// where `until` is the first event more than the tolerance after `t` (+∞ when there is
    /// none): in that window nothing starts, is removed or changes the model value. From
    /// `evaluate`'s composition: a hand-added animation that has not been removed shows its value
    /// while it runs and, if it holds, its held value after (hiding the model value and
    /// everything added before it); one that does not hold lets the one before it, or the model
    /// value, show when it ends; each additive animation still running adds a value within its
    /// bounds, or 0 once it has ended. Nil when a bound is not finite.
    ///
    /// `isConstant`: the scale is exactly `scale(at: t)` (the same bits) over the whole window:
    /// no hand-added animation after the first running additive one shows anything and none
    /// before it runs, and the running additive animations come in adjacent pairs that started
    /// together with the same shape and duration and opposite `from` (a press and a release at
    /// one instant): each pair's values are exact negatives, so the running sum is 0 at every
    /// time and after they end, as `evaluate` adds them.
    func scaleBounds(from t: Double) -> (lower: Double, upper: Double, until: Double, isConstant: Bool)? {
        let tol = ScaleTimeline.simultaneityTolerance
        var until = Double.infinity
        for e in events where e.time > t + tol { until = e.time; break }
        return layerAnimations.withUnsafeBufferPointer { all in
        var started = 0
        while started < all.count, all[started].start <= t + tol { started += 1 }
        // The base: what the hand-added animations or the model value may show.
        var lower = Double.infinity, upper = -Double.infinity, magnitude = 0.0
        var modelShows = true
        var i = started
        while i > 0 {
            i -= 1
            let a = all.baseAddress! + i  // read in place: a copy of the animation is a memcpy
            guard !a.pointee.isAdditive, a.pointee.removedAt > t + tol else { continue }
            if t - a.pointee.start < a.pointee.duration - tol {
                let b = a.pointee.valueBounds(fromLocal: t - a.pointee.start)
                guard b.lower.isFinite, b.upper.isFinite else { return nil }
                lower = min(lower, b.lower); upper = max(upper, b.upper)
                magnitude = max(magnitude, abs(b.lower), abs(b.upper))
            }
            if a.pointee.holdsAfterEnd {
                guard a.pointee.heldValue.isFinite else { return nil }
                lower = min(lower, a.pointee.heldValue); upper = max(upper, a.pointee.heldValue)
                magnitude = max(magnitude, abs(a.pointee.heldValue))
                modelShows = false
                break
            }
        }
        if modelShows {
            var model = ScaleTimeline.restScale
            for m in modelChanges {
                guard m.time <= t + tol else { break }
                model = m.value
            }
            guard model.isFinite else { return nil }
            lower = min(lower, model); upper = max(upper, model); magnitude = max(magnitude, abs(model))
        }
        // The additive animations, and whether the scale is constant.
        var isConstant = true
        var unpaired = -1  // a running additive animation waiting for its opposite
        var anyAdditiveRunning = false
        var j = 0
        while j < started {
            let a = all.baseAddress! + j
            j += 1
            guard a.pointee.removedAt > t + tol else { continue }
            let running = t - a.pointee.start < a.pointee.duration - tol
            guard a.pointee.isAdditive else {
                // A hand-added one that shows: constant only when it holds still and comes first.
                if running || (a.pointee.holdsAfterEnd && anyAdditiveRunning) { isConstant = false }
                continue
            }
            guard running else { continue }
            anyAdditiveRunning = true
            if unpaired >= 0 {
                let p = all.baseAddress! + unpaired
                if !(p.pointee.start == a.pointee.start && p.pointee.duration == a.pointee.duration && p.pointee.from == -a.pointee.from && p.pointee.shape == a.pointee.shape) {
                    isConstant = false
                }
                unpaired = -1
            } else {
                unpaired = j - 1
            }
            let b = a.pointee.valueBounds(fromLocal: t - a.pointee.start)
            guard b.lower.isFinite, b.upper.isFinite else { return nil }
            lower += min(0, b.lower); upper += max(0, b.upper)
            magnitude += max(abs(b.lower), abs(b.upper))
        }
        if unpaired >= 0 { isConstant = false }
        let slack = ScaleTimeline.boundsRoundingAllowance * (1 + magnitude)
        return (lower - slack, upper + slack, until, isConstant)
        }
    }

    /// The displayed scale from `from` to `to` (inclusive, within 1e-9 s) every `step` seconds,
    /// for charts. Empty when `step` is not positive and finite or `to` < `from`.
    public func samples(from: Double, to: Double, step: Double) -> [ScaleSample] {
        guard step > 0, step.isFinite, from.isFinite, to.isFinite, to >= from else { return [] }
        let n = Int(((to - from) / step + ScaleTimeline.simultaneityTolerance).rounded(.down))
        return (0...n).map { k in
            let t = from + Double(k) * step
            return ScaleSample(t: t, scale: scale(at: t))
        }
    }

    /// The instants at which an animation starts, ends or is removed, sorted, duplicates (within
    /// 1e-9 s) merged: the only times the displayed scale can change discontinuously.
    public var changeInstants: [Double] {
        var times: [Double] = []
        var t = nextChangeInstant(after: nil)
        while let u = t {
            times.append(u)
            t = nextChangeInstant(after: u)
        }
        return times
    }

    /// The first of `changeInstants` after `previous` (the first of all for nil), without an
    /// array: the earliest start, end or removal more than the tolerance after `previous`. The
    /// instants are the times sorted with each one kept when it is more than the tolerance after
    /// the last kept, so the one after a kept instant is the smallest time beyond that distance.
    func nextChangeInstant(after previous: Double?) -> Double? {
        var next: Double? = nil
        @inline(__always) func consider(_ t: Double) {
            if let p = previous, !(t - p > ScaleTimeline.simultaneityTolerance) { return }
            if let n = next, !(t < n) { return }
            next = t
        }
        for e in events { consider(e.time) }
        for a in layerAnimations {
            consider(a.end)
            if a.removedAt.isFinite { consider(a.removedAt) }
        }
        return next
    }

    /// The time after which the displayed scale no longer changes: the last event or animation end
    /// (−∞ without events).
    public var settledTime: Double {
        var last = -Double.infinity
        var t = nextChangeInstant(after: nil)
        while let u = t { last = u; t = nextChangeInstant(after: u) }
        return last
    }
}

/// A configuration's press and release animations resolved once — springs solved (a UIView
/// spring's stiffness takes 12 Newton steps), timing curves set up — for building many
/// timelines of the same configuration (`ScaleTimeline(resolved:events:)`). An animation whose
/// parameters are invalid keeps its error, thrown when an event uses it. Equal and hashed as its
/// `animation`, from which everything else follows. A class, so that a configuration holding one
/// (`PressConfiguration.resolvedAnimation`) is copied by one reference count, not field by field.
public final class ResolvedPressAnimation: Hashable, Sendable {
    public let animation: PressAnimation
    /// The press animation's step, nil when its parameters are invalid (then `pressError`).
    /// Kept apart from the error, so that reading a step copies plain values only (a `Result`
    /// of the two was copied through the runtime's generic witness, twice a session).
    let pressStep: Step?
    let pressError: AnimationParameterError?
    /// The release animation's step, nil when its parameters are invalid (then `releaseError`).
    let releaseStep: Step?
    let releaseError: AnimationParameterError?

    /// What starting one of the animations takes, read off its `AnimationSpec` once.
    struct Step: Sendable {
        var shape: ScaleTimeline.LayerAnimation.Shape
        /// Seconds.
        var duration: Double
        /// Hand-added (`caSpring`, `caBasic`): its key as a number, equal for equal keys (the
        /// press's 0, the release's 0 when its key is the press's, else 1). Nil for UIView's
        /// additive animations.
        var key: Int8?
        /// `fromValue` of a hand-added animation (finite), nil to start from the value on screen.
        var fromValue: Double?
        /// fillMode forwards and not removed on completion.
        var holdsAfterEnd: Bool
    }

    public init(_ animation: PressAnimation) {
        self.animation = animation
        func options(_ spec: AnimationSpec) -> LayerAnimationOptions? {
            switch spec {
            case .uiViewSpring, .uiViewCurve, .swiftUISpring: return nil
            case let .caSpring(_, _, _, _, _, options), let .caBasic(_, _, options): return options
            }
        }
        let pressKey = options(animation.press)?.key
        // The shape first, then `fromValue`: the error `ScaleTimeline` reported first before.
        func resolve(_ spec: AnimationSpec, key: Int8) -> Result<Step, AnimationParameterError> {
            do throws(AnimationParameterError) {
                let shape = try ScaleTimeline.shape(spec)
                switch spec {
                case let .uiViewSpring(duration, _, _), let .uiViewCurve(duration, _):
                    return .success(Step(shape: shape, duration: duration, key: nil, fromValue: nil, holdsAfterEnd: false))
                case .swiftUISpring:
                    // SwiftUI runs a spring until it settles: its settling duration (finite
                    // unless undamped, which the check rejects).
                    var settle = Double.infinity
                    if case .spring(let spring) = shape { settle = spring.settlingDuration }
                    try AnimationParameterError.check("dampingFraction", settle, settle.isFinite,
                                                      "positive (an undamped spring never settles)")
                    return .success(Step(shape: shape, duration: settle, key: nil, fromValue: nil, holdsAfterEnd: false))
                case let .caSpring(_, _, _, _, duration, options), let .caBasic(duration, _, options):
                    if let from = options.fromValue {
                        try AnimationParameterError.check("fromValue", from, true, "finite")
                    }
                    return .success(Step(shape: shape, duration: duration, key: key, fromValue: options.fromValue,
                                         holdsAfterEnd: options.fillMode == .forwards && !options.isRemovedOnCompletion))
                }
            } catch { return .failure(error) }
        }
        let releaseKey = options(animation.release)?.key
        switch resolve(animation.press, key: 0) {
        case .success(let step): (pressStep, pressError) = (step, nil)
        case .failure(let error): (pressStep, pressError) = (nil, error)
        }
        switch resolve(animation.release, key: releaseKey != nil && releaseKey == pressKey ? 0 : 1) {
        case .success(let step): (releaseStep, releaseError) = (step, nil)
        case .failure(let error): (releaseStep, releaseError) = (nil, error)
        }
    }

    public static func == (a: ResolvedPressAnimation, b: ResolvedPressAnimation) -> Bool { a.animation == b.animation }
    public func hash(into hasher: inout Hasher) { hasher.combine(animation) }
}
