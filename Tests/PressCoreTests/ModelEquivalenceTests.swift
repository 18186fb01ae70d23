import Foundation
import Testing
@testable import PressCore

// The optimised model must give bit for bit what the straightforward one gave. This
// file keeps the straightforward one — ScaleTimeline, VisualMetrics and the press/release events
// as they were before the optimisation (commit 0c9b4b2), written with nothing but the model's
// definitions: every animation evaluated at every call, every model change walked, springs from
// their closed forms — and compares both on thousands of generated sessions under every preset
// and under configurations that reach the paths the presets do not (key replacement,
// `fromValue` nil, removed on completion, over-damped springs, curves).

/// The closed-form spring of the reference (Spring.swift's derivation, repeated): x(t) with
/// x(0) = 1, from the public physical parameters.
private struct ReferenceSpring {
    let regime: Spring.Regime
    let decay: Double, frequency: Double, coefficient: Double

    init(_ s: Spring) {
        let w0 = (s.stiffness / s.mass).squareRoot()
        let zeta = s.damping / (2 * (s.stiffness * s.mass).squareRoot())
        let v0 = s.initialVelocity
        regime = s.regime
        switch s.regime {
        case .underdamped:
            decay = zeta * w0
            frequency = w0 * (1 - zeta * zeta).squareRoot()
            coefficient = (decay - v0) / frequency
        case .critical:
            decay = w0; frequency = 0; coefficient = w0 - v0
        case .overdamped:
            let root = (zeta * zeta - 1).squareRoot()
            decay = w0 / (zeta + root)
            frequency = w0 * (zeta + root)
            coefficient = (v0 - decay) / (frequency - decay)
        }
    }

    func progress(at t: Double) -> Double {
        let x: Double
        switch regime {
        case .underdamped:
            let th = frequency * t
            x = exp(-decay * t) * (cos(th) + coefficient * sin(th))
        case .critical:
            x = (1 + coefficient * t) * exp(-decay * t)
        case .overdamped:
            x = (1 - coefficient) * exp(-decay * t) + coefficient * exp(-frequency * t)
        }
        return 1 - x
    }
}

/// The timeline before the optimisation: the same composition rules (ScaleTimeline's doc), every
/// animation and model change looked at on every evaluation.
private struct ReferenceTimeline {
    enum Shape { case spring(ReferenceSpring), curve(UnitBezier) }
    struct Animation {
        var start: Double, duration: Double, from: Double, to: Double
        var shape: Shape
        var isAdditive: Bool, holdsAfterEnd: Bool
        var key: String?
        var removedAt = Double.infinity
        var end: Double { start + duration }
        func value(atLocal local: Double) -> Double {
            let tau = min(max(local, 0), duration)
            let p: Double
            switch shape {
            case .spring(let s): p = s.progress(at: tau)
            case .curve(let b): p = b.value(at: tau / duration)
            }
            return from + (to - from) * p
        }
    }

    let pressedScale: Double
    let feedback: PressFeedback
    var events: [TimedScaleEvent]
    var animations: [Animation] = []
    var modelChanges: [(time: Double, value: Double)] = []

    init(animation: PressAnimation, events: [TimedScaleEvent]) throws {
        pressedScale = animation.pressedScale
        feedback = animation.feedback
        self.events = events.enumerated().sorted { a, b in
            a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
        }.map(\.element)
        for e in self.events {
            switch e.event {
            case .press: try add(animation.press, at: e.time, target: animation.pressedScale)
            case .release: try add(animation.release, at: e.time, target: 1)
            }
        }
    }

