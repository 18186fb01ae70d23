// CUPED for ratio metrics over users: each user's pre-experiment value of the same metric is the
// covariate that removes the part of the in-experiment variance users carry with them (Deng, Xu,
// Kohavi & Walker, "Improving the Sensitivity of Online Controlled Experiments by Utilizing
// Pre-Experiment Data", WSDM 2013). A rate or mean by user is a ratio of sums, so both the metric
// and the covariate enter through their delta-method linearisations (Deng, Knoblich & Lu, "Applying
// the Delta Method in Metric Analytics", KDD 2018, which gives CUPED for ratio metrics this way).
// The inputs are sums over users, so SQL or a partial can compute them and disjoint users add.

/// The sufficient statistics of a ratio metric Y/X and its pre-experiment covariate Yc/Xc over the
/// same units: the two `RatioSummary`s and the four cross sums ΣY·Yc, ΣY·Xc, ΣX·Yc, ΣX·Xc. A unit
/// without pre-experiment data has Xc = Yc = 0.
public struct CovariateRatioSummary: Sendable, Hashable {
    /// X and Y in the experiment.
    public var metric: RatioSummary
    /// Xc and Yc before it (same units; zeros for a unit without pre-experiment data).
    public var covariate: RatioSummary
    /// ΣY·Yc, ΣY·Xc, ΣX·Yc, ΣX·Xc.
    public var numeratorTimesCovariateNumerator: Double, numeratorTimesCovariateDenominator: Double
    public var denominatorTimesCovariateNumerator: Double, denominatorTimesCovariateDenominator: Double
    /// Units with pre-experiment data (Xc > 0).
    public var unitsWithCovariate: Int

    public static let zero = CovariateRatioSummary(metric: .zero, covariate: .zero, numeratorTimesCovariateNumerator: 0,
                                                   numeratorTimesCovariateDenominator: 0, denominatorTimesCovariateNumerator: 0,
                                                   denominatorTimesCovariateDenominator: 0, unitsWithCovariate: 0)

    public init(metric: RatioSummary, covariate: RatioSummary, numeratorTimesCovariateNumerator: Double,
                numeratorTimesCovariateDenominator: Double, denominatorTimesCovariateNumerator: Double,
                denominatorTimesCovariateDenominator: Double, unitsWithCovariate: Int) {
        self.metric = metric; self.covariate = covariate
        self.numeratorTimesCovariateNumerator = numeratorTimesCovariateNumerator
        self.numeratorTimesCovariateDenominator = numeratorTimesCovariateDenominator
        self.denominatorTimesCovariateNumerator = denominatorTimesCovariateNumerator
        self.denominatorTimesCovariateDenominator = denominatorTimesCovariateDenominator
        self.unitsWithCovariate = unitsWithCovariate
    }

    /// Sums per-unit totals, one quadruple per unit.
    public init<S: Sequence>(units: S) where S.Element == (x: Double, y: Double, xc: Double, yc: Double) {
        self = .zero
        for u in units { add(denominator: u.x, numerator: u.y, covariateDenominator: u.xc, covariateNumerator: u.yc) }
    }

    /// Adds one unit's totals.
    public mutating func add(denominator x: Double, numerator y: Double, covariateDenominator xc: Double,
                             covariateNumerator yc: Double) {
        metric.add(denominator: x, numerator: y)
        covariate.add(denominator: xc, numerator: yc)
        numeratorTimesCovariateNumerator += y * yc
        numeratorTimesCovariateDenominator += y * xc
        denominatorTimesCovariateNumerator += x * yc
        denominatorTimesCovariateDenominator += x * xc
        if xc > 0 { unitsWithCovariate += 1 }
    }

    /// Σ over units of r², c² and r·c, where r = (Y − R̂X)/X̄ and c = (Yc − ĈXc)/X̄c are the
    /// linearised metric and covariate (Deng, Knoblich & Lu 2018, §3: a ratio's delta-method
    /// influence per unit). c is 0 for every unit when no unit has pre-experiment data.
    var linearised: (rr: Double, cc: Double, rc: Double) {
        let m = metric, c = covariate
        let r = m.estimate, mx = m.denominatorMean
        let rr = (m.numeratorSumOfSquares - 2 * r * m.sumOfProducts + r * r * m.denominatorSumOfSquares) / (mx * mx)
        guard c.denominatorSum > 0 else { return (rr, 0, 0) }
        let k = c.estimate, cx = c.denominatorMean
        let cc = (c.numeratorSumOfSquares - 2 * k * c.sumOfProducts + k * k * c.denominatorSumOfSquares) / (cx * cx)
        let rc = (numeratorTimesCovariateNumerator - k * numeratorTimesCovariateDenominator
            - r * denominatorTimesCovariateNumerator + r * k * denominatorTimesCovariateDenominator) / (mx * cx)
        return (max(0, rr), max(0, cc), rc)
    }
}

