import Foundation
import Testing
import PressCore
import PressFormats
@testable import PressStore
@testable import PressSQLite
@testable import PressIngest

/// Ingest's replay of the sessions it stores (`IngestOptions.replayStoredSessions`) against
/// `Replayer.replayMissing`, and the value lists it relies on.
@Suite struct IngestReplayTests {
    /// Two taps and a drag-out, one naming no configuration, one `expand-delayed-click`.
    static let log = """
        {"session":"a","t":1.0,"phase":"began","x":10,"y":10,"config":"spring-press","frame":[0,0,44,44]}
        {"session":"a","t":1.1,"phase":"ended","x":10,"y":10}
        {"session":"b","t":2.0,"phase":"began","x":20,"y":20,"frame":[0,0,44,44],"container":"scroll","scroll_axis":"vertical"}
        {"session":"b","t":2.05,"phase":"moved","x":20,"y":60}
        {"session":"b","t":2.1,"phase":"ended","x":20,"y":90}
        {"session":"c","t":3.0,"phase":"began","x":5,"y":5,"config":"expand-delayed-click","frame":[0,0,44,44]}
        {"session":"c","t":3.2,"phase":"moved","x":200,"y":5}
        {"session":"c","t":3.3,"phase":"ended","x":200,"y":5}
        """

    static func results(_ store: Store) throws -> [[SQLValue]] {
        try store.db.prepare("SELECT * FROM results ORDER BY session_id, config_version").all()
    }

    @Test func writesTheRowsReplayMissingWrites() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        var options = IngestOptions()
        options.replayStoredSessions = true
        let summary = try ingestNDJSON(store, Self.log, options: options)
        #expect(summary.sessionsNew == 3 && summary.sessionsReplayed == 3)
        let inBatch = try Self.results(store)
        #expect(inBatch.count == 3)

