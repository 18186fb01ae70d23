// Health checks, multiple comparisons and verdicts, computed by hand.
import Testing
@testable import PressStats

@Suite("Health checks")
struct HealthTests {
    /// 5200 vs 4800 against 50/50: E = 5000 each, χ² = 200²/5000 · 2 = 16 on 1 df;
    /// scipy 1.17.1 chisquare([5200, 4800]): p = 6.334248366623988e−05 < 0.001.
    @Test("Sample ratio mismatch: 5200 vs 4800 → χ² = 16, p = 6.33e−5, flagged")
    func srmSkewed() throws {
        let t = try SampleRatioMismatchTest(counts: [5200, 4800])
        expectClose(t.chiSquared, 16, tolerance: 1e-12)
        expectRelativelyClose(t.pValue, 6.334248366623988e-05, tolerance: 1e-10)
        #expect(t.isMismatch && t.degreesOfFreedom == 1)
        // 5050 vs 4950: χ² = 1, p = 0.3173 — not flagged.
        #expect(try !SampleRatioMismatchTest(counts: [5050, 4950]).isMismatch)
    }

    /// Three arms against 50/25/25: counts 1000, 520, 480 of 2000; E = 1000, 500, 500;
    /// χ² = 0 + 400/500 + 400/500 = 1.6 on 2 df, whose survival is e^(−1.6/2) = e^(−0.8) = 0.449329.
    @Test("Sample ratio test against an unequal split (hand computation)")
    func srmUnequalSplit() throws {
        let t = try SampleRatioMismatchTest(counts: [1000, 520, 480], expectedFractions: [2, 1, 1])
        #expect(t.expected == [1000, 500, 500])
        expectClose(t.chiSquared, 1.6, tolerance: 1e-12)
        expectClose(t.pValue, 0.44932896411722156, tolerance: 1e-13)
        #expect(throws: StatsError.self) { try SampleRatioMismatchTest(counts: [10]) }
        #expect(throws: StatsError.self) { try SampleRatioMismatchTest(counts: [10, 10], expectedFractions: [1, 0]) }
    }

    @Test("Health check: too few sessions, mismatch and suspicious lift")
    func healthCheck() throws {
        let small = try HealthCheck(armCounts: [90, 150])
        #expect(small.hasTooFewSessions)
        #expect(small.warnings.contains(.tooFewSessions(arm: 0, count: 90, minimum: 100)))
        let skewed = try HealthCheck(armCounts: [5200, 4800])
        #expect(!skewed.hasTooFewSessions)
        #expect(skewed.warnings.count == 1)
        if case .sampleRatioMismatch = skewed.warnings.first {} else { Issue.record("expected a sample ratio mismatch") }
        #expect(try HealthCheck(armCounts: [5010, 4990]).warnings.isEmpty)
        #expect(HealthCheck.suspiciousLift(0.5) == .suspiciousLift(relativeDifference: 0.5, threshold: 0.5))
        #expect(HealthCheck.suspiciousLift(-0.6) != nil)
        #expect(HealthCheck.suspiciousLift(0.49) == nil)
    }
}

