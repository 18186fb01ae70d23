// Percentiles of clustered data by a bootstrap over the randomization units (users). A user's
// sessions stay together in every resample, so the interval carries the correlation within a
// user; per-user histograms of the (frame-quantized) values make each resample cheap, and
// histograms of disjoint users from different partials are simply concatenated.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PressCore

/// One unit's values with how often each occurs: a user's latencies (ms), which take few
/// distinct values because they are quantized to display frames. Codable keys `values`, `counts`.
public struct UnitHistogram: Sendable, Hashable, Codable {
    /// The distinct values (any order).
    public var values: [Double]
    /// How many times each occurs (> 0), parallel to `values`.
    public var counts: [Int]

    /// - Throws: `StatsError.invalidInput` for arrays of different lengths, a non-finite value or a
    ///   count below 1.
    public init(values: [Double], counts: [Int]) throws(StatsError) {
        guard values.count == counts.count else {
            throw .invalidInput("a histogram has \(values.count) values but \(counts.count) counts")
        }
        try requireFinite(values, "histogram values")
        guard counts.allSatisfy({ $0 >= 1 }) else { throw .invalidInput("histogram counts must be at least 1: \(counts)") }
        self.values = values
        self.counts = counts
    }

    /// For values already checked (finite, counts ≥ 1).
    init(validated values: [Double], counts: [Int]) { self.values = values; self.counts = counts }

    /// Tallies a unit's raw values.
    /// - Throws: `StatsError.invalidInput` for a non-finite value.
    public init(sample: [Double]) throws(StatsError) {
        try requireFinite(sample, "sample")
        // A user's latencies take few distinct frame values: a linear tally beats hashing or sorting.
        var values: [Double] = [], counts: [Int] = []
        for v in sample {
            let key = v == 0 ? 0 : v   // −0 and +0 are one value
            var i = 0
            while i < values.count, values[i] != key { i += 1 }
            if i < values.count { counts[i] += 1 } else { values.append(key); counts.append(1) }
        }
        self.values = values
        self.counts = counts
    }

    /// The number of values, Σ counts.
    public var total: Int { counts.reduce(0, +) }
}

/// One unit's values under configuration A and under B (the same sessions replayed under both).
public struct PairedUnitHistogram: Sendable, Hashable, Codable {
    public var control: UnitHistogram
    public var treatment: UnitHistogram
    public init(control: UnitHistogram, treatment: UnitHistogram) { self.control = control; self.treatment = treatment }
}

/// Percentiles of two arms and their difference B − A by the nonparametric bootstrap over units
/// (Efron & Tibshirani, An Introduction to the Bootstrap, 1993, ch. 13 for percentile intervals;
/// resampling whole clusters as in Davison & Hinkley, Bootstrap Methods and their Application, 1997,
/// §3.8; the user-level bootstrap of online experiments, e.g. Deng, Knoblich & Lu 2018, §4).
///
/// Each of `replicates` resamples draws the units of each arm with replacement (independent arms),
/// or the paired units once for both configurations (paired), pools their histograms and takes the
/// type-7 percentile of the pooled values (`Percentile.type7`, what the point estimate uses).
/// The generator is PressCore's `SplitMix64(seed:)`, so a seed gives the same numbers everywhere.
///
/// Fixed horizon (`NormalInference.fixedHorizon`): the percentile interval [Δ*₍ₖ₎, Δ*₍B₊₁₋ₖ₎] with
/// k = max(1, ⌈αB/2⌉), and the p-value that inverts it, p = min(1, 2·min(#{Δ* ≤ 0}, #{Δ* ≥ 0})/B):
/// p < α exactly when the interval excludes 0, and when every resample ties (Δ* ≡ 0, as when all
/// mass sits on one frame) p = 1. Frame-quantized values make the test conservative: sample
/// percentiles of two arms usually land on the same frame, and such data cannot reject.
/// Sequential (`.confidenceSequence`): δ̂ ± the confidence sequence's half-width for SE = the
/// standard deviation of Δ*, with its always-valid p-value (`ConfidenceSequence`).
///
/// Cost: O(B·(Σ distinct values per unit + distinct values per arm)) per arm.
public struct ClusterBootstrapQuantiles: Sendable, Hashable {
    /// The replicates used by default: p-values in steps of 2/B = 0.001.
    public static let defaultReplicates = 2000
    /// The seed used by default (any fixed value; reported with the results).
    public static let defaultSeed: UInt64 = 20_240_301

