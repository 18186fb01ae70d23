// Core Animation's spring: a damped harmonic oscillator in closed form (reference §3), with the
// three ways Apple parameterises it (CASpringAnimation, UIView's spring animation, SwiftUI's
// Spring) all reduced to one physical form. Modelled on WebKit's SpringSolver: the constants are
// derived once at init; evaluation is one branch on the regime and one or two exponentials.
#if canImport(Glibc)
import Glibc
import CLibm
#elseif canImport(Darwin)
import Darwin
#endif

/// A parameter of an animation that no animation can have: a negative or zero mass, a NaN, a
/// Bézier control point outside [0, 1] in x, …
public struct AnimationParameterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The parameter's name as the API spells it (`mass`, `stiffness`, `x1`, …).
    public var parameter: String
    /// The value given.
    public var value: Double
    /// What the value must be, as a phrase: "positive", "finite", "in [0, 1]".
    public var requirement: String

    public init(parameter: String, value: Double, requirement: String) {
        self.parameter = parameter; self.value = value; self.requirement = requirement
    }

    /// One line, e.g. `mass must be positive, not 0.0`.
    public var description: String { "\(parameter) must be \(requirement), not \(value)" }

    static func check(_ name: String, _ value: Double, _ ok: Bool, _ requirement: String) throws(AnimationParameterError) {
        guard value.isFinite else { throw AnimationParameterError(parameter: name, value: value, requirement: "finite") }
        guard ok else { throw AnimationParameterError(parameter: name, value: value, requirement: requirement) }
    }
}

/// A spring: m·x″ + c·x′ + k·x = 0 with x the remaining distance to the target as a fraction of
/// the whole distance (x(0) = 1). Progress is p(t) = 1 − x(t), from 0 towards 1; velocities are in
/// units of the whole distance per second, positive towards the target (Core Animation's
/// `initialVelocity` convention). Times are seconds.
///
/// ```swift
/// let s = try Spring(mass: 1, stiffness: 100, damping: 5)   // CASpringAnimation
/// s.settlingDuration                                         // ≈ 2.85 s
/// s.progress(at: 0.1)                                         // O(1), no allocation
/// ```
///
/// With a damping ratio ζ ≥ 1 Core Animation uses the critically damped solution with the same
/// ω₀ (so extra damping beyond critical changes nothing) unless `allowsOverdamping` is set
/// (`CASpringAnimation.allowsOverdamping`, iOS 17), in which case the overdamped solution is used.
public struct Spring: Hashable, Sendable {
    // MARK: Constants

    /// `CASpringAnimation`'s default mass, 1 (Apple documentation).
    public static let defaultMass = 1.0
    /// `CASpringAnimation`'s default stiffness, 100 (Apple documentation).
    public static let defaultStiffness = 100.0
    /// `CASpringAnimation`'s default damping, 10 (Apple documentation).
    public static let defaultDamping = 10.0
    /// `CASpringAnimation`'s default initial velocity, 0 (Apple documentation).
    public static let defaultInitialVelocity = 0.0

    /// The remaining fraction of the distance below which Core Animation counts a spring as settled
    /// for `settlingDuration`: 0.001 (reference §3, reverse-engineered).
    public static let settlingEpsilon = 0.001
    /// The grid of Core Animation's settling scan for ζ ≥ 1: 10 points per second, a 0.1 s step
    /// (reference §3). Grid times are i / 10, so that they print as 1.9, not 1.9000000000000001.
    public static let settlingScanStepsPerSecond = 10.0
    /// How long |x| must stay below ε on the scan grid: more than 1 s, i.e. more than 10 steps
    /// (reference §3).
    public static let settlingScanHoldSteps = 10
    /// Where pressdb gives up the settling scan and reports an infinite settling duration: 100 000
    /// steps (10 000 s). Not Core Animation's; only a very overdamped spring gets there.
    public static let settlingScanStepLimit = 100_000

    /// The tolerance of UIKit's spring solve, the remaining fraction at `duration`: 0.001
    /// (reference §3, reverse-engineered by Framer).
    public static let uiKitEpsilon = 0.001
    /// UIKit's Newton solve runs exactly 12 steps (reference §3).
    public static let uiKitNewtonSteps = 12
    /// UIKit's first guess for ω₀ is this over the duration: 5 / d (reference §3).
    public static let uiKitInitialGuessNumerator = 5.0
    /// UIKit clamps the damping ratio to [1.1920929e-7, 1] (`FLT_EPSILON` to 1; reference §3).
    public static let uiKitDampingRatioRange = 1.1920929e-7...1.0
    /// UIKit clamps the duration to [0.01, 10] s for the solve (reference §3).
    public static let uiKitDurationRange = 0.01...10.0

