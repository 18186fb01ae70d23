// Display profiles ⇄ JSON (schema: docs/press-model.md §6).
import PressCore

/// Reads display profiles from JSON:
///
///     {"name": "pixel-like", "refresh_rate": [60, 120], "touch_sampling_rate": 240,
///      "delivery": "per_frame", "pipeline_frames": 2, "density": 2.625}
///
/// `refresh_rate` is a number, or ProMotion's range as `[lowest, highest]` (animations run at the
/// highest). `delivery` defaults to `per_frame`; every other field is required. Throws
/// `ConfigurationJSONError` naming the field at fault.
public enum DisplayProfileJSON {
    /// One profile object, or an array of them.
    public static func parseFile(_ text: String) throws -> [DisplayProfile] {
        let value = try ConfigurationJSON.document(text)
        guard case .array(let items) = value else { return [try profile(from: value, path: "")] }
        return try items.enumerated().map { i, item in try profile(from: item, path: "[\(i)]") }
    }

    /// One profile from a parsed JSON object; `path` prefixes the fields errors name.
    public static func profile(from value: CanonicalJSON, path: String = "") throws -> DisplayProfile {
        func field(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
        func fail(_ key: String, _ message: String) -> ConfigurationJSONError {
            ConfigurationJSONError(field: field(key), message: message)
        }
        guard case .object(let m) = value else {
            throw ConfigurationJSONError(field: path, message: "expected a display profile object, got \(value.text.prefix(40))")
        }
        let known: Set<String> = ["type", "name", "refresh_rate", "touch_sampling_rate", "delivery", "pipeline_frames", "density"]
        if let unknown = m.keys.sorted().first(where: { !known.contains($0) }) {
            throw fail(unknown, "not a display profile field; the fields are \(known.subtracting(["type"]).sorted().joined(separator: ", "))")
        }
        if let t = m["type"], t != .string("display") { throw fail("type", "expected \"display\" (or no type), got \(t.text)") }
        func number(_ key: String) throws -> Double {
            guard let v = m[key] else { throw fail(key, "required (docs/press-model.md §6)") }
            guard case .number(let x) = v, x.isFinite else { throw fail(key, "expected a number, got \(v.text.prefix(40))") }
            return x
        }
        guard case .string(let name)? = m["name"], !name.isEmpty else { throw fail("name", "required: a non-empty string") }
        var low: Double? = nil, high: Double
        switch m["refresh_rate"] {
        case .array(let r)? where r.count == 2:
            guard case .number(let a) = r[0], case .number(let b) = r[1] else {
                throw fail("refresh_rate", "expected [lowest, highest] in Hz, got \(m["refresh_rate"]!.text.prefix(40))")
            }
            low = a; high = b
        default: high = try number("refresh_rate")
        }
        var delivery = TouchDelivery.perFrame
        if let d = m["delivery"] {
            guard case .string(let s) = d, let v = TouchDelivery(rawValue: s) else {
                throw fail("delivery", "expected one of \(TouchDelivery.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), got \(d.text.prefix(40))")
            }
            delivery = v
        }
        let frames = try number("pipeline_frames")
        guard frames == frames.rounded(), abs(frames) <= 1000 else { throw fail("pipeline_frames", "expected a whole number of frames, got \(frames)") }
        let p = DisplayProfile(name: name, refreshRate: high, minimumRefreshRate: low, touchSamplingRate: try number("touch_sampling_rate"),
                               delivery: delivery, pipelineFrames: Int(frames), density: try number("density"))
        do { try p.validate() } catch {
            let key = error.parameter.hasPrefix("minimum") ? "refresh_rate" : error.parameter
            throw fail(key, "must be \(error.requirement), not \(JSONText.number(error.value))")
        }
        return p
    }
}
