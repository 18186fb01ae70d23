// Ratio metrics over users, confidence sequences and power, against numpy 2.4 / scipy 1.17 /
// statsmodels 0.15 computed separately (the scripts' formulas are written out in each comment).
import Foundation
import Testing
@testable import PressStats

/// Per-user (sessions, sessions with the event) of two arms: six users in A, seven in B.
private let usersA: [(denominator: Double, numerator: Double)] = [(3, 1), (5, 0), (2, 2), (4, 1), (6, 3), (1, 0)]
private let usersB: [(denominator: Double, numerator: Double)] = [(4, 2), (3, 0), (5, 1), (2, 1), (7, 4), (3, 3), (2, 0)]

@Suite("Ratio metrics by the delta method")
struct RatioMetricTests {
    // numpy: R = ΣY/ΣX; Var = (s²_Y/X̄² − 2Ȳ s_XY/X̄³ + Ȳ² s²_X/X̄⁴)/n with ddof=1 moments
    // (X.var(ddof=1), Y.var(ddof=1), np.cov(X, Y, ddof=1)[0, 1]):
    //   A: R = 1/3, Var = 0.015721844293272863;  B: R = 11/26, Var = 0.013398223684978349.
    // The same by hand from the residual form Σ(Y − RX)²·n/((n − 1)(ΣX)²): A = 0.01572184429327286.
    @Test func deltaMethodVarianceMatchesNumpy() throws {
        let a = RatioSummary(units: usersA), b = RatioSummary(units: usersB)
        #expect(a.units == 6 && a.denominatorSum == 21 && a.numeratorSum == 7)
        expectClose(a.estimate, 1.0 / 3, tolerance: 1e-15)
        expectRelativelyClose(a.varianceOfEstimate, 0.015721844293272863, tolerance: 1e-12)
        expectClose(b.estimate, 11.0 / 26, tolerance: 1e-15)
        expectRelativelyClose(b.varianceOfEstimate, 0.013398223684978349, tolerance: 1e-12)
        // Three users' sessions one by one: (2, 1) is sessions 1 and 0; the sum of the per-user
        // totals is what a per-user SQL GROUP BY followed by SUM gives.
        let merged = RatioSummary(units: usersA.prefix(2)) + RatioSummary(units: usersA.dropFirst(2))
        #expect(merged == a)
    }

    // statsmodels: OLS of the session-level indicator on [1, armB] with users as clusters,
    // cov_type='cluster'. With use_correction=False (CR0) bse(armB) = 0.15679836938259942; the
    // default (CR1) multiplies the variance by G/(G − 1)·(N − 1)/(N − K) = 13/12·46/45 and gives
    // 0.16500429695495344. Per arm (OLS on a constant, CR0) the variances of the means are
    // 0.013101536911060693 (A) and 0.011484191729981434 (B). The delta method's (n − 1) moments make
    // each arm's variance n/(n − 1) times CR0 (6/5 and 7/6), so CR0 = Σ Var·(n − 1)/n.
    @Test func deltaMethodAgreesWithStatsmodelsClusterRobust() throws {
        let a = RatioSummary(units: usersA), b = RatioSummary(units: usersB)
        expectRelativelyClose(a.varianceOfEstimate * 5 / 6, 0.013101536911060693, tolerance: 1e-12)
        expectRelativelyClose(b.varianceOfEstimate * 6 / 7, 0.011484191729981434, tolerance: 1e-12)
        let cr0 = (a.varianceOfEstimate * 5 / 6 + b.varianceOfEstimate * 6 / 7).squareRoot()
        expectRelativelyClose(cr0, 0.15679836938259942, tolerance: 1e-12)
        // The statsmodels coefficient is the difference of the session-level rates.
        let t = try DeltaMethodZTest(control: a, treatment: b, inference: .fixedHorizon(alpha: 0.05))
        expectClose(t.difference, 0.0897435897435897, tolerance: 1e-15)
    }

