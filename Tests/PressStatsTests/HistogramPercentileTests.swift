// Type-7 percentiles of a histogram (distinct values and their counts) against NumPy and against
// the same percentile of the expanded sample.
import Testing
import PressCore
@testable import PressStats

@Suite("Percentiles of a histogram")
struct HistogramPercentileTests {
    /// Frame-quantised latencies at 60 Hz (ms): 16.67 ×3, 33.33 ×5, 50 ×1, 183.33 ×2.
    static let values = [16.666666666666668, 33.333333333333336, 50.0, 183.33333333333331]
    static let counts = [3, 5, 1, 2]

    /// numpy 2.x `np.percentile(v, 100 p)` (its default, method 'linear', is type 7) on the
    /// expanded sample of 11 values gives 16.666666666666668 (p 0), 25.0 (0.25),
    /// 33.333333333333336 (0.5), 183.33333333333331 (0.9, 0.99, 1). NumPy interpolates as
    /// b − (b − a)(1 − t) for t ≥ 0.5, which can differ from a + t(b − a) in the last bit, so the
    /// interpolated value is compared to 1e-12.
    @Test func matchesNumPy() {
        let expected: [(Double, Double)] = [(0, 16.666666666666668), (0.25, 25.0), (0.5, 33.333333333333336),
                                            (0.9, 183.33333333333331), (0.99, 183.33333333333331), (1, 183.33333333333331)]
        for (p, numpy) in expected {
            let q = Percentile.type7(p, sortedValues: Self.values, counts: Self.counts)
            #expect(abs(q - numpy) <= 1e-12, "p \(p): \(q)")
        }
    }

    /// The histogram form finds the same order statistics and does the same arithmetic as the
    /// sorted-sample form (what SQL's percentile() calls), bit for bit, on random histograms.
    @Test func equalsTheExpandedSampleBitForBit() {
        var g = SplitMix64(seed: 42)
        for _ in 0..<500 {
            let distinct = 1 + Int(g.next() % 6)
            var values = Set<Double>()
            while values.count < distinct { values.insert(Double(g.next() % 40) * 1000 / 60) }
            let sorted = values.sorted()
            let counts = sorted.map { _ in 1 + Int(g.next() % 30) }
            let expanded = zip(sorted, counts).flatMap { Array(repeating: $0, count: $1) }
            for p in [0, 0.01, 0.25, 0.5, 0.9, 0.99, 1] + [Double(g.next() % 1000) / 999] {
                let a = Percentile.type7(p, sortedValues: sorted, counts: counts)
                let b = Percentile.type7(p, ofSorted: expanded)
                #expect(a.bitPattern == b.bitPattern, "p \(p) of \(sorted) × \(counts): \(a) vs \(b)")
            }
        }
    }

    /// Zero counts (values absent from a merged histogram) are stepped over.
    @Test func zeroCountsAreSkipped() {
        #expect(Percentile.type7(0.5, sortedValues: [1, 2, 3], counts: [0, 2, 0]) == 2)
        #expect(Percentile.type7(0.5, sortedValues: [1, 2, 3], counts: [1, 0, 1]) == 2)
    }
}
