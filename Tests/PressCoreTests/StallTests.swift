import Testing
@testable import PressCore

/// A stationary touch at (100, 100): began at 0, stationary samples every 1/60 s, ended at `lift`.
private func stationaryTap(lift: Double) -> [TouchSample] {
    var s = [TouchSample(t: 0, x: 100, y: 100, phase: .began)]
    var t = 1.0 / 60
    while t < lift - 1e-9 { s.append(TouchSample(t: t, x: 100, y: 100, phase: .stationary)); t += 1.0 / 60 }
    s.append(TouchSample(t: lift, x: 100, y: 100, phase: .ended))
    return s
}

private func stalledReplay(_ frames: Set<Int>, lift: Double = 0.1)
    throws -> (baseline: SessionResult, stalled: SessionResult) {
    var sampler = StallSampler(stalledFrames: frames)
    return try Replay.session(stationaryTap(lift: lift), attributes: SessionAttributes(), configuration: .springPress,
                              display: Display(), stalls: &sampler)
}

@Suite struct StallTests {
    // Hand-worked: a 100 ms spring-press tap is first seen on frame 2 at 60 Hz (33.33 ms; the
    // spring crosses the one-pixel threshold at about 27 ms, ReplayTests). Frames 2 and 3
    // stalled: the next committed frame is 4, 66.67 ms — two frames later — and the spring is
    // still pressing then. Photon latency by hand (docs/press-model.md §6): half a 120 Hz scan
    // 4.1667 + half a 60 Hz frame 8.3333 + 66.6667 + one pipeline frame 16.6667 = 95.8333 ms.
    @Test func aStallOverTheFirstVisibleFrameDelaysFeedbackByItsFrames() throws {
        let r = try stalledReplay([2, 3])
        #expect(abs(try #require(r.baseline.feedbackLatencyMs) - 2000.0 / 60) < 1e-6)
        #expect(abs(try #require(r.stalled.feedbackLatencyMs) - 4000.0 / 60) < 1e-6)
        #expect(abs(try #require(r.stalled.feedbackPhotonMs) - 95.833333) < 1e-6)
        #expect(StallEffect(baseline: r.baseline, stalled: r.stalled) == .delayed)
        // The outcome and the action do not depend on frames.
        #expect(r.stalled.outcome == .tap && r.stalled.actionLatencyMs == r.baseline.actionLatencyMs)
    }

    // A stall on frames that show nothing new (frame 1, before the threshold) changes nothing.
    @Test func aStallBeforeTheFirstVisibleFrameChangesNothing() throws {
        let r = try stalledReplay([1])
        #expect(r.stalled.feedbackLatencyMs == r.baseline.feedbackLatencyMs)
        #expect(StallEffect(baseline: r.baseline, stalled: r.stalled) == .none)
    }

    // The release comes first: lifted at 100 ms, the release spring (UIView duration 0.4 s)
    // is back at rest at 500 ms = frame 30. Frames 1–30 stalled: frame 31 shows the control at
    // rest, so the press is never seen.
    @Test func aStallOutlastingTheReleaseHidesThePress() throws {
        let r = try stalledReplay(Set(1...30))
        #expect(r.baseline.feedbackLatencyMs != nil)
        #expect(r.stalled.feedbackLatencyMs == nil && r.stalled.feedbackPhotonMs == nil && r.stalled.pressDepth == 0)
        #expect(StallEffect(baseline: r.baseline, stalled: r.stalled) == .hidden)
    }

    // Calibration by simulation: at 10 ms/s every frame is a one-frame hitch with probability
    // 10 / 1000, so 1000 sessions × 600 frames (10,000 s at 60 Hz) stall Binomial(600000, 0.01)
    // frames, mean 6000. scipy.stats.binom.ppf(0.0005 / 0.9995, 600000, 0.01) = 5748 / 6255, i.e.
    // a measured ratio (frames × 16.667 ms / 10,000 s) within 9.58–10.425 ms/s 99.9 % of the
    // time; at 120 Hz (1200 frames a session, 8.333 ms each) binom.ppf gives 11643 / 12360.
    @Test func samplerHitchRatioMatchesTheRequestedRatio() {
        let profile = StallProfile(hitchRatio: 10, seed: 7)
        for (rate, frames, band) in [(60.0, 600, 5748...6255), (120.0, 1200, 11643...12360)] {
            var stalled = 0
            for session in 0..<1000 {
                var s = profile.sampler(index: UInt64(session), refreshRate: rate)
                for _ in 0..<frames where s.nextFrameStalled() { stalled += 1 }
            }
            #expect(band.contains(stalled), "\(stalled) stalled frames at \(rate) Hz")
        }
    }

    // The same seed and session draw the same stalls; another session draws others.
    @Test func samplerIsReproducibleBySeedAndSession() {
        let profile = StallProfile(hitchRatio: 50, seed: 3)
        func draws(_ index: UInt64) -> [Bool] {
            var s = profile.sampler(index: index, refreshRate: 60)
            return (0..<600).map { _ in s.nextFrameStalled() }
        }
        #expect(draws(5) == draws(5))
        #expect(draws(5) != draws(6))
    }

    // A hang of 100–110 ms at 60 Hz covers ⌈6.0…6.6⌉ = 7 frames (6 only at exactly 100 ms).
    @Test func aHangCoversItsDurationInWholeFrames() {
        // perHour = 3600 × 60: a hang starts on the first frame drawn with certainty.
        let profile = StallProfile(hitchRatio: 0, hangs: [HangBucket(lowerMs: 100.5, upperMs: 110, perHour: 3600 * 60)])
        var s = profile.sampler(index: 0, refreshRate: 60)
        let first = s.nextFrameStalled()
        #expect(first)
        #expect(s.remaining == 6)  // this frame and 6 more
    }

    @Test func profileProblemsAreNamed() {
        #expect(StallProfile(hitchRatio: 10).problem == nil)
        #expect(StallProfile(hitchRatio: 1000).problem != nil)
        #expect(StallProfile(hitchRatio: -1).problem != nil)
        #expect(StallProfile(hitchRatio: 0, hangs: [HangBucket(lowerMs: 5, upperMs: 5, perHour: 1)]).problem != nil)
    }
}