    // numpy/scipy: δ = 11/26 − 1/3 = 0.08974358974358976, SE = √(Var_A + Var_B) = 0.17064603124084432,
    // z = 0.5259049336865534, p = 2·norm.sf(|z|) = 0.5989542608248518, CI δ ± norm.ppf(0.975)·SE =
    // (−0.244716485593162, 0.4242036650803415). Log scale: L = ln(R_B/R_A), SE(L) = √(V_B/R_B² + V_A/R_A²)
    // = 0.46513383523578783, interval expm1(L ± 1.96·SE(L)) = (−0.4899438909693605, 2.1583716321401014).
    @Test func zTestAndLogScaleRelativeInterval() throws {
        let t = try DeltaMethodZTest(control: RatioSummary(units: usersA), treatment: RatioSummary(units: usersB),
                                     inference: .fixedHorizon(alpha: 0.05))
        expectRelativelyClose(t.standardError, 0.17064603124084432, tolerance: 1e-12)
        expectRelativelyClose(t.z, 0.5259049336865534, tolerance: 1e-12)
        expectRelativelyClose(t.pValue, 0.5989542608248518, tolerance: 1e-12)
        expectClose(t.interval.lower, -0.244716485593162, tolerance: 1e-12)
        expectClose(t.interval.upper, 0.4242036650803415, tolerance: 1e-12)
        let r = try #require(t.relativeDifference)
        expectClose(r.estimate, 0.2692307692307694, tolerance: 1e-12)
        expectRelativelyClose(r.standardError, 0.46513383523578783, tolerance: 1e-12)
        expectClose(r.interval.lower, -0.4899438909693605, tolerance: 1e-12)
        expectClose(r.interval.upper, 2.1583716321401014, tolerance: 1e-12)
        #expect(t.units == 13)
    }

    // Latencies (ms) per user, A: [33, 50], [17, 33, 33], [67], [50, 50, 83, 33];
    // B: [50, 67], [33], [83, 100, 67], [50, 33], [117, 83]. numpy delta method: A 44.9 with
    // Var 60.433333333333366, B 68.3 with Var 131.95975000000004; statsmodels OLS of the session
    // latencies on [1, armB], clusters = users, CR0: coefficient 23.4, bse 12.283843046864458.
    @Test func meanLatencyAgainstStatsmodels() throws {
        let a: [[Double]] = [[33, 50], [17, 33, 33], [67], [50, 50, 83, 33]]
        let b: [[Double]] = [[50, 67], [33], [83, 100, 67], [50, 33], [117, 83]]
        let sa = RatioSummary(units: a.map { (denominator: Double($0.count), numerator: $0.reduce(0, +)) })
        let sb = RatioSummary(units: b.map { (denominator: Double($0.count), numerator: $0.reduce(0, +)) })
        expectClose(sa.estimate, 44.9, tolerance: 1e-12)
        expectRelativelyClose(sa.varianceOfEstimate, 60.433333333333366, tolerance: 1e-12)
        expectRelativelyClose(sb.varianceOfEstimate, 131.95975000000004, tolerance: 1e-12)
        let t = try DeltaMethodZTest(control: sa, treatment: sb, inference: .fixedHorizon(alpha: 0.05))
        expectClose(t.difference, 23.4, tolerance: 1e-12)
        expectRelativelyClose((sa.varianceOfEstimate * 3 / 4 + sb.varianceOfEstimate * 4 / 5).squareRoot(),
                              12.283843046864458, tolerance: 1e-12)
    }

    // Sessions as units: X = 1, so Σ(Y − p)²·n/((n − 1)n²) = p(1 − p)/(n − 1), by hand 0.03·0.97/999.
    @Test func sessionsAsUnitsGiveTheBinomialVariance() throws {
        let s = RatioSummary(proportion: Proportion(successes: 30, trials: 1000))
        expectRelativelyClose(s.varianceOfEstimate, 0.03 * 0.97 / 999, tolerance: 1e-12)
        let m = RatioSummary(values: MeanSummary(values: [1, 2, 3, 4]))
        // var([1, 2, 3, 4], ddof=1)/4 = (5/3)/4.
        expectRelativelyClose(m.varianceOfEstimate, 5.0 / 12, tolerance: 1e-12)
    }

