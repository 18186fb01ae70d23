// Ratio metrics over randomization units. When variants are assigned per user, a user's sessions
// are not independent (the same thumb, the same habits), so a rate of sessions is analysed as a
// ratio of two per-user means: Σ numerator / Σ denominator over users, with the delta-method
// variance of Deng, Knoblich & Lu, "Applying the Delta Method in Metric Analytics: A Practical
// Guide with Novel Ideas", KDD 2018, §3 — the form GrowthBook's gbstats (`RatioStatistic`,
// `variance_of_ratios`), Statsig and Eppo use for ratio metrics. The inputs are sums SQL computes
// per arm; partial sums over disjoint sets of users add up.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Sufficient statistics

/// The sufficient statistics of a ratio metric Y/X over n randomization units (users): n, ΣX,
/// ΣY, ΣX², ΣY², ΣXY, each sum over units of that unit's totals.
///
/// - A rate of sessions: X = the user's sessions, Y = the user's sessions with the event.
/// - A mean latency: X = the user's presses with that latency, Y = the sum of those latencies (ms).
/// - Sessions as units (`--unit session`): X = 1, Y = the session's value.
///
/// Merging: `a + b` is the summary of the union when every unit's sessions are in one of the two
/// (a user split across partials would count as two units). The Codable form uses the keys `n`,
/// `sum_x`, `sum_y`, `sum_x2`, `sum_y2`, `sum_xy`, which is what a partial aggregate serialises.
public struct RatioSummary: Sendable, Hashable, Codable {
    /// n, the number of units.
    public var units: Int
    /// ΣX, the sum of the denominators (e.g. sessions).
    public var denominatorSum: Double
    /// ΣY, the sum of the numerators (e.g. sessions with the event).
    public var numeratorSum: Double
    /// ΣX².
    public var denominatorSumOfSquares: Double
    /// ΣY².
    public var numeratorSumOfSquares: Double
    /// ΣXY.
    public var sumOfProducts: Double

    enum CodingKeys: String, CodingKey {
        case units = "n", denominatorSum = "sum_x", numeratorSum = "sum_y"
        case denominatorSumOfSquares = "sum_x2", numeratorSumOfSquares = "sum_y2", sumOfProducts = "sum_xy"
    }

    public init(units: Int, denominatorSum: Double, numeratorSum: Double, denominatorSumOfSquares: Double,
                numeratorSumOfSquares: Double, sumOfProducts: Double) {
        self.units = units
        self.denominatorSum = denominatorSum
        self.numeratorSum = numeratorSum
        self.denominatorSumOfSquares = denominatorSumOfSquares
        self.numeratorSumOfSquares = numeratorSumOfSquares
        self.sumOfProducts = sumOfProducts
    }

    /// The summary of nothing (the identity of `+`).
    public static let zero = RatioSummary(units: 0, denominatorSum: 0, numeratorSum: 0, denominatorSumOfSquares: 0,
                                          numeratorSumOfSquares: 0, sumOfProducts: 0)

    /// Sums per-unit totals (denominator X, numerator Y), one pair per unit.
    public init<S: Sequence>(units: S) where S.Element == (denominator: Double, numerator: Double) {
        self = .zero
        for u in units { add(denominator: u.denominator, numerator: u.numerator) }
    }

    /// Every session its own unit: X = 1 and Y ∈ {0, 1} per session (the session-level analysis).
    public init(proportion: Proportion) {
        let n = Double(proportion.trials), x = Double(proportion.successes)
        self.init(units: proportion.trials, denominatorSum: n, numeratorSum: x, denominatorSumOfSquares: n,
                  numeratorSumOfSquares: x, sumOfProducts: x)
    }

    /// Every value its own unit: X = 1 and Y = the value (the session-level analysis of a mean).
    public init(values summary: MeanSummary) {
        let n = Double(summary.count)
        self.init(units: summary.count, denominatorSum: n, numeratorSum: summary.sum, denominatorSumOfSquares: n,
                  numeratorSumOfSquares: summary.sumOfSquares, sumOfProducts: summary.sum)
    }

    /// Adds one unit's totals.
    public mutating func add(denominator x: Double, numerator y: Double) {
        units += 1
        denominatorSum += x
        numeratorSum += y
        denominatorSumOfSquares += x * x
        numeratorSumOfSquares += y * y
        sumOfProducts += x * y
    }

