import Testing
@testable import PressCore

/// A stationary touch at (100, 100): began at 0, stationary samples every 1/120 s, ended at `lift`.
private func stationaryTap(lift: Double) -> [TouchSample] {
    var s = [TouchSample(t: 0, x: 100, y: 100, phase: .began)]
    var k = 1
    while Double(k) / 120 < lift - 1e-9 { s.append(TouchSample(t: Double(k) / 120, x: 100, y: 100, phase: .stationary)); k += 1 }
    s.append(TouchSample(t: lift, x: 100, y: 100, phase: .ended))
    return s
}

@Suite struct DisplayProfileTests {
    // The default profile is today's model: the display every replay used before profiles.
    @Test func theDefaultProfileIsTodaysDisplay() {
        #expect(DisplayProfile.default == .iphone60Hz)
        #expect(DisplayProfile.iphone60Hz.display == Display())
        #expect(Display().refreshRate == 60 && Display().density == 3)
        #expect(DisplayProfile.builtIn.map(\.name) == ["iphone-60hz", "iphone-promotion", "ipad-promotion"])
        #expect(DisplayProfile.builtIn(named: "ipad-promotion")?.density == 2)
        #expect(DisplayProfile.builtIn(named: "nope") == nil)
    }

    // Hand-worked 120 Hz timeline of spring-press (UIView spring 0.4 s, ζ 0.5, v 3 to 0.95) for a
    // 100 ms tap on a 44 pt control. Expected scales from the documented spring (reference §3):
    // ω₀ = 30.70515 rad/s by Newton on f(ω) from ω = 5 / 0.4, then
    // p(t) = 1 − e^(−ζω₀t)(cos ω_d t + (ζω₀ − v)/ω_d · sin ω_d t), scale = 1 − 0.05 p(t), computed
    // in plain Python (math module) at t = k / 120. The one-pixel threshold at 3 px/pt is
    // 1 − 1 / 66 = 0.984848: frame 3 (25 ms, 0.986570) is not past it, frame 4 (33.3 ms,
    // 0.979736) is; the crossing itself is at 27.15 ms (bisection on the same formula).
    @Test func springPressTapOnTheProMotionGrid() throws {
        let d = DisplayProfile.iphonePromotion.display
        let trace = try Replay.trace(stationaryTap(lift: 0.1), frame: nil, container: .none, scrollAxis: .vertical,
                                     configuration: .springPress, display: d)
        let frames = trace.frames(until: 0.05)
        #expect(frames.count == 7)
        let expected = [1.0, 0.9974114480227847, 0.9926833611191527, 0.98657040849452, 0.9797364483007824,
                        0.9727368886686729]
        for (k, scale) in expected.enumerated() {
            #expect(abs(frames[k].t - Double(k) / 120) < 1e-12)
            #expect(abs(frames[k].scale - scale) < 1e-6, "frame \(k)")
        }
        let r = trace.result
        #expect(abs(try #require(r.feedbackLatencyMs) - 4000.0 / 120) < 1e-6)
        // Photon: half a 120 Hz sampling period (4.1667 ms) + half a 120 Hz frame for per-frame
        // delivery (4.1667) + the model's 33.3333 + one pipeline frame (8.3333) = 50 ms.
        #expect(abs(try #require(r.feedbackPhotonMs) - 50.0) < 1e-6)
        // touchUpInside, no delay: action 0, shown on frame k = 1 (8.3333) → 4.1667 + 4.1667 +
        // 8.3333 + 8.3333 = 25 ms.
        #expect(r.actionLatencyMs == 0)
        #expect(abs(try #require(r.actionPhotonMs) - 25.0) < 1e-6)
    }

    // The same tap on the iPad profile (2 px/pt): the threshold is 1 − 1 / 44 = 0.977273, crossed at
    // 36.26 ms (bisection on the formula above), so frame 5 (41.667 ms, scale 0.972737) is the first.
    // Photon: 4.1667 + 4.1667 + 41.6667 + 8.3333 = 58.3333 ms.
    @Test func theSameTapOnTheIPadProfile() throws {
        let r = try Replay.session(stationaryTap(lift: 0.1), frame: nil, container: .none, scrollAxis: .vertical,
                                   configuration: .springPress, display: DisplayProfile.ipadPromotion.display)
        #expect(abs(try #require(r.feedbackLatencyMs) - 5000.0 / 120) < 1e-6)
        #expect(abs(try #require(r.feedbackPhotonMs) - 175.0 / 3) < 1e-6)
    }

