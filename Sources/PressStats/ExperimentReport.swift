// From two arms' data to the rows `pressdb compare` prints: which test each metric gets, how
// p-values are adjusted across metrics, the health checks, and the verdicts. The row builders
// are in ExperimentRows.swift.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PressCore

/// One metric's comparison of B with A. Values are fractions for rates and milliseconds for
/// latencies; `difference` is B − A in the same unit. The names in brackets are the CSV/JSON
/// columns `pressdb compare` prints.
public struct ExperimentRow: Sendable, Hashable {
    /// What the verdict of a row is decided from.
    public enum Evidence: Sendable, Hashable {
        /// The p-value and the interval of `difference`, from one procedure.
        case differenceTest
        /// The interval of `difference` alone (session-level p90: no test).
        case intervalOnly
        /// A test of a distribution shift (Mann–Whitney U, Wilcoxon signed-rank) that is not a test
        /// of `difference`: the p-value decides, and the sign of `shift` (> 0: B's values tend to
        /// be higher) gives the direction, even where the Hodges–Lehmann `difference` is 0.
        case distributionShift(shift: Double)
    }

    /// [`metric`]
    public var metric: ExperimentMetric
    /// A's value: the rate, the mean, or the percentile [`a`].
    public var control: Double
    /// A's 1 − α interval, where the row has one [`a_low`, `a_high`].
    public var controlInterval: ConfidenceInterval?
    /// [`b`, `b_low`, `b_high`]
    public var treatment: Double
    public var treatmentInterval: ConfidenceInterval?
    /// B − A [`diff`]; for a session-level p50 row, the Hodges–Lehmann shift (the median of the
    /// differences), which need not equal the difference of the two medians.
    public var difference: Double
    /// [`diff_low`, `diff_high`]; a confidence sequence when `sequential`.
    public var differenceInterval: ConfidenceInterval?
    /// `difference`/|A| [`rel_diff`]; nil when A is 0.
    public var relativeDifference: Double?
    /// Its interval [`rel_diff_low`, `rel_diff_high`]; nil where no sound interval is offered.
    public var relativeInterval: ConfidenceInterval?
    /// The test's two-sided p-value [`p_value`]; nil when the row has no test (session p90).
    public var pValue: Double?
    /// The p-value adjusted across the rows shown [`p_adjusted`] (nil without correction or p-value).
    public var adjustedPValue: Double?
    /// The test and interval used, in words [`test`]; the part before ";" is the test's name.
    public var test: String
    /// [`verdict`], worded by `Verdict`'s raw values.
    public var verdict: Verdict
    /// Observations behind A's and B's value [`n_a`, `n_b`]: sessions for rates, latency values
    /// otherwise (pairs in paired mode).
    public var controlCount: Int
    public var treatmentCount: Int
    /// Paired mode, rates: McNemar's table of all pairs [`a_only` = b, `b_only` = c].
    public var pairedCounts: PairedCounts?
    /// The unit of analysis [`unit`]: users, or sessions.
    public var unit: AnalysisUnit = .session
    /// Units behind A's and B's value [`units_a`, `units_b`]: users (with a value, for latency
    /// rows), or the same as `controlCount`/`treatmentCount` by session; users paired in paired mode.
    public var controlUnits: Int = 0
    public var treatmentUnits: Int = 0
    /// The standard error of `difference` [`se`], where the row's procedure has one.
    public var standardError: Double?
    /// The minimum detectable effect [`mde`]: the true |B − A| this comparison detects with
    /// probability `StatsConfiguration.power` (80 %), from its standard error (`PowerAnalysis`).
    public var minimumDetectableEffect: Double?
    /// The MDE relative to A [`mde_rel`].
    public var relativeMinimumDetectableEffect: Double?
    /// Units per arm needed to detect `StatsConfiguration.plannedEffect` [`units_needed`].
    public var unitsNeededPerArm: Int?
    /// Whether the interval is a confidence sequence and the p-value always valid [`sequential`].
    public var sequential: Bool = false
    /// What the verdict is decided from.
    public var evidence: Evidence = .differenceTest
    /// Latency rows: whether the difference can be perceived (`classifyingPerceptibility`)
    /// [`perceptible`]; nil for rates and until classified.
    public var perceptible: Perceptibility? = nil
    /// By user: Kish's effective number of users behind A's and B's value, (ΣX)²/ΣX² of the
    /// users' weights X (`RatioSummary.effectiveUnits`); nil by session.
    public var controlEffectiveUnits: Double? = nil
    public var treatmentEffectiveUnits: Double? = nil
    /// With CUPED: 1 − Var(adjusted B − A)/Var(unadjusted B − A) [`var_reduction`]; nil without.
    public var varianceReduction: Double? = nil

