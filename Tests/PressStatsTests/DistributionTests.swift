// Distributions against published tables and values computed independently with scipy 1.17.1
// (python3 on this machine; scipy uses Cephes/Boost, not this code).
import Testing
@testable import PressStats

@Suite("Distributions")
struct DistributionTests {
    @Test("Standard normal quantile: z(0.975) = 1.959963985 (every normal table)")
    func normalQuantile() {
        expectClose(StandardNormal.quantile(0.975), 1.959963985, tolerance: 5e-10)
        expectClose(StandardNormal.quantile(0.025), -1.959963985, tolerance: 5e-10)
        // scipy 1.17.1 norm.ppf(0.3) = −0.5244005127080409, norm.ppf(1e-10) = −6.361340902404056.
        expectRelativelyClose(StandardNormal.quantile(0.3), -0.5244005127080409, tolerance: 1e-13)
        expectRelativelyClose(StandardNormal.quantile(1e-10), -6.361340902404056, tolerance: 1e-13)
        #expect(StandardNormal.quantile(0.5) == 0)
        #expect(StandardNormal.quantile(0) == -.infinity)
        #expect(StandardNormal.quantile(1) == .infinity)
        #expect(StandardNormal.quantile(1.5).isNaN)
    }

    @Test("Standard normal CDF: Φ(1.96) ≈ 0.975, Φ(−8) = 6.22096057427174e−16 (scipy 1.17.1)")
    func normalCDF() {
        expectClose(StandardNormal.cdf(1.959963984540054), 0.975, tolerance: 1e-15)
        expectRelativelyClose(StandardNormal.cdf(-8), 6.22096057427174e-16, tolerance: 1e-12)
        expectRelativelyClose(StandardNormal.survival(8), 6.22096057427174e-16, tolerance: 1e-12)
        expectClose(StandardNormal.twoSidedPValue(-1.959963984540054), 0.05, tolerance: 1e-15)
    }

    /// For x > 0 the round trip goes through the upper tail, −Φ⁻¹(1 − Φ(x)) = x, because Φ(x) itself
    /// near 1 keeps only the absolute precision 10⁻¹⁶ (Φ(6) = 1 − 10⁻⁹ has ~7 significant digits left).
    @Test("Normal quantile inverts the CDF", arguments: [-7.5, -3.2, -1.0, -0.01, 0.4, 2.5, 6.0])
    func normalRoundTrip(x: Double) {
        let roundTrip = x <= 0 ? StandardNormal.quantile(StandardNormal.cdf(x)) : -StandardNormal.quantile(StandardNormal.survival(x))
        expectClose(roundTrip, x, tolerance: 1e-12 * max(1, abs(x)))
        // Through the lower CDF for positive x, the error is bounded by 10⁻¹⁶/φ(x).
        expectClose(StandardNormal.quantile(StandardNormal.cdf(x)), x, tolerance: 1e-13 + 4e-16 / StandardNormal.density(x))
    }

    @Test("Student's t quantile: t(0.975, 10) = 2.228139 (published t tables), t(0.975, 1) = 12.706205")
    func tQuantile() {
        expectClose(StudentT(degreesOfFreedom: 10).quantile(0.975), 2.228139, tolerance: 5e-7)
        expectClose(StudentT(degreesOfFreedom: 1).quantile(0.975), 12.706205, tolerance: 5e-7)
        // scipy 1.17.1: t.ppf(0.99, 2.5) = 5.353111173030872, t.ppf(0.999, 3) = 10.214531852407383,
        // t.ppf(1e-10, 5) = −156.82559270889433.
        expectRelativelyClose(StudentT(degreesOfFreedom: 2.5).quantile(0.99), 5.353111173030872, tolerance: 1e-11)
        expectRelativelyClose(StudentT(degreesOfFreedom: 3).quantile(0.999), 10.214531852407383, tolerance: 1e-11)
        expectRelativelyClose(StudentT(degreesOfFreedom: 5).quantile(1e-10), -156.82559270889433, tolerance: 1e-10)
        #expect(StudentT(degreesOfFreedom: 7).quantile(0.5) == 0)
        // Large ν, as Welch–Satterthwaite gives for big arms (scipy 1.17.1: t.ppf(0.975, 1e5) =
        // 1.9599877075346095, t.ppf(0.975, 1e6) = 1.959966356814107, t.sf(2.5, 1e6) = 0.006209744751081627).
        expectRelativelyClose(StudentT(degreesOfFreedom: 1e5).quantile(0.975), 1.9599877075346095, tolerance: 1e-11)
        expectRelativelyClose(StudentT(degreesOfFreedom: 1e6).quantile(0.975), 1.959966356814107, tolerance: 1e-11)
        expectRelativelyClose(StudentT(degreesOfFreedom: 1e6).survival(2.5), 0.006209744751081627, tolerance: 1e-10)
    }

