// Proportions (cancellation rate, abort rate, tap rate): intervals for one proportion and for the
// difference of two, the pooled z-test, Fisher's exact test and the relative difference.
// Convention for two arms: A is the control (baseline configuration), B the treatment (candidate);
// every difference is B − A.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Wilson score interval

/// The Wilson score interval for one binomial proportion (Wilson 1927), optionally with a
/// continuity correction — methods 3 and 4 of Newcombe, "Two-sided confidence intervals for the
/// single proportion: comparison of seven methods", Statistics in Medicine 17:857–872 (1998).
public struct WilsonInterval: Sendable, Hashable {
    /// The observed successes of trials.
    public let proportion: Proportion
    /// p̂ = x/n.
    public let estimate: Double
    /// z = z_{1−α/2}.
    public let criticalValue: Double
    /// Whether the continuity-corrected form was used.
    public let continuityCorrected: Bool
    /// The interval; contains p̂, within [0, 1].
    public let interval: ConfidenceInterval

    /// - Throws: `StatsError` when n = 0, x ∉ 0…n, or α ∉ (0, 1).
    public init(
        _ proportion: Proportion,
        alpha: Double = StatsConfiguration.defaultAlpha,
        continuityCorrection: Bool = false
    ) throws(StatsError) {
        try validate(alpha: alpha)
        self.proportion = try proportion.validated()
        let n = Double(proportion.trials), p = proportion.estimate
        let z = normalCriticalValue(alpha: alpha)
        let z2 = z * z
        var lower: Double, upper: Double
        if continuityCorrection {
            // Newcombe (1998) eq. for method 4:
            // L = [2np̂ + z² − 1 − z√(z² − 2 − 1/n + 4p̂(n(1 − p̂) + 1))] / [2(n + z²)],
            // U = [2np̂ + z² + 1 + z√(z² + 2 − 1/n + 4p̂(n(1 − p̂) − 1))] / [2(n + z²)].
            let denominator = 2 * (n + z2)
            let lowerRoot = max(0, z2 - 2 - 1 / n + 4 * p * (n * (1 - p) + 1)).squareRoot()
            let upperRoot = max(0, z2 + 2 - 1 / n + 4 * p * (n * (1 - p) - 1)).squareRoot()
            lower = (2 * n * p + z2 - 1 - z * lowerRoot) / denominator
            upper = (2 * n * p + z2 + 1 + z * upperRoot) / denominator
        } else {
            // Wilson (1927): (p̂ + z²/2n ± z√(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n).
            let denominator = 1 + z2 / n
            let centre = (p + z2 / (2 * n)) / denominator
            let halfWidth = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / denominator
            lower = centre - halfWidth
            upper = centre + halfWidth
        }
        // At x = 0 and x = n the bound is exactly 0 or 1 (Newcombe: "L = 0 if p̂ = 0, U = 1 if p̂ = 1").
        if proportion.successes == 0 { lower = 0 }
        if proportion.successes == proportion.trials { upper = 1 }
        self.estimate = p
        self.criticalValue = z
        self.continuityCorrected = continuityCorrection
        self.interval = ConfidenceInterval(
            lower: min(max(lower, 0), p), upper: max(min(upper, 1), p), level: 1 - alpha)
    }
}

// MARK: - Newcombe's hybrid score interval

/// Newcombe's hybrid score interval for the difference of two independent proportions, p_B − p_A:
/// method 10 of Newcombe, "Interval estimation for the difference between independent proportions:
/// comparison of eleven methods", Statistics in Medicine 17:873–890 (1998). It combines the two
/// Wilson intervals (l_A, u_A), (l_B, u_B):
///   L = δ − √((p_B − l_B)² + (u_A − p_A)²),  U = δ + √((u_B − p_B)² + (p_A − l_A)²),  δ = p_B − p_A.
public struct NewcombeInterval: Sendable, Hashable {
    /// Wilson interval of the control arm A.
    public let control: WilsonInterval
    /// Wilson interval of the treatment arm B.
    public let treatment: WilsonInterval
    /// δ = p̂_B − p̂_A.
    public let difference: Double
    /// The interval for δ; within [−1, 1], contains δ.
    public let interval: ConfidenceInterval