    // Paired clusters (a both, b A only, c B only, d neither) per user: (1,1,0,2), (0,0,2,3),
    // (2,0,1,0), (0,2,0,4), (1,0,0,1), (0,1,3,1). numpy from Obuchowski's (1998) ratio-estimator
    // variances at the estimates, var(p̂_j) = K/(K − 1)·Σ(x_jk − n_k p̂_j)²/N² and the covariance
    // alike: p̂_A = 0.32, p̂_B = 0.4, var_A = 0.00893952, var_B = 0.019968, cov = 0.0013824,
    // SE = 0.1616871052372452, z = 0.49478280832979954, p = 0.6207534409522089,
    // CI (−0.2369009030295381, 0.3969009030295381); log scale with the covariance
    // (−0.4686361738498605, 1.9405464262042325). (Obuchowski's pooled score form, Yang et al.'s
    // X² = (K − 1)/K·(Σ(b − c))²/Σ(b − c)² = 0.238, p = 0.6256, is close, as it should be near H₀.)
    @Test func pairedClustersMatchObuchowskiWaldForm() throws {
        let cells: [(Int, Int, Int, Int)] = [(1, 1, 0, 2), (0, 0, 2, 3), (2, 0, 1, 0), (0, 2, 0, 4), (1, 0, 0, 1), (0, 1, 3, 1)]
        let p = PairedRatioSummary(units: cells.map { (a, b, c, d) in
            (denominator: Double(a + b + c + d), control: Double(a + b), treatment: Double(a + c))
        })
        expectClose(p.control.estimate, 0.32, tolerance: 1e-15)
        expectClose(p.treatment.estimate, 0.4, tolerance: 1e-15)
        expectRelativelyClose(p.control.varianceOfEstimate, 0.00893952, tolerance: 1e-12)
        expectRelativelyClose(p.treatment.varianceOfEstimate, 0.019968, tolerance: 1e-12)
        expectRelativelyClose(p.covarianceOfEstimates, 0.0013824, tolerance: 1e-12)
        let t = try DeltaMethodZTest(paired: p, inference: .fixedHorizon(alpha: 0.05))
        expectRelativelyClose(t.standardError, 0.1616871052372452, tolerance: 1e-12)
        expectRelativelyClose(t.pValue, 0.6207534409522089, tolerance: 1e-12)
        expectClose(t.interval.lower, -0.2369009030295381, tolerance: 1e-12)
        expectClose(t.interval.upper, 0.3969009030295381, tolerance: 1e-12)
        let r = try #require(t.relativeDifference)
        expectClose(r.interval.lower, -0.4686361738498605, tolerance: 1e-12)
        expectClose(r.interval.upper, 1.9405464262042325, tolerance: 1e-12)
        // One session per unit, McNemar's table of the sums: the session-level summary.
        let table = PairedCounts(both: 4, controlOnly: 4, treatmentOnly: 6, neither: 11)
        let sessions = PairedRatioSummary(table: table)
        expectClose(sessions.difference.estimate, 2.0 / 25, tolerance: 1e-15)
    }

    @Test func partialsMergeAndSerialiseWithStableKeys() throws {
        let triples: [(denominator: Double, control: Double, treatment: Double)] = [(2, 1, 0), (3, 0, 2), (1, 1, 1)]
        let whole = PairedRatioSummary(units: triples)
        let parts = PairedRatioSummary(units: triples.prefix(1)) + PairedRatioSummary(units: triples.dropFirst())
        #expect(parts == whole)
        let s = RatioSummary(units: usersA)
        let json = String(decoding: try JSONEncoder().encode(s), as: UTF8.self)
        for key in ["\"n\"", "\"sum_x\"", "\"sum_y\"", "\"sum_x2\"", "\"sum_y2\"", "\"sum_xy\""] { #expect(json.contains(key)) }
        #expect(try JSONDecoder().decode(RatioSummary.self, from: Data(json.utf8)) == s)
        let pjson = String(decoding: try JSONEncoder().encode(whole), as: UTF8.self)
        #expect(pjson.contains("\"sum_yayb\"") && pjson.contains("\"sum_xyb\""))
    }

    // Log-scale intervals stay above −100 % however noisy the arms (a property any ratio interval of
    // exp form has: expm1(x) > −1 for every finite x).
    @Test func relativeIntervalNeverPassesMinusOneHundredPercent() throws {
        let unitsA: [(denominator: Double, numerator: Double)] = [(10, 1), (10, 0), (10, 0)]
        let unitsB: [(denominator: Double, numerator: Double)] = [(10, 0), (10, 0), (10, 1)]
        let a = RatioSummary(units: unitsA), b = RatioSummary(units: unitsB)
        let t = try DeltaMethodZTest(control: a, treatment: b, inference: .fixedHorizon(alpha: 0.01))
        let r = try #require(t.relativeDifference)
        #expect(r.interval.lower > -1)
        // The linear delta-method interval of the same numbers, written out here,
        // (B − A)/A ± z √(Var_B/A² + B² Var_A/A⁴), does pass −100 %.
        let ra = a.estimate, rb = b.estimate
        let linearSE = (b.varianceOfEstimate / (ra * ra) + rb * rb * a.varianceOfEstimate / (ra * ra * ra * ra)).squareRoot()
        #expect((rb - ra) / ra - 2.5758293035489 * linearSE < -1)
    }

    @Test func badInputIsRejected() {
        #expect(throws: StatsError.self) {
            try DeltaMethodZTest(control: RatioSummary(units: usersA.prefix(1)), treatment: RatioSummary(units: usersB),
                                 inference: .fixedHorizon(alpha: 0.05))
        }
        #expect(throws: StatsError.self) {
            try DeltaMethodZTest(control: RatioSummary(units: usersA.map { _ in (denominator: 0.0, numerator: 0.0) }),
                                 treatment: RatioSummary(units: usersB),
                                 inference: .fixedHorizon(alpha: 0.05))
        }
    }
}

