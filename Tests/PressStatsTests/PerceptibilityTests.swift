import Testing
@testable import PressStats

@Suite struct PerceptibilityTests {
    private func ci(_ lo: Double, _ hi: Double) -> ConfidenceInterval { ConfidenceInterval(lower: lo, upper: hi, level: 0.95) }

    // Hand-made intervals of B − A (ms) against the 69 ms tap JND: wholly beyond ±69 → yes,
    // wholly within → no, reaching or crossing ±69 → unclear.
    @Test func intervalsAgainstTheThreshold() {
        #expect(Perceptibility(difference: ci(70, 90), threshold: 69) == .yes)
        #expect(Perceptibility(difference: ci(-120, -69.5), threshold: 69) == .yes)
        #expect(Perceptibility(difference: ci(20, 46), threshold: 69) == .no)
        #expect(Perceptibility(difference: ci(-10, 10), threshold: 69) == .no)
        #expect(Perceptibility(difference: ci(33.3, 33.3), threshold: 69) == .no)
        #expect(Perceptibility(difference: ci(50, 80), threshold: 69) == .unclear)
        #expect(Perceptibility(difference: ci(-80, -50), threshold: 69) == .unclear)
        #expect(Perceptibility(difference: ci(-100, 100), threshold: 69) == .unclear)
        // On the threshold itself: neither above nor below it.
        #expect(Perceptibility(difference: ci(69, 80), threshold: 69) == .unclear)
        #expect(Perceptibility(difference: ci(0, 69), threshold: 69) == .unclear)
        #expect(Perceptibility(difference: ci(-.infinity, 3), threshold: 69) == .unclear)
        // The drag JND: 33 ms is well beyond it.
        #expect(Perceptibility(difference: ci(30, 36), threshold: PerceptionThresholds.dragJND.ms) == .yes)
    }

    // The thresholds as the papers give them (docs/press-model.md §7): Deber et al. 2015's mean
    // direct-touch JNDs against ~1 ms, tapping 69 and dragging 11 ms, as two independent
    // summaries of the paper quote them; Nielsen's 100 ms.
    @Test func thresholdsTable() {
        #expect(PerceptionThresholds.tapJND.ms == 69 && PerceptionThresholds.dragJND.ms == 11)
        #expect(PerceptionThresholds.instant.ms == 100)
        #expect(PerceptionThresholds.default == PerceptionThresholds.tapJND)
        #expect(PerceptionThresholds.all.map(\.ms) == PerceptionThresholds.all.map(\.ms).sorted())
        #expect(PerceptionThresholds.all.allSatisfy { !$0.source.isEmpty })
    }

    // A detected latency increase inside the threshold reads "later, but below what people can
    // perceive"; rate rows are never classified.
    @Test func verdictTextOfAnImperceptibleDifference() throws {
        func row(_ metric: ExperimentMetric, _ diff: Double, _ lo: Double, _ hi: Double, _ verdict: Verdict) -> ExperimentRow {
            ExperimentRow(metric: metric, control: 33.3, controlInterval: nil, treatment: 33.3 + diff, treatmentInterval: nil,
                          difference: diff, differenceInterval: ci(lo, hi), relativeDifference: nil, relativeInterval: nil,
                          pValue: 0.001, adjustedPValue: nil, test: "t", verdict: verdict, controlCount: 100, treatmentCount: 100)
        }
        let report = ExperimentReport(
            mode: .observed, controlName: "A", treatmentName: "B", controlSessions: 100, treatmentSessions: 100,
            rows: [row(.feedbackLatencyP50, 33.3, 33.3, 33.3, .worse), row(.feedbackLatency, -80, -95, -72, .better),
                   row(.tapRate, -0.05, -0.07, -0.03, .worse), row(.actionLatency, 30, 10, 90, .worse)],
            correction: .none, configuration: StatsConfiguration(), sampleRatio: nil, expectedSplit: [0.5, 0.5], warnings: [])
        let classified = report.classifyingPerceptibility(threshold: 69)
        #expect(classified.perceptionThreshold == 69)
        #expect(classified.rows.map(\.perceptible) == [.no, .yes, nil, .unclear])
        #expect(classified.rows[0].verdictText == "later, not perceptible")
        #expect(classified.rows[1].verdictText == "better")
        #expect(classified.rows[2].verdictText == "worse")
        #expect(classified.rows[3].verdictText == "worse")
    }
}