    public static func + (a: RatioSummary, b: RatioSummary) -> RatioSummary {
        RatioSummary(units: a.units + b.units, denominatorSum: a.denominatorSum + b.denominatorSum,
                     numeratorSum: a.numeratorSum + b.numeratorSum,
                     denominatorSumOfSquares: a.denominatorSumOfSquares + b.denominatorSumOfSquares,
                     numeratorSumOfSquares: a.numeratorSumOfSquares + b.numeratorSumOfSquares,
                     sumOfProducts: a.sumOfProducts + b.sumOfProducts)
    }

    public static func += (a: inout RatioSummary, b: RatioSummary) { a = a + b }

    /// R̂ = ΣY/ΣX, the metric (the same number as the session-level rate or mean); NaN when ΣX = 0.
    public var estimate: Double { denominatorSum != 0 ? numeratorSum / denominatorSum : .nan }

    /// X̄ = ΣX/n.
    public var denominatorMean: Double { denominatorSum / Double(units) }
    /// Ȳ = ΣY/n.
    public var numeratorMean: Double { numeratorSum / Double(units) }
    /// s²_X = (ΣX² − (ΣX)²/n)/(n − 1).
    public var denominatorVariance: Double { sampleCovariance(denominatorSumOfSquares, denominatorSum, denominatorSum) }
    /// s²_Y = (ΣY² − (ΣY)²/n)/(n − 1).
    public var numeratorVariance: Double { sampleCovariance(numeratorSumOfSquares, numeratorSum, numeratorSum) }
    /// s_XY = (ΣXY − ΣX ΣY/n)/(n − 1).
    public var covariance: Double { sampleCovariance(sumOfProducts, denominatorSum, numeratorSum) }

    /// The delta-method variance of R̂ (Deng, Knoblich & Lu 2018, §3, with the sample moments):
    ///   Var(R̂) ≈ (1/n) · (s²_Y/X̄² − 2 Ȳ s_XY/X̄³ + Ȳ² s²_X/X̄⁴).
    /// Equivalently Σ(Yᵢ − R̂Xᵢ)² · n/((n − 1)(ΣX)²): n/(n − 1) times the cluster-robust (CR0)
    /// variance of the mean of the sessions with users as clusters. NaN for n < 2 or ΣX = 0;
    /// rounding below 0 is clamped to 0.
    public var varianceOfEstimate: Double {
        guard units >= 2, denominatorSum != 0 else { return .nan }
        let mx = denominatorMean, my = numeratorMean
        let v = (numeratorVariance / (mx * mx) - 2 * my * covariance / (mx * mx * mx)
            + my * my * denominatorVariance / (mx * mx * mx * mx)) / Double(units)
        return max(0, v)
    }

    /// √Var(R̂).
    public var standardError: Double { varianceOfEstimate.squareRoot() }

    /// (Σab − Σa Σb/n)/(n − 1).
    func sampleCovariance(_ sumOfProducts: Double, _ sumA: Double, _ sumB: Double) -> Double {
        let n = Double(units)
        return (sumOfProducts - sumA * sumB / n) / (n - 1)
    }
}

extension RatioSummary {
    /// Kish's effective number of units, (ΣX)²/ΣX² (Kish, "Weighting for unequal Pi", J. Official
    /// Statistics 8:183–200, 1992: n over the design effect of weighting): n when
    /// every unit weighs the same, near 1 when one unit holds nearly all the weight.
    public var effectiveUnits: Double { denominatorSumOfSquares > 0 ? denominatorSum * denominatorSum / denominatorSumOfSquares : 0 }
}

/// The sufficient statistics of a ratio metric measured twice on the same units — the same
/// sessions replayed under configuration A and under B: per unit, X (e.g. its paired sessions),
/// Y_A (its value under A) and Y_B (under B). Sums over units of X, X², Y_A, Y_A², Y_B, Y_B², XY_A,
/// XY_B and Y_A·Y_B; `+` merges partials over disjoint units. Codable keys: `n`, `sum_x`,
/// `sum_x2`, `sum_ya`, `sum_ya2`, `sum_xya`, `sum_yb`, `sum_yb2`, `sum_xyb`, `sum_yayb`.
public struct PairedRatioSummary: Sendable, Hashable, Codable {
    public var units: Int
    /// ΣX and ΣX².
    public var denominatorSum: Double, denominatorSumOfSquares: Double
    /// ΣY_A, ΣY_A², ΣX·Y_A.
    public var controlSum: Double, controlSumOfSquares: Double, controlSumOfProducts: Double
    /// ΣY_B, ΣY_B², ΣX·Y_B.
    public var treatmentSum: Double, treatmentSumOfSquares: Double, treatmentSumOfProducts: Double
    /// ΣY_A·Y_B.
    public var crossSumOfProducts: Double

