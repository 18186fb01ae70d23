// SQL functions pressdb registers on every connection so report files stay plain SQL.
//
//   percentile(x, f)         aggregate: the f-quantile (0 ≤ f ≤ 1) of the non-null x in the group,
//                            Hyndman & Fan type 7 (R's and NumPy's default: linear interpolation
//                            between order statistics at h = (n − 1)·f). NULL for an empty group.
//                            With ±inf among the values: the weighted mean of the two order
//                            statistics, so ±inf where one is weighted (`Percentile.type7`);
//                            NULL only when −inf and +inf both are.
//   wilson_low(k, n [, z])   lower end of the Wilson score interval for k successes in n trials
//   wilson_high(k, n [, z])  upper end; z defaults to 1.959963984540054 (two-sided 95 %).
//                            Wilson, E. B. (1927), "Probable inference, the law of succession,
//                            and statistical inference", JASA 22:209–212. NULL when n = 0.
//   ratio_low(x, y)          aggregate over units (one row per user, say: x its presses, y its
//   ratio_high(x, y)         presses with an event): the ends of the 95 % interval of ΣY/ΣX with
//                            the delta-method standard error of PressStats' `RatioSummary`
//                            (Deng, Knoblich & Lu 2018), R̂ ± z·SE (`NormalInference.fixedHorizon`).
//                            NULL for fewer than 2 units or ΣX = 0.
import CSQLite
import PressStats
import PressSQLite
import PressStore
import PressIngest

/// The z for a two-sided 95 % interval, Φ⁻¹(0.975).
public let z95 = 1.959963984540054

/// The Wilson score interval for `successes` out of `trials` at normal quantile `z`, computed by
/// PressStats' `WilsonInterval` (α = 2·(1 − Φ(z))). Nil when `trials` is 0 or the counts are
/// not whole numbers with 0 ≤ successes ≤ trials.
public func wilsonInterval(successes: Double, trials: Double, z: Double = z95) -> (low: Double, high: Double)? {
    guard trials > 0, successes >= 0, successes <= trials,
          successes == successes.rounded(), trials == trials.rounded(), trials < 9e15 else { return nil }
    let alpha = 2 * StandardNormal.survival(z)
    guard let w = try? WilsonInterval(Proportion(successes: Int(successes), trials: Int(trials)), alpha: alpha) else {
        return nil
    }
    return (w.interval.lower, w.interval.upper)
}

/// The type-7 quantile of `values` (any order) at fraction `f` in [0, 1]
/// (`Percentile.type7`); nil for an empty sample or f outside [0, 1].
public func percentileType7(_ values: [Double], _ f: Double) -> Double? {
    guard !values.isEmpty, f >= 0, f <= 1 else { return nil }
    return Percentile.type7(f, ofSorted: values.sorted())
}

/// The 95 % delta-method interval of a ratio metric over units (`RatioSummary`), nil when its
/// standard error is not defined (fewer than 2 units, ΣX = 0).
public func ratioInterval(_ summary: RatioSummary) -> (low: Double, high: Double)? {
    let se = summary.standardError
    guard se.isFinite, summary.estimate.isFinite else { return nil }
    let h = NormalInference.fixedHorizon(alpha: 2 * StandardNormal.survival(z95)).halfWidth(standardError: se)
    return (summary.estimate - h, summary.estimate + h)
}

private final class RatioState {
    var summary = RatioSummary.zero
}

private final class PercentileState {
    var values: [Double] = []
    var fraction: Double = .nan
}

