// A replay in two parts — the classification, then the animations — gives what the whole replay
// gives, and the animations resolved once give what they give resolved per session.
import Testing
@testable import PressCore

@Suite struct ReplayPartsTests {
    // 1,500 synthetic sessions (taps, drags, flicks, cancels in every container) under the three
    // presets and a softer spring: the same result, field for field, and the same frames.
    @Test func twoPartsGiveTheWholeReplay() throws {
        var generator = try SyntheticSessionGenerator(SyntheticLogConfiguration(sessions: 1500, seed: 31))
        var soft = PressConfiguration.springPress
        soft.animation.press = .uiViewSpring(duration: 0.3, dampingRatio: 0.8, initialSpringVelocity: 0)
        let configurations = PressConfiguration.presets + [soft]
        let resolved = configurations.map { ResolvedPressAnimation($0.animation) }
        var count = 0
        while let s = generator.next() {
            let samples = s.samples.map(\.touchSample)
            let container = s.attributes.container ?? .none, axis = s.attributes.scrollAxis ?? .vertical
            for (c, r) in zip(configurations, resolved) {
                let whole = try Replay.trace(samples, frame: s.attributes.frame, container: container, scrollAxis: axis, configuration: c)
                let classification = PressClassifier.classify(samples, frame: s.attributes.frame, container: container,
                                                              scrollAxis: axis, configuration: c)
                let parts = try Replay.trace(classification, resolved: r)
                #expect(parts.result == whole.result, "\(s.id) \(c.name)")
                #expect(try Replay.trace(classification, animation: c.animation).result == whole.result)
                #expect(parts.frames(until: 0.6) == whole.frames(until: 0.6))
                count += 1
            }
        }
        #expect(count == 1500 * configurations.count)
    }

    // An invalid animation is an error only when an event uses it, resolved or not.
    @Test func resolvedErrorsAreThrownWhenUsed() throws {
        let bad = PressAnimation(press: .uiViewCurve(duration: 0.2, curve: .easeInEaseOut),
                                 release: .caBasic(duration: 0, curve: .linear, options: LayerAnimationOptions(key: "k")),
                                 pressedScale: 0.95)
        let pressOnly = [TimedScaleEvent(time: 0, event: .press)]
        let both = pressOnly + [TimedScaleEvent(time: 0.1, event: .release)]
        #expect(throws: Never.self) { try ScaleTimeline(resolved: ResolvedPressAnimation(bad), events: pressOnly) }
        #expect(throws: AnimationParameterError.self) { try ScaleTimeline(resolved: ResolvedPressAnimation(bad), events: both) }
        #expect(throws: AnimationParameterError.self) { try ScaleTimeline(animation: bad, events: both) }
    }
}