    enum CodingKeys: String, CodingKey {
        case units = "n", denominatorSum = "sum_x", denominatorSumOfSquares = "sum_x2"
        case controlSum = "sum_ya", controlSumOfSquares = "sum_ya2", controlSumOfProducts = "sum_xya"
        case treatmentSum = "sum_yb", treatmentSumOfSquares = "sum_yb2", treatmentSumOfProducts = "sum_xyb"
        case crossSumOfProducts = "sum_yayb"
    }

    public init(units: Int, denominatorSum: Double, denominatorSumOfSquares: Double,
                controlSum: Double, controlSumOfSquares: Double, controlSumOfProducts: Double,
                treatmentSum: Double, treatmentSumOfSquares: Double, treatmentSumOfProducts: Double,
                crossSumOfProducts: Double) {
        self.units = units
        self.denominatorSum = denominatorSum; self.denominatorSumOfSquares = denominatorSumOfSquares
        self.controlSum = controlSum; self.controlSumOfSquares = controlSumOfSquares
        self.controlSumOfProducts = controlSumOfProducts
        self.treatmentSum = treatmentSum; self.treatmentSumOfSquares = treatmentSumOfSquares
        self.treatmentSumOfProducts = treatmentSumOfProducts
        self.crossSumOfProducts = crossSumOfProducts
    }

    public static let zero = PairedRatioSummary(units: 0, denominatorSum: 0, denominatorSumOfSquares: 0, controlSum: 0,
                                                controlSumOfSquares: 0, controlSumOfProducts: 0, treatmentSum: 0,
                                                treatmentSumOfSquares: 0, treatmentSumOfProducts: 0, crossSumOfProducts: 0)

    /// Sums per-unit totals: X, Y under A, Y under B, one triple per unit.
    public init<S: Sequence>(units: S) where S.Element == (denominator: Double, control: Double, treatment: Double) {
        self = .zero
        for u in units { add(denominator: u.denominator, control: u.control, treatment: u.treatment) }
    }

    /// Every session its own unit (the session-level paired analysis of a rate), from McNemar's
    /// table: Y_A = 1 for the a + b sessions with the event under A, Y_B = 1 for the a + c under B.
    public init(table t: PairedCounts) {
        let n = Double(t.pairs), ya = Double(t.both + t.controlOnly), yb = Double(t.both + t.treatmentOnly)
        self.init(units: t.pairs, denominatorSum: n, denominatorSumOfSquares: n, controlSum: ya, controlSumOfSquares: ya,
                  controlSumOfProducts: ya, treatmentSum: yb, treatmentSumOfSquares: yb, treatmentSumOfProducts: yb,
                  crossSumOfProducts: Double(t.both))
    }

    /// Every pair its own unit: X = 1, Y_A = control[i], Y_B = treatment[i].
    /// - Throws: `StatsError.invalidInput` when the samples differ in length or hold a non-finite value.
    public init(control: [Double], treatment: [Double]) throws(StatsError) {
        guard control.count == treatment.count else {
            throw .invalidInput("paired samples differ in length: \(control.count) and \(treatment.count)")
        }
        try requireFinite(control, "control")
        try requireFinite(treatment, "treatment")
        self = .zero
        for (a, b) in zip(control, treatment) { add(denominator: 1, control: a, treatment: b) }
    }

    /// Adds one unit's totals.
    public mutating func add(denominator x: Double, control a: Double, treatment b: Double) {
        units += 1
        denominatorSum += x; denominatorSumOfSquares += x * x
        controlSum += a; controlSumOfSquares += a * a; controlSumOfProducts += x * a
        treatmentSum += b; treatmentSumOfSquares += b * b; treatmentSumOfProducts += x * b
        crossSumOfProducts += a * b
    }

