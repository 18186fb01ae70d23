// The summary report from the maintained cells (PressStore/SummaryCells.swift): the cells read
// into a `Partial`, and the report runner's use of them when they can answer.
import PressCore
import PressSQLite
import PressStore
import PressIngest

extension SummaryCells {
    /// The partial of the cells of one report world, each configuration at its version in
    /// `temp.current_configs`: the sessions' own results (`replayedAs` nil), or every session's
    /// under `replayedAs`. The caller has checked `areCurrent`.
    /// - Throws: `DatabaseError`.
    static func partial(_ db: Database, replayedAs: String?) throws -> Partial {
        var partial = Partial(replayedAs: replayedAs)
        let attributes = sessionAttributes.map { "c.\($0.key)" }.joined(separator: ", ")
        let counts = events.map { "c.\($0.rawValue)" }.joined(separator: ", ")
        let world = "JOIN temp.current_configs AS k ON k.name = c.config AND k.version = c.config_version "
            + "WHERE (CASE WHEN ?1 IS NULL THEN c.counterfactual = 0 ELSE c.config = ?1 END)"
        let cells = try db.prepare("""
            SELECT c.id, c.config, c.config_version, \(attributes), c.sessions, \(counts), c.release_jump_pt_max
            FROM main.summary_cells AS c \(world)
            """)
        cells.bind(1, replayedAs)
        let k = Int32(3 + sessionAttributes.count)
        var byID: [Int64: [String?]] = [:]
        while try cells.step() {
            var group: [String?] = (3..<k).map { cells.optionalText($0) }
            group.insert(cells.text(1), at: Partial.configIndex)
            var t = SessionTally()
            t.sessions = cells.int(k)
            for (i, e) in eventIndices.enumerated() { t.events[e] = cells.int(k + 1 + Int32(i)) }
            t.releaseJumpPtMax = cells.double(k + 1 + Int32(events.count))
            partial.groups[group, default: SessionTally()] += t
            partial.configurations[cells.text(1)] = cells.text(2)
            byID[cells.int64(0)] = group
        }
        let bins = try db.prepare("""
            SELECT l.cell_id, l.metric = '\(feedbackMetric)', l.value, l.sessions
            FROM main.summary_latencies AS l JOIN main.summary_cells AS c ON c.id = l.cell_id \(world)
            """)
        bins.bind(1, replayedAs)
        while try bins.step() {
            guard let group = byID[bins.int64(0)] else { continue }
            let value = bins.double(2), n = bins.int(3)
            if bins.int(1) == 1 {
                partial.groups[group]!.feedbackLatencyMs[value == 0 ? 0 : value, default: 0] += n
            } else {
                partial.groups[group]!.actionLatencyMs[value == 0 ? 0 : value, default: 0] += n
            }
        }
        return partial
    }
}

extension ReportRunner {
    /// Whether the maintained cells can answer the built-in summary under this filter: no time
    /// bounds, no signal, `--where` on report keys only (`Partial.reportKeys`; `user`, `device`
    /// and `outcome` need the rows).
    public var cellsAnswerSummary: Bool {
        filter.since == nil && filter.until == nil && filter.signal == nil
            && filter.equals.keys.allSatisfy(Partial.reportKeys.contains) && Partial.groupKeys.contains(filter.by)
    }

    /// The built-in summary report (reports/summary.sql's columns, rows and values) from the
    /// maintained cells, or nil when they cannot answer it: the filter needs the rows
    /// (`cellsAnswerSummary`), or the cells do not match the tables (`SummaryCells.areCurrent`:
    /// not built yet, or written outside pressdb since) — the caller then runs the SQL.
    /// - Throws: `DatabaseError`, `ReportError.badFilter`.
    public func maintainedSummary() throws -> ReportResult? {
        guard cellsAnswerSummary else { return nil }
        // One snapshot for the check and the reads: a writer may commit meanwhile.
        try db.execute("BEGIN")
        defer { _ = try? db.execute("END") }
        guard try SummaryCells.areCurrent(db) else { return nil }
        let partial = try SummaryCells.partial(db, replayedAs: filter.replayedAs)
        return try partial.summary(by: filter.by, equals: filter.equals)
    }
}
