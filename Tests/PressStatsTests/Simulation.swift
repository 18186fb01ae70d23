// Simulated experiments with users as the randomization unit, for the calibration tests: each
// user keeps their variant, their own chance of cancelling a press (Beta-distributed across users)
// and their own latency shift, and latencies are quantized to 60 Hz frames. Randomness is
// PressCore's SplitMix64, one stream per seed and user.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PressCore
@testable import PressStats

extension SplitMix64 {
    /// Gamma(shape, 1) by Marsaglia & Tsang, "A simple method for generating gamma variables",
    /// ACM TOMS 26:363–372 (2000); for shape < 1, Gamma(shape + 1)·U^(1/shape) (their §6).
    mutating func gamma(_ shape: Double) -> Double {
        if shape < 1 { return gamma(shape + 1) * pow(1 - nextUnit(), 1 / shape) }
        let d = shape - 1.0 / 3, c = 1 / (9 * d).squareRoot()
        while true {
            var x: Double, v: Double
            repeat { x = normal(); v = 1 + c * x } while v <= 0
            v = v * v * v
            let u = 1 - nextUnit()
            if log(u) < 0.5 * x * x + d - d * v + d * log(v) { return d * v }
        }
    }

    /// Beta(a, b) as G_a/(G_a + G_b) of two gamma variables.
    mutating func beta(_ a: Double, _ b: Double) -> Double {
        let x = gamma(a), y = gamma(b)
        return x / (x + y)
    }
}

/// The design of the user-randomized A/A experiment, with knobs for effects.
struct ClusteredDesign {
    var users = 300
    var pressesPerUser = 20
    /// Beta(a, b) of each user's persistent chance of cancelling a press: mean a/(a + b) = 0.1 and
    /// intra-user correlation 1/(a + b + 1) = 0.25, so a user's 20 presses carry about as much
    /// information as 20/(1 + 19·0.25) ≈ 3.5 independent ones.
    var cancelShape = (0.3, 2.7)
    /// Feedback latency: a log-normal press-to-press spread around `latencyMedian` (ms) with σ of
    /// its logarithm `latencySigma`, plus a user's persistent shift N(0, `userShift`²) (ms),
    /// rounded up to whole frames of `frame` ms (nil: not quantized).
    var latencyMedian = 60.0
    var latencySigma = 0.35
    var userShift = 15.0
    var frame: Double? = 1000.0 / 60
    /// Effects of B (the treatment): added to a B user's cancel chance, and to B latencies (ms).
    var cancelEffect = 0.0
    var latencyEffect = 0.0

    func quantize(_ ms: Double) -> Double {
        guard let frame else { return max(0.5, ms) }
        return max(1, (ms / frame).rounded(.up)) * frame
    }

    /// One simulated user: variant (true = B) and sessions.
    func user(seed: UInt64, index: Int) -> (isB: Bool, sessions: UserSessions) {
        var g = SplitMix64(seed: seed, index: UInt64(index), stream: 1)
        let isB = g.bernoulli(0.5)
        let p = min(1, g.beta(cancelShape.0, cancelShape.1) + (isB ? cancelEffect : 0))
        let shift = userShift * g.normal() + (isB ? latencyEffect : 0)
        var cancels = 0, latencies: [Double] = []
        for _ in 0..<pressesPerUser {
            if g.bernoulli(p) { cancels += 1 }
            latencies.append(quantize(g.logNormal(median: latencyMedian, sigma: latencySigma) + shift))
        }
        return (isB, UserSessions(sessions: pressesPerUser, events: [.cancel: cancels, .tap: pressesPerUser - cancels],
                                  feedbackLatencies: latencies, actionLatencies: []))
    }

    /// An observed experiment: each arm's users (`range` of the user indices, all by default).
    func observedUsers(seed: UInt64, users range: Range<Int>? = nil) -> (a: [UserSessions], b: [UserSessions]) {
        var a: [UserSessions] = [], b: [UserSessions] = []
        for i in range ?? 0..<users {
            let u = user(seed: seed, index: i)
            if u.isB { b.append(u.sessions) } else { a.append(u.sessions) }
        }
        return (a, b)
    }

