import Testing
@testable import PressCore
#if canImport(Glibc)
import Glibc
#endif

// Reference values: Apple's documentation (quoted per test), Framer's published UIKit mapping, and
// numbers computed independently with python3 on this machine (/tmp scripts, not the Swift code):
// a straight transcription of the closed forms x(t) for each regime, a brute-force grid search for
// peaks and crossings, and a port of the UIKit Newton solve from the formula in press-model.md §3.

@Suite struct SpringAppleDocumentationTests {
    // CASpringAnimation.settlingDuration docs: mass 1, stiffness 100, damping 5 "settles in about
    // 2.85 seconds"; with damping 15 "just over 1 second".
    @Test func settlingDurationMatchesAppleExamples() throws {
        let d5 = try Spring(mass: 1, stiffness: 100, damping: 5).settlingDuration
        #expect(abs(d5 - 2.85) < 0.01)
        let d15 = try Spring(mass: 1, stiffness: 100, damping: 15).settlingDuration
        #expect(d15 > 1.0 && d15 < 1.1)
    }

    // SwiftUI Spring(duration: 0.5, bounce: 0.3) docs: "mass: 1, stiffness: 157.9, damping: 17.6".
    @Test func swiftUIDurationBounceMatchesAppleExample() throws {
        let s = try Spring(duration: 0.5, bounce: 0.3)
        #expect(s.mass == 1)
        #expect(abs(s.stiffness - 157.9) < 0.05)
        #expect(abs(s.damping - 17.6) < 0.05)
    }

    // SwiftUI Spring(mass: 1, stiffness: 100, damping: 10) docs: duration 0.63, bounce 0.5.
    @Test func swiftUIInverseMatchesAppleExample() throws {
        let s = try Spring(mass: 1, stiffness: 100, damping: 10)
        #expect(abs(s.perceptualDuration - 0.63) < 0.005)
        #expect(abs(s.bounce - 0.5) < 1e-12)
    }

    // UISpringTimingParameters() docs: mass 3, stiffness 1000, damping 500, "a damping ratio of 4.56".
    @Test func dampingRatioOfUISpringTimingParametersDefault() throws {
        let s = try Spring(mass: 3, stiffness: 1000, damping: 500)
        #expect(abs(s.dampingRatio - 4.56) < 0.005)
        #expect(s.regime == .critical)  // Core Animation treats ζ ≥ 1 as critical by default
        #expect(try Spring(mass: 3, stiffness: 1000, damping: 500, allowsOverdamping: true).regime == .overdamped)
    }

    @Test func swiftUIResponseAndNegativeBounce() throws {
        // response 0.5, ζ 0.7 is the same spring as duration 0.5, bounce 0.3 (reference §3).
        let a = try Spring(response: 0.5, dampingRatio: 0.7)
        let b = try Spring(duration: 0.5, bounce: 0.3)
        #expect(a == b)
        // bounce −0.5 → ζ = 1 / (1 − 0.5) = 2; k = (2π/0.5)² = 16π² ≈ 157.91, c = 4π·2/0.5 = 16π.
        let o = try Spring(duration: 0.5, bounce: -0.5, allowsOverdamping: true)
        #expect(abs(o.dampingRatio - 2) < 1e-12)
        #expect(abs(o.damping - 16 * Double.pi) < 1e-9)
        #expect(abs(o.bounce - -0.5) < 1e-12)
    }
}

@Suite struct SpringUIKitMappingTests {
    // Framer's published UIKit mapping: duration 3, damping ratio 0.25 → stiffness
    // 54.83363359078326, damping 3.702486785620688. My python port of the formula gives the same
    // digits.
    @Test func matchesFramersPublishedValues() throws {
        let s = try Spring(withDuration: 3, usingSpringWithDamping: 0.25, initialSpringVelocity: 0)
        #expect(s.mass == 1)
        #expect(abs(s.stiffness - 54.83363359078326) < 1e-9)
        #expect(abs(s.damping - 3.702486785620688) < 1e-9)
    }

    // spring-press's spring (0.4 s, ζ 0.5, velocity 3). Python port of the 12 Newton steps:
    // stiffness 942.8063853741291, damping 30.705152423886926. Independently of any port, the root
    // must satisfy UIKit's condition |B|·e^(−ζω₀d) = 0.001 with B = (ζω₀ − v)/ω_d.
    @Test func springPressSpringSatisfiesUIKitCondition() throws {
        let s = try Spring(withDuration: 0.4, usingSpringWithDamping: 0.5, initialSpringVelocity: 3)
        #expect(abs(s.stiffness - 942.8063853741291) < 1e-6)
        #expect(abs(s.damping - 30.705152423886926) < 1e-8)
        let w = s.undampedAngularFrequency, z = 0.5
        let b = (z * w - 3) / (w * (1 - z * z).squareRoot())
        #expect(abs(abs(b) * exp(-z * w * 0.4) - 0.001) < 1e-12)
        #expect(abs(s.dampingRatio - 0.5) < 1e-12)
    }