    // MARK: Physical parameters

    /// Mass m (Core Animation's `mass`), > 0.
    public let mass: Double
    /// Stiffness k (`stiffness`), > 0.
    public let stiffness: Double
    /// Damping coefficient c (`damping`), ≥ 0.
    public let damping: Double
    /// Initial velocity v₀ (`initialVelocity`) in whole distances per second, towards the target.
    public let initialVelocity: Double
    /// Whether ζ > 1 uses the overdamped solution rather than Core Animation's critical one.
    public let allowsOverdamping: Bool

    // MARK: Derived once

    /// Undamped angular frequency ω₀ = √(k / m), radians per second.
    public let undampedAngularFrequency: Double
    /// Damping ratio ζ = c / (2√(km)), the real ratio even when it is evaluated as critical.
    public let dampingRatio: Double
    /// Which closed form is evaluated.
    public let regime: Regime

    /// The closed form evaluated, x(t) = 1 − p(t).
    public enum Regime: String, Hashable, Sendable {
        /// ζ < 1: x = e^(−αt)(cos ω_d t + B sin ω_d t), α = ζω₀.
        case underdamped
        /// ζ = 1, or ζ > 1 without overdamping: x = (1 + Bt) e^(−ω₀t).
        case critical
        /// ζ > 1 with overdamping: x = C₁e^(−λ₁t) + C₂e^(−λ₂t).
        case overdamped
    }

    /// α (under-damped), ω₀ (critical) or λ₁, the slow rate (over-damped), per second.
    private let decay: Double
    /// ω_d = ω₀√(1 − ζ²) (under-damped) or λ₂, the fast rate (over-damped), per second.
    private let frequency: Double
    /// B (under-damped, critical) or C₂ (over-damped).
    private let coefficient: Double

    // MARK: Initialisers

    /// A `CASpringAnimation`'s spring. Defaults are Core Animation's (1, 100, 10, 0).
    /// - Throws: `AnimationParameterError` when mass or stiffness is not positive, damping is
    ///   negative, or any value is not finite.
    public init(mass: Double = Spring.defaultMass, stiffness: Double = Spring.defaultStiffness,
                damping: Double = Spring.defaultDamping, initialVelocity: Double = Spring.defaultInitialVelocity,
                allowsOverdamping: Bool = false) throws(AnimationParameterError) {
        try AnimationParameterError.check("mass", mass, mass > 0, "positive")
        try AnimationParameterError.check("stiffness", stiffness, stiffness > 0, "positive")
        try AnimationParameterError.check("damping", damping, damping >= 0, "zero or positive")
        try AnimationParameterError.check("initialVelocity", initialVelocity, true, "finite")
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.initialVelocity = initialVelocity
        self.allowsOverdamping = allowsOverdamping

        let w0 = (stiffness / mass).squareRoot()
        let zeta = damping / (2 * (stiffness * mass).squareRoot())
        undampedAngularFrequency = w0
        dampingRatio = zeta
        let v0 = initialVelocity
        if zeta < 1 {
            // Under-damped: x(0) = 1, x′(0) = −v₀ gives B = (ζω₀ − v₀) / ω_d.
            regime = .underdamped
            decay = zeta * w0
            frequency = w0 * (1 - zeta * zeta).squareRoot()
            coefficient = (decay - v0) / frequency
        } else if zeta == 1 || !allowsOverdamping {
            // Critically damped (Core Animation's choice for every ζ ≥ 1): B = ω₀ − v₀.
            regime = .critical
            decay = w0
            frequency = 0
            coefficient = w0 - v0
        } else {
            // Over-damped: rates λ = ω₀(ζ ∓ √(ζ² − 1)); the slow one written as ω₀ / (ζ + √(ζ² − 1))
            // to avoid cancellation. C₁ + C₂ = 1 and λ₁C₁ + λ₂C₂ = v₀.
            regime = .overdamped
            let root = (zeta * zeta - 1).squareRoot()
            decay = w0 / (zeta + root)
            frequency = w0 * (zeta + root)
            coefficient = (v0 - decay) / (frequency - decay)
        }
    }

