// The summary report from a partial: reports/summary.sql's columns, rows, order and values,
// computed from the sufficient statistics instead of the sessions. Every number comes from the
// functions the SQL calls (`wilsonInterval`, `Percentile.type7` through its histogram form) or
// the arithmetic SQLite does (`avg` of 0/1 events is their sum over the count), so the two agree
// to the last bit; `PartialReportTests` and the Spark suite check that they do.
import PressCore
import PressStats

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
        let n = t.sessions
        func text(_ s: String?) -> SQLValue { s.map(SQLValue.text) ?? .null }
        func real(_ d: Double?) -> SQLValue { d.map(SQLValue.real) ?? .null }
        // avg() of a 0/1 column: SQLite sums the integers exactly and divides by the count.
        func rate(_ k: Int) -> SQLValue { .real(Double(k) / Double(n)) }
        func wilson(_ k: Int) -> [SQLValue] {
            let ci = wilsonInterval(successes: Double(k), trials: Double(n))
            return [rate(k), real(ci?.low), real(ci?.high)]
        }
        func percentile(_ h: [Double: Int], _ p: Double) -> SQLValue {
            guard !h.isEmpty else { return .null }
            let (values, counts) = SessionTally.sorted(h)
            return .real(Percentile.type7(p, sortedValues: values, counts: counts))
        }
        let taps = t.count(.tap), cancels = t.count(.cancel), aborts = t.count(.scrollAbort)
        let seen = t.feedbackLatencyMs.values.reduce(0, +)
        let over = t.feedbackLatencyMs.reduce(0) { $0 + ($1.key > 100 ? $1.value : 0) }
        return [text(group), text(arm), .integer(Int64(n)), .integer(Int64(taps)), .integer(Int64(cancels)),
                .integer(Int64(aborts))]
            + wilson(taps) + wilson(cancels) + wilson(aborts)
            + [.integer(Int64(t.count(.falseAction))), .integer(Int64(t.count(.unseenPress))),
               percentile(t.feedbackLatencyMs, 0.50), percentile(t.feedbackLatencyMs, 0.90),
               percentile(t.feedbackLatencyMs, 0.99), seen == 0 ? .null : .real(Double(over) / Double(seen)),
               percentile(t.actionLatencyMs, 0.50), percentile(t.actionLatencyMs, 0.90),
               .real(t.releaseJumpPtMax)]
    }
}