    /// Whether an arm's effective number of users is below `minimum`.
    func carriedByFewUsers(minimum: Double) -> Bool {
        [controlEffectiveUnits, treatmentEffectiveUnits].contains { $0.map { $0 < minimum } ?? false }
    }

    /// The p-value the verdict uses: the adjusted one when there is one.
    public var decisionPValue: Double? { adjustedPValue ?? pValue }
}

/// A health check's finding, with the metric it concerns (for a suspicious lift).
public struct ExperimentWarning: Sendable, Hashable {
    public var warning: HealthWarning
    public var metric: ExperimentMetric?
    /// A one-line explanation naming the arms.
    public var message: String
}

/// The settings of the percentile bootstrap, reported with its results.
public struct BootstrapRun: Sendable, Hashable {
    public var replicates: Int
    public var seed: UInt64
}

/// A whole comparison: rows, the sample ratio test (observed mode) and the warnings to show
/// above the rows.
public struct ExperimentReport: Sendable, Hashable {
    public enum Mode: String, Sendable, Hashable {
        /// Different sessions in each arm (an A/B test as recorded).
        case observed
        /// The same sessions replayed under both configurations.
        case paired
    }

    public var mode: Mode
    public var controlName: String
    public var treatmentName: String
    /// Sessions per arm (observed) or pairs (paired, both the same).
    public var controlSessions: Int
    public var treatmentSessions: Int
    public var rows: [ExperimentRow]
    public var correction: MultipleComparisonCorrection
    public var configuration: StatsConfiguration
    /// Observed mode: the χ² test of the arms' units (users or sessions) against the intended split.
    public var sampleRatio: SampleRatioMismatchTest?
    /// The intended split the sample ratio test used (fractions summing to 1).
    public var expectedSplit: [Double]
    public var warnings: [ExperimentWarning]
    /// The unit of analysis of every row.
    public var unit: AnalysisUnit = .session
    /// Units per arm: users (paired: the users with a pair, both the same), or sessions (pairs).
    public var controlUnits: Int = 0
    public var treatmentUnits: Int = 0
    /// The bootstrap behind the percentile rows, when one ran.
    public var bootstrap: BootstrapRun?
    /// The threshold (ms) latency rows were classified against, when they were.
    public var perceptionThreshold: Double? = nil

    /// Whether the intervals are confidence sequences and the p-values always valid.
    public var isSequential: Bool { configuration.sequential }
}

/// Builds comparisons.
///
///     let report = try Experiment.observed(control: armA, treatment: armB)
///     for row in report.rows { print(row.metric.rawValue, row.difference, row.verdict.rawValue) }
public enum Experiment {
    /// Compares two independent arms session by session (`--unit session`).
    ///
    /// - Rates: Newcombe's hybrid score interval for B − A; the pooled two-proportion z-test, or
    ///   Fisher's exact test when any cell is below `minimumCellCountForZTest`; the relative
    ///   difference by the delta method (`ProportionComparison`).
    /// - Mean latency: Welch's t-test and its interval (`MeanComparison`).
    /// - p50: a distribution-shift row: each arm's median with its order-statistic interval; the
    ///   difference is the Hodges–Lehmann shift with Moses' interval, the p-value the Mann–Whitney
    ///   U test's, and the verdict follows that test (direction: the sign of U − n_A n_B/2).
    /// - p90: each arm's percentile with its order-statistic interval; the difference's interval is
    ///   the conservative `PercentileDifference`; no p-value, the verdict from the interval.
    /// - With `configuration.sequential`, every row is instead the delta-method z-test with each
    ///   session its own unit (percentiles: the bootstrap over sessions), as a confidence sequence.
    /// - Rates and means carry the MDE from the z-test's standard error (sessions as units).
    ///
    /// Health checks: the sample ratio test of the sessions against `expectedSplit` (equal when
    /// nil), too few sessions per arm (then every verdict is "too few data"), and a suspicious lift
    /// (a detected difference of |B − A|/|A| ≥ `suspiciousRelativeLift`).
    ///
    /// - Throws: `StatsError` when α is invalid, an arm has negative counts, or the split does not
    ///   fit two arms. A metric that cannot be computed (e.g. no latency values) becomes a row
    ///   saying so, not an error.
    public static func observed(
        control: ObservedArm, treatment: ObservedArm,
        metrics: [ExperimentMetric] = ExperimentMetric.all,
        expectedSplit: [Double]? = nil,
        correction: MultipleComparisonCorrection = .holm,
        configuration: StatsConfiguration = StatsConfiguration()
    ) throws(StatsError) -> ExperimentReport {
        try observedReport(control.name, treatment.name, sessions: (control.events.sessions, treatment.events.sessions),
                           units: (control.events.sessions, treatment.events.sessions), unit: .session,
                           expectedSplit: expectedSplit, correction: correction, configuration: configuration) {
            $0.observedSessionRows(metrics, control, treatment)
        }
    }