    public static func + (l: PairedRatioSummary, r: PairedRatioSummary) -> PairedRatioSummary {
        PairedRatioSummary(
            units: l.units + r.units, denominatorSum: l.denominatorSum + r.denominatorSum,
            denominatorSumOfSquares: l.denominatorSumOfSquares + r.denominatorSumOfSquares,
            controlSum: l.controlSum + r.controlSum, controlSumOfSquares: l.controlSumOfSquares + r.controlSumOfSquares,
            controlSumOfProducts: l.controlSumOfProducts + r.controlSumOfProducts,
            treatmentSum: l.treatmentSum + r.treatmentSum,
            treatmentSumOfSquares: l.treatmentSumOfSquares + r.treatmentSumOfSquares,
            treatmentSumOfProducts: l.treatmentSumOfProducts + r.treatmentSumOfProducts,
            crossSumOfProducts: l.crossSumOfProducts + r.crossSumOfProducts)
    }

    public static func += (a: inout PairedRatioSummary, b: PairedRatioSummary) { a = a + b }

    /// The ratio under A: Y_A/X per unit.
    public var control: RatioSummary {
        RatioSummary(units: units, denominatorSum: denominatorSum, numeratorSum: controlSum,
                     denominatorSumOfSquares: denominatorSumOfSquares, numeratorSumOfSquares: controlSumOfSquares,
                     sumOfProducts: controlSumOfProducts)
    }

    /// The ratio under B: Y_B/X per unit.
    public var treatment: RatioSummary {
        RatioSummary(units: units, denominatorSum: denominatorSum, numeratorSum: treatmentSum,
                     denominatorSumOfSquares: denominatorSumOfSquares, numeratorSumOfSquares: treatmentSumOfSquares,
                     sumOfProducts: treatmentSumOfProducts)
    }

    /// The ratio of the differences, (Y_B − Y_A)/X per unit, whose estimate is R̂_B − R̂_A and whose
    /// delta-method variance is Var(R̂_A) + Var(R̂_B) − 2 Cov(R̂_A, R̂_B).
    public var difference: RatioSummary {
        RatioSummary(units: units, denominatorSum: denominatorSum, numeratorSum: treatmentSum - controlSum,
                     denominatorSumOfSquares: denominatorSumOfSquares,
                     numeratorSumOfSquares: treatmentSumOfSquares - 2 * crossSumOfProducts + controlSumOfSquares,
                     sumOfProducts: treatmentSumOfProducts - controlSumOfProducts)
    }

    /// The delta-method covariance of R̂_A and R̂_B: with the linearised residuals
    /// e_j = (Y_j − R̂_j X)/X̄, Cov ≈ Σ e_A e_B/((n − 1) n) = Σ(Y_A − R̂_A X)(Y_B − R̂_B X) · n/((n − 1)(ΣX)²)
    /// (Deng, Knoblich & Lu 2018, §3, for two ratios over the same units). NaN for n < 2 or ΣX = 0.
    public var covarianceOfEstimates: Double {
        guard units >= 2, denominatorSum != 0 else { return .nan }
        let ra = control.estimate, rb = treatment.estimate, n = Double(units)
        let cross = crossSumOfProducts - rb * controlSumOfProducts - ra * treatmentSumOfProducts
            + ra * rb * denominatorSumOfSquares
        return cross * n / ((n - 1) * denominatorSum * denominatorSum)
    }
}

// MARK: - Tests of a difference

/// The relative difference R_B/R_A − 1 of two positive estimates with a delta-method interval on
/// the log scale: with L = ln R̂_B − ln R̂_A,
///   Var(L) ≈ Var(R̂_B)/R̂_B² + Var(R̂_A)/R̂_A² − 2 Cov(R̂_A, R̂_B)/(R̂_A R̂_B)
/// (the delta method for ln, e.g. Casella & Berger, Statistical Inference, Thm 5.5.24; Deng,
/// Knoblich & Lu 2018, §3.3 for relative differences), and the interval
/// [exp(L − h) − 1, exp(L + h) − 1] with h = z_{1−α/2}·SE(L), or a confidence sequence's half-width.
/// Unlike the linear delta-method interval it can never pass −100 %.
public struct LogScaleRelativeDifference: Sendable, Hashable {
    /// R̂_B/R̂_A − 1; e.g. −0.2 means B is 20 % lower than A.
    public let estimate: Double
    /// L = ln(R̂_B/R̂_A).
    public let logRatio: Double
    /// SE(L).
    public let standardError: Double
    /// [exp(L − h) − 1, exp(L + h) − 1].
    public let interval: ConfidenceInterval