    // ζ = 1 branch: (1 + (ω − v)d)·e^(−ωd) = 0.001 at the root (v = 0, d = 0.5).
    @Test func criticalBranchSatisfiesUIKitCondition() throws {
        let s = try Spring(withDuration: 0.5, usingSpringWithDamping: 1, initialSpringVelocity: 0)
        let w = s.undampedAngularFrequency
        #expect(abs((1 + w * 0.5) * exp(-w * 0.5) - 0.001) < 1e-12)
        #expect(abs(s.damping - 2 * w) < 1e-12)
    }

    // UIKit clamps ζ to at most 1 and d to [0.01, 10]: ζ 3 is ζ 1, duration 20 is duration 10.
    @Test func clampsLikeUIKit() throws {
        #expect(try Spring(withDuration: 0.5, usingSpringWithDamping: 3) == Spring(withDuration: 0.5, usingSpringWithDamping: 1))
        #expect(try Spring(withDuration: 20, usingSpringWithDamping: 0.5) == Spring(withDuration: 10, usingSpringWithDamping: 0.5))
    }
}

@Suite struct SpringClosedFormTests {
    /// Springs covering every regime: under-damped (with velocities either way), undamped,
    /// critical, Core Animation's "critical" for ζ > 1, and over-damped.
    static let springs: [Spring] = [
        try! Spring(),
        try! Spring(mass: 1, stiffness: 100, damping: 1, initialVelocity: 0.8),
        try! Spring(mass: 2, stiffness: 200, damping: 4, initialVelocity: 5),
        try! Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: -2),
        try! Spring(mass: 1, stiffness: 50, damping: 0, initialVelocity: 1),
        try! Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 3),
        try! Spring(mass: 3, stiffness: 1000, damping: 500, allowsOverdamping: true),
        try! Spring(mass: 1, stiffness: 100, damping: 30, initialVelocity: 50, allowsOverdamping: true),
    ]

    @Test(arguments: springs) func startsAtRestWithItsInitialVelocity(_ s: Spring) {
        #expect(s.progress(at: 0) == 0)
        #expect(abs(s.velocity(at: 0) - s.initialVelocity) < 1e-12)
    }

    @Test(arguments: springs.filter { $0.damping > 0 }) func convergesToTarget(_ s: Spring) {
        #expect(abs(s.progress(at: 60) - 1) < 1e-6)
        #expect(abs(s.velocity(at: 60)) < 1e-5)
    }

    // m·x″ + c·x′ + k·x = 0 with x = 1 − p, by central finite differences (h = 1e-4 s; the
    // truncation error is about h²·x⁗/12, far below the tolerance). The damping is the one the
    // closed form solves: the critical 2√(km) when Core Animation treats ζ > 1 as critical.
    @Test(arguments: springs) func satisfiesTheOscillatorEquation(_ s: Spring) {
        let h = 1e-4
        let c = s.regime == .critical ? 2 * (s.stiffness * s.mass).squareRoot() : s.damping
        for t in stride(from: 0.01, through: 1.5, by: 0.0731) {
            let x = { (t: Double) in 1 - s.progress(at: t) }
            let x1 = (x(t + h) - x(t - h)) / (2 * h)
            let x2 = (x(t + h) - 2 * x(t) + x(t - h)) / (h * h)
            let residual = s.mass * x2 + c * x1 + s.stiffness * x(t)
            #expect(abs(residual) / s.stiffness < 1e-4, "t = \(t)")
            // and the velocity is the derivative of the progress (finer step: the fast over-damped
            // rate, 164/s, makes the h = 1e-4 first difference too coarse)
            let hv = 1e-6
            let derivative = ((1 - x(t + hv)) - (1 - x(t - hv))) / (2 * hv)
            #expect(abs(s.velocity(at: t) - derivative) < 1e-6 * max(1, abs(derivative)), "t = \(t)")
        }
    }

    // After the settling duration, |1 − p| stays below 0.001 (checked on a 1 ms grid for 5 s).
    @Test(arguments: springs.filter { $0.damping > 0 }) func settlingDurationBoundsTheRemainder(_ s: Spring) {
        let d = s.settlingDuration
        #expect(d.isFinite)
        for i in 0...5000 {
            let t = d + Double(i) * 0.001
            #expect(abs(1 - s.progress(at: t)) < 0.001, "t = \(t)")
            if abs(1 - s.progress(at: t)) >= 0.001 { break }
        }
    }

    // An undamped spring never settles.
    @Test func undampedNeverSettles() throws {
        #expect(try Spring(mass: 1, stiffness: 50, damping: 0).settlingDuration == .infinity)
    }

    // The expand pattern's spring (mass 1, stiffness 100, damping 1, v₀ 0.8): python closed form
    // gives p(0.2) = 1.3992279684376387, i.e. scale 1 + 0.3·p = 1.4197683905312917.
    @Test func expandSpringValueAtItsCut() throws {
        let s = try Spring(mass: 1, stiffness: 100, damping: 1, initialVelocity: 0.8)
        #expect(abs(s.progress(at: 0.2) - 1.3992279684376387) < 1e-12)
    }

    // Critical, the grid scan (reference §3): k 100, c 20, x = (1 + 10t)e^(−10t) falls below
    // 0.001 at t ≈ 0.92334 (python bisection), so the first 0.1 s grid point is 1.0 s. Damping 30
    // is treated as critical: the same curve and settling. Over-damped (mass 3, stiffness 1000,
    // damping 500, allowed): python scan of the over-damped closed form gives 3.5 s, and
    // p(0.1) = 0.17311215939108482, p(1) = 0.866308544936507.
    @Test func criticalAndOverdampedSettling() throws {
        let crit = try Spring(mass: 1, stiffness: 100, damping: 20)
        #expect(abs(crit.settlingDuration - 1.0) < 1e-9)
        let heavy = try Spring(mass: 1, stiffness: 100, damping: 30)
        #expect(heavy.regime == .critical)
        #expect(abs(heavy.settlingDuration - 1.0) < 1e-9)
        for t in [0.05, 0.2, 0.7] { #expect(heavy.progress(at: t) == crit.progress(at: t)) }
        let over = try Spring(mass: 3, stiffness: 1000, damping: 500, allowsOverdamping: true)
        #expect(abs(over.settlingDuration - 3.5) < 1e-9)
        #expect(abs(over.progress(at: 0.1) - 0.17311215939108482) < 1e-12)
        #expect(abs(over.progress(at: 1) - 0.866308544936507) < 1e-12)
    }

    // Textbook step response (v₀ = 0, ζ = 0.5, ω₀ = 10): percent overshoot e^(−ζπ/√(1−ζ²)) and
    // first crossing of the target at (π − arccos ζ)/ω_d.
    @Test func stepResponseMatchesTextbookFormulas() throws {
        let s = try Spring(mass: 1, stiffness: 100, damping: 10)
        let z = 0.5, wd = 10 * (1 - z * z).squareRoot()
        #expect(abs(s.overshoot - exp(-z * Double.pi / (1 - z * z).squareRoot())) < 1e-12)
        #expect(abs(s.timeToTarget! - (Double.pi - acos(z)) / wd) < 1e-12)
    }

    // Critical with v₀ = 20, ω₀ = 10: B = ω₀ − v₀ = −10, so x = (1 − 10t)e^(−10t) crosses at t = 0.1
    // and peaks past the target at t = 0.2 with x = −e^(−2) (by hand).
    @Test func criticalOvershootByHand() throws {
        let s = try Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 20)
        #expect(abs(s.timeToTarget! - 0.1) < 1e-12)
        #expect(abs(s.overshoot - exp(-2)) < 1e-12)
        #expect(try Spring(mass: 1, stiffness: 100, damping: 20).timeToTarget == nil)
        #expect(try Spring(mass: 1, stiffness: 100, damping: 20).overshoot == 0)
    }

    // Brute-force grid search in python (step 1e-5 s) for the peak progress and the first time
    // p ≥ 1: over-damped k 100, c 30, v₀ 50 → overshoot 0.5848551645680518, crossing in
    // (0.02960, 0.02961]; under-damped k 100, c 10, v₀ −2 → 0.16589297398557612, (0.259865,
    // 0.259875]; m 2, k 200, c 4, v₀ 5 → 0.8208811315074678, (0.11945, 0.11946].
    @Test func overshootAndTimeToTargetMatchBruteForce() throws {
        let cases: [(Spring, Double, Double)] = [
            (try Spring(mass: 1, stiffness: 100, damping: 30, initialVelocity: 50, allowsOverdamping: true), 0.5848551645680518, 0.02961),
            (try Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: -2), 0.16589297398557612, 0.259875),
            (try Spring(mass: 2, stiffness: 200, damping: 4, initialVelocity: 5), 0.8208811315074678, 0.11946),
        ]
        for (s, overshoot, crossing) in cases {
            #expect(abs(s.overshoot - overshoot) < 1e-8)
            let t = try #require(s.timeToTarget)
            #expect(t > crossing - 1.1e-5 && t <= crossing)
        }
    }

    @Test func rejectsImpossibleParameters() {
        #expect(throws: AnimationParameterError.self) { try Spring(mass: 0) }
        #expect(throws: AnimationParameterError.self) { try Spring(stiffness: -1) }
        #expect(throws: AnimationParameterError.self) { try Spring(damping: .nan) }
        #expect(throws: AnimationParameterError.self) { try Spring(initialVelocity: .infinity) }
        #expect(throws: AnimationParameterError.self) { try Spring(duration: 0, bounce: 0) }
        #expect(throws: AnimationParameterError.self) { try Spring(duration: 1, bounce: -1) }
        do { _ = try Spring(mass: -2) } catch {
            #expect(error.description == "mass must be positive, not -2.0")
        }
    }
}

