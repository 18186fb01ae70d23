// Always-valid inference: confidence sequences that may be looked at after every batch of data
// (every day of an experiment) without inflating the chance of a false "better" or "worse".
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The asymptotic confidence sequence of Waudby-Smith, Arbour, Sinha, Kennedy & Ramdas,
/// "Time-uniform central limit theory and asymptotic confidence sequences" (arXiv 2103.06476,
/// 2023; the Gaussian-mixture asymptotic confidence sequence), in the form GrowthBook ships
/// (growthbook/growthbook, packages/tsgbstats/src/frequentist/tests.ts: `sequentialRho`,
/// `sequentialIntervalHalfwidth`, `SequentialTwoSidedTTest.pValue`). For an estimate δ̂ with
/// standard error SE after N units (n_A + n_B; the pairs in a paired comparison):
///   s² = SE²·N,
///   ρ = √((−2 ln α + ln(−2 ln α + 1)) / N*),
///   half-width = √(s²) · √(2(Nρ² + 1)/(N²ρ²) · ln(√(Nρ² + 1)/α)),
/// where N* (the tuning, default 5000) is the number of units at which the sequence is narrowest
/// relative to a fixed-horizon interval. With probability ≥ 1 − α the sequence covers the true
/// difference at every N at once, so a team can look every day and stop whenever it likes.
///
/// The always-valid p-value is the smallest α at which the sequence excludes 0, with ρ held at its
/// configured value: solving half-width(α) = |δ̂| (the half-width falls monotonically in α) gives
///   p = min(1, √(Nρ² + 1) · exp(−Nρ² z²/(2(Nρ² + 1)))),  z = δ̂/SE,
/// the reciprocal of the mixture martingale's e-value (GrowthBook's comment cites eq. 155 of the
/// paper's v7). So p < α exactly when the sequence at α excludes 0.
public struct ConfidenceSequence: Sendable, Hashable {
    /// GrowthBook's default tuning N*.
    public static let defaultTuning = 5000.0

    public let estimate: Double
    public let standardError: Double
    /// N, the units behind the estimate.
    public let units: Int
    public let alpha: Double
    /// N*.
    public let tuning: Double
    /// ρ.
    public let rho: Double
    /// The sequence's half-width at N.
    public let halfWidth: Double
    /// estimate ± half-width.
    public let interval: ConfidenceInterval
    /// The always-valid two-sided p-value.
    public let pValue: Double
    /// half-width / (z_{1−α/2}·SE): how much wider than the fixed-horizon interval.
    public let wideningFactor: Double

    /// - Throws: `StatsError.invalidInput` for α ∉ (0, 1), N < 1, N* ≤ 0, or a negative or
    ///   non-finite standard error.
    public init(estimate: Double, standardError: Double, units: Int, alpha: Double = StatsConfiguration.defaultAlpha,
                tuning: Double = ConfidenceSequence.defaultTuning) throws(StatsError) {
        try PressStats.validate(alpha: alpha)
        try Self.validate(units: units, tuning: tuning)
        guard standardError >= 0, standardError.isFinite else {
            throw .invalidInput("a standard error must be finite and non-negative, got \(standardError)")
        }
        let inference = NormalInference.confidenceSequence(alpha: alpha, units: units, tuning: tuning)
        let result = inference.test(estimate: estimate, standardError: standardError)
        self.estimate = estimate
        self.standardError = standardError
        self.units = units
        self.alpha = alpha
        self.tuning = tuning
        self.rho = Self.rho(alpha: alpha, tuning: tuning)
        self.halfWidth = Self.halfWidth(standardError: standardError, units: units, alpha: alpha, tuning: tuning)
        self.interval = result.interval
        self.pValue = result.pValue
        self.wideningFactor = Self.halfWidth(standardError: 1, units: units, alpha: alpha, tuning: tuning)
            / normalCriticalValue(alpha: alpha)
    }

    static func validate(units: Int, tuning: Double) throws(StatsError) {
        guard units >= 1 else { throw .invalidInput("a confidence sequence needs at least one unit, got \(units)") }
        guard tuning > 0, tuning.isFinite else { throw .invalidInput("the tuning N* must be positive, got \(tuning)") }
    }

    /// ρ = √((−2 ln α + ln(−2 ln α + 1)) / N*).
    public static func rho(alpha: Double, tuning: Double) -> Double {
        let l = -2 * log(alpha)
        return ((l + log(l + 1)) / tuning).squareRoot()
    }

    /// √(SE²N) · √(2(Nρ² + 1)/(N²ρ²) · ln(√(Nρ² + 1)/α)).
    public static func halfWidth(standardError se: Double, units: Int, alpha: Double, tuning: Double) -> Double {
        let n = Double(units), r2 = rho(alpha: alpha, tuning: tuning) * rho(alpha: alpha, tuning: tuning)
        let s2 = se * se * n
        return (s2 * 2 * (n * r2 + 1) / (n * n * r2) * log((n * r2 + 1).squareRoot() / alpha)).squareRoot()
    }

    /// min(1, √(Nρ² + 1) · exp(−Nρ² z²/(2(Nρ² + 1)))).
    public static func pValue(z: Double, units: Int, alpha: Double, tuning: Double) -> Double {
        let n = Double(units), r2 = rho(alpha: alpha, tuning: tuning) * rho(alpha: alpha, tuning: tuning)
        let t = n * r2 + 1
        return min(1, t.squareRoot() * exp(-n * r2 * z * z / (2 * t)))
    }
}