    /// - Parameters: the two estimates (both > 0), the variances of the estimates, their covariance
    ///   (0 for independent arms) and the inference that turns SE(L) into a half-width.
    /// - Returns: nil when an estimate is not positive (the log scale is undefined).
    public init?(control a: Double, controlVariance varA: Double, treatment b: Double, treatmentVariance varB: Double,
                 covariance: Double = 0, inference: NormalInference) {
        guard a > 0, b > 0, a.isFinite, b.isFinite else { return nil }
        let variance = max(0, varB / (b * b) + varA / (a * a) - 2 * covariance / (a * b))
        let l = log(b / a), se = variance.squareRoot()
        let h = inference.halfWidth(standardError: se)
        self.estimate = b / a - 1
        self.logRatio = l
        self.standardError = se
        self.interval = ConfidenceInterval(lower: expm1(l - h), upper: expm1(l + h), level: 1 - inference.alpha)
    }
}

/// The z-test of H₀: R_A = R_B for ratio metrics with delta-method variances (Deng, Knoblich & Lu
/// 2018, §3; GrowthBook's frequentist ratio-metric test):
///   δ = R̂_B − R̂_A,  SE = √(Var(R̂_A) + Var(R̂_B) − 2 Cov(R̂_A, R̂_B)),  z = δ/SE,
///   p = 2(1 − Φ(|z|)),  interval δ ± z_{1−α/2}·SE — or, with `NormalInference.confidenceSequence`,
///   the always-valid p-value and confidence sequence of `ConfidenceSequence`.
/// Cov = 0 for independent arms (users split between variants). For the same units measured twice
/// (paired replays) Cov comes from `PairedRatioSummary`; for a rate this is Obuchowski's
/// cluster-adjusted McNemar statistic ("On the comparison of correlated proportions for clustered
/// data", Statistics in Medicine 17:1495–1507, 1998) in its Wald form — the variances
/// K/(K − 1)·Σ(x_jk − n_k p̂_j)²/N² estimated at p̂_A and p̂_B rather than at the pooled p̄, so that
/// the test and the interval are one procedure — and for a mean latency it is the paired z-test on
/// per-user sums of the differences B − A. The p-value and the interval always agree: p < α exactly
/// when the interval excludes 0.
public struct DeltaMethodZTest: Sendable, Hashable {
    /// R̂_A, R̂_B with their delta-method standard errors.
    public let control: Double, controlStandardError: Double
    public let treatment: Double, treatmentStandardError: Double
    /// δ = R̂_B − R̂_A.
    public let difference: Double
    /// SE(δ).
    public let standardError: Double
    /// z = δ/SE (0 when SE = 0 and δ = 0, ±∞ when SE = 0 and δ ≠ 0).
    public let z: Double
    /// The two-sided p-value (always valid under a confidence sequence).
    public let pValue: Double
    /// The interval (or confidence sequence) for δ.
    public let interval: ConfidenceInterval
    /// R̂_B/R̂_A − 1 on the log scale; nil when an estimate is not positive.
    public let relativeDifference: LogScaleRelativeDifference?
    /// The number of units N behind both arms (n_A + n_B, or n for paired units).
    public let units: Int

    /// Two independent arms (different users).
    /// - Throws: `StatsError.tooFewObservations` when an arm has fewer than 2 units,
    ///   `.invalidInput` when an arm's ΣX is 0 or α is outside (0, 1).
    public init(control a: RatioSummary, treatment b: RatioSummary, inference: NormalInference) throws(StatsError) {
        try Self.check(a)
        try Self.check(b)
        self.init(ra: a.estimate, va: a.varianceOfEstimate, rb: b.estimate, vb: b.varianceOfEstimate, covariance: 0,
                  units: a.units + b.units, inference: inference)
    }

