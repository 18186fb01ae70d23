// A hang histogram for `--hangs FILE` (docs/press-model.md §8): MetricKit's
// `histogrammedApplicationHangTime` buckets, as counts per hour of foreground time.
import PressCore

/// Reads a hang histogram:
///
///     {"buckets": [{"lower_ms": 250, "upper_ms": 500, "per_hour": 2},
///                  {"lower_ms": 500, "upper_ms": 1000, "per_hour": 0.5}]}
///
/// Every field is required. Throws `ConfigurationJSONError` naming the field at fault.
public enum HangHistogramJSON {
    public static func parse(_ text: String) throws -> [HangBucket] {
        let value = try ConfigurationJSON.document(text)
        guard case .object(let top) = value, case .array(let items)? = top["buckets"], top.count == 1 else {
            throw ConfigurationJSONError(field: "buckets", message: "expected {\"buckets\": [{\"lower_ms\": …, \"upper_ms\": …, \"per_hour\": …}, …]}")
        }
        return try items.enumerated().map { i, item in
            let path = "buckets[\(i)]"
            guard case .object(let m) = item else {
                throw ConfigurationJSONError(field: path, message: "expected an object, got \(item.text.prefix(40))")
            }
            let known: Set<String> = ["lower_ms", "upper_ms", "per_hour"]
            if let unknown = m.keys.sorted().first(where: { !known.contains($0) }) {
                throw ConfigurationJSONError(field: "\(path).\(unknown)", message: "not a bucket field; the fields are lower_ms, per_hour, upper_ms")
            }
            func number(_ key: String) throws -> Double {
                guard let v = m[key] else { throw ConfigurationJSONError(field: "\(path).\(key)", message: "required") }
                guard case .number(let x) = v, x.isFinite, x >= 0 else {
                    throw ConfigurationJSONError(field: "\(path).\(key)", message: "expected a number ≥ 0, got \(v.text.prefix(40))")
                }
                return x
            }
            let b = HangBucket(lowerMs: try number("lower_ms"), upperMs: try number("upper_ms"), perHour: try number("per_hour"))
            guard b.upperMs > b.lowerMs else {
                throw ConfigurationJSONError(field: "\(path).upper_ms", message: "must be above lower_ms (\(JSONText.number(b.lowerMs)))")
            }
            return b
        }
    }
}