/// CUPED's adjusted difference of two independent arms of a ratio metric, with the covariate the
/// units' pre-experiment value of the same metric (Deng et al. 2013, §3; for ratio metrics through
/// the delta method, Deng, Knoblich & Lu 2018):
///
///   per arm, r = (Y − R̂X)/X̄ and c = (Yc − ĈXc)/X̄c (centred: Σr = Σc = 0 in each arm);
///   θ = Σ_arms Σ r·c / Σ_arms Σ c²  (both arms pooled, within-arm centred: the slope of the
///       ordinary least squares of the metric on the covariate with an arm indicator);
///   R̂_adj = R̂ − θ(Ĉ − Ĉ_pooled),  Ĉ_pooled = ΣYc/ΣXc over both arms;
///   Var(R̂_adj) = Σ(r − θc)²/(n(n − 1))  (θ taken as known, as Deng et al. do);
///   δ = R̂_B,adj − R̂_A,adj = (R̂_B − R̂_A) − θ(Ĉ_B − Ĉ_A),  Var(δ) = Var_A + Var_B.
///
/// A unit without pre-experiment data (a new user) has c = 0: its covariate is imputed at its
/// arm's mean. Any covariate fixed before assignment keeps the estimate unbiased (Deng et al. 2013,
/// §3), so such users only lower the variance reduction; the alternative, an indicator of missing
/// data as a second covariate, needs a second θ and more sums. The variance
/// reduction 1 − Var(δ)/Var_unadjusted(δ) equals ρ² of the metric and covariate when both arms
/// share one correlation ρ.
public struct CUPEDRatioTest: Sendable, Hashable {
    /// θ, the regression coefficient of the linearised metric on the linearised covariate.
    public let theta: Double
    /// Ĉ of each arm and of both pooled (NaN for an arm without pre-experiment data).
    public let controlCovariate: Double, treatmentCovariate: Double, pooledCovariate: Double
    /// R̂_A,adj and R̂_B,adj with their variances.
    public let adjustedControl: Double, adjustedControlVariance: Double
    public let adjustedTreatment: Double, adjustedTreatmentVariance: Double
    /// The z-test of the adjusted difference (its interval, p and relative difference on the log
    /// scale of the adjusted estimates).
    public let test: DeltaMethodZTest
    /// The z-test without the covariate (`DeltaMethodZTest(control:treatment:)`), for comparison.
    public let unadjusted: DeltaMethodZTest

    /// 1 − Var(δ_adj)/Var(δ): the share of the difference's variance the covariate removed
    /// (negative when it adds noise; NaN when the unadjusted variance is 0).
    public var varianceReduction: Double {
        let v = unadjusted.standardError * unadjusted.standardError
        return v > 0 ? 1 - test.standardError * test.standardError / v : .nan
    }

    /// - Throws: `StatsError.tooFewObservations` when an arm has fewer than 2 units,
    ///   `.invalidInput` when an arm's ΣX is 0.
    public init(control a: CovariateRatioSummary, treatment b: CovariateRatioSummary, inference: NormalInference) throws(StatsError) {
        let plain = try DeltaMethodZTest(control: a.metric, treatment: b.metric, inference: inference)
        let la = a.linearised, lb = b.linearised
        let cc = la.cc + lb.cc
        let theta = cc > 0 ? (la.rc + lb.rc) / cc : 0
        let pooled = a.covariate + b.covariate
        let kp = pooled.estimate
        /// An arm's Ĉ − Ĉ_pooled; 0 when the arm has no pre-experiment data (its c are all 0).
        func shift(_ s: CovariateRatioSummary) -> Double { s.covariate.denominatorSum > 0 ? s.covariate.estimate - kp : 0 }
        func variance(_ l: (rr: Double, cc: Double, rc: Double), _ n: Int) -> Double {
            max(0, l.rr - 2 * theta * l.rc + theta * theta * l.cc) / (Double(n) * Double(n - 1))
        }
        self.theta = theta
        self.controlCovariate = a.covariate.estimate
        self.treatmentCovariate = b.covariate.estimate
        self.pooledCovariate = kp
        self.adjustedControl = a.metric.estimate - theta * shift(a)
        self.adjustedTreatment = b.metric.estimate - theta * shift(b)
        self.adjustedControlVariance = variance(la, a.metric.units)
        self.adjustedTreatmentVariance = variance(lb, b.metric.units)
        self.test = DeltaMethodZTest(estimates: adjustedControl, controlVariance: adjustedControlVariance,
                                     treatment: adjustedTreatment, treatmentVariance: adjustedTreatmentVariance,
                                     units: a.metric.units + b.metric.units, inference: inference)
        self.unadjusted = plain
    }
}
