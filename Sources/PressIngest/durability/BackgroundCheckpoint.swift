// An ingest's WAL copied into the database file on a thread of its own, between its batches,
// instead of by the ingesting thread.
import CSQLite
import PressSQLite
import PressStore

/// Checkpoints a database's WAL on a connection and a thread of its own when an ingest asks
/// (`request`: after a batch commit, once `IngestOptions.backgroundCheckpointPages` pages were
/// written since the last; by default after every batch), so the ingesting thread copies few
/// WAL pages into the database and waits for few syncs.
///
/// Without it the whole run's WAL was copied by the checkpoint SQLite runs when the ingesting
/// connection closes, on the ingesting thread at the end of the run, which then synced the WAL
/// and the database file, waiting for the disk while nothing else ran.
///
/// The WAL still starts again from its beginning only at the ingesting connection's own
/// checkpoints (every `IngestWriter.walCheckpointPages` pages), which find most frames copied
/// already: SQLite rewinds the WAL when a write transaction begins with every frame copied
/// (sqlite.org/wal.html, "WAL file growth"), and the ingest begins its next batch before the
/// checkpoint of the last has ended. The cost is bytes: a page the run rewrites batch after
/// batch (the `sessions.session` index's) is copied at each checkpoint, more bytes written by
/// a thread that waits on the disk, not on a core.
///
/// A `SQLITE_CHECKPOINT_PASSIVE` checkpoint (`sqlite3_wal_checkpoint_v2`,
/// sqlite.org/c3ref/wal_checkpoint_v2.html) "checkpoints as many frames as possible without
/// waiting for any database readers or writers to finish": the ingest goes on writing while it
/// runs, and a reader's snapshot is never overwritten (the checkpoint stops at the first frame a
/// reader may still need). Requests that arrive while a checkpoint runs are coalesced into one.
/// With `synchronous = NORMAL` a checkpoint syncs the WAL before it copies and the database file
/// after (sqlite.org/pragma.html#pragma_synchronous), so what is committed is durable soon after
/// rather than only at the next automatic checkpoint: the window a power loss may take back is
/// the last batch or two (the checkpoint runs while the next is written), while no other
/// connection's read transaction holds the frames back (a checkpoint that may copy nothing syncs
/// nothing). Best effort: a checkpoint that fails (`SQLITE_BUSY` while another connection
/// checkpoints) is left to the next request or to the close.
final class BackgroundCheckpoint: @unchecked Sendable {
    /// What the checkpoints did: how many ran and how many WAL frames they copied in all
    /// (`pnCkpt` of each, summed). Read after `stop` for a settled figure.
    struct Work: Equatable {
        var checkpoints = 0
        var framesCopied = 0
    }

    private let requests = BlockingQueue<Void>(capacity: Int.max)
    private let finished = BlockingQueue<Void>(capacity: 1)
    /// Whether a request is queued and not yet taken by the thread (coalesces requests).
    private let queued = Locked(false)
    private let stopped = Locked(false)
    private let done = Locked(Work())

    /// A checkpointer for `db`'s main database, started; nil when there is nothing to do on
    /// another connection: an in-memory or temporary database (no file for a second connection
    /// to open), a database not in WAL mode, a read-only connection, or when the second
    /// connection cannot be opened.
    static func start(for db: Database) -> BackgroundCheckpoint? {
        guard !db.isReadOnly,
              let name = sqlite3_db_filename(db.handle, "main"), name.pointee != 0,
              (try? db.prepare("PRAGMA journal_mode").scalarText())?.lowercased() == "wal",
              let own = try? Database(path: String(cString: name)),
              (try? own.execute("PRAGMA synchronous = NORMAL")) != nil
        else { return nil }
        return BackgroundCheckpoint(connection: own)
    }

    private init(connection: Database) {
        let requests = requests, finished = finished, queued = queued, stopped = stopped, done = done
        // The connection is touched only by the thread, which drops it before it says finished.
        var connection: Database? = connection
        ThreadWork {
            while requests.pop() != nil, !stopped.withLock({ $0 }) {
                queued.withLock { $0 = false }
                var logFrames: Int32 = 0, copied: Int32 = 0
                let rc = sqlite3_wal_checkpoint_v2(connection!.handle, "main", SQLITE_CHECKPOINT_PASSIVE,
                                                   &logFrames, &copied)
                done.withLock {
                    $0.checkpoints += 1
                    if rc == SQLITE_OK { $0.framesCopied += Int(max(0, copied)) }
                }
            }
            connection = nil
            finished.push(())
        }.start()
    }

    deinit { stop() }

    /// Asks for a checkpoint of what is committed so far; returns at once. Nothing once stopped.
    func request() {
        guard !stopped.withLock({ $0 }) else { return }
        let first = queued.withLock { wasQueued in
            defer { wasQueued = true }
            return !wasQueued
        }
        if first { requests.push(()) }
    }

    /// Waits for a running checkpoint to end (queued requests are dropped), then closes the
    /// connection. Call before the connection that writes closes, so that one is the last and
    /// checkpoints and removes the WAL. Stopping again does nothing.
    func stop() {
        let already = stopped.withLock { wasStopped in
            defer { wasStopped = true }
            return wasStopped
        }
        guard !already else { return }
        requests.close()
        _ = finished.pop()
    }

    /// What the checkpoints have done so far.
    var work: Work { done.withLock { $0 } }
}
