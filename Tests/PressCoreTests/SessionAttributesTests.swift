// The field table and the merge rule of docs/log-format.md §1: a value not given before is
// added, the same value again is fine, a different value is a conflict.
import Testing
@testable import PressCore

@Suite struct SessionAttributesTests {
    // The keys documented in docs/log-format.md ("Fields of a touch record") and the columns of
    // the `sessions` table ("frame_x, frame_y, frame_w, frame_h" for the frame).
    @Test func theTableNamesTheDocumentedKeysAndColumns() {
        #expect(Set(SessionAttribute.allCases.map(\.key))
                == ["config", "variant", "control", "frame", "container", "scroll_axis", "user", "device", "app_version", "screen",
                    "display", "window", "system_gestures"])
        #expect(SessionAttribute.frame.field.columns == ["frame_x", "frame_y", "frame_w", "frame_h"])
        #expect(SessionAttribute.columns.count == 16)
        #expect(SessionAttribute.named("app_version") == .appVersion && SessionAttribute.named("frame_x") == nil)
        // docs/reports.md: --by config, variant, control, screen, app_version; --where also user, device, display.
        #expect(SessionAttribute.reportGroupings.map(\.key) == ["config", "variant", "control", "screen", "app_version"])
        #expect(SessionAttribute.reportFilters.map(\.key) == ["config", "variant", "control", "screen", "app_version", "user", "device", "display"])
    }

    @Test func emptyMeansNothingGivenHoweverItWasBuilt() {
        var a = SessionAttributes()
        #expect(a.isEmpty && !a.hasAnyValue)
        a[.user] = "u1"
        #expect(a.hasAnyValue && a != SessionAttributes())
        a[.user] = nil
        #expect(a.isEmpty && a == SessionAttributes() && a.hashValue == SessionAttributes().hashValue)
        a.setExtraFields([ExtraField(key: "k", json: "1")])
        #expect(a.hasAnyValue && a.extra == #"{"k":1}"#)
    }

    @Test func mergeFillsRepeatsAndRejectsDifferences() {
        var a = SessionAttributes(config: "spring-press", text: [.user: "u1"])
        #expect(a.merge(SessionAttributes(config: "spring-press", frame: Rect(x: 1, y: 2, width: 30, height: 40))) == nil)
        #expect(a.frame == Rect(x: 1, y: 2, width: 30, height: 40) && a[.user] == "u1")
        let before = a
        #expect(a.merge(SessionAttributes(config: "other")) == #""config" "other" differs from "spring-press" given earlier"#)
        #expect(a.merge(SessionAttributes(frame: Rect(x: 1, y: 2, width: 30, height: 41)))
                == #""frame" [1.0, 2.0, 30.0, 41.0] differs from [1.0, 2.0, 30.0, 40.0] given earlier"#)
        #expect(a.merge(SessionAttributes(container: .scroll)) == nil)
        #expect(a.merge(SessionAttributes(container: .table)) == #""container" table differs from scroll given earlier"#)
        #expect(a.merge(SessionAttributes(text: [.device: "d"])) == nil)
        #expect(a[.device] == "d" && a.container == .scroll && a.config == before.config)
    }

    @Test func extraFieldsMergeKeyByKeySorted() {
        var a = SessionAttributes(extraFields: [ExtraField(key: "b", json: "2")])
        #expect(a.merge(SessionAttributes(extraFields: [ExtraField(key: "a", json: "\"x\"")])) == nil)
        #expect(a.extra == #"{"a":"x","b":2}"#)
        #expect(a.merge(SessionAttributes(extraFields: [ExtraField(key: "b", json: "3")]))
                == #"extra field "b" 3 differs from 2 given earlier"#)
        #expect(a.extra == #"{"a":"x","b":2}"#)
    }

    // docs/log-format.md, `sessions.container`: parameters as an object with all four keys, sorted.
    @Test func customContainerStoredText() {
        let c = Container(name: nil, delaysContentTouches: false, cancelsControlTouches: true, touchDelay: 0.15, hysteresis: 10)
        #expect(c.storedText == #"{"cancels_control_touches":true,"delays_content_touches":false,"hysteresis":10,"touch_delay":0.15}"#)
        #expect(Container.scrollImmediate.storedText == "scroll-immediate")
    }
}