    /// UIKit's `UIView.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:)`
    /// spring: mass 1, ω₀ from exactly 12 Newton steps on UIKit's settling condition (reference §3,
    /// the formula Framer published), k = ω₀², c = 2ζω₀. The damping ratio is clamped to
    /// [1.1920929e-7, 1] and the duration to [0.01, 10] s, as UIKit does. If the solve does not
    /// give a positive finite ω₀ the spring falls back to Core Animation's defaults (k 100, c 10),
    /// as Framer's port does.
    /// - Parameters:
    ///   - duration: the animation's duration, seconds.
    ///   - dampingRatio: `usingSpringWithDamping`, ζ.
    ///   - velocity: `initialSpringVelocity`, whole distances per second.
    /// - Throws: `AnimationParameterError` when a value is not finite.
    public init(withDuration duration: Double, usingSpringWithDamping dampingRatio: Double,
                initialSpringVelocity velocity: Double = 0) throws(AnimationParameterError) {
        try AnimationParameterError.check("duration", duration, true, "finite")
        try AnimationParameterError.check("dampingRatio", dampingRatio, true, "finite")
        try AnimationParameterError.check("initialSpringVelocity", velocity, true, "finite")
        let zeta = min(max(dampingRatio, Spring.uiKitDampingRatioRange.lowerBound), Spring.uiKitDampingRatioRange.upperBound)
        let w = Spring.uiKitUndampedAngularFrequency(duration: duration, dampingRatio: zeta, initialVelocity: velocity)
        if w.isFinite, w > 0 {
            try self.init(mass: 1, stiffness: w * w, damping: 2 * zeta * w, initialVelocity: velocity)
        } else {
            try self.init(mass: 1, stiffness: Spring.defaultStiffness, damping: Spring.defaultDamping,
                          initialVelocity: velocity)
        }
    }

    /// SwiftUI's `Spring(duration:bounce:)`: mass 1, k = (2π / duration)², c = 4πζ / duration with
    /// ζ = 1 − bounce for bounce ≥ 0 and 1 / (1 + bounce) below (reference §3).
    /// - Parameters:
    ///   - duration: the perceptual duration, seconds, > 0.
    ///   - bounce: in (−1, 1]; 0 is critical, 1 undamped, negative over-damped.
    ///   - initialVelocity: whole distances per second.
    /// - Throws: `AnimationParameterError` for a duration ≤ 0, a bounce outside (−1, 1], or a
    ///   value that is not finite.
    public init(duration: Double, bounce: Double, initialVelocity: Double = 0,
                allowsOverdamping: Bool = false) throws(AnimationParameterError) {
        try AnimationParameterError.check("bounce", bounce, bounce > -1 && bounce <= 1, "in (-1, 1]")
        let zeta = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
        try self.init(response: duration, dampingRatio: zeta, initialVelocity: initialVelocity,
                      allowsOverdamping: allowsOverdamping, durationName: "duration")
    }

    /// SwiftUI's `Spring(response:dampingRatio:)` (`.spring(response:dampingFraction:)`):
    /// mass 1, k = (2π / response)², c = 4πζ / response (reference §3).
    /// - Throws: `AnimationParameterError` for a response ≤ 0, a negative damping ratio, or a value
    ///   that is not finite.
    public init(response: Double, dampingRatio: Double, initialVelocity: Double = 0,
                allowsOverdamping: Bool = false) throws(AnimationParameterError) {
        try self.init(response: response, dampingRatio: dampingRatio, initialVelocity: initialVelocity,
                      allowsOverdamping: allowsOverdamping, durationName: "response")
    }

    private init(response: Double, dampingRatio: Double, initialVelocity: Double,
                 allowsOverdamping: Bool, durationName: String) throws(AnimationParameterError) {
        try AnimationParameterError.check(durationName, response, response > 0, "positive")
        try AnimationParameterError.check("dampingRatio", dampingRatio, dampingRatio >= 0, "zero or positive")
        let w = 2 * Double.pi / response
        try self.init(mass: 1, stiffness: w * w, damping: 4 * Double.pi * dampingRatio / response,
                      initialVelocity: initialVelocity, allowsOverdamping: allowsOverdamping)
    }

