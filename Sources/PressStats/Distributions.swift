// Probability distributions: the standard normal, Student's t, χ², binomial and hypergeometric.
// Each is a small value type (or a namespace for the standard normal) with its CDF, survival
// function and, where a test needs it, its quantile.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Standard normal

/// The standard normal distribution N(0, 1).
public enum StandardNormal {
    /// Density φ(z) = e^(−z²/2) / √(2π).
    public static func density(_ z: Double) -> Double {
        exp(-0.5 * z * z) / (2 * Double.pi).squareRoot()
    }

    /// Φ(z) = P(Z ≤ z) = ½ erfc(−z/√2), from libm's `erfc` (accurate in the lower tail).
    public static func cdf(_ z: Double) -> Double {
        0.5 * erfc(-z / 2.0.squareRoot())
    }

    /// 1 − Φ(z) = P(Z > z) = ½ erfc(z/√2), accurate in the upper tail.
    public static func survival(_ z: Double) -> Double {
        0.5 * erfc(z / 2.0.squareRoot())
    }

    /// Two-sided p-value of a z statistic: P(|Z| ≥ |z|) = erfc(|z|/√2).
    public static func twoSidedPValue(_ z: Double) -> Double {
        z.isNaN ? .nan : min(1, erfc(abs(z) / 2.0.squareRoot()))
    }

    /// Φ⁻¹(p), the quantile: −∞ at p = 0, +∞ at p = 1, NaN outside [0, 1].
    ///
    /// Peter J. Acklam's rational approximation ("An algorithm for computing the inverse normal
    /// cumulative distribution function", 2003; relative error < 1.15 × 10⁻⁹), refined by one step
    /// of Halley's method on Φ(z) − p with libm's `erfc`, which brings it to full double precision.
    /// The upper half is computed by symmetry, Φ⁻¹(p) = −Φ⁻¹(1 − p), where 1 − p is exact.
    public static func quantile(_ p: Double) -> Double {
        guard p >= 0, p <= 1 else { return .nan }
        if p == 0 { return -.infinity }
        if p == 1 { return .infinity }
        if p > 0.5 { return -quantile(1 - p) }
        var z = acklam(p)
        // Halley's step: e = Φ(z) − p, u = e / φ(z), z ← z − u / (1 + z u / 2).
        let e = cdf(z) - p
        let u = e * (2 * Double.pi).squareRoot() * exp(0.5 * z * z)
        z -= u / (1 + 0.5 * z * u)
        return z
    }

    /// Acklam's coefficients: numerator a, denominator b of the central region; c, d of the tails.
    private static let a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                            1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00]
    private static let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                            6.680131188771972e+01, -1.328068155288572e+01]
    private static let c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                            -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00]
    private static let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                            3.754408661907416e+00]
    /// Boundary between Acklam's lower-tail and central regions.
    private static let acklamLowerRegion = 0.02425

    /// Acklam's approximation for 0 < p ≤ ½.
    private static func acklam(_ p: Double) -> Double {
        if p < acklamLowerRegion {
            let q = (-2 * log(p)).squareRoot()
            return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        let q = p - 0.5
        let r = q * q
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
            / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    }
}

// MARK: - Student's t

/// Student's t distribution with ν degrees of freedom (ν > 0, not necessarily an integer, as
/// Welch–Satterthwaite produces).
public struct StudentT: Sendable, Hashable {
    /// ν, the degrees of freedom.
    public var degreesOfFreedom: Double

    public init(degreesOfFreedom: Double) {
        self.degreesOfFreedom = degreesOfFreedom
    }

    /// Above this ν the t distribution is replaced by the standard normal. The quantile of t differs
    /// from the normal one by about (z³ + z)/(4ν) (Cornish–Fisher), 2.4 · 10⁻⁹ at z = 1.96 and
    /// ν = 10⁹, which is where the incomplete beta fraction's own rounding error (it needs O(√ν)
    /// terms) grows to the same size. Below ν ≈ 10⁶ the CDF and quantile keep ~12 significant digits.
    public static let normalLimit = 1e9

