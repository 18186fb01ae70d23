// From two arms' data to the rows `pressdb compare` prints: which test each metric gets, how
// p-values are adjusted across metrics, the health checks, and the verdicts.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One metric's comparison of B with A. Values are fractions for rates and milliseconds for
/// latencies; `difference` is B − A in the same unit.
public struct ExperimentRow: Sendable, Hashable {
    public var metric: ExperimentMetric
    /// A's value: the rate, the mean, or the percentile.
    public var control: Double
    /// A's 1 − α interval, where the row has one (Wilson for rates, order statistics for
    /// percentiles; none for means).
    public var controlInterval: ConfidenceInterval?
    public var treatment: Double
    public var treatmentInterval: ConfidenceInterval?
    /// B − A; for a p50 row, the Hodges–Lehmann shift (the median of the differences), which need
    /// not equal the difference of the two medians.
    public var difference: Double
    public var differenceInterval: ConfidenceInterval?
    /// (B − A)/|A|; nil when A is 0.
    public var relativeDifference: Double?
    /// Its delta-method interval; nil for percentile rows (no sound interval is offered).
    public var relativeInterval: ConfidenceInterval?
    /// The test's two-sided p-value; nil when the row has no test (p90: intervals only).
    public var pValue: Double?
    /// The p-value adjusted across the rows shown (nil without correction or without a p-value).
    public var adjustedPValue: Double?
    /// The test and interval used, in words.
    public var test: String
    public var verdict: Verdict
    /// Observations behind A's and B's value: sessions for rates, latency values otherwise
    /// (pairs in paired mode).
    public var controlCount: Int
    public var treatmentCount: Int
    /// Paired mode, rates: the McNemar table.
    public var pairedCounts: PairedCounts?

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
    /// Observed mode: the χ² test of the arms' counts against the intended split.
    public var sampleRatio: SampleRatioMismatchTest?
    /// The intended split the sample ratio test used (fractions summing to 1).
    public var expectedSplit: [Double]
    public var warnings: [ExperimentWarning]
}