    mutating func add(_ spec: AnimationSpec, at t: Double, target: Double) throws {
        switch spec {
        case let .uiViewSpring(duration, dampingRatio, velocity):
            let s = try Spring(withDuration: duration, usingSpringWithDamping: dampingRatio, initialSpringVelocity: velocity)
            addAdditive(.spring(ReferenceSpring(s)), duration: duration, at: t, target: target)
        case let .uiViewCurve(duration, curve):
            addAdditive(.curve(try curve.unitBezier()), duration: duration, at: t, target: target)
        case let .caSpring(mass, stiffness, damping, initialVelocity, duration, options):
            let s = try Spring(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity)
            addLayer(.spring(ReferenceSpring(s)), duration: duration, at: t, target: target, options: options)
        case let .caBasic(duration, curve, options):
            addLayer(.curve(try curve.unitBezier()), duration: duration, at: t, target: target, options: options)
        case let .swiftUISpring(response, fraction):
            // SwiftUI's spring from its definition: k = (2π / response)², c = 4πζ / response,
            // additive, until its settling duration.
            let w = 2 * Double.pi / response
            let s = try Spring(mass: 1, stiffness: w * w, damping: 4 * Double.pi * fraction / response,
                               initialVelocity: 0, allowsOverdamping: true)
            addAdditive(.spring(ReferenceSpring(s)), duration: s.settlingDuration, at: t, target: target)
        }
    }

    mutating func addAdditive(_ shape: Shape, duration: Double, at t: Double, target: Double) {
        let old = modelChanges.last?.value ?? 1
        modelChanges.append((t, target))
        guard duration > 0 else { return }
        animations.append(Animation(start: t, duration: duration, from: old - target, to: 0, shape: shape,
                                    isAdditive: true, holdsAfterEnd: false, key: nil))
    }

    mutating func addLayer(_ shape: Shape, duration: Double, at t: Double, target: Double, options: LayerAnimationOptions) {
        let from = options.fromValue ?? scale(at: t)
        for i in animations.indices where animations[i].key == options.key && animations[i].removedAt > t {
            animations[i].removedAt = t
        }
        animations.append(Animation(start: t, duration: duration, from: from, to: target, shape: shape, isAdditive: false,
                                    holdsAfterEnd: options.fillMode == .forwards && !options.isRemovedOnCompletion,
                                    key: options.key))
    }

    func scale(at t: Double) -> Double { evaluate(t, justBefore: false) }
    func scale(justBefore t: Double) -> Double { evaluate(t, justBefore: true) }

    func evaluate(_ t: Double, justBefore: Bool) -> Double {
        let tol = 1e-9
        func happened(_ s: Double) -> Bool { justBefore ? s < t - tol : s <= t + tol }
        var base = 1.0
        for m in modelChanges {
            guard happened(m.time) else { break }
            base = m.value
        }
        var additive = 0.0
        for a in animations {
            guard happened(a.start) else { break }
            if happened(a.removedAt) { continue }
            let local = t - a.start
            let running = justBefore ? local <= a.duration + tol : local < a.duration - tol
            let v: Double
            if running { v = a.value(atLocal: local) } else if a.holdsAfterEnd { v = a.value(atLocal: a.duration) } else { continue }
            if a.isAdditive { additive += v } else { base = v; additive = 0 }
        }
        return base + additive
    }

    var changeInstants: [Double] {
        var times = events.map(\.time)
        for a in animations {
            times.append(a.end)
            if a.removedAt.isFinite { times.append(a.removedAt) }
        }
        times.sort()
        var out: [Double] = []
        for t in times where out.last.map({ t - $0 > 1e-9 }) ?? true { out.append(t) }
        return out
    }

    /// VisualMetrics before the optimisation: (feedback latency, release jump, press depth).
    func metrics(width: Double, height: Double, refreshRate: Double = 60, density: Double = 3) -> (Double?, Double, Double) {
        let halfSize = max(width, height) / 2
        // Scale: one device pixel at the edge; a blend: half an 8-bit code value in some channel.
        let visible: (Double) -> Bool
        if let (a, b) = self.feedback.blendEnds {
            let range = [abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue))].max()!
            visible = { d in d * Double(range) >= 0.5 }
        } else {
            visible = { d in d * halfSize * density >= 1 }
        }
        let pressedChange = pressedScale - 1
        let settled = changeInstants.last ?? -.infinity
        var feedback: Double? = nil
        var depth = 0.0
        var k = 1
        while true {
            let elapsed = Double(k) / refreshRate
            let frameTime = 0 + elapsed
            let s = scale(at: frameTime)
            if feedback == nil, visible(abs(s - 1)) { feedback = elapsed }
            if pressedChange != 0 { depth = max(depth, (s - 1) / pressedChange) }
            if frameTime >= settled - 1e-9 || k >= 1_000_000 { break }
            k += 1
        }
        var jump = 0.0
        for t in changeInstants { jump = max(jump, abs(scale(at: t) - scale(justBefore: t))) }
        return (feedback, self.feedback == .scale ? jump * halfSize : 0, depth)
    }
}

