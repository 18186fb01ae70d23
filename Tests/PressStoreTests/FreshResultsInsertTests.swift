// The insert that writes ingest's new result rows (Store.insertFreshResultsSQL): INSERT OR FAIL,
// which SQLite runs without a statement journal; and Store.writeResults(_:newSessionKeys:),
// which counts those rows into the summary cells with the session keys the replay worker made.
import CSQLite
import Testing
import PressCore
@testable import PressStore
@testable import PressSQLite
@testable import PressIngest

@Suite struct FreshResultsInsertTests {
    /// A result row for session `id` under version `version`.
    static func row(_ id: Int64, _ version: String) -> ResultRow {
        ResultRow(sessionID: id, config: "x", configVersion: version, counterfactual: false,
                  result: SessionResult(outcome: .tap, cancelReason: nil, actionFired: true, feedbackLatencyMs: 16.7,
                                        actionLatencyMs: 33.3, durationMs: 120, maxTravelPt: 1, pressDepth: 0.95,
                                        releaseJumpPt: 0))
    }

    /// The session and version of the stored result of the lowest session id.
    static func firstStoredResult(_ store: Store) throws -> (Int64, String) {
        let stored = try store.db.prepare("SELECT session_id, config_version FROM results ORDER BY session_id LIMIT 1")
        #expect(try stored.step())
        return (stored.int64(0), stored.text(1))
    }

