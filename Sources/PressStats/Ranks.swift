// Rank-based comparisons of two samples (latency distributions): the Mann–Whitney U test, the
// Hodges–Lehmann shift with Moses' interval, and percentiles with order-statistic intervals.
// These need the raw values, not sufficient statistics. Difference convention: B − A.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a rank statistic's p-value or interval was obtained.
public enum RankMethod: String, Sendable, Hashable {
    /// From the exact permutation distribution (small samples without ties).
    case exact
    /// From the normal approximation with tie and continuity corrections.
    case normalApproximation = "normal approximation"
}

// MARK: - Ranking

/// Mid-ranks (1-based; tied values share the average of their ranks) and the tie term Σ(t³ − t)
/// over groups of t tied values.
func midRanks(_ values: [Double]) -> (ranks: [Double], tieTerm: Double) {
    let order = values.indices.sorted { values[$0] < values[$1] }
    var ranks = [Double](repeating: 0, count: values.count)
    var tieTerm = 0.0
    var start = 0
    while start < order.count {
        var end = start
        while end + 1 < order.count, values[order[end + 1]] == values[order[start]] { end += 1 }
        let rank = Double(start + end + 2) / 2   // mean of ranks start+1 … end+1
        for i in start...end { ranks[order[i]] = rank }
        let t = Double(end - start + 1)
        tieTerm += t * t * t - t
        start = end + 1
    }
    return (ranks, tieTerm)
}

func requireFinite(_ values: [Double], _ name: String) throws(StatsError) {
    for i in values.indices where !values[i].isFinite {
        throw .invalidInput("\(name) contains a non-finite value (\(values[i]))")
    }
}

// MARK: - Exact null distribution of U

/// The exact null distribution of the Mann–Whitney U statistic for samples of m and n without
/// ties: `probabilities[u] = P(U = u)`, u = 0 … mn. Built by the recursion on the largest of the
/// m + n observations (Mann & Whitney 1947, eq. 1, in probabilities):
///   P_{m,n}(u) = m/(m+n) · P_{m−1,n}(u − n) + n/(m+n) · P_{m,n−1}(u).
/// O(m²n²) time; intended for m, n < 50.
public struct MannWhitneyDistribution: Sendable, Hashable {
    public let m: Int
    public let n: Int
    public let probabilities: [Double]

    public init(m: Int, n: Int) {
        self.m = m
        self.n = n
        // previous[j] = P_{i−1, j}(·); current[j] = P_{i, j}(·).
        var previous = (0...n).map { _ in [1.0] }   // i = 0: U ≡ 0
        for i in stride(from: 1, through: m, by: 1) {
            var current: [[Double]] = [[1.0]]        // j = 0: U ≡ 0
            for j in stride(from: 1, through: n, by: 1) {
                var p = [Double](repeating: 0, count: i * j + 1)
                let fromX = Double(i) / Double(i + j), fromY = Double(j) / Double(i + j)
                for (u, q) in previous[j].enumerated() { p[u + j] += fromX * q }   // largest is an x: beats all j
                for (u, q) in current[j - 1].enumerated() { p[u] += fromY * q }    // largest is a y
                current.append(p)
            }
            previous = current
        }
        self.probabilities = previous[n]
    }

    /// P(U ≤ u).
    public func probability(ofAtMost u: Int) -> Double {
        if u < 0 { return 0 }
        return min(1, probabilities.prefix(u + 1).reduce(0, +))
    }

    /// P(U ≥ u).
    public func probability(ofAtLeast u: Int) -> Double {
        if u <= 0 { return 1 }
        return min(1, probabilities.dropFirst(u).reduce(0, +))
    }

    /// The smallest q with P(U ≤ q) ≥ p (R's `qwilcox`).
    public func quantile(_ p: Double) -> Int {
        var sum = 0.0
        for (u, q) in probabilities.enumerated() {
            sum += q
            if sum >= p * (1 - 1e-12) { return u }
        }
        return m * n
    }
}

// MARK: - Mann–Whitney U

/// The Mann–Whitney U test (Wilcoxon rank-sum test) of H₀: the two samples come from the same
/// distribution, two-sided (Mann & Whitney, Ann. Math. Statist. 18:50–60, 1947).
///
/// U = R_B − n_B(n_B + 1)/2 counts the pairs (a, b) with b > a, ties counting ½. Under H₀,
/// E[U] = n_A n_B / 2 and, with t tied values per group,
///   Var U = n_A n_B / 12 · ((N + 1) − Σ(t³ − t) / (N(N − 1))),  N = n_A + n_B
/// (Lehmann, Nonparametrics, 1975, eq. 1.3.21). The p-value is exact when both samples have fewer
/// than `exactSampleSizeLimit` values and there are no ties (as R's `wilcox.test`), otherwise from
/// z = (U − E[U] ∓ ½)/√Var U with the ½ continuity correction toward E[U].
public struct MannWhitneyUTest: Sendable, Hashable {
    /// Exact p-values are used when both samples are smaller than this and there are no ties (R's rule).
    public static let exactSampleSizeLimit = 50