// `displacementBound(from:)`: an upper bound of |x(u)| for every u ≥ t, checked against x
// sampled every millisecond over 3 s, for each regime; and the critical envelope's peak, by hand.
@Suite struct SpringDisplacementBoundTests {
    @Test func boundHoldsEverySampledDisplacementAfterItsTime() throws {
        let springs = [
            try Spring(mass: 1, stiffness: 100, damping: 1, initialVelocity: 0.8),                 // ζ 0.05
            try Spring(withDuration: 0.4, usingSpringWithDamping: 0.5, initialSpringVelocity: 3),  // ζ 0.5
            try Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 30),                 // critical, B −20
            try Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: -5),                 // critical, B 15
            try Spring(mass: 2, stiffness: 100, damping: 40, initialVelocity: 5, allowsOverdamping: true),
            try Spring(mass: 1, stiffness: 100, damping: 0),                                       // undamped
        ]
        for s in springs {
            var sup = 0.0  // max |x(u)| over the samples from t to 3 s, built backwards
            for i in stride(from: 3000, through: 0, by: -1) {
                let t = Double(i) / 1000
                sup = max(sup, abs(s.displacement(at: t)))
                #expect(sup <= s.displacementBound(from: t) * (1 + 1e-12), "\(s.regime) at \(t)")
            }
        }
    }

    // Critical, ω₀ = 10, B = ω₀ − v₀ = −20: (1 + 20u) e^(−10u) peaks at u* = (20 − 10) / (10 · 20)
    // = 0.05 s with 2 e^(−0.5) = 1.2130613194252668 (hand calculation); from 0.2 s on it is
    // 5 e^(−2) = 0.6766764161830634.
    @Test func criticalEnvelopePeaksAfterTheStart() throws {
        let s = try Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 30)
        #expect(abs(s.displacementBound(from: 0) - 1.2130613194252668) < 1e-12)
        #expect(abs(s.displacementBound(from: 0.05) - 1.2130613194252668) < 1e-12)
        #expect(abs(s.displacementBound(from: 0.2) - 0.6766764161830634) < 1e-12)
    }
}