    /// An observed experiment's two arms by user.
    func observed(seed: UInt64, users range: Range<Int>? = nil) throws -> (a: UserArm, b: UserArm) {
        let (a, b) = observedUsers(seed: seed, users: range)
        return (try UserArm(name: "A", users: a), try UserArm(name: "B", users: b))
    }

    /// The same users' sessions analysed as if each were independent (today's `compare`).
    static func sessionArm(_ name: String, _ users: [UserSessions]) -> ObservedArm {
        let sessions = users.reduce(0) { $0 + $1.sessions }
        let count = { (e: SessionEvent) in users.reduce(0) { $0 + ($1.events[e] ?? 0) } }
        return ObservedArm(name: name,
                           events: ArmEventCounts(sessions: sessions, taps: count(.tap), cancels: count(.cancel), scrollAborts: 0,
                                                  falseActions: 0, unseenPresses: 0),
                           feedbackLatency: LatencySample(values: users.flatMap(\.feedbackLatencies)),
                           actionLatency: LatencySample(values: []))
    }

    /// A paired A/A experiment: every user's presses replayed under two configurations that are
    /// exchangeable overall but not for each user. A press keeps one outcome and one latency
    /// under both with probability `shared`; otherwise each configuration draws the press anew
    /// from that user's own rate and shift for it (drawn once per user and configuration from the
    /// same distributions). So B − A has mean 0 over users but a user-specific sign and size.
    func paired(seed: UInt64, shared: Double = 0.6) throws -> (users: PairedUserArms, sessions: PairedArms) {
        var all: [UserPairs] = []
        var table = PairedCounts(both: 0, controlOnly: 0, treatmentOnly: 0, neither: 0)
        var control: [Double] = [], treatment: [Double] = []
        for i in 0..<users {
            var g = SplitMix64(seed: seed, index: UInt64(i), stream: 2)
            let p = g.beta(cancelShape.0, cancelShape.1)
            let pa = g.beta(cancelShape.0, cancelShape.1), pb = g.beta(cancelShape.0, cancelShape.1)
            let shift = userShift * g.normal(), sa = 0.5 * userShift * g.normal(), sb = 0.5 * userShift * g.normal()
            var t = PairedCounts(both: 0, controlOnly: 0, treatmentOnly: 0, neither: 0)
            var la: [Double] = [], lb: [Double] = []
            for _ in 0..<pressesPerUser {
                let common = g.bernoulli(p), base = g.logNormal(median: latencyMedian, sigma: latencySigma) + shift
                let ca = g.bernoulli(shared) ? common : g.bernoulli(pa)
                let cb = g.bernoulli(shared) ? common : g.bernoulli(pb)
                switch (ca, cb) {
                case (true, true): t.both += 1
                case (true, false): t.controlOnly += 1
                case (false, true): t.treatmentOnly += 1
                case (false, false): t.neither += 1
                }
                la.append(quantize(g.bernoulli(shared) ? base : base + sa + 8 * g.normal()))
                lb.append(quantize(g.bernoulli(shared) ? base : base + sb + 8 * g.normal()))
            }
            table.both += t.both; table.controlOnly += t.controlOnly; table.treatmentOnly += t.treatmentOnly; table.neither += t.neither
            control += la; treatment += lb
            all.append(UserPairs(pairs: pressesPerUser, events: [.cancel: t],
                                 feedbackLatency: PairedLatencies(control: la, treatment: lb),
                                 actionLatency: PairedLatencies(control: [], treatment: [])))
        }
        let sessions = PairedArms(controlName: "A", treatmentName: "B", pairs: users * pressesPerUser, events: [.cancel: table],
                                  feedbackLatency: PairedLatencies(control: control, treatment: treatment),
                                  actionLatency: PairedLatencies(control: [], treatment: []))
        return (try PairedUserArms(controlName: "A", treatmentName: "B", users: all), sessions)
    }
}

/// Counts how often `significant` holds over `seeds`.
func rejections(_ seeds: Range<UInt64>, _ significant: (UInt64) throws -> Bool) rethrows -> Int {
    var n = 0
    for s in seeds where try significant(s) { n += 1 }
    return n
}