    /// UIKit's solve for ω₀ (reference §3): with ζ and d already clamped, the root of
    /// f(ω) = ε − |(ζω − v) / (ω√(1 − ζ²))| · e^(−ζωd) for ζ < 1, or
    /// f(ω) = (1 + (ω − v)d) · e^(−ωd) − sign(ω − v) · ε for ζ = 1,
    /// by exactly `uiKitNewtonSteps` Newton steps from ω = 5 / d, with f′ in closed form.
    /// Returns radians per second (may be NaN when the iteration breaks down).
    public static func uiKitUndampedAngularFrequency(duration: Double, dampingRatio zeta: Double,
                                                     initialVelocity v: Double) -> Double {
        let d = min(max(duration, uiKitDurationRange.lowerBound), uiKitDurationRange.upperBound)
        let eps = uiKitEpsilon
        var w = uiKitInitialGuessNumerator / d
        if zeta < 1 {
            let s = (1 - zeta * zeta).squareRoot()
            for _ in 0..<uiKitNewtonSteps {
                let e = exp(-zeta * w * d)
                // g = (ζω − v) / (ω s) · e^(−ζωd); f = ε − |g|; f′ = −sign(g) · g′.
                let g = (zeta * w - v) / (w * s) * e
                let gPrime = e * (zeta * w * d * v + v - zeta * zeta * w * w * d) / (s * w * w)
                let f = eps - abs(g)
                let fPrime = g >= 0 ? -gPrime : gPrime
                w -= f / fPrime
            }
        } else {
            for _ in 0..<uiKitNewtonSteps {
                let e = exp(-w * d)
                let f = (1 + (w - v) * d) * e - (w - v >= 0 ? eps : -eps)
                let fPrime = e * (v - w) * d * d
                w -= f / fPrime
            }
        }
        return w
    }

    // MARK: Evaluation

    /// Progress p(t) = 1 − x(t) at `t` seconds after the start (0 at t = 0, towards 1).
    /// O(1) and allocation-free.
    @inline(__always)
    public func progress(at t: Double) -> Double { 1 - displacement(at: t) }

    /// The remaining displacement x(t) as a fraction of the whole distance (1 at t = 0).
    @inline(__always)
    public func displacement(at t: Double) -> Double {
        switch regime {
        case .underdamped:  // e^(−αt)(cos ω_d t + B sin ω_d t)
            let (s, c) = Spring.sinCos(frequency * t)
            return exp(-decay * t) * (c + coefficient * s)
        case .critical:  // (1 + Bt) e^(−ω₀t)
            return (1 + coefficient * t) * exp(-decay * t)
        case .overdamped:  // C₁e^(−λ₁t) + C₂e^(−λ₂t)
            return (1 - coefficient) * exp(-decay * t) + coefficient * exp(-frequency * t)
        }
    }

    /// (sin θ, cos θ), the same bits as `sin` and `cos` called apart: glibc's `sincos` shares
    /// their argument reduction and polynomials (sysdeps/ieee754/dbl-64/s_sincos.c), in one call.
    @inline(__always)
    static func sinCos(_ theta: Double) -> (sin: Double, cos: Double) {
        #if canImport(Glibc)
        var s = 0.0, c = 0.0
        sincos(theta, &s, &c)
        return (s, c)
        #else
        return (sin(theta), cos(theta))
        #endif
    }

    /// An upper bound of |x(u)| for every u ≥ `t` (t ≥ 0 seconds): the envelope of the closed
    /// form, from the same constants. Under-damped: |cos θ + B sin θ| ≤ √(1 + B²), so
    /// |x(u)| ≤ √(1 + B²) e^(−αt). Critical: |x(u)| ≤ (1 + |B|u) e^(−ω₀u), which rises until
    /// u* = (|B| − ω₀) / (ω₀|B|) when |B| > ω₀ and falls after, so its largest value on [t, ∞) is at
    /// max(t, u*). Over-damped: |C₁| e^(−λ₁t) + |C₂| e^(−λ₂t). Exact arithmetic; a caller comparing
    /// it with evaluated values allows for rounding.
    public func displacementBound(from t: Double) -> Double {
        switch regime {
        case .underdamped:
            return (1 + coefficient * coefficient).squareRoot() * exp(-decay * t)
        case .critical:
            let b = abs(coefficient)
            let u = b > decay ? max(t, (b - decay) / (decay * b)) : t
            return (1 + b * u) * exp(-decay * u)
        case .overdamped:
            return abs(1 - coefficient) * exp(-decay * t) + abs(coefficient) * exp(-frequency * t)
        }
    }

