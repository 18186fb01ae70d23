// Main-thread stalls sampled into a replay (docs/press-model.md §8): hitches and hangs as MetricKit
// reports them, turned into frames the app does not commit. Seeded, so a replay repeats exactly.

/// One bucket of a hang histogram: hangs lasting `lowerMs` up to `upperMs`, `perHour` of them
/// per hour of foreground time (`MXAppResponsivenessMetric.histogrammedApplicationHangTime`).
public struct HangBucket: Hashable, Sendable {
    public var lowerMs: Double
    public var upperMs: Double
    public var perHour: Double
    public init(lowerMs: Double, upperMs: Double, perHour: Double) {
        self.lowerMs = lowerMs; self.upperMs = upperMs; self.perHour = perHour
    }
}

/// How often the main thread stalls: a hitch-time ratio (ms late per s, MetricKit's
/// `HitchTimeRatio`) of one-frame hitches, plus hangs from a histogram, and the seed they are
/// drawn with (docs/press-model.md §8).
public struct StallProfile: Hashable, Sendable {
    /// Milliseconds of hitch time per second, 0 ≤ ratio < 1000.
    public var hitchRatio: Double
    public var hangs: [HangBucket]
    public var seed: UInt64
    /// The seed of `--stalls` when `--seed` is not given.
    public static let defaultSeed: UInt64 = 1
    /// The `SplitMix64` stream of stall draws (streams 0–9 are `pressdb generate`'s).
    static let stream: UInt64 = 38

    public init(hitchRatio: Double, hangs: [HangBucket] = [], seed: UInt64 = StallProfile.defaultSeed) {
        self.hitchRatio = hitchRatio; self.hangs = hangs; self.seed = seed
    }

    /// What is wrong with the profile, nil when nothing: a ratio outside [0, 1000) or a bucket
    /// whose bounds or rate are not finite, negative or in the wrong order.
    public var problem: String? {
        if !(hitchRatio >= 0 && hitchRatio < 1000) { return "the hitch-time ratio must be at least 0 and below 1000 ms/s" }
        for b in hangs where !(b.lowerMs >= 0 && b.upperMs > b.lowerMs && b.upperMs.isFinite && b.perHour >= 0 && b.perHour.isFinite) {
            return "a hang bucket needs 0 ≤ lower < upper (finite, ms) and a finite count per hour ≥ 0"
        }
        return nil
    }

    /// The stalls of session `index` on a grid of `refreshRate` Hz.
    public func sampler(index: UInt64, refreshRate: Double) -> StallSampler {
        StallSampler(profile: self, index: index, refreshRate: refreshRate)
    }
}

/// Draws, frame by frame from touch-down (k = 1, 2, …), whether the app commits that frame.
/// Each frame starts a one-frame hitch with probability ratio / 1000 (a hitch of one frame is
/// one frame period late, so the expected late time per second is the ratio on any grid), and a
/// hang of bucket b with probability perHour / 3600 / refreshRate; a hang's duration is uniform
/// in its bucket, rounded up to whole frames, all of them uncommitted.
public struct StallSampler: Sendable {
    var random: SplitMix64
    let hitchProbability: Double
    let hangProbabilities: [Double]
    let hangs: [HangBucket]
    let refreshRate: Double
    /// Frames still stalled after the current one.
    var remaining = 0
    /// A fixed set of stalled frames instead of draws (`init(stalledFrames:)`), and the frame
    /// drawn last.
    let scripted: Set<Int>?
    var frame = 0

    /// Exactly the frames `stalledFrames` (k ≥ 1 from touch-down) stalled: a timeline worked by
    /// hand.
    public init(stalledFrames: Set<Int>) {
        random = SplitMix64(seed: 0); hitchProbability = 0; hangProbabilities = []; hangs = []; refreshRate = 1
        scripted = stalledFrames
    }

    init(profile: StallProfile, index: UInt64, refreshRate: Double) {
        random = SplitMix64(seed: profile.seed, index: index, stream: StallProfile.stream)
        hitchProbability = profile.hitchRatio / 1000
        hangs = profile.hangs
        hangProbabilities = profile.hangs.map { $0.perHour / 3600 / refreshRate }
        self.refreshRate = refreshRate
        scripted = nil
    }

    /// Whether the next frame is stalled (not committed: the screen keeps the last frame).
    public mutating func nextFrameStalled() -> Bool {
        if let scripted { frame += 1; return scripted.contains(frame) }
        if remaining > 0 { remaining -= 1; return true }
        for (i, p) in hangProbabilities.enumerated() where p > 0 && random.nextUnit() < p {
            let ms = random.uniform(hangs[i].lowerMs...hangs[i].upperMs)
            remaining = max(1, Int((ms * refreshRate / 1000).rounded(.up))) - 1
            return true
        }
        return hitchProbability > 0 && random.nextUnit() < hitchProbability
    }
}

/// What a stall did to a press's feedback: compared with the same replay without stalls.
public enum StallEffect: String, Hashable, Sendable, CaseIterable {
    /// The feedback appeared on the same frame (or the press was unseen either way).
    case none
    /// Seen either way, later with stalls.
    case delayed
    /// Seen without stalls, unseen with them.
    case hidden

    public init(baseline: SessionResult, stalled: SessionResult) {
        switch (baseline.feedbackLatencyMs, stalled.feedbackLatencyMs) {
        case let (b?, s?): self = s > b ? .delayed : .none
        case (_?, nil): self = .hidden
        default: self = .none
        }
    }
}