    /// n_A, n_B.
    public let controlCount: Int, treatmentCount: Int
    /// U of the treatment: #{(a, b): b > a} + ½ #{(a, b): b = a}; R's `W` for `wilcox.test(B, A)`.
    public let u: Double
    /// U / (n_A n_B) = P(B > A) + ½ P(B = A), the common-language effect size (0.5 under H₀).
    public let probabilityOfSuperiority: Double
    /// E[U] = n_A n_B / 2.
    public let meanOfU: Double
    /// √Var U with the tie correction.
    public let standardDeviationOfU: Double
    /// The continuity-corrected z of the normal approximation (computed even when the p-value is exact).
    public let z: Double
    /// Whether any value occurs more than once in the pooled sample.
    public let hasTies: Bool
    /// How `pValue` was obtained.
    public let method: RankMethod
    /// Two-sided p-value.
    public let pValue: Double

    /// - Parameter exact: allow the exact distribution when the samples qualify (default true).
    /// - Throws: `StatsError.tooFewObservations` for an empty sample, `.invalidInput` for a
    ///   non-finite value.
    public init(control: [Double], treatment: [Double], exact: Bool = true) throws(StatsError) {
        guard !control.isEmpty else { throw .tooFewObservations(needed: 1, got: 0) }
        guard !treatment.isEmpty else { throw .tooFewObservations(needed: 1, got: 0) }
        try requireFinite(control, "control")
        try requireFinite(treatment, "treatment")
        let nA = control.count, nB = treatment.count
        let (ranks, tieTerm) = midRanks(control + treatment)
        let rankSumB = ranks[nA...].reduce(0, +)
        let u = rankSumB - Double(nB * (nB + 1)) / 2
        let total = Double(nA + nB)
        let mean = Double(nA) * Double(nB) / 2
        let variance = Double(nA) * Double(nB) / 12 * ((total + 1) - tieTerm / (total * (total - 1)))
        let sd = max(0, variance).squareRoot()
        let centred = u - mean
        let correction = centred > 0 ? 0.5 : (centred < 0 ? -0.5 : 0)
        let z = sd > 0 ? (centred - correction) / sd : 0
        self.controlCount = nA
        self.treatmentCount = nB
        self.u = u
        self.probabilityOfSuperiority = u / (Double(nA) * Double(nB))
        self.meanOfU = mean
        self.standardDeviationOfU = sd
        self.z = z
        self.hasTies = tieTerm > 0
        if exact, !hasTies, nA < Self.exactSampleSizeLimit, nB < Self.exactSampleSizeLimit {
            let distribution = MannWhitneyDistribution(m: nB, n: nA)
            let observed = Int(u.rounded())
            let oneSided = u > mean ? distribution.probability(ofAtLeast: observed) : distribution.probability(ofAtMost: observed)
            self.method = .exact
            self.pValue = min(1, 2 * oneSided)
        } else {
            self.method = .normalApproximation
            self.pValue = sd > 0 ? StandardNormal.twoSidedPValue(z) : 1
        }
    }
}

// MARK: - Order-statistic selection

/// Maps a finite Double to an Int64 whose order is the Double's order (−0 and +0 both to 0).
@inline(__always)
private func orderedKey(_ x: Double) -> Int64 {
    let bits = Int64(bitPattern: x.bitPattern)
    return bits >= 0 ? bits : Int64.min &- bits
}

@inline(__always)
private func value(ofOrderedKey key: Int64) -> Double {
    key >= 0 ? Double(bitPattern: UInt64(bitPattern: key)) : Double(bitPattern: UInt64(bitPattern: Int64.min &- key))
}

/// The k-th smallest (1-based) of an implicit multiset of doubles in [minimum, maximum], given
/// `count(v)` = how many elements are ≤ v. Bisects over the doubles themselves (their ordered bit
/// patterns), so the answer is exactly an element: at most 64 calls of `count`.
func kthSmallest(_ k: Int, minimum: Double, maximum: Double, count: (Double) -> Int) -> Double {
    if count(minimum) >= k { return minimum }
    var low = orderedKey(minimum)    // count(low) < k
    var high = orderedKey(maximum)   // count(high) ≥ k
    // high − low can exceed Int64.max (keys of opposite signs); as UInt64 it is exact.
    while UInt64(bitPattern: high &- low) > 1 {
        let mid = low &+ Int64(bitPattern: UInt64(bitPattern: high &- low) / 2)
        if count(value(ofOrderedKey: mid)) >= k { high = mid } else { low = mid }
    }
    return value(ofOrderedKey: high)
}

