// Paired comparisons: the same sessions replayed under configuration A and configuration B.
// McNemar's test for a binary outcome; the Wilcoxon signed-rank test and the Hodges–Lehmann
// estimate for a continuous one (latency). Difference convention: B − A.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - McNemar

/// McNemar's test of marginal homogeneity for paired binary outcomes (McNemar, Psychometrika
/// 12:153–157, 1947). The table counts pairs by outcome under A (rows) and B (columns):
///
///                 B yes   B no
///         A yes     a       b
///         A no      c       d
///
/// Only the discordant pairs b and c inform the test. With b + c < `exactThreshold` the p-value is
/// the exact two-sided binomial one, min(1, 2 P(X ≤ min(b, c))), X ~ Binomial(b + c, ½); otherwise
/// χ² = (|b − c| − 1)²/(b + c) on 1 degree of freedom (Edwards' continuity correction).
public struct McNemarTest: Sendable, Hashable {
    public enum Method: String, Sendable, Hashable {
        case exactBinomial = "exact binomial"
        case continuityCorrectedChiSquared = "χ² with continuity correction"
    }

    /// Below this many discordant pairs the exact binomial test is used.
    public static let exactThreshold = 25

    /// The table [[a, b], [c, d]].
    public let a: Int, b: Int, c: Int, d: Int
    /// (b − c)²/(b + c), McNemar's statistic without correction (0 when b + c = 0).
    public let chiSquared: Double
    /// (|b − c| − 1)²/(b + c), with Edwards' continuity correction (0 when |b − c| ≤ 1).
    public let continuityCorrectedChiSquared: Double
    /// p̂_B − p̂_A = (c − b)/n, the change in the "yes" rate.
    public let difference: Double
    /// How `pValue` was obtained.
    public let method: Method
    /// Two-sided p-value.
    public let pValue: Double

    /// - Throws: `StatsError.invalidInput` for a negative cell, `.tooFewObservations` for an empty table.
    public init(a: Int, b: Int, c: Int, d: Int) throws(StatsError) {
        guard a >= 0, b >= 0, c >= 0, d >= 0 else {
            throw .invalidInput("table cells must be non-negative, got [[\(a), \(b)], [\(c), \(d)]]")
        }
        let n = a + b + c + d
        guard n > 0 else { throw .tooFewObservations(needed: 1, got: 0) }
        self.a = a; self.b = b; self.c = c; self.d = d
        let discordant = b + c
        let gap = Double(abs(b - c))
        self.chiSquared = discordant > 0 ? gap * gap / Double(discordant) : 0
        let corrected = max(0, gap - 1)
        self.continuityCorrectedChiSquared = discordant > 0 ? corrected * corrected / Double(discordant) : 0
        self.difference = Double(c - b) / Double(n)
        if discordant < Self.exactThreshold {
            self.method = .exactBinomial
            self.pValue = discordant == 0 ? 1
                : min(1, 2 * Binomial(trials: discordant, probability: 0.5).probability(ofAtMost: min(b, c)))
        } else {
            self.method = .continuityCorrectedChiSquared
            self.pValue = ChiSquared(degreesOfFreedom: 1).survival(continuityCorrectedChiSquared)
        }
    }
}

// MARK: - Exact null distribution of the signed-rank statistic

/// The exact null distribution of the Wilcoxon signed-rank statistic V (sum of the ranks of the
/// positive differences) for n untied, non-zero differences: `probabilities[v] = P(V = v)`,
/// v = 0 … n(n + 1)/2. Each rank 1 … n is positive with probability ½ independently, so
///   P_n(v) = ½ P_{n−1}(v) + ½ P_{n−1}(v − n).
public struct SignedRankDistribution: Sendable, Hashable {
    public let n: Int
    public let probabilities: [Double]

    public init(n: Int) {
        self.n = n
        var p = [1.0]
        for rank in stride(from: 1, through: n, by: 1) {
            var next = [Double](repeating: 0, count: p.count + rank)
            for (v, q) in p.enumerated() {
                next[v] += 0.5 * q
                next[v + rank] += 0.5 * q
            }
            p = next
        }
        self.probabilities = p
    }

