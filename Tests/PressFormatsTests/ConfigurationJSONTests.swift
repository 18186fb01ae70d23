// Configuration JSON: round trips, bases and overrides, field-naming errors, containers.
import Foundation
import Testing
import PressCore
@testable import PressFormats

@Suite struct ConfigurationJSONTests {
    func error(_ text: String) -> ConfigurationJSONError? {
        do { _ = try ConfigurationJSON.parse(text); return nil } catch let e as ConfigurationJSONError { return e } catch { return nil }
    }

    // encode → parse gives every preset back, and a user configuration with every kind of field.
    @Test func roundTrips() throws {
        for preset in PressConfiguration.presets {
            #expect(try ConfigurationJSON.parse(ConfigurationJSON.encode(preset)) == preset)
        }
        let custom = PressConfiguration(
            name: "custom \"quoted\"",
            gesture: .longPress(LongPressGesture(minimumPressDuration: 0.25, allowableMovement: 12.5, safeArea: nil)),
            animation: PressAnimation(press: .caBasic(duration: 0.1, curve: .cubicBezier(x1: 0.2, y1: -0.5, x2: 0.8, y2: 1.5),
                                                      options: LayerAnimationOptions(key: "k")),
                                      release: .uiViewCurve(duration: 0.3, curve: .default), pressedScale: 0.9),
            actionRule: .anyRelease, actionDelay: 0.125)
        let text = ConfigurationJSON.encode(custom)
        #expect(try ConfigurationJSON.parse(text) == custom)
        #expect(text.contains(#""safe_area":null"#) && text.contains(#""curve":[0.2,-0.5,0.8,1.5]"#))
    }