    /// sqlite.org/lang_conflict.html: on a constraint violation FAIL ends the statement with
    /// SQLITE_CONSTRAINT and "does not back out prior changes of the SQL statement", where the
    /// default (ABORT) backs the statement out, which is what its statement journal is for. So
    /// with a second row that repeats a stored (session, version), the first row stays until the
    /// transaction is rolled back. The upsert would update the repeated row instead and not fail.
    @Test func aConflictFailsKeepingTheRowsBeforeIt() throws {
        let store = try ReplayWriteTests.ingested()
        let (id, version) = try Self.firstStoredResult(store)
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

    /// The summary cells and latency bins by their key (not their ids), and `summary_state`.
    static func cells(_ db: Database) throws -> [String] {
        var out: [String] = []
        for sql in ["""
            SELECT config, config_version, counterfactual, variant, control, screen, app_version, sessions, tap, cancel,
                   scroll_abort, false_action, unseen_press, dead_press, release_jump_pt_max FROM summary_cells ORDER BY 1, 2, 3, 4, 5, 6, 7
            """, """
            SELECT c.config, c.config_version, c.counterfactual, c.variant, c.control, c.screen, c.app_version, l.metric,
                   l.value, l.sessions FROM summary_latencies AS l JOIN summary_cells AS c ON c.id = l.cell_id
            ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9
            """, "SELECT results, max_rowid, outside_writes FROM summary_state"] {
            let s = try db.prepare(sql)
            while try s.step() {
                out.append((0..<s.columnCount).map { s.isNull($0) ? "NULL" : s.text($0) }.joined(separator: "|"))
            }
        }
        return out
    }

    // An ingest that replays as it stores writes its results with
    // `writeResults(_:newSessionKeys:)` (32 rows to a statement, the rest one at a time) and
    // counts them with the keys its replay worker made, reading nothing back. The log defines a configuration `soft` that a tenth of the
    // sessions name, and redefines it half-way (`StoredSessionReplay.mayBeRedefined` then
    // deletes the run's `soft` results written so far, through the cells, and leaves those
    // sessions to `replayMissing`, which writes them read back). The cells the run leaves must
    // be what a rebuild from the stored rows gives (`SummaryCells.rebuild`: one SQL join of
    // results and sessions, counted afresh), and match the tables (`areCurrent`).
    @Test func anIngestsFreshResultsCountAsARebuild() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        var options = IngestOptions()
        options.batchSessions = 45
        options.batchFraction = 0  // batches of 45 throughout
        options.replayStoredSessions = true
        let lines = try syntheticLog(SyntheticLogConfiguration(sessions: 3_000, seed: 11)).split(separator: "\n")
        var log = #"{"type":"config","name":"soft","base":"spring-press","pressed_scale":0.97}"# + "\n"
        for (i, line) in lines.enumerated() {
            if i == lines.count / 2 { log += #"{"type":"config","name":"soft","base":"spring-press","pressed_scale":0.9}"# + "\n" }
            log += (i % 10 == 0 ? line.replacingOccurrences(of: #""config":"spring-press""#, with: #""config":"soft""#) : String(line)) + "\n"
        }
        let summary = try ingestNDJSON(store, log, options: options)
        #expect(summary.sessionsNew == 3_000)
        #expect(summary.sessionsReplayed < 3_000)  // the redefined configuration's are left out
        let catalog = try ConfigurationCatalog(store: store)
        #expect(try catalog.importConfigRecords().isEmpty)
        _ = try Replayer(store: store, catalog: catalog).replayMissing()
        #expect(try store.db.prepare("SELECT count(*) FROM results").scalarInt() == 3_000)
        #expect(try SummaryCells.areCurrent(store.db))
        let counted = try Self.cells(store.db)
        try store.db.transaction { try SummaryCells.rebuild(store.db) }
        #expect(try Self.cells(store.db) == counted)
        #expect(counted.contains { $0.hasPrefix("soft|") })
    }

    // A result row whose session was deleted without foreign keys (the sqlite3 shell's default)
    // is left behind under an id the next session stored takes again. The next ingest removes
    // such rows as it begins (they belong to no session), so its new sessions' results are new
    // as `writeResults(_:newSessionKeys:)` writes them: the ingest succeeds, and its cells are
    // a rebuild's.
    @Test func resultsLeftByADeletedSessionDoNotStopTheNextIngest() throws {
        let path = try temporaryDatabasePath()
        var options = IngestOptions()
        options.replayStoredSessions = true
        do {
            let store = try Store.open(path: path)
            _ = try ingestNDJSON(store, try syntheticLog(SyntheticLogConfiguration(sessions: 100, seed: 5)), options: options)
        }
        let outside = try Database(path: path)
        try outside.execute("PRAGMA foreign_keys = OFF")
        try outside.execute("DELETE FROM sessions WHERE id > (SELECT max(id) - 40 FROM sessions)")
        #expect(try outside.prepare("SELECT count(*) FROM results WHERE session_id NOT IN (SELECT id FROM sessions)").scalarInt() == 40)
        let store = try Store.open(path: path)
        let summary = try ingestNDJSON(store, try syntheticLog(SyntheticLogConfiguration(sessions: 100, seed: 6)),
                                       name: "second.ndjson", options: options)
        #expect(summary.sessionsNew > 0)
        #expect(try store.db.prepare("SELECT count(*) FROM results WHERE session_id NOT IN (SELECT id FROM sessions)").scalarInt() == 0)
        #expect(try store.db.prepare("SELECT count(*) FROM results").scalarInt()
                == store.db.prepare("SELECT count(*) FROM sessions").scalarInt())
        #expect(try SummaryCells.areCurrent(store.db))
        let counted = try Self.cells(store.db)
        try store.db.transaction { try SummaryCells.rebuild(store.db) }
        #expect(try Self.cells(store.db) == counted)
    }

    // A row `writeResults(_:newSessionKeys:)` is told is new but is not (its session and
    // version stored already) fails the statement with SQLITE_CONSTRAINT rather than being
    // counted a second time; rolled back, the cells are as before.
    @Test func aRowThatIsNotNewFailsInsteadOfBeingCountedTwice() throws {
        let store = try ReplayWriteTests.ingested()
        let (id, version) = try Self.firstStoredResult(store)
        let before = try Self.cells(store.db)
        try store.db.begin()
        var failure: DatabaseError?
        do {
            try store.writeResults([Self.row(id, version)], newSessionKeys: [SessionKeys(of: SessionAttributes())])
        } catch let e as DatabaseError { failure = e }
        #expect(failure?.primaryCode == SQLITE_CONSTRAINT)
        #expect(store.db.summaryCells?.isEmpty ?? true)  // nothing counted, before the rollback drops it
        store.db.rollback()
        #expect(try Self.cells(store.db) == before)
    }

    // A session's keys compare and hash as the array of them does, the hash made once: the
    // cell key made from the array and the one made from `SessionKeys` are one key, and two
    // sessions with the same stored keys (variant given, or the config name standing for it)
    // have equal keys.
    @Test func sessionKeysAreTheStoredKeys() {
        let a = SessionAttributes(config: "spring-press", control: "buy", text: [.screen: "feed"])
        let b = SessionAttributes(config: "spring-press", variant: "spring-press", control: "buy", text: [.screen: "feed"])
        #expect(SessionKeys(of: a) == SessionKeys(of: b))
        #expect(SessionKeys(of: a).values == SummaryCells.keys(of: a))
        #expect(SummaryCells.keys(of: a).count == SummaryCells.sessionAttributes.count)
        let fromArray = SummaryCellKey(config: "c", configVersion: "v", counterfactual: false, attributes: SummaryCells.keys(of: a))
        let fromKeys = SummaryCellKey(config: "c", configVersion: "v", counterfactual: false, keys: SessionKeys(of: b))
        #expect(fromArray == fromKeys)
        #expect(Set([fromArray, fromKeys]).count == 1)
        let other = SummaryCellKey(config: "c", configVersion: "v", counterfactual: false,
                                   keys: SessionKeys(of: SessionAttributes(config: "spring-press", control: "share")))
        #expect(other != fromArray)
    }
}
