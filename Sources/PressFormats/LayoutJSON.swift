// Layout files → `Layout`. Two shapes:
//
//   {"controls": [{"id": "ok", "frame": [x, y, w, h], "container": "scroll",
//                  "scroll_axis": "vertical", "config": "spring-press"}, …]}
//
// or one control per line (NDJSON), as in a touch log: {"type": "control", "id": "ok", …}.
// Frames are in points. `container` is a name (`none`, `scroll`, `table`, `scroll-immediate`) or
// the parameters themselves ({"delays_content_touches": false, "cancels_control_touches": true,
// "touch_delay": 0.15, "hysteresis": 10}; reference §2.1).
import Foundation
import PressCore

/// A layout file or control record that cannot be read; the message says where and why.
public struct LayoutError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Reads layouts and `{"type":"control",…}` records.
public enum LayoutJSON {
    /// The fields a control may have (`type` only in NDJSON records, where it is `control`).
    public static let controlFields: Set<String> = ["type", "id", "frame", "container", "scroll_axis", "config"]

    /// Reads a layout file: a JSON object with a `controls` array, or NDJSON with one
    /// `{"type":"control",…}` record per line (blank lines skipped). `file` names it in errors.
    /// - Throws: `LayoutError` at the first bad control, with `file:line` for NDJSON.
    public static func parse(_ data: Data, file: String) throws(LayoutError) -> Layout {
        // A leading UTF-8 byte-order mark (some editors write one) is not part of the JSON.
        let data = data.starts(with: [0xEF, 0xBB, 0xBF]) ? Data(data.dropFirst(3)) : data
        let text = String(decoding: data, as: UTF8.self)
        let trimmed = text.deviceLogTrimmed()
        // A whole-file object with a "controls" key; otherwise line by line.
        if trimmed.hasPrefix("{"),
           let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            guard let list = object["controls"] as? [Any] else {
                throw LayoutError("\(file): a layout is {\"controls\": [...]} or one {\"type\":\"control\",…} record per line")
            }
            let unknown = Set(object.keys).subtracting(["controls"])
            guard unknown.isEmpty else {
                throw LayoutError("\(file): unknown layout field(s) \(unknown.sorted().joined(separator: ", "))")
            }
            var controls: [LayoutControl] = []
            for (i, item) in list.enumerated() {
                guard let dict = item as? [String: Any] else {
                    throw LayoutError("\(file): controls[\(i)] is not an object")
                }
                do { controls.append(try control(from: dict)) } catch {
                    throw LayoutError("\(file): controls[\(i)]: \(error.message)")
                }
            }
            return Layout(controls: controls)
        }
        var controls: [LayoutControl] = []
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        // A document over several lines (its first line alone is no JSON object) that is not valid
        // JSON: say where, in lines and columns, rather than "line 1: not a JSON object".
        if trimmed.hasPrefix("{"), let first = lines.first(where: { !$0.deviceLogTrimmed().isEmpty }),
           (try? JSONSerialization.jsonObject(with: Data(first.utf8))) == nil, let problem = JSONDocumentError.describe(text) {
            throw LayoutError("\(file): not valid JSON: \(problem)")
        }
        for (i, line) in lines.enumerated() where !line.deviceLogTrimmed().isEmpty {
            do { controls.append(try controlRecord(line: line)) } catch {
                throw LayoutError("\(file):\(i + 1): \(error.message)")
            }
        }
        return Layout(controls: controls)
    }

    /// Reads one NDJSON control record, `{"type":"control","id":…,"frame":[x,y,w,h],…}`.
    /// - Throws: `LayoutError` when it is not JSON, not a control record, or a field is wrong.
    public static func controlRecord<S: StringProtocol>(line: S) throws(LayoutError) -> LayoutControl {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw LayoutError("not a JSON object")
        }
        guard object["type"] as? String == "control" else {
            throw LayoutError("not a control record: \"type\" must be \"control\"")
        }
        return try control(from: object)
    }

    /// Reads a control from a decoded JSON object (as `JSONSerialization` gives it). The NDJSON
    /// reader may call this for `{"type":"control",…}` records. `type`, when present, must be
    /// `control`.
    /// - Throws: `LayoutError` naming the missing, unknown or ill-typed field.
    public static func control(from object: [String: Any]) throws(LayoutError) -> LayoutControl {
        let unknown = Set(object.keys).subtracting(controlFields)
        guard unknown.isEmpty else {
            throw LayoutError("unknown control field(s) \(unknown.sorted().joined(separator: ", "))")
        }
        if let type = object["type"], type as? String != "control" {
            throw LayoutError("\"type\" must be \"control\"")
        }
        guard let id = object["id"] as? String, !id.isEmpty else {
            throw LayoutError("\"id\" must be a non-empty string")
        }
        guard let frameValues = object["frame"] as? [Any], frameValues.count == 4,
              let f = numbers(frameValues), f[2] >= 0, f[3] >= 0 else {
            throw LayoutError("\"frame\" must be [x, y, width, height] in points, width and height ≥ 0")
        }
        var control = LayoutControl(id: id, frame: Rect(x: f[0], y: f[1], width: f[2], height: f[3]))
        if let c = object["container"] {
            control.container = try container(from: c)
        }
        if let a = object["scroll_axis"] {
            guard let name = a as? String, let axis = ScrollAxis(rawValue: name) else {
                throw LayoutError("\"scroll_axis\" must be one of \(ScrollAxis.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            control.scrollAxis = axis
        }
        if let c = object["config"] {
            guard let name = c as? String, !name.isEmpty else { throw LayoutError("\"config\" must be a name") }
            control.config = name
        }
        return control
    }

    /// The parameter keys of a container object and what each sets.
    static let containerKeys: Set<String> = ["delays_content_touches", "cancels_control_touches",
                                             "touch_delay", "hysteresis"]

    /// A container from a name or a parameter object. Missing parameters take the `scroll`
    /// container's values (delays on, no cancel, 0.150 s, 10 pt).
    static func container(from value: Any) throws(LayoutError) -> Container {
        if let name = value as? String {
            guard let c = Container(named: name) else {
                throw LayoutError("unknown container \"\(name)\" (known: \(Container.named.compactMap(\.name).joined(separator: ", ")))")
            }
            return c
        }
        guard let object = value as? [String: Any] else {
            throw LayoutError("\"container\" must be a name or a parameter object")
        }
        let unknown = Set(object.keys).subtracting(containerKeys)
        guard unknown.isEmpty else {
            throw LayoutError("unknown container parameter(s) \(unknown.sorted().joined(separator: ", "))")
        }
        func flag(_ key: String, _ fallback: Bool) throws(LayoutError) -> Bool {
            guard let v = object[key] else { return fallback }
            guard let n = v as? NSNumber, isBoolean(n) else {
                throw LayoutError("container \"\(key)\" must be true or false")
            }
            return n.boolValue
        }
        func seconds(_ key: String, _ fallback: Double) throws(LayoutError) -> Double {
            guard let v = object[key] else { return fallback }
            guard let d = numbers([v])?.first, d >= 0 else {
                throw LayoutError("container \"\(key)\" must be a number ≥ 0")
            }
            return d
        }
        let base = Container.scroll
        return Container(name: nil, isScrollView: true,
                         delaysContentTouches: try flag("delays_content_touches", base.delaysContentTouches),
                         cancelsControlTouches: try flag("cancels_control_touches", base.cancelsControlTouches),
                         touchDelay: try seconds("touch_delay", base.touchDelay),
                         hysteresis: try seconds("hysteresis", base.hysteresis))
    }

    /// True for a JSON `true`/`false`: `JSONSerialization` gives booleans as NSNumbers whose
    /// Objective-C type is `c` (char), on Linux and Darwin alike.
    static func isBoolean(_ n: NSNumber) -> Bool { String(cString: n.objCType) == "c" }

    /// JSON numbers (not booleans) → Doubles, or nil if any is not a finite number.
    static func numbers(_ values: [Any]) -> [Double]? {
        var out: [Double] = []
        for v in values {
            guard let n = v as? NSNumber, !isBoolean(n), n.doubleValue.isFinite else {
                return nil
            }
            out.append(n.doubleValue)
        }
        return out
    }
}
