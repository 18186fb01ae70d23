// A strict, allocation-light JSON reader for one NDJSON line (RFC 8259), working on bytes: it
// validates the whole text, and locates the top-level object's fields without building
// dictionaries or strings; callers decode only the values they need.
#if canImport(Glibc)
import Glibc
#endif

/// What a JSON value is. `nonFinite` is not JSON: it stands for the bare tokens `NaN`,
/// `Infinity` and `-Infinity` that some loggers write, so they can be rejected by name.
public enum JSONKind: Sendable, Hashable {
    case string, number, bool, null, object, array, nonFinite
}

/// One value located in the scanned bytes: its kind and byte range `start..<end` (for a string,
/// the range inside the quotes). Numbers carry their value (possibly ±infinity when out of the
/// Double range, e.g. `1e400`); `nonFinite` tokens carry NaN or ±infinity.
public struct JSONToken: Sendable, Hashable {
    public var kind: JSONKind
    public var start: Int
    public var end: Int
    public var number: Double = 0
    public var bool: Bool = false
    /// The string contains backslash escapes (decode with `JSONScanner.string`).
    public var hasEscapes: Bool = false
}

/// A field of an object: its key (a string token) and value.
public struct JSONField: Sendable, Hashable {
    public var key: JSONToken
    public var value: JSONToken
}

/// Malformed JSON: what was expected and where (0-based byte offset in the line).
public struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var offset: Int
    /// `malformed JSON at column C: MESSAGE` (C 1-based, counting bytes).
    public var description: String { "malformed JSON at column \(offset + 1): \(message)" }
}

/// Scans JSON text held in `bytes` (which must stay valid while the scanner is used).
public struct JSONScanner {
    public let bytes: UnsafeBufferPointer<UInt8>
    var i = 0
    /// Nesting limit for arrays and objects (protects the stack from hostile input).
    public static let maximumDepth = 64

    public init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    // MARK: Top level

    /// Scans `bytes` as exactly one JSON object (whitespace around it allowed) and appends its
    /// fields, in order, to `fields` (cleared first). Nested values are validated, not decoded.
    /// - Throws: `JSONSyntaxError`.
    public mutating func scanObject(into fields: inout [JSONField]) throws(JSONSyntaxError) {
        fields.removeAll(keepingCapacity: true)
        i = 0
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { throw fail("expected a JSON object starting with '{'") }
        try object(depth: 0, fields: &fields, collect: true)
        skipSpace()
        if i < bytes.count { throw fail("unexpected text after the object") }
    }

    /// Scans the value in `start..<end` as exactly one object and returns its fields.
    public static func fields(of bytes: UnsafeBufferPointer<UInt8>, in token: JSONToken) throws(JSONSyntaxError) -> [JSONField] {
        var s = JSONScanner(bytes)
        s.i = token.start
        var out: [JSONField] = []
        try s.object(depth: 0, fields: &out, collect: true)
        return out
    }

    /// The elements of the array value `token`.
    public static func elements(of bytes: UnsafeBufferPointer<UInt8>, in token: JSONToken) throws(JSONSyntaxError) -> [JSONToken] {
        var s = JSONScanner(bytes)
        s.i = token.start
        var out: [JSONToken] = []
        try s.array(depth: 0, elements: &out, collect: true)
        return out
    }

    // MARK: Grammar