    // Feedback and the SwiftUI spring: read as written, errors naming the field.
    @Test func feedbackFields() throws {
        let c = try ConfigurationJSON.parse(#"""
            {"name":"dim","base":"spring-press","feedback":{"kind":"opacity","content":"#FF0000","background":"000000"},
             "pressed_scale":0,"press_animation":{"kind":"swiftui-spring","response":0.3,"damping_fraction":0.7}}
            """#)
        #expect(c.animation.feedback == .opacity(content: RGB8(red: 255, green: 0, blue: 0), background: RGB8(red: 0, green: 0, blue: 0)))
        #expect(c.animation.pressedScale == 0)
        #expect(c.animation.press == .swiftUISpring(response: 0.3, dampingFraction: 0.7))
        // A scale of 0 is still refused; a colour must be #rrggbb.
        #expect(error(#"{"name":"x","base":"spring-press","pressed_scale":0}"#)?.field == "pressed_scale")
        #expect(error(##"{"name":"x","base":"spring-press","feedback":{"kind":"color","from":"#fff","to":"#000000"}}"##)?.field
                == "feedback.from")
        #expect(error(#"{"name":"x","base":"spring-press","feedback":{"kind":"glow"}}"#)?.field == "feedback.kind")
        #expect(error(#"{"name":"x","base":"longpress-safe-area","coalesces_simultaneous_updates":true}"#)?.field
                == "coalesces_simultaneous_updates")
        // A UIView animation of duration 0 is an immediate change; a Core Animation one needs a duration.
        #expect(try ConfigurationJSON.parse(#"{"name":"x","base":"spring-press","press_animation":{"kind":"uiview-curve","duration":0}}"#)
                .animation.press == .uiViewCurve(duration: 0, curve: .easeInEaseOut))
        #expect(error(#"{"name":"x","base":"spring-press","press_animation":{"kind":"ca-basic","duration":0}}"#)?.field
                == "press_animation.duration")
    }

    // A record starting from a preset: only the given fields change. spring-press with a softer
    // scale and the iPad margin.
    @Test func baseAndOverrides() throws {
        let c = try ConfigurationJSON.parse(#"""
            {"type":"config","name":"soft-press","base":"spring-press","pressed_scale":0.97,"retention_margin":25,
             "press_events":["touch_down"]}
            """#)
        var expected = PressConfiguration.springPress
        expected.name = "soft-press"
        expected.animation.pressedScale = 0.97
        expected.gesture = .control(ControlGesture(retentionMargin: 25, pressEvents: [.touchDown],
                                                   releaseEvents: ControlGesture.defaultReleaseEvents))
        #expect(c == expected)
        // Changing the gesture kind starts from that kind's defaults; the animations stay the base's.
        let lp = try ConfigurationJSON.parse(#"{"name":"spring-hold","base":"spring-press","gesture":"long-press"}"#)
        #expect(lp.gesture == .longPress(LongPressGesture(minimumPressDuration: 0.5, allowableMovement: 10, safeArea: 5)))
        #expect(lp.animation == PressConfiguration.springPress.animation)
    }

    // A configuration without a base, with defaults for what it leaves out.
    @Test func freshConfigurationWithDefaults() throws {
        let c = try ConfigurationJSON.parse(#"""
            {"name":"plain","gesture":"control","pressed_scale":0.9,
             "press_animation":{"kind":"ca-spring","duration":0.5},
             "release_animation":{"kind":"uiview-curve","duration":0.25}}
            """#)
        #expect(c.gesture == .control(ControlGesture()))
        // CASpringAnimation's defaults: mass 1, stiffness 100, damping 10, initialVelocity 0.
        #expect(c.animation.press == .caSpring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0, duration: 0.5,
                                               options: LayerAnimationOptions(key: "press")))
        #expect(c.animation.release == .uiViewCurve(duration: 0.25, curve: .easeInEaseOut))
        #expect(c.actionRule == .upInside && c.actionDelay == 0)
    }

    // A changed field in JSON gives a new version; the same text parsed twice, the same one.
    @Test func versionChangesWithAField() throws {
        let a = try ConfigurationJSON.parse(#"{"name":"x","base":"expand-delayed-click"}"#)
        let b = try ConfigurationJSON.parse(#"{"name":"x","base":"expand-delayed-click","action_delay":0.2}"#)
        let a2 = try ConfigurationJSON.parse(ConfigurationJSON.encode(a))
        #expect(a.version != b.version && a.version == a2.version)
    }

    // Errors name the field and say what is allowed.
    @Test func malformedConfigurationsNameTheField() {
        let badKind = error(#"{"name":"x","base":"spring-press","press_animation":{"kind":"spring","duration":1}}"#)
        #expect(badKind?.field == "press_animation.kind")
        #expect(badKind?.message.contains("uiview-spring") == true && badKind?.message.contains("ca-basic") == true)

        #expect(error(#"{"base":"spring-press"}"#)?.field == "name")
        #expect(error(#"{"name":"x","base":"spring-press","pressed_scale":"big"}"#)?.field == "pressed_scale")
        #expect(error(#"{"name":"x","base":"spring-press","pressed_scale":0}"#)?.message.contains("> 0") == true)
        #expect(error(#"{"name":"x","base":"spring-press","pressed_scale":true}"#)?.field == "pressed_scale")
        #expect(error(#"{"name":"x","base":"nope"}"#)?.message.contains("spring-press") == true)
        #expect(error(#"{"name":"x","base":"spring-press","press_events":["touchDown","tap"]}"#)?.field == "press_events[1]")
        #expect(error(#"{"name":"x","base":"spring-press","safe_area":5}"#)?.field == "safe_area")
        #expect(error(#"{"name":"x","base":"longpress-safe-area","retention_margin":25}"#)?.field == "retention_margin")
        #expect(error(#"{"name":"x","base":"spring-press","colour":"red"}"#)?.field == "colour")
        #expect(error(#"{"name":"x","base":"spring-press","action":"on_tap"}"#)?.message.contains("any_release") == true)
        #expect(error(#"{"name":"x","gesture":"control","pressed_scale":0.9}"#)?.field == "press_animation")
        #expect(error(#"{"name":"x","pressed_scale":0.9}"#)?.field == "gesture")
        #expect(error(#"{"type":"touch","name":"x","base":"spring-press"}"#)?.field == "type")
        // Booleans are not numbers and numbers are not booleans (JSONSerialization gives NSNumber for both).
        #expect(error(#"{"name":"x","base":"spring-press","release_animation":{"kind":"ca-basic","duration":0.2,"removed_on_completion":1}}"#)?
            .field == "release_animation.removed_on_completion")
        #expect(error(#"{"name":"x","base":"spring-press","release_animation":{"kind":"uiview-curve","duration":0.2,"curve":[1.5,0,0.5,1]}}"#)?
            .field == "release_animation.curve")
        #expect(error(#"{"name":"x","base":"spring-press","release_animation":{"kind":"uiview-spring","duration":0.2}}"#)?
            .field == "release_animation.damping_ratio")
        let notJSON = error(#"{"name":"x","#)
        #expect(notJSON?.field == "" && notJSON?.message.hasPrefix("not valid JSON") == true)
        #expect(error("[1]")?.field == "")
    }

    // A file may hold several configurations, later ones built on earlier ones.
    @Test func fileWithSeveralConfigurations() throws {
        let cs = try ConfigurationJSON.parseFile(#"""
            [{"name":"a","base":"spring-press","pressed_scale":0.9},
             {"name":"b","base":"a","action_delay":0.1}]
            """#)
        #expect(cs.map(\.name) == ["a", "b"])
        #expect(cs[1].animation.pressedScale == 0.9 && cs[1].actionDelay == 0.1)
        do {
            _ = try ConfigurationJSON.parseFile(#"[{"name":"a","base":"spring-press"},{"name":"b"}]"#)
            Issue.record("expected an error")
        } catch let e as ConfigurationJSONError {
            #expect(e.field == "[1].gesture")
        }
    }

    // Containers: the four names, and reference §2.1's parameter object.
    @Test func containers() throws {
        #expect(try ConfigurationJSON.container(from: "table") == .table)
        #expect(try ConfigurationJSON.container(fromText: "scroll-immediate") == .scrollImmediate)
        let custom = try ConfigurationJSON.container(fromText:
            #"{"delays_content_touches": false, "cancels_control_touches": true, "touch_delay": 0.2, "hysteresis": 8}"#)
        #expect(custom == Container(delaysContentTouches: false, cancelsControlTouches: true, touchDelay: 0.2, hysteresis: 8))
        // The parameters of a named container give that container.
        #expect(try ConfigurationJSON.container(fromText:
            #"{"delays_content_touches": false, "cancels_control_touches": true, "touch_delay": 0.15, "hysteresis": 10}"#)
            == .scrollImmediate)
        #expect(try ConfigurationJSON.container(fromText: "{}") == .scroll)  // UIScrollView's defaults
        #expect(throws: ConfigurationJSONError.self) { try ConfigurationJSON.container(from: "list") }
        do {
            _ = try ConfigurationJSON.container(fromText: #"{"delay": 0.1}"#, field: "container")
            Issue.record("expected an error")
        } catch let e as ConfigurationJSONError {
            #expect(e.field == "container.delay" && e.message.contains("touch_delay"))
        }
        do {
            _ = try ConfigurationJSON.container(from: 3)
            Issue.record("expected an error")
        } catch let e as ConfigurationJSONError {
            #expect(e.field == "container" && e.message.contains("scroll-immediate"))
        }
        #expect(try ConfigurationJSON.scrollAxis(from: "both") == .both)
        #expect(throws: ConfigurationJSONError.self) { try ConfigurationJSON.scrollAxis(from: "diagonal") }
    }

    // docs/configurations.md writes the presets out: those blocks must parse to the presets.
    @Test func documentedPresetsParse() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/configurations.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let blocks = text.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count == 9)
        let parsed = try blocks.map { try ConfigurationJSON.parse($0) }
        guard parsed.count == 9 else { return }
        // The reference's three, the user example, then the five press styles.
        #expect(Array(parsed.prefix(3)) == Array(PressConfiguration.presets.prefix(3)))
        #expect(parsed[3].name == "soft-press" && parsed[3].animation.pressedScale == 0.97)
        #expect(Array(parsed.suffix(5)) == Array(PressConfiguration.presets.suffix(5)))
        for preset in PressConfiguration.presets { #expect(text.contains("version `\(preset.version)`")) }
    }
}
