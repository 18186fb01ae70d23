// Press configurations ⇄ JSON (schema: docs/configurations.md), and the container field other
// parsers share.
import Foundation
import PressCore

/// A configuration (or container) that could not be read: the field at fault, as a dotted path
/// (`press_animation.damping_ratio`; empty for the document itself), and one sentence saying
/// what is wrong and what is allowed.
public struct ConfigurationJSONError: Error, Hashable, Sendable, CustomStringConvertible {
    public var field: String
    public var message: String
    public init(field: String, message: String) { self.field = field; self.message = message }
    /// `field: message`, or the message alone for the document.
    public var description: String { field.isEmpty ? message : "\(field): \(message)" }
}

/// Reads and writes press configurations as JSON.
///
/// Usage:
///
///     let c = try ConfigurationJSON.parse(#"{"type":"config","name":"soft","base":"spring-press","pressed_scale":0.97}"#)
///     ConfigurationJSON.encode(c)   // canonical JSON, every field written out
///
/// All functions throw `ConfigurationJSONError`.
public enum ConfigurationJSON {

    // MARK: Configurations

    /// Parses one configuration: a `{"type":"config", …}` record line or a configuration file's
    /// text (one JSON object).
    /// - Parameter bases: configurations a `base` field may name (default: the presets).
    public static func parse(_ text: String,
                             bases: [PressConfiguration] = PressConfiguration.presets) throws -> PressConfiguration {
        try configuration(from: document(text), bases: bases)
    }

    /// Parses a configuration file: one configuration object, or an array of them in which each
    /// may use the ones before it (and `bases`) as its `base`.
    public static func parseFile(_ text: String,
                                 bases: [PressConfiguration] = PressConfiguration.presets) throws -> [PressConfiguration] {
        let value = try document(text)
        guard case .array(let items) = value else { return [try configuration(from: value, bases: bases)] }
        var known = bases
        var out: [PressConfiguration] = []
        for (i, item) in items.enumerated() {
            do {
                let c = try configuration(from: item, bases: known)
                out.append(c)
                known.append(c)
            } catch let e as ConfigurationJSONError {
                throw ConfigurationJSONError(field: e.field.isEmpty ? "[\(i)]" : "[\(i)].\(e.field)", message: e.message)
            }
        }
        return out
    }