/// Registers pressdb's report functions on a SQLite connection. Returns SQLite's result code
/// (SQLITE_OK on success).
@discardableResult
public func registerReportFunctions(_ db: OpaquePointer) -> Int32 {
    let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
    var rc = sqlite3_create_function_v2(db, "percentile", 2, flags, nil, nil, { ctx, argc, argv in
        // xStep: collect the value; remember the fraction.
        guard let ctx, let argv else { return }
        let slot = sqlite3_aggregate_context(ctx, Int32(MemoryLayout<UnsafeMutableRawPointer?>.size))!
            .assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        if slot.pointee == nil {
            slot.pointee = Unmanaged.passRetained(PercentileState()).toOpaque()
        }
        let state = Unmanaged<PercentileState>.fromOpaque(slot.pointee!).takeUnretainedValue()
        if state.fraction.isNaN {
            let f = sqlite3_value_double(argv[1])
            guard sqlite3_value_type(argv[1]) != SQLITE_NULL, f >= 0, f <= 1 else {
                sqlite3_result_error(ctx, "percentile(x, f): f must be a fraction between 0 and 1", -1)
                return
            }
            state.fraction = f
        }
        if sqlite3_value_type(argv[0]) != SQLITE_NULL {
            state.values.append(sqlite3_value_double(argv[0]))
        }
    }, { ctx in
        // xFinal: compute, then release the state.
        guard let ctx else { return }
        guard let raw = sqlite3_aggregate_context(ctx, 0) else { sqlite3_result_null(ctx); return }
        let slot = raw.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        guard let pointer = slot.pointee else { sqlite3_result_null(ctx); return }
        let state = Unmanaged<PercentileState>.fromOpaque(pointer).takeRetainedValue()
        slot.pointee = nil
        if let q = percentileType7(state.values, state.fraction) { sqlite3_result_double(ctx, q) }
        else { sqlite3_result_null(ctx) }
    }, nil)
    guard rc == SQLITE_OK else { return rc }
    for (name, isHigh) in [("wilson_low", false), ("wilson_high", true)] {
        for argc: Int32 in [2, 3] {
            let userData = UnsafeMutableRawPointer(bitPattern: isHigh ? 2 : 1)
            rc = sqlite3_create_function_v2(db, name, argc, flags, userData, { ctx, argc, argv in
                guard let ctx, let argv else { return }
                if sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL {
                    sqlite3_result_null(ctx); return
                }
                let k = sqlite3_value_double(argv[0]), n = sqlite3_value_double(argv[1])
                let z = argc == 3 ? sqlite3_value_double(argv[2]) : z95
                guard k >= 0, n >= k, z > 0, k == k.rounded(), n == n.rounded() else {
                    sqlite3_result_error(ctx, "wilson_low/high(k, n[, z]): need whole numbers 0 ≤ k ≤ n and z > 0", -1)
                    return
                }
                let high = sqlite3_user_data(ctx) == UnsafeMutableRawPointer(bitPattern: 2)
                if let ci = wilsonInterval(successes: k, trials: n, z: z) {
                    sqlite3_result_double(ctx, high ? ci.high : ci.low)
                } else {
                    sqlite3_result_null(ctx)
                }
            }, nil, nil, nil)
            guard rc == SQLITE_OK else { return rc }
        }
    }
    for (name, isHigh) in [("ratio_low", false), ("ratio_high", true)] {
        rc = sqlite3_create_function_v2(db, name, 2, flags, UnsafeMutableRawPointer(bitPattern: isHigh ? 2 : 1), nil, { ctx, _, argv in
            guard let ctx, let argv else { return }
            let slot = sqlite3_aggregate_context(ctx, Int32(MemoryLayout<UnsafeMutableRawPointer?>.size))!
                .assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
            if slot.pointee == nil { slot.pointee = Unmanaged.passRetained(RatioState()).toOpaque() }
            let state = Unmanaged<RatioState>.fromOpaque(slot.pointee!).takeUnretainedValue()
            guard sqlite3_value_type(argv[0]) != SQLITE_NULL, sqlite3_value_type(argv[1]) != SQLITE_NULL else { return }
            state.summary.add(denominator: sqlite3_value_double(argv[0]), numerator: sqlite3_value_double(argv[1]))
        }, { ctx in
            guard let ctx else { return }
            guard let raw = sqlite3_aggregate_context(ctx, 0) else { sqlite3_result_null(ctx); return }
            let slot = raw.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
            guard let pointer = slot.pointee else { sqlite3_result_null(ctx); return }
            let state = Unmanaged<RatioState>.fromOpaque(pointer).takeRetainedValue()
            slot.pointee = nil
            let high = sqlite3_user_data(ctx) == UnsafeMutableRawPointer(bitPattern: 2)
            if let ci = ratioInterval(state.summary) { sqlite3_result_double(ctx, high ? ci.high : ci.low) }
            else { sqlite3_result_null(ctx) }
        }, nil)
        guard rc == SQLITE_OK else { return rc }
    }
    return SQLITE_OK
}
