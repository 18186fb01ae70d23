// Welch's t-test against hand computation cross-checked with scipy 1.17.1.
import Testing
@testable import PressStats

@Suite("Means")
struct MeanTests {
    /// A = 1, 2, 3, 4, 5 (x̄ = 3, s² = 2.5); B = 2, 4, …, 12 (x̄ = 7, s² = 14).
    /// SE² = 2.5/5 + 14/6 = 2.833333; t = 4/√2.833333 = 2.376354;
    /// ν = 2.833333² / (0.5²/4 + 2.333333²/5) = 6.972256 (by hand in python3);
    /// scipy 1.17.1 ttest_ind(B, A, equal_var=False): t = 2.3763541031440183, df = 6.972255729794934,
    /// p = 0.04928433820673053; t.ppf(0.975, 6.972256) = 2.3665330449008306, so the interval is
    /// 4 ± 2.366533 · 1.683251 = 0.0165313 to 7.9834687.
    @Test("Welch's t-test from sufficient statistics (hand computation, scipy 1.17.1)")
    func welchExample() throws {
        let a = MeanSummary(values: [1, 2, 3, 4, 5])
        let b = MeanSummary(values: [2, 4, 6, 8, 10, 12])
        #expect(a.count == 5 && a.sum == 15 && a.sumOfSquares == 55)
        expectClose(a.variance, 2.5, tolerance: 1e-14)
        expectClose(b.variance, 14, tolerance: 1e-13)
        let w = try WelchTTest(control: a, treatment: b)
        expectClose(w.difference, 4, tolerance: 1e-14)
        expectClose(w.t, 2.3763541031440183, tolerance: 1e-12)
        expectClose(w.degreesOfFreedom, 6.972255729794934, tolerance: 1e-12)
        expectClose(w.pValue, 0.04928433820673053, tolerance: 1e-12)
        expectClose(w.criticalValue, 2.3665330449008306, tolerance: 1e-11)
        expectClose(w.interval.lower, 0.01653130437116923, tolerance: 1e-10)
        expectClose(w.interval.upper, 7.983468695628831, tolerance: 1e-10)
        // At α = p the interval touches 0.
        let atP = try WelchTTest(control: a, treatment: b, alpha: w.pValue)
        expectClose(atP.interval.lower, 0, tolerance: 1e-9)
    }

    @Test("Sufficient statistics merge across shards and round-trip mean and variance")
    func summaries() {
        let merged = MeanSummary(values: [1, 2, 3]) + MeanSummary(values: [4, 5])
        #expect(merged == MeanSummary(values: [1, 2, 3, 4, 5]))
        let rebuilt = MeanSummary(count: 6, mean: 7, variance: 14)
        expectClose(rebuilt.sum, 42, tolerance: 1e-12)
        expectClose(rebuilt.variance, 14, tolerance: 1e-12)
    }

    @Test("Welch's t-test: degenerate inputs")
    func welchDegenerate() throws {
        #expect(throws: StatsError.tooFewObservations(needed: 2, got: 1)) {
            try WelchTTest(control: MeanSummary(values: [1]), treatment: MeanSummary(values: [1, 2]))
        }
        let constant = try WelchTTest(control: MeanSummary(values: [3, 3, 3]), treatment: MeanSummary(values: [3, 3]))
        #expect(constant.pValue == 1 && constant.interval.width == 0)
        let shifted = try WelchTTest(control: MeanSummary(values: [3, 3, 3]), treatment: MeanSummary(values: [4, 4]))
        #expect(shifted.pValue == 0 && shifted.t == .infinity)
    }

    /// Relative difference of the means above, x̄_B/x̄_A − 1 = 7/3 − 1 = 4/3, on the log scale (changed
    /// on purpose; before, a linear interval that could pass −100 %): in numpy,
    /// SE(L) = √(Var(x̄_B)/x̄_B² + Var(x̄_A)/x̄_A²) = √((14/6)/7² + (2.5/5)/3²) = 0.3212080372198105
    /// and exp(ln(7/3) ± 1.959964·SE) − 1 = (0.24326586058811522, 3.379147386761671).
    @Test("Mean comparison: relative difference by the delta method on the log scale (numpy)")
    func relative() throws {
        let c = try MeanComparison(control: MeanSummary(values: [1, 2, 3, 4, 5]), treatment: MeanSummary(values: [2, 4, 6, 8, 10, 12]))
        let r = try #require(c.relativeDifference)
        expectClose(r.estimate, 4.0 / 3, tolerance: 1e-14)
        expectClose(r.standardError, 0.3212080372198105, tolerance: 1e-12)
        expectClose(r.interval.lower, 0.24326586058811522, tolerance: 1e-10)
        expectClose(r.interval.upper, 3.379147386761671, tolerance: 1e-10)
    }
}
