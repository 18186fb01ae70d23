import Testing
import PressCore

// Reference values computed with python3 from the reference's rules, independently of the Swift
// code: the UIKit spring of spring-press (0.4 s, ζ 0.5, v 3) solved by a python port of the 12
// Newton steps gives k = 942.8063853741291, c = 30.705152423886926; x(t) = 1 − p(t) is its
// under-damped closed form. Additive composition by hand: model + Σ offset·x(t − start).

private func events(_ list: (Double, ScaleEvent)...) -> [TimedScaleEvent] {
    list.map { TimedScaleEvent(time: $0.0, event: $0.1) }
}

@Suite struct TimelineSpringPressTests {
    // A 100 ms tap: press at 0, release at 0.1.
    let tap = try! ScaleTimeline(animation: PressConfiguration.springPress.animation, events: events((0, .press), (0.1, .release)))

    // python: t = 0.05 → 1 − 0.05·p(0.05) = 0.9660112617373037;
    // t = 0.2 → 1 + 0.05·x(0.2) − 0.05·x(0.1) = 1.0076549392546432 (press spring still running);
    // t = 0.45 → press spring cut at 0.4, 1 − 0.05·x(0.35) = 1.0002176510724738.
    @Test func valuesMatchAdditiveCompositionByHand() {
        #expect(abs(tap.scale(at: 0.05) - 0.9660112617373037) < 1e-12)
        #expect(abs(tap.scale(at: 0.2) - 1.0076549392546432) < 1e-12)
        #expect(abs(tap.scale(at: 0.45) - 1.0002176510724738) < 1e-12)
        #expect(tap.scale(at: 0.6) == 1)
        #expect(tap.modelScale(at: 0.05) == 0.95)
        #expect(tap.modelScale(at: 0.1) == 1)
    }

