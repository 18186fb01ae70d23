/// Round axis ticks after Paul S. Heckbert, "Nice numbers for graph labels", Graphics Gems
/// (Academic Press, 1990), pp. 61–63: steps are 1, 2 or 5 × 10^k and the axis is widened
/// outwards to whole steps ("loose labeling"), so every label is a round number.
public enum NiceTicks {
    /// The default number of ticks asked for (Heckbert's `ntick`); the result may have a few more
    /// or fewer.
    public static let defaultCount = 5

    /// Heckbert's `nicenum`: a 1, 2, 5 or 10 × 10^k near `x` (> 0). With `round` the nearest one
    /// (thresholds 1.5, 3 and 7 on the fraction), otherwise the smallest one ≥ `x`.
    public static func niceNumber(_ x: Double, round: Bool) -> Double {
        let (mantissa, exponent) = niceStep(x, round: round)
        return value(mantissa: Int64(mantissa), exponent: exponent)
    }

    /// Ticks covering `lower…upper` (any order) in round steps, about `count` of them.
    ///
    /// The step is Heckbert's `nicenum(span / (count − 1), round: true)` and the ends are
    /// `floor(lower / step)` and `ceil(upper / step)` steps. One deliberate difference: Heckbert
    /// first widens the span itself to a nice number (`nicenum(span, round: false)`) before
    /// dividing; that can double the step (0…237 would get steps of 100: 0, 100, 200, 300),
    /// so the raw span is divided instead (0…237 → 0, 50, …, 250; 0…0.97 → 0, 0.2, …, 1.0).
    /// A zero span is widened to ±10 % of the value (±1 around zero). Labels carry Heckbert's
    /// `nfrac = max(−floor(log10(step)), 0)` decimals and are built from integers, so they are
    /// exact ("0.3", never "0.30000000000000004").
    public static func ticks(from lower: Double, to upper: Double, count: Int = defaultCount) -> TickSet {
        var lo = min(lower, upper), hi = max(lower, upper)
        if !lo.isFinite || !hi.isFinite { lo = 0; hi = 1 }
        if lo == hi {
            let pad = lo == 0 ? 1 : abs(lo) * 0.1
            lo -= pad
            hi += pad
        }
        let intervals = Double(max(count, 2) - 1)
        let (stepMantissa, exponent) = niceStep((hi - lo) / intervals, round: true)
        let step = value(mantissa: Int64(stepMantissa), exponent: exponent)
        // A tolerance of 1e-9 step keeps 0.6 / 0.2 = 2.9999999999999996 from adding a step.
        let first = Int64((lo / step + 1e-9).rounded(.down))
        let last = Int64((hi / step - 1e-9).rounded(.up))
        let fractionDigits = max(-exponent, 0)
        var values: [Double] = []
        var labels: [String] = []
        for k in first...max(first, last) {
            let mantissa = k * Int64(stepMantissa)
            values.append(value(mantissa: mantissa, exponent: exponent))
            labels.append(label(mantissa: mantissa, exponent: exponent, fractionDigits: fractionDigits))
        }
        return TickSet(values: values, labels: labels, step: step, fractionDigits: fractionDigits)
    }

    /// (mantissa ∈ {1, 2, 5}, exponent) with mantissa × 10^exponent Heckbert's nice number.
    static func niceStep(_ x: Double, round: Bool) -> (Int, Int) {
        guard x > 0, x.isFinite else { return (1, 0) }
        var exponent = Int(log10(x).rounded(.down))
        let fraction = x / value(mantissa: 1, exponent: exponent)
        var mantissa: Int
        if round {
            mantissa = fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10
        } else {
            mantissa = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10
        }
        if mantissa == 10 {
            mantissa = 1
            exponent += 1
        }
        return (mantissa, exponent)
    }

    /// mantissa × 10^exponent, dividing by an exact power of ten for negative exponents so the
    /// result is the double nearest the decimal (3 × 10^−1 → 0.3 exactly as written).
    static func value(mantissa: Int64, exponent: Int) -> Double {
        exponent >= 0
            ? Double(mantissa) * NumberText.power10(exponent)
            : Double(mantissa) / NumberText.power10(-exponent)
    }

    static func label(mantissa: Int64, exponent: Int, fractionDigits: Int) -> String {
        if exponent >= 0 {
            let digits = mantissa == 0 ? "0" : String(mantissa.magnitude) + String(repeating: "0", count: exponent)
            return (mantissa < 0 ? NumberText.minus : "") + digits
        }
        return NumberText.decimal(mantissa: mantissa, fractionDigits: fractionDigits)
    }
}

/// Tick values with their labels, ascending, evenly spaced by `step`.
public struct TickSet: Sendable, Equatable {
    /// Tick values in data units, ascending; the first and last are the widened axis ends.
    public let values: [Double]
    /// One label per value, with `fractionDigits` decimals.
    public let labels: [String]
    /// The distance between ticks (1, 2 or 5 × 10^k).
    public let step: Double
    /// Decimals shown on every label.
    public let fractionDigits: Int

    /// The axis's lower end (the first tick).
    public var lower: Double { values.first ?? 0 }
    /// The axis's upper end (the last tick).
    public var upper: Double { values.last ?? 1 }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