    /// Compares two independent arms of users (`--unit user`): variants were assigned per user.
    ///
    /// - Rates and means: ratio metrics over users, Σ numerator / Σ denominator, with the
    ///   delta-method z-test (`DeltaMethodZTest`: Deng, Knoblich & Lu 2018, §3) and the relative
    ///   difference on the log scale; each arm's own interval is R̂ ± z·SE (clamped to [0, 1] for rates).
    /// - p50, p90: the bootstrap over users (`ClusterBootstrapQuantiles`) with the configured
    ///   replicates and seed: the percentile interval and the p-value that inverts it.
    /// - With `configuration.sequential`: confidence sequences and always-valid p-values
    ///   (`ConfidenceSequence`) with N the users behind the row; percentiles use the bootstrap SE.
    /// - Every row carries its standard error and MDE (`PowerAnalysis`), and the units needed for
    ///   `configuration.plannedEffect`.
    ///
    /// - With `covariates` for a rate or mean: CUPED (`CUPEDRatioTest`) with each user's
    ///   pre-experiment value of the metric; A and B stay the unadjusted values, B − A, its
    ///   interval, p, the relative difference and the MDE are the adjusted ones, and the row
    ///   carries the variance reduction.
    ///
    /// Health: the sample ratio test on users, too few users (`minimumUsersPerArm`), suspicious lifts.
    /// - Throws: as the session form.
    public static func observed(
        control: UserArm, treatment: UserArm,
        metrics: [ExperimentMetric] = ExperimentMetric.all,
        expectedSplit: [Double]? = nil,
        correction: MultipleComparisonCorrection = .holm,
        configuration: StatsConfiguration = StatsConfiguration(),
        covariates: [ExperimentMetric: (control: CovariateRatioSummary, treatment: CovariateRatioSummary)] = [:]
    ) throws(StatsError) -> ExperimentReport {
        try observedReport(control.name, treatment.name, sessions: (control.sessions, treatment.sessions),
                           units: (control.users, treatment.users), unit: .user,
                           expectedSplit: expectedSplit, correction: correction, configuration: configuration) {
            $0.covariates = covariates
            return $0.observedUserRows(metrics, control, treatment)
        }
    }

    /// Compares two configurations on the same sessions, session by session (each press is its own
    /// control).
    ///
    /// - Rates: McNemar's test (exact binomial below 25 discordant pairs, else χ² with Edwards'
    ///   continuity correction) and the Wald interval for dependent proportions.
    /// - Mean latency: the paired t-test on the differences B − A.
    /// - p50: a distribution-shift row: each configuration's median with its order-statistic
    ///   interval; the difference is the Hodges–Lehmann estimate of the paired differences (median
    ///   of the Walsh averages) with Tukey's interval, the p-value the Wilcoxon signed-rank test's,
    ///   and the verdict follows that test (direction: the sign of V − n(n + 1)/4).
    /// - p90: as in observed mode (Bonferroni makes the interval valid for dependent arms too).
    /// - With `configuration.sequential`: the paired delta-method z-test with each pair its own
    ///   unit (percentiles: the paired bootstrap over sessions), as a confidence sequence.
    ///
    /// Latency rows use the sessions that have that latency under both configurations.
    /// Health: too few pairs (below `minimumSessionsPerArm`) and suspicious lifts.
    public static func paired(
        _ arms: PairedArms,
        metrics: [ExperimentMetric] = ExperimentMetric.all,
        correction: MultipleComparisonCorrection = .holm,
        configuration: StatsConfiguration = StatsConfiguration()
    ) throws(StatsError) -> ExperimentReport {
        try pairedReport(arms.controlName, arms.treatmentName, pairs: arms.pairs, units: arms.pairs, unit: .session,
                         correction: correction, configuration: configuration) { $0.pairedSessionRows(metrics, arms) }
    }

