// CUPED for ratio metrics by user (`CUPEDRatioTest`): the adjusted difference, θ and the variance
// against an ordinary least squares fit computed in statsmodels, and an A/A simulation with a
// pre-period whose variance reduction is predicted by hand.
import Testing
import PressCore
@testable import PressStats

@Suite struct CUPEDTests {
    /// Per user: (sessions, sessions with the event, pre-period sessions, pre-period sessions with
    /// it); the fifth user of A and the fourth of B have no pre-period.
    static let a: [(x: Double, y: Double, xc: Double, yc: Double)] =
        [(10, 2, 8, 1), (4, 1, 5, 1), (7, 0, 6, 0), (12, 5, 10, 4), (3, 1, 0, 0), (9, 3, 7, 2)]
    static let b: [(x: Double, y: Double, xc: Double, yc: Double)] =
        [(6, 1, 9, 1), (11, 4, 12, 5), (5, 0, 4, 0), (8, 2, 0, 0), (14, 6, 11, 5), (2, 0, 3, 1), (9, 1, 8, 1)]

    // The reference: per arm, each user's delta-method pseudo-values R̂ + (Y − R̂X)/X̄ and
    // Ĉ + (Yc − ĈXc)/X̄c (a user without a pre-period gets Ĉ, the arm's mean); statsmodels 0.15.0
    // `OLS(y, add_constant(column_stack([arm, covariate]))).fit()` gives θ (the covariate's
    // coefficient) and the adjusted difference (the arm's); the variance is
    // Σ_arm Σ resid²/(n(n − 1)) of that fit's residuals, numpy 2.4 (script in docs/compare.md,
    // "CUPED"). Unadjusted: the delta method's SE of R̂_B − R̂_A, √0.0938494296994289².
    @Test func cupedMatchesOrdinaryLeastSquaresWithTheCovariate() throws {
        let t = try CUPEDRatioTest(control: CovariateRatioSummary(units: Self.a), treatment: CovariateRatioSummary(units: Self.b),
                                   inference: .fixedHorizon(alpha: 0.05))
        #expect(abs(t.theta - 0.8206227265811357) < 1e-12)
        #expect(abs(t.test.difference - -0.056741360375032815) < 1e-12)
        #expect(abs(t.test.standardError - 0.029893956636773928) < 1e-12)
        #expect(abs(t.unadjusted.difference - -0.012121212121212144) < 1e-12)
        #expect(abs(t.unadjusted.standardError - 0.09384942969942886) < 1e-12)
        #expect(abs(t.varianceReduction - 0.898537975258574) < 1e-10)
        #expect(abs(t.adjustedControl - 0.29193349760557713) < 1e-12)
        #expect(abs(t.adjustedTreatment - 0.23519213723054436) < 1e-12)
        // scipy.stats.norm.sf: 2·(1 − Φ(0.0567413…/0.0298939…)).
        #expect(abs(t.test.pValue - 0.05768449062341533) < 1e-10)
        #expect(CovariateRatioSummary(units: Self.a).unitsWithCovariate == 5)
    }

    // Without any pre-period the covariate is constant: θ = 0 and the test is the unadjusted one.
    @Test func withoutPrePeriodDataCupedChangesNothing() throws {
        let strip = { (u: [(x: Double, y: Double, xc: Double, yc: Double)]) in
            CovariateRatioSummary(units: u.map { (x: $0.x, y: $0.y, xc: 0.0, yc: 0.0) })
        }
        let t = try CUPEDRatioTest(control: strip(Self.a), treatment: strip(Self.b), inference: .fixedHorizon(alpha: 0.05))
        #expect(t.theta == 0)
        #expect(t.test.difference == t.unadjusted.difference)
        #expect(abs(t.test.standardError - 0.09384942969942886) < 1e-12)
        #expect(abs(t.varianceReduction) < 1e-12)
    }

    /// One simulated user-randomized A/A experiment with a pre-period: 300 users, each with a
    /// persistent cancel chance p ~ Beta(0.3, 2.7), 20 presses before and 20 during the
    /// experiment; a tenth of the users are new (no pre-period).
    static func experiment(seed: UInt64) throws -> CUPEDRatioTest {
        var arms = [CovariateRatioSummary.zero, .zero]
        for i in 0..<300 {
            var g = SplitMix64(seed: seed, index: UInt64(i), stream: 7)
            let arm = g.bernoulli(0.5) ? 1 : 0
            let p = g.beta(0.3, 2.7)
            let new = g.bernoulli(0.1)
            var before = 0.0, during = 0.0
            for _ in 0..<20 { if g.bernoulli(p) { before += 1 } }
            for _ in 0..<20 { if g.bernoulli(p) { during += 1 } }
            arms[arm].add(denominator: 20, numerator: during, covariateDenominator: new ? 0 : 20, covariateNumerator: new ? 0 : before)
        }
        return try CUPEDRatioTest(control: arms[0], treatment: arms[1], inference: .fixedHorizon(alpha: 0.05))
    }

    // A/A with CUPED: significant at α = 0.05 in the 99 % band of Binomial(200, 0.05), 3…19. The
    // variance reduction by hand: a user's rate over 20 presses has variance Var(p) + E[p(1 − p)]/20
    // = 0.0225 + 0.0675/20 = 0.025875 (Beta(0.3, 2.7): mean 0.1, variance 0.0225), and the
    // covariance of the two periods' rates is Var(p) = 0.0225, so ρ = 0.8696, ρ² = 0.7561; with
    // 90 % of users having a pre-period the reduction is 0.9·ρ² = 0.6805.
    @Test func aaWithCupedStaysInBandAndReducesTheVarianceAsPredicted() throws {
        var significant = 0, reduction = 0.0
        for seed in UInt64(1)...200 {
            let t = try Self.experiment(seed: seed)
            if t.test.pValue < 0.05 { significant += 1 }
            reduction += t.varianceReduction
        }
        #expect((3...19).contains(significant), "A/A with CUPED: \(significant) of 200 significant")
        #expect(abs(reduction / 200 - 0.6805) < 0.03, "mean variance reduction \(reduction / 200)")
    }
}