    @Test("Student's t CDF (scipy 1.17.1: t.cdf(−3, 4), t.cdf(1.5, 7.3), t.sf(40, 3))")
    func tCDF() {
        expectRelativelyClose(StudentT(degreesOfFreedom: 4).cdf(-3), 0.019970984035859413, tolerance: 1e-12)
        expectRelativelyClose(StudentT(degreesOfFreedom: 7.3).cdf(1.5), 0.912218453598457, tolerance: 1e-12)
        expectRelativelyClose(StudentT(degreesOfFreedom: 3).survival(40), 1.7190340394579253e-05, tolerance: 1e-11)
        // Cauchy (ν = 1): P(T ≤ 1) = ¾ exactly.
        expectClose(StudentT(degreesOfFreedom: 1).cdf(1), 0.75, tolerance: 1e-15)
    }

    @Test("t quantile inverts the CDF", arguments: [(1.0, -20.0), (2.0, 0.3), (4.5, -2.0), (30.0, 3.7), (1e6, 1.2)])
    func tRoundTrip(df: Double, x: Double) {
        let t = StudentT(degreesOfFreedom: df)
        expectClose(t.quantile(t.cdf(x)), x, tolerance: 1e-8 * max(1, abs(x)))
    }

    @Test("χ² survival: x = 3.841459, df = 1 → 0.05 (χ² tables); scipy 1.17.1 for the rest")
    func chiSquared() {
        expectClose(ChiSquared(degreesOfFreedom: 1).survival(3.841459), 0.05, tolerance: 1e-7)
        expectRelativelyClose(ChiSquared(degreesOfFreedom: 3).cdf(5), 0.8282028557032665, tolerance: 1e-12)
        expectRelativelyClose(ChiSquared(degreesOfFreedom: 50).survival(100), 3.454931382984871e-05, tolerance: 1e-11)
        expectRelativelyClose(ChiSquared(degreesOfFreedom: 10).cdf(0.5), 6.611710561034244e-06, tolerance: 1e-11)
        // df = 2 is exponential: P(X > x) = e^(−x/2).
        expectRelativelyClose(ChiSquared(degreesOfFreedom: 2).survival(7), 0.0301973834223185, tolerance: 1e-13)
    }

    @Test("Binomial tails: P(X ≤ 3 | 15, ½) = 576/32768 by counting; P(X ≤ 480 | 1000, ½) from scipy 1.17.1")
    func binomial() {
        let small = Binomial(trials: 15, probability: 0.5)
        expectRelativelyClose(small.probability(ofAtMost: 3), 576.0 / 32768, tolerance: 1e-13)
        // C(15, 3) = 455.
        expectRelativelyClose(small.pmf(3), 455.0 / 32768, tolerance: 1e-12)
        let large = Binomial(trials: 1000, probability: 0.5)
        expectRelativelyClose(large.probability(ofAtMost: 480), 0.10872414660207075, tolerance: 1e-11)
        expectRelativelyClose(large.probability(ofAtLeast: 520), 0.10872414660207075, tolerance: 1e-11)
        #expect(large.probability(ofAtMost: -1) == 0)
        #expect(large.probability(ofAtLeast: 0) == 1)
        // The tails agree with summing the pmf.
        let b = Binomial(trials: 40, probability: 0.17)
        for k in [0, 3, 7, 15, 39] {
            let sum = (0...k).map(b.pmf).reduce(0, +)
            expectClose(b.probability(ofAtMost: k), sum, tolerance: 1e-13)
            expectClose(b.probability(ofAtLeast: k + 1), 1 - sum, tolerance: 1e-13)
        }
        // qbinom(0.025, 10, 0.5) = 2 and qbinom(0.975, 10, 0.5) = 8: P(X ≤ 1) = 11/1024 < 0.025 ≤
        // P(X ≤ 2) = 56/1024; P(X ≤ 7) = 968/1024 < 0.975 ≤ P(X ≤ 8) = 1013/1024.
        #expect(Binomial(trials: 10, probability: 0.5).quantile(0.025) == 2)
        #expect(Binomial(trials: 10, probability: 0.5).quantile(0.975) == 8)
    }

    @Test("Hypergeometric: the tea-tasting table's 3 of 4 right has probability 16/70 (Fisher 1935)")
    func hypergeometric() {
        let h = Hypergeometric(populationSize: 8, successesInPopulation: 4, draws: 4)
        // C(4,3)·C(4,1)/C(8,4) = 16/70.
        expectRelativelyClose(h.pmf(3), 16.0 / 70, tolerance: 1e-13)
        expectRelativelyClose(h.pmf(0), 1.0 / 70, tolerance: 1e-13)
        #expect(h.support == 0...4)
        let total = h.support.map(h.pmf).reduce(0, +)
        expectClose(total, 1, tolerance: 1e-14)
    }
}
