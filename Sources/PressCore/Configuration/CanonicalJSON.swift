// A JSON value with one canonical text form, so equal content hashes equally.

/// A JSON value. Its `text` is canonical: object keys sorted by their UTF-8 bytes, no
/// whitespace, numbers and strings as `JSONText` writes them (integral values up to 2^53
/// without a fraction, `0.1` as `0.1`, `1e-05` as Swift prints it; only `"`, `\` and control
/// characters escaped), negative zero as `0`.
public indirect enum CanonicalJSON: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([CanonicalJSON])
    case object([String: CanonicalJSON])

    /// The canonical text.
    public var text: String {
        var out: [UInt8] = []
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let v): CanonicalJSON.writeNumber(v, to: &out)
        case .string(let s): JSONText.appendString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (i, key) in keys.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONText.appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                members[key]!.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `JSONText.number`'s text, with the two rules that make it canonical: negative zero is
    /// written as `0` (it equals 0, so equal values get one text and one version), and
    /// infinities and NaN, which JSON cannot hold, as `null`.
    static func writeNumber(_ v: Double, to out: inout [UInt8]) {
        guard v.isFinite else { out.append(contentsOf: "null".utf8); return }
        JSONText.appendNumber(v == 0 ? 0 : v, to: &out)
    }
}
