// Sweep definitions: specs to values, paths checked against a base, points of the grid.
import Foundation
import Testing
import PressCore
@testable import PressFormats

@Suite struct SweepSpecTests {
    func numbers(_ spec: String) throws -> [Double] {
        try SweepSpec.values(spec, part: "x=\(spec)").map { v in
            guard case .number(let x) = v else { throw SweepDefinitionError(part: "", message: "not a number: \(v)") }
            return x
        }
    }

    func failure(_ spec: String) -> String? {
        do { _ = try SweepSpec.values(spec, part: "p=\(spec)"); return nil } catch { return error.description }
    }

    // The three forms of a --vary spec. 0.3:1.0:0.1 is eight values written as a person would (0.3, not
    // 0.30000000000000004); 0.2:0.6/9 is nine values 0.05 apart, both ends included.
    @Test func listsRangesAndCounts() throws {
        #expect(try numbers("0.9,0.95,0.97") == [0.9, 0.95, 0.97])
        #expect(try numbers("0.3:1.0:0.1") == [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0])
        #expect(try numbers("0.2:0.6/9") == [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6])
        // A step that does not land on the end stops below it: 0, 0.4, 0.8.
        #expect(try numbers("0:1:0.4") == [0, 0.4, 0.8])
        #expect(try numbers("5:5:1") == [5])
        #expect(try numbers("-2:2/3") == [-2, 0, 2])
        #expect(try numbers(" 1e-3 , 2 ") == [0.001, 2])
    }

    // Lists may hold words, booleans and null (a field such as safe_area takes null, action a word).
    @Test func listsOfOtherValues() throws {
        #expect(try SweepSpec.values("true,false", part: "") == [.bool(true), .bool(false)])
        #expect(try SweepSpec.values("up_inside,any_release", part: "") == [.string("up_inside"), .string("any_release")])
        #expect(try SweepSpec.values("5,null", part: "") == [.number(5), .null])
        #expect(try SweepSpec.values(#""0.5""#, part: "") == [.string("0.5")])
    }

    // Each bad spec names the part as typed and says what is wrong.
    @Test func badSpecsSayWhy() {
        #expect(failure("") == "p=: no values after '='; give a list (0.9,0.95), a range with a step (0.3:1.0:0.1) or a count (0.2:0.6/9)")
        #expect(failure("1:0:0.1") == "p=1:0:0.1: the start 1 of '1:0:0.1' is above its end 0")
        #expect(failure("0:1:0") == "p=0:1:0: the step of '0:1:0' must be above 0, not 0")
        #expect(failure("0:1:-0.1") == "p=0:1:-0.1: the step of '0:1:-0.1' must be above 0, not -0.1")
        #expect(failure("0:1/1") == "p=0:1/1: a count needs at least 2 values, not 1 (for one value, give it as a list)")
        #expect(failure("0:1/x") == "p=0:1/x: the count after '/' in '0:1/x' must be a whole number, not 'x'")
        #expect(failure("a:1:0.1") == "p=a:1:0.1: the start of 'a:1:0.1' must be a number, not 'a'")
        #expect(failure("0:1") == "p=0:1: '0:1' is neither a range with a step (start:end:step, e.g. 0.3:1.0:0.1) nor a count (start:end/n, e.g. 0.2:0.6/9)")
        #expect(failure("0.9,,0.95") == "p=0.9,,0.95: an empty value in the list '0.9,,0.95'")
        #expect(failure("0.9,0.9") == "p=0.9,0.9: the list gives 0.9 twice")
        #expect(failure("0:1:0.0001") == "p=0:1:0.0001: 10001 values; at most 1000 (a larger step, or a count start:end/n)")
        #expect(failure("0:1/1001") == "p=0:1/1001: 1001 values; at most 1000")
        #expect(failure("1:1.0000000000001/3") == "p=1:1.0000000000001/3: '1:1.0000000000001/3' gives 1 twice at 12 significant digits; use a larger step")
    }

    @Test func parameterText() throws {
        let p = try SweepParameter(parsing: "press_animation.damping_ratio=0.3:1.0:0.1")
        #expect(p.path == "press_animation.damping_ratio" && p.values.count == 8 && p.text == "press_animation.damping_ratio=0.3:1.0:0.1")
        #expect(throws: SweepDefinitionError(part: "pressed_scale", message: "expected PATH=SPEC, e.g. press_animation.damping_ratio=0.3:1.0:0.1")) {
            try SweepParameter(parsing: "pressed_scale")
        }
        #expect(throws: SweepDefinitionError(part: "=0.9", message: "no path before '='")) { try SweepParameter(parsing: "=0.9") }
    }
}

@Suite struct SweepPathTests {
    func failure(_ path: String, _ value: CanonicalJSON = .number(1), base: PressConfiguration = .springPress) -> String? {
        do { try SweepPath.check(path, on: base, trying: value); return nil } catch { return error.description }
    }