    /// P(V ≤ v).
    public func probability(ofAtMost v: Int) -> Double {
        v < 0 ? 0 : min(1, probabilities.prefix(v + 1).reduce(0, +))
    }

    /// P(V ≥ v).
    public func probability(ofAtLeast v: Int) -> Double {
        v <= 0 ? 1 : min(1, probabilities.dropFirst(v).reduce(0, +))
    }

    /// The smallest q with P(V ≤ q) ≥ p (R's `qsignrank`).
    public func quantile(_ p: Double) -> Int {
        var sum = 0.0
        for (v, q) in probabilities.enumerated() {
            sum += q
            if sum >= p * (1 - 1e-12) { return v }
        }
        return n * (n + 1) / 2
    }
}

// MARK: - Wilcoxon signed-rank

/// The Wilcoxon signed-rank test of H₀: the paired differences B − A are symmetric about 0
/// (Wilcoxon, Biometrics Bulletin 1:80–83, 1945), two-sided.
///
/// Zero differences are dropped (Wilcoxon's convention); the n remaining |d| are ranked with ties
/// averaged; V is the sum of the ranks of the positive differences. Under H₀, E[V] = n(n + 1)/4 and
///   Var V = n(n + 1)(2n + 1)/24 − Σ(t³ − t)/48
/// over groups of t tied |d| (Lehmann, Nonparametrics, eq. 3.2.14). The p-value is exact for
/// n < `exactSampleSizeLimit` without ties; otherwise z = (V − E[V] ∓ ½)/√Var V. (R's `wilcox.test`
/// also falls back to the normal approximation whenever a zero was dropped; this test stays exact.)
public struct WilcoxonSignedRankTest: Sendable, Hashable {
    /// Exact p-values below this many non-zero differences without ties.
    public static let exactSampleSizeLimit = 50

    /// n, the non-zero differences used.
    public let count: Int
    /// The zero differences dropped.
    public let zeroCount: Int
    /// V = W⁺, the sum of the ranks of the positive differences (R's `V`).
    public let positiveRankSum: Double
    /// E[V] = n(n + 1)/4.
    public let meanOfV: Double
    /// √Var V with the tie correction.
    public let standardDeviationOfV: Double
    /// The continuity-corrected z of the normal approximation.
    public let z: Double
    /// Whether any |d| occurs more than once among the non-zero differences.
    public let hasTies: Bool
    public let method: RankMethod
    /// Two-sided p-value (1 when every difference is zero).
    public let pValue: Double

    /// - Parameter differences: b − a per pair, in the unit of the data.
    /// - Throws: `StatsError.invalidInput` for a non-finite value, `.tooFewObservations` for none.
    public init(differences: [Double], exact: Bool = true) throws(StatsError) {
        guard !differences.isEmpty else { throw .tooFewObservations(needed: 1, got: 0) }
        try requireFinite(differences, "differences")
        let nonZero = differences.filter { $0 != 0 }
        let n = nonZero.count
        let (ranks, tieTerm) = midRanks(nonZero.map { abs($0) })
        var v = 0.0
        for (d, r) in zip(nonZero, ranks) where d > 0 { v += r }
        let nn = Double(n)
        let mean = nn * (nn + 1) / 4
        let variance = nn * (nn + 1) * (2 * nn + 1) / 24 - tieTerm / 48
        let sd = max(0, variance).squareRoot()
        let centred = v - mean
        let correction = centred > 0 ? 0.5 : (centred < 0 ? -0.5 : 0)
        self.count = n
        self.zeroCount = differences.count - n
        self.positiveRankSum = v
        self.meanOfV = mean
        self.standardDeviationOfV = sd
        self.z = sd > 0 ? (centred - correction) / sd : 0
        self.hasTies = tieTerm > 0
        if n == 0 {
            self.method = .exact
            self.pValue = 1
        } else if exact, !hasTies, n < Self.exactSampleSizeLimit {
            let distribution = SignedRankDistribution(n: n)
            let observed = Int(v.rounded())
            let oneSided = v > mean ? distribution.probability(ofAtLeast: observed) : distribution.probability(ofAtMost: observed)
            self.method = .exact
            self.pValue = min(1, 2 * oneSided)
        } else {
            self.method = .normalApproximation
            self.pValue = sd > 0 ? StandardNormal.twoSidedPValue(z) : 1
        }
    }

