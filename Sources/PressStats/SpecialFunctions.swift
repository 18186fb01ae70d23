// Special functions behind every distribution in PressStats: log-gamma, the regularized incomplete
// beta and gamma functions. No statistics library is used; the algorithms are the classic ones,
// cited beside each.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The special functions the distributions are built from.
public enum SpecialFunctions {
    /// Relative accuracy at which the series and continued fractions stop.
    public static let relativeTolerance = 1e-15
    /// Iteration cap for the series and continued fractions. Numerical Recipes notes the incomplete
    /// beta fraction needs O(√max(a, b)) terms, so the cap is generous enough for a ≈ 10⁸.
    public static let maximumIterations = 100_000
    /// Stand-in for zero in the modified Lentz algorithm (Numerical Recipes §5.2: "a tiny number").
    static let lentzTiny = 1e-300

    /// ln Γ(x) for x > 0, from libm's re-entrant `lgamma_r` (the tuple-returning `lgamma`).
    @inline(__always)
    public static func logGamma(_ x: Double) -> Double {
        let result: (Double, Int) = lgamma(x)
        return result.0
    }

    /// ln C(n, k), the log of the binomial coefficient, via log-gamma; −∞ outside 0 ≤ k ≤ n.
    public static func logChoose(_ n: Int, _ k: Int) -> Double {
        guard k >= 0, k <= n else { return -.infinity }
        if k == 0 || k == n { return 0 }
        return logGamma(Double(n) + 1) - logGamma(Double(k) + 1) - logGamma(Double(n - k) + 1)
    }

    /// Iₓ(a, b) and its complement 1 − Iₓ(a, b) = I₁₋ₓ(b, a), each accurate in relative terms when
    /// small. `oneMinusX` is passed separately so callers that know 1 − x exactly (Student's t:
    /// t²/(ν + t²)) avoid the cancellation of computing it.
    ///
    /// Continued fraction of Numerical Recipes (Press et al., 3rd ed., §6.4, eq. 6.4.5), evaluated
    /// by the modified Lentz method (§5.2); it converges quickly for x < (a + 1)/(a + b + 2), and the
    /// symmetry Iₓ(a, b) = 1 − I₁₋ₓ(b, a) is used on the other side.
    static func incompleteBetaPair(x: Double, oneMinusX y: Double, a: Double, b: Double)
        -> (lower: Double, upper: Double)
    {
        if x <= 0 { return (0, 1) }
        if y <= 0 { return (1, 0) }
        let logFront = logBetaFront(x: x, y: y, a: a, b: b)
        if x < (a + 1) / (a + b + 2) {
            let value = exp(logFront) * betaContinuedFraction(x: x, oneMinusX: y, a: a, b: b) / a
            return (value, 1 - value)
        } else {
            let value = exp(logFront) * betaContinuedFraction(x: y, oneMinusX: x, a: b, b: a) / b
            return (1 - value, value)
        }
    }

    /// δ(x) = ln Γ(x) − [(x − ½) ln x − x + ½ ln 2π], the remainder of Stirling's formula: its
    /// asymptotic series 1/(12x) − 1/(360x³) + 1/(1260x⁵) − 1/(1680x⁷) + 1/(1188x⁹) − 691/(360360x¹¹)
    /// (Abramowitz & Stegun 6.1.41) for x ≥ 15 (truncation error < 10⁻¹⁶), else from `lgamma`.
    static func stirlingRemainder(_ x: Double) -> Double {
        if x < 15 {
            return logGamma(x) - ((x - 0.5) * log(x) - x + 0.5 * log(2 * Double.pi))
        }
        let r = 1 / x, r2 = r * r
        return r * (1.0 / 12 - r2 * (1.0 / 360 - r2 * (1.0 / 1260 - r2 * (1.0 / 1680 - r2 * (1.0 / 1188 - r2 * 691.0 / 360360)))))
    }

