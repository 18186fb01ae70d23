import Testing
@testable import PressStats

/// An arm with the given event counts and latencies (action latencies all 0, as spring-press).
private func arm(_ name: String, sessions: Int, taps: Int, cancels: Int, aborts: Int = 0, falseActions: Int = 0,
                 unseen: Int = 0, feedback: [Double]) -> ObservedArm {
    ObservedArm(name: name,
                events: ArmEventCounts(sessions: sessions, taps: taps, cancels: cancels, scrollAborts: aborts,
                                       falseActions: falseActions, unseenPresses: unseen),
                feedbackLatency: LatencySample(values: feedback),
                actionLatency: LatencySample(values: Array(repeating: 0, count: taps)))
}

// Twelve and eleven latencies (ms) without ties, used for the latency rows.
private let latencyA = [31.2, 45.0, 28.7, 52.3, 39.9, 41.1, 36.4, 48.8, 33.3, 50.2, 29.9, 44.4]
private let latencyB = [40.1, 55.2, 47.3, 61.0, 38.2, 58.8, 49.9, 52.6, 45.5, 63.3, 57.7]

private func row(_ report: ExperimentReport, _ metric: ExperimentMetric) throws -> ExperimentRow {
    try #require(report.rows.first { $0.metric == metric })
}

@Suite struct ExperimentObservedTests {
    // A: 1000 sessions, 900 taps, 30 cancels; B: 1000 sessions, 930 taps, 55 cancels, 4 false
    // actions. Reference values from python3 with scipy 1.17:
    //   stats.chi2_contingency([[30, 970], [55, 945]], correction=False)[1]   (z-test p, cancel)
    //   stats.chi2_contingency([[900, 100], [930, 70]], correction=False)[1]  (z-test p, tap)
    //   stats.fisher_exact([[0, 1000], [4, 996]]).pvalue
    //   stats.ttest_ind(latencyB, latencyA, equal_var=False) and its .confidence_interval(0.95)
    //   stats.mannwhitneyu(latencyB, latencyA, alternative='two-sided', method='exact')
    // and, written out in python from the published formulas, Newcombe's method 10 (Wilson limits
    // with z = stats.norm.ppf(0.975)) and Katz's log interval of the relative difference,
    // exp(ln(p_B/p_A) ± z √((1 − p_A)/(n_A p_A) + (1 − p_B)/(n_B p_B))) − 1 (changed on purpose
    // from the linear delta-method interval, which can pass −100 %; statsmodels
    // 0.15 `confint_proportions_2indep(55, 1000, 30, 1000, method='log', compare='ratio')` agrees).
    static func report(correction: MultipleComparisonCorrection = .none) throws -> ExperimentReport {
        let a = arm("A", sessions: 1000, taps: 900, cancels: 30, feedback: latencyA)
        let b = arm("B", sessions: 1000, taps: 930, cancels: 55, falseActions: 4, feedback: latencyB)
        return try Experiment.observed(control: a, treatment: b, correction: correction)
    }

