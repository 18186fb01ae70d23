// The shared vocabulary of PressStats: configuration, intervals, errors and the sufficient
// statistics that SQL computes and Swift tests (count, sum, sum of squares; successes of trials).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Configuration

/// Settings shared by every comparison, with the defaults of GrowthBook's gbstats.
public struct StatsConfiguration: Sendable, Hashable {
    /// α, the two-sided significance level; intervals have confidence 1 − α. Default 0.05.
    public var alpha: Double
    /// A sample ratio mismatch is flagged when the χ² goodness-of-fit p-value is below this.
    /// Default 0.001 (gbstats' SRM threshold: strict, because a real mismatch invalidates a test).
    public var sampleRatioMismatchThreshold: Double
    /// Below this many sessions in any arm, a comparison reports "too few data" instead of a
    /// verdict. Default 100.
    public var minimumSessionsPerArm: Int
    /// A relative lift |(B − A)/A| at or above this is flagged as suspicious (more likely a bug or a
    /// broken arm than a real effect of an animation). Default 0.5 (50 %).
    public var suspiciousRelativeLift: Double
    /// Proportions fall back from the z-test to Fisher's exact test when any cell of the 2×2 table
    /// is below this count. Default 5 (Cochran's rule of thumb).
    public var minimumCellCountForZTest: Int
    /// Below this many users in any arm, a comparison by user reports "too few data". Default 100:
    /// the delta method and the bootstrap are large-sample approximations over users.
    public var minimumUsersPerArm: Int
    /// Below this effective number of users in any arm — Kish's (ΣX)²/ΣX² of the users' weights in
    /// a row (sessions for a rate, latency values for a latency) — a row by user gives no verdict:
    /// a few heavy users then carry the estimate and its variance estimate. Default 20, chosen by
    /// simulation (docs/compare.md, "Heavy users").
    public var minimumEffectiveUsersPerArm: Double
    /// The power at which the minimum detectable effect is given. Default 0.8 (80 %).
    public var power: Double
    /// Whether intervals and p-values are always valid under continuous monitoring (confidence
    /// sequences, `--sequential`) instead of valid for one look at a fixed horizon. Default false.
    public var sequential: Bool
    /// N*, the units at which the confidence sequence is tightest (`--tuning`). Default 5000, as gbstats.
    public var sequentialTuning: Double
    /// The effect to plan for (`--mde`): each row then gives the units per arm needed to detect it.
    public var plannedEffect: EffectSize?
    /// Resamples of the percentile bootstrap. Default 2000.
    public var bootstrapReplicates: Int
    /// The bootstrap's seed, reported with the results. Default `ClusterBootstrapQuantiles.defaultSeed`.
    public var bootstrapSeed: UInt64

    public static let defaultAlpha = 0.05
    public static let defaultSampleRatioMismatchThreshold = 0.001
    public static let defaultMinimumSessionsPerArm = 100
    public static let defaultSuspiciousRelativeLift = 0.5
    public static let defaultMinimumCellCountForZTest = 5
    public static let defaultMinimumUsersPerArm = 100
    public static let defaultMinimumEffectiveUsersPerArm = 20.0

    public init(
        alpha: Double = defaultAlpha,
        sampleRatioMismatchThreshold: Double = defaultSampleRatioMismatchThreshold,
        minimumSessionsPerArm: Int = defaultMinimumSessionsPerArm,
        suspiciousRelativeLift: Double = defaultSuspiciousRelativeLift,
        minimumCellCountForZTest: Int = defaultMinimumCellCountForZTest,
        minimumUsersPerArm: Int = defaultMinimumUsersPerArm,
        minimumEffectiveUsersPerArm: Double = defaultMinimumEffectiveUsersPerArm,
        power: Double = PowerAnalysis.defaultPower,
        sequential: Bool = false,
        sequentialTuning: Double = ConfidenceSequence.defaultTuning,
        plannedEffect: EffectSize? = nil,
        bootstrapReplicates: Int = ClusterBootstrapQuantiles.defaultReplicates,
        bootstrapSeed: UInt64 = ClusterBootstrapQuantiles.defaultSeed
    ) {
        self.alpha = alpha
        self.sampleRatioMismatchThreshold = sampleRatioMismatchThreshold
        self.minimumSessionsPerArm = minimumSessionsPerArm
        self.suspiciousRelativeLift = suspiciousRelativeLift
        self.minimumCellCountForZTest = minimumCellCountForZTest
        self.minimumUsersPerArm = minimumUsersPerArm
        self.minimumEffectiveUsersPerArm = minimumEffectiveUsersPerArm
        self.power = power
        self.sequential = sequential
        self.sequentialTuning = sequentialTuning
        self.plannedEffect = plannedEffect
        self.bootstrapReplicates = bootstrapReplicates
        self.bootstrapSeed = bootstrapSeed
    }
}

// MARK: - Intervals and errors