    // Continuous through the quick release: no step at 0.1, and on a 0.1 ms grid no change
    // larger than the spring's speed allows (the press starts at 3 distances/s · 0.05 = 0.15/s).
    @Test func continuousThroughAQuickRelease() {
        #expect(abs(tap.scale(at: 0.1) - tap.scale(justBefore: 0.1)) < 1e-15)
        let s = tap.samples(from: 0, to: 0.6, step: 0.0001)
        #expect(s.count == 6001)
        for (a, b) in zip(s, s.dropFirst()) { #expect(abs(b.scale - a.scale) < 1e-4, "t = \(a.t)") }
    }

    // Press and release at the same instant: equal and opposite additive springs cancel exactly;
    // the displayed scale stays 1 and nobody sees the press.
    @Test func simultaneousPressAndReleaseAreUnseen() throws {
        let tl = try ScaleTimeline(animation: PressConfiguration.springPress.animation, events: events((0.15, .press), (0.15, .release)))
        for sample in tl.samples(from: 0, to: 1, step: 0.001) { #expect(sample.scale == 1) }
        let m = try VisualMetrics(timeline: tl, touchDown: 0, width: 44, height: 44)
        #expect(m.feedbackLatency == nil)
        #expect(m.pressDepth == 0)
        #expect(m.releaseJump == 0)
    }

    // The hand-worked check: a 100 ms tap on a 44 pt control at 60 Hz, 3 px/pt. One pixel at the
    // edge is |Δscale| · 22 pt · 3 px/pt ≥ 1, i.e. 0.05·p(t) ≥ 1/66. python bisection: p reaches it
    // at t = 0.02715 s; frame 1 (16.7 ms) moves the edge 0.48 px, frame 2 (33.3 ms) 1.34 px. So the
    // feedback latency is 2/60 s. At 120 Hz frames fall at 25.0 ms (< 27.15) and 33.3 ms: the same.
    @Test func feedbackLatencyOfTheHandWorkedTap() throws {
        let m = try VisualMetrics(timeline: tap, touchDown: 0, width: 44, height: 44)
        #expect(abs(try #require(m.feedbackLatency) - 2.0 / 60) < 1e-12)
        let m120 = try VisualMetrics(timeline: tap, touchDown: 0, width: 44, height: 44, refreshRate: 120)
        #expect(abs(try #require(m120.feedbackLatency) - 4.0 / 120) < 1e-12)
    }

    // The press spring's residual at its cut: x(0.4) = −0.001692571546189487 (python). The press
    // animation (offset +0.05) ends at 0.4, the release one (−0.05, same spring) at 0.5, each
    // removing 0.05·|x(0.4)| of scale: 0.05 · 0.0016926 · 22 pt = 0.0018618287008084359 pt.
    // Press depth (python, frames k/60 to 0.5 s): max (s − 1)/(0.95 − 1) = 1.144391838776495.
    @Test func releaseJumpIsTheResidualAtTheCut() throws {
        let m = try VisualMetrics(timeline: tap, touchDown: 0, width: 44, height: 44)
        #expect(abs(m.releaseJump - 0.0018618287008084359) < 1e-9)
        #expect(abs(m.pressDepth - 1.144391838776495) < 1e-9)
    }

    // A touch held back by a scroll view: press delivered at 0.15 s. The threshold is crossed at
    // 0.15 + 0.02715 = 0.17715 s; the next frame is k = 11 (0.18333 s) (python).
    @Test func feedbackIncludesTheDeliveryDelay() throws {
        let delayed = try ScaleTimeline(animation: PressConfiguration.springPress.animation, events: events((0.15, .press), (0.4, .release)))
        let m = try VisualMetrics(timeline: delayed, touchDown: 0, width: 44, height: 44)
        #expect(abs(try #require(m.feedbackLatency) - 11.0 / 60) < 1e-12)
    }
}

@Suite struct TimelineExpandTests {
    // Expand spring (m 1, k 100, c 1, v₀ 0.8) from 1 to 1.3: scale 1 + 0.3·p(t). python:
    // t = 0.1 → 1.15272144639111; cut at 0.2 → 1.4197683905312917, held (fill forwards, not removed).
    static let held = 1.4197683905312917

    @Test func holdsTheCutOffValueNotTheTarget() throws {
        let tl = try ScaleTimeline(animation: PressConfiguration.expandDelayedClick.animation, events: events((0, .press)))
        #expect(abs(tl.scale(at: 0.1) - 1.15272144639111) < 1e-12)
        #expect(abs(tl.scale(at: 0.2) - Self.held) < 1e-12)
        for t in [0.25, 1, 10] { #expect(abs(tl.scale(at: t) - Self.held) < 1e-12) }
        #expect(tl.modelScale(at: 1) == 1)  // hand-added animations leave the model alone
        // Press depth: the frames hold 1.41977 → (0.41977)/(0.3) = p(0.2) = 1.3992279684376387.
        let m = try VisualMetrics(timeline: tl, touchDown: 0, width: 44, height: 44)
        #expect(abs(m.pressDepth - 1.3992279684376387) < 1e-12)
        // python: frame 1 moves the edge 0.53 px, frame 2 1.59 px.
        #expect(abs(try #require(m.feedbackLatency) - 2.0 / 60) < 1e-12)
        #expect(m.releaseJump < 1e-12)  // no jump: starts at 1 and holds the value at its cut
    }

    // Released at 0.5: the shrink animation (1.3 → 1, linear, 0.2 s) wins from its fromValue, a
    // jump of (1.4197683905312917 − 1.3) · 22 pt = 2.6349045916884157 pt; then linear to 1.0 at 0.7
    // and held there.
    @Test func jumpsTo1_3OnRelease() throws {
        let tl = try ScaleTimeline(animation: PressConfiguration.expandDelayedClick.animation, events: events((0, .press), (0.5, .release)))
        #expect(abs(tl.scale(justBefore: 0.5) - Self.held) < 1e-12)
        #expect(tl.scale(at: 0.5) == 1.3)
        #expect(abs(tl.scale(at: 0.6) - 1.15) < 1e-12)
        #expect(tl.scale(at: 0.7) == 1)
        #expect(tl.scale(at: 3) == 1)
        let m = try VisualMetrics(timeline: tl, touchDown: 0, width: 44, height: 44)
        #expect(abs(m.releaseJump - 2.6349045916884157) < 1e-9)
    }

    // Released at 0.1, mid-spring: python 1.15272144639111 → 1.3, a jump of 3.240128179395582 pt
    // (upwards); the spring's later cut at 0.2 is hidden under the winning shrink animation.
    @Test func releaseDuringTheSpringJumpsFromItsCurrentValue() throws {
        let tl = try ScaleTimeline(animation: PressConfiguration.expandDelayedClick.animation, events: events((0, .press), (0.1, .release)))
        #expect(tl.scale(at: 0.1) == 1.3)
        #expect(abs(tl.scale(at: 0.2) - 1.15) < 1e-12)
        #expect(abs(tl.scale(justBefore: 0.2) - tl.scale(at: 0.2)) < 1e-15)
        let m = try VisualMetrics(timeline: tl, touchDown: 0, width: 44, height: 44)
        #expect(abs(m.releaseJump - 3.240128179395582) < 1e-9)
    }

    // Pressing again replaces the "expand" animation (same key) and, added last, wins over shrink.
    @Test func aSecondPressReplacesByKey() throws {
        let tl = try ScaleTimeline(animation: PressConfiguration.expandDelayedClick.animation,
                                   events: events((0, .press), (0.5, .release), (1, .press)))
        #expect(tl.scale(at: 1) == 1)
        #expect(abs(tl.scale(at: 1.1) - 1.15272144639111) < 1e-12)
        #expect(abs(tl.scale(at: 2) - Self.held) < 1e-12)
    }
}

@Suite struct TimelineLongPressTests {
    // Ease-in-ease-out (0.42, 0, 0.58, 1), python bisection: y(0.25) = 0.1291619310473198,
    // y(0.5) = 0.5, y(0.75) = 0.8708380689526802, y(1/6) and y(1/3) for the release below.
    @Test func easeInEaseOutPressAndRelease() throws {
        let tl = try ScaleTimeline(animation: PressConfiguration.longPressSafeArea.animation, events: events((0, .press), (0.5, .release)))
        // 1 − 0.05·y(t / 0.2)
        #expect(abs(tl.scale(at: 0.05) - 0.993541903447634) < 1e-12)
        #expect(abs(tl.scale(at: 0.1) - 0.975) < 1e-12)
        #expect(abs(tl.scale(at: 0.15) - 0.956458096552366) < 1e-12)
        #expect(tl.scale(at: 0.3) == 0.95)
        // 1 − 0.05·(1 − y((t − 0.5) / 0.3))
        #expect(abs(tl.scale(at: 0.6) - 0.9615887408151375) < 1e-12)
        #expect(abs(tl.scale(at: 0.65) - 0.975) < 1e-12)
        #expect(tl.scale(at: 0.8) == 1)
        let m = try VisualMetrics(timeline: tl, touchDown: 0, width: 44, height: 44)
        #expect(abs(m.pressDepth - 1) < 1e-12)
        #expect(m.releaseJump < 1e-12)
    }

    // Released at 0.1, mid-press: additive, 1 + 0.05·(1 − y(t/0.2)) − 0.05·(1 − y((t − 0.1)/0.3)).
    // python: t = 0.15 → 0.9592646375213395; t = 0.3 → 0.9884112591848626. Continuous at 0.1.
    @Test func additiveReleaseDuringThePress() throws {
        let tl = try ScaleTimeline(animation: PressConfiguration.longPressSafeArea.animation, events: events((0, .press), (0.1, .release)))
        #expect(abs(tl.scale(at: 0.15) - 0.9592646375213395) < 1e-12)
        #expect(abs(tl.scale(at: 0.3) - 0.9884112591848626) < 1e-12)
        #expect(abs(tl.scale(at: 0.1) - tl.scale(justBefore: 0.1)) < 1e-15)
    }

    // The article's handler has no .cancelled case: with no release event the button stays at 0.95.
    @Test func noReleaseStaysPressed() throws {
        let tl = try ScaleTimeline(animation: PressConfiguration.longPressSafeArea.animation, events: events((0, .press)))
        #expect(tl.scale(at: 5) == 0.95)
        #expect(tl.settledTime == 0.2)
    }
}

@Suite struct TimelineRulesTests {
    // An animation lives on [start, start + duration): at its end the state after it shows.
    @Test func anAnimationEndsAtStartPlusDuration() throws {
        let removed = PressAnimation(
            press: .caBasic(duration: 0.2, curve: .linear, options: LayerAnimationOptions(key: "k", fromValue: 1)),
            release: .caBasic(duration: 0.2, curve: .linear, options: LayerAnimationOptions(key: "k")),
            pressedScale: 2)
        let tl = try ScaleTimeline(animation: removed, events: events((0, .press)))
        #expect(abs(tl.scale(justBefore: 0.2) - 2) < 1e-12)  // last value, an instant before its end
        #expect(tl.scale(at: 0.2) == 1)  // removed on completion: the model (1) shows again
        let m = try VisualMetrics(timeline: tl, touchDown: 0, width: 10, height: 20)
        #expect(abs(m.releaseJump - 10) < 1e-9)  // |1 − 2| · max(10, 20)/2
    }

    // A nil fromValue starts from the value on screen.
    @Test func nilFromValueStartsFromTheScreen() throws {
        let a = PressAnimation(
            press: .caBasic(duration: 1, curve: .linear, options: LayerAnimationOptions(key: "a", fromValue: 1, fillMode: .forwards, isRemovedOnCompletion: false)),
            release: .caBasic(duration: 1, curve: .linear, options: LayerAnimationOptions(key: "b")),
            pressedScale: 2)
        let tl = try ScaleTimeline(animation: a, events: events((0, .press), (0.5, .release)))
        #expect(tl.scale(at: 0.5) == 1.5)            // continuous: from the value on screen
        #expect(abs(tl.scale(at: 1) - 1.25) < 1e-12)  // 1.5 → 1, half way
        #expect(abs(tl.scale(at: 1.5) - 2) < 1e-12)   // "b" gone: "a" holds its end value again
    }

    @Test func samplesCoverTheRangeInclusive() throws {
        let tl = try ScaleTimeline(animation: PressConfiguration.longPressSafeArea.animation, events: events((0, .press)))
        let s = tl.samples(from: 0, to: 0.2, step: 1.0 / 60)
        #expect(s.count == 13)
        #expect(s.last!.scale == 0.95)
        #expect(tl.samples(from: 0, to: 1, step: 0).isEmpty)
    }

    @Test func rejectsImpossibleAnimations() {
        let bad = PressAnimation(press: .uiViewCurve(duration: -1, curve: .linear), release: .uiViewCurve(duration: 0.2, curve: .linear), pressedScale: 0.9)
        #expect(throws: AnimationParameterError.self) { try ScaleTimeline(animation: bad, events: events((0, .press))) }
        let tl = try! ScaleTimeline(animation: PressConfiguration.springPress.animation, events: [])
        #expect(throws: AnimationParameterError.self) { try VisualMetrics(timeline: tl, touchDown: 0, width: 0, height: 44) }
        #expect(tl.scale(at: 1) == 1)
    }
}