    /// The test on pairs (a[i], b[i]) of the same sessions, differences b − a.
    /// - Throws: `StatsError.invalidInput` when the samples differ in length, as `init(differences:)`.
    public init(control: [Double], treatment: [Double], exact: Bool = true) throws(StatsError) {
        guard control.count == treatment.count else {
            throw .invalidInput("paired samples differ in length: \(control.count) and \(treatment.count)")
        }
        try self.init(differences: zip(control, treatment).map { $1 - $0 }, exact: exact)
    }
}

// MARK: - Hodges–Lehmann for paired differences

/// The Hodges–Lehmann estimate of the centre of the paired differences B − A — the median of the
/// n(n + 1)/2 Walsh averages (dᵢ + dⱼ)/2, i ≤ j (Hodges & Lehmann 1963; Hollander & Wolfe,
/// Nonparametric Statistical Methods, §3.2) — with its distribution-free interval
/// [W₍ₖ₎, W₍ₘ₋ₖ₊₁₎], M = n(n + 1)/2 (Tukey's interval, Hollander & Wolfe §3.3).
///
/// Unlike the test, the estimate keeps zero differences: when most replays do not change a latency,
/// the typical shift is 0 and the estimate says so (R's `wilcox.test` drops them). k comes from the
/// signed-rank null distribution: exact (`qsignrank(α/2)`) for n < 50 without zeros or ties among
/// |d|, else k = ⌊M/2 − z_{1−α/2} σ_V + ½⌋ with σ_V tie-corrected over |d| (zeros one tie group).
/// When k < 1 the interval is (−∞, +∞).
public struct HodgesLehmannPairedShift: Sendable, Hashable {
    /// n, the number of pairs.
    public let count: Int
    /// The median of the Walsh averages, in the unit of the data.
    public let estimate: Double
    /// The interval for the centre of the differences.
    public let interval: ConfidenceInterval
    /// k: the interval is the k-th smallest and k-th largest Walsh average.
    public let rank: Int
    public let method: RankMethod

    /// - Parameter differences: b − a per pair.
    /// - Throws: `StatsError` for no differences, a non-finite value, or α ∉ (0, 1).
    public init(differences: [Double], alpha: Double = StatsConfiguration.defaultAlpha) throws(StatsError) {
        try validate(alpha: alpha)
        guard !differences.isEmpty else { throw .tooFewObservations(needed: 1, got: 0) }
        try requireFinite(differences, "differences")
        let d = differences.sorted()
        let n = d.count
        let walshCount = n * (n + 1) / 2
        let select = { (k: Int) in kthSmallestWalshAverage(k, sorted: d) }
        self.count = n
        self.estimate = medianBySelection(total: walshCount, select: select)
        let tieTerm = midRanks(d.map { abs($0) }).tieTerm
        let exact = tieTerm == 0 && !d.contains(0) && n < WilcoxonSignedRankTest.exactSampleSizeLimit
        let nn = Double(n)
        let bounds = RankShiftInterval(
            estimates: walshCount, alpha: alpha,
            exactRank: exact ? { SignedRankDistribution(n: n).quantile(alpha / 2) } : nil,
            varianceOfStatistic: nn * (nn + 1) * (2 * nn + 1) / 24 - tieTerm / 48,
            select: select)
        self.rank = bounds.rank
        self.method = bounds.method
        self.interval = bounds.interval
    }

    /// The estimate on pairs (a[i], b[i]), differences b − a.
    public init(control: [Double], treatment: [Double], alpha: Double = StatsConfiguration.defaultAlpha) throws(StatsError) {
        guard control.count == treatment.count else {
            throw .invalidInput("paired samples differ in length: \(control.count) and \(treatment.count)")
        }
        try self.init(differences: zip(control, treatment).map { $1 - $0 }, alpha: alpha)
    }
}
