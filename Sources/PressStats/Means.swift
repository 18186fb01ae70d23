// Means (e.g. mean feedback latency): Welch's t-test from sufficient statistics.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Welch's unequal-variances t-test of H₀: μ_A = μ_B, from each arm's n, Σx, Σx² (Welch,
/// "The generalization of 'Student's' problem when several different population variances are
/// involved", Biometrika 34:28–35, 1947).
///   δ = x̄_B − x̄_A,  SE = √(s_A²/n_A + s_B²/n_B),  t = δ/SE,
///   ν = SE⁴ / ((s_A²/n_A)²/(n_A − 1) + (s_B²/n_B)²/(n_B − 1))   (Welch–Satterthwaite),
///   interval δ ± t_{1−α/2, ν} · SE.
public struct WelchTTest: Sendable, Hashable {
    public let control: MeanSummary
    public let treatment: MeanSummary
    /// δ = x̄_B − x̄_A, in the unit of the data.
    public let difference: Double
    /// SE of δ.
    public let standardError: Double
    /// t = δ/SE; 0 when SE = 0 and δ = 0, ±∞ when SE = 0 and δ ≠ 0.
    public let t: Double
    /// ν, the Welch–Satterthwaite degrees of freedom (not an integer in general).
    public let degreesOfFreedom: Double
    /// t_{1−α/2, ν}, the critical value of the interval.
    public let criticalValue: Double
    /// Two-sided p-value, 2 P(T_ν > |t|).
    public let pValue: Double
    /// δ ± t_{1−α/2, ν} · SE.
    public let interval: ConfidenceInterval

    /// - Throws: `StatsError.tooFewObservations` when an arm has fewer than 2 observations;
    ///   `.invalidInput` when α ∉ (0, 1).
    public init(control: MeanSummary, treatment: MeanSummary, alpha: Double = StatsConfiguration.defaultAlpha) throws(StatsError) {
        try validate(alpha: alpha)
        guard control.count >= 2 else { throw .tooFewObservations(needed: 2, got: control.count) }
        guard treatment.count >= 2 else { throw .tooFewObservations(needed: 2, got: treatment.count) }
        let vA = control.varianceOfMean, vB = treatment.varianceOfMean
        let se2 = vA + vB
        let se = se2.squareRoot()
        let delta = treatment.mean - control.mean
        self.control = control
        self.treatment = treatment
        self.difference = delta
        self.standardError = se
        if se2 > 0 {
            let nu = se2 * se2 / (vA * vA / Double(control.count - 1) + vB * vB / Double(treatment.count - 1))
            let distribution = StudentT(degreesOfFreedom: nu)
            let tCritical = distribution.quantile(1 - alpha / 2)
            self.t = delta / se
            self.degreesOfFreedom = nu
            self.criticalValue = tCritical
            self.pValue = distribution.twoSidedPValue(delta / se)
            self.interval = ConfidenceInterval(lower: delta - tCritical * se, upper: delta + tCritical * se, level: 1 - alpha)
        } else {
            // Both arms constant: the difference is known exactly.
            self.t = delta == 0 ? 0 : (delta > 0 ? .infinity : -.infinity)
            self.degreesOfFreedom = Double(control.count + treatment.count - 2)
            self.criticalValue = StudentT(degreesOfFreedom: degreesOfFreedom).quantile(1 - alpha / 2)
            self.pValue = delta == 0 ? 1 : 0
            self.interval = ConfidenceInterval(lower: delta, upper: delta, level: 1 - alpha)
        }
    }
}

/// Everything `pressdb compare` reports for a mean: Welch's test with the interval of B − A, and
/// the relative difference x̄_B/x̄_A − 1 with its delta-method interval on the log scale
/// (`LogScaleRelativeDifference`, Var(x̄) = s²/n), which never passes −100 %; nil unless both
/// means are positive.
public struct MeanComparison: Sendable, Hashable {
    public let welch: WelchTTest
    public let relativeDifference: LogScaleRelativeDifference?

    /// - Throws: as `WelchTTest`.
    public init(control: MeanSummary, treatment: MeanSummary, configuration: StatsConfiguration = StatsConfiguration()) throws(StatsError) {
        self.welch = try WelchTTest(control: control, treatment: treatment, alpha: configuration.alpha)
        self.relativeDifference = LogScaleRelativeDifference(
            control: control.mean, controlVariance: control.varianceOfMean, treatment: treatment.mean,
            treatmentVariance: treatment.varianceOfMean, inference: .fixedHorizon(alpha: configuration.alpha))
    }
}
