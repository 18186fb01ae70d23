// Health checks that come before any verdict: is the split between arms what was intended
// (sample ratio mismatch), are there enough sessions, is a lift too large to be believed.

/// Pearson's χ² goodness-of-fit test of the arms' unit counts (sessions or users) against the intended split
/// (sample ratio mismatch; Fabijan et al., "Diagnosing Sample Ratio Mismatch in Online Controlled
/// Experiments", KDD 2019):
///   χ² = Σ (Oᵢ − Eᵢ)²/Eᵢ,  Eᵢ = N πᵢ,  k − 1 degrees of freedom.
/// A mismatch is flagged when p < the threshold (default 0.001, as gbstats).
public struct SampleRatioMismatchTest: Sendable, Hashable {
    /// Oᵢ, the observed units per arm (sessions, or users when users were randomized).
    public let observed: [Int]
    /// Eᵢ = N πᵢ, the expected units per arm.
    public let expected: [Double]
    /// χ².
    public let chiSquared: Double
    /// k − 1.
    public let degreesOfFreedom: Int
    /// P(χ²_{k−1} > χ²).
    public let pValue: Double
    /// Whether p < `threshold`.
    public let isMismatch: Bool
    /// The threshold the p-value was compared with.
    public let threshold: Double

    /// - Parameters:
    ///   - counts: units per arm (at least two arms): the units that were randomized.
    ///   - expectedFractions: the intended split πᵢ, normalised to sum 1; nil for an equal split.
    ///   - threshold: flag when p < this (default 0.001).
    /// - Throws: `StatsError.invalidInput` for fewer than two arms, mismatched lengths, negative
    ///   counts or non-positive fractions; `.tooFewObservations` when every count is 0.
    public init(
        counts: [Int], expectedFractions: [Double]? = nil,
        threshold: Double = StatsConfiguration.defaultSampleRatioMismatchThreshold
    ) throws(StatsError) {
        guard counts.count >= 2 else { throw .invalidInput("a sample ratio test needs at least two arms, got \(counts.count)") }
        guard counts.allSatisfy({ $0 >= 0 }) else { throw .invalidInput("arm counts must be non-negative: \(counts)") }
        let fractions = expectedFractions ?? Array(repeating: 1, count: counts.count)
        guard fractions.count == counts.count else {
            throw .invalidInput("\(counts.count) arms but \(fractions.count) expected fractions")
        }
        guard fractions.allSatisfy({ $0 > 0 && $0.isFinite }) else {
            throw .invalidInput("expected fractions must be positive: \(fractions)")
        }
        let total = counts.reduce(0, +)
        guard total > 0 else { throw .tooFewObservations(needed: 1, got: 0) }
        let fractionSum = fractions.reduce(0, +)
        let expected = fractions.map { Double(total) * $0 / fractionSum }
        var chiSquared = 0.0
        for (o, e) in zip(counts, expected) { chiSquared += (Double(o) - e) * (Double(o) - e) / e }
        self.observed = counts
        self.expected = expected
        self.chiSquared = chiSquared
        self.degreesOfFreedom = counts.count - 1
        self.pValue = ChiSquared(degreesOfFreedom: Double(counts.count - 1)).survival(chiSquared)
        self.threshold = threshold
        self.isMismatch = pValue < threshold
    }
}

/// A reason not to trust, or not to give, a verdict.
public enum HealthWarning: Sendable, Hashable {
    /// The arms' counts do not match the intended split (χ² goodness of fit, p below the threshold).
    case sampleRatioMismatch(chiSquared: Double, pValue: Double)
    /// An arm has fewer sessions than the minimum (arm index into the counts given).
    case tooFewSessions(arm: Int, count: Int, minimum: Int)
    /// An arm has fewer users than the minimum, when the analysis is by user.
    case tooFewUsers(arm: Int, count: Int, minimum: Int)
    /// Users so unequal in weight that an arm's effective number of users (Kish) is below the
    /// minimum in some rows, by user.
    case heavyUsers(arm: Int, effective: Double, users: Int, minimum: Double)
    /// A relative difference at or above the suspicious threshold (as a fraction: 0.6 = 60 %).
    case suspiciousLift(relativeDifference: Double, threshold: Double)