    /// Builds a configuration from a parsed JSON object (see `value(fromJSONObject:)`).
    public static func configuration(from value: CanonicalJSON,
                                     bases: [PressConfiguration] = PressConfiguration.presets) throws -> PressConfiguration {
        let f = try Fields(value, path: "")
        if let type = try f.string("type"), type != "config" {
            throw f.error("type", "must be \"config\", got \(quoted(type))")
        }
        guard let name = try f.string("name") else { throw f.error("name", "is required (a non-empty string)") }
        guard !name.isEmpty else { throw f.error("name", "must be a non-empty string") }

        var base: PressConfiguration? = nil
        if let baseName = try f.string("base") {
            guard let b = bases.last(where: { $0.name == baseName }) else {
                throw f.error("base", "unknown configuration \(quoted(baseName)); allowed: "
                              + bases.map(\.name).joined(separator: ", "))
            }
            base = b
        }

        // The gesture: the base's unless another kind is named.
        let gestureName = try f.choice("gesture", allowed: ["control", "long-press"])
        var gesture: GestureModel
        switch (gestureName, base?.gesture) {
        case (nil, let g?): gesture = g
        case ("control"?, .control(let c)?): gesture = .control(c)
        case ("long-press"?, .longPress(let l)?): gesture = .longPress(l)
        case ("control"?, _): gesture = .control(ControlGesture())
        case ("long-press"?, _): gesture = .longPress(LongPressGesture())
        default: throw f.error("gesture", "is required: \"control\" or \"long-press\"")
        }

        let controlKeys = ["retention_margin", "press_events", "release_events", "coalesces_simultaneous_updates"]
        let longPressKeys = ["minimum_press_duration", "allowable_movement", "safe_area"]
        switch gesture {
        case .control(var c):
            if let k = longPressKeys.first(where: f.has) {
                throw f.error(k, "applies to gesture \"long-press\" only; this configuration's gesture is \"control\"")
            }
            if let m = try f.number("retention_margin", atLeast: 0) { c.retentionMargin = m }
            if let e = try f.events("press_events") { c.pressEvents = e }
            if let e = try f.events("release_events") { c.releaseEvents = e }
            if let b = try f.bool("coalesces_simultaneous_updates") { c.coalescesSimultaneousUpdates = b }
            gesture = .control(c)
        case .longPress(var l):
            if let k = controlKeys.first(where: f.has) {
                throw f.error(k, "applies to gesture \"control\" only; this configuration's gesture is \"long-press\"")
            }
            if let d = try f.number("minimum_press_duration", atLeast: 0) { l.minimumPressDuration = d }
            if let m = try f.number("allowable_movement", atLeast: 0) { l.allowableMovement = m }
            if f.isNull("safe_area") {
                l.safeArea = nil
            } else if let box = try f.number("safe_area", atLeast: 0) {
                l.safeArea = box
            }
            gesture = .longPress(l)
        }

        let feedback = try f.feedback("feedback") ?? base?.animation.feedback ?? .scale
        // A scale must stay positive; an opacity or a colour weight may reach 0.
        let pressedScale = try (feedback == .scale ? f.number("pressed_scale", above: 0) : f.number("pressed_scale", atLeast: 0))
            ?? base?.animation.pressedScale
        guard let pressedScale else {
            throw f.error("pressed_scale", feedback == .scale ? "is required (a number > 0, e.g. 0.95)"
                          : "is required (a number ≥ 0: the pressed opacity, or 0 for the pressed colour)")
        }
        let press = try f.animation("press_animation", defaultKey: "press") ?? base?.animation.press
        guard let press else { throw f.error("press_animation", "is required (an object with a \"kind\")") }
        let release = try f.animation("release_animation", defaultKey: "release") ?? base?.animation.release
        guard let release else { throw f.error("release_animation", "is required (an object with a \"kind\")") }

        var rule = base?.actionRule ?? .upInside
        if let r = try f.choice("action", allowed: ActionRule.allCases.map(\.rawValue)) {
            rule = ActionRule(rawValue: r) ?? rule
        }
        let delay = try f.number("action_delay", atLeast: 0) ?? base?.actionDelay ?? 0

        try f.rejectUnknown(allowed: ["type", "name", "base", "gesture", "pressed_scale", "press_animation",
                                      "release_animation", "action", "action_delay", "feedback"] + controlKeys + longPressKeys)
        return PressConfiguration(name: name, gesture: gesture,
                                  animation: PressAnimation(press: press, release: release, pressedScale: pressedScale,
                                                            feedback: feedback),
                                  actionRule: rule, actionDelay: delay)
    }

    /// The configuration's canonical JSON: sorted keys, shortest round-trip numbers, every field
    /// written out (no `base`). Parsing it gives the same configuration back; its FNV-1a hash is
    /// `configuration.version`.
    public static func encode(_ configuration: PressConfiguration) -> String {
        configuration.definitionJSON
    }

    // MARK: Containers and scroll axes

    /// Allowed keys of a container object, with UIScrollView's defaults.
    public static let containerKeys = ["delays_content_touches", "cancels_control_touches", "touch_delay", "hysteresis"]

