// Rank statistics against hand counts, brute-force enumeration and scipy 1.17.1.
import PressCore
import Testing
import PressCore
@testable import PressStats

@Suite("Rank statistics")
struct RankTests {
    static let controlA: [Double] = [1.1, 2.3, 3.5, 4.2]
    static let treatmentB: [Double] = [2.9, 5.0, 6.1, 7.7, 8.4]

    /// U counts pairs with b > a: 2.9 beats 1.1 and 2.3 (2), each of 5.0, 6.1, 7.7, 8.4 beats all four
    /// (16): U = 18 of 20. Enumerating all C(9, 5) = 126 splits (python3 itertools) gives
    /// P(U ≥ 18) = 4/126, so the exact two-sided p = 8/126 = 0.0634921 (scipy 1.17.1 mannwhitneyu
    /// method='exact' agrees: 0.06349206349206349).
    @Test("Mann–Whitney U without ties: U = 18, exact p = 8/126")
    func mannWhitneyExact() throws {
        let t = try MannWhitneyUTest(control: Self.controlA, treatment: Self.treatmentB)
        #expect(t.u == 18)
        #expect(t.method == .exact)
        #expect(!t.hasTies)
        expectClose(t.probabilityOfSuperiority, 0.9, tolerance: 1e-15)
        expectClose(t.pValue, 8.0 / 126, tolerance: 1e-13)
        // The same data by the normal approximation: σ² = 20·10/12, z = (18 − 10 − ½)/√(200/12) = 1.837117.
        let approximate = try MannWhitneyUTest(control: Self.controlA, treatment: Self.treatmentB, exact: false)
        #expect(approximate.method == .normalApproximation)
        expectClose(approximate.z, 7.5 / (200.0 / 12).squareRoot(), tolerance: 1e-12)
    }

    @Test("Exact U distribution: P(U = 0…3) = 1, 1, 2, 3 over 126 for sizes 5 and 4 (enumeration)")
    func exactDistribution() {
        let d = MannWhitneyDistribution(m: 5, n: 4)
        #expect(d.probabilities.count == 21)
        for (u, count) in [1.0, 1, 2, 3].enumerated() { expectClose(d.probabilities[u], count / 126, tolerance: 1e-15) }
        expectClose(d.probabilities.reduce(0, +), 1, tolerance: 1e-14)
        // Symmetric about mn/2.
        for u in 0...20 { expectClose(d.probabilities[u], d.probabilities[20 - u], tolerance: 1e-15) }
    }

    /// A = 3, 5, 5, 7, 9, 9, 10; B = 5, 8, 9, 11, 12, 12, 14, 15 (ties at 5, 9 and 12).
    /// Mid-ranks (python3 / scipy.stats.rankdata) give R_B = 82, U = 82 − 36 = 46; tie groups of sizes
    /// 3, 3, 2 give Σ(t³ − t) = 24 + 24 + 6 = 54; Var U = 56/12 · (16 − 54/210) = 73.466667;
    /// z = (46 − 28 − ½)/√73.466667 = 2.041704, p = 0.0411809 (scipy 1.17.1 mannwhitneyu
    /// method='asymptotic', use_continuity=True: 0.04118085447752836).
    @Test("Mann–Whitney U with ties: tie-corrected z = 2.041704, p = 0.041181")
    func mannWhitneyTies() throws {
        let t = try MannWhitneyUTest(control: [3, 5, 5, 7, 9, 9, 10], treatment: [5, 8, 9, 11, 12, 12, 14, 15])
        #expect(t.u == 46)
        #expect(t.hasTies && t.method == .normalApproximation)
        expectClose(t.standardDeviationOfU * t.standardDeviationOfU, 73.46666666666667, tolerance: 1e-11)
        expectClose(t.z, 2.041704476, tolerance: 1e-9)
        expectClose(t.pValue, 0.04118085447752836, tolerance: 1e-12)
    }

    /// The 20 differences b − a of the samples above, sorted (python3): −1.3, −0.6, 0.6, 0.8, 1.5, 1.8,
    /// 1.9, 2.6, 2.7, 3.5, 3.8, 3.9, 4.2, 4.2, 4.9, 5.0, 5.4, 6.1, 6.6, 7.3; median (3.5 + 3.8)/2 = 3.65.
    /// From the enumerated U distribution, P(U ≤ 1) = 2/126 < 0.025 ≤ P(U ≤ 2) = 4/126, so k = 2 and the
    /// interval is D₍₂₎ = −0.6 to D₍₁₉₎ = 6.6.
    @Test("Hodges–Lehmann shift with Moses' exact interval")
    func hodgesLehmannExact() throws {
        let h = try HodgesLehmannShift(control: Self.controlA, treatment: Self.treatmentB)
        expectClose(h.estimate, 3.65, tolerance: 1e-12)
        #expect(h.rank == 2 && h.method == .exact)
        expectClose(h.interval.lower, -0.6, tolerance: 1e-12)
        expectClose(h.interval.upper, 6.6, tolerance: 1e-12)
    }

