// The summary report from a partial: reports/summary.sql's columns, rows, order and values,
// computed from the sufficient statistics instead of the sessions. Every number comes from the
// functions the SQL calls (`wilsonInterval`, `Percentile.type7` through its histogram form) or
// the arithmetic SQLite does (`avg` of 0/1 events is their sum over the count), so the two agree
// to the last bit; `PartialReportTests` and the Spark suite check that they do.
import PressCore
import PressStats
import PressSQLite
import PressStore
import PressIngest

extension Partial {
    /// The keys `report --from` may group (`--by`) and filter (`--where`) by: the group keys.
    public static let reportKeys = groupKeys

    /// The summary's columns, as reports/summary.sql names them.
    public static let summaryColumns = [
        "grp", "variant", "sessions", "taps", "cancels", "scroll_aborts",
        "tap_rate", "tap_rate_low", "tap_rate_high", "cancel_rate", "cancel_rate_low", "cancel_rate_high",
        "scroll_abort_rate", "scroll_abort_rate_low", "scroll_abort_rate_high", "false_actions", "unseen_presses",
        "feedback_p50_ms", "feedback_p90_ms", "feedback_p99_ms", "share_over_100ms", "action_p50_ms", "action_p90_ms",
        "release_jump_pt_max",
    ]

    /// The summary report of the sessions with `equals`' values, grouped by `by`: what
    /// `pressdb report --by BY --where …` prints from a database holding the same sessions
    /// (`grp` the `by` value, `variant` the arm when grouping by config and it differs, rows
    /// ordered by both with NULL first).
    /// - Throws: `ReportError.badFilter` for a key the partial is not keyed by.
    public func summary(by: String = ReportFilter().by, equals: [String: String] = [:]) throws -> ReportResult {
        guard let byIndex = Self.groupKeys.firstIndex(of: by) else {
            throw ReportError.badFilter("--by must be one of \(Self.groupKeys.joined(separator: ", ")) with --from, not '\(by)'")
        }
        let cells: [([String?], SessionTally)]
        do { cells = try groups(matching: equals) } catch { throw ReportError.badFilter("\(error) (filter by it on the database)") }
        var rows: [[String?]: SessionTally] = [:]
        for (key, tally) in cells {
            let config = key[Self.configIndex], variant = key[Self.variantIndex]
            let arm = by == "config" && variant != config ? variant : nil
            rows[[key[byIndex], arm], default: SessionTally()] += tally
        }
        let ordered = rows.sorted { Self.precedes($0.key, $1.key) }
        return ReportResult(columns: Self.summaryColumns, rows: ordered.map { Self.summaryRow(group: $0.key[0], arm: $0.key[1], $0.value) })
    }

    /// The group cells with `equals`' values.
    /// - Throws: `PartialError` naming a key the groups are not keyed by.
    func groups(matching equals: [String: String]) throws -> [([String?], SessionTally)] {
        var conditions: [(Int, String)] = []
        for (key, value) in equals {
            guard let i = Self.groupKeys.firstIndex(of: key) else {
                throw PartialError("--where: a partial is keyed by \(Self.groupKeys.joined(separator: ", ")), not '\(key)'")
            }
            conditions.append((i, value))
        }
        return groups.filter { key, _ in conditions.allSatisfy { key[$0.0] == $0.1 } }
    }

    /// One row of the summary, as reports/summary.sql computes it from the group's sessions.
    static func summaryRow(group: String?, arm: String?, _ t: SessionTally) -> [SQLValue] {
        [group.map(SQLValue.text) ?? .null, arm.map(SQLValue.text) ?? .null] + summaryValues(t)
    }

    /// The summary's columns after `grp` and `variant` (`summaryColumns.dropFirst(2)`) for the
    /// sessions counted in `t`, as reports/summary.sql computes them over those sessions; over
    /// none, what SQL gives over no rows: a count of 0 and NULL for every sum, average,
    /// percentile and maximum (the sweep's point whose every replay failed).
    public static func summaryValues(_ t: SessionTally) -> [SQLValue] {
        let n = t.sessions
        func real(_ d: Double?) -> SQLValue { d.map(SQLValue.real) ?? .null }
        // sum() over no rows is NULL; over rows, SQLite sums the integers exactly.
        func sum(_ k: Int) -> SQLValue { n == 0 ? .null : .integer(Int64(k)) }
        // avg() of a 0/1 column: that sum divided by the count.
        func wilson(_ k: Int) -> [SQLValue] {
            let ci = wilsonInterval(successes: Double(k), trials: Double(n))
            return [real(n == 0 ? nil : Double(k) / Double(n)), real(ci?.low), real(ci?.high)]
        }
        let feedback = t.feedbackLatencyMs, action = t.actionLatencyMs
        let taps = t.count(.tap), cancels = t.count(.cancel), aborts = t.count(.scrollAbort)
        let seen = feedback.values.reduce(0, +)
        let over = feedback.reduce(0) { $0 + ($1.key > 100 ? $1.value : 0) }
        return [.integer(Int64(n)), sum(taps), sum(cancels), sum(aborts)]
            + wilson(taps) + wilson(cancels) + wilson(aborts)
            + [sum(t.count(.falseAction)), sum(t.count(.unseenPress)),
               real(SessionTally.percentile(0.50, of: feedback)), real(SessionTally.percentile(0.90, of: feedback)),
               real(SessionTally.percentile(0.99, of: feedback)), seen == 0 ? .null : .real(Double(over) / Double(seen)),
               real(SessionTally.percentile(0.50, of: action)), real(SessionTally.percentile(0.90, of: action)),
               real(n == 0 ? nil : t.releaseJumpPtMax)]
    }
}
