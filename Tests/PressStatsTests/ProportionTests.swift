// Proportions against published examples and hand computation.
import Testing
@testable import PressStats

@Suite("Proportions")
struct ProportionTests {
    @Test("Wilson interval: 130/1000 → 0.110564 to 0.152268; 0/20 → 0 to 0.161125")
    func wilsonPublishedExamples() throws {
        let a = try WilsonInterval(Proportion(successes: 130, trials: 1000))
        expectClose(a.interval.lower, 0.110564, tolerance: 5e-7)
        expectClose(a.interval.upper, 0.152268, tolerance: 5e-7)
        #expect(a.estimate == 0.13)
        let b = try WilsonInterval(Proportion(successes: 0, trials: 20))
        #expect(b.interval.lower == 0)
        expectClose(b.interval.upper, 0.161125, tolerance: 5e-7)
    }

    /// Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I lists for
    /// 81/263 the score interval 0.2553–0.3662 and the continuity-corrected 0.2535–0.3682, for 15/148
    /// 0.0624–0.1605 and 0.0598–0.1644, for 0/20 with correction 0–0.2005, for 29/29 0.8830–1 and
    /// 0.8544–1. Recomputed from the closed forms with python3 (81/263: 0.255289, 0.366210;
    /// 0.253509, 0.368176), which agree with the table to its four decimals.
    @Test("Wilson interval with and without continuity correction: Newcombe 1998 Table I examples")
    func wilsonNewcombeTable() throws {
        let cases: [(Int, Int, Double, Double, Double, Double)] = [
            (81, 263, 0.2553, 0.3662, 0.2535, 0.3682),
            (15, 148, 0.0624, 0.1605, 0.0598, 0.1644),
            (0, 20, 0, 0.1611, 0, 0.2005),
            (29, 29, 0.8830, 1, 0.8544, 1),
        ]
        for (x, n, lower, upper, lowerCC, upperCC) in cases {
            let plain = try WilsonInterval(Proportion(successes: x, trials: n))
            expectClose(plain.interval.lower, lower, tolerance: 5e-5)
            expectClose(plain.interval.upper, upper, tolerance: 5e-5)
            let corrected = try WilsonInterval(Proportion(successes: x, trials: n), continuityCorrection: true)
            expectClose(corrected.interval.lower, lowerCC, tolerance: 5e-5)
            expectClose(corrected.interval.upper, upperCC, tolerance: 5e-5)
            #expect(corrected.interval.lower <= plain.interval.lower)
            #expect(corrected.interval.upper >= plain.interval.upper)
        }
        let precise = try WilsonInterval(Proportion(successes: 81, trials: 263), continuityCorrection: true)
        expectClose(precise.interval.lower, 0.253509, tolerance: 5e-7)
        expectClose(precise.interval.upper, 0.368176, tolerance: 5e-7)
    }

    @Test("Wilson interval contains p̂ and lies in [0, 1]", arguments: [(0, 1), (1, 1), (3, 7), (50, 100), (999, 1000), (1, 100_000)])
    func wilsonContainsEstimate(x: Int, n: Int) throws {
        for cc in [false, true] {
            let w = try WilsonInterval(Proportion(successes: x, trials: n), alpha: 0.01, continuityCorrection: cc)
            #expect(w.interval.contains(w.estimate))
            #expect(w.interval.lower >= 0 && w.interval.upper <= 1)
            #expect(w.interval.level == 0.99)
        }
    }

    @Test("Wilson interval rejects impossible counts")
    func wilsonErrors() {
        #expect(throws: StatsError.tooFewObservations(needed: 1, got: 0)) { try WilsonInterval(Proportion(successes: 0, trials: 0)) }
        #expect(throws: StatsError.self) { try WilsonInterval(Proportion(successes: 5, trials: 4)) }
        #expect(throws: StatsError.self) { try WilsonInterval(Proportion(successes: 1, trials: 4), alpha: 0) }
    }

    /// Newcombe (1998), "Interval estimation for the difference between independent proportions",
    /// worked example: 56/70 vs 48/80, difference 0.2, method 10 gives 0.0524 to 0.3339.
    @Test("Newcombe's hybrid score interval: 56/70 vs 48/80 → 0.2, 0.0524 to 0.3339 (Newcombe 1998)")
    func newcombeWorkedExample() throws {
        let d = try NewcombeInterval(control: Proportion(successes: 48, trials: 80),
                                     treatment: Proportion(successes: 56, trials: 70))
        expectClose(d.difference, 0.2, tolerance: 1e-12)
        expectClose(d.interval.lower, 0.0524, tolerance: 5e-5)
        expectClose(d.interval.upper, 0.3339, tolerance: 5e-5)
        // Swapping the arms mirrors the interval.
        let swapped = try NewcombeInterval(control: Proportion(successes: 56, trials: 70),
                                           treatment: Proportion(successes: 48, trials: 80))
        expectClose(swapped.interval.lower, -d.interval.upper, tolerance: 1e-15)
        expectClose(swapped.interval.upper, -d.interval.lower, tolerance: 1e-15)
    }