    /// A container given as a name (`none`, `scroll`, `table`, `scroll-immediate`) or as an
    /// object of UIScrollView parameters (reference §2.1):
    /// `{"delays_content_touches": true, "cancels_control_touches": false, "touch_delay": 0.15, "hysteresis": 10}`.
    /// Missing keys take UIScrollView's defaults (delays on, a UIControl's touches not
    /// cancelled, 0.150 s, 10 pt); an object whose parameters are a named container's gives
    /// that container, name included. `value` is a JSON string, a `[String: Any]` from
    /// `JSONSerialization`, or a `CanonicalJSON`.
    /// - Parameter field: the field's name for error messages.
    public static func container(from value: Any, field: String = "container") throws -> Container {
        let json = (value as? CanonicalJSON) ?? self.value(fromJSONObject: value) ?? .null
        if case .string(let name) = json {
            guard let c = Container(named: name) else {
                throw ConfigurationJSONError(field: field, message: "unknown container \(quoted(name)); allowed: "
                    + Container.named.compactMap(\.name).joined(separator: ", ")
                    + ", or an object with " + containerKeys.joined(separator: ", "))
            }
            return c
        }
        guard case .object = json else {
            throw ConfigurationJSONError(field: field, message: "expected a container name ("
                + Container.named.compactMap(\.name).joined(separator: ", ") + ") or an object, got \(json.text)")
        }
        let o = try containerOverride(from: json, field: field)
        let c = Container(
            delaysContentTouches: o.delaysContentTouches ?? true,
            cancelsControlTouches: o.cancelsControlTouches ?? false,
            touchDelay: o.touchDelay ?? Container.defaultTouchDelay,
            hysteresis: o.hysteresis ?? Container.defaultHysteresis)
        return c.withKnownName
    }

    /// Some of a container object's parameters (keys from `containerKeys`, each checked as in
    /// `container(from:)`), for replacing a recorded container's (`pressdb sweep`'s
    /// `container.touch_delay` and the like).
    /// - Parameter field: the field's name for error messages (`container.touch_delay: expected …`).
    public static func containerOverride(from value: CanonicalJSON, field: String = "container") throws -> ContainerOverride {
        let f = try Fields(value, path: field)
        let o = ContainerOverride(
            delaysContentTouches: try f.bool("delays_content_touches"),
            cancelsControlTouches: try f.bool("cancels_control_touches"),
            touchDelay: try f.number("touch_delay", atLeast: 0),
            hysteresis: try f.number("hysteresis", atLeast: 0))
        try f.rejectUnknown(allowed: containerKeys)
        return o
    }

    /// An override's parameters as a JSON object holding only those it gives.
    public static func encode(_ o: ContainerOverride) -> CanonicalJSON {
        var m: [String: CanonicalJSON] = [:]
        if let v = o.delaysContentTouches { m["delays_content_touches"] = .bool(v) }
        if let v = o.cancelsControlTouches { m["cancels_control_touches"] = .bool(v) }
        if let v = o.touchDelay { m["touch_delay"] = .number(v) }
        if let v = o.hysteresis { m["hysteresis"] = .number(v) }
        return .object(m)
    }

    /// A container from text: a bare name (`table`) or a JSON object / JSON string literal, as a
    /// CSV cell or a command-line option might give it.
    public static func container(fromText text: String, field: String = "container") throws -> Container {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.hasPrefix("{") || t.hasPrefix("\"") else { return try container(from: CanonicalJSON.string(t), field: field) }
        do {
            return try container(from: try document(t), field: field)
        } catch let e as ConfigurationJSONError where e.field.isEmpty {
            throw ConfigurationJSONError(field: field, message: e.message)
        }
    }

    /// The container's parameters as a JSON object (its name is not part of it).
    public static func encode(_ container: Container) -> CanonicalJSON {
        .object(["delays_content_touches": .bool(container.delaysContentTouches),
                 "cancels_control_touches": .bool(container.cancelsControlTouches),
                 "touch_delay": .number(container.touchDelay), "hysteresis": .number(container.hysteresis)])
    }

