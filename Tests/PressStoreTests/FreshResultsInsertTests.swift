// The insert that writes ingest's new result rows (Store.insertFreshResultsSQL): INSERT OR FAIL,
// which SQLite runs without a statement journal.
import CSQLite
import Testing
import PressCore
@testable import PressStore

@Suite struct FreshResultsInsertTests {
    /// A result row for session `id` under version `version`.
    static func row(_ id: Int64, _ version: String) -> ResultRow {
        ResultRow(sessionID: id, config: "x", configVersion: version, counterfactual: false,
                  result: SessionResult(outcome: .tap, cancelReason: nil, actionFired: true, feedbackLatencyMs: 16.7,
                                        actionLatencyMs: 33.3, durationMs: 120, maxTravelPt: 1, pressDepth: 0.95,
                                        releaseJumpPt: 0))
    }

    /// sqlite.org/lang_conflict.html: on a constraint violation FAIL ends the statement with
    /// SQLITE_CONSTRAINT and "does not back out prior changes of the SQL statement", where the
    /// default (ABORT) backs the statement out, which is what its statement journal is for. So
    /// with a second row that repeats a stored (session, version), the first row stays until the
    /// transaction is rolled back. The upsert would update the repeated row instead and not fail.
    @Test func aConflictFailsKeepingTheRowsBeforeIt() throws {
        let store = try ReplayWriteTests.ingested()
        let stored = try store.db.prepare("SELECT session_id, config_version FROM results ORDER BY session_id LIMIT 1")
        #expect(try stored.step())
        let id = stored.int64(0), version = stored.text(1)
        stored.reset()
        let before = try store.db.prepare("SELECT count(*) FROM results").scalarInt()

        try store.db.begin()
        let s = try store.db.prepare(Store.insertFreshResultsSQL(rows: 2))
        Store.bindResult(s, Self.row(id, "fresh-version"), first: 1)
        Store.bindResult(s, Self.row(id, version), first: Int32(Store.resultColumnCount + 1))
        var failure: DatabaseError?
        do { try s.run() } catch let e as DatabaseError { failure = e }
        #expect(failure?.primaryCode == SQLITE_CONSTRAINT)
        let kept = try store.db.prepare("SELECT count(*) FROM results WHERE config_version = 'fresh-version'")
        #expect(try kept.scalarInt() == 1)
        store.db.rollback()
        #expect(try kept.scalarInt() == 0)
        #expect(try store.db.prepare("SELECT count(*) FROM results").scalarInt() == before)
    }

    /// Without a conflict every row is written, in the columns `bindResult` binds.
    @Test func writesEveryRow() throws {
        let store = try ReplayWriteTests.ingested()
        let id = try #require(try store.db.prepare("SELECT min(session_id) FROM results").scalarInt())
        let s = try store.db.prepare(Store.insertFreshResultsSQL(rows: 2))
        Store.bindResult(s, Self.row(id, "a"), first: 1)
        Store.bindResult(s, Self.row(id, "b"), first: Int32(Store.resultColumnCount + 1))
        try s.run()
        let rows = try store.db.prepare("""
            SELECT count(*) FROM results WHERE session_id = \(id) AND config_version IN ('a', 'b')
                AND outcome = 'tap' AND feedback_latency_ms = 16.7 AND press_depth = 0.95
            """)
        #expect(try rows.scalarInt() == 2)
    }
}
