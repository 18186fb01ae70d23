// The seeded pseudo-random generator behind `pressdb generate`: SplitMix64, small, fast and
// deterministic, so a seed always gives the same log.
#if canImport(Glibc)
import Glibc
#endif

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA
/// 2014; the 64-bit form Vigna publishes beside xoshiro at prng.di.unimi.it): the state advances by
/// the golden-ratio increment `gamma` and each output is the state passed through `mix`.
///
/// Published test vector (Rosetta Code, "Pseudo-random numbers/Splitmix64"): seeded 1234567 the
/// first outputs are 6457827717110365317, 3203168211198807973, 9817491932198370423, ….
/// Not cryptographic. Usable as Swift's `RandomNumberGenerator`, but pressdb draws through its own
/// methods below (whose algorithms are fixed here), never through the standard library's
/// `random(in:using:)`, whose algorithm may change between Swift releases.
public struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
    /// The state increment: 2⁶⁴ / φ, rounded to odd (0x9E3779B97F4A7C15).
    public static let gamma: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The generator's whole state (setting it restarts the sequence from there).
    public var state: UInt64

    /// A generator whose first output is `mix(seed + gamma)`.
    public init(seed: UInt64) { state = seed }

    /// An independent generator for one purpose (`stream`) of one item (`index`, e.g. a session)
    /// under `seed`: the state is `mix(seed + mix(index·gamma + mix(stream + 1)))`. Distinct
    /// (index, stream) pairs give unrelated sequences, so what is drawn for one session or one
    /// purpose never shifts what is drawn for another.
    public init(seed: UInt64, index: UInt64, stream: UInt64) {
        state = Self.mix(seed &+ Self.mix(index &* Self.gamma &+ Self.mix(stream &+ 1)))
    }

    /// SplitMix64's output function: xor-shift-multiply by 0xBF58476D1CE4E5B9 (shift 30) and
    /// 0x94D049BB133111EB (shift 27), then xor-shift 31 (Stafford's "Mix13" variant).
    @inlinable
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The next 64 random bits.
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= Self.gamma
        return Self.mix(state)
    }
}

// MARK: - Distributions

extension SplitMix64 {
    /// Uniform in [0, 1): the top 53 bits of `next()` times 2⁻⁵³ (every value a multiple of 2⁻⁵³).
    @inlinable
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Uniform in [`range.lowerBound`, `range.upperBound`).
    @inlinable
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * nextUnit()
    }

    /// Log-uniform in [`range.lowerBound`, `range.upperBound`) (both > 0): its logarithm is uniform,
    /// so every factor of 2 inside the range is equally likely.
    public mutating func logUniform(_ range: ClosedRange<Double>) -> Double {
        exp(log(range.lowerBound) + (log(range.upperBound) - log(range.lowerBound)) * nextUnit())
    }

    /// A uniform integer in 0..<`bound` (`bound` > 0) by Lemire's multiply-shift: the high word of
    /// `next() × bound`. Its bias, at most `bound` / 2⁶⁴, is negligible for pressdb's small bounds.
    @inlinable
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "below(_:) needs a positive bound")
        return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A uniform integer in `range`.
    @inlinable
    public mutating func integer(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True with probability `p`.
    @inlinable
    public mutating func bernoulli(_ p: Double) -> Bool { nextUnit() < p }

    /// A standard normal deviate by the Box–Muller transform (Box and Muller, 1958):
    /// √(−2 ln u₁) · cos(2π u₂), with u₁ in (0, 1]. Uses two outputs per deviate.
    public mutating func normal() -> Double {
        let u1 = 1 - nextUnit()
        let u2 = nextUnit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// A log-normal deviate with the given median and σ of its logarithm: median · e^(σ·Z).
    /// Its mean is median · e^(σ²/2).
    public mutating func logNormal(median: Double, sigma: Double) -> Double {
        median * exp(sigma * normal())
    }

    /// An exponential deviate with the given mean, by inversion: −mean · ln(1 − u).
    public mutating func exponential(mean: Double) -> Double {
        -mean * log(1 - nextUnit())
    }

    /// An index drawn with probability proportional to `weights[i]` (non-negative, not all zero):
    /// the first index whose running sum exceeds u · total.
    public mutating func index(weights: [Double]) -> Int {
        var total = 0.0
        for w in weights { total += w }
        let target = nextUnit() * total
        var sum = 0.0
        for (i, w) in weights.enumerated() {
            sum += w
            if target < sum { return i }
        }
        return weights.lastIndex(where: { $0 > 0 }) ?? 0
    }
}