    /// A scroll axis: `vertical`, `horizontal` or `both`.
    public static func scrollAxis(from value: Any, field: String = "scroll_axis") throws -> ScrollAxis {
        let json = (value as? CanonicalJSON) ?? self.value(fromJSONObject: value) ?? .null
        guard case .string(let s) = json, let axis = ScrollAxis(rawValue: s) else {
            throw ConfigurationJSONError(field: field, message: "expected one of "
                + ScrollAxis.allCases.map(\.rawValue).joined(separator: ", ") + ", got \(json.text)")
        }
        return axis
    }

    // MARK: JSON plumbing

    /// Converts what `JSONSerialization` returns into a `CanonicalJSON` (nil for anything JSON
    /// cannot hold). Booleans are told from the numbers 0 and 1 by their `NSNumber` class.
    public static func value(fromJSONObject object: Any) -> CanonicalJSON? {
        switch object {
        case let v as CanonicalJSON: return v
        case is NSNull: return .null
        case let s as String: return .string(s)
        case let n as NSNumber:
            if type(of: n) == booleanNumberType { return .bool(n.boolValue) }
            return .number(n.doubleValue)
        case let a as [Any]:
            var items: [CanonicalJSON] = []
            for item in a { guard let v = value(fromJSONObject: item) else { return nil }; items.append(v) }
            return .array(items)
        case let d as [String: Any]:
            var members: [String: CanonicalJSON] = [:]
            for (k, item) in d { guard let v = value(fromJSONObject: item) else { return nil }; members[k] = v }
            return .object(members)
        case let b as Bool: return .bool(b)
        case let i as Int: return .number(Double(i))
        case let x as Double: return .number(x)
        default: return nil
        }
    }

    private static let booleanNumberType = type(of: NSNumber(value: true))

    /// Parses JSON text into a value; errors name no field.
    static func document(_ text: String) throws -> CanonicalJSON {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        } catch {
            // Foundation's message names no place ("The operation could not be completed").
            throw ConfigurationJSONError(field: "", message: JSONDocumentError.describe(text).map { "not valid JSON: \($0)" }
                ?? "not valid JSON")
        }
        guard let v = value(fromJSONObject: object) else {
            throw ConfigurationJSONError(field: "", message: "not valid JSON")
        }
        return v
    }

    static func quoted(_ s: String) -> String { JSONText.string(s) }
}

/// An object's members, read one typed field at a time, with errors naming the field's path.
private struct Fields {
    let members: [String: CanonicalJSON]
    let path: String

    init(_ value: CanonicalJSON, path: String) throws {
        guard case .object(let m) = value else {
            throw ConfigurationJSONError(field: path, message: "expected a JSON object, got \(Fields.shown(value))")
        }
        members = m
        self.path = path
    }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
    func error(_ key: String, _ message: String) -> ConfigurationJSONError {
        ConfigurationJSONError(field: name(key), message: message)
    }
    func has(_ key: String) -> Bool { members[key] != nil }
    func isNull(_ key: String) -> Bool { members[key] == .null }

    static func shown(_ v: CanonicalJSON) -> String {
        let t = v.text
        return t.count > 40 ? String(t.prefix(40)) + "…" : t
    }

    func string(_ key: String) throws -> String? {
        guard let v = members[key] else { return nil }
        guard case .string(let s) = v else { throw error(key, "expected a string, got \(Fields.shown(v))") }
        return s
    }

    func choice(_ key: String, allowed: [String]) throws -> String? {
        guard let v = members[key] else { return nil }
        guard case .string(let s) = v, allowed.contains(s) else {
            throw error(key, "expected one of " + allowed.map { ConfigurationJSON.quoted($0) }.joined(separator: ", ")
                        + ", got \(Fields.shown(v))")
        }
        return s
    }

    func bool(_ key: String) throws -> Bool? {
        guard let v = members[key] else { return nil }
        guard case .bool(let b) = v else { throw error(key, "expected true or false, got \(Fields.shown(v))") }
        return b
    }

