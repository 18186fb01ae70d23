import Testing
@testable import PressCore

/// A stationary touch at (100, 100): began at 0, stationary samples every 1/60 s, ended at `lift`.
private func stationaryTap(lift: Double, phaseAtEnd: TouchPhase = .ended) -> [TouchSample] {
    var s = [TouchSample(t: 0, x: 100, y: 100, phase: .began)]
    var t = 1.0 / 60
    while t < lift - 1e-9 { s.append(TouchSample(t: t, x: 100, y: 100, phase: .stationary)); t += 1.0 / 60 }
    s.append(TouchSample(t: lift, x: 100, y: 100, phase: phaseAtEnd))
    return s
}

@Suite struct ReplayTests {
    // One replay gives both the stored figures and the frames a chart draws: the result is read
    // from the trace, and its feedback latency is the first frame whose scale is off rest by at
    // least 1 / (22 pt × 3 px/pt) (reference §4).
    @Test func traceGivesTheResultAndTheFrames() throws {
        let samples = stationaryTap(lift: 0.1)
        let trace = try Replay.trace(samples, frame: nil, container: .none, scrollAxis: .vertical, configuration: .springPress)
        #expect(trace.result == (try Replay.session(samples, frame: nil, container: .none, scrollAxis: .vertical,
                                                    configuration: .springPress)))
        let frames = trace.frames(until: 0.2)
        #expect(frames.count == 13 && frames[0].t == 0)
        let seen = try #require(frames.first { abs($0.scale - 1) >= 1.0 / 66 })
        // The result keeps milliseconds to 6 decimals (Replay.StoredResolution): within 5e-7 ms.
        #expect(abs(seen.t * 1000 - (try #require(trace.result.feedbackLatencyMs))) <= 5e-7)
        // A session naming no container or axis replays in `none`, vertically.
        #expect(try Replay.session(samples, attributes: SessionAttributes(), configuration: .springPress) == trace.result)
        #expect(Replay.defaultContainer == .none && Replay.defaultScrollAxis == .vertical)
    }

    // A hand-worked case: a 100 ms stationary tap on a 44 pt control, no container,
    // spring-press. The UIView spring (0.4 s, ζ 0.5, v 3) crosses the one-pixel threshold
    // |Δscale| ≥ 1 / (22 pt × 3 px/pt) = 0.01515, i.e. progress ≥ 0.303, at about 27 ms; the first
    // frame after that is k = 2 at 60 Hz: 33.33 ms. touchUpInside with no delay: action 0 ms.
    @Test func quickTapInNoContainerIsSeenOnTheSecondFrame() throws {
        let r = try Replay.session(stationaryTap(lift: 0.1), frame: nil, container: .none,
                                   scrollAxis: .vertical, configuration: .springPress)
        #expect(r.outcome == .tap && r.cancelReason == nil && r.actionFired)
        #expect(abs(try #require(r.feedbackLatencyMs) - 2000.0 / 60) < 1e-6)
        #expect(r.actionLatencyMs == 0)
        #expect(abs(r.durationMs - 100) < 1e-9)
        #expect(r.maxTravelPt == 0)
    }

    // The same tap in a `scroll` container: delaysContentTouches holds it past the 100 ms lift, so
    // touchDown and touchUpInside arrive together at the lift; the press and release springs start
    // at the same instant and cancel out exactly (additive UIView animations): an unseen press.
    @Test func quickTapInScrollViewIsUnseen() throws {
        let r = try Replay.session(stationaryTap(lift: 0.1), frame: nil, container: .scroll,
                                   scrollAxis: .vertical, configuration: .springPress)
        #expect(r.outcome == .tap && r.actionFired)
        #expect(r.feedbackLatencyMs == nil)
        #expect(r.pressDepth == 0)
    }

    // A 20 pt vertical move within 100 ms in a `scroll` container: the pan begins before the
    // 150 ms delay, the control never sees the touch — scroll_abort, no feedback, no action.
    @Test func earlyScrollAbortsWithoutFeedback() throws {
        let samples = [TouchSample(t: 0, x: 100, y: 100, phase: .began),
                       TouchSample(t: 0.05, x: 100, y: 110, phase: .moved),
                       TouchSample(t: 0.09, x: 100, y: 120, phase: .moved),
                       TouchSample(t: 0.2, x: 100, y: 160, phase: .ended)]
        let r = try Replay.session(samples, frame: nil, container: .scroll, scrollAxis: .vertical,
                                   configuration: .springPress)
        #expect(r.outcome == .scrollAbort && r.cancelReason == nil && !r.actionFired)
        #expect(r.feedbackLatencyMs == nil && r.actionLatencyMs == nil)
        #expect(abs(r.maxTravelPt - 60) < 1e-9)
    }

    // expand-delayed-click, 100 ms tap, no container. The CASpringAnimation (m 1, k 100, c 1,
    // v0 0.8) from 1 to 1.3: progress x(t) = 1 − e^(−0.5t)(cos ω_d t + B sin ω_d t), ω_d = 9.98749,
    // B = (0.5 − 0.8)/ω_d. python3: x(1/60) = 0.02694 < 0.0505 (= 0.01515 / 0.3), x(2/60) = 0.08018:
    // feedback at 33.33 ms. At the 0.1 s release the scale is 1 + 0.3·x(0.1) = 1.152721 and the
    // shrink animation starts from 1.3: a jump of |1.3 − 1.152721| × 22 pt = 3.240128 pt.
    // The action fires 300 ms after the release.
    @Test func expandPatternJumpsOnRelease() throws {
        let r = try Replay.session(stationaryTap(lift: 0.1), frame: nil, container: .none,
                                   scrollAxis: .vertical, configuration: .expandDelayedClick)
        #expect(r.outcome == .tap && r.actionFired)
        #expect(abs(try #require(r.feedbackLatencyMs) - 2000.0 / 60) < 1e-6)
        #expect(abs(r.releaseJumpPt - 3.240128179395582) < 1e-6)
        #expect(abs(try #require(r.actionLatencyMs) - 300) < 1e-9)
    }

    // expand-delayed-click with a cancelled touch: the release (and the action) run on
    // touchCancel too, 300 ms later — a false action on a press that was not a tap.
    @Test func expandPatternFiresOnCancel() throws {
        let r = try Replay.session(stationaryTap(lift: 0.2, phaseAtEnd: .cancelled), frame: nil,
                                   container: .none, scrollAxis: .vertical, configuration: .expandDelayedClick)
        #expect(r.outcome == .cancel && r.cancelReason == .system)
        #expect(r.actionFired)
        #expect(abs(try #require(r.actionLatencyMs) - 300) < 1e-9)
    }

    // A zero-sized frame cannot be measured: the error names the parameter.
    @Test func invalidFrameThrows() {
        #expect(throws: AnimationParameterError.self) {
            try Replay.session(stationaryTap(lift: 0.1), frame: Rect(x: 0, y: 0, width: 0, height: 0),
                               container: .none, scrollAxis: .vertical, configuration: .springPress)
        }
    }
}

