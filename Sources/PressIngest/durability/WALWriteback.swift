// An ingest's committed WAL pages sent to disk while the run goes on, so the checkpoint at the
// end waits less for them.
import CSQLite
#if canImport(Glibc)
import Glibc
import CLinux
#endif
import PressSQLite

/// Starts the kernel writing a connection's WAL file to disk after each of an ingest's commits
/// (`sync_file_range(2)` with `SYNC_FILE_RANGE_WRITE`: write-out begins, nothing waits for it).
///
/// With `synchronous = NORMAL` a commit writes its pages into the WAL without syncing it; the
/// kernel writes them back on its own only after `dirty_expire_centisecs` (30 s by default), so
/// at the end of a run the checkpoint that runs when the connection closes (SQLite syncs the WAL
/// before copying it into the database) found the whole run's WAL still in memory and waited
/// for all of it. Started after each commit, the write-out overlaps the rest of the run. The same idea as RocksDB's `wal_bytes_per_sync`.
///
/// Durability is unchanged: this only starts writes earlier; the checkpoint still syncs
/// (SQLite's own `fdatasync` on its own descriptor of the same file). Best effort: without a
/// WAL file (another journal mode, an in-memory database) or where the call fails, nothing
/// happens.
final class WALWriteback {
    /// The WAL file's path: SQLite's name for it, the database's with `-wal` appended; nil
    /// for an in-memory or temporary database.
    let walPath: String?
    private var descriptor: Int32 = -1

    /// For `db`'s main database's WAL (`sqlite3_filename_wal`, SQLite 3.31 and later).
    init(_ db: Database) {
        if let name = sqlite3_db_filename(db.handle, "main"), name.pointee != 0,
           let wal = sqlite3_filename_wal(name) {
            walPath = String(cString: wal)
        } else {
            walPath = nil
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Starts the write-out of the WAL's dirty pages (opening it the first time: SQLite creates
    /// it at the first write). Returns whether the kernel took the request.
    @discardableResult
    func start() -> Bool {
        #if os(Linux)
        guard let walPath else { return false }
        if descriptor < 0 { descriptor = open(walPath, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return false }
        return sync_file_range(descriptor, 0, 0, UInt32(PRESSDB_SYNC_FILE_RANGE_WRITE)) == 0
        #else
        return false
        #endif
    }
}
