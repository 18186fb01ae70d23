import Testing
#if canImport(Glibc)
import Glibc
#endif
import PressCore
@testable import PressFormats

@Suite struct JSONScannerTests {
    func number(_ text: String) -> Double? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { DecimalParser.parse(UnsafeBufferPointer($0)) }
    }

    func fields(_ text: String) throws -> [JSONField] {
        var bytes = Array(text.utf8)
        return try bytes.withUnsafeMutableBufferPointer { mb in
            var s = JSONScanner(UnsafeBufferPointer(mb))
            var out: [JSONField] = []
            try s.scanObject(into: &out)
            return out
        }
    }

    // Bit patterns from Python: hex(struct.unpack('<Q', struct.pack('<d', float(text)))[0]).
    @Test func decimalsAreCorrectlyRounded() {
        #expect(number("12.034")?.bitPattern == 0x4028_1168_72B0_20C5)
        #expect(number("0.1")?.bitPattern == 0x3FB9_9999_9999_999A)
        #expect(number("0.30000000000000004")?.bitPattern == 0x3FD3_3333_3333_3334)
        #expect(number("1.7976931348623157e308")?.bitPattern == 0x7FEF_FFFF_FFFF_FFFF)
        #expect(number("5e-324")?.bitPattern == 0x1)
        #expect(number("123456789012345678901234567890")?.bitPattern == 0x45F8_EE90_FF6C_373E)
        #expect(number("-0")?.sign == .minus)
        #expect(number("1e400") == .infinity)
        #expect(number("-1e400") == -.infinity)
        #expect(number("1e") == nil)
        #expect(number("abc") == nil)
    }

    @Test func scansFieldsAndValidatesNestedValues() throws {
        let f = try fields(#" {"a": 1.5, "b": [1, {"c": null}], "d": "x\"y", "e": true} "#)
        #expect(f.count == 4)
        #expect(f[0].value.kind == .number && f[0].value.number == 1.5)
        #expect(f[1].value.kind == .array)
        #expect(f[2].value.kind == .string && f[2].value.hasEscapes)
        #expect(f[3].value.kind == .bool && f[3].value.bool)
    }

    @Test func rejectsMalformedJSON() {
        for bad in [#"{"a":01}"#, #"{"a":1,}"#, #"{"a":1} x"#, #"{"a" 1}"#, #"{'a':1}"#, #"{"a":"\x"}"#,
                    #"{"a":[1,]}"#, #"{"a":"#, "[1]", #"{"a":.5}"#, #"{"a":tru}"#, "{\"a\":\"\u{1}\"}"] {
            #expect(throws: JSONSyntaxError.self, "\(bad)") { try fields(bad) }
        }
    }

    @Test func nonFiniteTokensAreRecognisedByName() throws {
        let f = try fields(#"{"a": NaN, "b": -Infinity}"#)
        #expect(f[0].value.kind == .nonFinite && f[0].value.number.isNaN)
        #expect(f[1].value.number == -.infinity)
    }

    @Test func decodesEscapesIncludingSurrogatePairs() throws {
        // U+1F600 is the UTF-16 pair D83D DE00; "é" is U+00E9.
        var bytes = Array(#"{"s":"a\n\u00e9\ud83d\ude00\/"}"#.utf8)
        let text = try bytes.withUnsafeMutableBufferPointer { mb -> String in
            let b = UnsafeBufferPointer(mb)
            var s = JSONScanner(b)
            var out: [JSONField] = []
            try s.scanObject(into: &out)
            return try JSONScanner.string(b, out[0].value)
        }
        #expect(text == "a\n\u{E9}\u{1F600}/")
        var lone = Array(#"{"s":"\ud83d"}"#.utf8)
        #expect(throws: JSONSyntaxError.self) {
            try lone.withUnsafeMutableBufferPointer { mb in
                let b = UnsafeBufferPointer(mb)
                var s = JSONScanner(b)
                var out: [JSONField] = []
                try s.scanObject(into: &out)
                _ = try JSONScanner.string(b, out[0].value)
            }
        }
    }

    @Test func canonicalJSONSortsKeysAndEscapes() {
        #expect(JSONText.object([("b", "1"), ("a", "\"x\"")]) == #"{"a":"x","b":1}"#)
        #expect(JSONText.string("q\"\n\u{1}") == #""q\"\n\u0001""#)
        #expect(JSONText.number(10) == "10")
        #expect(JSONText.number(0.15) == "0.15")
    }

    /// The one-pass path for short decimals (`DecimalParser.parseShort`) gives glibc's
    /// correctly rounded `strtod` bits: 20,000 seeded decimals of 1–15 digits, some signed,
    /// some with leading zeros, a point anywhere or none; and text it must leave to the general
    /// path (exponents, two points, no digit, 16 digits) parses as before.
    @Test func shortDecimalsMatchStrtod() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        for _ in 0..<20_000 {
            let digits = Int(next() % 15) + 1
            var text = next() % 4 == 0 ? "-" : (next() % 16 == 0 ? "+" : "")
            let point = Int(next() % UInt64(digits + 2)) - 1  // -1: no point
            for k in 0..<digits {
                if k == point { text += "." }
                text += String(next() % 10)
            }
            if point == digits { text += "." }
            let expected = strtod(text, nil)
            let parsed = number(text)
            #expect(parsed?.bitPattern == expected.bitPattern, "\(text)")
        }
        #expect(number("1.5e3") == 1500)
        #expect(number("1.2.3") == nil)
        #expect(number("-") == nil)
        #expect(number(".") == nil)
        #expect(number("1234567890123456") == 1234567890123456)
        #expect(number("0.1234567890123456")?.bitPattern == strtod("0.1234567890123456", nil).bitPattern)
    }

    /// A short decimal followed by other bytes (a CSV cell's comma, a JSON value's `,` `}` `]`),
    /// read by `DecimalParser.shortPrefix` (its digit loops): glibc's
    /// `strtod` bits for the number's text, and its end where the number stops: 20,000 seeded
    /// decimals of 1–7 digits with a point anywhere or none, then a byte that cannot continue it
    /// and padding. Text with a second point stops there, as the byte loop does.
    @Test func shortPrefixInAWordMatchesStrtod() {
        var seeded = SeededDecimals(state: 0x0123_4567_89AB_CDEF)
        for _ in 0..<20_000 {
            let (text, _) = seeded.text(digits: Int(seeded.next() % 7) + 1)
            let bytes = seeded.followed(text, padding: 9)
            let (value, end) = bytes.withUnsafeBufferPointer { DecimalParser.shortPrefix($0.baseAddress!, from: 0, to: $0.count) }
            #expect(end == text.utf8.count, "\(text)")
            #expect(value?.bitPattern == strtod(text, nil).bitPattern, "\(text)")
        }
        func prefix(_ s: String) -> (Double?, Int) {
            Array(s.utf8).withUnsafeBufferPointer { DecimalParser.shortPrefix($0.baseAddress!, from: 0, to: $0.count) }
        }
        #expect(prefix("1.2.3,,,,,,") == (1.2, 3))
        #expect(prefix("-.,,,,,,,,,") == (nil, 2))
        #expect(prefix(".,,,,,,,,,,") == (nil, 1))
        #expect(prefix(",,,,,,,,,,,") == (nil, 0))
        #expect(prefix("1234567,,,,") == (1234567, 7))
        #expect(prefix("12345678,,,") == (12345678, 8))
    }

    /// Longer decimals (CSV times like `201.718227`: 8–17 bytes), followed by a byte that cannot
    /// continue them and 0–16 bytes of padding (so the number sometimes ends the bytes): glibc's
    /// `strtod` bits and the number's end, for `shortPrefix` and for NDJSON's plain lines (the
    /// fast path, `read(into:)`, `DecimalParser.digitRun`). 20,000 seeded decimals of 7–15
    /// digits, some signed, a point anywhere or none (over 16 bytes: not short, nil); and text
    /// at the limits (16 digits, a second point) read as the byte loop reads it.
    @Test func shortPrefixInTwoWordsMatchesStrtod() throws {
        var seeded = SeededDecimals(state: 0x2545_F491_4F6C_DD1D)
        var texts: [String] = []
        for _ in 0..<20_000 {
            let digits = Int(seeded.next() % 9) + 7
            let (text, point) = seeded.text(digits: digits)
            let bytes = seeded.followed(text, padding: 17)
            let (value, end) = bytes.withUnsafeBufferPointer { DecimalParser.shortPrefix($0.baseAddress!, from: 0, to: $0.count) }
            #expect(end == text.utf8.count, "\(text)")
            // Short means at most 16 bytes (a sign, 15 digits and a point is 17: not short).
            let short = text.utf8.count <= 16
            #expect(value?.bitPattern == (short ? strtod(text, nil).bitPattern : nil), "\(text)")
            if point != digits, !text.hasPrefix("-0"), !text.hasPrefix("0"), !text.hasPrefix("-.") && !text.hasPrefix(".") {
                texts.append(text)
            }
        }
        func prefix(_ s: String) -> (Double?, Int) {
            Array(s.utf8).withUnsafeBufferPointer { DecimalParser.shortPrefix($0.baseAddress!, from: 0, to: $0.count) }
        }
        #expect(prefix("1234567890123456,") == (nil, 16))          // 16 digits: not short
        #expect(prefix("123456789012345,") == (123456789012345, 15))
        #expect(prefix("12345678.1.2,,,,,") == (12345678.1, 10))  // a second point stops it
        #expect(prefix("1234567.,,,,,,,,,") == (1234567, 8))
        #expect(prefix("0.014016,") == (0.014016, 8))
        #expect(prefix("0.014016") == (0.014016, 8))
        // The same numbers as NDJSON plain lines' t, x and y (JSON's grammar: no leading zero
        // but `0`, a digit after a point), read a chunk at a time.
        let lines = texts.prefix(3_000).map { #"{"session":"s","t":\#($0),"phase":"moved","x":\#($0),"y":1.5}"# }
        var reader = NDJSONReader(ByteInput(text: lines.joined(separator: "\n"), name: "two-words.ndjson"))
        let read = try readChunks(&reader, limit: 64)
        #expect(read.items.count == lines.count)
        for (item, text) in zip(read.items, texts) {
            guard case .touch(let r) = item else { Issue.record("not a touch: \(item) for \(text)"); continue }
            #expect(r.sample.t.bitPattern == strtod(text, nil).bitPattern, "\(text)")
            #expect(r.sample.x.bitPattern == strtod(text, nil).bitPattern, "\(text)")
        }
    }
}

extension JSONScannerTests {
    /// The CSV reader's plain rows read their numbers in place a word or two at a time
    /// (`DecimalParser.wordDecimal`, inlined into `read(into:)`): glibc's `strtod` bits for
    /// 20,000 seeded decimals of 1–15 digits, signed or not, a point anywhere or none, as the
    /// t, x and y of rows that end after y (the word read back from the line's end) or go on
    /// with empty cells; and a number of eight or more digits before the point, or cut by
    /// the line's end, read as `DecimalParser.parse` reads it.
    @Test func csvPlainRowNumbersMatchStrtod() throws {
        var seeded = SeededDecimals(state: 0x5851_F42D_4C95_7F2D)
        var texts: [String] = []
        for _ in 0..<20_000 {
            texts.append(seeded.text(digits: Int(seeded.next() % 15) + 1).text)
        }
        texts += ["12345678.5", "123456789", "-1234567.25", "0.000635", "201.718227", "1.", ".5", "-0.0"]
        // Five columns (each row ends after y), and six (an empty cell after y).
        for (header, after) in [("session,t,phase,x,y", ""), ("session,t,phase,x,y,screen", ",")] {
            let rows = texts.map { "s,\($0),moved,\($0),\($0)\(after)" }
            var reader = CSVReader(ByteInput(text: ([header] + rows).joined(separator: "\n"), name: "numbers.csv"))
            let read = try readChunks(&reader, limit: 64)
            #expect(read.items.count == texts.count)
            for (item, text) in zip(read.items, texts) {
                let expected = strtod(text, nil)
                guard case .touch(let r) = item else { Issue.record("not a touch: \(item) for \(text)"); continue }
                #expect(r.sample.t.bitPattern == expected.bitPattern, "\(text)")
                #expect(r.sample.x.bitPattern == expected.bitPattern, "\(text)")
                #expect(r.sample.y.bitPattern == expected.bitPattern, "\(text)")
            }
        }
    }
}

/// Seeded decimal texts for the `shortPrefix` tests (a 64-bit LCG, Knuth's MMIX constants).
private struct SeededDecimals {
    var state: UInt64
    static let stops: [UInt8] = Array(",}]x\"e -+".utf8) + [0x00, 0x2F, 0x3A, 0xFA, 0xFF]

    mutating func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }

    /// `digits` digits, a minus one time in four, a point before any digit, after the last
    /// (`point == digits`) or none (`point == -1`).
    mutating func text(digits: Int) -> (text: String, point: Int) {
        var text = next() % 4 == 0 ? "-" : ""
        let point = Int(next() % UInt64(digits + 2)) - 1
        for k in 0..<digits {
            if k == point { text += "." }
            text += String(next() % 10)
        }
        if point == digits { text += "." }
        return (text, point)
    }

    /// `text`'s bytes, then a byte that cannot continue a number and `0..<padding` commas.
    mutating func followed(_ text: String, padding: Int) -> [UInt8] {
        var bytes = Array(text.utf8)
        bytes.append(Self.stops[Int(next() % UInt64(Self.stops.count))])
        bytes += Array(repeating: UInt8(ascii: ","), count: Int(next() % UInt64(padding)))
        return bytes
    }
}