/// Found by review: a sample that is "at the same instant" as the delay timer but a rounding
/// error before it (realistic with epoch timestamps) must not reorder press and release.
@Suite struct SimultaneousEventOrderTests {
    // t0 = 523.4567; in doubles (t0 + 0.15) − t0 = 0.14999999999997726 (python3), within the
    // 1e-9 s tolerance of the 0.150 s timer. expand-delayed-click in a table: the timer delivers
    // touchDown at 0.150, then the 11 pt vertical move cancels at the same instant. The shrink
    // animation (added after the expand one) wins from 1.3: the frame at 150 ms shows 1.3
    // (feedback 150 ms), the jump is |1.3 − 1.0| × 22 pt = 6.6 pt, the action fires 300 ms later.
    @Test func tableCancelAtTheTimerInstantKeepsCausalOrder() throws {
        let t0 = 523.4567
        let samples = [TouchSample(t: t0, x: 100, y: 100, phase: .began),
                       TouchSample(t: t0 + 0.15, x: 100, y: 111, phase: .moved),
                       TouchSample(t: t0 + 0.4, x: 100, y: 140, phase: .ended)]
        let r = try Replay.session(samples, frame: nil, container: .table, scrollAxis: .vertical,
                                   configuration: .expandDelayedClick)
        #expect(r.outcome == .scrollAbort && r.actionFired)
        #expect(abs(try #require(r.feedbackLatencyMs) - 150) < 1e-6)
        #expect(abs(r.releaseJumpPt - 6.6) < 1e-9)
        #expect(abs(try #require(r.actionLatencyMs) - 300) < 1e-9)
    }

    // spring-press in a scroll view, lift 5e-10 s before the timer: touchDown and touchUpInside
    // arrive together, the two identical additive springs cancel exactly — an unseen press (the
    // same as a lift exactly at 0.150 s).
    @Test func liftJustBeforeTheTimerIsStillUnseen() throws {
        let samples = [TouchSample(t: 0, x: 100, y: 100, phase: .began),
                       TouchSample(t: 0.15 - 5e-10, x: 100, y: 100, phase: .ended)]
        let r = try Replay.session(samples, frame: nil, container: .scroll, scrollAxis: .vertical,
                                   configuration: .springPress)
        #expect(r.outcome == .tap)
        #expect(r.feedbackLatencyMs == nil)
    }
}

@Suite struct StoredResolutionTests {
    // A derived figure is kept to a documented resolution, so a computed 18 is 18.
    // A quick tap in a scroll view on a 120 × 120 pt button under expand-delayed-click is never
    // pressed before the lift (delaysContentTouches), so the shrink starts from 1.3 while the
    // button shows 1: a jump of 0.3 × 120 / 2 = 18 pt, which 0.3 × 60 gives as 18.000000000000004
    // in binary floating point.
    @Test func aComputedEighteenIsEighteen() throws {
        let r = try Replay.session(stationaryTap(lift: 0.1), frame: Rect(x: 0, y: 0, width: 120, height: 120),
                                   container: .scroll, scrollAxis: .vertical, configuration: .expandDelayedClick)
        #expect(r.releaseJumpPt == 18)
        #expect((1.3 - 1.0) * 60 != 18)  // the noise the rounding removes
        // 2 frames at 60 Hz: 2000/60 ms is 33.333333 to 6 decimals; its shortest text says so.
        #expect(Replay.stored(2000.0 / 60, decimals: 6).description == "33.333333")
        #expect(Replay.stored(0.1 + 0.2, decimals: 6) == 0.3)
        #expect(Replay.stored(-2.5e-7, decimals: 6) == -0.0 && Replay.stored(2.5e-6, decimals: 6) == 0.000003)
        #expect(Replay.stored(.infinity, decimals: 6) == .infinity)
    }
}
