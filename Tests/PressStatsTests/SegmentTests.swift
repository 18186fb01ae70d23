// Segments: Cochran's Q against numpy/scipy, and Holm across segments by hand.
import Testing
@testable import PressStats

/// A two-arm report of B against A whose rows have the given (p-value, difference, SE) and the
/// interval d ± 1.96·SE.
private func segment(_ rows: [(ExperimentMetric, Double?, Double, Double)]) -> ExperimentReport {
    var report = ExperimentReport(
        mode: .observed, controlName: "A", treatmentName: "B", controlSessions: 4000, treatmentSessions: 4000,
        rows: rows.map { metric, p, d, se in
            ExperimentRow(metric: metric, control: 0.1, controlInterval: nil, treatment: 0.1 + d, treatmentInterval: nil,
                          difference: d, differenceInterval: ConfidenceInterval(lower: d - 1.96 * se, upper: d + 1.96 * se, level: 0.95),
                          relativeDifference: d / 0.1, relativeInterval: nil, pValue: p, adjustedPValue: nil, test: "z",
                          verdict: .noDetectableDifference, controlCount: 4000, treatmentCount: 4000,
                          pairedCounts: nil, unit: .user, controlUnits: 200, treatmentUnits: 200, standardError: se)
        },
        correction: .none, configuration: StatsConfiguration(), sampleRatio: nil, expectedSplit: [0.5, 0.5], warnings: [],
        unit: .user, controlUnits: 200, treatmentUnits: 200)
    Experiment.decideVerdicts(&report)
    return report
}

@Suite struct SegmentTests {
    // numpy 2.4 / scipy 1.17: d = [0.012, −0.004, 0.030, 0.008], se = [0.006, 0.005, 0.010, 0.004],
    // w = 1/se², d̄ = Σwd/Σw = 0.0069386138613861375, 1/√Σw = 0.0026699649569399088,
    // Q = Σw(d − d̄)² = 10.886415841584157, df 3, chi2.sf(Q, 3) = 0.012356193938777077,
    // I² = (Q − 3)/Q = 0.7244272087659431.
    // d = [1.5, 2.5, 2.0], se = [1.0, 1.2, 0.9]: d̄ = 1.9478398314014753, Q = 0.41564219646411427,
    // p = 0.8123523549852029, I² = 0 (Q < df).
    @Test func cochranQMatchesNumpy() throws {
        let t = try CochranQTest(estimates: [0.012, -0.004, 0.030, 0.008], standardErrors: [0.006, 0.005, 0.010, 0.004])
        expectRelativelyClose(t.pooled, 0.0069386138613861375, tolerance: 1e-13)
        expectRelativelyClose(t.pooledStandardError, 0.0026699649569399088, tolerance: 1e-13)
        expectRelativelyClose(t.q, 10.886415841584157, tolerance: 1e-13)
        #expect(t.degreesOfFreedom == 3)
        expectRelativelyClose(t.pValue, 0.012356193938777077, tolerance: 1e-10)
        expectRelativelyClose(t.inconsistency, 0.7244272087659431, tolerance: 1e-13)
        let homogeneous = try CochranQTest(estimates: [1.5, 2.5, 2.0], standardErrors: [1.0, 1.2, 0.9])
        expectRelativelyClose(homogeneous.pooled, 1.9478398314014753, tolerance: 1e-13)
        expectRelativelyClose(homogeneous.q, 0.41564219646411427, tolerance: 1e-12)
        expectRelativelyClose(homogeneous.pValue, 0.8123523549852029, tolerance: 1e-10)
        #expect(homogeneous.inconsistency == 0)
        #expect(throws: StatsError.self) { try CochranQTest(estimates: [1], standardErrors: [1]) }
        #expect(throws: StatsError.self) { try CochranQTest(estimates: [1, 2], standardErrors: [1, 0]) }
    }

    // Three segments × two metrics, one row without a p-value: m = 5.
    // p sorted: 0.002 (feed cancel), 0.01 (search cancel), 0.02 (cart latency), 0.04 (feed latency),
    // 0.3 (search latency). Holm by hand: 5·0.002 = 0.01; 4·0.01 = 0.04; 3·0.02 = 0.06;
    // 2·0.04 = 0.08; 1·0.3 = 0.3. At α = 0.05 feed's cancel_rate is worse (d > 0) and search's
    // better (d < 0); every latency row, though its interval d ± 1.96·SE may exclude 0, is not.
    // Cochran's Q uses the rows with a p-value (numpy/scipy):
    //   cancel_rate over feed, search: d = [0.012, −0.012], se = [0.006, 0.005]: d̄ = −0.0021639344262295085,
    //   Q = 9.442622950819672, df 1, p = 0.002120000847683319;
    //   latency over all three: d = [3, 1, 4], se = [1.5, 1, 1.7]: d̄ = 2.076229332188104,
    //   Q = 2.81812325531458, df 2, p = 0.24437248798092345.
    @Test func holmAcrossSegmentsAndQOverTheSegmentsWithATest() throws {
        let feed = segment([(.cancelRate, 0.002, 0.012, 0.006), (.feedbackLatency, 0.04, 3, 1.5)])
        let search = segment([(.cancelRate, 0.01, -0.012, 0.005), (.feedbackLatency, 0.3, 1, 1)])
        let cart = segment([(.cancelRate, nil, 0.002, 0.01), (.feedbackLatency, 0.02, 4, 1.7)])
        let all = try Experiment.segmented([("feed", feed), ("search", search), ("cart", cart)], attribute: "screen", correction: .holm)
        #expect(all.familySize == 5 && all.attribute == "screen")
        let adjusted = all.segments.map { $0.report.rows.map(\.adjustedPValue) }
        let expected: [[Double?]] = [[0.01, 0.08], [0.04, 0.3], [nil, 0.06]]
        for (got, want) in zip(adjusted.joined(), expected.joined()) {
            if let want { expectClose(try #require(got), want, tolerance: 1e-15) } else { #expect(got == nil) }
        }
        #expect(all.segments.map { $0.report.rows.map(\.verdict) }
                == [[.worse, .noDetectableDifference], [.better, .noDetectableDifference], [.noDetectableDifference, .noDetectableDifference]])
        let cancel = try #require(all.heterogeneity.first { $0.metric == .cancelRate })
        #expect(cancel.segments == ["feed", "search"] && cancel.test.degreesOfFreedom == 1)
        expectRelativelyClose(cancel.test.pooled, -0.0021639344262295085, tolerance: 1e-12)
        expectRelativelyClose(cancel.test.q, 9.442622950819672, tolerance: 1e-12)
        expectRelativelyClose(cancel.test.pValue, 0.002120000847683319, tolerance: 1e-9)
        let latency = try #require(all.heterogeneity.first { $0.metric == .feedbackLatency })
        #expect(latency.segments == ["feed", "search", "cart"] && latency.test.degreesOfFreedom == 2)
        expectRelativelyClose(latency.test.pooled, 2.076229332188104, tolerance: 1e-12)
        expectRelativelyClose(latency.test.q, 2.81812325531458, tolerance: 1e-12)
        expectRelativelyClose(latency.test.pValue, 0.24437248798092345, tolerance: 1e-10)
    }
}