    /// A finite number; `atLeast` / `above` bound it (inclusive / exclusive).
    func number(_ key: String, atLeast low: Double? = nil, above open: Double? = nil) throws -> Double? {
        guard let v = members[key] else { return nil }
        let bound = low.map { " ≥ \(CanonicalJSON.number($0).text)" } ?? open.map { " > \(CanonicalJSON.number($0).text)" } ?? ""
        guard case .number(let x) = v, x.isFinite else {
            throw error(key, "expected a number\(bound), got \(Fields.shown(v))")
        }
        if let low, x < low { throw error(key, "expected a number\(bound), got \(Fields.shown(v))") }
        if let open, x <= open { throw error(key, "expected a number\(bound), got \(Fields.shown(v))") }
        return x
    }

    func events(_ key: String) throws -> Set<ControlEvent>? {
        guard let v = members[key] else { return nil }
        let allowed = ControlEvent.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .array(let items) = v else {
            throw error(key, "expected an array of control events (\(allowed)), got \(Fields.shown(v))")
        }
        var out = Set<ControlEvent>()
        for (i, item) in items.enumerated() {
            guard case .string(let s) = item, let e = ControlEvent(name: s) else {
                throw error("\(key)[\(i)]", "unknown control event \(Fields.shown(item)); allowed: \(allowed)")
            }
            out.insert(e)
        }
        return out
    }

    func curve(_ key: String) throws -> TimingCurve? {
        guard let v = members[key] else { return nil }
        let names = TimingCurve.jsonNamed.map(\.name)
        if case .string(let s) = v, let c = TimingCurve.jsonNamed.first(where: { $0.name == s }) { return c.curve }
        if case .array(let items) = v, items.count == 4 {
            var p: [Double] = []
            for item in items { if case .number(let x) = item, x.isFinite { p.append(x) } }
            if p.count == 4 {
                guard (0...1).contains(p[0]), (0...1).contains(p[2]) else {
                    throw error(key, "a cubic Bézier's x1 and x2 must lie in [0, 1], got \(Fields.shown(v))")
                }
                return .cubicBezier(x1: p[0], y1: p[1], x2: p[2], y2: p[3])
            }
        }
        throw error(key, "expected a curve name (" + names.joined(separator: ", ")
                    + ") or four numbers [x1, y1, x2, y2], got \(Fields.shown(v))")
    }