    /// Density f(t) = Γ((ν+1)/2) / (√(νπ) Γ(ν/2)) · (1 + t²/ν)^(−(ν+1)/2).
    public func density(_ t: Double) -> Double {
        let nu = degreesOfFreedom
        if nu > Self.normalLimit { return StandardNormal.density(t) }
        let logDensity = SpecialFunctions.logGamma((nu + 1) / 2) - SpecialFunctions.logGamma(nu / 2)
            - 0.5 * log(nu * Double.pi) - (nu + 1) / 2 * log1p(t * t / nu)
        return exp(logDensity)
    }

    /// P(T > |t|), the one-sided tail beyond |t|: ½ I_{ν/(ν+t²)}(ν/2, ½) (Abramowitz & Stegun
    /// 26.7.1 with 26.5.27 relating the t CDF to the incomplete beta function).
    func tail(_ t: Double) -> Double {
        let nu = degreesOfFreedom
        if nu > Self.normalLimit { return StandardNormal.survival(abs(t)) }
        if t.isInfinite { return 0 }
        let t2 = t * t
        let x = nu / (nu + t2)
        let y = t2 / (nu + t2)
        return 0.5 * SpecialFunctions.incompleteBetaPair(x: x, oneMinusX: y, a: nu / 2, b: 0.5).lower
    }

    /// P(T ≤ t).
    public func cdf(_ t: Double) -> Double {
        if t.isNaN { return .nan }
        return t < 0 ? tail(t) : 1 - tail(t)
    }

    /// P(T > t), accurate in the upper tail.
    public func survival(_ t: Double) -> Double {
        if t.isNaN { return .nan }
        return t > 0 ? tail(t) : 1 - tail(t)
    }

    /// Two-sided p-value P(|T| ≥ |t|).
    public func twoSidedPValue(_ t: Double) -> Double {
        t.isNaN ? .nan : min(1, 2 * tail(t))
    }

    /// The quantile t with P(T ≤ t) = p: ±∞ at p = 0 and 1, NaN outside [0, 1].
    ///
    /// Solved on the upper tail by Newton's method on P(T > t) − q with the density as derivative,
    /// safeguarded by bisection inside a bracket that always contains the root; started from the
    /// normal quantile. Converges to a relative 10⁻¹⁴.
    public func quantile(_ p: Double) -> Double {
        guard p >= 0, p <= 1, degreesOfFreedom > 0 else { return .nan }
        if p == 0 { return -.infinity }
        if p == 1 { return .infinity }
        if p == 0.5 { return 0 }
        if p < 0.5 { return -upperQuantile(p) }
        return upperQuantile(1 - p)
    }

    /// The t > 0 with P(T > t) = q, for 0 < q < ½.
    private func upperQuantile(_ q: Double) -> Double {
        if degreesOfFreedom > Self.normalLimit { return -StandardNormal.quantile(q) }
        var low = 0.0
        var high = max(1, -2 * StandardNormal.quantile(q))
        while tail(high) > q, high < .greatestFiniteMagnitude / 4 { low = high; high *= 2 }
        var t = min(max(-StandardNormal.quantile(q), low), high)
        if t <= low || t >= high { t = 0.5 * (low + high) }
        for _ in 0..<200 {
            let excess = tail(t) - q            // decreasing in t
            if excess == 0 { return t }
            if excess > 0 { low = t } else { high = t }
            var next = t + excess / density(t)  // Newton: d tail / dt = −density
            if !(next > low && next < high) { next = 0.5 * (low + high) }
            if abs(next - t) <= 1e-14 * abs(next) { return next }
            t = next
        }
        return t
    }
}

// MARK: - χ²

/// The χ² distribution with k degrees of freedom.
public struct ChiSquared: Sendable, Hashable {
    /// k, the degrees of freedom (k > 0).
    public var degreesOfFreedom: Double

    public init(degreesOfFreedom: Double) {
        self.degreesOfFreedom = degreesOfFreedom
    }

    /// P(X ≤ x) = P(k/2, x/2), the regularized lower incomplete gamma function.
    public func cdf(_ x: Double) -> Double {
        if x.isNaN { return .nan }
        return SpecialFunctions.regularizedIncompleteGamma(a: degreesOfFreedom / 2, x: x / 2).lower
    }