    // Every leaf of the canonical definition that is a number, boolean, word or null, with the
    // animation fields under their object, then the container parameters and the display.
    @Test func pathsOfThePresets() {
        #expect(SweepPath.paths(of: .springPress) == [
            "action", "action_delay",
            "press_animation.damping_ratio", "press_animation.duration", "press_animation.velocity",
            "pressed_scale", "release_animation.damping_ratio", "release_animation.duration", "release_animation.velocity",
            "retention_margin",
            "container.delays_content_touches", "container.cancels_control_touches", "container.touch_delay", "container.hysteresis",
            "display",
        ])
        let longPress = SweepPath.paths(of: .longPressSafeArea)
        #expect(longPress.contains("safe_area") && longPress.contains("minimum_press_duration")
                && longPress.contains("press_animation.curve") && !longPress.contains("retention_margin"))
    }

    @Test func pathsThatCannotBeVaried() {
        #expect(failure("retention_margin") == nil)
        #expect(failure("container.touch_delay") == nil)
        #expect(failure("display") == nil)
        // Another gesture model's field, in ConfigurationJSON's words.
        #expect(failure("safe_area") == #"safe_area: applies to gesture "long-press" only; this configuration's gesture is "control""#)
        #expect(failure("retention_margin", base: .longPressSafeArea)
                == #"retention_margin: applies to gesture "control" only; this configuration's gesture is "long-press""#)
        // Another animation kind's field.
        #expect(failure("press_animation.damping_ratio", base: .longPressSafeArea)
                == "press_animation.damping_ratio: not a field of longpress-safe-area's press_animation, a uiview-curve animation; its fields: press_animation.curve, press_animation.duration")
        #expect(failure("name") == "name: 'name' names or shapes the configuration and cannot be varied; sweep from a base configuration that has the name you want")
        #expect(failure("press_animation.kind")?.hasPrefix("press_animation.kind: 'kind' names or shapes") == true)
        #expect(failure("press_animation") == "press_animation: is an object; vary one of its fields: press_animation.damping_ratio, press_animation.duration, press_animation.velocity")
        #expect(failure("press_events") == "press_events: is a list; a sweep varies numbers, booleans and words")
        #expect(failure("container.delay") == "container.delay: not a container parameter; those are container.delays_content_touches, container.cancels_control_touches, container.touch_delay, container.hysteresis")
        #expect(failure("pressed_scal")?.hasPrefix("pressed_scal: no such field; the paths of spring-press: action, action_delay,") == true)
        #expect(failure("press_animation..duration") == "press_animation..duration: a path is field names joined by '.', e.g. press_animation.damping_ratio")
    }

    // Setting a value goes through ConfigurationJSON, so every value is checked as in a file and
    // the version is the one `pressdb config add` would give the same definition.
    @Test func settingValues() throws {
        let c = try SweepPath.configuration(.springPress, setting: [("press_animation.damping_ratio", .number(0.7)),
                                                                    ("pressed_scale", .number(0.9))], name: "soft")
        #expect(c.animation.pressedScale == 0.9)
        #expect(c.animation.press == .uiViewSpring(duration: 0.4, dampingRatio: 0.7, initialSpringVelocity: 3))
        #expect(c.animation.release == PressConfiguration.springPress.animation.release)
        let file = try ConfigurationJSON.parse(#"{"name":"soft","base":"spring-press","pressed_scale":0.9,"press_animation":{"kind":"uiview-spring","duration":0.4,"damping_ratio":0.7,"velocity":3}}"#)
        #expect(c == file && c.version == file.version)
        #expect(throws: SweepDefinitionError(part: "press_animation.damping_ratio", message: "expected a number > 0, got 0")) {
            try SweepPath.configuration(.springPress, setting: [("press_animation.damping_ratio", .number(0))], name: "x")
        }
        #expect(throws: SweepDefinitionError(part: "pressed_scale", message: "expected a number > 0, got -0.5")) {
            try SweepPath.configuration(.springPress, setting: [("pressed_scale", .number(-0.5))], name: "x")
        }
        let nullSafeArea = try SweepPath.configuration(.longPressSafeArea, setting: [("safe_area", .null)], name: "x")
        #expect(nullSafeArea.gesture == .longPress(LongPressGesture(minimumPressDuration: 0, allowableMovement: 10, safeArea: nil)))
    }

    @Test func containerOverrides() throws {
        let o = try SweepPath.containerOverride([("container.delays_content_touches", .bool(false)), ("pressed_scale", .number(0.9))])
        #expect(o == ContainerOverride(delaysContentTouches: false))
        #expect(try SweepPath.containerOverride([("pressed_scale", .number(0.9))]) == nil)
        #expect(throws: SweepDefinitionError(part: "container.touch_delay", message: "expected a number ≥ 0, got -0.1")) {
            try SweepPath.containerOverride([("container.touch_delay", .number(-0.1))])
        }
        #expect(throws: SweepDefinitionError(part: "container.delays_content_touches", message: "expected true or false, got 1")) {
            try SweepPath.containerOverride([("container.delays_content_touches", .number(1))])
        }
        // Applied to recorded containers: a table without its delay is scroll-immediate; no scroll
        // view stays none.
        #expect(o!.apply(to: .table) == .scrollImmediate)
        #expect(o!.apply(to: .none) == .none)
        #expect(ContainerOverride(touchDelay: 0.05).apply(to: .scroll).name == nil)
    }
}