    @inline(__always) mutating func skipSpace() {
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 } else { return }
        }
    }

    func fail(_ message: String) -> JSONSyntaxError { JSONSyntaxError(message: message, offset: min(i, bytes.count)) }

    mutating func object(depth: Int, fields: inout [JSONField], collect: Bool) throws(JSONSyntaxError) {
        guard depth < JSONScanner.maximumDepth else { throw fail("nested deeper than \(JSONScanner.maximumDepth) levels") }
        let open = i
        i += 1 // {
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                throw fail(i >= bytes.count ? "unterminated object (opened at column \(open + 1))" : "expected a field name in double quotes")
            }
            let key = try string()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':' after a field name") }
            i += 1
            skipSpace()
            let v = try value(depth: depth + 1)
            if collect { fields.append(JSONField(key: key, value: v)) }
            skipSpace()
            guard i < bytes.count else { throw fail("unterminated object (opened at column \(open + 1))") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return }
            throw fail("expected ',' or '}' after a field")
        }
    }

    mutating func array(depth: Int, elements: inout [JSONToken], collect: Bool) throws(JSONSyntaxError) {
        guard depth < JSONScanner.maximumDepth else { throw fail("nested deeper than \(JSONScanner.maximumDepth) levels") }
        let open = i
        i += 1 // [
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return }
        while true {
            skipSpace()
            let v = try value(depth: depth + 1)
            if collect { elements.append(v) }
            skipSpace()
            guard i < bytes.count else { throw fail("unterminated array (opened at column \(open + 1))") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return }
            throw fail("expected ',' or ']' in an array")
        }
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONToken {
        guard i < bytes.count else { throw fail("expected a value") }
        let b = bytes[i]
        let start = i
        switch b {
        case UInt8(ascii: "\""):
            return try string()
        case UInt8(ascii: "{"):
            var none: [JSONField] = []
            try object(depth: depth, fields: &none, collect: false)
            return JSONToken(kind: .object, start: start, end: i)
        case UInt8(ascii: "["):
            var none: [JSONToken] = []
            try array(depth: depth, elements: &none, collect: false)
            return JSONToken(kind: .array, start: start, end: i)
        case UInt8(ascii: "t"):
            try literal("true"); return JSONToken(kind: .bool, start: start, end: i, bool: true)
        case UInt8(ascii: "f"):
            try literal("false"); return JSONToken(kind: .bool, start: start, end: i, bool: false)
        case UInt8(ascii: "n"):
            try literal("null"); return JSONToken(kind: .null, start: start, end: i)
        case UInt8(ascii: "N"):
            try literal("NaN"); return JSONToken(kind: .nonFinite, start: start, end: i, number: .nan)
        case UInt8(ascii: "I"):
            try literal("Infinity"); return JSONToken(kind: .nonFinite, start: start, end: i, number: .infinity)
        case UInt8(ascii: "-") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "I"):
            i += 1
            try literal("Infinity"); return JSONToken(kind: .nonFinite, start: start, end: i, number: -.infinity)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try number()
        default:
            throw fail("unexpected character '\(Self.printable(b))'")
        }
    }

    static func printable(_ b: UInt8) -> String {
        b >= 0x20 && b < 0x7F ? String(UnicodeScalar(b)) : "\\u{\(String(b, radix: 16))}"
    }

    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let n = word.utf8CodeUnitCount
        let w = word.utf8Start
        guard i + n <= bytes.count else { throw fail("unexpected end of text") }
        for k in 0..<n where bytes[i + k] != w[k] { throw fail("unexpected character '\(Self.printable(bytes[i + k]))'") }
        i += n
    }

    /// A string token; `i` is at the opening quote. Validates escapes and rejects raw control
    /// characters (RFC 8259 §7).
    mutating func string() throws(JSONSyntaxError) -> JSONToken {
        i += 1
        let start = i
        var escapes = false
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                let t = JSONToken(kind: .string, start: start, end: i, hasEscapes: escapes)
                i += 1
                return t
            }
            if b == UInt8(ascii: "\\") {
                escapes = true
                i += 1
                guard i < bytes.count else { break }
                switch bytes[i] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                     UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 1
                case UInt8(ascii: "u"):
                    guard i + 4 < bytes.count, (1...4).allSatisfy({ Self.hexValue(bytes[i + $0]) != nil }) else {
                        throw fail("invalid \\u escape (four hex digits expected)")
                    }
                    i += 5
                default:
                    throw fail("invalid escape '\\\(Self.printable(bytes[i]))'")
                }
                continue
            }
            if b < 0x20 { throw fail("control character in a string (escape it)") }
            i += 1
        }
        throw JSONSyntaxError(message: "unterminated string (opened at column \(start))", offset: bytes.count)
    }

    static func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// A number per RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func number() throws(JSONSyntaxError) -> JSONToken {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        func isDigit(_ k: Int) -> Bool { k < bytes.count && bytes[k] >= 0x30 && bytes[k] <= 0x39 }
        guard isDigit(i) else { throw fail("a digit must follow '-'") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if isDigit(i) { throw fail("numbers must not have leading zeros") }
        } else {
            while isDigit(i) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard isDigit(i) else { throw fail("a digit must follow '.'") }
            while isDigit(i) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard isDigit(i) else { throw fail("a digit must follow the exponent") }
            while isDigit(i) { i += 1 }
        }
        let value = DecimalParser.parse(UnsafeBufferPointer(rebasing: bytes[start..<i]))
        return JSONToken(kind: .number, start: start, end: i, number: value ?? .nan)
    }

    // MARK: Decoding

    /// The text of a string token, escapes decoded. The bytes must be valid UTF-8 (validate the
    /// line first).
    /// - Throws: `JSONSyntaxError` for a lone UTF-16 surrogate in a `\u` escape.
    public static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ t: JSONToken) throws(JSONSyntaxError) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[t.start..<t.end])
        if !t.hasEscapes { return String(decoding: slice, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(slice.count)
        var k = 0
        func hex4(_ at: Int) -> UInt32 {
            (0..<4).reduce(UInt32(0)) { $0 << 4 | hexValue(slice[at + $1])! }
        }
        func append(_ scalar: UInt32) {
            if let u = Unicode.Scalar(scalar) { out.append(contentsOf: Array(String(Character(u)).utf8)) }
        }
        while k < slice.count {
            let b = slice[k]
            guard b == UInt8(ascii: "\\") else { out.append(b); k += 1; continue }
            let e = slice[k + 1]
            k += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                let u = hex4(k)
                k += 4
                if u >= 0xD800 && u < 0xDC00 {
                    guard k + 6 <= slice.count, slice[k] == UInt8(ascii: "\\"), slice[k + 1] == UInt8(ascii: "u") else {
                        throw JSONSyntaxError(message: "unpaired UTF-16 surrogate in a \\u escape", offset: t.start + k)
                    }
                    let low = hex4(k + 2)
                    guard low >= 0xDC00 && low < 0xE000 else {
                        throw JSONSyntaxError(message: "unpaired UTF-16 surrogate in a \\u escape", offset: t.start + k)
                    }
                    k += 6
                    append(0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00))
                } else if u >= 0xDC00 && u < 0xE000 {
                    throw JSONSyntaxError(message: "unpaired UTF-16 surrogate in a \\u escape", offset: t.start + k)
                } else {
                    append(u)
                }
            default: out.append(e) // \" \\ \/
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// True when the string token's decoded text equals `word` (ASCII, no escapes in `word`).
    @inline(__always)
    public static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ t: JSONToken, _ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        if t.hasEscapes { return (try? string(bytes, t)) == word.description }
        guard t.end - t.start == n else { return false }
        let w = word.utf8Start
        for k in 0..<n where bytes[t.start + k] != w[k] { return false }
        return true
    }
}

