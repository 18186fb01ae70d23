// Ingest on a large database: the page cache grows with the `sessions.session` index,
// and a batch may last longer when the database asks for a larger one, so cost per session does
// not grow with the database. Expected values are worked by hand from the formulas' documented
// constants (IngestTuning): 16,384 KiB floor, 8,192 KiB besides the index, 10 bytes of entry
// overhead, 1.25 slack, 262,144 KiB cap; batches 0.5 s per 10,000 sessions, at most 4 s.
import Testing
import PressCore
@testable import PressStore
@testable import PressIngest

@Suite struct IngestScaleTuningTests {
    // 100,000 ids of 15 bytes: (15 + 10) × 1.25 × 100,000 / 1,024 = 3,051.8 KiB of index,
    // + 8,192 = 11,244 KiB, below the 16,384 KiB floor.
    @Test func cacheStaysAtItsFloorForASmallIndex() {
        #expect(IngestTuning.cacheKiB(sessions: 100_000, meanKeyBytes: 15) == 16_384)
        #expect(IngestTuning.cacheKiB(sessions: 0, meanKeyBytes: 0) == 16_384)
    }

    // 1,000,000 ids of 15 bytes: 31,250,000 bytes / 1,024 = 30,517.6 → 30,518 KiB, + 8,192.
    // 4,000,000: 122,070.3 → 122,071 KiB, + 8,192.
    @Test func cacheHoldsTheSessionIndexOfALargeDatabase() {
        #expect(IngestTuning.cacheKiB(sessions: 1_000_000, meanKeyBytes: 15) == 38_710)
        #expect(IngestTuning.cacheKiB(sessions: 4_000_000, meanKeyBytes: 15) == 130_263)
    }

    // 20,000,000 UUIDs (36 bytes): 46 × 1.25 × 2e7 / 1,024 ≈ 1.12 M KiB, over the 256 MiB cap.
    @Test func cacheIsBoundedWhateverTheDatabase() {
        #expect(IngestTuning.cacheKiB(sessions: 20_000_000, meanKeyBytes: 36) == 262_144)
        #expect(IngestTuning.cacheKiB(sessions: Int.max, meanKeyBytes: .infinity) == 262_144)
        #expect(IngestTuning.cacheKiB(sessions: -5, meanKeyBytes: .nan) == 16_384)
    }

    // 0.5 s for 10,000 sessions; 45,000 sessions: 0.5 × 4.5 = 2.25 s; 400,000: 20 s, cut to 4 s.
    @Test func batchTimeBoundGrowsWithTheBatchUpToFourSeconds() {
        #expect(IngestTuning.batchSeconds(forSessions: 10_000, batchSessions: 10_000, batchSeconds: 0.5) == 0.5)
        #expect(IngestTuning.batchSeconds(forSessions: 45_000, batchSessions: 10_000, batchSeconds: 0.5) == 2.25)
        #expect(IngestTuning.batchSeconds(forSessions: 400_000, batchSessions: 10_000, batchSeconds: 0.5) == 4)
    }

    // A bound set above the cap (tests use an hour to turn it off) is kept, never shortened.
    @Test func batchTimeBoundNeverShortensTheOptionGiven() {
        #expect(IngestTuning.batchSeconds(forSessions: 400_000, batchSessions: 100, batchSeconds: 3_600) == 3_600)
        #expect(IngestTuning.batchSeconds(forSessions: 5, batchSessions: 10_000, batchSeconds: 0.5) == 0.5)
    }

    // 16 KiB pages: 38,710 KiB of cache is 2,419 pages, × 4 = 9,677, below the 10,000 floor;
    // 130,263 KiB: 8,141 pages, × 4 = 32,565; the 262,144 KiB cap: 65,536.
    @Test func checkpointIntervalOutgrowsOneCommitOfALargeDatabase() {
        #expect(IngestTuning.walCheckpointPages(cacheKiB: 38_710, pageKiB: 16) == 10_000)
        #expect(IngestTuning.walCheckpointPages(cacheKiB: 130_263, pageKiB: 16) == 32_565)
        #expect(IngestTuning.walCheckpointPages(cacheKiB: 262_144, pageKiB: 16) == 65_536)
    }

    /// A store whose largest `sessions.id` is `largestID`, its one session named `stored-before`
    /// (13 bytes).
    static func store(largestID: Int) throws -> Store {
        let store = try Store.open(path: try temporaryDatabasePath())
        try store.db.execute("""
            INSERT INTO sessions(id, session, t0, t1, sample_count, end_phase, samples)
            VALUES (\(largestID), 'stored-before', 0, 0.1, 0, 'ended', x'')
            """)
        return store
    }

    // Largest id 1,000,000, ids of 13 bytes: (13 + 10) × 1.25 × 1e6 / 1,024 = 28,076.2 →
    // 28,077 KiB, + 8,192 = 36,269 KiB while the run is open; SQLite's own value after it.
    @Test func ingestWriterSizesTheCacheFromTheStoredSessions() throws {
        let store = try Self.store(largestID: 1_000_000)
        let before = try store.db.prepare("PRAGMA cache_size").scalarInt()
        let interval = try store.db.prepare("PRAGMA wal_autocheckpoint").scalarInt()
        let writer = try IngestWriter(store: store, options: IngestOptions())
        #expect(try store.db.prepare("PRAGMA cache_size").scalarInt() == -36_269)
        // 36,269 KiB / 16 KiB = 2,266 pages, × 4 = 9,067: the 10,000 floor.
        #expect(try store.db.prepare("PRAGMA wal_autocheckpoint").scalarInt() == 10_000)
        writer.end(committing: false)
        #expect(try store.db.prepare("PRAGMA cache_size").scalarInt() == before)
        #expect(try store.db.prepare("PRAGMA wal_autocheckpoint").scalarInt() == interval)
    }

    // Largest id 4,000,000, ids of 13 bytes: 23 × 1.25 × 4e6 / 1,024 = 112,304.7 → 112,305 KiB,
    // + 8,192 = 120,497 KiB; its 7,531 pages of 16 KiB × 4 = 30,124 pages between checkpoints.
    @Test func ingestWriterWidensTheCheckpointIntervalForALargeDatabase() throws {
        let store = try Self.store(largestID: 4_000_000)
        let writer = try IngestWriter(store: store, options: IngestOptions())
        #expect(try store.db.prepare("PRAGMA cache_size").scalarInt() == -120_497)
        #expect(try store.db.prepare("PRAGMA wal_autocheckpoint").scalarInt() == 30_124)
        writer.end(committing: false)
    }

    // One stored session: the page cache stays at its floor.
    @Test func ingestWriterKeepsTheFloorForASmallDatabase() throws {
        let store = try Self.store(largestID: 1)
        let writer = try IngestWriter(store: store, options: IngestOptions())
        #expect(try store.db.prepare("PRAGMA cache_size").scalarInt() == -16_384)
        writer.end(committing: false)
    }
}