/// Builds comparisons.
///
///     let report = try Experiment.observed(control: armA, treatment: armB)
///     for row in report.rows { print(row.metric.rawValue, row.difference, row.verdict.rawValue) }
public enum Experiment {
    /// Compares two independent arms (different sessions).
    ///
    /// - Rates: Newcombe's hybrid score interval for B − A; the pooled two-proportion z-test, or
    ///   Fisher's exact test when any cell is below `minimumCellCountForZTest`; the relative
    ///   difference by the delta method (`ProportionComparison`).
    /// - Mean latency: Welch's t-test and its interval (`MeanComparison`).
    /// - p50: each arm's median with its order-statistic interval; the difference is the
    ///   Hodges–Lehmann shift with Moses' interval, the p-value the Mann–Whitney U test's.
    /// - p90: each arm's percentile with its order-statistic interval; the difference's interval is
    ///   the conservative `PercentileDifference`; no p-value.
    ///
    /// Health checks: the sample ratio test against `expectedSplit` (equal when nil), too few
    /// sessions per arm (then every verdict is "too few data"), and a suspicious lift (a detected
    /// difference of |B − A|/|A| ≥ `suspiciousRelativeLift`).
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
        try validate(alpha: configuration.alpha)
        let counts = [control.events.sessions, treatment.events.sessions]
        let health = try HealthCheck(armCounts: counts, expectedFractions: expectedSplit, configuration: configuration)
        let split = health.sampleRatioMismatch.map { srm in srm.expected.map { $0 / Double(counts.reduce(0, +)) } }
            ?? normalised(expectedSplit ?? [1, 1])
        var rows: [ExperimentRow] = []
        for metric in metrics {
            rows.append(observedRow(metric, control, treatment, configuration))
        }
        var report = ExperimentReport(
            mode: .observed, controlName: control.name, treatmentName: treatment.name,
            controlSessions: counts[0], treatmentSessions: counts[1], rows: rows, correction: correction,
            configuration: configuration, sampleRatio: health.sampleRatioMismatch, expectedSplit: split, warnings: [])
        finish(&report, health: health.warnings)
        return report
    }

    /// Compares two configurations on the same sessions (each press is its own control).
    ///
    /// - Rates: McNemar's test (exact binomial below 25 discordant pairs, else χ² with Edwards'
    ///   continuity correction) and the Wald interval for dependent proportions.
    /// - Mean latency: the paired t-test on the differences B − A.
    /// - p50: each configuration's median with its order-statistic interval; the difference is the
    ///   Hodges–Lehmann estimate of the paired differences (median of the Walsh averages) with
    ///   Tukey's interval, the p-value the Wilcoxon signed-rank test's.
    /// - p90: as in observed mode (Bonferroni makes the interval valid for dependent arms too).
    ///
    /// Latency rows use the sessions that have that latency under both configurations.
    /// Health: too few pairs (below `minimumSessionsPerArm`) and suspicious lifts.
    public static func paired(
        _ arms: PairedArms,
        metrics: [ExperimentMetric] = ExperimentMetric.all,
        correction: MultipleComparisonCorrection = .holm,
        configuration: StatsConfiguration = StatsConfiguration()
    ) throws(StatsError) -> ExperimentReport {
        try validate(alpha: configuration.alpha)
        var rows: [ExperimentRow] = []
        for metric in metrics { rows.append(pairedRow(metric, arms, configuration)) }
        var health: [HealthWarning] = []
        if arms.pairs < configuration.minimumSessionsPerArm {
            health.append(.tooFewSessions(arm: 0, count: arms.pairs, minimum: configuration.minimumSessionsPerArm))
        }
        var report = ExperimentReport(
            mode: .paired, controlName: arms.controlName, treatmentName: arms.treatmentName,
            controlSessions: arms.pairs, treatmentSessions: arms.pairs, rows: rows, correction: correction,
            configuration: configuration, sampleRatio: nil, expectedSplit: [0.5, 0.5], warnings: [])
        finish(&report, health: health)
        return report
    }

    // MARK: Shared steps

    static func normalised(_ fractions: [Double]) -> [Double] {
        let total = fractions.reduce(0, +)
        return fractions.map { $0 / total }
    }

    /// Adjusts the p-values across the rows, decides the verdicts, and collects the warnings.
    static func finish(_ report: inout ExperimentReport, health: [HealthWarning]) {
        let c = report.configuration
        let raw = report.rows.map { $0.pValue ?? .nan }
        if report.correction != .none {
            let adjusted = report.correction.adjust(raw)
            for i in report.rows.indices where !adjusted[i].isNaN { report.rows[i].adjustedPValue = adjusted[i] }
        }
        let armCounts = [report.controlSessions, report.treatmentSessions]
        for i in report.rows.indices {
            let row = report.rows[i]
            guard !row.difference.isNaN else { report.rows[i].verdict = .tooFewData; continue }
            report.rows[i].verdict = Verdict(direction: row.metric.direction, difference: row.difference,
                                             pValue: row.decisionPValue, interval: row.differenceInterval,
                                             armCounts: armCounts, configuration: c)
        }
        let a = report.controlName, b = report.treatmentName
        for w in health {
            switch w {
            case let .sampleRatioMismatch(chiSquared, pValue):
                let percent = report.expectedSplit.map { String(Int(($0 * 100).rounded())) }.joined(separator: "/")
                report.warnings.append(ExperimentWarning(warning: w, metric: nil, message:
                    "sample ratio mismatch: \(a) has \(report.controlSessions) sessions and \(b) \(report.treatmentSessions), "
                    + "against an intended \(percent) split (χ² = \(short(chiSquared)), p = \(short(pValue)) < \(short(c.sampleRatioMismatchThreshold))); "
                    + "the arms were not assigned as intended, so no result below can be trusted"))
            case let .tooFewSessions(arm, count, minimum):
                let what = report.mode == .paired ? "only \(count) sessions could be paired" : "\(arm == 0 ? a : b) has only \(count) sessions"
                report.warnings.append(ExperimentWarning(warning: w, metric: nil, message:
                    "too few sessions: \(what), fewer than \(minimum); no verdict is given"))
            case .suspiciousLift:
                break
            }
        }
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

    /// A row for a metric that could not be computed; the verdict is "too few data".
    static func unavailable(_ metric: ExperimentMetric, _ error: StatsError, counts: (Int, Int)) -> ExperimentRow {
        let reason: String
        switch error {
        case let .tooFewObservations(needed, got): reason = "needs at least \(needed) values per arm, has \(got)"
        case let .invalidInput(message): reason = message
        }
        return ExperimentRow(metric: metric, control: .nan, treatment: .nan, difference: .nan,
                             test: "not computed: \(reason)", verdict: .tooFewData,
                             controlCount: counts.0, treatmentCount: counts.1)
    }

    // MARK: Observed rows

    static func observedRow(_ metric: ExperimentMetric, _ a: ObservedArm, _ b: ObservedArm,
                            _ c: StatsConfiguration) -> ExperimentRow {
        switch metric.kind {
        case .rate(let event):
            let pa = a.events.proportion(event), pb = b.events.proportion(event)
            do {
                let comparison = try ProportionComparison(control: pa, treatment: pb, configuration: c)
                return ExperimentRow(
                    metric: metric, control: pa.estimate, controlInterval: comparison.difference.control.interval,
                    treatment: pb.estimate, treatmentInterval: comparison.difference.treatment.interval,
                    difference: comparison.difference.difference, differenceInterval: comparison.difference.interval,
                    relativeDifference: comparison.relativeDifference?.estimate,
                    relativeInterval: comparison.relativeDifference?.interval,
                    pValue: comparison.pValue,
                    test: comparison.test.rawValue + "; Newcombe interval",
                    verdict: .noDetectableDifference, controlCount: pa.trials, treatmentCount: pb.trials)
            } catch {
                return unavailable(metric, error, counts: (pa.trials, pb.trials))
            }
        case .mean(let kind):
            let sa = a.latency(kind).summary, sb = b.latency(kind).summary
            do {
                let m = try MeanComparison(control: sa, treatment: sb, configuration: c)
                return ExperimentRow(
                    metric: metric, control: sa.mean, treatment: sb.mean,
                    difference: m.welch.difference, differenceInterval: m.welch.interval,
                    relativeDifference: m.relativeDifference?.estimate, relativeInterval: m.relativeDifference?.interval,
                    pValue: m.welch.pValue, test: "Welch's t-test",
                    verdict: .noDetectableDifference, controlCount: sa.count, treatmentCount: sb.count)
            } catch {
                return unavailable(metric, error, counts: (sa.count, sb.count))
            }
        case let .percentile(kind, probability):
            let va = a.latency(kind).values, vb = b.latency(kind).values
            return percentileRow(metric, probability, va, vb, c, paired: false)
        }
    }

    /// A p50 or p90 row; `paired` switches the p50 row's test to the signed-rank family.
    static func percentileRow(_ metric: ExperimentMetric, _ probability: Double, _ va: [Double], _ vb: [Double],
                              _ c: StatsConfiguration, paired: Bool) -> ExperimentRow {
        do {
            let p = try PercentileDifference(probability, control: va, treatment: vb, alpha: c.alpha)
            let relative = p.control.estimate != 0 ? (p.treatment.estimate - p.control.estimate) / abs(p.control.estimate) : nil
            var row = ExperimentRow(
                metric: metric, control: p.control.estimate, controlInterval: p.control.interval,
                treatment: p.treatment.estimate, treatmentInterval: p.treatment.interval,
                difference: p.difference, differenceInterval: p.interval, relativeDifference: relative,
                pValue: nil, test: "order-statistic intervals (Bonferroni); no test",
                verdict: .noDetectableDifference, controlCount: va.count, treatmentCount: vb.count)
            if probability == 0.5 {
                if paired {
                    let shift = try HodgesLehmannPairedShift(control: va, treatment: vb, alpha: c.alpha)
                    let test = try WilcoxonSignedRankTest(control: va, treatment: vb)
                    row.difference = shift.estimate
                    row.differenceInterval = shift.interval
                    row.pValue = test.pValue
                    row.test = "Wilcoxon signed-rank (\(test.method.rawValue)); Hodges–Lehmann paired shift"
                } else {
                    let shift = try HodgesLehmannShift(control: va, treatment: vb, alpha: c.alpha)
                    let test = try MannWhitneyUTest(control: va, treatment: vb)
                    row.difference = shift.estimate
                    row.differenceInterval = shift.interval
                    row.pValue = test.pValue
                    row.test = "Mann–Whitney U (\(test.method.rawValue)); Hodges–Lehmann shift"
                }
            }
            return row
        } catch {
            return unavailable(metric, error, counts: (va.count, vb.count))
        }
    }

    // MARK: Paired rows

    static func pairedRow(_ metric: ExperimentMetric, _ arms: PairedArms, _ c: StatsConfiguration) -> ExperimentRow {
        switch metric.kind {
        case .rate(let event):
            let t = arms.events[event] ?? PairedCounts(both: 0, controlOnly: 0, treatmentOnly: 0, neither: 0)
            do {
                let d = try PairedProportionDifference(t, alpha: c.alpha)
                let test = try McNemarTest(a: t.both, b: t.controlOnly, c: t.treatmentOnly, d: t.neither)
                let relative = try d.relativeDifference(alpha: c.alpha)
                let na = t.both + t.controlOnly, nb = t.both + t.treatmentOnly
                return ExperimentRow(
                    metric: metric, control: d.control,
                    controlInterval: try WilsonInterval(Proportion(successes: na, trials: t.pairs), alpha: c.alpha).interval,
                    treatment: d.treatment,
                    treatmentInterval: try WilsonInterval(Proportion(successes: nb, trials: t.pairs), alpha: c.alpha).interval,
                    difference: d.difference, differenceInterval: d.interval,
                    relativeDifference: relative?.estimate, relativeInterval: relative?.interval,
                    pValue: test.pValue, test: "McNemar (\(test.method.rawValue)); Wald interval for paired proportions",
                    verdict: .noDetectableDifference, controlCount: t.pairs, treatmentCount: t.pairs, pairedCounts: t)
            } catch {
                return unavailable(metric, error, counts: (t.pairs, t.pairs))
            }
        case .mean(let kind):
            let l = arms.latency(kind)
            do {
                let t = try PairedTTest(control: l.control, treatment: l.treatment, alpha: c.alpha)
                return ExperimentRow(
                    metric: metric, control: t.controlMean, treatment: t.treatmentMean,
                    difference: t.meanDifference, differenceInterval: t.interval,
                    relativeDifference: t.relativeDifference?.estimate, relativeInterval: t.relativeDifference?.interval,
                    pValue: t.pValue, test: "paired t-test",
                    verdict: .noDetectableDifference, controlCount: l.control.count, treatmentCount: l.treatment.count)
            } catch {
                return unavailable(metric, error, counts: (l.control.count, l.treatment.count))
            }
        case let .percentile(kind, probability):
            let l = arms.latency(kind)
            return percentileRow(metric, probability, l.control, l.treatment, c, paired: true)
        }
    }
}
