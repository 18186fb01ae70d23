// The built-in configurations against reference §1's table, canonical JSON and content versions.
import Testing
@testable import PressCore

@Suite struct ConfigurationTests {
    // Reference §1, spring-press row; seeds/spring-press-uibutton.txt.
    @Test func springPressMatchesTheTable() throws {
        let c = PressConfiguration.springPress
        guard case .control(let g) = c.gesture else { Issue.record("not a control"); return }
        #expect(g.retentionMargin == 70)
        #expect(g.pressEvents == [.touchDown, .touchDragEnter])
        #expect(g.releaseEvents == [.touchDragExit, .touchCancel, .touchUpInside, .touchUpOutside])
        let spring = AnimationSpec.uiViewSpring(duration: 0.4, dampingRatio: 0.5, initialSpringVelocity: 3)
        #expect(c.animation == PressAnimation(press: spring, release: spring, pressedScale: 0.95))
        #expect(c.actionRule == .upInside && c.actionDelay == 0)
    }

    // Reference §1, expand-delayed-click row; seeds/expand-press-delayed-click.txt.
    @Test func expandDelayedClickMatchesTheTable() {
        let c = PressConfiguration.expandDelayedClick
        #expect(c.pressEvents == [.touchDown])
        #expect(c.releaseEvents == [.touchUpInside, .touchUpOutside, .touchCancel])
        #expect(c.animation.press == .caSpring(mass: 1, stiffness: 100, damping: 1.0, initialVelocity: 0.8, duration: 0.2,
                                               options: LayerAnimationOptions(key: "expand", fromValue: 1,
                                                                              fillMode: .forwards,
                                                                              isRemovedOnCompletion: false)))
        #expect(c.animation.release == .caBasic(duration: 0.2, curve: .linear,
                                                options: LayerAnimationOptions(key: "shrink", fromValue: 1.3,
                                                                               fillMode: .forwards,
                                                                               isRemovedOnCompletion: false)))
        #expect(c.animation.pressedScale == 1.3)
        #expect(c.actionRule == .anyRelease && c.actionDelay == 0.3)
    }

    // Reference §1, longpress-safe-area row; seeds/longpress-safe-area.txt.
    @Test func longPressSafeAreaMatchesTheTable() {
        let c = PressConfiguration.longPressSafeArea
        #expect(c.gesture == .longPress(LongPressGesture(minimumPressDuration: 0, allowableMovement: 10, safeArea: 5)))
        #expect(c.animation == PressAnimation(press: .uiViewCurve(duration: 0.2, curve: .easeInEaseOut),
                                              release: .uiViewCurve(duration: 0.3, curve: .easeInEaseOut),
                                              pressedScale: 0.95))
        #expect(c.actionRule == .upInside && c.actionDelay == 0 && c.pressEvents.isEmpty)
        #expect(PressConfiguration.preset(named: "longpress-safe-area") == c)
        #expect(PressConfiguration.preset(named: "spring") == nil)
        #expect(PressConfiguration.presets.prefix(3).map(\.name) == ["spring-press", "expand-delayed-click", "longpress-safe-area"])
    }

    // Canonical JSON and versions: the expected texts are python3's
    // json.dumps(d, sort_keys=True, separators=(',', ':')) of the presets written out by hand as
    // dicts, and the versions are FNV-1a 64 of those texts computed in python3 (offset basis
    // 0xcbf29ce484222325, prime 0x100000001b3).
    @Test func presetDefinitionsAndVersions() {
        #expect(PressConfiguration.springPress.definitionJSON == #"{"action":"up_inside","action_delay":0,"gesture":"control","name":"spring-press","press_animation":{"damping_ratio":0.5,"duration":0.4,"kind":"uiview-spring","velocity":3},"press_events":["touchDown","touchDragEnter"],"pressed_scale":0.95,"release_animation":{"damping_ratio":0.5,"duration":0.4,"kind":"uiview-spring","velocity":3},"release_events":["touchDragExit","touchUpInside","touchUpOutside","touchCancel"],"retention_margin":70,"type":"config"}"#)
        #expect(PressConfiguration.springPress.version == "4535a7a4b8b8427d")
        #expect(PressConfiguration.expandDelayedClick.definitionJSON == #"{"action":"any_release","action_delay":0.3,"gesture":"control","name":"expand-delayed-click","press_animation":{"damping":1,"duration":0.2,"fill_mode":"forwards","from_value":1,"initial_velocity":0.8,"key":"expand","kind":"ca-spring","mass":1,"removed_on_completion":false,"stiffness":100},"press_events":["touchDown"],"pressed_scale":1.3,"release_animation":{"curve":"linear","duration":0.2,"fill_mode":"forwards","from_value":1.3,"key":"shrink","kind":"ca-basic","removed_on_completion":false},"release_events":["touchUpInside","touchUpOutside","touchCancel"],"retention_margin":70,"type":"config"}"#)
        #expect(PressConfiguration.expandDelayedClick.version == "3a3665c9859fa6ce")
        #expect(PressConfiguration.longPressSafeArea.definitionJSON == #"{"action":"up_inside","action_delay":0,"allowable_movement":10,"gesture":"long-press","minimum_press_duration":0,"name":"longpress-safe-area","press_animation":{"curve":"ease-in-ease-out","duration":0.2,"kind":"uiview-curve"},"pressed_scale":0.95,"release_animation":{"curve":"ease-in-ease-out","duration":0.3,"kind":"uiview-curve"},"safe_area":5,"type":"config"}"#)
        #expect(PressConfiguration.longPressSafeArea.version == "43a272460fd499c7")
    }

    // Any change to the definition changes the version; the same definition keeps it.
    @Test func versionFollowsTheDefinition() {
        let base = PressConfiguration.springPress
        var scaled = base; scaled.animation.pressedScale = 0.96
        var renamed = base; renamed.name = "spring-press-2"
        var delayed = base; delayed.actionDelay = 0.05
        var margin = base
        margin.gesture = .control(ControlGesture(retentionMargin: 25))
        let versions = [base, scaled, renamed, delayed, margin].map(\.version)
        #expect(Set(versions).count == 5)
        #expect(versions.allSatisfy { $0.count == 16 })
        var same = scaled; same.animation.pressedScale = 0.95
        #expect(same.version == base.version)
        // The version is computed once, when made and when a field changes: a changed copy has
        // the version of the same configuration made anew (FNV-1a of its definition).
        var ruled = renamed; ruled.actionRule = .anyRelease
        let anew = PressConfiguration(name: "spring-press-2", gesture: base.gesture, animation: base.animation,
                                      actionRule: .anyRelease, actionDelay: base.actionDelay)
        #expect(ruled.version == anew.version && ruled == anew)
        #expect(ruled.version == FNV1a64.hex(ruled.definitionJSON) && ruled.version != renamed.version)
    }

    // Number and string forms of the canonical writer: integral values up to 2^53 without a
    // fraction (2^53 = 9007199254740992), others in the shortest round-trip digits, which
    // python3's repr also gives: 0.1, 1e-05, 2.5e+16, 1e+300.
    @Test func canonicalJSONText() {
        let v = CanonicalJSON.object(["b": .array([.number(0.1), .number(1), .number(-0.0), .number(1e-5),
                                                   .number(2.5e16), .number(9_007_199_254_740_992), .number(.infinity)]),
                                      "a": .string("q\"\\\n\u{1}é"), "A": .bool(true), "_": .null])
        #expect(v.text == #"{"A":true,"_":null,"a":"q\"\\\n\u0001é","b":[0.1,1,0,1e-05,2.5e+16,9007199254740992,null]}"#)
        #expect(CanonicalJSON.number(1e300).text == "1e+300")
    }
}