/// The k-th smallest of the n_A n_B differences b − a, for sorted samples; O((n_A + n_B) · 64).
func kthSmallestDifference(_ k: Int, sortedControl a: [Double], sortedTreatment b: [Double]) -> Double {
    kthSmallest(k, minimum: b[0] - a[a.count - 1], maximum: b[b.count - 1] - a[0]) { v in
        // For each b_j, the a_i with b_j − a_i ≤ v form a suffix of a, which starts later as b_j grows.
        var count = 0, i = 0
        for bj in b {
            while i < a.count, bj - a[i] > v { i += 1 }
            count += a.count - i
        }
        return count
    }
}

/// The mean of two values as the Walsh averages use it.
@inline(__always)
func walshAverage(_ x: Double, _ y: Double) -> Double { 0.5 * (x + y) }

/// The k-th smallest of the n(n + 1)/2 Walsh averages (dᵢ + dⱼ)/2, i ≤ j, of a sorted sample.
func kthSmallestWalshAverage(_ k: Int, sorted d: [Double]) -> Double {
    kthSmallest(k, minimum: d[0], maximum: d[d.count - 1]) { v in
        // For each i, the j ≥ i with (dᵢ + dⱼ)/2 ≤ v are i ..< end, and end shrinks as i grows.
        var count = 0, end = d.count
        for i in d.indices {
            while end > i, walshAverage(d[i], d[end - 1]) > v { end -= 1 }
            if end <= i { break }
            count += end - i
        }
        return count
    }
}

/// The median of the k-indexed order statistics 1 … total of a selection.
func medianBySelection(total: Int, select: (Int) -> Double) -> Double {
    if total % 2 == 1 { return select((total + 1) / 2) }
    return 0.5 * (select(total / 2) + select(total / 2 + 1))
}

// MARK: - Hodges–Lehmann shift

/// The Hodges–Lehmann estimate of the shift B − A between two distributions — the median of the
/// n_A n_B differences b − a (Hodges & Lehmann, Ann. Math. Statist. 34:598–611, 1963) — with Moses'
/// distribution-free interval [D₍ₖ₎, D₍ₙₐₙᵦ₋ₖ₊₁₎] of the sorted differences (Moses 1953; Hollander &
/// Wolfe, Nonparametric Statistical Methods, §4.3).
///
/// k is the rank from U's null distribution: exact (R's `qwilcox(α/2)`) for small samples without
/// ties, else the normal approximation with continuity correction,
///   k = ⌊n_A n_B/2 − z_{1−α/2} σ_U + ½⌋,
/// σ_U tie-corrected as in `MannWhitneyUTest`. When k < 1 the data cannot bound the shift at this
/// level and the interval is (−∞, +∞) (R instead falls back to the extreme differences).
public struct HodgesLehmannShift: Sendable, Hashable {
    /// The median of b − a, in the unit of the data.
    public let estimate: Double
    /// Moses' interval for the shift.
    public let interval: ConfidenceInterval
    /// k: the interval is the k-th smallest and k-th largest difference.
    public let rank: Int
    /// How k was found.
    public let method: RankMethod

    /// - Throws: `StatsError.tooFewObservations` for an empty sample, `.invalidInput` for a
    ///   non-finite value or α ∉ (0, 1).
    public init(control: [Double], treatment: [Double], alpha: Double = StatsConfiguration.defaultAlpha) throws(StatsError) {
        try validate(alpha: alpha)
        guard !control.isEmpty else { throw .tooFewObservations(needed: 1, got: 0) }
        guard !treatment.isEmpty else { throw .tooFewObservations(needed: 1, got: 0) }
        try requireFinite(control, "control")
        try requireFinite(treatment, "treatment")
        let a = control.sorted(), b = treatment.sorted()
        let pairs = a.count * b.count
        let select = { (k: Int) in kthSmallestDifference(k, sortedControl: a, sortedTreatment: b) }
        self.estimate = medianBySelection(total: pairs, select: select)
        let tieTerm = midRanks(a + b).tieTerm
        let exact = tieTerm == 0 && a.count < MannWhitneyUTest.exactSampleSizeLimit
            && b.count < MannWhitneyUTest.exactSampleSizeLimit
        let total = Double(a.count + b.count)
        let bounds = RankShiftInterval(
            estimates: pairs, alpha: alpha,
            exactRank: exact ? { MannWhitneyDistribution(m: a.count, n: b.count).quantile(alpha / 2) } : nil,
            varianceOfStatistic: Double(pairs) / 12 * ((total + 1) - tieTerm / (total * (total - 1))),
            select: select)
        self.rank = bounds.rank
        self.method = bounds.method
        self.interval = bounds.interval
    }
}