    /// ln(xᵃ yᵇ / B(a, b)), y = 1 − x, without the cancellation of large log-gammas: with s = a + b
    /// and d = x s − a = b − y s (computed from whichever of x, y is the smaller, hence exact),
    ///   ln front = a ln(1 + d/a) + b ln(1 − d/b) + ½ ln(ab / (2π s)) − δ(a) − δ(b) + δ(s),
    /// which follows from Stirling's formula with remainder δ (the arrangement of Loader's saddle-point
    /// binomial density, "Fast and accurate computation of binomial probabilities", 2000). When a is
    /// 10⁸, ln Γ(a) ≈ 1.7 · 10⁹ and the direct difference of log-gammas would keep only ~7 digits.
    static func logBetaFront(x: Double, y: Double, a: Double, b: Double) -> Double {
        let s = a + b
        let d = x < y ? x * s - a : b - y * s
        let termA = abs(d) < 0.5 * a ? a * log1p(d / a) : a * log(x * s / a)
        let termB = abs(d) < 0.5 * b ? b * log1p(-d / b) : b * log(y * s / b)
        return termA + termB + 0.5 * log(a * b / (2 * Double.pi * s))
            - stirlingRemainder(a) - stirlingRemainder(b) + stirlingRemainder(s)
    }

    /// The continued fraction for Iₓ(a, b) (Numerical Recipes eq. 6.4.5): the coefficients are
    /// d₂ₘ₊₁ = −(a + m)(a + b + m)x / ((a + 2m)(a + 2m + 1)) and d₂ₘ = m(b − m)x / ((a + 2m − 1)(a + 2m)).
    /// The first term 1 − (a + b)x/(a + 1) is formed from 1 − x when x is near 1, where it is
    /// (1 − b + (a + b)(1 − x))/(a + 1) without cancellation.
    private static func betaContinuedFraction(x: Double, oneMinusX y: Double, a: Double, b: Double) -> Double {
        func guarded(_ v: Double) -> Double { abs(v) < lentzTiny ? lentzTiny : v }
        var c = 1.0
        let first = x > 0.5 ? (1 - b + (a + b) * y) / (a + 1) : 1 - (a + b) * x / (a + 1)
        var d = 1 / guarded(first)
        var h = d
        for m in 1...maximumIterations {
            let m = Double(m)
            let even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            d = 1 / guarded(1 + even * d)
            c = guarded(1 + even / c)
            h *= d * c
            let odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            d = 1 / guarded(1 + odd * d)
            c = guarded(1 + odd / c)
            let delta = d * c
            h *= delta
            if abs(delta - 1) < relativeTolerance { break }
        }
        return h
    }

    /// The regularized lower and upper incomplete gamma functions P(a, x) = γ(a, x)/Γ(a) and
    /// Q(a, x) = 1 − P(a, x), for a > 0 and x ≥ 0, each accurate in relative terms when small.
    ///
    /// Numerical Recipes (3rd ed., §6.2): the series γ(a, x) = e⁻ˣ xᵃ Σ xⁿ / (a(a+1)…(a+n)) for
    /// x < a + 1, else the continued fraction for Γ(a, x) (eq. 6.2.7) by modified Lentz.
    public static func regularizedIncompleteGamma(a: Double, x: Double) -> (lower: Double, upper: Double) {
        if x <= 0 { return (0, 1) }
        if x.isInfinite { return (1, 0) }
        let logFront = -x + a * log(x) - logGamma(a)
        if x < a + 1 {
            var term = 1 / a
            var sum = term
            var ap = a
            for _ in 0..<maximumIterations {
                ap += 1
                term *= x / ap
                sum += term
                if abs(term) < abs(sum) * relativeTolerance { break }
            }
            let p = sum * exp(logFront)
            return (p, 1 - p)
        } else {
            func guarded(_ v: Double) -> Double { abs(v) < lentzTiny ? lentzTiny : v }
            var b = x + 1 - a
            var c = 1 / lentzTiny
            var d = 1 / b
            var h = d
            for i in 1...maximumIterations {
                let an = -Double(i) * (Double(i) - a)
                b += 2
                d = 1 / guarded(an * d + b)
                c = guarded(b + an / c)
                let delta = d * c
                h *= delta
                if abs(delta - 1) < relativeTolerance { break }
            }
            let q = exp(logFront) * h
            return (1 - q, q)
        }
    }
}