    /// Compares two configurations on the same sessions, by user: the sessions of a user are one
    /// cluster of pairs.
    ///
    /// - Rates: Obuchowski's cluster-adjusted McNemar statistic in its Wald form — the paired
    ///   delta-method z-test on per-user counts (`DeltaMethodZTest(paired:)`; Obuchowski,
    ///   Statistics in Medicine 17:1495–1507, 1998).
    /// - Mean latency: the same z-test on per-user sums of the paired latencies (the ratio estimator
    ///   of the mean difference B − A per pair, with users as clusters; with equal pairs per user it
    ///   is the z-test on per-user mean differences).
    /// - p50, p90: the paired bootstrap over users (each resample draws users once for both).
    /// - Sequential, MDE and units needed as in the observed form, with N the users.
    ///
    /// Health: too few users (`minimumUsersPerArm`) and suspicious lifts.
    public static func paired(
        _ arms: PairedUserArms,
        metrics: [ExperimentMetric] = ExperimentMetric.all,
        correction: MultipleComparisonCorrection = .holm,
        configuration: StatsConfiguration = StatsConfiguration()
    ) throws(StatsError) -> ExperimentReport {
        try pairedReport(arms.controlName, arms.treatmentName, pairs: arms.pairs, units: arms.users, unit: .user,
                         correction: correction, configuration: configuration) { $0.pairedUserRows(metrics, arms) }
    }

    // MARK: Shared steps

    static func validate(_ c: StatsConfiguration) throws(StatsError) {
        try PressStats.validate(alpha: c.alpha)
        guard c.power > 0, c.power < 1 else { throw .invalidInput("power must lie in (0, 1), got \(c.power)") }
        guard c.sequentialTuning > 0, c.sequentialTuning.isFinite else {
            throw .invalidInput("the sequential tuning N* must be positive, got \(c.sequentialTuning)")
        }
        guard c.bootstrapReplicates >= 1 else {
            throw .invalidInput("the bootstrap needs at least 1 replicate, got \(c.bootstrapReplicates)")
        }
    }

    /// An observed report: the rows, and the health checks on the randomized units.
    static func observedReport(_ a: String, _ b: String, sessions: (Int, Int), units: (Int, Int), unit: AnalysisUnit,
                               expectedSplit: [Double]?, correction: MultipleComparisonCorrection,
                               configuration: StatsConfiguration,
                               rows: (inout RowBuilder) -> [ExperimentRow]) throws(StatsError) -> ExperimentReport {
        try validate(configuration)
        let health = try HealthCheck(armCounts: [units.0, units.1], expectedFractions: expectedSplit,
                                     configuration: configuration, unit: unit)
        var builder = RowBuilder(configuration: configuration, unit: unit)
        let built = rows(&builder)
        return report(.observed, a, b, sessions: sessions, units: units, rows: built, builder: builder,
                      correction: correction, health: health, expectedSplit: expectedSplit)
    }

    /// A paired report: the rows, and a warning when the units paired (sessions or users) are
    /// below the minimum.
    static func pairedReport(_ a: String, _ b: String, pairs: Int, units: Int, unit: AnalysisUnit,
                             correction: MultipleComparisonCorrection, configuration: StatsConfiguration,
                             rows: (inout RowBuilder) -> [ExperimentRow]) throws(StatsError) -> ExperimentReport {
        try validate(configuration)
        var builder = RowBuilder(configuration: configuration, unit: unit)
        let built = rows(&builder)
        let minimum = unit == .user ? configuration.minimumUsersPerArm : configuration.minimumSessionsPerArm
        let health: [HealthWarning] = units >= minimum ? []
            : [unit == .user ? .tooFewUsers(arm: 0, count: units, minimum: minimum) : .tooFewSessions(arm: 0, count: units, minimum: minimum)]
        return report(.paired, a, b, sessions: (pairs, pairs), units: (units, units), rows: built, builder: builder,
                      correction: correction, pairedHealth: health)
    }