/// The distribution-free interval for a shift from the M sorted elementary estimates — the n_A n_B
/// differences b − a (Moses' interval for the Hodges–Lehmann shift) or the n(n + 1)/2 Walsh
/// averages (Tukey's interval for the paired estimate): [E₍ₖ₎, E₍ₘ₋ₖ₊₁₎] (Hollander & Wolfe,
/// Nonparametric Statistical Methods, §3.3 and §4.3). k is the α/2 quantile of the rank statistic's
/// exact null distribution (U or V) when one is given, else the normal approximation with
/// continuity correction, k = ⌊M/2 − z_{1−α/2} σ + ½⌋ with σ² the statistic's (tie-corrected) null
/// variance; E[U] = E[V] = M/2. When k < 1 the data cannot bound the shift and the interval is
/// (−∞, +∞).
struct RankShiftInterval {
    let rank: Int
    let method: RankMethod
    let interval: ConfidenceInterval

    init(estimates total: Int, alpha: Double, exactRank: (() -> Int)?, varianceOfStatistic: Double,
         select: (Int) -> Double) {
        let k: Int
        if let exactRank {
            k = exactRank()
            self.method = .exact
        } else {
            let c = Double(total) / 2 - normalCriticalValue(alpha: alpha) * max(0, varianceOfStatistic).squareRoot() + 0.5
            k = Int(max(c, 0).rounded(.down))
            self.method = .normalApproximation
        }
        self.rank = k
        self.interval = k < 1
            ? ConfidenceInterval(lower: -.infinity, upper: .infinity, level: 1 - alpha)
            : ConfidenceInterval(lower: select(k), upper: select(total - k + 1), level: 1 - alpha)
    }
}

// MARK: - Percentiles

/// A sample percentile (R's default, type 7, Hyndman & Fan 1996: with h = (n − 1)p,
/// x₍⌊h⌋₊₁₎ + (h − ⌊h⌋)(x₍⌊h⌋₊₂₎ − x₍⌊h⌋₊₁₎)) with the distribution-free order-statistic interval
/// [x₍ₗ₎, x₍ᵤ₎]: the number B of observations below the true p-quantile is Binomial(n, p), and
/// P(x₍ₗ₎ ≤ ξ_p < x₍ᵤ₎) = P(l ≤ B ≤ u − 1) (e.g. Conover, Practical Nonparametric Statistics, §3.2;
/// Campbell & Gardner in Statistics with Confidence). l = qbinom(α/2), u = qbinom(1 − α/2) + 1,
/// which gives coverage ≥ 1 − α. Ranks 0 and n + 1 stand for −∞ and +∞ (too few data to bound that side).
public struct Percentile: Sendable, Hashable {
    /// p, the quantile level in [0, 1] (0.5 for the median, 0.9 for p90).
    public let probability: Double
    /// n, the sample size.
    public let count: Int
    /// The type-7 sample quantile.
    public let estimate: Double
    /// [x₍ₗ₎, x₍ᵤ₎], with ±∞ for ranks 0 and n + 1.
    public let interval: ConfidenceInterval
    /// l and u, 1-based ranks in the sorted sample.
    public let lowerRank: Int, upperRank: Int
    /// The exact coverage P(l ≤ B ≤ u − 1) of the interval (≥ 1 − α).
    public let coverage: Double

    /// - Throws: `StatsError` for an empty sample, a non-finite value, p ∉ [0, 1] or α ∉ (0, 1).
    public init(_ probability: Double, of values: [Double], alpha: Double = StatsConfiguration.defaultAlpha) throws(StatsError) {
        try requireFinite(values, "sample")
        self = try Percentile(probability, ofSorted: values.sorted(), alpha: alpha)
    }

    /// Several percentiles of one sample, sorting it once.
    public static func percentiles(_ probabilities: [Double], of values: [Double], alpha: Double = StatsConfiguration.defaultAlpha) throws(StatsError) -> [Percentile] {
        try requireFinite(values, "sample")
        let sorted = values.sorted()
        var result: [Percentile] = []
        for p in probabilities { result.append(try Percentile(p, ofSorted: sorted, alpha: alpha)) }
        return result
    }

