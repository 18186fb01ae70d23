import CSQLite
import Foundation
import Testing
import PressCore
import PressFormats
@testable import PressStore
@testable import PressSQLite
@testable import PressIngest

/// What a replay writes to `results` when rows for the same configuration version are already
/// there (`Store.writeResults`' upsert), and the connection it leaves behind.
@Suite struct ReplayWriteTests {
    /// The stored sessions of `IngestReplayTests.log`, each with its own result.
    static func ingested() throws -> Store {
        let store = try Store.open(path: try temporaryDatabasePath())
        var options = IngestOptions()
        options.replayStoredSessions = true
        #expect(try ingestNDJSON(store, IngestReplayTests.log, options: options).sessionsReplayed == 3)
        return store
    }

    /// Rows of `results` inserted, updated or deleted while `body` runs, as SQLite's update hook
    /// reports each row change (what `total_changes()` counted before the summary cells, which
    /// the same commit now writes too, in other tables).
    static func resultChanges(_ store: Store, _ body: () throws -> Void) throws -> Int {
        final class Count { var n = 0 }
        let count = Count()
        sqlite3_update_hook(store.db.handle, { context, _, _, table, _ in
            if let table, String(cString: table) == "results" {
                Unmanaged<Count>.fromOpaque(context!).takeUnretainedValue().n += 1
            }
        }, Unmanaged.passUnretained(count).toOpaque())
        defer { sqlite3_update_hook(store.db.handle, nil, nil) }
        try body()
        return count.n
    }

    /// Replay is deterministic: replaying the three sessions again finds two rows equal to what
    /// it computes and writes nothing to them (SQLite's `total_changes()` counts one row, where
    /// a delete and an insert of each counted six), and puts back the one row changed since.
    @Test func reReplayWritesOnlyTheRowThatDiffers() throws {
        let store = try Self.ingested()
        let before = try IngestReplayTests.results(store)
        try store.db.execute("UPDATE results SET duration_ms = -1 WHERE session_id = (SELECT min(session_id) FROM results)")
        let replayer = Replayer(store: store, catalog: try ConfigurationCatalog(store: store))
        var replayed = 0
        let changes = try Self.resultChanges(store) { replayed = try replayer.replay(SessionFilter()).replayed }
        #expect(replayed == 3)
        #expect(changes == 1)
        #expect(try IngestReplayTests.results(store) == before)
    }

    /// Row changes per table while `body` runs, as SQLite's update hook reports them.
    static func tableChanges(_ store: Store, _ body: () throws -> Void) throws -> [String: Int] {
        final class Count { var n: [String: Int] = [:] }
        let count = Count()
        sqlite3_update_hook(store.db.handle, { context, _, _, table, _ in
            if let table { Unmanaged<Count>.fromOpaque(context!).takeUnretainedValue().n[String(cString: table), default: 0] += 1 }
        }, Unmanaged.passUnretained(count).toOpaque())
        defer { sqlite3_update_hook(store.db.handle, nil, nil) }
        try body()
        return count.n
    }

    /// Replaying stored sessions again under their own versions (32 rows to a statement) gives
    /// the rows already stored (replay is deterministic), so nothing is written: no result, no
    /// summary cell, no latency bin, not `summary_state`. A stored row is the new one when every
    /// field a cell counts is equal; the photon latencies, which cells do not count, are stored
    /// on both and must not make it look replaced.
    @Test func aReReplayOfUnchangedRowsWritesNoSummaryCell() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        var options = IngestOptions()
        options.replayStoredSessions = true
        _ = try ingestNDJSON(store, try syntheticLog(SyntheticLogConfiguration(sessions: 200, seed: 4)), options: options)
        let stored = try #require(try store.db.prepare("SELECT count(*) FROM results").scalarInt())
        #expect(stored >= 64)
        #expect(try store.db.prepare("SELECT count(*) FROM results WHERE feedback_photon_ms IS NOT NULL").scalarInt() ?? 0 > 0)
        let replayer = Replayer(store: store, catalog: try ConfigurationCatalog(store: store))
        var replayed = 0
        let changes = try Self.tableChanges(store) { replayed = try replayer.replay(SessionFilter()).replayed }
        #expect(replayed == stored)
        #expect(changes == [:])
    }

    /// A replay under another configuration adds a row per session beside each own one.
    @Test func replayAsAnotherConfigurationAddsRows() throws {
        let store = try Self.ingested()
        let replayer = Replayer(store: store, catalog: try ConfigurationCatalog(store: store))
        var replayed = 0
        let changes = try Self.resultChanges(store) { replayed = try replayer.replay(SessionFilter(), as: .longPressSafeArea).replayed }
        #expect(replayed == 3)
        #expect(changes == 3)
        #expect(try store.db.prepare("SELECT count(*) FROM results WHERE counterfactual = 1").scalarInt() == 3)
    }

    /// Replay writes with CHECK constraints off (`Replayer.connectionSettings`) and turns them
    /// back on when it ends.
    @Test func checkConstraintsAreEnforcedAgainAfterAReplay() throws {
        let store = try Self.ingested()
        let replayer = Replayer(store: store, catalog: try ConfigurationCatalog(store: store))
        try replayer.replay(SessionFilter(), as: .longPressSafeArea)
        #expect(try store.db.prepare("PRAGMA ignore_check_constraints").scalarInt() == 0)
        let id = try #require(try store.db.prepare("SELECT min(id) FROM sessions").scalarInt())
        #expect(throws: DatabaseError.self) { try insertResultWithUnknownOutcome(store.db, sessionID: id) }
    }
}