    static func normalised(_ fractions: [Double]) -> [Double] {
        let total = fractions.reduce(0, +)
        return fractions.map { $0 / total }
    }

    static func report(_ mode: ExperimentReport.Mode, _ a: String, _ b: String, sessions: (Int, Int), units: (Int, Int),
                       rows: [ExperimentRow], builder: RowBuilder, correction: MultipleComparisonCorrection,
                       health: HealthCheck? = nil, expectedSplit: [Double]? = nil,
                       pairedHealth: [HealthWarning] = []) -> ExperimentReport {
        let total = Double(units.0 + units.1)
        let split = health?.sampleRatioMismatch.map { srm in srm.expected.map { $0 / total } }
            ?? normalised(expectedSplit ?? [1, 1])
        var report = ExperimentReport(
            mode: mode, controlName: a, treatmentName: b, controlSessions: sessions.0, treatmentSessions: sessions.1,
            rows: rows, correction: correction, configuration: builder.configuration,
            sampleRatio: health?.sampleRatioMismatch, expectedSplit: split, warnings: [],
            unit: builder.unit, controlUnits: units.0, treatmentUnits: units.1, bootstrap: builder.bootstrap)
        finish(&report, health: health?.warnings ?? pairedHealth)
        return report
    }

    /// Adjusts the p-values across the rows, decides the verdicts, and collects the warnings.
    static func finish(_ report: inout ExperimentReport, health: [HealthWarning]) {
        let c = report.configuration
        let armCounts = [report.controlUnits, report.treatmentUnits]
        let minimum = report.unit == .user ? c.minimumUsersPerArm : c.minimumSessionsPerArm
        // Where no verdict can be given, no p-value is shown as if it were one: too few units make
        // the normal approximation behind it unreliable, and it leaves the adjustment's family.
        if armCounts.contains(where: { $0 < minimum }) {
            for i in report.rows.indices { report.rows[i].pValue = nil }
        }
        // A row carried by a few heavy users gets no verdict either (Kish's effective number).
        let heavy = report.rows.indices.filter { report.rows[$0].carriedByFewUsers(minimum: c.minimumEffectiveUsersPerArm) }
        for i in heavy { report.rows[i].pValue = nil }
        let raw = report.rows.map { $0.pValue ?? .nan }
        if report.correction != .none {
            let adjusted = report.correction.adjust(raw)
            for i in report.rows.indices where !adjusted[i].isNaN { report.rows[i].adjustedPValue = adjusted[i] }
        }
        decideVerdicts(&report)
        let a = report.controlName, b = report.treatmentName
        let units = report.unit == .user ? "users" : "sessions"
        var health = health
        for (arm, effective) in [(0, \ExperimentRow.controlEffectiveUnits), (1, \ExperimentRow.treatmentEffectiveUnits)] {
            let low = heavy.compactMap { report.rows[$0][keyPath: effective] }.filter { $0 < c.minimumEffectiveUsersPerArm }
            if let least = low.min() {
                health.append(.heavyUsers(arm: arm, effective: least, users: arm == 0 ? report.controlUnits : report.treatmentUnits,
                                          minimum: c.minimumEffectiveUsersPerArm))
            }
        }
        for w in health {
            switch w {
            case let .sampleRatioMismatch(chiSquared, pValue):
                let percent = report.expectedSplit.map { String(Int(($0 * 100).rounded())) }.joined(separator: "/")
                report.warnings.append(ExperimentWarning(warning: w, metric: nil, message:
                    "sample ratio mismatch: \(a) has \(report.controlUnits) \(units) and \(b) \(report.treatmentUnits), "
                    + "against an intended \(percent) split (χ² = \(short(chiSquared)), p = \(short(pValue)) < \(short(c.sampleRatioMismatchThreshold))); "
                    + "the arms were not assigned as intended, so no result below can be trusted"))
            case let .tooFewSessions(arm, count, minimum):
                let what = report.mode == .paired ? "only \(counted(count, "session")) could be paired" : "\(arm == 0 ? a : b) has only \(counted(count, "session"))"
                report.warnings.append(ExperimentWarning(warning: w, metric: nil, message:
                    "too few sessions: \(what), fewer than \(minimum); no verdict and no p-value are given"))
            case let .tooFewUsers(arm, count, minimum):
                let what = report.mode == .paired ? "only \(counted(count, "user")) \(count == 1 ? "has" : "have") paired sessions" : "\(arm == 0 ? a : b) has only \(counted(count, "user"))"
                report.warnings.append(ExperimentWarning(warning: w, metric: nil, message:
                    "too few users: \(what), fewer than \(minimum); no verdict and no p-value are given"))
            case let .heavyUsers(arm, effective, users, minimum):
                let names = heavy.map { report.rows[$0].metric.rawValue }
                let rows = names.count == report.rows.count ? "every row" : names.joined(separator: ", ")
                report.warnings.append(ExperimentWarning(warning: w, metric: nil, message:
                    "heavy users: \(arm == 0 ? a : b)'s \(counted(users, "user")) weigh as \(short(effective)) equal ones "
                    + "(Kish's effective number, (Σx)²/Σx² of their sessions or values), fewer than \(short(minimum)); "
                    + "no verdict and no p-value for \(rows)"))
            case .suspiciousLift:
                break
            }
        }
        warnSuspiciousLifts(&report)
    }

