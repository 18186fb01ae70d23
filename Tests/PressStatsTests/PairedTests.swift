// Paired tests against a textbook table, hand counts and scipy 1.17.1.
import Testing
@testable import PressStats

@Suite("Paired comparisons")
struct PairedTests {
    /// Agresti, An Introduction to Categorical Data Analysis, §10.1 (presidential approval, two
    /// surveys of the same 1600 people): [[794, 150], [86, 570]] gives McNemar's z² = 17.36. By hand,
    /// (150 − 86)²/236 = 4096/236 = 17.3559; with the continuity correction 63²/236 = 16.8178;
    /// scipy 1.17.1 chi2.sf(16.8178, 1) = 4.114562281345944e−05 (uncorrected: 3.0993e−05).
    @Test("McNemar: Agresti's [[794, 86], [150, 570]] → χ² = 17.36, corrected 16.82")
    func mcNemarAgresti() throws {
        let t = try McNemarTest(a: 794, b: 86, c: 150, d: 570)
        expectClose(t.chiSquared, 4096.0 / 236, tolerance: 1e-12)
        expectClose(t.continuityCorrectedChiSquared, 3969.0 / 236, tolerance: 1e-12)
        #expect(t.method == .continuityCorrectedChiSquared)
        expectRelativelyClose(t.pValue, 4.114562281345944e-05, tolerance: 1e-9)
        expectClose(t.difference, 64.0 / 1600, tolerance: 1e-15)
        // Uncorrected p, for the record: the χ² survival of 17.3559 on 1 df.
        expectRelativelyClose(ChiSquared(degreesOfFreedom: 1).survival(t.chiSquared), 3.099293441045215e-05, tolerance: 1e-9)
    }

    /// b = 3, c = 12: 15 discordant pairs < 25, so exact: 2 P(X ≤ 3), X ~ Binomial(15, ½) =
    /// 2 (1 + 15 + 105 + 455)/32768 = 1152/32768 = 0.03515625.
    @Test("McNemar exact binomial for few discordant pairs: b = 3, c = 12 → p = 1152/32768")
    func mcNemarExact() throws {
        let t = try McNemarTest(a: 40, b: 3, c: 12, d: 45)
        #expect(t.method == .exactBinomial)
        expectClose(t.pValue, 1152.0 / 32768, tolerance: 1e-14)
        #expect(try McNemarTest(a: 5, b: 0, c: 0, d: 5).pValue == 1)
        #expect(try McNemarTest(a: 5, b: 4, c: 4, d: 5).pValue == 1)
    }

    /// d = 1.5, −0.5, 2.0, 3.1, −1.2, 0.8, 2.6, 0. The zero is dropped (n = 7); |d| ranks 0.5 → 1,
    /// 0.8 → 2, 1.2 → 3, 1.5 → 4, 2.0 → 5, 2.6 → 6, 3.1 → 7; V = 4 + 5 + 7 + 2 + 6 = 24. Under H₀,
    /// P(V ≥ 24) = P(V ≤ 4) = #{∅, {1}, {2}, {3}, {4}, {1,2}, {1,3}}/2⁷ = 7/128, so p = 14/128 = 0.109375
    /// (scipy 1.17.1 wilcoxon method='exact': 0.109375).
    @Test("Wilcoxon signed-rank, exact: V = 24, p = 14/128 (by hand)")
    func wilcoxonExact() throws {
        let t = try WilcoxonSignedRankTest(differences: [1.5, -0.5, 2.0, 3.1, -1.2, 0.8, 2.6, 0])
        #expect(t.count == 7 && t.zeroCount == 1)
        #expect(t.positiveRankSum == 24)
        #expect(t.method == .exact)
        expectClose(t.pValue, 14.0 / 128, tolerance: 1e-14)
        expectClose(SignedRankDistribution(n: 7).probability(ofAtMost: 4), 7.0 / 128, tolerance: 1e-15)
    }

    /// d = 1, −1, 2, 2, 3, −3, 4, 5, 0: zero dropped, n = 8; |d| = 1, 1, 2, 2, 3, 3, 4, 5 with mid-ranks
    /// 1.5, 1.5, 3.5, 3.5, 5.5, 5.5, 7, 8; V = 1.5 + 3.5 + 3.5 + 5.5 + 7 + 8 = 29; three pairs of ties:
    /// Σ(t³ − t) = 18; Var V = 8·9·17/24 − 18/48 = 50.625; z = (29 − 18 − ½)/√50.625 = 1.475730,
    /// p = 0.1400165 (scipy 1.17.1 wilcoxon method='approx', correction=True: 0.140016503197169).
    @Test("Wilcoxon signed-rank with ties: z = 1.475730, p = 0.140017 (by hand)")
    func wilcoxonTies() throws {
        let t = try WilcoxonSignedRankTest(control: [0, 0, 0, 0, 0, 0, 0, 0, 0], treatment: [1, -1, 2, 2, 3, -3, 4, 5, 0])
        #expect(t.count == 8 && t.positiveRankSum == 29 && t.hasTies)
        #expect(t.method == .normalApproximation)
        expectClose(t.standardDeviationOfV * t.standardDeviationOfV, 50.625, tolerance: 1e-12)
        expectClose(t.z, 1.475729575, tolerance: 1e-9)
        expectClose(t.pValue, 0.140016503197169, tolerance: 1e-12)
    }

    /// Walsh averages of 1, 2, 4: 1, 1.5, 2.5, 2, 3, 4 → median (2 + 2.5)/2 = 2.25.
    /// Of 1.5, −0.5, 2.0, 3.1, −1.2, 0.8, 2.6 (python3, sorting all 28 averages): median 1.225;
    /// qsignrank(0.025, 7) = 3 (sums of subsets of 1…7: P(V ≤ 2) = 3/128 = 0.0234 < 0.025 ≤
    /// P(V ≤ 3) = 5/128), so the interval is W₍₃₎ = −0.5 to W₍₂₆₎ = 2.6.
    @Test("Hodges–Lehmann for paired differences: median of Walsh averages and Tukey's interval")
    func hodgesLehmannPaired() throws {
        expectClose(try HodgesLehmannPairedShift(differences: [4, 1, 2]).estimate, 2.25, tolerance: 1e-15)
        let h = try HodgesLehmannPairedShift(differences: [1.5, -0.5, 2.0, 3.1, -1.2, 0.8, 2.6])
        expectClose(h.estimate, 1.225, tolerance: 1e-12)
        #expect(h.rank == 3 && h.method == .exact)
        expectClose(h.interval.lower, -0.5, tolerance: 1e-12)
        expectClose(h.interval.upper, 2.6, tolerance: 1e-12)
        // Mostly unchanged replays: the typical shift is 0, and the estimate keeps the zeros.
        let mostlyZero = try HodgesLehmannPairedShift(differences: Array(repeating: 0, count: 80) + Array(repeating: -10, count: 20))
        #expect(mostlyZero.estimate == 0)
        #expect(throws: StatsError.self) { try HodgesLehmannPairedShift(control: [1, 2], treatment: [1]) }
    }
}