@Suite("Multiple comparisons")
struct MultipleComparisonTests {
    /// p = 0.01, 0.04, 0.03, 0.005 (m = 4). Sorted: 0.005, 0.01, 0.03, 0.04.
    /// Holm: 4·0.005 = 0.02; 3·0.01 = 0.03; 2·0.03 = 0.06; 1·0.04 = 0.04 → running max 0.06.
    ///   In input order: 0.03, 0.06, 0.06, 0.02.
    /// BH, from the largest: 4·0.04/4 = 0.04; 4·0.03/3 = 0.04; 4·0.01/2 = 0.02; 4·0.005/1 = 0.02.
    ///   In input order: 0.02, 0.04, 0.04, 0.02.
    @Test("Holm and Benjamini–Hochberg adjustments (by hand)")
    func adjustments() {
        let p = [0.01, 0.04, 0.03, 0.005]
        for (x, y) in zip(HolmBonferroni.adjust(p), [0.03, 0.06, 0.06, 0.02]) { expectClose(x, y, tolerance: 1e-15) }
        for (x, y) in zip(BenjaminiHochberg.adjust(p), [0.02, 0.04, 0.04, 0.02]) { expectClose(x, y, tolerance: 1e-15) }
        // Capped at 1: Holm 2·0.5 = 1, then max(1, 0.9) = 1; BH min(0.9, 2·0.5/1 = 1) = 0.9 for both.
        #expect(HolmBonferroni.adjust([0.5, 0.9]) == [1, 1])
        #expect(BenjaminiHochberg.adjust([0.5, 0.9]) == [0.9, 0.9])
        // NaN stays NaN and does not count in m.
        let withNaN = HolmBonferroni.adjust([0.02, .nan, 0.01])
        #expect(withNaN[1].isNaN)
        expectClose(withNaN[0], 0.02, tolerance: 1e-15)
        expectClose(withNaN[2], 0.02, tolerance: 1e-15)
        #expect(HolmBonferroni.adjust([]).isEmpty)
    }
}

@Suite("Verdicts")
struct VerdictTests {
    @Test("Verdict from direction, evidence and arm sizes")
    func verdicts() throws {
        let significant = ConfidenceInterval(lower: -0.05, upper: -0.01, level: 0.95)
        let spanning = ConfidenceInterval(lower: -0.05, upper: 0.01, level: 0.95)
        #expect(Verdict(direction: .lowerIsBetter, difference: -0.03, pValue: 0.001, interval: significant, armCounts: [500, 500]) == .better)
        #expect(Verdict(direction: .higherIsBetter, difference: -0.03, pValue: 0.001, interval: significant, armCounts: [500, 500]) == .worse)
        #expect(Verdict(direction: .lowerIsBetter, difference: -0.02, pValue: 0.2, interval: spanning, armCounts: [500, 500]) == .noDetectableDifference)
        // p and interval disagree: no claim.
        #expect(Verdict(direction: .lowerIsBetter, difference: -0.02, pValue: 0.04, interval: spanning, armCounts: [500, 500]) == .noDetectableDifference)
        #expect(Verdict(direction: .lowerIsBetter, difference: -0.03, pValue: 0.001, armCounts: [99, 500]) == .tooFewData)
        #expect(Verdict(direction: .lowerIsBetter, difference: -0.03, armCounts: [500, 500]) == .noDetectableDifference)
        // α is the configuration's.
        let strict = StatsConfiguration(alpha: 0.001)
        #expect(Verdict(direction: .lowerIsBetter, difference: -0.03, pValue: 0.004, armCounts: [500, 500], configuration: strict) == .noDetectableDifference)
    }

    /// 100/1000 cancellations under A against 60/1000 under B: pooled p̄ = 0.08,
    /// SE = √(0.08·0.92·0.002) = 0.0121326, z = −0.04/0.0121326 = −3.296902, p = erfc(3.296902/√2) =
    /// 0.000977575 (python3 math.erfc); cancellations are better lower.
    @Test("Comparisons give verdicts: fewer cancellations are better")
    func comparisonVerdicts() throws {
        let c = try ProportionComparison(control: Proportion(successes: 100, trials: 1000), treatment: Proportion(successes: 60, trials: 1000))
        #expect(c.test == .twoProportionZTest)
        expectRelativelyClose(c.pValue, 0.0009775747711928443, tolerance: 1e-9)
        #expect(c.verdict(direction: .lowerIsBetter) == .better)
        #expect(c.verdict(direction: .higherIsBetter) == .worse)
        let m = try MeanComparison(control: MeanSummary(values: [1, 2, 3, 4, 5]), treatment: MeanSummary(values: [2, 4, 6, 8, 10, 12]))
        #expect(m.verdict(direction: .lowerIsBetter) == .tooFewData)
        #expect(m.verdict(direction: .lowerIsBetter, configuration: StatsConfiguration(minimumSessionsPerArm: 5)) == .worse)
    }
}
