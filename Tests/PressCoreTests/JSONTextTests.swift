// The one number and string writer every pressdb output uses.
import Testing
@testable import PressCore

@Suite struct JSONTextTests {
    // Texts python3 gives for the same values (repr, json.dumps), where they need no fraction
    // rule: 0.1 + 0.2 → 0.30000000000000004, 1e-05, 2.5e+16, 5e-324, 1.7976931348623157e+308.
    // Whole numbers up to 2^53 = 9007199254740992 carry no ".0" (pressdb's rule, stricter than
    // repr's "-3.0"); negative zero keeps its sign.
    @Test func numbersInTheirShortestRoundTripText() {
        let cases: [(Double, String)] = [
            (0.1 + 0.2, "0.30000000000000004"), (1e-5, "1e-05"), (2.5e16, "2.5e+16"), (Double.leastNonzeroMagnitude, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"), (-3, "-3"), (123.25, "123.25"), (0, "0"),
            (-0.0, "-0"), (9_007_199_254_740_992, "9007199254740992"), (1e15, "1000000000000000"),
        ]
        for (value, text) in cases {
            #expect(JSONText.number(value) == text)
            var bytes: [UInt8] = []
            JSONText.appendNumber(value, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == text)
            let back = Double(text)
            #expect(back == value && back?.sign == value.sign, "\(text)")
        }
        // Past 2^53 not every integer is a Double: the text is Swift's shortest digits (an
        // exponent form), which read back as the same value.
        let big = 9_007_199_254_740_994.0
        #expect(Double(JSONText.number(big)) == big && JSONText.number(big).contains("e+15"))
        #expect(JSONText.number(.infinity) == "inf" && JSONText.number(.nan) == "nan")
    }

    @Test func integersAtTheirLimits() {
        for (n, text) in [(Int64.min, "-9223372036854775808"), (Int64.max, "9223372036854775807"), (0, "0"), (-7, "-7")] {
            var bytes: [UInt8] = []
            JSONText.appendInteger(n, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == text)
        }
    }

    // python3: json.dumps('q"\\\n\r\t\x01\x1f\x7fé', ensure_ascii=False) escapes the same way:
    // "q\"\\\n\r\t\u0001\u001f" then DEL and é as they are.
    @Test func stringsEscapedPerRFC8259() {
        #expect(JSONText.string("q\"\\\n\r\t\u{1}\u{1F}\u{7F}é") == "\"q\\\"\\\\\\n\\r\\t\\u0001\\u001f\u{7F}é\"")
        #expect(JSONText.string("") == "\"\"")
        #expect(JSONText.object([("b", "1"), ("a", "\"x\""), ("B", "null")]) == #"{"B":null,"a":"x","b":1}"#)
    }

    // Canonical JSON writes through the same rules, plus its own two: −0 as 0, non-finite as null.
    @Test func canonicalJSONUsesTheSameWriter() {
        #expect(CanonicalJSON.array([.number(-0.0), .number(.nan), .number(0.1 + 0.2), .string("\u{1}")]).text
                == #"[0,null,0.30000000000000004,"\u0001"]"#)
    }
}

@Suite struct CountedTests {
    // English number agreement: the singular for exactly one, the plural otherwise (also for 0).
    @Test func singularForOneOnly() {
        #expect(counted(1, "user") == "1 user")
        #expect(counted(0, "user") == "0 users")
        #expect(counted(2, "session") == "2 sessions")
        #expect(counted(3, "press", plural: "presses") == "3 presses")
        #expect(counted(1, "press", plural: "presses") == "1 press")
    }
}