@Suite("Confidence sequences")
struct ConfidenceSequenceTests {
    // GrowthBook's published formula evaluated in numpy (not by this code):
    //   ρ = √((−2 ln α + ln(−2 ln α + 1))/N*), s² = SE²N,
    //   hw = √s² · √(2(Nρ² + 1)/(N²ρ²) · ln(√(Nρ² + 1)/α)),
    // and the always-valid p-value found by bisection on α with ρ fixed (the smallest α whose
    // half-width is ≤ |δ̂|):
    //   SE 0.012, N 800, α 0.05, N* 5000, δ̂ 0.03: ρ 0.03984006677137368, hw 0.04187152112018213,
    //     factor hw/(1.96·SE) 1.7802844614518154, p 0.26227152445551416;
    //   SE 0.004, N 20000, α 0.05, N* 5000, δ̂ 0.01: hw 0.01250845657475196, p 0.27659659837718237;
    //   SE 2.5, N 300, α 0.01, N* 1000, δ̂ 9: ρ 0.10739525753363238, hw 9.286915212298805,
    //     factor 1.4421631432647453, p 0.013849073137236073.
    @Test func matchesGrowthBooksFormula() throws {
        let a = try ConfidenceSequence(estimate: 0.03, standardError: 0.012, units: 800, alpha: 0.05, tuning: 5000)
        expectRelativelyClose(a.rho, 0.03984006677137368, tolerance: 1e-13)
        expectRelativelyClose(a.halfWidth, 0.04187152112018213, tolerance: 1e-12)
        expectRelativelyClose(a.wideningFactor, 1.7802844614518154, tolerance: 1e-12)
        expectRelativelyClose(a.pValue, 0.26227152445551416, tolerance: 1e-9)
        expectClose(a.interval.lower, 0.03 - 0.04187152112018213, tolerance: 1e-14)
        let b = try ConfidenceSequence(estimate: 0.01, standardError: 0.004, units: 20000, alpha: 0.05, tuning: 5000)
        expectRelativelyClose(b.halfWidth, 0.01250845657475196, tolerance: 1e-12)
        expectRelativelyClose(b.pValue, 0.27659659837718237, tolerance: 1e-9)
        let c = try ConfidenceSequence(estimate: 9, standardError: 2.5, units: 300, alpha: 0.01, tuning: 1000)
        expectRelativelyClose(c.rho, 0.10739525753363238, tolerance: 1e-13)
        expectRelativelyClose(c.halfWidth, 9.286915212298805, tolerance: 1e-12)
        expectRelativelyClose(c.wideningFactor, 1.4421631432647453, tolerance: 1e-12)
        expectRelativelyClose(c.pValue, 0.013849073137236073, tolerance: 1e-9)
        // 9 < 9.287: the sequence at α = 0.01 contains 0, and p > 0.01 says the same.
        #expect(c.interval.contains(0) && c.pValue > 0.01)
    }