    /// P(X > x) = Q(k/2, x/2), accurate in the upper tail (the p-value of a χ² statistic).
    public func survival(_ x: Double) -> Double {
        if x.isNaN { return .nan }
        return SpecialFunctions.regularizedIncompleteGamma(a: degreesOfFreedom / 2, x: x / 2).upper
    }
}

// MARK: - Binomial

/// The binomial distribution: the number of successes in n independent trials of probability p.
public struct Binomial: Sendable, Hashable {
    /// n, the number of trials.
    public var trials: Int
    /// p, the probability of success per trial.
    public var probability: Double

    public init(trials: Int, probability: Double) {
        self.trials = trials
        self.probability = probability
    }

    /// P(X = k) = C(n, k) pᵏ (1 − p)ⁿ⁻ᵏ, in logs via log-gamma.
    public func pmf(_ k: Int) -> Double {
        guard k >= 0, k <= trials else { return 0 }
        if probability == 0 { return k == 0 ? 1 : 0 }
        if probability == 1 { return k == trials ? 1 : 0 }
        return exp(SpecialFunctions.logChoose(trials, k) + Double(k) * log(probability)
            + Double(trials - k) * log1p(-probability))
    }

    /// P(X ≤ k) = 1 − I_p(k + 1, n − k) (Abramowitz & Stegun 26.5.24).
    public func probability(ofAtMost k: Int) -> Double {
        if k < 0 { return 0 }
        if k >= trials { return 1 }
        if probability <= 0 { return 1 }
        if probability >= 1 { return 0 }
        return SpecialFunctions.incompleteBetaPair(
            x: probability, oneMinusX: 1 - probability, a: Double(k + 1), b: Double(trials - k)).upper
    }

    /// P(X ≥ k) = I_p(k, n − k + 1).
    public func probability(ofAtLeast k: Int) -> Double {
        if k <= 0 { return 1 }
        if k > trials { return 0 }
        if probability <= 0 { return 0 }
        if probability >= 1 { return 1 }
        return SpecialFunctions.incompleteBetaPair(
            x: probability, oneMinusX: 1 - probability, a: Double(k), b: Double(trials - k + 1)).lower
    }

    /// The smallest k with P(X ≤ k) ≥ q (R's `qbinom`), for 0 ≤ q ≤ 1.
    public func quantile(_ q: Double) -> Int {
        if q <= 0 { return 0 }
        if q >= 1 { return trials }
        // Start from the normal approximation, then step to the exact answer.
        let n = Double(trials), p = probability
        let guess = n * p + StandardNormal.quantile(q) * (n * p * (1 - p)).squareRoot()
        var k = min(max(Int(guess.rounded(.down)), 0), trials)
        while k > 0, probability(ofAtMost: k - 1) >= q { k -= 1 }
        while k < trials, probability(ofAtMost: k) < q { k += 1 }
        return k
    }
}

// MARK: - Hypergeometric

/// The hypergeometric distribution: successes among n draws without replacement from a population
/// of N containing K successes.
public struct Hypergeometric: Sendable, Hashable {
    /// N, the population size.
    public var populationSize: Int
    /// K, the successes in the population.
    public var successesInPopulation: Int
    /// n, the number of draws.
    public var draws: Int

    public init(populationSize: Int, successesInPopulation: Int, draws: Int) {
        self.populationSize = populationSize
        self.successesInPopulation = successesInPopulation
        self.draws = draws
    }

    /// The possible values of k: max(0, n + K − N) … min(n, K).
    public var support: ClosedRange<Int> {
        max(0, draws + successesInPopulation - populationSize)...min(draws, successesInPopulation)
    }

    /// ln P(X = k) = ln C(K, k) + ln C(N − K, n − k) − ln C(N, n).
    public func logPMF(_ k: Int) -> Double {
        guard support.contains(k) else { return -.infinity }
        return SpecialFunctions.logChoose(successesInPopulation, k)
            + SpecialFunctions.logChoose(populationSize - successesInPopulation, draws - k)
            - SpecialFunctions.logChoose(populationSize, draws)
    }

    /// P(X = k).
    public func pmf(_ k: Int) -> Double { exp(logPMF(k)) }
}
