// Power and the minimum detectable effect: what an experiment of this size can see, and how many
// units it would need to see a given effect.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An effect size to plan for: absolute (in the metric's unit: a fraction for rates, ms for
/// latencies) or relative to the control's value (0.05 = 5 %). `--mde X` and `--mde X%`.
public enum EffectSize: Sendable, Hashable {
    case absolute(Double)
    case relative(Double)

    /// The absolute size for a control value A: |X|, or |X·A| for a relative size.
    public func absolute(control: Double) -> Double {
        switch self {
        case .absolute(let x): abs(x)
        case .relative(let x): abs(x * control)
        }
    }
}

/// The power of the two-sided normal test of a difference and its minimum detectable effect (MDE),
/// from the standard error the data give:
///   power(δ) = Φ(|δ|/SE − c) + Φ(−|δ|/SE − c),
///   MDE = (c + z_{power})·SE,
///   units per arm for an effect δ: n = ((c + z_{power})·σ/δ)²,
/// with c = z_{1−α/2} for a fixed-horizon test (the two-sample z-test's sample size, e.g. Chow,
/// Shao & Wang, Sample Size Calculations in Clinical Research, 2nd ed., §3.2; at α = 0.05 and 80 %
/// power n ≈ 16σ²/δ², the rule in Kohavi, Tang & Xu, Trustworthy Online Controlled Experiments,
/// 2020, ch. 17) and c = the confidence sequence's half-width per SE at N units when the analysis
/// is sequential (then n is found by bisection; c grows with N, but slower than √N). σ² is the
/// variance per unit, SE² = σ²/n: σ²_A + σ²_B = n_A Var(R̂_A) + n_B Var(R̂_B) for independent arms
/// (equal arms assumed when planning), n·Var(δ̂) for paired units. The MDE is the true difference
/// that this test would detect with probability `power`; smaller true effects are usually missed,
/// so a "no detectable difference" row with a large MDE says little.
public struct PowerAnalysis: Sendable, Hashable {
    /// How the units behind SE are laid out.
    public enum Design: Sendable, Hashable {
        /// Different units in each arm: N = 2n units for n per arm.
        case independentArms
        /// The same units measured under both: N = n.
        case paired
    }

    /// The default target power, 80 %.
    public static let defaultPower = 0.8

    /// SE of the difference with the data at hand.
    public let standardError: Double
    /// σ², the variance per unit of each arm (SE² = σ²/n).
    public let unitVariance: Double
    public let design: Design
    /// The inference the test uses (fixed horizon or a confidence sequence with its N).
    public let inference: NormalInference
    /// The target power (1 − β).
    public let power: Double
    /// (c + z_{power})·SE, in the metric's unit.
    public let minimumDetectableEffect: Double

    /// - Parameters:
    ///   - standardError: SE of the difference (B − A) from the data.
    ///   - unitVariance: σ² (see the type's description).
    ///   - inference: `.fixedHorizon(alpha:)`, or `.confidenceSequence` with the data's N.
    /// - Throws: `StatsError.invalidInput` for a negative or non-finite SE or σ², or a power outside (0, 1).
    public init(standardError: Double, unitVariance: Double, design: Design, inference: NormalInference,
                power: Double = PowerAnalysis.defaultPower) throws(StatsError) {
        guard standardError >= 0, standardError.isFinite, unitVariance >= 0, unitVariance.isFinite else {
            throw .invalidInput("power needs a finite, non-negative standard error and variance, got \(standardError) and \(unitVariance)")
        }
        guard power > 0, power < 1 else { throw .invalidInput("power must lie in (0, 1), got \(power)") }
        self.standardError = standardError
        self.unitVariance = unitVariance
        self.design = design
        self.inference = inference
        self.power = power
        self.minimumDetectableEffect = (Self.criticalValue(inference) + StandardNormal.quantile(power)) * standardError
    }

    /// The MDE relative to the control's value, MDE/|A|; nil when A = 0.
    public func relativeMinimumDetectableEffect(control: Double) -> Double? {
        control != 0 && control.isFinite ? minimumDetectableEffect / abs(control) : nil
    }

    /// The chance that the test detects a true difference δ with the data at hand.
    public func power(effect delta: Double) -> Double {
        guard standardError > 0 else { return delta == 0 ? inference.alpha : 1 }
        let c = Self.criticalValue(inference), d = abs(delta) / standardError
        return StandardNormal.cdf(d - c) + StandardNormal.cdf(-d - c)
    }

    /// The units per arm (pairs, for a paired design) needed to detect `effect` with this power,
    /// keeping the variance per unit; nil when the effect is 0 or the variance unknown. Rounded up.
    public func unitsPerArm(for effect: EffectSize, control: Double) -> Int? {
        let delta = effect.absolute(control: control)
        guard delta > 0, delta.isFinite, unitVariance > 0 else { return nil }
        let zPower = StandardNormal.quantile(power)
        func detectable(_ n: Double) -> Double {
            let units = design == .independentArms ? 2 * n : n
            let c: Double
            switch inference {
            case .fixedHorizon: c = Self.criticalValue(inference)
            case let .confidenceSequence(alpha, _, tuning):
                c = ConfidenceSequence.halfWidth(standardError: 1, units: max(1, Int(units.rounded(.up))),
                                                 alpha: alpha, tuning: tuning)
            }
            return (c + zPower) * (unitVariance / n).squareRoot()
        }
        if case .fixedHorizon = inference {
            let n = pow((Self.criticalValue(inference) + zPower) / delta, 2) * unitVariance
            return n.isFinite && n < Double(Int.max) ? max(1, Int(n.rounded(.up))) : nil
        }
        // The detectable effect falls monotonically in n: double, then bisect on integers.
        var high = 1.0
        while detectable(high) > delta { high *= 2; if high > 1e15 { return nil } }
        var low = max(1, high / 2)
        if detectable(low) <= delta { return Int(low) }
        while high - low > 1 {
            let mid = ((low + high) / 2).rounded(.down)
            if detectable(mid) <= delta { high = mid } else { low = mid }
        }
        return Int(high)
    }

    /// c: z_{1−α/2}, or the confidence sequence's half-width per unit of SE at its N.
    static func criticalValue(_ inference: NormalInference) -> Double {
        inference.halfWidth(standardError: 1)
    }
}