    /// The same units under both configurations.
    /// - Throws: as the independent form, for the paired units.
    public init(paired p: PairedRatioSummary, inference: NormalInference) throws(StatsError) {
        try Self.check(p.control)
        self.init(ra: p.control.estimate, va: p.control.varianceOfEstimate, rb: p.treatment.estimate,
                  vb: p.treatment.varianceOfEstimate, covariance: p.covarianceOfEstimates, units: p.units,
                  inference: inference, differenceVariance: p.difference.varianceOfEstimate)
    }

    /// Two independent arms given by their estimates and variances (CUPED's adjusted ones).
    init(estimates ra: Double, controlVariance va: Double, treatment rb: Double, treatmentVariance vb: Double,
         units: Int, inference: NormalInference) {
        self.init(ra: ra, va: va, rb: rb, vb: vb, covariance: 0, units: units, inference: inference)
    }

    private init(ra: Double, va: Double, rb: Double, vb: Double, covariance: Double, units: Int,
                 inference: NormalInference, differenceVariance: Double? = nil) {
        let delta = rb - ra
        let se = max(0, differenceVariance ?? (va + vb - 2 * covariance)).squareRoot()
        let result = inference.test(estimate: delta, standardError: se)
        self.control = ra; self.controlStandardError = va.squareRoot()
        self.treatment = rb; self.treatmentStandardError = vb.squareRoot()
        self.difference = delta
        self.standardError = se
        self.z = result.z
        self.pValue = result.pValue
        self.interval = result.interval
        self.relativeDifference = LogScaleRelativeDifference(control: ra, controlVariance: va, treatment: rb,
                                                             treatmentVariance: vb, covariance: covariance,
                                                             inference: inference)
        self.units = units
    }

    private static func check(_ s: RatioSummary) throws(StatsError) {
        guard s.units >= 2 else { throw .tooFewObservations(needed: 2, got: s.units) }
        guard s.denominatorSum != 0 else { throw .invalidInput("the ratio's denominator sums to 0 over \(s.units) units") }
    }
}

// MARK: - From a standard error to an interval and a p-value

/// How a normal-theory estimate with a standard error becomes an interval and a p-value: a
/// fixed-horizon analysis (look once) or an always-valid confidence sequence (look as often as you
/// like). One value describes the whole comparison, so every row of a report is read the same way.
public enum NormalInference: Sendable, Hashable {
    /// δ ± z_{1−α/2}·SE and p = 2(1 − Φ(|δ|/SE)).
    case fixedHorizon(alpha: Double)
    /// Waudby-Smith et al.'s asymptotic confidence sequence for N units (`ConfidenceSequence`).
    case confidenceSequence(alpha: Double, units: Int, tuning: Double)

    public var alpha: Double {
        switch self {
        case .fixedHorizon(let a), .confidenceSequence(let a, _, _): a
        }
    }

    /// Whether the interval and p-value stay valid under continuous monitoring.
    public var isSequential: Bool { if case .confidenceSequence = self { true } else { false } }

    /// The half-width for a standard error.
    public func halfWidth(standardError se: Double) -> Double {
        switch self {
        case .fixedHorizon(let alpha):
            return normalCriticalValue(alpha: alpha) * se
        case let .confidenceSequence(alpha, units, tuning):
            return ConfidenceSequence.halfWidth(standardError: se, units: units, alpha: alpha, tuning: tuning)
        }
    }

    /// z = δ/SE, the two-sided p-value and the interval, which agree: p < α exactly when the
    /// interval excludes 0. SE = 0 gives p = 1 for δ = 0 (all mass tied) and p = 0 otherwise.
    public func test(estimate delta: Double, standardError se: Double) -> (z: Double, pValue: Double, interval: ConfidenceInterval) {
        let h = halfWidth(standardError: se)
        let interval = ConfidenceInterval(lower: delta - h, upper: delta + h, level: 1 - alpha)
        guard se > 0 else {
            return (delta == 0 ? 0 : (delta > 0 ? .infinity : -.infinity), delta == 0 ? 1 : 0, interval)
        }
        let z = delta / se
        switch self {
        case .fixedHorizon:
            return (z, StandardNormal.twoSidedPValue(z), interval)
        case let .confidenceSequence(alpha, units, tuning):
            return (z, ConfidenceSequence.pValue(z: z, units: units, alpha: alpha, tuning: tuning), interval)
        }
    }
}