    /// One percentile's results.
    public struct Quantile: Sendable, Hashable {
        /// p, e.g. 0.5 or 0.9.
        public let probability: Double
        /// Each arm's type-7 percentile with its bootstrap percentile interval.
        public let control: Double, controlInterval: ConfidenceInterval
        public let treatment: Double, treatmentInterval: ConfidenceInterval
        /// δ̂ = ξ̂_B − ξ̂_A with its interval (see the type) and p-value.
        public let difference: Double, differenceInterval: ConfidenceInterval
        public let pValue: Double
        /// The standard deviation of Δ* (the bootstrap standard error of δ̂).
        public let standardError: Double
        /// ξ̂_B/ξ̂_A − 1 with the matching interval (from the resampled ratios, or on the log scale
        /// when sequential); nil unless every resampled ξ_A and ξ_B is positive.
        public let relativeDifference: Double?, relativeInterval: ConfidenceInterval?
    }

    public let replicates: Int
    public let seed: UInt64
    /// Units (with at least one value) behind each arm; equal for paired units.
    public let controlUnits: Int, treatmentUnits: Int
    /// Values behind each arm's point estimate.
    public let controlCount: Int, treatmentCount: Int
    /// One result per requested probability, in the order asked.
    public let quantiles: [Quantile]

    /// Independent arms: each arm's units resampled on their own.
    /// - Throws: `StatsError.tooFewObservations` when an arm has no unit with a value,
    ///   `.invalidInput` for a probability outside [0, 1], fewer than 1 replicate or an invalid α.
    public init(_ probabilities: [Double], control: [UnitHistogram], treatment: [UnitHistogram],
                inference: NormalInference, replicates: Int = defaultReplicates, seed: UInt64 = defaultSeed) throws(StatsError) {
        try Self.validate(probabilities, replicates: replicates, alpha: inference.alpha)
        let a = PooledUnits(control.filter { $0.total > 0 }), b = PooledUnits(treatment.filter { $0.total > 0 })
        guard a.units > 0 else { throw .tooFewObservations(needed: 1, got: 0) }
        guard b.units > 0 else { throw .tooFewObservations(needed: 1, got: 0) }
        var generator = SplitMix64(seed: seed)
        var starA: [[Double]] = [], starB: [[Double]] = []
        starA.reserveCapacity(replicates); starB.reserveCapacity(replicates)
        for _ in 0..<replicates {
            starA.append(a.resample(probabilities, &generator))
            starB.append(b.resample(probabilities, &generator))
        }
        self.init(probabilities, a, b, starA, starB, inference, replicates, seed)
    }

    /// Paired units: each resample draws units once and pools both of their histograms.
    /// - Throws: as the independent form.
    public init(_ probabilities: [Double], paired: [PairedUnitHistogram],
                inference: NormalInference, replicates: Int = defaultReplicates, seed: UInt64 = defaultSeed) throws(StatsError) {
        try Self.validate(probabilities, replicates: replicates, alpha: inference.alpha)
        let kept = paired.filter { $0.control.total > 0 && $0.treatment.total > 0 }
        let a = PooledUnits(kept.map(\.control)), b = PooledUnits(kept.map(\.treatment))
        guard a.units > 0 else { throw .tooFewObservations(needed: 1, got: 0) }
        var generator = SplitMix64(seed: seed)
        var starA: [[Double]] = [], starB: [[Double]] = []
        starA.reserveCapacity(replicates); starB.reserveCapacity(replicates)
        let n = a.units
        var draws = [Int](repeating: 0, count: n)
        for _ in 0..<replicates {
            draws.withUnsafeMutableBufferPointer { d in
                for i in 0..<n { d[i] = generator.below(n) }
            }
            starA.append(a.resample(probabilities, draws: draws))
            starB.append(b.resample(probabilities, draws: draws))
        }
        self.init(probabilities, a, b, starA, starB, inference, replicates, seed)
    }

