// CAMediaTimingFunction's cubic Bézier, solved for y at a given x (reference §3, "Timing curves").

/// A timing function: the cubic Bézier from (0, 0) to (1, 1) through control points (x1, y1) and
/// (x2, y2). `value(at:)` maps the fraction of the duration elapsed to the fraction of the
/// distance covered. The polynomial coefficients are derived once at init.
///
/// ```swift
/// let ease = try TimingCurve.easeInEaseOut.unitBezier()
/// ease.value(at: 0.5)   // 0.5
/// ```
public struct UnitBezier: Hashable, Sendable {
    /// The solve stops when |x(t) − x| is below this: 1e-12 (the task asks 1e-7 or better).
    public static let solveTolerance = 1e-12
    /// Newton steps tried before the bisection fallback: 8.
    public static let newtonSteps = 8
    /// Bisection halvings at most: 64 (the interval is then far below the tolerance).
    public static let bisectionSteps = 64

    public let x1: Double, y1: Double, x2: Double, y2: Double
    // x(t) = ((ax·t + bx)·t + cx)·t, likewise y; from the Bernstein form with P0 = (0,0), P3 = (1,1).
    private let ax: Double, bx: Double, cx: Double
    private let ay: Double, by: Double, cy: Double
    /// x1 = y1 and x2 = y2 (e.g. `linear`): y = x exactly, no solve needed (and `value(at:)`,
    /// a clamp, is monotonic in floating point too).
    let isIdentity: Bool

    /// - Throws: `AnimationParameterError` when x1 or x2 lies outside [0, 1] (the curve would not be
    ///   a function of x), or a value is not finite.
    public init(x1: Double, y1: Double, x2: Double, y2: Double) throws(AnimationParameterError) {
        try AnimationParameterError.check("x1", x1, (0...1).contains(x1), "in [0, 1]")
        try AnimationParameterError.check("x2", x2, (0...1).contains(x2), "in [0, 1]")
        try AnimationParameterError.check("y1", y1, true, "finite")
        try AnimationParameterError.check("y2", y2, true, "finite")
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        cx = 3 * x1; bx = 3 * (x2 - x1) - cx; ax = 1 - cx - bx
        cy = 3 * y1; by = 3 * (y2 - y1) - cy; ay = 1 - cy - by
        isIdentity = x1 == y1 && x2 == y2
    }

    /// An interval holding every `value(at:)`: the hull of the control points' y, 0 and 1 (a
    /// Bézier curve lies in the convex hull of its control points, and the solve returns a curve
    /// parameter in [0, 1]).
    public var valueRange: ClosedRange<Double> { min(0, y1, y2)...max(1, y1, y2) }

    /// x at curve parameter t.
    public func x(atParameter t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    /// y at curve parameter t.
    public func y(atParameter t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    private func dx(atParameter t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The curve parameter t in [0, 1] with x(t) = `x` (x clamped to [0, 1]): Newton's method from
    /// t = x, falling back to bisection (x(t) is monotonic for x1, x2 in [0, 1]).
    public func parameter(forX x: Double) -> Double {
        let x = min(max(x, 0), 1)
        var t = x
        for _ in 0..<UnitBezier.newtonSteps {
            let err = self.x(atParameter: t) - x
            if abs(err) < UnitBezier.solveTolerance { return t }
            let slope = dx(atParameter: t)
            if abs(slope) < 1e-9 { break }
            t -= err / slope
            if !(0...1).contains(t) { break }
        }
        var lo = 0.0, hi = 1.0
        t = x
        for _ in 0..<UnitBezier.bisectionSteps {
            let xt = self.x(atParameter: t)
            if abs(xt - x) < UnitBezier.solveTolerance { return t }
            if xt < x { lo = t } else { hi = t }
            t = (lo + hi) / 2
        }
        return t
    }

    /// The fraction of the distance covered when `fraction` of the duration has elapsed
    /// (`CAMediaTimingFunction` applied); `fraction` is clamped to [0, 1].
    public func value(at fraction: Double) -> Double {
        if isIdentity { return min(max(fraction, 0), 1) }
        return y(atParameter: parameter(forX: fraction))
    }
}

extension TimingCurve {
    /// Core Animation's control points (x1, y1, x2, y2) of this curve (reference §3).
    public var controlPoints: (x1: Double, y1: Double, x2: Double, y2: Double) {
        switch self {
        case .linear: return (0, 0, 1, 1)
        case .easeIn: return (0.42, 0, 1, 1)
        case .easeOut: return (0, 0, 0.58, 1)
        case .easeInEaseOut: return (0.42, 0, 0.58, 1)
        case .default: return (0.25, 0.1, 0.25, 1)
        case let .cubicBezier(x1, y1, x2, y2): return (x1, y1, x2, y2)
        }
    }

    /// The solver for this curve.
    /// - Throws: `AnimationParameterError` for custom control points with x outside [0, 1].
    public func unitBezier() throws(AnimationParameterError) -> UnitBezier {
        let p = controlPoints
        return try UnitBezier(x1: p.x1, y1: p.y1, x2: p.x2, y2: p.y2)
    }
}