/// The press and release events of a classification as they were derived before: control
/// events through the configuration's sets, in order; the long press's from its states.
private func referenceScaleEvents(_ c: PressClassification, _ configuration: PressConfiguration) -> [TimedScaleEvent] {
    switch configuration.gesture {
    case .control(let control):
        var out: [TimedScaleEvent] = []
        for e in c.controlEvents {
            if control.pressEvents.contains(e.event) { out.append(TimedScaleEvent(time: e.time, event: .press)) }
            if control.releaseEvents.contains(e.event) { out.append(TimedScaleEvent(time: e.time, event: .release)) }
        }
        guard control.coalescesSimultaneousUpdates else { return out }
        // A press and its release at one instant are never rendered: drop such pairs (a pair
        // removed may bring two more together).
        var kept: [TimedScaleEvent] = []
        for e in out {
            if e.event == .release, let last = kept.last, last.event == .press, abs(last.time - e.time) <= 1e-9 {
                kept.removeLast()
            } else {
                kept.append(e)
            }
        }
        return kept
    case .longPress:
        return c.scaleEvents  // not derived from sets; LongPressRecognition is unchanged
    }
}

private func same(_ a: Double?, _ b: Double?) -> Bool { a?.bitPattern == b?.bitPattern }

@Suite struct ModelEquivalenceTests {
    /// Configurations beyond the presets that reach the timeline's other paths.
    static let extraConfigurations: [PressConfiguration] = {
        let sameKey = LayerAnimationOptions(key: "scale")
        let held = LayerAnimationOptions(key: "scale", fillMode: .forwards, isRemovedOnCompletion: false)
        return [
            // Both animations for one key, from the value on screen: the release replaces the press.
            PressConfiguration(name: "same-key", gesture: .control(ControlGesture()), animation: PressAnimation(
                press: .caSpring(mass: 1, stiffness: 300, damping: 12, initialVelocity: 0, duration: 0.3, options: sameKey),
                release: .caBasic(duration: 0.25, curve: .easeOut, options: sameKey), pressedScale: 0.9)),
            // Held press spring (over-damped, evaluated as critical), a held release with a custom curve.
            PressConfiguration(name: "held", gesture: .control(ControlGesture(retentionMargin: 25)), animation: PressAnimation(
                press: .caSpring(mass: 2, stiffness: 100, damping: 40, initialVelocity: 5, duration: 0.35, options: held),
                release: .caBasic(duration: 0.2, curve: .cubicBezier(x1: 0.3, y1: -0.2, x2: 0.6, y2: 1.4), options: held),
                pressedScale: 1.1), actionRule: .anyRelease, actionDelay: 0.05),
            // UIView curve press, UIView spring release, a 0.3 s long press.
            PressConfiguration(name: "mixed", gesture: .longPress(LongPressGesture(minimumPressDuration: 0.3)), animation: PressAnimation(
                press: .uiViewCurve(duration: 0.15, curve: .easeIn),
                release: .uiViewSpring(duration: 0.5, dampingRatio: 0.3, initialSpringVelocity: 0), pressedScale: 0.97)),
        ]
    }()

    /// Generated sessions over every container; arms of every preset (their configurations'
    /// behaviour mixes), `count` of them.
    static func sessions(_ count: Int, seed: UInt64) throws -> [SyntheticSession] {
        var c = SyntheticLogConfiguration(sessions: count, seed: seed)
        c.arms = PressConfiguration.presets.map { SyntheticArm(variant: $0.name, config: $0.name) }
        c.containers = Container.named.map { ContainerShare($0) }
        var g = try SyntheticSessionGenerator(c)
        var out: [SyntheticSession] = []
        while let s = g.next() { out.append(s) }
        return out
    }

