import Testing
@testable import PressCore

@Suite struct SplitMix64Tests {
    // Rosetta Code, "Pseudo-random numbers/Splitmix64": seed 1234567 gives these first five
    // outputs; recomputed with python3 (64-bit masked arithmetic) before use.
    @Test func publishedTestVector() {
        var g = SplitMix64(seed: 1234567)
        let expected: [UInt64] = [6457827717110365317, 3203168211198807973, 9817491932198370423,
                                  4593380528125082431, 16408922859458223821]
        #expect((0..<5).map { _ in g.next() } == expected)
    }

    // Rosetta Code's second check: seed 987654321, 100,000 floats in [0, 1), counts of
    // floor(5·u): 20027, 19892, 20073, 19978, 20030. Recomputed with python3 using u = (next >> 11)·2⁻⁵³.
    @Test func publishedBucketCounts() {
        var g = SplitMix64(seed: 987654321)
        var counts = [0, 0, 0, 0, 0]
        for _ in 0..<100_000 { counts[Int(g.nextUnit() * 5)] += 1 }
        #expect(counts == [20027, 19892, 20073, 19978, 20030])
    }

    // Seed 0: first outputs 16294208416658607535, 7960286522194355700 (python3, same algorithm).
    @Test func seedZero() {
        var g = SplitMix64(seed: 0)
        #expect(g.next() == 16294208416658607535)
        #expect(g.next() == 7960286522194355700)
    }

    @Test func derivedStreamsDiffer() {
        var a = SplitMix64(seed: 7, index: 0, stream: 0)
        var b = SplitMix64(seed: 7, index: 0, stream: 1)
        var c = SplitMix64(seed: 7, index: 1, stream: 0)
        var a2 = SplitMix64(seed: 7, index: 0, stream: 0)
        let x = a.next(), y = b.next(), z = c.next()
        #expect(x != y && x != z && y != z)
        #expect(a2.next() == x)
    }

    // Moments of the distributions on 100,000 draws, each within 4 standard errors:
    // normal mean SE 1/√n = 0.00316, variance SE √(2/n) = 0.00447; the fraction of log-normal
    // draws below the median SE √(0.25/n) = 0.00158; exponential mean SE = mean/√n.
    @Test func distributionsHaveTheirMoments() {
        var g = SplitMix64(seed: 42)
        let n = 100_000
        var sum = 0.0, sum2 = 0.0
        for _ in 0..<n { let z = g.normal(); sum += z; sum2 += z * z }
        let mean = sum / Double(n)
        #expect(abs(mean) < 4 * 0.00316)
        #expect(abs(sum2 / Double(n) - mean * mean - 1) < 4 * 0.00447)

        var below = 0
        for _ in 0..<n where g.logNormal(median: 0.09, sigma: 0.45) < 0.09 { below += 1 }
        #expect(abs(Double(below) / Double(n) - 0.5) < 4 * 0.00158)

        var total = 0.0
        for _ in 0..<n { total += g.exponential(mean: 0.04) }
        #expect(abs(total / Double(n) - 0.04) < 4 * 0.04 / Double(n).squareRoot())
    }

    // below(6): each face 1/6; counts within 4·√(n·p·(1−p)) = 4·√(60000·(1/6)·(5/6)) = 365.1.
    @Test func belowIsUniform() {
        var g = SplitMix64(seed: 5)
        var counts = Array(repeating: 0, count: 6)
        for _ in 0..<60_000 { counts[g.below(6)] += 1 }
        #expect(counts.allSatisfy { abs($0 - 10_000) < 366 })
        #expect((0..<1000).allSatisfy { _ in (3...5).contains(g.integer(3...5)) })
    }

    @Test func weightedIndexSkipsZeroWeights() {
        var g = SplitMix64(seed: 9)
        #expect((0..<1000).allSatisfy { _ in g.index(weights: [0, 1, 0, 2]) % 2 == 1 })
    }
}
