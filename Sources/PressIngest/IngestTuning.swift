// Ingest's tuning knobs, in one place, each with the reason for its value. The measurements
// behind them are in docs/benchmarks.md ("The figures behind the code"); the counts that guard
// ingest's speed are checked by scripts/check-instructions.
import Dispatch

package enum IngestTuning {
    /// The reader's and replay worker's nice value above the ingesting thread's: they feed it,
    /// and its CPU time is the run's wall time, so on a shared core it goes first.
    package static let feederNiceness: Int32 = 5
    /// Items per batch when the source is read on the ingesting thread: how often the loop
    /// checks for a stop and a due commit.
    package static let inlineBatchItems = 4_096
    /// Items per chunk the reader hands over: the consumer starts at once, and the hand-over
    /// (a lock and a wake-up) costs nothing per item.
    package static let chunkItems = 2_048
    /// Chunks read ahead at most, so memory stays flat (a few MB).
    package static let chunksAhead = 8
    /// How long stopping waits for the reader: one blocked on a stalled pipe is left to end
    /// when its input does.
    package static let readerStopWait = DispatchTimeInterval.milliseconds(100)
    /// Jobs handed to the replay worker at once (the hand-over costs a lock and a wake-up).
    package static let replayBatchSize = 256
    /// Distinct session keys the replay worker shares before starting again, so memory stays
    /// bounded whatever the keys.
    package static let sharedKeysLimit = 4_096
    /// SQLite's page cache during a run, KiB, while the `sessions.session` index is small: the
    /// index takes keys in no order, and with SQLite's 2,000 KiB its pages are read again and
    /// again.
    package static let cacheKiB = 16_384
    /// Past that, the cache holds the whole `sessions.session` index (`cacheKiB(sessions:…)`):
    /// a page it drops is read back and written to the WAL again at the next insert, one or two
    /// 16 KiB copies a session once the index is several times the cache. KiB besides the
    /// index, for the pages the inserts append to (tables, the other indexes' ends).
    package static let cacheBesidesIndexKiB = 8_192
    /// The most the cache grows to, KiB: the memory an ingest may take is bounded; beyond an
    /// index of about 200 MiB (some 8 million sessions with 15-byte ids) misses come back.
    package static let maxCacheKiB = 262_144
    /// Bytes an index entry takes besides its key: the rowid, the record header and the cell
    /// pointer (sqlite.org/fileformat2.html, "B-tree Pages").
    package static let indexEntryOverheadBytes = 10.0
    /// The index's pages are not full: a B-tree filled in random key order about ln 2 ≈ 69 %
    /// (A. C. Yao, "On random 2-3 trees", Acta Informatica 9, 1978), SQLite's, which balances
    /// over three siblings, fuller (observed: 92 % for generated ids, docs/benchmarks.md). The
    /// cache allows for a quarter more than the entries' bytes.
    package static let indexSlack = 1.25

    /// The page cache for a run whose database holds `sessions` sessions with ids of
    /// `meanKeyBytes` bytes on average, KiB: `cacheKiB`, or the index's estimated size plus
    /// `cacheBesidesIndexKiB` when that is more, at most `maxCacheKiB`.
    package static func cacheKiB(sessions: Int, meanKeyBytes: Double) -> Int {
        let entry = (meanKeyBytes.isFinite ? max(meanKeyBytes, 0) : 0) + indexEntryOverheadBytes
        let indexKiB = Double(max(sessions, 0)) * entry * indexSlack / 1024
        let wanted = Double(cacheBesidesIndexKiB) + indexKiB.rounded(.up)
        return Int(min(max(wanted, Double(cacheKiB)), Double(maxCacheKiB)))
    }

    /// The longest a batch lasts, seconds, however large the database: `batchSeconds` grows with
    /// the batch that `IngestOptions.batchFraction` asks for (`batchSeconds(forSessions:…)`), up
    /// to this. Below `Database.busyTimeoutMilliseconds` (5 s) with room for the commit, so
    /// another writer waiting for the lock still gets it between two batches.
    package static let maxBatchSeconds = 4.0

    /// How long a batch of `size` sessions may last, seconds: `batchSeconds` for the smallest
    /// batches (`batchSessions`), longer in proportion for the larger ones a large database asks
    /// for, at most `maxBatchSeconds` (never less than `batchSeconds`). A fixed bound capped the
    /// batches at what 0.5 s of input gives, so beyond some 450,000 sessions each commit rewrote
    /// the whole `sessions.session` index for a fixed number of new sessions, and the rewrites
    /// grew with the square of the database.
    package static func batchSeconds(forSessions size: Int, batchSessions: Int, batchSeconds: Double) -> Double {
        guard batchSeconds.isFinite, batchSeconds > 0 else { return batchSeconds }
        let scaled = batchSeconds * Double(max(size, 1)) / Double(max(batchSessions, 1))
        return max(batchSeconds, min(scaled, maxBatchSeconds))
    }
    /// WAL pages after which a commit checkpoints on the ingesting connection: seldom, so the
    /// index pages each commit rewrites are copied off this thread (`BackgroundCheckpoint`).
    package static let walCheckpointPages = 10_000

    /// The ingesting connection's checkpoint interval, pages, for a page cache of `cacheKiB`:
    /// `walCheckpointPages`, or four times the cache's pages when that is more. A commit writes
    /// the index pages it touched, most of the cache on a large database, so with a fixed
    /// interval every commit would checkpoint on the ingesting thread, copying and syncing there
    /// what `BackgroundCheckpoint` copies off it. At the 256 MiB cap: 65,536 pages, 1 GiB of WAL.
    package static func walCheckpointPages(cacheKiB: Int, pageKiB: Int) -> Int {
        max(walCheckpointPages, 4 * max(cacheKiB, 0) / max(pageKiB, 1))
    }
    /// Bytes of result lines a stream buffers before writing: one `write(2)` per megabyte.
    package static let streamBufferBytes = 1 << 20
}