    /// The type-7 estimate alone (no interval): with h = (n − 1)p, x₍⌊h⌋₊₁₎ + (h − ⌊h⌋)(x₍⌊h⌋₊₂₎ − x₍⌊h⌋₊₁₎).
    /// O(1) on a sorted, non-empty sample; p in [0, 1]. What SQL's `percentile()` returns.
    ///
    /// The same as the weighted mean (1 − g)·a + g·b of the order statistics a = x₍⌊h⌋₊₁₎ and
    /// b = x₍⌊h⌋₊₂₎, g = h − ⌊h⌋, which defines it where b − a is not finite: an infinity
    /// (±∞ sort at the ends), or finite values more than `Double.greatestFiniteMagnitude` apart.
    /// A term of weight 0 is left out (g = 0 gives a, even beside an infinity), equal values
    /// give themselves (∞ for two ∞), one infinity with a positive weight gives that infinity,
    /// and −∞ and +∞ both weighted give NaN (SQL: NULL), the one undefined case — only a
    /// sample of infinities of both signs, nothing finite between them, reaches it.
    public static func type7(_ p: Double, ofSorted x: [Double]) -> Double {
        let n = x.count
        let h = Double(n - 1) * p
        let j = Int(h.rounded(.down))
        let fraction = h - Double(j)
        return j + 1 < n ? interpolate(x[j], x[j + 1], fraction) : x[j]
    }

    /// The type-7 estimate of a sample given as a histogram: distinct `values` in ascending order
    /// and how often each occurs (`counts`, ≥ 0, Σ > 0). The same order statistics and the same
    /// arithmetic as `type7(_:ofSorted:)` on the expanded sample, so the two agree bit for bit:
    /// a percentile of latencies merged as histograms keyed by their exact values is the
    /// percentile of the latencies themselves.
    public static func type7(_ p: Double, sortedValues values: [Double], counts: [Int]) -> Double {
        counts.withUnsafeBufferPointer { type7(p, histogram: $0, total: $0.reduce(0, +), values: values) }
    }

    /// `type7(_:sortedValues:counts:)` with Σ counts given: with h = (N − 1)p and j = ⌊h⌋, the
    /// 0-based order statistics x₍ⱼ₎ and x₍ⱼ₊₁₎ are the values where the running count first
    /// exceeds j and j + 1.
    static func type7(_ p: Double, histogram: UnsafeBufferPointer<Int>, total: Int, values: [Double]) -> Double {
        let h = Double(total - 1) * p
        let j = Int(h.rounded(.down))
        let fraction = h - Double(j)
        var running = 0, bin = 0
        while running + histogram[bin] <= j { running += histogram[bin]; bin += 1 }
        let low = values[bin]
        guard j + 1 < total else { return low }
        while running + histogram[bin] <= j + 1 { running += histogram[bin]; bin += 1 }
        return interpolate(low, values[bin], fraction)
    }

    /// a + f·(b − a) of the order statistics a ≤ b, written once for both forms of the sample;
    /// where b − a is not finite, the weighted mean (1 − f)·a + f·b (see `type7(_:ofSorted:)`).
    @inline(__always) static func interpolate(_ a: Double, _ b: Double, _ fraction: Double) -> Double {
        guard fraction > 0, a != b else { return a }
        let difference = b - a
        // Finite values: the usual form, so results stay as they were to the last bit.
        if difference.isFinite { return a + fraction * difference }
        return (1 - fraction) * a + fraction * b
    }

    private init(_ p: Double, ofSorted x: [Double], alpha: Double) throws(StatsError) {
        try validate(alpha: alpha)
        guard !x.isEmpty else { throw .tooFewObservations(needed: 1, got: 0) }
        guard p >= 0, p <= 1 else { throw .invalidInput("percentile level must lie in [0, 1], got \(p)") }
        let n = x.count
        self.probability = p
        self.count = n
        self.estimate = Percentile.type7(p, ofSorted: x)
        let binomial = Binomial(trials: n, probability: p)
        let l = binomial.quantile(alpha / 2)
        let u = binomial.quantile(1 - alpha / 2) + 1
        self.lowerRank = l
        self.upperRank = u
        self.coverage = binomial.probability(ofAtMost: u - 1) - binomial.probability(ofAtMost: l - 1)
        self.interval = ConfidenceInterval(
            lower: l >= 1 ? x[l - 1] : -.infinity,
            upper: u <= n ? x[u - 1] : .infinity,
            level: 1 - alpha)
    }
}