    private init(_ probabilities: [Double], _ a: PooledUnits, _ b: PooledUnits, _ starA: [[Double]], _ starB: [[Double]],
                 _ inference: NormalInference, _ replicates: Int, _ seed: UInt64) {
        self.replicates = replicates
        self.seed = seed
        self.controlUnits = a.units
        self.treatmentUnits = b.units
        self.controlCount = a.pooledTotal
        self.treatmentCount = b.pooledTotal
        let alpha = inference.alpha
        let k = max(1, Int((alpha * Double(replicates) / 2).rounded(.up)))
        func percentileInterval(_ sorted: [Double]) -> ConfidenceInterval {
            ConfidenceInterval(lower: sorted[k - 1], upper: sorted[replicates - k], level: 1 - alpha)
        }
        var results: [Quantile] = []
        for (j, p) in probabilities.enumerated() {
            let qa = a.pooledQuantile(p), qb = b.pooledQuantile(p)
            let sa = starA.map { $0[j] }, sb = starB.map { $0[j] }
            let deltas = zip(sb, sa).map { $0 - $1 }
            let se = standardDeviation(deltas)
            let positive = qa > 0 && qb > 0 && sa.allSatisfy { $0 > 0 } && sb.allSatisfy { $0 > 0 }
            let difference: ConfidenceInterval, pValue: Double
            var relative: ConfidenceInterval? = nil
            if inference.isSequential {
                let result = inference.test(estimate: qb - qa, standardError: se)
                difference = result.interval
                // As below: B resamples cannot show a p below 1/B (a zero SE gives p = 0 otherwise).
                pValue = max(result.pValue, 1 / Double(replicates))
                if positive {
                    let l = log(qb / qa), h = inference.halfWidth(standardError: standardDeviation(zip(sb, sa).map { log($0 / $1) }))
                    relative = ConfidenceInterval(lower: expm1(l - h), upper: expm1(l + h), level: 1 - alpha)
                }
            } else {
                let atMost = deltas.reduce(0) { $0 + ($1 <= 0 ? 1 : 0) }, atLeast = deltas.reduce(0) { $0 + ($1 >= 0 ? 1 : 0) }
                difference = percentileInterval(deltas.sorted())
                // No resample on the far side of 0 means p is below the resolution of B resamples,
                // not 0: report 1/B, the bound (Davison & Hinkley 1997, §4.2.1: a Monte Carlo
                // p-value is at least 1/(B + 1)). p < α still matches the interval when 1/B < α.
                pValue = min(1, max(2 * Double(min(atMost, atLeast)), 1) / Double(replicates))
                if positive { relative = percentileInterval(zip(sb, sa).map { $0 / $1 - 1 }.sorted()) }
            }
            results.append(Quantile(
                probability: p, control: qa, controlInterval: percentileInterval(sa.sorted()),
                treatment: qb, treatmentInterval: percentileInterval(sb.sorted()),
                difference: qb - qa, differenceInterval: difference, pValue: pValue, standardError: se,
                relativeDifference: qa > 0 ? qb / qa - 1 : nil, relativeInterval: relative))
        }
        self.quantiles = results
    }

    private static func validate(_ probabilities: [Double], replicates: Int, alpha: Double) throws(StatsError) {
        try PressStats.validate(alpha: alpha)
        guard replicates >= 1 else { throw .invalidInput("a bootstrap needs at least 1 replicate, got \(replicates)") }
        for p in probabilities where !(p >= 0 && p <= 1) {
            throw .invalidInput("percentile level must lie in [0, 1], got \(p)")
        }
    }
}