    /// Each row's verdict from its decision p-value (adjusted, when there is one) and interval;
    /// rows carried by a few heavy users get none. Run again when the p-values are adjusted
    /// over a larger family (`Experiment.manyArms`).
    static func decideVerdicts(_ report: inout ExperimentReport) {
        let c = report.configuration
        let armCounts = [report.controlUnits, report.treatmentUnits]
        let minimum = report.unit == .user ? c.minimumUsersPerArm : c.minimumSessionsPerArm
        let heavy = report.rows.indices.filter { report.rows[$0].carriedByFewUsers(minimum: c.minimumEffectiveUsersPerArm) }
        for i in report.rows.indices {
            let row = report.rows[i]
            guard !row.difference.isNaN, !heavy.contains(i) else { report.rows[i].verdict = .tooFewData; continue }
            switch row.evidence {
            case .differenceTest, .intervalOnly:
                // The side of an interval that excludes 0 is the direction (a bootstrap interval
                // need not be centred on the estimate); otherwise the estimate's sign.
                let signal = row.differenceInterval.map { $0.excludes(0) ? ($0.lower > 0 ? 1 : -1) : row.difference }
                    ?? row.difference
                report.rows[i].verdict = Verdict(direction: row.metric.direction, difference: signal,
                                                 pValue: row.decisionPValue, interval: row.differenceInterval,
                                                 armCounts: armCounts, minimum: minimum, alpha: c.alpha)
            case .distributionShift(let shift):
                report.rows[i].verdict = Verdict(direction: row.metric.direction, difference: shift,
                                                 pValue: row.decisionPValue, interval: nil,
                                                 armCounts: armCounts, minimum: minimum, alpha: c.alpha)
            }
        }
    }

    /// A warning for every detected difference too large to be believed.
    static func warnSuspiciousLifts(_ report: inout ExperimentReport) {
        let c = report.configuration
        let a = report.controlName, b = report.treatmentName
        for row in report.rows where row.verdict == .better || row.verdict == .worse {
            guard let rel = row.relativeDifference, let w = HealthCheck.suspiciousLift(rel, configuration: c) else { continue }
            report.warnings.append(ExperimentWarning(warning: w, metric: row.metric, message:
                "suspicious lift: \(row.metric.rawValue) is \(short(abs(rel) * 100)) % \(rel > 0 ? "higher" : "lower") in \(b) than in \(a) "
                + "(≥ \(short(c.suspiciousRelativeLift * 100)) %); "
                + (report.mode == .observed
                    ? "an effect this large from an animation change is more often a bug or a broken arm"
                    : "check that both configurations are the ones you meant")))
        }
    }

    /// A number for a message: C's `%.4g`, four significant digits.
    static func short(_ x: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 48)
        let written = withVaList([x]) { vsnprintf(&buffer, buffer.count, "%.4g", $0) }
        return String(decoding: buffer.prefix(max(0, Int(written))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