    func animation(_ key: String, defaultKey: String) throws -> AnimationSpec? {
        guard let v = members[key] else { return nil }
        let a = try Fields(v, path: name(key))
        let kinds = ["uiview-spring", "uiview-curve", "ca-spring", "ca-basic", "swiftui-spring"]
        guard let kind = try a.choice("kind", allowed: kinds) else {
            throw a.error("kind", "is required: one of " + kinds.map { ConfigurationJSON.quoted($0) }.joined(separator: ", "))
        }
        func duration() throws -> Double {
            guard let d = try a.number("duration", above: 0) else { throw a.error("duration", "is required (seconds > 0)") }
            return d
        }
        // A UIView animation of duration 0 is an immediate change (reference §3).
        func uiViewDuration() throws -> Double {
            guard let d = try a.number("duration", atLeast: 0) else { throw a.error("duration", "is required (seconds ≥ 0)") }
            return d
        }
        func layerOptions() throws -> LayerAnimationOptions {
            let key = try a.string("key") ?? defaultKey
            var from: Double? = nil
            if !a.isNull("from_value") { from = try a.number("from_value") }
            let fill = try a.choice("fill_mode", allowed: ["removed", "forwards"]).flatMap(FillMode.init(rawValue:)) ?? .removed
            let removed = try a.bool("removed_on_completion") ?? true
            return LayerAnimationOptions(key: key, fromValue: from, fillMode: fill, isRemovedOnCompletion: removed)
        }
        let layerKeys = ["key", "from_value", "fill_mode", "removed_on_completion"]
        switch kind {
        case "uiview-spring":
            let d = try uiViewDuration()
            guard let ratio = try a.number("damping_ratio", above: 0) else {
                throw a.error("damping_ratio", "is required (a number > 0; 1 is critically damped)")
            }
            let velocity = try a.number("velocity") ?? 0
            try a.rejectUnknown(allowed: ["kind", "duration", "damping_ratio", "velocity"])
            return .uiViewSpring(duration: d, dampingRatio: ratio, initialSpringVelocity: velocity)
        case "uiview-curve":
            let d = try uiViewDuration()
            let curve = try a.curve("curve") ?? .easeInEaseOut
            try a.rejectUnknown(allowed: ["kind", "duration", "curve"])
            return .uiViewCurve(duration: d, curve: curve)
        case "ca-spring":
            let mass = try a.number("mass", above: 0) ?? 1
            let stiffness = try a.number("stiffness", above: 0) ?? 100
            let damping = try a.number("damping", atLeast: 0) ?? 10
            let v0 = try a.number("initial_velocity") ?? 0
            let d = try duration()
            let options = try layerOptions()
            try a.rejectUnknown(allowed: ["kind", "mass", "stiffness", "damping", "initial_velocity", "duration"] + layerKeys)
            return .caSpring(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: v0,
                             duration: d, options: options)
        case "swiftui-spring":
            guard let response = try a.number("response", above: 0) else {
                throw a.error("response", "is required (seconds > 0, e.g. 0.5)")
            }
            guard let fraction = try a.number("damping_fraction", above: 0) else {
                throw a.error("damping_fraction", "is required (a number > 0; 1 is critically damped)")
            }
            try a.rejectUnknown(allowed: ["kind", "response", "damping_fraction"])
            return .swiftUISpring(response: response, dampingFraction: fraction)
        default:  // "ca-basic"
            let d = try duration()
            let curve = try a.curve("curve") ?? .linear
            let options = try layerOptions()
            try a.rejectUnknown(allowed: ["kind", "duration", "curve"] + layerKeys)
            return .caBasic(duration: d, curve: curve, options: options)
        }
    }

    /// A colour `#rrggbb`.
    func color(_ key: String) throws -> RGB8 {
        guard let v = members[key] else { throw error(key, "is required (a colour \"#rrggbb\")") }
        guard case .string(let s) = v, let c = RGB8(hex: s) else {
            throw error(key, "expected a colour \"#rrggbb\", got \(Fields.shown(v))")
        }
        return c
    }

    /// `{"kind": "scale"}`, `{"kind": "opacity", "content": "#rrggbb", "background": "#rrggbb"}`
    /// or `{"kind": "color", "from": "#rrggbb", "to": "#rrggbb"}`.
    func feedback(_ key: String) throws -> PressFeedback? {
        guard let v = members[key] else { return nil }
        let a = try Fields(v, path: name(key))
        let kinds = ["scale", "opacity", "color"]
        guard let kind = try a.choice("kind", allowed: kinds) else {
            throw a.error("kind", "is required: one of " + kinds.map { ConfigurationJSON.quoted($0) }.joined(separator: ", "))
        }
        switch kind {
        case "scale":
            try a.rejectUnknown(allowed: ["kind"])
            return .scale
        case "opacity":
            let content = try a.color("content"), background = try a.color("background")
            try a.rejectUnknown(allowed: ["kind", "content", "background"])
            return .opacity(content: content, background: background)
        default:
            let from = try a.color("from"), to = try a.color("to")
            try a.rejectUnknown(allowed: ["kind", "from", "to"])
            return .color(from: from, to: to)
        }
    }

    func rejectUnknown(allowed: [String]) throws {
        let unknown = members.keys.filter { !allowed.contains($0) }.sorted()
        if let k = unknown.first {
            throw error(k, "unknown field; allowed here: " + allowed.joined(separator: ", "))
        }
    }
}
