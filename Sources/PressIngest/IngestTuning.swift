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
    /// SQLite's page cache during a run, KiB: the `sessions.session` index takes keys in no
    /// order, and with SQLite's 2,000 KiB its pages are read again and again.
    package static let cacheKiB = 16_384
    /// WAL pages after which a commit checkpoints on the ingesting connection: seldom, so the
    /// index pages each commit rewrites are copied off this thread (`BackgroundCheckpoint`).
    package static let walCheckpointPages = 10_000
    /// Bytes of result lines a stream buffers before writing: one `write(2)` per megabyte.
    package static let streamBufferBytes = 1 << 20
}
