// The parameters of the frustration signals and the SQL function that hands them to the views
// defining the signals (migrations/0005_touch_down_point.sql: `press_sequences`; the retries in
// `report_input`, PressStore/ReportRunner.swift). docs/frustration.md gives every definition.
import CSQLite
import PressSQLite
import PressStore
import PressIngest

/// The tunable parameters of the frustration signals, with their defaults and sources.
///
/// - `rageCount`, `rageSpan`, `rageRadius`: a rage press is one of `rageCount` presses in a row on
///   the same control whose touch-downs span at most `rageSpan` seconds and lie within `rageRadius`
///   points of the first. The defaults are PostHog's `$rageclick` defaults (posthog-js
///   `extensions/rageclick.ts`: `click_count` 3, `timeout_ms` 1000, `threshold_px` 30), pixels
///   taken as points.
/// - `cancelRetryWindow`: seconds from a cancelled or scroll-aborted press's end (t1) to the next
///   press's touch-down within which a tap is a retry (2 s, issue 21).
/// - `unseenRetryWindow`: seconds from an unseen press's end to the next press (1 s, issue 21).
public struct FrustrationParameters: Sendable, Hashable {
    public var rageCount: Int = 3
    public var rageSpan: Double = 1.0
    public var rageRadius: Double = 30
    public var cancelRetryWindow: Double = 2.0
    public var unseenRetryWindow: Double = 1.0
    public init() {}

    /// The parameters by the names the SQL reads with `signal_parameter(name)` (and the options
    /// `--rage-count`, … of `pressdb report` and `compare` set).
    public var byName: [String: Double] {
        ["rage_count": Double(rageCount), "rage_span_s": rageSpan, "rage_radius_pt": rageRadius,
         "cancel_retry_window_s": cancelRetryWindow, "unseen_retry_window_s": unseenRetryWindow]
    }

    /// A message when a parameter is out of range (a count below 2, a negative span, radius or
    /// window, or a value that is not finite); nil when all are usable.
    public var problem: String? {
        if rageCount < 2 { return "--rage-count must be at least 2, not \(rageCount)" }
        for (name, v) in [("--rage-span", rageSpan), ("--rage-radius", rageRadius),
                          ("--cancel-retry-window", cancelRetryWindow), ("--unseen-retry-window", unseenRetryWindow)]
        where !(v.isFinite && v >= 0) {
            return "\(name) must be a number ≥ 0, not \(v)"
        }
        return nil
    }
}

private final class ParameterBox {
    let values: [String: Double]
    init(_ values: [String: Double]) { self.values = values }
}

/// Registers `signal_parameter(name)` on a connection: the value of the named frustration
/// parameter (`FrustrationParameters.byName`); an unknown name is an error naming the known ones.
/// Returns SQLite's result code.
@discardableResult
public func registerSignalParameters(_ db: OpaquePointer, _ parameters: FrustrationParameters) -> Int32 {
    let box = Unmanaged.passRetained(ParameterBox(parameters.byName)).toOpaque()
    return sqlite3_create_function_v2(
        db, "signal_parameter", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, box,
        { ctx, _, argv in
            guard let ctx, let argv else { return }
            let box = Unmanaged<ParameterBox>.fromOpaque(sqlite3_user_data(ctx)).takeUnretainedValue()
            let name = sqlite3_value_text(argv[0]).map { String(cString: $0) } ?? ""
            guard let v = box.values[name] else {
                sqlite3_result_error(ctx, "signal_parameter: no parameter '\(name)'; known: \(box.values.keys.sorted().joined(separator: ", "))", -1)
                return
            }
            sqlite3_result_double(ctx, v)
        }, nil, nil, { p in if let p { Unmanaged<ParameterBox>.fromOpaque(p).release() } })
}

/// The per-press frustration signals, by the names `--signal` takes; each a 0/1 column of
/// `report_input` (docs/frustration.md).
public enum SessionSignal: String, CaseIterable, Sendable, Hashable {
    case ragePress = "rage_press"
    case rageEpisode = "rage_episode"
    case retryAfterCancel = "retry_after_cancel"
    case retryAfterUnseen = "retry_after_unseen"
    case deadPress = "dead_press"

    /// Its column: `is_` and the name.
    public var column: String { "is_" + rawValue }
    /// Whether it comes from the press sequences (all but the dead press, a per-press event of
    /// `result_events`).
    public var needsSequences: Bool { self != .deadPress }
}

/// The SQL of the signals that read outcomes — of a press and of the next press of its sequence
/// in the same world — written once for `report_input` (ReportRunner) and the paired
/// comparison. `r` names the press's `result_events` row, `q` its `press_sequences` row, `n` the
/// next press's result in the same world (NULL when it has none there).
public enum FrustrationSQL {
    /// The columns from the press sequences, with the two retry signals:
    /// - `is_retry_after_cancel`: `r` ended as a cancel or a scroll-abort, and `n` is a tap
    ///   touching down within `cancel_retry_window_s` of `r`'s end;
    /// - `is_retry_after_unseen`: `r` was an unseen press, and `n` (any outcome) touches down
    ///   within `unseen_retry_window_s` of its end.
    public static func sequenceColumns(_ r: String, _ q: String, _ n: String) -> String {
        """
        \(q).actor, \(q).press_index,
        coalesce(\(q).is_rage_press, 0) AS is_rage_press,
        coalesce(\(q).is_rage_episode, 0) AS is_rage_episode,
        coalesce(\(r).outcome IN ('cancel', 'scroll_abort') AND \(n).outcome = 'tap'
                 AND \(q).next_gap_s BETWEEN 0 AND signal_parameter('cancel_retry_window_s'), 0) AS is_retry_after_cancel,
        coalesce(\(r).is_unseen_press AND \(n).session_id IS NOT NULL
                 AND \(q).next_gap_s BETWEEN 0 AND signal_parameter('unseen_retry_window_s'), 0) AS is_retry_after_unseen
        """
    }

    /// The same columns, NULL: for a query that reads none of them, which then neither sorts
    /// the stored sessions nor changes the order rows come in (sums over them stay bit-equal).
    public static let absentSequenceColumns = "NULL AS actor, NULL AS press_index, NULL AS is_rage_press, NULL AS is_rage_episode, "
        + "NULL AS is_retry_after_cancel, NULL AS is_retry_after_unseen"

    /// A subquery: every `result_events` row of configuration version `version` (an SQL
    /// expression, e.g. a bound parameter `?3`) with `sequenceColumns`, the next press's result
    /// taken under the same version — the world of the sessions replayed under it; without
    /// `sequences`, with `absentSequenceColumns`.
    public static func resultsWithSignals(version: String, sequences: Bool = true) -> String {
        guard sequences else {
            return "(SELECT e.*, \(absentSequenceColumns) FROM result_events AS e WHERE e.config_version = \(version))"
        }
        return """
        (SELECT e.*, \(sequenceColumns("e", "q", "n"))
         FROM result_events AS e
         LEFT JOIN press_sequences AS q ON q.session_id = e.session_id
         LEFT JOIN result_events AS n ON n.session_id = q.next_session_id AND n.config_version = e.config_version
         WHERE e.config_version = \(version))
        """
    }
}