    /// - Throws: `StatsError` when an arm has no trials or invalid counts, or α ∉ (0, 1).
    public init(
        control: Proportion, treatment: Proportion,
        alpha: Double = StatsConfiguration.defaultAlpha,
        continuityCorrection: Bool = false
    ) throws(StatsError) {
        let a = try WilsonInterval(control, alpha: alpha, continuityCorrection: continuityCorrection)
        let b = try WilsonInterval(treatment, alpha: alpha, continuityCorrection: continuityCorrection)
        let pA = a.estimate, pB = b.estimate
        let delta = pB - pA
        let lower = delta - ((pB - b.interval.lower) * (pB - b.interval.lower)
            + (a.interval.upper - pA) * (a.interval.upper - pA)).squareRoot()
        let upper = delta + ((b.interval.upper - pB) * (b.interval.upper - pB)
            + (pA - a.interval.lower) * (pA - a.interval.lower)).squareRoot()
        self.control = a
        self.treatment = b
        self.difference = delta
        self.interval = ConfidenceInterval(lower: lower, upper: upper, level: 1 - alpha)
    }
}

// MARK: - Two-proportion z-test

/// The pooled two-proportion z-test of H₀: p_A = p_B (e.g. Agresti, Categorical Data Analysis, §3.1;
/// equal to Pearson's χ² test of the 2×2 table without continuity correction, z² = χ²).
///   p̄ = (x_A + x_B)/(n_A + n_B),  SE = √(p̄(1 − p̄)(1/n_A + 1/n_B)),  z = (p̂_B − p̂_A)/SE.
public struct TwoProportionZTest: Sendable, Hashable {
    /// p̄, the pooled proportion under H₀.
    public let pooledProportion: Double
    /// δ = p̂_B − p̂_A.
    public let difference: Double
    /// SE of δ under H₀.
    public let standardError: Double
    /// z = δ / SE (0 when SE = 0, i.e. both arms all successes or all failures).
    public let z: Double
    /// Two-sided p-value, 2(1 − Φ(|z|)).
    public let pValue: Double

    /// - Throws: `StatsError` when an arm has no trials or invalid counts.
    public init(control: Proportion, treatment: Proportion) throws(StatsError) {
        let a = try control.validated(), b = try treatment.validated()
        let pooled = Double(a.successes + b.successes) / Double(a.trials + b.trials)
        let se = (pooled * (1 - pooled) * (1 / Double(a.trials) + 1 / Double(b.trials))).squareRoot()
        let delta = b.estimate - a.estimate
        self.pooledProportion = pooled
        self.difference = delta
        self.standardError = se
        self.z = se > 0 ? delta / se : 0
        self.pValue = StandardNormal.twoSidedPValue(z)
    }
}

// MARK: - Fisher's exact test

/// Fisher's exact test of independence in a 2×2 table [[a, b], [c, d]] (Fisher, The Design of
/// Experiments, 1935, §2). Conditioning on the margins, a is hypergeometric; the two-sided p-value
/// sums the probabilities of every table no more probable than the observed one, with R's relative
/// tolerance 1 + 10⁻⁷ so that tables of equal probability are not lost to rounding.
public struct FisherExactTest: Sendable, Hashable {
    /// The table, rows first: [[a, b], [c, d]].
    public let a: Int, b: Int, c: Int, d: Int
    /// P(observed table | margins).
    public let observedProbability: Double
    /// Two-sided p-value.
    public let pValue: Double

    /// Relative tolerance when comparing table probabilities (R's `fisher.test` uses 1 + 10⁻⁷).
    public static let relativeTolerance = 1e-7

