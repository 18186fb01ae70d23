// A JSON value with one canonical text form, so equal content hashes equally.

/// A JSON value. Its `text` is canonical: object keys sorted by their UTF-8 bytes, no
/// whitespace, numbers in their shortest round-trip form (integral values below 2^53 without a
/// fraction, `0.1` as `0.1`, `1e-05` as Swift prints it), strings with only `"`, `\` and
/// control characters escaped.
public indirect enum CanonicalJSON: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([CanonicalJSON])
    case object([String: CanonicalJSON])

    /// The canonical text.
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// Largest magnitude written as an integer: 2^53, beyond which not every integer is a Double.
    static let largestExactInteger = 9_007_199_254_740_992.0

    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let v): out += CanonicalJSON.numberText(v)
        case .string(let s): CanonicalJSON.writeString(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (i, key) in keys.enumerated() {
                if i > 0 { out += "," }
                CanonicalJSON.writeString(key, to: &out)
                out += ":"
                members[key]!.write(to: &out)
            }
            out += "}"
        }
    }

    /// The shortest text that reads back as `v`; `null` for infinities and NaN, which JSON
    /// cannot hold.
    static func numberText(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        if v == v.rounded(), abs(v) <= largestExactInteger { return String(Int64(v)) }
        return v.description  // Swift prints the shortest round-trip digits
    }

    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}