/// The sample standard deviation (n − 1), 0 for fewer than two values.
func standardDeviation(_ x: [Double]) -> Double {
    guard x.count >= 2 else { return 0 }
    let mean = x.reduce(0, +) / Double(x.count)
    var ss = 0.0
    for v in x { ss += (v - mean) * (v - mean) }
    return (ss / Double(x.count - 1)).squareRoot()
}

/// An arm's unit histograms flattened over one sorted list of the arm's distinct values: unit u's
/// entries are `bins[offsets[u] ..< offsets[u + 1]]` with `counts` alongside.
struct PooledUnits {
    let values: [Double]
    let offsets: [Int]
    let bins: [Int]
    let counts: [Int]
    /// Σ counts of each unit.
    let totals: [Int]
    let pooled: [Int]

    var units: Int { totals.count }
    var pooledTotal: Int { pooled.reduce(0, +) }

    init(_ histograms: [UnitHistogram]) {
        // The distinct values, kept sorted by insertion (few: latencies sit on display frames).
        var values: [Double] = []
        for h in histograms {
            for v in h.values {
                let key = v == 0 ? 0 : v
                let i = Self.insertionPoint(of: key, in: values)
                if i == values.count || values[i] != key { values.insert(key, at: i) }
            }
        }
        var offsets = [0], bins: [Int] = [], counts: [Int] = [], totals: [Int] = []
        var pooled = [Int](repeating: 0, count: values.count)
        for h in histograms {
            for (v, c) in zip(h.values, h.counts) {
                let b = Self.index(of: v, in: values)
                bins.append(b); counts.append(c); pooled[b] += c
            }
            offsets.append(bins.count)
            totals.append(h.total)
        }
        self.values = values; self.offsets = offsets; self.bins = bins; self.counts = counts
        self.totals = totals; self.pooled = pooled
    }

    /// The first position in the sorted `values` whose value is not below `v`, by bisection.
    static func insertionPoint(of v: Double, in values: [Double]) -> Int {
        var low = 0, high = values.count
        while low < high {
            let mid = (low + high) / 2
            if values[mid] < v { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The position of `v` in the sorted distinct `values`, which hold it.
    static func index(of v: Double, in values: [Double]) -> Int { insertionPoint(of: v, in: values) }

    /// The type-7 percentile of the whole arm.
    func pooledQuantile(_ p: Double) -> Double {
        pooled.withUnsafeBufferPointer { Percentile.type7(p, histogram: $0, total: pooledTotal, values: values) }
    }

    /// One resample of the arm's units, drawn here.
    func resample(_ probabilities: [Double], _ generator: inout SplitMix64) -> [Double] {
        let n = units
        var draws = [Int](repeating: 0, count: n)
        draws.withUnsafeMutableBufferPointer { d in
            for i in 0..<n { d[i] = generator.below(n) }
        }
        return resample(probabilities, draws: draws)
    }

    /// The percentiles of the pooled histograms of the units `draws` (with repeats).
    func resample(_ probabilities: [Double], draws: [Int]) -> [Double] {
        var histogram = [Int](repeating: 0, count: values.count)
        var total = 0
        histogram.withUnsafeMutableBufferPointer { h in
            offsets.withUnsafeBufferPointer { offsets in
                bins.withUnsafeBufferPointer { bins in
                    counts.withUnsafeBufferPointer { counts in
                        totals.withUnsafeBufferPointer { totals in
                            draws.withUnsafeBufferPointer { draws in
                                for u in draws {
                                    var e = offsets[u]
                                    let end = offsets[u + 1]
                                    while e < end { h[bins[e]] &+= counts[e]; e &+= 1 }
                                    total &+= totals[u]
                                }
                            }
                        }
                    }
                }
            }
        }
        return histogram.withUnsafeBufferPointer { h in
            probabilities.map { Percentile.type7($0, histogram: h, total: total, values: values) }
        }
    }
}