    /// With ties (samples of `mannWhitneyTies`): the 56 differences have median 4 (python3
    /// statistics.median); k = ⌊28 − 1.959964·√73.466667 + ½⌋ = 11, D₍₁₁₎ = 0, D₍₄₆₎ = 7.
    @Test("Hodges–Lehmann shift with the normal-approximation interval (ties)")
    func hodgesLehmannTies() throws {
        let h = try HodgesLehmannShift(control: [3, 5, 5, 7, 9, 9, 10], treatment: [5, 8, 9, 11, 12, 12, 14, 15])
        #expect(h.estimate == 4)
        #expect(h.rank == 11 && h.method == .normalApproximation)
        #expect(h.interval.lower == 0 && h.interval.upper == 7)
    }

    @Test("Selection of pairwise differences and Walsh averages agrees with sorting all of them")
    func selectionAgreesWithBruteForce() {
        var rng = SplitMix64(seed: 7)
        for trial in 0..<40 {
            let m = Int.random(in: 1...25, using: &rng), n = Int.random(in: 1...25, using: &rng)
            // Every fourth trial on a coarse grid, to force ties.
            let draw = { (rng: inout SplitMix64) -> Double in
                trial % 4 == 0 ? Double(Int.random(in: -3...3, using: &rng)) : Double.random(in: -50...120, using: &rng)
            }
            let a = (0..<m).map { _ in draw(&rng) }.sorted(), b = (0..<n).map { _ in draw(&rng) }.sorted()
            let differences = b.flatMap { bj in a.map { bj - $0 } }.sorted()
            for k in Set([1, differences.count, (differences.count + 1) / 2, Int.random(in: 1...differences.count, using: &rng)]) {
                #expect(kthSmallestDifference(k, sortedControl: a, sortedTreatment: b) == differences[k - 1])
            }
            let walsh = a.indices.flatMap { i in a[i...].map { walshAverage(a[i], $0) } }.sorted()
            for k in Set([1, walsh.count, (walsh.count + 1) / 2, Int.random(in: 1...walsh.count, using: &rng)]) {
                #expect(kthSmallestWalshAverage(k, sorted: a) == walsh[k - 1])
            }
        }
    }

    @Test("Rank statistics: p-values in [0, 1], intervals contain the estimate")
    func properties() throws {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<30 {
            let a = (0..<Int.random(in: 2...80, using: &rng)).map { _ in Double.random(in: 40...200, using: &rng).rounded() }
            let b = (0..<Int.random(in: 2...80, using: &rng)).map { _ in Double.random(in: 30...190, using: &rng).rounded() }
            let u = try MannWhitneyUTest(control: a, treatment: b)
            #expect(u.pValue >= 0 && u.pValue <= 1)
            let h = try HodgesLehmannShift(control: a, treatment: b)
            #expect(h.interval.contains(h.estimate))
            let paired = Array(zip(a, b).map { $1 - $0 })
            let w = try WilcoxonSignedRankTest(differences: paired)
            #expect(w.pValue >= 0 && w.pValue <= 1)
            let hl = try HodgesLehmannPairedShift(differences: paired)
            #expect(hl.interval.contains(hl.estimate))
            for p in try Percentile.percentiles([0, 0.1, 0.5, 0.9, 0.99, 1], of: a) {
                #expect(p.interval.contains(p.estimate))
                #expect(p.coverage >= 0.95)
            }
        }
    }

    /// Type 7 on 1…10: h = 9p; the median is 5.5, p90 = x₍₉₎ + 0.1 (x₍₁₀₎ − x₍₉₎) = 9.1.
    /// Order-statistic interval for the median of 10 (Campbell & Gardner's table in Statistics with
    /// Confidence: ranks 2 and 9, 97.85 % exact confidence): P(2 ≤ B ≤ 8) = 1 − 2·11/1024 = 1002/1024.
    @Test("Percentiles (type 7) with order-statistic intervals: median of 1…10 → 5.5, ranks 2 to 9")
    func percentiles() throws {
        var rng = SplitMix64(seed: 3)
        let x = (1...10).map(Double.init).shuffled(using: &rng)
        let median = try Percentile(0.5, of: x)
        #expect(median.estimate == 5.5)
        #expect(median.lowerRank == 2 && median.upperRank == 9)
        #expect(median.interval.lower == 2 && median.interval.upper == 9)
        expectClose(median.coverage, 1002.0 / 1024, tolerance: 1e-13)
        expectClose(try Percentile(0.9, of: x).estimate, 9.1, tolerance: 1e-12)
        // numpy 2.4.6 percentile(1…200, 90) = 180.1; scipy 1.17.1 binom.ppf gives ranks 171 and
        // 188 + 1 = 189 with coverage 0.9668839008979295.
        let big = try Percentile(0.9, of: (1...200).map(Double.init))
        expectClose(big.estimate, 180.1, tolerance: 1e-12)
        #expect(big.lowerRank == 171 && big.upperRank == 189)
        expectClose(big.coverage, 0.9668839008979295, tolerance: 1e-12)
        // p99 of 50 values: qbinom(0.975, 50, 0.99) + 1 = 51 > n, so the upper side is unbounded.
        let tail = try Percentile(0.99, of: (1...50).map(Double.init))
        #expect(tail.lowerRank == 48 && tail.interval.upper == .infinity)
    }
}