        try store.db.execute("DELETE FROM results")
        let replayer = Replayer(store: store, catalog: try ConfigurationCatalog(store: store))
        #expect(try replayer.replayMissing().replayed == 3)
        #expect(try Self.results(store) == inBatch)
        // Nothing is missing any more: the index check finds nothing and replays nothing.
        #expect(try replayer.replayMissing().replayed == 0)
    }

    /// `IngestSummary.replayedSessions` names this run's ids and the versions they were
    /// replayed under, and `replayMissing(excluding:)` still finds a session outside them that
    /// has no result (one an earlier run left without it).
    @Test func replayMissingSkipsOnlyTheSessionsTheRunReplayed() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        var options = IngestOptions()
        options.replayStoredSessions = true
        let first = try ingestNDJSON(store, Self.log, options: options)
        #expect(first.replayedSessions?.ids == 1...3)
        try store.db.execute("DELETE FROM results WHERE session_id = 2")   // session b, no config

        let later = """
            {"session":"d","t":4.0,"phase":"began","x":10,"y":10,"frame":[0,0,44,44]}
            {"session":"d","t":4.1,"phase":"ended","x":10,"y":10}
            """
        let second = try ingestNDJSON(store, later, options: options)
        let replayed = try #require(second.replayedSessions)
        #expect(replayed.ids == 4...4)
        #expect(replayed.defaultConfig == "spring-press")
        #expect(replayed.versions == ["spring-press": PressConfiguration.springPress.version])
        #expect(try store.db.prepare("SELECT count(*) FROM results").scalarInt() == 3)

        let replayer = Replayer(store: store, catalog: try ConfigurationCatalog(store: store))
        #expect(try replayer.replayMissing(excluding: replayed).replayed == 1)
        #expect(try store.db.prepare("SELECT session_id FROM results ORDER BY session_id").all()
            == [[.integer(1)], [.integer(2)], [.integer(3)], [.integer(4)]])
        #expect(try replayer.replayMissing(excluding: replayed).replayed == 0)
    }

    @Test func leavesSessionsOfARedefinedConfigurationToReplayMissing() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        var options = IngestOptions()
        options.replayStoredSessions = true
        // A record trying to redefine spring-press after session a (and before b, which names
        // none and so also runs under spring-press): both are left to replayMissing.
        let lines = Self.log.split(separator: "\n").map(String.init)
        let redefine = #"{"type":"config","name":"spring-press","base":"spring-press","pressed_scale":0.9}"#
        let text = (lines[0..<2] + [redefine] + lines[2...]).joined(separator: "\n")
        let summary = try ingestNDJSON(store, text, options: options)
        #expect(summary.sessionsNew == 3 && summary.configRecords == 1)
        #expect(summary.sessionsReplayed == 1)   // c only
        #expect(try store.db.prepare("SELECT count(*) FROM results").scalarInt() == 1)

        // A preset cannot be redefined: the record becomes a reject naming its line, and the
        // deferred sessions are replayed under the preset itself.
        let catalog = try ConfigurationCatalog(store: store)
        let rejects = try catalog.importConfigRecords()
        #expect(rejects.count == 1 && rejects.first?.source.line == 3)
        #expect(rejects.first?.reason.contains("built-in preset") == true)
        let replayer = Replayer(store: store, catalog: catalog)
        #expect(try replayer.replayMissing().replayed == 2)
        let version = try #require(catalog.resolve("spring-press")).version
        #expect(version == PressConfiguration.springPress.version)
        let versions = try store.db.prepare(
            "SELECT config_version FROM results WHERE config = 'spring-press' ORDER BY session_id").all()
        #expect(versions == [[.text(version)], [.text(version)]])
    }

    @Test func checkConstraintsAreEnforcedAgainAfterTheRun() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        var options = IngestOptions()
        options.replayStoredSessions = true
        try ingestNDJSON(store, Self.log, options: options)
        #expect(try store.db.prepare("PRAGMA ignore_check_constraints").scalarInt() == 0)
        let id = try #require(try store.db.prepare("SELECT min(id) FROM sessions").scalarInt())
        #expect(throws: DatabaseError.self) { try insertResultWithUnknownOutcome(store.db, sessionID: id) }
    }

    /// The run's WAL checkpoint interval (`IngestWriter.walCheckpointPages`) is put back when it
    /// ends: 1,000 pages, SQLite's default (sqlite.org/pragma.html#pragma_wal_autocheckpoint).
    @Test func walCheckpointIntervalIsPutBackAfterTheRun() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        #expect(try store.db.prepare("PRAGMA wal_autocheckpoint").scalarInt() == 1000)
        try ingestNDJSON(store, Self.log, options: IngestOptions())
        #expect(try store.db.prepare("PRAGMA wal_autocheckpoint").scalarInt() == 1000)
    }

    /// Ingest does not look up foreign keys' parent rows while a run is open
    /// (`IngestWriter.connectionSettings`): every reference it writes must still hold. Runs that
    /// store, reject, keep a session pending, resume it from another file, re-read the same
    /// content (its `sources` row merged into the first one), and abort under `--strict`, all
    /// leave `PRAGMA foreign_key_check` empty and foreign keys enforced on the connection.
    @Test func foreignKeysHoldAfterRunsThatMergeResumeRejectAndAbort() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        var options = IngestOptions()
        options.replayStoredSessions = true
        func check(_ step: String) throws {
            #expect(try store.db.prepare("PRAGMA foreign_keys").scalarInt() == 1, "\(step)")
            #expect(try store.db.prepare("PRAGMA foreign_key_check").all().isEmpty, "\(step)")
        }
        let open = """
            {"session":"p","t":5.0,"phase":"began","x":1,"y":1,"frame":[0,0,44,44]}
            {"session":"p","t":5.1,"phase":"moved","x":1,"y":2}
            {"session":"bad","t":"x","phase":"began","x":1,"y":1}
            """
        let first = Self.log + "\n" + open
        var s = try ingestNDJSON(store, first, name: "one.ndjson", options: options)
        #expect(s.sessionsNew == 3 && s.pending == 1 && s.rejects == 1)
        try check("first run")
        // The same bytes again: its sources row is merged into the first (references moved).
        s = try ingestNDJSON(store, first, name: "again.ndjson", options: options)
        #expect(s.sessionsNew == 0 && s.duplicates == 4)
        #expect(try store.db.prepare("SELECT count(*) FROM sources").scalarInt() == 1)
        try check("same content again")
        // Another file ends the pending session: its first line's source is the first file's.
        s = try ingestNDJSON(store, #"{"session":"p","t":5.2,"phase":"ended","x":1,"y":2}"#,
                             name: "two.ndjson", options: options)
        #expect(s.sessionsNew == 1 && s.sessionsCompletedFromPending == 1)
        let sources = try store.db.prepare("""
            SELECT a.name, b.name FROM sessions JOIN sources a ON a.id = source_id JOIN sources b ON b.id = last_source_id
            WHERE session = 'p'
            """).all()
        #expect(sources == [[.text("one.ndjson"), .text("two.ndjson")]])
        #expect(try store.db.prepare("SELECT count(*) FROM results").scalarInt() == 4)
        try check("pending resumed")
        // --strict aborts at the reject: nothing written, foreign keys on again.
        var strict = options
        strict.strict = true
        #expect(throws: StrictRejectError.self) {
            try ingestNDJSON(store, #"{"session":"q","t":"x","phase":"began","x":1,"y":1}"#, name: "three.ndjson", options: strict)
        }
        try check("strict abort")
        // Enforced again: a result for a session that does not exist is refused.
        #expect(throws: DatabaseError.self) {
            try store.writeResults([ResultRow(sessionID: 999, config: "x", configVersion: "v1", counterfactual: false,
                                               result: SessionResult(outcome: .tap, cancelReason: nil, actionFired: false,
                                                                     feedbackLatencyMs: nil, actionLatencyMs: nil, durationMs: 1,
                                                                     maxTravelPt: 0, pressDepth: 0, releaseJumpPt: 0))])
        }
    }

    /// `sessions.ingested_at` is set once per ingest transaction (`Store.stampIngestTime`) in the
    /// schema default's format: SQLite's `strftime('%Y-%m-%dT%H:%M:%fZ')` of it gives it back
    /// unchanged, and it lies between the clock read before and after the run.
    @Test func ingestedAtIsTheRunsTimeInTheDefaultsFormat() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        let now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
        let before = try #require(try store.db.prepare("SELECT \(now)").scalarText())
        try ingestNDJSON(store, Self.log)
        let after = try #require(try store.db.prepare("SELECT \(now)").scalarText())
        let rows = try store.db.prepare("""
            SELECT ingested_at, strftime('%Y-%m-%dT%H:%M:%fZ', ingested_at) = ingested_at, typeof(ingested_at)
            FROM sessions
            """).all()
        #expect(rows.count == 3)
        for row in rows {
            guard case .text(let t) = row[0] else { Issue.record("not text: \(row)"); continue }
            #expect(row[1] == .integer(1) && row[2] == .text("text"))
            #expect(before <= t && t <= after)   // ISO 8601 in UTC with fixed widths sorts as text
        }
        #expect(store.ingestedAt == nil)    // back to the schema's default after the run
    }

    /// Ingest skips CHECK constraints while a run is open because every value it writes to a
    /// checked column comes from one of these enums: their cases must be exactly the schema's
    /// lists (read from the schema text, not from the code).
    @Test func enumsSpellExactlyTheSchemasCheckedValues() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        func list(_ table: String, _ column: String) throws -> Set<String> {
            let sql = try #require(try store.db.prepare("SELECT sql FROM sqlite_master WHERE name = '\(table)'").scalarText())
            let range = try #require(sql.range(of: "\(column) IN ("))
            let rest = sql[range.upperBound...]
            let inside = rest[..<rest.firstIndex(of: ")")!]
            return Set(inside.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " '")) })
        }
        #expect(try list("sessions", "end_phase") == Set(TouchPhase.allCases.filter(\.isTerminal).map(\.rawValue)))
        #expect(try list("sessions", "scroll_axis") == Set(ScrollAxis.allCases.map(\.rawValue)))
        #expect(try list("results", "outcome") == Set(PressOutcome.allCases.map(\.rawValue)))
        #expect(try list("results", "cancel_reason") == Set(CancelReason.allCases.map(\.rawValue)))
    }
}
