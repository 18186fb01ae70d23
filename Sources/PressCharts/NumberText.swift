/// Decimal text for numbers shown to readers, free of binary floating-point noise.
///
/// Every function rounds to a fixed count of decimals by integer arithmetic, so 0.1 + 0.2 prints
/// as "0.3" (not "0.30000000000000004"). Negative numbers use U+2212 MINUS SIGN ("−"), the
/// typographic minus, which screen readers announce as "minus"; a value that rounds to zero is
/// printed without a sign.
public enum NumberText {
    /// The typographic minus sign, U+2212.
    public static let minus = "\u{2212}"

    /// `value` rounded to exactly `digits` decimals ("1.50" for 1.5 with 2 digits).
    /// Non-finite values print as "–" (en dash); `digits` is clamped to 0…12.
    public static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "\u{2013}" }
        let digits = min(max(digits, 0), 12)
        let scaled = (abs(value) * power10(digits)).rounded()
        guard scaled < 9.0e15 else {
            // Too large for exact integer arithmetic: fall back to the shortest representation.
            return (value < 0 ? minus : "") + "\(abs(value))"
        }
        return decimal(mantissa: (value < 0 ? -1 : 1) * Int64(scaled), fractionDigits: digits)
    }

    /// Like `fixed`, with an explicit "+" on positive values (for differences: "+8.0", "−4.0", "0.0").
    public static func signed(_ value: Double, digits: Int) -> String {
        let text = fixed(value, digits: digits)
        return value > 0 && text.contains(where: { $0 != "0" && $0 != "." }) ? "+" + text : text
    }

    /// `value` rounded to at most `maxDigits` decimals, trailing zeros dropped ("83.3", "100").
    public static func compact(_ value: Double, maxDigits: Int) -> String {
        var text = fixed(value, digits: maxDigits)
        guard text.contains(".") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// A fraction 0…1 as a percentage with `digits` decimals and a thin space: 0.8234 → "82.3 %".
    public static func percent(_ fraction: Double, digits: Int = 1) -> String {
        fixed(fraction * 100, digits: digits) + "\u{2009}%"
    }

    /// The decimal text of `mantissa` × 10^(−fractionDigits), built from the integer's digits.
    static func decimal(mantissa: Int64, fractionDigits: Int) -> String {
        let sign = mantissa < 0 ? minus : ""
        var digits = String(mantissa.magnitude)
        guard fractionDigits > 0 else { return sign + digits }
        if digits.count <= fractionDigits {
            digits = String(repeating: "0", count: fractionDigits - digits.count + 1) + digits
        }
        let split = digits.index(digits.endIndex, offsetBy: -fractionDigits)
        return sign + digits[..<split] + "." + digits[split...]
    }

    /// 10^n for 0 ≤ n ≤ 22, exact in binary64 (every power of ten up to 10^22 is representable).
    static func power10(_ n: Int) -> Double {
        var p = 1.0
        for _ in 0..<max(0, n) { p *= 10 }
        return p
    }
}
