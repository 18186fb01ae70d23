// Layout files and control records → Layout, and the attributes a hit gives a session.
import Foundation
import Testing
import PressCore
@testable import PressFormats

@Suite struct LayoutJSONTests {
    static let file = """
    {"controls": [
      {"id": "card", "frame": [0, 0, 320, 200], "container": "none"},
      {"id": "ok", "frame": [200, 120, 88, 44], "container": "scroll", "scroll_axis": "vertical", "config": "spring-press"},
      {"id": "row", "frame": [0, 300, 320, 44],
       "container": {"delays_content_touches": false, "cancels_control_touches": true, "touch_delay": 0.1, "hysteresis": 12}}
    ]}
    """

    @Test func readsAControlsFile() throws {
        let layout = try LayoutJSON.parse(Data(Self.file.utf8), file: "layout.json")
        #expect(layout.controls.map(\.id) == ["card", "ok", "row"])
        #expect(layout.controls[1] == LayoutControl(id: "ok", frame: Rect(x: 200, y: 120, width: 88, height: 44),
                                                    container: .scroll, scrollAxis: .vertical, config: "spring-press"))
        #expect(layout.controls[0].container == Container.none)
        #expect(layout.controls[2].container == Container(name: nil, delaysContentTouches: false, cancelsControlTouches: true,
                                                          touchDelay: 0.1, hysteresis: 12))
    }

    @Test func readsControlRecordsLineByLine() throws {
        let ndjson = """
        {"type":"control","id":"a","frame":[0,0,10,10]}

        {"type":"control","id":"b","frame":[5,5,10,10],"container":{"delays_content_touches":false}}
        """
        let layout = try LayoutJSON.parse(Data(ndjson.utf8), file: "layout.ndjson")
        #expect(layout.controls.map(\.id) == ["a", "b"])
        // Missing container parameters take the `scroll` container's values.
        #expect(layout.controls[1].container == Container(name: nil, delaysContentTouches: false, cancelsControlTouches: false))
        #expect(try LayoutJSON.controlRecord(line: #"{"type":"control","id":"z","frame":[1,2,3,4]}"#).frame
                == Rect(x: 1, y: 2, width: 3, height: 4))
    }

    @Test(arguments: [
        (#"{"controls":[{"id":"a","frame":[0,0,10]}]}"#, "frame"),
        (#"{"controls":[{"id":"a","frame":[0,0,10,-1]}]}"#, "frame"),
        (#"{"controls":[{"id":"a","frame":[0,true,10,10]}]}"#, "frame"),
        (#"{"controls":[{"frame":[0,0,10,10]}]}"#, "\"id\""),
        (#"{"controls":[{"id":"a","frame":[0,0,1,1],"container":"sideways"}]}"#, "unknown container"),
        (#"{"controls":[{"id":"a","frame":[0,0,1,1],"container":{"delays":true}}]}"#, "unknown container parameter"),
        (#"{"controls":[{"id":"a","frame":[0,0,1,1],"container":{"delays_content_touches":1}}]}"#, "true or false"),
        (#"{"controls":[{"id":"a","frame":[0,0,1,1],"scroll_axis":"diagonal"}]}"#, "scroll_axis"),
        (#"{"controls":[{"id":"a","frame":[0,0,1,1],"colour":"red"}]}"#, "unknown control field"),
        (#"{"buttons":[]}"#, "layout is"),
        ("{\"type\":\"control\",\"id\":\"a\",\"frame\":[0,0,1,1]}\n{\"type\":\"touch\"}", "layout.json:2"),
    ])
    func badLayoutsSayWhy(_ json: String, _ reason: String) {
        do {
            _ = try LayoutJSON.parse(Data(json.utf8), file: "layout.json")
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }

    @Test func hitGivesTheControlsAttributesMissKeepsTheDefaults() throws {
        let layout = try LayoutJSON.parse(Data(Self.file.utf8), file: "layout.json")
        let defaults = SessionAttributes(config: "expand-delayed-click", container: .table, text: [.user: "u1"])
        // (288, 164) is ok's bottom-right corner (200 + 88, 120 + 44): inside, and ok lies on card.
        let hit = layout.sessionAttributes(touchDown: Point(x: 288, y: 164), defaults: defaults)
        #expect(hit == SessionAttributes(config: "spring-press", control: "ok",
                                         frame: Rect(x: 200, y: 120, width: 88, height: 44),
                                         container: .scroll, scrollAxis: .vertical, text: [.user: "u1"]))
        // card gives no config: the default stays.
        let card = layout.sessionAttributes(touchDown: Point(x: 10, y: 10), defaults: defaults)
        #expect(card.control == "card" && card.config == "expand-delayed-click" && card.container == Container.none)
        // (10, 250) hits nothing: the defaults, no control, no frame (the 44 × 44 pt default).
        #expect(layout.sessionAttributes(touchDown: Point(x: 10, y: 250), defaults: defaults) == defaults)
    }

    // The reader applies the layout at each contact's touch-down: in the two-finger recording the
    // first finger lands at raw (539, 167), the second at (222, 306) (EvemuRecordingTests); with
    // 1 px per pt and px = raw, a control at (500, 150, 50, 20) holds only the first.
    @Test(.enabled(if: SharedRecordings.available, "the shared recordings (../shared/data beside the package) are not here"))
    func readerHitTestsEachTouchDown() throws {
        let file = "evemu/Atmel-maXTouch-Touchscreen.2-fingers-touch-release.events"
        let layout = Layout(controls: [LayoutControl(id: "send", frame: Rect(x: 500, y: 150, width: 50, height: 20))])
        let options = DeviceLogOptions(layout: layout, attributes: SessionAttributes(config: "spring-press", container: Container.none))
        let result = DeviceLogReader.readAll(try SharedRecordings.bytes(file), format: .evemu, file: file, options: options)
        let began = result.records.filter { $0.sample.phase == .began }
        #expect(began.map(\.attributes.control) == ["send", nil])
        #expect(began.map(\.attributes.config) == ["spring-press", "spring-press"])
        #expect(began[1].attributes == SessionAttributes(config: "spring-press", container: Container.none))
        #expect(result.records.filter { $0.sample.phase != .began }.allSatisfy { $0.attributes.isEmpty })
    }
}