    /// - Throws: `StatsError.invalidInput` for a negative cell.
    public init(a: Int, b: Int, c: Int, d: Int) throws(StatsError) {
        guard a >= 0, b >= 0, c >= 0, d >= 0 else {
            throw .invalidInput("table cells must be non-negative, got [[\(a), \(b)], [\(c), \(d)]]")
        }
        self.a = a; self.b = b; self.c = c; self.d = d
        let distribution = Hypergeometric(populationSize: a + b + c + d, successesInPopulation: a + c, draws: a + b)
        let support = distribution.support
        // Normalise in logs against the mode, so that large tables neither underflow nor lose digits.
        let logs = support.map { distribution.logPMF($0) }
        let maximum = logs.max() ?? 0
        let weights = logs.map { exp($0 - maximum) }
        let total = weights.reduce(0, +)
        let observed = weights[a - support.lowerBound]
        var sum = 0.0
        for w in weights where w <= observed * (1 + Self.relativeTolerance) { sum += w }
        self.observedProbability = observed / total
        self.pValue = min(1, sum / total)
    }

    /// The table with one row per arm: [[x_A, n_A − x_A], [x_B, n_B − x_B]].
    public init(control: Proportion, treatment: Proportion) throws(StatsError) {
        let a = try control.validated(), b = try treatment.validated()
        try self.init(a: a.successes, b: a.failures, c: b.successes, d: b.failures)
    }
}

// MARK: - Comparison of two proportions

/// Everything `pressdb compare` reports for a rate: the difference B − A with Newcombe's interval,
/// the p-value of the z-test or, when any cell of the 2×2 table is small, of Fisher's exact test,
/// and the relative difference.
public struct ProportionComparison: Sendable, Hashable {
    /// Which test produced `pValue`.
    public enum Test: String, Sendable, Hashable {
        case twoProportionZTest = "two-proportion z-test"
        case fisherExact = "Fisher's exact test"
    }

    public let control: Proportion
    public let treatment: Proportion
    /// δ = p̂_B − p̂_A with Newcombe's hybrid score interval.
    public let difference: NewcombeInterval
    /// The test used: the z-test, or Fisher's when any cell < `minimumCellCountForZTest`.
    public let test: Test
    /// Two-sided p-value of H₀: p_A = p_B.
    public let pValue: Double
    /// p_B/p_A − 1 with its interval on the log scale — the delta method for ln(p̂_B/p̂_A), with
    /// Var(ln p̂) = (1 − p̂)/(n p̂): Katz, Baptista, Azen & Pike, "Obtaining confidence intervals for
    /// the risk ratio in cohort studies", Biometrics 34:469–474, 1978 (statsmodels'
    /// `confint_proportions_2indep(method='log', compare='ratio')`), so it never passes −100 %;
    /// nil when p̂_A or p̂_B is 0.
    public let relativeDifference: LogScaleRelativeDifference?

    /// - Throws: `StatsError` when an arm has no trials or invalid counts, or α ∉ (0, 1).
    public init(control: Proportion, treatment: Proportion, configuration: StatsConfiguration = StatsConfiguration()) throws(StatsError) {
        self.control = control
        self.treatment = treatment
        self.difference = try NewcombeInterval(control: control, treatment: treatment, alpha: configuration.alpha)
        let cells = [control.successes, control.failures, treatment.successes, treatment.failures]
        if cells.contains(where: { $0 < configuration.minimumCellCountForZTest }) {
            self.test = .fisherExact
            self.pValue = try FisherExactTest(control: control, treatment: treatment).pValue
        } else {
            self.test = .twoProportionZTest
            self.pValue = try TwoProportionZTest(control: control, treatment: treatment).pValue
        }
        let a = try control.validated(), b = try treatment.validated()
        self.relativeDifference = LogScaleRelativeDifference(
            control: a.estimate, controlVariance: a.varianceOfEstimate, treatment: b.estimate,
            treatmentVariance: b.varianceOfEstimate, inference: .fixedHorizon(alpha: configuration.alpha))
    }
}