    // 3,000 generated sessions, each under every preset and the three configurations above:
    // every figure of the result, the classification's events, the visual metrics and the frames
    // a chart draws are bit for bit the reference's.
    @Test func optimisedModelGivesTheReferenceBitForBit() throws {
        var compared = 0
        for s in try Self.sessions(3_000, seed: 20) {
            let samples = s.samples.map(\.touchSample)
            for configuration in PressConfiguration.presets + Self.extraConfigurations {
                let trace = try Replay.trace(samples, frame: s.attributes.frame, container: s.attributes.container ?? .none,
                                             scrollAxis: s.attributes.scrollAxis ?? .vertical, configuration: configuration)
                let c = trace.classification
                let events = referenceScaleEvents(c, configuration)
                #expect(c.scaleEvents == events, "\(s.id) \(configuration.name)")
                let reference = try ReferenceTimeline(animation: configuration.animation, events: events)
                let (feedback, jump, depth) = reference.metrics(width: c.frame.width, height: c.frame.height)
                let v = trace.visual
                #expect(same(v.feedbackLatency, feedback) && same(v.releaseJump, jump) && same(v.pressDepth, depth),
                        "\(s.id) \(configuration.name): \(v) vs \((feedback, jump, depth))")
                #expect(trace.timeline.changeInstants == reference.changeInstants)
                let end = (reference.changeInstants.last ?? 0) + 0.05
                let frames = trace.frames(until: end)
                #expect(frames.count == Int((end * 60 + 1e-9).rounded(.down)) + 1)
                for f in frames where f.scale.bitPattern != reference.scale(at: f.t).bitPattern {
                    Issue.record("\(s.id) \(configuration.name): scale at \(f.t) is \(f.scale), reference \(reference.scale(at: f.t))")
                    break
                }
                for t in reference.changeInstants {
                    #expect(trace.timeline.scale(justBefore: t).bitPattern == reference.scale(justBefore: t).bitPattern)
                }
                let r = trace.result
                // Without the control events kept (what `Replay.session` does: the scale events
                // made as the control emits its events): the same classification otherwise, and
                // the same result.
                var lean = PressClassifier.classify(samples, frame: s.attributes.frame,
                                                    container: s.attributes.container ?? .none,
                                                    scrollAxis: s.attributes.scrollAxis ?? .vertical,
                                                    configuration: configuration, keepingControlEvents: false)
                #expect(lean.controlEvents.isEmpty)
                lean.controlEvents = c.controlEvents
                #expect(lean == c, "\(s.id) \(configuration.name)")
                let alone = try Replay.session(samples, frame: s.attributes.frame, container: s.attributes.container ?? .none,
                                               scrollAxis: s.attributes.scrollAxis ?? .vertical, configuration: configuration)
                #expect(alone == r, "\(s.id) \(configuration.name)")
                let ms = { (x: Double) in Replay.stored(x * 1000, decimals: 6) }
                #expect(same(r.feedbackLatencyMs, feedback.map(ms)) && same(r.releaseJumpPt, Replay.stored(jump, decimals: 6))
                        && same(r.pressDepth, Replay.stored(depth, decimals: 6)))
                compared += 1
            }
        }
        #expect(compared == 3_000 * (PressConfiguration.presets.count + Self.extraConfigurations.count))
    }

    // Event sequences no finger makes: 2–9 presses and releases at random times in [0, 0.4] s,
    // some at the same instant, so up to nine animations overlap (additive sums of many terms,
    // keys replaced again and again). Every frame, change instant and metric bit for bit.
    @Test func manyOverlappingAnimationsGiveTheReferenceBitForBit() throws {
        var random = SplitMix64(seed: 20)
        for configuration in PressConfiguration.presets + Self.extraConfigurations {
            for _ in 0..<300 {
                var events: [TimedScaleEvent] = []
                for _ in 0..<(2 + random.below(8)) {
                    let time = random.bernoulli(0.2) ? (events.last?.time ?? 0) : Double(random.below(400)) / 1000
                    events.append(TimedScaleEvent(time: time, event: random.bernoulli(0.5) ? .press : .release))
                }
                let timeline = try ScaleTimeline(animation: configuration.animation, events: events)
                let reference = try ReferenceTimeline(animation: configuration.animation, events: events)
                #expect(timeline.changeInstants == reference.changeInstants)
                for k in 0...60 {
                    let t = Double(k) / 100
                    #expect(timeline.scale(at: t).bitPattern == reference.scale(at: t).bitPattern, "\(configuration.name) \(events) at \(t)")
                    #expect(timeline.scale(justBefore: t).bitPattern == reference.scale(justBefore: t).bitPattern)
                }
                for t in reference.changeInstants {
                    #expect(timeline.scale(at: t).bitPattern == reference.scale(at: t).bitPattern)
                    #expect(timeline.scale(justBefore: t).bitPattern == reference.scale(justBefore: t).bitPattern)
                }
                let v = try VisualMetrics(timeline: timeline, touchDown: 0, width: 60, height: 44)
                let (feedback, jump, depth) = reference.metrics(width: 60, height: 44)
                #expect(same(v.feedbackLatency, feedback) && same(v.releaseJump, jump) && same(v.pressDepth, depth))
            }
        }
    }
}

