// From numbers to a word: better, worse, no detectable difference, or too few data.

/// Which way a metric should move.
public enum MetricDirection: String, Sendable, Hashable {
    /// Cancellations, scroll-aborts, latency: a decrease is an improvement.
    case lowerIsBetter = "lower is better"
    /// Taps (completed actions): an increase is an improvement.
    case higherIsBetter = "higher is better"
}

/// The verdict on the treatment B against the control A for one metric.
public enum Verdict: String, Sendable, Hashable {
    case better
    case worse
    case noDetectableDifference = "no detectable difference"
    /// Some arm has fewer sessions than `StatsConfiguration.minimumSessionsPerArm` (users than
    /// `minimumUsersPerArm`, by user), or the metric could not be computed.
    case tooFewData = "too few data"

    /// Decides a verdict.
    ///
    /// - Too few data when any arm count is below `configuration.minimumSessionsPerArm`.
    /// - Otherwise the difference is detectable when the given evidence says so: p < α if a p-value
    ///   is given, and the interval excludes 0 if an interval is given (both must agree when both
    ///   are given — e.g. Fisher's p-value and Newcombe's interval can disagree near α, and then no
    ///   difference is claimed). With neither, no difference is claimed.
    /// - A detectable difference is better or worse by the sign of `difference` (B − A) and the
    ///   metric's direction.
    public init(
        direction: MetricDirection, difference: Double,
        pValue: Double? = nil, interval: ConfidenceInterval? = nil,
        armCounts: [Int], configuration: StatsConfiguration = StatsConfiguration()
    ) {
        self.init(direction: direction, difference: difference, pValue: pValue, interval: interval, armCounts: armCounts,
                  minimum: configuration.minimumSessionsPerArm, alpha: configuration.alpha)
    }

    /// The same rule with the minimum count per arm given (`minimumUsersPerArm` when the arm
    /// counts are users).
    public init(direction: MetricDirection, difference: Double, pValue: Double?, interval: ConfidenceInterval?,
                armCounts: [Int], minimum: Int, alpha: Double) {
        if armCounts.isEmpty || armCounts.contains(where: { $0 < minimum }) {
            self = .tooFewData
            return
        }
        let bySignificance = pValue.map { $0 < alpha }
        let byInterval = interval.map { $0.excludes(0) }
        let detectable = (bySignificance ?? true) && (byInterval ?? true) && (pValue != nil || interval != nil)
        guard detectable, difference != 0, !difference.isNaN else {
            self = .noDetectableDifference
            return
        }
        let increased = difference > 0
        self = (increased == (direction == .higherIsBetter)) ? .better : .worse
    }
}

extension ProportionComparison {
    /// The verdict from the p-value and Newcombe's interval of B − A, with n_A, n_B as arm counts.
    public func verdict(direction: MetricDirection, configuration: StatsConfiguration = StatsConfiguration()) -> Verdict {
        Verdict(direction: direction, difference: difference.difference, pValue: pValue,
                interval: difference.interval, armCounts: [control.trials, treatment.trials],
                configuration: configuration)
    }
}

extension MeanComparison {
    /// The verdict from Welch's p-value and interval of B − A, with n_A, n_B as arm counts.
    public func verdict(direction: MetricDirection, configuration: StatsConfiguration = StatsConfiguration()) -> Verdict {
        Verdict(direction: direction, difference: welch.difference, pValue: welch.pValue,
                interval: welch.interval, armCounts: [welch.control.count, welch.treatment.count],
                configuration: configuration)
    }
}
