// More than two arms: Holm over every arm and metric as one family (hand-worked), and the
// sample ratio check over all arms against scipy.stats.chisquare.
import Testing
@testable import PressStats

/// A two-arm report of `treatment` against A whose rows have the given p-values; each interval
/// excludes 0 on the worse side, so only the (adjusted) p-value decides between "worse" and
/// "no detectable difference".
private func report(_ treatment: String, _ pValues: [(ExperimentMetric, Double?)], units: (Int, Int) = (500, 500)) -> ExperimentReport {
    var report = ExperimentReport(
        mode: .observed, controlName: "A", treatmentName: treatment, controlSessions: units.0 * 10, treatmentSessions: units.1 * 10,
        rows: pValues.map { metric, p in
            ExperimentRow(metric: metric, control: 0.1, controlInterval: nil, treatment: 0.12, treatmentInterval: nil,
                          difference: 0.02, differenceInterval: ConfidenceInterval(lower: 0.001, upper: 0.039, level: 0.95),
                          relativeDifference: 0.2, relativeInterval: nil, pValue: p, adjustedPValue: nil, test: "z",
                          verdict: .noDetectableDifference, controlCount: units.0 * 10, treatmentCount: units.1 * 10,
                          pairedCounts: nil, unit: .user, controlUnits: units.0, treatmentUnits: units.1)
        },
        correction: .none, configuration: StatsConfiguration(), sampleRatio: nil, expectedSplit: [0.5, 0.5], warnings: [],
        unit: .user, controlUnits: units.0, treatmentUnits: units.1)
    Experiment.decideVerdicts(&report)
    return report
}

@Suite struct MultiArmTests {
    // Two treatments × two metrics; a p90 row without a p-value stays out of the family, so m = 4.
    // Sorted: 0.004 (B cancel), 0.012 (C cancel), 0.03 (B latency), 0.20 (C latency).
    // Holm by hand: 4·0.004 = 0.016; 3·0.012 = 0.036; 2·0.03 = 0.06; 1·0.20 = 0.20, already
    // increasing. At α = 0.05 both cancel rows are worse, B's latency is not — though within B's own
    // family of two (2·0.004 = 0.008, 0.03) it would have been.
    @Test func holmAdjustsAcrossEveryArmAndMetric() throws {
        let b = report("B", [(.cancelRate, 0.004), (.feedbackLatency, 0.03), (.feedbackLatencyP90, nil)])
        let c = report("C", [(.cancelRate, 0.012), (.feedbackLatency, 0.20), (.feedbackLatencyP90, nil)])
        #expect(b.rows[1].verdict == .worse)     // alone, unadjusted: 0.03 < 0.05
        let all = try Experiment.manyArms([b, c], expectedSplit: nil, correction: .holm)
        #expect(all.familySize == 4 && all.armNames == ["A", "B", "C"])
        let adjusted = all.comparisons.map { $0.rows.map(\.adjustedPValue) }
        let expected: [[Double?]] = [[0.016, 0.06, nil], [0.036, 0.20, nil]]
        for (got, want) in zip(adjusted.joined(), expected.joined()) {
            if let want { expectClose(try #require(got), want, tolerance: 1e-15) } else { #expect(got == nil) }
        }
        #expect(all.comparisons.map { $0.rows.map(\.verdict) }
                == [[.worse, .noDetectableDifference, .worse], [.worse, .noDetectableDifference, .worse]])
        #expect(all.comparisons.allSatisfy { $0.correction == .holm && $0.sampleRatio == nil })
        // Raw p-values stay as they were.
        #expect(all.comparisons[0].rows[0].pValue == 0.004)
        // Pairs already adjusted one by one are refused: the family is all arms.
        var adjustedAlone = b
        adjustedAlone.correction = .holm
        #expect(throws: StatsError.self) { try Experiment.manyArms([adjustedAlone, c], expectedSplit: nil, correction: .holm) }
    }

    // scipy 1.17: chisquare([1000, 960, 1090]) = (8.721311475409838, 0.01277001112564732);
    // chisquare([400, 300, 310]) = (18.019801980198018, 0.00012219395383139352);
    // chisquare([520, 230, 250], f_exp=[500, 250, 250]) = (2.4000000000000004, 0.3011942119122021).
    @Test func sampleRatioOverAllArmsIsChiSquareWithKMinusOneDegrees() throws {
        func arms(_ units: [Int], split: [Double]?) throws -> MultiArmReport {
            try Experiment.manyArms(zip(["B", "C"], units.dropFirst()).map { report($0, [(.cancelRate, 0.5)], units: (units[0], $1)) },
                                    expectedSplit: split, correction: .holm)
        }
        let even = try arms([1000, 960, 1090], split: nil)
        let srm = try #require(even.sampleRatio)
        #expect(srm.degreesOfFreedom == 2 && even.armUnits == [1000, 960, 1090])
        expectRelativelyClose(srm.chiSquared, 8.721311475409838, tolerance: 1e-12)
        expectRelativelyClose(srm.pValue, 0.01277001112564732, tolerance: 1e-10)
        #expect(!srm.isMismatch && even.warnings.isEmpty)

        let skewed = try arms([400, 300, 310], split: nil)
        expectRelativelyClose(try #require(skewed.sampleRatio).chiSquared, 18.019801980198018, tolerance: 1e-12)
        expectRelativelyClose(try #require(skewed.sampleRatio).pValue, 0.00012219395383139352, tolerance: 1e-9)
        #expect(skewed.warnings.count == 1)
        #expect(skewed.warnings.first?.message.hasPrefix("sample ratio mismatch: users per arm A 400, B 300, C 310") == true)

        let planned = try arms([520, 230, 250], split: [50, 25, 25])
        expectRelativelyClose(try #require(planned.sampleRatio).chiSquared, 2.4000000000000004, tolerance: 1e-12)
        expectRelativelyClose(try #require(planned.sampleRatio).pValue, 0.3011942119122021, tolerance: 1e-10)
        #expect(planned.expectedSplit == [0.5, 0.25, 0.25])
        #expect(throws: StatsError.self) { try arms([520, 230, 250], split: [50, 50]) }
    }
}
