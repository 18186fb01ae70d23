// The checkpoints an ingest runs on a connection and thread of its own after each batch
// (BackgroundCheckpoint): they move committed pages into the database file, leave a reader's
// snapshot alone, and leave nothing behind when the run ends.
import Foundation
import Testing
import PressCore
@testable import PressStore
@testable import PressSQLite
@testable import PressIngest

@Suite struct BackgroundCheckpointTests {
    /// The size of the file at `path`, bytes.
    static func size(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    /// A store at a new path whose own connection never checkpoints (`wal_autocheckpoint = 0`),
    /// with a table `t` of 2,000 rows of 500 bytes (about 1 MB, some 60 pages of 16 KiB) committed
    /// into the WAL.
    static func storeWithCommittedWAL() throws -> (path: String, store: Store) {
        let path = try temporaryDatabasePath()
        let store = try Store.open(path: path)
        try store.db.execute("PRAGMA wal_autocheckpoint = 0")
        try store.db.begin()
        try store.db.execute("CREATE TABLE t(x)")
        try store.db.execute("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
            INSERT INTO t SELECT randomblob(500) FROM n
            """)
        try store.db.commit()
        return (path, store)
    }

    /// Starts a checkpointer for `store`, asks for one checkpoint, waits for it to have run
    /// (`stop` waits only for a checkpoint that has begun, and the request is taken by the
    /// thread) and stops it; it must have run exactly once.
    static func checkpointOnce(_ store: Store) throws -> BackgroundCheckpoint {
        let checkpoint = try #require(BackgroundCheckpoint.start(for: store.db))
        checkpoint.request()
        let deadline = ContinuousClock.now + .seconds(30)
        while checkpoint.work.checkpoints == 0 && ContinuousClock.now < deadline { usleep(1000) }
        checkpoint.stop()
        #expect(checkpoint.work.checkpoints == 1)
        return checkpoint
    }

    // sqlite.org/wal.html: a commit appends pages to the WAL and leaves the database file as it
    // was; a checkpoint copies them into it. So the file grows by about the 1 MB just committed
    // only once the background checkpoint has run, and SQLite's own checkpoint afterwards finds
    // every frame of the WAL copied already (its third column, "checkpointed", equals the second,
    // "log", sqlite.org/pragma.html#pragma_wal_checkpoint) — the frames the background one copied.
    @Test func copiesCommittedPagesIntoTheDatabaseFile() throws {
        let (path, store) = try Self.storeWithCommittedWAL()
        let before = try Self.size(path)
        let checkpoint = try Self.checkpointOnce(store)
        #expect(try Self.size(path) >= before + 1_000_000)

        let s = try store.db.prepare("PRAGMA wal_checkpoint(PASSIVE)")
        #expect(try s.step())
        let (busy, log, checkpointed) = (s.int64(0), s.int64(1), s.int64(2))
        #expect(busy == 0)
        #expect(log > 0 && checkpointed == log)
        #expect(checkpoint.work.framesCopied == Int(log))
    }

    // A passive checkpoint "checkpoints as many frames as possible without waiting for any
    // database readers" (sqlite.org/c3ref/wal_checkpoint_v2.html) and never overwrites a page a
    // reader's snapshot still reads from the database file: with a reader open since the first
    // commit, it copies the frames of that commit and not those of the second. The reader keeps
    // its snapshot throughout, and once it ends the rest can be copied.
    @Test func leavesAnOpenReadersSnapshotAlone() throws {
        let (path, store) = try Self.storeWithCommittedWAL()
        let reader = try Database(path: path, readOnly: true)
        try reader.execute("BEGIN")
        let count = try reader.prepare("SELECT count(*) FROM t")
        #expect(try count.scalarInt() == 2000)
        try store.db.execute("INSERT INTO t SELECT randomblob(500) FROM t")

        let checkpoint = try Self.checkpointOnce(store)
        #expect(try count.scalarInt() == 2000)

        let status = try store.db.prepare("PRAGMA wal_checkpoint(PASSIVE)")
        #expect(try status.step())
        let log = Int(status.int64(1)), checkpointed = Int(status.int64(2))
        status.reset()
        #expect(checkpoint.work.framesCopied > 0)
        #expect(checkpoint.work.framesCopied < log)
        #expect(checkpointed == checkpoint.work.framesCopied)

        try reader.execute("COMMIT")
        #expect(try status.step())
        #expect(status.int64(2) == Int64(log))
    }

    // An ingest that replays as it stores (as `pressdb ingest` does), committed in batches of 50
    // sessions with a checkpoint requested after each (`backgroundCheckpointPages` 1), stores
    // every session of the log with its result, and closing the store leaves no WAL behind: the
    // background connection closed first, so the store's was the last and removed it
    // (sqlite.org/wal.html, "the WAL file is deleted when the last connection closes").
    @Test func aBatchedIngestLeavesEverythingStoredAndNoWAL() throws {
        let path = try temporaryDatabasePath()
        var options = IngestOptions()
        options.batchSessions = 50
        options.batchFraction = 0  // batches of 50 throughout
        options.backgroundCheckpointPages = 1
        options.replayStoredSessions = true
        do {
            let store = try Store.open(path: path)
            let summary = try ingestNDJSON(store, try syntheticLog(SyntheticLogConfiguration(sessions: 3_000, seed: 7)),
                                           options: options)
            #expect(summary.sessionsNew == 3_000)
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let db = try Database(path: path, readOnly: true)
        #expect(try db.prepare("SELECT count(*) FROM sessions").scalarInt() == 3_000)
        #expect(try db.prepare("SELECT count(DISTINCT session_id) FROM results").scalarInt() == 3_000)
        #expect(try db.prepare("PRAGMA integrity_check").scalarText() == "ok")
    }

    // An in-memory database has no file another connection could open; stopping twice and
    // requesting after the stop do nothing.
    @Test func anInMemoryDatabaseHasNoneAndStoppingIsIdempotent() throws {
        #expect(BackgroundCheckpoint.start(for: try Database(path: ":memory:")) == nil)
        let (_, store) = try Self.storeWithCommittedWAL()
        let checkpoint = try #require(BackgroundCheckpoint.start(for: store.db))
        checkpoint.stop()
        checkpoint.stop()
        checkpoint.request()
        #expect(checkpoint.work.framesCopied == 0)
    }
}