/// A two-sided confidence interval [lower, upper] with its nominal level 1 − α. Bounds may be
/// ±∞ when the data cannot bound that side (e.g. an order-statistic interval for p99 of 50 values).
public struct ConfidenceInterval: Sendable, Hashable {
    public var lower: Double
    public var upper: Double
    /// The nominal confidence level 1 − α, e.g. 0.95.
    public var level: Double

    public init(lower: Double, upper: Double, level: Double) {
        self.lower = lower
        self.upper = upper
        self.level = level
    }

    /// Whether `value` lies in [lower, upper].
    public func contains(_ value: Double) -> Bool { lower <= value && value <= upper }

    /// Whether the interval lies entirely on one side of `value` (by default 0: "no difference").
    public func excludes(_ value: Double = 0) -> Bool { value < lower || value > upper }

    /// upper − lower.
    public var width: Double { upper - lower }
}

/// Why a statistic could not be computed.
public enum StatsError: Error, Hashable, Sendable {
    /// A sample is too small for the statistic (e.g. a variance from one observation).
    case tooFewObservations(needed: Int, got: Int)
    /// An input is outside its domain; the message says which and why.
    case invalidInput(String)
}

/// z_{1−α/2}, the two-sided normal critical value.
@inline(__always)
func normalCriticalValue(alpha: Double) -> Double {
    StandardNormal.quantile(1 - alpha / 2)
}

func validate(alpha: Double) throws(StatsError) {
    guard alpha > 0, alpha < 1 else { throw .invalidInput("α must lie in (0, 1), got \(alpha)") }
}

// MARK: - Sufficient statistics

/// A count of successes out of trials (e.g. cancelled sessions out of sessions): the sufficient
/// statistic of a binomial proportion, `SUM(outcome = 'cancel'), COUNT(*)` in SQL. Merge shards
/// with `+`.
public struct Proportion: Sendable, Hashable {
    /// x, the number of successes (0 ≤ x ≤ n).
    public var successes: Int
    /// n, the number of trials.
    public var trials: Int

    public init(successes: Int, trials: Int) {
        self.successes = successes
        self.trials = trials
    }

    /// p̂ = x/n (NaN when n = 0).
    public var estimate: Double { trials > 0 ? Double(successes) / Double(trials) : .nan }

    /// n − x.
    public var failures: Int { trials - successes }

    /// The estimated variance of p̂: p̂(1 − p̂)/n.
    public var varianceOfEstimate: Double { estimate * (1 - estimate) / Double(trials) }

    func validated() throws(StatsError) -> Proportion {
        guard trials > 0 else { throw .tooFewObservations(needed: 1, got: trials) }
        guard successes >= 0, successes <= trials else {
            throw .invalidInput("successes must lie in 0…trials, got \(successes) of \(trials)")
        }
        return self
    }

    public static func + (a: Proportion, b: Proportion) -> Proportion {
        Proportion(successes: a.successes + b.successes, trials: a.trials + b.trials)
    }
}

/// The sufficient statistics of a sample mean and variance: n, Σx and Σx², i.e.
/// `COUNT(x), SUM(x), SUM(x*x)` in SQL. Merge shards with `+`.
///
/// The variance is computed as (Σx² − (Σx)²/n)/(n − 1), which loses digits when the mean is large
/// against the spread; for latencies in milliseconds (mean ~10², sd ~10¹, n ≤ 10⁷) some nine
/// significant digits remain. Negative results of rounding are clamped to 0.
public struct MeanSummary: Sendable, Hashable {
    /// n, the number of observations.
    public var count: Int
    /// Σx.
    public var sum: Double
    /// Σx².
    public var sumOfSquares: Double

    public init(count: Int, sum: Double, sumOfSquares: Double) {
        self.count = count
        self.sum = sum
        self.sumOfSquares = sumOfSquares
    }

    /// Summarises `values`.
    public init<S: Sequence>(values: S) where S.Element == Double {
        var n = 0, s = 0.0, ss = 0.0
        for v in values { n += 1; s += v; ss += v * v }
        self.init(count: n, sum: s, sumOfSquares: ss)
    }

    /// Builds the sums back from a mean and a sample variance s² (n − 1 denominator).
    public init(count: Int, mean: Double, variance: Double) {
        let n = Double(count)
        self.init(count: count, sum: mean * n, sumOfSquares: variance * (n - 1) + mean * mean * n)
    }

    /// x̄ = Σx / n.
    public var mean: Double { sum / Double(count) }

    /// The sample variance s² = (Σx² − (Σx)²/n) / (n − 1), clamped at 0.
    public var variance: Double {
        let n = Double(count)
        return max(0, (sumOfSquares - sum * sum / n) / (n - 1))
    }

    /// s, the sample standard deviation.
    public var standardDeviation: Double { variance.squareRoot() }

    /// s²/n, the estimated variance of the mean.
    public var varianceOfMean: Double { variance / Double(count) }

    public static func + (a: MeanSummary, b: MeanSummary) -> MeanSummary {
        MeanSummary(count: a.count + b.count, sum: a.sum + b.sum, sumOfSquares: a.sumOfSquares + b.sumOfSquares)
    }
}