    // The sequence widens the fixed-horizon interval by exactly its factor, in a whole z-test.
    @Test func widensTheDeltaMethodIntervalByItsFactor() throws {
        let a = RatioSummary(units: usersA), b = RatioSummary(units: usersB)
        let fixed = try DeltaMethodZTest(control: a, treatment: b, inference: .fixedHorizon(alpha: 0.05))
        let seq = try DeltaMethodZTest(control: a, treatment: b,
                                       inference: .confidenceSequence(alpha: 0.05, units: 13, tuning: 5000))
        let cs = try ConfidenceSequence(estimate: fixed.difference, standardError: fixed.standardError, units: 13)
        expectRelativelyClose(seq.interval.width / fixed.interval.width, cs.wideningFactor, tolerance: 1e-12)
        #expect(seq.pValue > fixed.pValue)
    }

    @Test func zeroDifferenceWithNoSpreadHasPValueOne() throws {
        let cs = try ConfidenceSequence(estimate: 0, standardError: 0, units: 100)
        #expect(cs.pValue == 1 && cs.interval.lower == 0 && cs.interval.upper == 0)
        #expect(throws: StatsError.self) { try ConfidenceSequence(estimate: 0, standardError: 1, units: 0) }
        #expect(throws: StatsError.self) { try ConfidenceSequence(estimate: 0, standardError: 1, units: 10, tuning: 0) }
    }
}

@Suite("Power and minimum detectable effect")
struct PowerTests {
    // scipy: (norm.ppf(0.975) + norm.ppf(0.8))·0.01 = 0.028015852181129685; power at δ = 2.5 SE:
    // norm.cdf(2.5 − 1.96) + norm.cdf(−2.5 − 1.96) = 0.7054180011138003. statsmodels
    // NormalIndPower().solve_power(effect_size=δ/σ, alpha=0.05, power=0.8, ratio=1) with σ² = 0.09 per
    // arm: 14127.948916801524 for δ = 0.01 and 3531.987230615594 for δ = 0.02 (it also counts the far
    // tail; the closed form (z + z)²·2σ²/δ² is 14127.98 and 3532.00), so 14128 and 3532 per arm.
    @Test func mdePowerAndUnitsMatchScipyAndStatsmodels() throws {
        let p = try PowerAnalysis(standardError: 0.01, unitVariance: 0.18, design: .independentArms,
                                  inference: .fixedHorizon(alpha: 0.05))
        expectRelativelyClose(p.minimumDetectableEffect, 0.028015852181129685, tolerance: 1e-12)
        expectRelativelyClose(p.power(effect: 0.025), 0.7054180011138003, tolerance: 1e-12)
        expectClose(p.power(effect: p.minimumDetectableEffect), 0.8, tolerance: 1e-6)
        #expect(p.unitsPerArm(for: .absolute(0.01), control: 0.3) == 14128)
        #expect(p.unitsPerArm(for: .absolute(0.02), control: 0.3) == 3532)
        // 5 % of a control at 0.2 is 0.01.
        #expect(p.unitsPerArm(for: .relative(0.05), control: 0.2) == 14128)
        expectClose(try #require(p.relativeMinimumDetectableEffect(control: 0.5)), 0.05603170436225937, tolerance: 1e-12)
    }

    // Sequential planning needs more units: the bisection's answer n is the first whose detectable
    // effect (c(2n) + z_0.8)·√(σ²/n) is at most δ, with c the sequence's half-width per SE.
    @Test func sequentialPlanningNeedsMoreUnits() throws {
        let seq = try PowerAnalysis(standardError: 0.01, unitVariance: 0.18, design: .independentArms,
                                    inference: .confidenceSequence(alpha: 0.05, units: 1000, tuning: 5000))
        let n = try #require(seq.unitsPerArm(for: .absolute(0.01), control: 0.3))
        #expect(n > 14128)
        func detectable(_ n: Int) -> Double {
            (ConfidenceSequence.halfWidth(standardError: 1, units: 2 * n, alpha: 0.05, tuning: 5000)
                + StandardNormal.quantile(0.8)) * (0.18 / Double(n)).squareRoot()
        }
        #expect(detectable(n) <= 0.01 && detectable(n - 1) > 0.01)
    }
}