/// Decimal text → Double, correctly rounded.
public enum DecimalParser {
    /// Exact powers of ten representable in a Double (10^0 … 10^22).
    static let exactPowers: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { r, _ in r * 10 } }

    /// `exactPowers[k]` (0 ≤ k ≤ 22) without the global's lazy initialization check (a switch
    /// of constants, which the compiler makes a table; `exactPowers` cost a `swift_once` call a
    /// number). Each literal is exact (10^k = 2^k · 5^k, and 5^22 < 2^53), so the same bits.
    @_transparent
    static func exactPower(_ k: Int) -> Double {
        switch k {
        case 0: return 1e0
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        case 15: return 1e15
        case 16: return 1e16
        case 17: return 1e17
        case 18: return 1e18
        case 19: return 1e19
        case 20: return 1e20
        case 21: return 1e21
        case 22: return 1e22
        default: return exactPowers[k]
        }
    }

    /// Parses a decimal number (JSON grammar, plus an optional leading `+`). Returns ±infinity
    /// when the magnitude is beyond Double's range (e.g. `1e400`), nil when the text is not a
    /// decimal number. Fast path (Clinger 1990): at most 15 significant digits and a power of ten
    /// within ±22 are both exact, so one multiplication or division rounds correctly; otherwise
    /// `strtod`.
    public static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        if let v = parseShort(text) { return v }
        var k = 0
        let n = text.count
        var negative = false
        if k < n, text[k] == UInt8(ascii: "-") || text[k] == UInt8(ascii: "+") { negative = text[k] == UInt8(ascii: "-"); k += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var exp10 = 0
        var sawDigit = false
        var nonzeroSeen = false
        while k < n, text[k] >= 0x30, text[k] <= 0x39 {
            let d = UInt64(text[k] - 0x30)
            sawDigit = true
            if d != 0 || nonzeroSeen { nonzeroSeen = true; digits += 1 }
            if digits <= 19 { mantissa = mantissa &* 10 &+ d } else { exp10 += 1 }
            k += 1
        }
        if k < n, text[k] == UInt8(ascii: ".") {
            k += 1
            while k < n, text[k] >= 0x30, text[k] <= 0x39 {
                let d = UInt64(text[k] - 0x30)
                sawDigit = true
                if d != 0 || nonzeroSeen { nonzeroSeen = true; digits += 1 }
                if digits <= 19 { mantissa = mantissa &* 10 &+ d; exp10 -= 1 }
                k += 1
            }
        }
        guard sawDigit else { return nil }
        var e = 0
        if k < n, text[k] == UInt8(ascii: "e") || text[k] == UInt8(ascii: "E") {
            k += 1
            var eneg = false
            if k < n, text[k] == UInt8(ascii: "+") || text[k] == UInt8(ascii: "-") { eneg = text[k] == UInt8(ascii: "-"); k += 1 }
            var sawExp = false
            while k < n, text[k] >= 0x30, text[k] <= 0x39 {
                sawExp = true
                if e < 100_000 { e = e * 10 + Int(text[k] - 0x30) }
                k += 1
            }
            guard sawExp else { return nil }
            if eneg { e = -e }
        }
        guard k == n else { return nil }
        let total = exp10 + e
        if digits <= 15, total >= -22, total <= 22 {
            var v = Double(mantissa)
            if total >= 0 { v *= exactPower(total) } else { v /= exactPower(-total) }
            return negative ? -v : v
        }
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        return strtodFallback(text)
    }

    /// The common case in one pass: `[+-]digits[.digits]` with at most 15 digits in all and
    /// no exponent, where the general path below computes `mantissa / 10^fractionDigits` (every
    /// digit is significant or a leading zero, the mantissa and the power exact). Nil for any
    /// other text, which then takes the general path: the two give the same bits.
    @inline(__always)
    static func parseShort(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        let n = text.count
        guard n > 0, n <= 16, let p = text.baseAddress else { return nil }
        let (value, end) = shortPrefix(p, from: 0, to: n)
        return end == n ? value : nil
    }

    /// `parseShort`'s reading of the bytes `p[k..<n]`, stopping at the first byte that cannot
    /// continue a `[+-]digits[.digits]`: where it stopped, and the value of the bytes before
    /// when they are a short decimal (at most 15 digits, 16 bytes). For a reader that looks
    /// for the number's end (a CSV cell's comma) while it reads it. Runs of fewer than eight
    /// digits on both sides of the point are read a word each (`wordDecimal`), longer ones by
    /// two byte loops (`digitRun`); both give the same end and value.
    @inline(__always)
    static func shortPrefix(_ p: UnsafePointer<UInt8>, from k: Int, to n: Int) -> (value: Double?, end: Int) {
        var j = k
        var negative = false
        if j < n, p[j] == UInt8(ascii: "-") { negative = true; j += 1 } else if j < n, p[j] == UInt8(ascii: "+") { j += 1 }
        // At most 1 + 7 + 1 + 7 = 16 bytes and 14 digits: short whenever it has a digit.
        let word = wordDecimal(p, j, n, negative: negative)
        if word.end >= 0 { return (word.value.isNaN ? nil : word.value, word.end) }
        var mantissa: UInt64 = 0
        let first = j
        j = digitRun(p, j, n, &mantissa)
        var digits = j - first
        var fraction = 0
        if j < n, p[j] == UInt8(ascii: ".") {
            j += 1
            let after = j
            j = digitRun(p, j, n, &mantissa)
            fraction = j - after
            digits += fraction
        }
        guard digits > 0, digits <= 15, j - k <= 16 else { return (nil, j) }
        var v = Double(mantissa)
        if fraction > 0 { v /= exactPower(fraction) }
        return (negative ? -v : v, j)
    }

    /// Reads the digits at `p[j..<n]` into `mantissa` (`mantissa * 10 + digit` each, wrapping:
    /// the caller drops a value of more than 15 digits); returns where they end.
    @inline(__always)
    static func digitRun(_ p: UnsafePointer<UInt8>, _ j: Int, _ n: Int, _ mantissa: inout UInt64) -> Int {
        var j = j, m = mantissa
        while j < n {
            let d = p[j] &- 0x30
            if d >= 10 { break }
            m = m &* 10 &+ UInt64(d)
            j += 1
        }
        mantissa = m
        return j
    }

    /// `digits[.digits]` at `p[j..<n]` (`n` ≥ 8) read a word at a time: its value (negated
    /// when `negative`; NaN when it has no digit, which no decimal reads as) and where the
    /// text stops, as `digitRun` before and after a point reads it (`mantissa / 10^fraction
    /// digits`, exact and one rounding: at most 14 digits); `end` -1 (not read) when it has
    /// eight digits or more before the point, or does not stop within 16 bytes (it may go
    /// on), or `n` < 8. The common CSV and NDJSON numbers are one word (`277.26`, `552.07`) or
    /// two (`201.718227`), where a byte loop pays per digit.
    ///
    /// `@_transparent` (as its helpers): inlined into `CSVReader.read(into:)` and the NDJSON
    /// reader's, where `@inline(__always)` is not (the optimizer stops inlining into a function
    /// of more than 400 blocks).
    ///
    /// In `t`, the bytes less 0x30 (`notDigits` marks those that are not digits), the digits
    /// before the point are moved up a byte over it, so the digits are bytes 1..<e of `joined`
    /// (byte 0 zero, a leading zero), `e` the first byte after the point that is not a digit.
    @_transparent
    static func wordDecimal(_ p: UnsafePointer<UInt8>, _ j: Int, _ n: Int, negative: Bool) -> (value: Double, end: Int) {
        guard n >= 8 else { return (0, -1) }
        let t = word(p, j, n) ^ 0x3030_3030_3030_3030
        let marks = notDigits(t)
        let c = marks.trailingZeroBitCount &>> 3   // 8 when every byte is a digit
        guard c < 8 else { return (0, -1) }
        let point = j &+ c
        let mantissa: UInt64, fraction: Int, end: Int
        if point < n, p[point] == UInt8(ascii: ".") {
            let below = (1 as UInt64) &<< UInt64(truncatingIfNeeded: c &<< 3) &- 1   // the c bytes before the point
            let joined = (t & below) &<< 8 | (t & ~(below &<< 8 | 0xFF))
            let after = marks & (marks &- 1)   // the marks after the point's
            if after != 0 {
                let e = after.trailingZeroBitCount &>> 3   // c < e < 8
                mantissa = combined(joined &<< UInt64(truncatingIfNeeded: (8 &- e) &<< 3))
                fraction = e &- 1 &- c
                end = j &+ e
            } else {
                // The fraction goes on into the next word (`joined` is seven digits).
                let u = word(p, j &+ 8, n) ^ 0x3030_3030_3030_3030
                let g = notDigits(u).trailingZeroBitCount &>> 3
                guard g < 8 else { return (0, -1) }
                mantissa = combined(joined) &* tenTo(g) &+ leadingDigits(u, g)
                fraction = 7 &- c &+ g
                end = j &+ 8 &+ g
            }
        } else {
            mantissa = leadingDigits(t, c)
            fraction = 0
            end = point
        }
        guard c &+ fraction > 0 else { return (.nan, end) }
        var v = Double(mantissa)
        if fraction > 0 { v /= exactPower(fraction) }
        return (negative ? -v : v, end)
    }

    /// The eight bytes `p[j..<j + 8]` as a word (the first in its lowest byte); within eight
    /// bytes of `n`, the word ending at `n` shifted down so `p[j]` is its lowest byte and zero
    /// bytes (not digits) fill the top; 0 from `j == n` on (`>>` is the smart shift: by 64 or
    /// more, 0). Reads only `p[0..<n]` (`n` ≥ 8, `j` ≥ 0).
    @_transparent
    static func word(_ p: UnsafePointer<UInt8>, _ j: Int, _ n: Int) -> UInt64 {
        if j &+ 8 <= n { return WordScan.load(p + j) }
        return WordScan.load(p + (n &- 8)) >> UInt64(truncatingIfNeeded: (j &+ 8 &- n) &<< 3)
    }

    /// 0x80 in each byte of `t` (bytes less 0x30: `w ^ 0x30…30`, which for a digit's byte,
    /// 0x30–0x39, is the subtraction) that is not a digit's value (0–9), 0 in the others. Per
    /// byte, `(t & 0x7F) + 0x76` has bit 7 set exactly when `t & 0x7F` ≥ 10 (at most 0x7F +
    /// 0x76 = 0xF5: no carry into the next byte), and `| t` adds the bytes with bit 7 set.
    @_transparent
    static func notDigits(_ t: UInt64) -> UInt64 {
        (((t & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676) | t) & 0x8080_8080_8080_8080
    }

    /// The value of the first `count` bytes of `t` (digits' values, the first in the lowest
    /// byte; 0–8 of them): shifted to the top of the word (what follows drops out, zero bytes
    /// come in below as leading zeros; `<<` is the smart shift, by 64 for none: 0) and combined.
    @_transparent
    static func leadingDigits(_ t: UInt64, _ count: Int) -> UInt64 {
        combined(t << UInt64(truncatingIfNeeded: (8 &- count) &<< 3))
    }

    /// The eight-digit number whose digits' values are the bytes of `v` (the first, most
    /// significant, in the lowest byte), in three multiplications, as simdjson's
    /// `parse_eight_digits_unrolled` (Lemire, "Number parsing at a gigabyte per second", 2021):
    /// `10·a + b` into each 16-bit lane's low byte (at most 99), `100·a + b` into each 32-bit
    /// lane's low half (at most 9,999), then `10⁴·a + b`; each multiplier `1 + m·2^s` adds `m`
    /// times a lane to the lane below it, and nothing carries out of a lane.
    @_transparent
    static func combined(_ v: UInt64) -> UInt64 {
        let pairs = ((v &* (1 + 10 << 8)) >> 8) & 0x00FF_00FF_00FF_00FF
        let fours = ((pairs &* (1 + 100 << 16)) >> 16) & 0x0000_FFFF_0000_FFFF
        return (fours &* (1 + 10_000 << 32)) >> 32
    }

    /// 10^k for 0 ≤ k ≤ 7, exact (a switch of constants: a table).
    @_transparent
    static func tenTo(_ k: Int) -> UInt64 {
        switch k {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1_000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        default: return 10_000_000
        }
    }

    static func strtodFallback(_ text: UnsafeBufferPointer<UInt8>) -> Double {
        var buffer = [CChar](repeating: 0, count: text.count + 1)
        for k in 0..<text.count { buffer[k] = CChar(bitPattern: text[k]) }
        return buffer.withUnsafeBufferPointer { strtod($0.baseAddress!, nil) }
    }
}
