// One-line messages for the database failures a user can act on: a read-only file or directory,
// a full disk, a lock held too long, a file that is not a database. Other errors keep SQLite's
// own text.
import PressStore
import PressSQLite

enum DatabaseProblem {
    // SQLite primary result codes (sqlite.org/rescode.html).
    static let busy: Int32 = 5
    /// SQLITE_BUSY_SNAPSHOT: a read transaction could not be upgraded to write (its snapshot is stale).
    static let busySnapshot: Int32 = 517
    static let readOnly: Int32 = 8
    static let ioError: Int32 = 10
    static let corrupt: Int32 = 11
    static let full: Int32 = 13
    static let cannotOpen: Int32 = 14
    static let notADatabase: Int32 = 26

    /// What went wrong with the database at `path`, and what to do, in one line (without the
    /// `pressdb COMMAND:` prefix). `committed`: what the command had committed when it failed,
    /// when it knows (ingest: its batches and sessions), for a lock that did not change hands.
    static func describe(_ error: Error, path: String, committed: (batches: Int, sessions: Int)? = nil) -> String {
        guard let e = error as? DatabaseError else { return "\(error)" }
        switch e.primaryCode {
        case readOnly:
            return "cannot write \(path): the database file or its directory is read-only "
                + "(pressdb writes the file and creates \(path)-wal and \(path)-shm next to it); "
                + "make them writable, or choose another database with --db"
        case full, ioError:
            return "cannot write \(path): \(e.message) (is the disk full, or a file size limit reached?); "
                + "the batches committed before were kept whole and nothing was half-written; "
                + "free some space and re-run the same command"
        case cannotOpen:
            // `Database` names the file already ("cannot open PATH: reason"); say it once.
            let reason = e.message.hasPrefix("cannot open \(path): ") ? e.message : "cannot open \(path): \(e.message)"
            return "\(reason) (its directory must exist and be writable)"
        case busy where e.code == busySnapshot:
            return "another process wrote to \(path) while this one was reading it; re-run the same command"
        case busy:
            // Writers wait as long as the lock changes hands (`Database.begin`): this is a holder
            // that committed nothing for the whole busy timeout.
            let kept: String
            switch committed {
            case nil: kept = "what was committed before is kept"
            case let (batches, _)? where batches == 0: kept = "nothing was written"
            case let (_, sessions)?: kept = "the \(sessions) session\(sessions == 1 ? "" : "s") committed before \(sessions == 1 ? "is" : "are") kept"
            }
            return "\(path) stayed locked by another process for \(Database.busyTimeoutMilliseconds / 1000) s without any commit; "
                + "\(kept); re-run the same command when it has finished"
        case corrupt, notADatabase:
            return "\(path) is not a pressdb database or is damaged (\(e.message))"
        default:
            // SQLite's code and message, and the start of the statement at most: a migration's
            // SQL runs to kilobytes and says nothing a user can act on.
            let statement = e.sql.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            return "SQLite error \(e.code): \(e.message)" + (statement.isEmpty ? "" : " (while running: \(Terminal.cut(statement, to: 60)))")
        }
    }
}