    /// A one-line explanation for reports.
    public var message: String {
        switch self {
        case let .sampleRatioMismatch(chiSquared, pValue):
            return "sample ratio mismatch: arm counts differ from the intended split (χ² = \(chiSquared), p = \(pValue)); results are not trustworthy"
        case let .tooFewSessions(arm, count, minimum):
            return "too few sessions in arm \(arm): \(count) < \(minimum); no verdict"
        case let .tooFewUsers(arm, count, minimum):
            return "too few users in arm \(arm): \(count) < \(minimum); no verdict"
        case let .heavyUsers(arm, effective, users, minimum):
            return "heavy users in arm \(arm): \(users) users weigh as \(effective) (Kish) < \(minimum); no verdict"
        case let .suspiciousLift(relativeDifference, threshold):
            return "suspicious lift of \(relativeDifference * 100) % (≥ \(threshold * 100) %): check for a bug or a broken arm"
        }
    }
}

/// The health of a comparison: the sample ratio test and every warning that applies.
public struct HealthCheck: Sendable, Hashable {
    /// The sample ratio test (nil when every arm is empty).
    public let sampleRatioMismatch: SampleRatioMismatchTest?
    /// Warnings, in the order: sample ratio mismatch, then too few sessions (or users) per arm.
    public let warnings: [HealthWarning]

    /// Whether some arm has fewer than the minimum sessions or users (then no verdict should be given).
    public var hasTooFewSessions: Bool {
        warnings.contains {
            switch $0 {
            case .tooFewSessions, .tooFewUsers: true
            default: false
            }
        }
    }

    /// - Parameters:
    ///   - armCounts: units per arm (at least two): sessions, or users when `unit` is `.user` —
    ///     randomization assigns users, so the split is checked on users.
    ///   - expectedFractions: the intended split; nil for equal.
    ///   - unit: which minimum applies (`minimumSessionsPerArm` or `minimumUsersPerArm`).
    /// - Throws: as `SampleRatioMismatchTest`, except that all-empty arms give no test.
    public init(armCounts: [Int], expectedFractions: [Double]? = nil, configuration: StatsConfiguration = StatsConfiguration(),
                unit: AnalysisUnit = .session) throws(StatsError) {
        var warnings: [HealthWarning] = []
        if armCounts.reduce(0, +) > 0 {
            let srm = try SampleRatioMismatchTest(
                counts: armCounts, expectedFractions: expectedFractions,
                threshold: configuration.sampleRatioMismatchThreshold)
            if srm.isMismatch { warnings.append(.sampleRatioMismatch(chiSquared: srm.chiSquared, pValue: srm.pValue)) }
            self.sampleRatioMismatch = srm
        } else {
            self.sampleRatioMismatch = nil
        }
        let minimum = unit == .user ? configuration.minimumUsersPerArm : configuration.minimumSessionsPerArm
        for (arm, count) in armCounts.enumerated() where count < minimum {
            warnings.append(unit == .user ? .tooFewUsers(arm: arm, count: count, minimum: minimum)
                                          : .tooFewSessions(arm: arm, count: count, minimum: minimum))
        }
        self.warnings = warnings
    }

    /// A warning when |relative difference| ≥ the configuration's suspicious lift (default 50 %).
    public static func suspiciousLift(_ relativeDifference: Double, configuration: StatsConfiguration = StatsConfiguration()) -> HealthWarning? {
        abs(relativeDifference) >= configuration.suspiciousRelativeLift
            ? .suspiciousLift(relativeDifference: relativeDifference, threshold: configuration.suspiciousRelativeLift) : nil
    }
}
