// Touch sessions written back as NDJSON, in the format NDJSONReader reads.
import PressCore

/// Writes a session as NDJSON touch records: one line per sample, the session's attributes on
/// the first (`began`) line. Numbers in shortest round-trip form, so reading the lines back gives
/// the same doubles.
public enum NDJSONWriter {
    /// The lines (without newlines) of `session`'s samples.
    public static func lines(session: String, samples: [TouchSample], attributes: SessionAttributes) -> [String] {
        let n = JSONText.number, q = JSONText.string
        return samples.enumerated().map { i, s in
            var out = "{\"session\":\(q(session)),\"t\":\(n(s.t)),\"phase\":\"\(s.phase.rawValue)\",\"x\":\(n(s.x)),\"y\":\(n(s.y))"
            if i == 0 {
                let a = attributes
                func add(_ k: String, _ v: String?) { if let v { out += ",\"\(k)\":\(q(v))" } }
                add("config", a.config); add("variant", a.variant); add("control", a.control)
                if let f = a.frame { out += ",\"frame\":[\(n(f.x)),\(n(f.y)),\(n(f.width)),\(n(f.height))]" }
                if let c = a.container {
                    out += ",\"container\":" + (c.name.map(q) ?? ContainerJSON.storedText(c))
                }
                add("scroll_axis", a.scrollAxis?.rawValue); add("user", a.user); add("device", a.device)
                add("app_version", a.appVersion); add("screen", a.screen)
                if let extra = a.extra {
                    for (k, v) in JSONText.pairs(extra) { out += ",\(q(k)):\(v)" }
                }
            }
            return out + "}"
        }
    }
}