    @Test func rateRowsMatchScipyAndNewcombe() throws {
        let r = try Self.report()
        let cancel = try row(r, .cancelRate)
        expectClose(cancel.control, 0.030, tolerance: 1e-15)
        expectClose(cancel.treatment, 0.055, tolerance: 1e-15)
        expectClose(cancel.difference, 0.025, tolerance: 1e-15)
        let ci = try #require(cancel.differenceInterval)
        expectClose(ci.lower, 0.007318097172666304, tolerance: 1e-12)
        expectClose(ci.upper, 0.043231793289270355, tolerance: 1e-12)
        expectClose(try #require(cancel.pValue), 0.0055857461875038865, tolerance: 1e-12)
        expectClose(try #require(cancel.relativeDifference), 0.8333333333333334, tolerance: 1e-12)
        expectClose(try #require(cancel.relativeInterval).lower, 0.1853103189300895, tolerance: 1e-9)
        expectClose(try #require(cancel.relativeInterval).upper, 1.8356381087992133, tolerance: 1e-9)
        #expect(cancel.test.hasPrefix("two-proportion z-test"))
        #expect(cancel.verdict == .worse)                 // more cancels: worse
        let tap = try row(r, .tapRate)
        expectClose(try #require(tap.pValue), 0.01615503207374036, tolerance: 1e-12)
        #expect(tap.verdict == .better)                   // more taps: better
        // 0 of 1000 against 4 of 1000: cells below 5, so Fisher's exact test.
        let falseAction = try row(r, .falseActionRate)
        #expect(falseAction.test.hasPrefix("Fisher's exact test"))
        expectClose(try #require(falseAction.pValue), 0.12462490634400823, tolerance: 1e-9)
        #expect(falseAction.relativeDifference == nil)    // A = 0: undefined
        #expect(falseAction.verdict == .noDetectableDifference)
    }

    @Test func latencyRowsMatchScipy() throws {
        let r = try Self.report()
        let mean = try row(r, .feedbackLatency)
        expectClose(mean.difference, 11.681818181818187, tolerance: 1e-9)
        expectClose(try #require(mean.pValue), 0.002893406087564916, tolerance: 1e-9)
        expectClose(try #require(mean.differenceInterval).lower, 4.479167228963038, tolerance: 1e-7)
        expectClose(try #require(mean.differenceInterval).upper, 18.884469134673335, tolerance: 1e-7)
        #expect(mean.test == "Welch's t-test")
        // p50: Mann–Whitney U exact (no ties, n < 50): scipy U = 111, p = 0.004489385967377621;
        // the Hodges–Lehmann shift is numpy's median of the 132 differences b − a, 11.45.
        let p50 = try row(r, .feedbackLatencyP50)
        expectClose(try #require(p50.pValue), 0.004489385967377621, tolerance: 1e-12)
        expectClose(p50.difference, 11.45, tolerance: 1e-9)
        #expect(p50.test.contains("Mann–Whitney U (exact)"))
        #expect(p50.controlInterval != nil && p50.treatmentInterval != nil)
        // p90: no test at all.
        let p90 = try row(r, .feedbackLatencyP90)
        #expect(p90.pValue == nil && p90.adjustedPValue == nil)
        #expect(p90.test.hasPrefix("order-statistic intervals"))
    }

    // Holm over the rows with a p-value: the smallest of m p-values is multiplied by m.
    @Test func holmAdjustsAcrossTheRowsShown() throws {
        let a = arm("A", sessions: 1000, taps: 900, cancels: 30, feedback: latencyA)
        let b = arm("B", sessions: 1000, taps: 930, cancels: 55, feedback: latencyB)
        let r = try Experiment.observed(control: a, treatment: b, metrics: [.tapRate, .cancelRate], correction: .holm)
        // p(cancel) = 0.005586 < p(tap) = 0.016155: adjusted 2 × 0.005586 and max(that, 1 × 0.016155).
        expectClose(try #require(try row(r, .cancelRate).adjustedPValue), 2 * 0.0055857461875038865, tolerance: 1e-12)
        expectClose(try #require(try row(r, .tapRate).adjustedPValue), 0.01615503207374036, tolerance: 1e-12)
        let bh = try Experiment.observed(control: a, treatment: b, metrics: [.tapRate, .cancelRate], correction: .benjaminiHochberg)
        // BH: p(2) × 2/2 = 0.016155 for tap; p(1) × 2/1 = 0.01117 for cancel.
        expectClose(try #require(try row(bh, .cancelRate).adjustedPValue), 0.011171492375007773, tolerance: 1e-12)
    }

    @Test func tooFewSessionsGiveNoVerdict() throws {
        let a = arm("A", sessions: 99, taps: 60, cancels: 30, feedback: latencyA)
        let b = arm("B", sessions: 120, taps: 119, cancels: 1, feedback: latencyB)
        let r = try Experiment.observed(control: a, treatment: b)
        #expect(r.rows.allSatisfy { $0.verdict == .tooFewData })
        #expect(r.warnings.contains { $0.message.hasPrefix("too few sessions: A has only 99 sessions") })
    }

    // 700 against 300 under an intended 50/50: χ² = 2 × 200²/500 = 160, far beyond p < 0.001.
    @Test func sampleRatioMismatchIsFlagged() throws {
        let a = arm("A", sessions: 700, taps: 600, cancels: 30, feedback: latencyA)
        let b = arm("B", sessions: 300, taps: 260, cancels: 12, feedback: latencyB)
        let r = try Experiment.observed(control: a, treatment: b)
        expectClose(try #require(r.sampleRatio).chiSquared, 160, tolerance: 1e-9)
        #expect(r.warnings.first?.message.hasPrefix("sample ratio mismatch") == true)
        // The same counts are what a 70/30 split intends: no mismatch.
        let fit = try Experiment.observed(control: a, treatment: b, expectedSplit: [70, 30])
        expectClose(try #require(fit.sampleRatio).chiSquared, 0, tolerance: 1e-9)
        #expect(!fit.warnings.contains { $0.message.hasPrefix("sample ratio mismatch") })
    }

    // cancel_rate 3.0 % → 5.5 % is a detected +83 % lift: flagged as suspicious (≥ 50 %).
    @Test func suspiciousLiftIsFlaggedForDetectedDifferences() throws {
        let r = try Self.report()
        #expect(r.warnings.contains { $0.metric == .cancelRate && $0.message.contains("83.33 % higher") })
        #expect(!r.warnings.contains { $0.metric == .tapRate })     // +3.3 %: not suspicious
    }

    @Test func metricSelection() throws {
        #expect(try ExperimentMetric.select([]) == ExperimentMetric.all)
        #expect(try ExperimentMetric.select(["feedback_latency", "cancel_rate"])
            == [.cancelRate, .feedbackLatency, .feedbackLatencyP50, .feedbackLatencyP90])
        #expect(throws: StatsError.self) { try ExperimentMetric.select(["cancellation_rate"]) }
    }
}

@Suite struct ExperimentPairedTests {
    // Agresti, Categorical Data Analysis (2nd ed.), Table 10.1: the same 1,600 people asked twice
    // about the Prime Minister; approve both times 794, first only 150, second only 86, neither
    // 570. Agresti: difference −0.04, SE 0.0095, 95 % interval (−0.06, −0.02). Unrounded values
    // from python3: SE = √(236 − 64²/1600)/1600 = 0.00954921462739214, interval
    // (−0.05871611675033167, −0.021283883249668335); McNemar with continuity correction
    // χ² = 63²/236, p = scipy.stats.chi2.sf(16.818, 1) = 4.114562281345944e-05.
    @Test func agrestiTable10_1() throws {
        let t = PairedCounts(both: 794, controlOnly: 150, treatmentOnly: 86, neither: 570)
        let d = try PairedProportionDifference(t)
        expectClose(d.difference, -0.04, tolerance: 1e-15)
        expectClose(d.standardError, 0.0095, tolerance: 0.00005)
        expectClose(d.interval.lower, -0.05871611675033167, tolerance: 1e-12)
        expectClose(d.interval.upper, -0.021283883249668335, tolerance: 1e-12)
        let arms = PairedArms(controlName: "first", treatmentName: "second", pairs: 1600,
                              events: [.tap: t], feedbackLatency: PairedLatencies(control: [], treatment: []),
                              actionLatency: PairedLatencies(control: [], treatment: []))
        let r = try Experiment.paired(arms, metrics: [.tapRate], correction: .none)
        let tap = try row(r, .tapRate)
        expectClose(try #require(tap.pValue), 4.114562281345944e-05, tolerance: 1e-10)
        #expect(tap.test.hasPrefix("McNemar (χ² with continuity correction)"))
        #expect(tap.verdict == .worse)            // fewer "taps" (approvals) under B
        #expect(tap.pairedCounts?.controlOnly == 150 && tap.pairedCounts?.treatmentOnly == 86)
        // Relative difference on the log scale with the covariance (a/n − p_A p_B)/n (changed on
        // purpose from the linear interval): in numpy, SE(L) =
        // √(Var_B/p_B² + Var_A/p_A² − 2 Cov/(p_A p_B)) = 0.01685499656158105 and
        // exp(ln(0.55/0.59) ± 1.959964·SE) − 1 = (−0.0980890103564212, −0.03648678196624746).
        expectClose(try #require(tap.relativeDifference), -0.0677966101694914, tolerance: 1e-12)
        expectClose(try #require(tap.relativeInterval).lower, -0.0980890103564212, tolerance: 1e-9)
        expectClose(try #require(tap.relativeInterval).upper, -0.03648678196624746, tolerance: 1e-9)
    }

    // A tiny paired set: A = 10, 20, …, 80 and differences 1, −2, 3, 4, −5, 6, 7, 8 (no zeros,
    // no ties). By hand: V = 1 + 3 + 4 + 6 + 7 + 8 = 29 of 36; 19 of the 2⁸ = 256 sign patterns
    // give V ≥ 29 (counted by brute force in python3), so the exact two-sided p = 38/256 =
    // 0.1484375 (scipy.stats.wilcoxon agrees: statistic min(V, 36 − V) = 7, p = 0.1484375).
    // Paired t-test: scipy.stats.ttest_rel gives mean 2.75, p = 0.12951011022489162, interval
    // (−1.0352457144488163, 6.535245714448816).
    @Test func wilcoxonAndPairedTOnAHandMadeSet() throws {
        let a: [Double] = [10, 20, 30, 40, 50, 60, 70, 80]
        let b = zip(a, [1.0, -2, 3, 4, -5, 6, 7, 8]).map { $0 + $1 }
        let none = PairedCounts(both: 0, controlOnly: 0, treatmentOnly: 0, neither: 8)
        let arms = PairedArms(controlName: "A", treatmentName: "B", pairs: 8,
                              events: Dictionary(uniqueKeysWithValues: SessionEvent.allCases.map { ($0, none) }),
                              feedbackLatency: PairedLatencies(control: a, treatment: b),
                              actionLatency: PairedLatencies(control: a, treatment: a))
        var few = StatsConfiguration()
        few.minimumSessionsPerArm = 1      // eight pairs: their p-values are shown only with the minimum lowered
        let r = try Experiment.paired(arms, correction: .none, configuration: few)
        let p50 = try row(r, .feedbackLatencyP50)
        expectClose(try #require(p50.pValue), 0.1484375, tolerance: 1e-12)
        #expect(p50.test.contains("Wilcoxon signed-rank (exact)"))
        let mean = try row(r, .feedbackLatency)
        expectClose(mean.difference, 2.75, tolerance: 1e-12)
        expectClose(try #require(mean.pValue), 0.12951011022489162, tolerance: 1e-9)
        expectClose(try #require(mean.differenceInterval).lower, -1.0352457144488163, tolerance: 1e-7)
        expectClose(try #require(mean.differenceInterval).upper, 6.535245714448816, tolerance: 1e-7)
        // Eight pairs: far below 100, so at the default minimum no verdict, no p-value, and the
        // warning says so.
        let strict = try Experiment.paired(arms, correction: .none)
        #expect(strict.rows.allSatisfy { $0.verdict == .tooFewData && $0.pValue == nil })
        #expect(strict.warnings.contains { $0.message.contains("only 8 sessions could be paired, fewer than 100; no verdict and no p-value are given") })
        // Identical action latencies: every difference 0, p = 1.
        #expect(try row(r, .actionLatencyP50).pValue == 1)
    }
}

@Suite struct PercentileDifferenceTests {
    // A = 1 … 100, B = A + 10. Type-7 p90: h = 99 × 0.9 = 89.1, so 90.1 and 100.1. Ranks from
    // scipy.stats.binom.ppf(q, 100, 0.9): q = 0.025 → 84, 0.975 → 95 (the 95 % interval is
    // [x₍₈₄₎, x₍₉₆₎]); q = 0.0125 → 83, 0.9875 → 96 (the 97.5 % interval is [x₍₈₃₎, x₍₉₇₎]).
    // Bonferroni: [B₍₈₃₎ − A₍₉₇₎, B₍₉₇₎ − A₍₈₃₎] = [93 − 97, 107 − 83] = [−4, 24].
    @Test func bonferroniInterval() throws {
        let a = (1...100).map(Double.init), b = a.map { $0 + 10 }
        let d = try PercentileDifference(0.9, control: a.reversed(), treatment: b)
        expectClose(d.control.estimate, 90.1, tolerance: 1e-9)
        expectClose(d.difference, 10, tolerance: 1e-9)
        #expect(d.control.interval.lower == 84 && d.control.interval.upper == 96)
        #expect(d.interval.lower == -4 && d.interval.upper == 24)
    }
}