@Suite struct SweepGridTests {
    func definition(_ specs: [String], sample: Int? = nil, seed: UInt64 = 1) throws -> SweepDefinition {
        SweepDefinition(base: "spring-press", parameters: try specs.map { try SweepParameter(parsing: $0) }, sample: sample, seed: seed)
    }

    // The first parameter varies slowest: point 1 is (0.3, 0.9), point 2 (0.3, 0.95), point 4 (0.4, 0.9).
    @Test func gridOrder() throws {
        let d = try definition(["press_animation.damping_ratio=0.3:1.0:0.1", "pressed_scale=0.9,0.95,0.97"])
        let points = try d.points()
        #expect(points.count == 24 && points.map(\.number) == Array(1...24))
        #expect(d.values(of: points[1]).map(\.value) == [.number(0.3), .number(0.95)])
        #expect(d.values(of: points[3]).map(\.value) == [.number(0.4), .number(0.9)])
        #expect(d.values(of: points[23]).map(\.value) == [.number(1), .number(0.97)])
    }

    // A sample is that many distinct grid points, in grid order, the same for the same seed.
    @Test func samples() throws {
        let d = try definition(["pressed_scale=0.8:0.99:0.01", "press_animation.duration=0.1:1:0.1"], sample: 15, seed: 7)
        let a = try d.points(), b = try d.points()
        #expect(a == b && a.count == 15)
        let keys = a.map { d.values(of: $0).map(\.value.text).joined(separator: ",") }
        #expect(Set(keys).count == 15)
        let grid = try definition(["pressed_scale=0.8:0.99:0.01", "press_animation.duration=0.1:1:0.1"]).points()
        let order = a.map { p in grid.firstIndex { $0.indices == p.indices }! }
        #expect(order == order.sorted())
        #expect(try definition(["pressed_scale=0.8:0.99:0.01", "press_animation.duration=0.1:1:0.1"], sample: 15, seed: 8).points() != a)
        #expect(try definition(["pressed_scale=0.9,0.95"], sample: 5).points().count == 2)
    }

    // Uniform draws: over 4,000 samples of 3 points from 10, each point is drawn 1,200 times on
    // average (3/10 of the draws); a binomial(4000, 0.3) count lies within ±4.5 sd = ±130 of it
    // with probability above 0.99999.
    @Test func samplesAreUniform() throws {
        var counts = [Int](repeating: 0, count: 10)
        for seed in 1...4000 {
            for p in try definition(["pressed_scale=0.90:0.99:0.01"], sample: 3, seed: UInt64(seed)).points() {
                counts[p.indices[0]] += 1
            }
        }
        #expect(counts.allSatisfy { abs($0 - 1200) <= 130 }, "\(counts)")
    }

    @Test func gridLimits() throws {
        #expect(throws: SweepDefinitionError(part: "--vary", message: "the grid has 12000 points, more than 10000; vary fewer values, or draw some with --sample N")) {
            try definition(["pressed_scale=1:120/120", "press_animation.duration=0.1:10/100"]).points()
        }
        #expect(try definition(["pressed_scale=1:120/120", "press_animation.duration=0.1:10/100"], sample: 50).points().count == 50)
        #expect(throws: SweepDefinitionError(part: "pressed_scale", message: "is varied twice; give all its values in one --vary")) {
            try definition(["pressed_scale=0.9", "pressed_scale=0.95"]).points()
        }
    }

    @Test func jsonRoundTrip() throws {
        let d = try definition(["press_animation.damping_ratio=0.3:1.0:0.1", "action=up_inside,any_release"], sample: 4, seed: 99)
        #expect(try SweepDefinition(json: d.json) == d)
    }
}

@Suite struct CanonicalJSONParsingTests {
    // What `text` writes reads back bit for bit: 17-digit doubles (Foundation's parser on Linux
    // loses the last digit of some), nesting, escapes, null, booleans.
    @Test func roundTripsExactly() throws {
        let values: [Double] = [0.8748297260481308, 0.033903435749962164, 0.1, 1e-300, .leastNonzeroMagnitude, 1.7976931348623157e308, -0.0, 123456789012345680]
        let v = CanonicalJSON.object(["a": .array(values.map { .number($0) }), "s": .string("q\"\\\n é"), "n": .null, "b": .bool(true),
                                      "o": .object(["x": .array([])])])
        let back = try CanonicalJSON(parsing: v.text)
        #expect(back == v && back.text == v.text)
        #expect(try CanonicalJSON(parsing: " [1, 2.5] ") == .array([.number(1), .number(2.5)]))
        #expect(throws: JSONSyntaxError.self) { try CanonicalJSON(parsing: "[1,") }
        #expect(throws: JSONSyntaxError.self) { try CanonicalJSON(parsing: "NaN") }
    }
}
