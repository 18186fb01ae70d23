// The text pressdb writes for numbers and strings, wherever it writes them (canonical JSON,
// touch logs, stored containers and extra fields, command output): one rule for each.

/// JSON text: numbers in their shortest round-trip form, strings escaped per RFC 8259, objects
/// with sorted keys. Every writer in pressdb uses these (there is no second formatter).
public enum JSONText {
    /// Largest magnitude written as an integer: 2^53, beyond which not every integer is a
    /// Double (IEEE 754 binary64 has a 53-bit significand).
    public static let largestExactInteger = 9_007_199_254_740_992.0

    /// The shortest text that reads back as the same Double: a whole number of magnitude up to
    /// 2^53 as its integer digits (`10`, `-3`; negative zero as `-0`, so its sign survives),
    /// anything else as Swift's `description`, the shortest digits that round-trip (`0.1`,
    /// `0.30000000000000004`, `1e-05`, `2.5e+16`). Infinities and NaN, which JSON cannot hold,
    /// come out as `inf`, `-inf`, `nan`: callers writing JSON write `null` for them, callers
    /// writing CSV an empty cell.
    public static func number(_ d: Double) -> String {
        if isWritableAsInteger(d) { return d == 0 && d.sign == .minus ? "-0" : String(Int64(d)) }
        return d.description
    }

    /// `number(d)`'s UTF-8 bytes, appended to `out` (without building a `String` for whole
    /// numbers, the common case in touch logs).
    @inlinable
    public static func appendNumber(_ d: Double, to out: inout [UInt8]) {
        if isWritableAsInteger(d) {
            if d == 0 && d.sign == .minus { out.append(0x2D); out.append(0x30); return }
            appendInteger(Int64(d), to: &out)
            return
        }
        var text = d.description
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    /// Whether `number` writes `d` as integer digits.
    @inlinable
    static func isWritableAsInteger(_ d: Double) -> Bool { d == d.rounded() && abs(d) <= largestExactInteger }

    /// A whole number's decimal digits (with `-` when negative), appended to `out`.
    @inlinable
    public static func appendInteger(_ n: Int64, to out: inout [UInt8]) {
        if n < 0 { out.append(0x2D) }
        var m = n.magnitude
        // 20 digits hold any UInt64; written back to front, then copied in order.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { d in
            var count = 0
            repeat {
                d[23 - count] = 0x30 + UInt8(m % 10)
                m /= 10
                count += 1
            } while m > 0
            out.append(contentsOf: d[(24 - count)...])
        }
    }

    /// A JSON string literal (RFC 8259 §7): `"` and `\` escaped, `\n`, `\r`, `\t` by name, the
    /// other control characters (below U+0020) as `\u00XX` with lowercase hex; everything else
    /// as it is, in UTF-8.
    public static func string(_ s: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 2)
        appendString(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `string(s)`'s UTF-8 bytes, appended to `out`.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(0x22)
        var s = s
        s.withUTF8 { bytes in
            if !bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
                out.append(contentsOf: bytes)
                return
            }
            for b in bytes {
                switch b {
                case 0x22: out.append(0x5C); out.append(0x22)
                case 0x5C: out.append(0x5C); out.append(0x5C)
                case 0x0A: out.append(0x5C); out.append(0x6E)
                case 0x0D: out.append(0x5C); out.append(0x72)
                case 0x09: out.append(0x5C); out.append(0x74)
                case ..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]])
                default: out.append(b)
                }
            }
        }
        out.append(0x22)
    }

    /// JSON text with every character a terminal would act on or reorder, that JSON allows raw
    /// inside strings — DEL, the C1 controls U+0080–U+009F, U+200E, U+200F, the bidirectional
    /// controls U+202A–U+202E and U+2066–U+2069, and the separators U+2028, U+2029 — written as
    /// `\uXXXX` instead. The same JSON value (RFC 8259 §7); text printed to a terminal shows no
    /// such character raw. Canonical JSON (configuration versions) keeps its own form.
    public static func escapingInvisible(_ text: [UInt8]) -> [UInt8] {
        // Each of these starts with 0x7F, 0xC2 or 0xE2 in UTF-8: most text has none.
        guard text.contains(where: { $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 16)
        let hex = Array("0123456789abcdef".utf8)
        for u in String(decoding: text, as: UTF8.self).unicodeScalars {
            switch u.value {
            case 0x7F...0x9F, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
                let v = Int(u.value)
                out.append(contentsOf: [0x5C, 0x75, hex[v >> 12], hex[(v >> 8) & 15], hex[(v >> 4) & 15], hex[v & 15]])
            default:
                out.append(contentsOf: String(u).utf8)
            }
        }
        return out
    }

    /// An object from (key, JSON value text) pairs, keys sorted by their UTF-8 bytes.
    public static func object(_ pairs: [(String, String)]) -> String {
        let sorted = pairs.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        return "{" + sorted.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }
}