// `Spring.sinCos` (glibc's `sincos`, one call) must give the bits of `sin` and `cos` called
// apart, which the spring's evaluation used before: replayed results are compared bit for bit
// between builds. The reference here is Glibc's own `sin` and `cos`.
@Suite struct SpringSinCosTests {
    @Test func sinCosIsSinAndCosBitForBit() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {  // xorshift64: arguments of every size and sign
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        var arguments: [Double] = [0, -0.0, 1e-300, .pi / 4, .pi / 2, .pi, 1e22, -1e22, .greatestFiniteMagnitude,
                                   .leastNonzeroMagnitude, .infinity, -.infinity, .nan]
        for i in 0..<200_000 {
            let u = Double(next() >> 11) / 9_007_199_254_740_992  // [0, 1)
            switch i % 4 {
            case 0: arguments.append(u * 60)         // a spring's ω_d t over a replay
            case 1: arguments.append(-u * 1_000)
            case 2: arguments.append(u * 1e6)
            default:
                let x = Double(bitPattern: next())  // any double
                arguments.append(x)
            }
        }
        var differing = 0
        for x in arguments {
            let r = Spring.sinCos(x)
            if r.sin.bitPattern != sin(x).bitPattern || r.cos.bitPattern != cos(x).bitPattern {
                if !(x.isNaN || r.sin.isNaN && sin(x).isNaN && r.cos.isNaN && cos(x).isNaN) { differing += 1 }
            }
        }
        #expect(differing == 0)
    }
}