    /// Velocity p′(t) in whole distances per second at `t` seconds (v₀ at t = 0).
    public func velocity(at t: Double) -> Double {
        let v0 = initialVelocity
        switch regime {
        case .underdamped:  // −x′ = e^(−αt)(v₀ cos ω_d t + (αB + ω_d) sin ω_d t)
            let th = frequency * t
            return exp(-decay * t) * (v0 * cos(th) + (decay * coefficient + frequency) * sin(th))
        case .critical:  // −x′ = e^(−ω₀t)(v₀ + ω₀Bt)
            return exp(-decay * t) * (v0 + decay * coefficient * t)
        case .overdamped:  // −x′ = λ₁C₁e^(−λ₁t) + λ₂C₂e^(−λ₂t)
            return decay * (1 - coefficient) * exp(-decay * t) + frequency * coefficient * exp(-frequency * t)
        }
    }

    // MARK: Derived figures

    /// `CASpringAnimation.settlingDuration` (ε = 0.001), seconds.
    public var settlingDuration: Double { settlingDuration(epsilon: Spring.settlingEpsilon) }

    /// Core Animation's settling time for a remaining fraction `epsilon` (reference §3):
    /// under-damped, ln((1 + |B|) / ε) / (ζω₀), the time the envelope (1 + |B|)e^(−ζω₀t) falls to ε
    /// (infinite without damping); otherwise the first multiple of 0.1 s from which |x| stays below
    /// ε at every grid point for more than 1 s. Infinite if the scan passes 10 000 s.
    public func settlingDuration(epsilon: Double) -> Double {
        if regime == .underdamped {
            guard decay > 0 else { return .infinity }
            return log((1 + abs(coefficient)) / epsilon) / decay
        }
        var runStart: Int? = nil
        for i in 0...Spring.settlingScanStepLimit {
            if abs(displacement(at: Double(i) / Spring.settlingScanStepsPerSecond)) < epsilon {
                let s = runStart ?? i
                runStart = s
                if i - s > Spring.settlingScanHoldSteps { return Double(s) / Spring.settlingScanStepsPerSecond }
            } else {
                runStart = nil
            }
        }
        return .infinity
    }

    /// SwiftUI's perceptual `duration` of this spring, 2π√(m / k), seconds (reference §3, inverse).
    public var perceptualDuration: Double { 2 * Double.pi / undampedAngularFrequency }

    /// SwiftUI's `bounce`: 1 − ζ for ζ ≤ 1, 1/ζ − 1 above (reference §3, inverse).
    public var bounce: Double { dampingRatio <= 1 ? 1 - dampingRatio : 1 / dampingRatio - 1 }

    /// How far the progress goes past the target: max over t ≥ 0 of p(t), minus 1; 0 when it
    /// never passes it. Fraction of the whole distance. Closed form: the first extremum of x
    /// after the start.
    public var overshoot: Double {
        switch regime {
        case .underdamped:
            // −x′ ∝ v₀ cos θ + (αB + ω_d) sin θ, θ = ω_d t: zero where tan θ = −v₀ / (αB + ω_d). The
            // first two positive zeros are one maximum and one minimum of x; the minimum is the peak.
            let e = decay * coefficient + frequency
            var th = atan2(-initialVelocity, e)
            th -= (th / Double.pi).rounded(.down) * Double.pi
            if th <= 1e-12 { th += Double.pi }
            let x1 = displacement(at: th / frequency)
            let x2 = displacement(at: (th + Double.pi) / frequency)
            return max(0, -min(x1, x2))
        case .critical:
            // Crosses the target only when B < 0; then −x′ = 0 at t = (B − ω₀) / (ω₀B).
            guard coefficient < 0 else { return 0 }
            let t = (coefficient - decay) / (decay * coefficient)
            return max(0, -displacement(at: t))
        case .overdamped:
            // −x′ = 0 where e^((λ₂ − λ₁)t) = −λ₂C₂ / (λ₁C₁).
            let c1 = 1 - coefficient
            let ratio = -frequency * coefficient / (decay * c1)
            guard ratio > 1 else { return 0 }
            return max(0, -displacement(at: log(ratio) / (frequency - decay)))
        }
    }

    /// The first time (seconds, > 0) the progress reaches 1, or nil when it never does
    /// (critical or over-damped without enough initial velocity).
    public var timeToTarget: Double? {
        switch regime {
        case .underdamped:
            // cos θ + B sin θ = 0 first at θ = atan B + π/2.
            return (atan(coefficient) + Double.pi / 2) / frequency
        case .critical:
            return coefficient < 0 ? -1 / coefficient : nil
        case .overdamped:
            let ratio = -coefficient / (1 - coefficient)
            guard ratio > 1 else { return nil }
            return log(ratio) / (frequency - decay)
        }
    }
}