// The frame scan stops once `ScaleTimeline.scaleBounds` shows the remaining frames
// cannot change the first visible frame or the press depth. Against the reference's scan of every
// frame up to the settled time, on generated sessions over every container, under every preset,
// the configurations above and springs whose bounds take the other branches (critical with its
// envelope's peak after the start, undamped), on 60 and 120 Hz displays and two densities: every
// field of the stored result, and the visual metrics bit for bit.
@Suite struct FrameScanStopTests {
    static let boundConfigurations: [PressConfiguration] = {
        let held = LayerAnimationOptions(key: "scale", fillMode: .forwards, isRemovedOnCompletion: false)
        return [
            // Critical (ζ = 1), B = ω₀ − v₀ = −20: |B| > ω₀, the envelope rises until 0.05 s.
            PressConfiguration(name: "critical-fast", gesture: .control(ControlGesture()), animation: PressAnimation(
                press: .caSpring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 30, duration: 0.5, options: held),
                release: .uiViewSpring(duration: 0.3, dampingRatio: 1, initialSpringVelocity: 40), pressedScale: 0.92)),
            // Undamped: the envelope never decays, so the scan runs to the cut.
            PressConfiguration(name: "undamped", gesture: .control(ControlGesture()), animation: PressAnimation(
                press: .caSpring(mass: 1, stiffness: 200, damping: 0, initialVelocity: 0, duration: 0.3,
                                 options: LayerAnimationOptions(key: "press")),
                release: .uiViewSpring(duration: 0.6, dampingRatio: 0.2, initialSpringVelocity: -2), pressedScale: 1.05)),
        ]
    }()

    // The bounds themselves, by brute force: every scale on a 0.5 ms grid from t to the next
    // event lies within `scaleBounds(from: t)`: UIView springs pressed and released in turn
    // (several additive springs at once), a held spring replaced by a linear release, and linear
    // curves, additive and hand-added (the bound of a monotonic curve: between its value now and
    // its end).
    @Test func boundsHoldOnAFineGrid() throws {
        let linearHeld = LayerAnimationOptions(key: "shrink", fromValue: 1.3, fillMode: .forwards, isRemovedOnCompletion: false)
        let animations = [
            PressConfiguration.springPress.animation,
            PressConfiguration.expandDelayedClick.animation,
            PressAnimation(press: .uiViewSpring(duration: 0.6, dampingRatio: 0.2, initialSpringVelocity: -2),
                           release: .uiViewSpring(duration: 0.6, dampingRatio: 0.2, initialSpringVelocity: -2), pressedScale: 1.05),
            PressAnimation(press: .uiViewCurve(duration: 0.3, curve: .linear),
                           release: .caBasic(duration: 0.25, curve: .linear, options: linearHeld), pressedScale: 0.9),
        ]
        // Press/release times: a tap, drag exits and entries close together, a press and a release at once.
        let eventSets: [[TimedScaleEvent]] = [
            [.init(time: 0, event: .press), .init(time: 0.1, event: .release)],
            [.init(time: 0, event: .press), .init(time: 0.05, event: .release), .init(time: 0.09, event: .press),
             .init(time: 0.13, event: .release), .init(time: 0.3, event: .press), .init(time: 0.32, event: .release)],
            [.init(time: 0, event: .press), .init(time: 0.2, event: .release), .init(time: 0.2, event: .press),
             .init(time: 0.45, event: .release)],
        ]
        var checked = 0
        for animation in animations {
            for events in eventSets {
                let timeline = try ScaleTimeline(animation: animation, events: events)
                var t = 0.0
                while t < 1.2 {
                    if let b = timeline.scaleBounds(from: t) {
                        var u = t
                        while u < min(b.until - 1e-8, 1.3) {
                            let s = timeline.scale(at: u)
                            #expect(s >= b.lower && s <= b.upper, "\(animation) \(events.count) events: scale(at: \(u)) = \(s) outside \(b) from \(t)")
                            checked += 1
                            u += 5e-4
                        }
                    }
                    t += 1.0 / 120
                }
            }
        }
        #expect(checked > 100_000)
    }

    @Test func stoppedScanGivesEveryFigureOfTheFullScan() throws {
        let displays = [Display(refreshRate: 60, density: 3), Display(refreshRate: 120, density: 3),
                        Display(refreshRate: 120, density: 2)]
        let configurations = PressConfiguration.presets + ModelEquivalenceTests.extraConfigurations + Self.boundConfigurations
        var compared = 0
        for s in try ModelEquivalenceTests.sessions(800, seed: 2026) {
            let samples = s.samples.map(\.touchSample)
            for configuration in configurations {
                for display in displays {
                    let trace = try Replay.trace(samples, frame: s.attributes.frame, container: s.attributes.container ?? .none,
                                                 scrollAxis: s.attributes.scrollAxis ?? .vertical,
                                                 configuration: configuration, display: display)
                    let c = trace.classification
                    let reference = try ReferenceTimeline(animation: configuration.animation, events: c.scaleEvents)
                    let (feedback, jump, depth) = reference.metrics(width: c.frame.width, height: c.frame.height,
                                                                    refreshRate: display.refreshRate, density: display.density)
                    let v = trace.visual
                    #expect(same(v.feedbackLatency, feedback) && same(v.releaseJump, jump) && same(v.pressDepth, depth),
                            "\(s.id) \(configuration.name) \(display): \(v) vs \((feedback, jump, depth))")
                    let ms = { (x: Double) in Replay.stored(x * 1000, decimals: 6) }
                    let expected = SessionResult(
                        outcome: c.outcome, cancelReason: c.cancelReason, actionFired: c.actionFired,
                        feedbackLatencyMs: feedback.map(ms), actionLatencyMs: c.actionLatency.map(ms),
                        durationMs: ms(c.duration), maxTravelPt: Replay.stored(c.maxTravel, decimals: 6),
                        pressDepth: Replay.stored(depth, decimals: 6), releaseJumpPt: Replay.stored(jump, decimals: 6),
                        // The photon latencies add the display's fixed components (docs/press-model.md §6).
                        feedbackPhotonMs: feedback.map { ms(PhotonLatency.feedback($0, on: display)) },
                        actionPhotonMs: c.actionLatency.map { ms(PhotonLatency.action($0, on: display)) })
                    let r = try Replay.session(samples, attributes: s.attributes, configuration: configuration, display: display)
                    #expect(r == expected, "\(s.id) \(configuration.name) \(display)")
                    #expect(same(r.feedbackLatencyMs, expected.feedbackLatencyMs) && same(r.pressDepth, expected.pressDepth)
                            && same(r.releaseJumpPt, expected.releaseJumpPt))
                    compared += 1
                }
            }
        }
        #expect(compared == 800 * configurations.count * displays.count)
    }
}