    // On the default profile: model 33.3333 (frame 2 at 60 Hz; reference §4's worked case) +
    // half a 120 Hz sampling period (4.1667) + half a 60 Hz frame (8.3333) + one 60 Hz frame
    // (16.6667) = 62.5 ms; the action 12.5 + 16.6667 + 16.6667 = 45.8333 ms.
    @Test func photonLatencyOnTheDefaultProfileAddsEachComponent() throws {
        let r = try Replay.session(stationaryTap(lift: 0.1), frame: nil, container: .none, scrollAxis: .vertical,
                                   configuration: .springPress)
        #expect(abs(try #require(r.feedbackLatencyMs) - 2000.0 / 60) < 1e-6)
        #expect(abs(try #require(r.feedbackPhotonMs) - 62.5) < 1e-6)
        #expect(abs(try #require(r.actionPhotonMs) - 275.0 / 6) < 1e-6)
        #expect(abs(PhotonLatency.inputDelay(Display()) - 0.0125) < 1e-12)
        #expect(abs(PhotonLatency.pipelineDelay(Display()) - 1.0 / 60) < 1e-12)
    }

    // An action 0.3 s after the lift (expand-delayed-click) lands on frame 36 at 120 Hz
    // (36 / 120 = 0.3 exactly; a frame at the event's instant shows it), frame 18 at 60 Hz.
    // Immediate delivery drops the half frame; two pipeline frames add two.
    @Test func anActionLandsOnTheFirstFrameAtOrAfterIt() {
        let promotion = DisplayProfile.iphonePromotion.display
        #expect(abs(PhotonLatency.action(0.3, on: promotion) - (1.0 / 240 + 1.0 / 240 + 0.3 + 1.0 / 120)) < 1e-12)
        #expect(abs(PhotonLatency.action(0.3, on: Display()) - (0.0125 + 0.3 + 1.0 / 60)) < 1e-12)
        // 1 ms after the event: the next frame, k = 1.
        #expect(abs(PhotonLatency.action(0.001, on: Display()) - (0.0125 + 1.0 / 60 + 1.0 / 60)) < 1e-12)
        // 17 ms: frame 2 (33.3 ms).
        #expect(abs(PhotonLatency.action(0.017, on: Display()) - (0.0125 + 2.0 / 60 + 1.0 / 60)) < 1e-12)
        let custom = Display(refreshRate: 60, density: 3, touchSamplingRate: 240, delivery: .immediate, pipelineFrames: 2)
        #expect(abs(PhotonLatency.feedback(0.05, on: custom) - (1.0 / 480 + 0.05 + 2.0 / 60)) < 1e-12)
    }

    // Whatever the profile, a photon latency adds only non-negative delays to the model's.
    @Test func photonLatencyIsNeverBelowTheModelLatency() throws {
        var c = SyntheticLogConfiguration(sessions: 400, seed: 11)
        c.arms = PressConfiguration.presets.map { SyntheticArm(variant: $0.name, config: $0.name) }
        c.containers = Container.named.map { ContainerShare($0) }
        var generator = try SyntheticSessionGenerator(c)
        var checked = 0
        while let s = generator.next() {
            let config = PressConfiguration.preset(named: s.attributes.config ?? "") ?? .springPress
            for p in DisplayProfile.builtIn {
                let r = try Replay.session(s.samples.map(\.touchSample), attributes: s.attributes, configuration: config,
                                           display: p.display)
                #expect((r.feedbackLatencyMs == nil) == (r.feedbackPhotonMs == nil))
                #expect((r.actionLatencyMs == nil) == (r.actionPhotonMs == nil))
                if let f = r.feedbackLatencyMs, let g = r.feedbackPhotonMs { #expect(g > f) }
                if let a = r.actionLatencyMs, let g = r.actionPhotonMs { #expect(g > a) }
                checked += 1
            }
        }
        #expect(checked == 1200)
    }

    // Profiles outside the ranges a replay accepts are refused, naming the field.
    @Test func validationNamesTheField() {
        var p = DisplayProfile.iphonePromotion
        p.minimumRefreshRate = 200
        #expect(throws: AnimationParameterError.self) { try p.validate() }
        p = .iphonePromotion
        p.pipelineFrames = -1
        #expect { try p.validate() } throws: { ($0 as? AnimationParameterError)?.parameter == "pipeline_frames" }
        #expect(throws: Never.self) { try DisplayProfile.ipadPromotion.validate() }
    }
}