    /// By hand: 40/200 vs 60/200. p̄ = 100/400 = 0.25; SE = √(0.25 · 0.75 · (1/200 + 1/200)) =
    /// √0.001875 = 0.0433013; z = (0.30 − 0.20)/0.0433013 = 2.309401; p = erfc(2.309401/√2) = 0.0209213
    /// (python3 math.erfc).
    @Test("Two-proportion z-test: 40/200 vs 60/200 → z = 2.309401, p = 0.020921 (by hand)")
    func zTest() throws {
        let t = try TwoProportionZTest(control: Proportion(successes: 40, trials: 200),
                                       treatment: Proportion(successes: 60, trials: 200))
        expectClose(t.pooledProportion, 0.25, tolerance: 1e-15)
        expectClose(t.standardError, 0.043301270, tolerance: 1e-9)
        expectClose(t.z, 2.309401077, tolerance: 1e-9)
        expectClose(t.pValue, 0.020921335, tolerance: 1e-9)
        // Identical arms of all failures: no evidence at all.
        let none = try TwoProportionZTest(control: Proportion(successes: 0, trials: 50),
                                          treatment: Proportion(successes: 0, trials: 70))
        #expect(none.z == 0 && none.pValue == 1)
    }

    /// Fisher (1935): the lady tasting tea, 3 of 4 cups right. The tables with a = 0…4 have
    /// probabilities 1, 16, 36, 16, 1 over 70; those ≤ 16/70 sum to 34/70 = 0.485714 (R's fisher.test
    /// gives p-value = 0.4857; scipy 1.17.1 fisher_exact gives 0.48571428571428565).
    @Test("Fisher's exact test: tea tasting [[3, 1], [1, 3]] → p = 34/70 = 0.4857")
    func fisherTeaTasting() throws {
        let f = try FisherExactTest(a: 3, b: 1, c: 1, d: 3)
        expectClose(f.pValue, 34.0 / 70, tolerance: 1e-13)
        expectClose(f.observedProbability, 16.0 / 70, tolerance: 1e-13)
        // The most extreme table: only the two tables of probability 1/70 count.
        let extreme = try FisherExactTest(a: 4, b: 0, c: 0, d: 4)
        expectClose(extreme.pValue, 2.0 / 70, tolerance: 1e-13)
        // The modal table: every table is at most as probable, p = 1.
        #expect(try FisherExactTest(a: 2, b: 2, c: 2, d: 2).pValue == 1)
    }

    /// 40/200 vs 60/200: the relative difference p_B/p_A − 1 = 0.5 with Katz's log interval
    /// (changed on purpose: before, a linear delta-method interval that could
    /// pass −100 %). SE(ln RR) = √((1 − 0.2)/(200·0.2) + (1 − 0.3)/(200·0.3)) = 0.17795130420052185
    /// and exp(ln 1.5 ± 1.959964·SE) − 1 = (0.05832446157032214, 1.1260020737510792), in numpy;
    /// statsmodels 0.15 `confint_proportions_2indep(60, 200, 40, 200, method='log',
    /// compare='ratio')` gives the ratio (1.058324461570322, 2.1260020737510796), the same.
    @Test("Relative difference with Katz's log interval (numpy, statsmodels)")
    func relativeDifference() throws {
        let c = try ProportionComparison(control: Proportion(successes: 40, trials: 200),
                                         treatment: Proportion(successes: 60, trials: 200))
        let r = try #require(c.relativeDifference)
        expectClose(r.estimate, 0.5, tolerance: 1e-14)
        expectClose(r.standardError, 0.17795130420052185, tolerance: 1e-12)
        expectClose(r.interval.lower, 0.05832446157032214, tolerance: 1e-10)
        expectClose(r.interval.upper, 1.1260020737510792, tolerance: 1e-10)
        // p̂_A = 0 or p̂_B = 0: the log scale is undefined, so no interval.
        #expect(try ProportionComparison(control: Proportion(successes: 0, trials: 10),
                                         treatment: Proportion(successes: 1, trials: 10)).relativeDifference == nil)
        #expect(try ProportionComparison(control: Proportion(successes: 3, trials: 10),
                                         treatment: Proportion(successes: 0, trials: 10)).relativeDifference == nil)
    }

    /// On a small demo the linear interval read `+76.5 % (−329.0, +482.0)`. The
    /// log interval of any counts stays above −100 %: 2/30 against 1/30 (a very noisy ratio) gives
    /// (−95.2 %, +422 %) in numpy, exp(ln 0.5 ± 1.959964·√(28/60 + 29/30)) − 1 =
    /// (−0.952148523353493, 4.224499169520389); statsmodels' `confint_proportions_2indep(1, 30, 2,
    /// 30, method='log', compare='ratio')` gives the ratio (0.047851476646506956, 5.22449916952039).
    @Test("A relative interval never passes −100 %")
    func relativeIntervalStaysInRange() throws {
        let c = try ProportionComparison(control: Proportion(successes: 2, trials: 30),
                                         treatment: Proportion(successes: 1, trials: 30))
        let i = try #require(c.relativeDifference).interval
        #expect(i.lower > -1)
        expectClose(i.lower, -0.952148523353493, tolerance: 1e-10)
        expectClose(i.upper, 4.224499169520389, tolerance: 1e-10)
    }

    @Test("Proportion comparison switches to Fisher's exact test when a cell is below 5")
    func comparisonChoosesTest() throws {
        let large = try ProportionComparison(control: Proportion(successes: 40, trials: 200),
                                             treatment: Proportion(successes: 60, trials: 200))
        #expect(large.test == .twoProportionZTest)
        expectClose(large.pValue, 0.020921335, tolerance: 1e-9)
        #expect(large.relativeDifference != nil)
        let small = try ProportionComparison(control: Proportion(successes: 3, trials: 4),
                                             treatment: Proportion(successes: 1, trials: 4))
        #expect(small.test == .fisherExact)
        expectClose(small.pValue, 34.0 / 70, tolerance: 1e-13)
        #expect(small.difference.interval.contains(-0.5))
    }
}
