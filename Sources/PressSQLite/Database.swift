// A thin skin over SQLite's C API: one connection (`Database`), one prepared statement
// (`Statement`), errors that carry SQLite's result code, its message and the SQL that failed.
// The vocabulary is SQLite's own: open, prepare, bind, step, reset, finalize.
import CSQLite
#if canImport(Glibc)
import Glibc
#endif

// MARK: - Errors

/// An SQLite failure: the primary result code (`SQLITE_CONSTRAINT` = 19, `SQLITE_BUSY` = 5, …),
/// SQLite's message, and the SQL that failed (empty when none was involved, e.g. opening).
public struct DatabaseError: Error, CustomStringConvertible, Sendable {
    /// SQLite's extended result code as returned (e.g. 2067 `SQLITE_CONSTRAINT_UNIQUE`).
    public var code: Int32
    public var message: String
    public var sql: String
    public init(code: Int32, message: String, sql: String = "") {
        self.code = code; self.message = message; self.sql = sql
    }
    /// The primary result code (the low 8 bits of the extended code).
    public var primaryCode: Int32 { code & 0xFF }
    public var description: String {
        let base = "SQLite error \(code): \(message)"
        return sql.isEmpty ? base : base + " (while running: \(sql.trimmingWhitespace()))"
    }
}

extension String {
    fileprivate func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }

    fileprivate func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}

// MARK: - Values

/// A value bound to or read from SQLite, in SQLite's five storage classes.
public enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

// MARK: - Database

/// One SQLite connection. Opened read-write (created when missing) or truly read-only
/// (`SQLITE_OPEN_READONLY` and `PRAGMA query_only = 1`). Closed in `deinit`.
///
///     let db = try Database(path: "pressdb.sqlite")
///     try db.execute("CREATE TABLE t(x)")
///     let n = try db.prepare("SELECT count(*) FROM t").scalarInt()
///
/// Not thread-safe: use one connection per thread (SQLite's WAL mode lets a reader and a writer
/// run at once on separate connections).
public final class Database {
    /// The raw `sqlite3*` handle, for registering SQL functions with `sqlite3_create_function_v2`.
    /// Owned by this object: do not close it.
    public let handle: OpaquePointer
    /// The file path given at open.
    public let path: String
    public let isReadOnly: Bool
    /// When the current wait for a lock began (the busy handler's state).
    private let busyWait = BusyWait()

    /// How long a statement waits for another connection's lock before failing with
    /// `SQLITE_BUSY`, in milliseconds. 5 s: long enough for a writer's batch (about 0.5 s) to
    /// commit while a report reads. `begin` waits longer while the lock changes hands: it gives
    /// up only after this long without any other connection committing.
    public static let busyTimeoutMilliseconds: Int32 = 5_000
    /// How often a connection waiting for a lock tries again, in milliseconds.
    public static let busyPollMilliseconds: Int32 = 1
    /// How long `commitAndHandOff` pauses after a commit, in milliseconds: longer than
    /// `busyPollMilliseconds`, so a writer waiting for the lock gets it.
    public static let handOffMilliseconds: Int32 = 2

    /// Opens `path`. Read-write creates the file when missing; read-only fails when it is
    /// missing. Sets the busy timeout and turns foreign keys on. Does not migrate: see
    /// `Schema.open`.
    /// - Throws: `DatabaseError` when SQLite cannot open the file.
    public init(path: String, readOnly: Bool = false) throws {
        Database.configureLibrary
        var db: OpaquePointer?
        var flags = (readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
            | SQLITE_OPEN_NOMUTEX
        var name = path
        if readOnly, Self.cannotBeWritten(path) {
            // Nobody writes a file without write permission, so it cannot change under this
            // reader: open it `immutable` (sqlite.org/uri.html), which reads it without the
            // -wal and -shm files a WAL database otherwise gets beside it.
            name = Self.immutableURI(path)
            flags |= SQLITE_OPEN_URI
        }
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            if let db { sqlite3_close_v2(db) }
            throw DatabaseError(code: rc, message: "cannot open \(path): \(message)")
        }
        handle = db
        self.path = path
        isReadOnly = readOnly
        sqlite3_extended_result_codes(db, 1)
        // Like sqlite3_busy_timeout, but polling every millisecond: SQLite's own timeout sleeps
        // up to 100 ms between tries, so it misses the brief gap a writer leaves between two
        // batches and a second writer times out behind a long ingest. The timeout is measured
        // on the monotonic clock from the first try (on a loaded machine a 1 ms sleep takes
        // longer, so counting tries would wait longer than said).
        sqlite3_busy_handler(db, { context, attempts in
            let wait = Unmanaged<BusyWait>.fromOpaque(context!).takeUnretainedValue()
            let now = BusyWait.milliseconds()
            if attempts == 0 { wait.startMilliseconds = now }
            guard now - wait.startMilliseconds < Int64(Database.busyTimeoutMilliseconds) else { return 0 }
            sqlite3_sleep(Database.busyPollMilliseconds)
            return 1
        }, Unmanaged.passUnretained(busyWait).toOpaque())
        try execute("PRAGMA foreign_keys = ON")
        if readOnly { try execute("PRAGMA query_only = 1") }
    }

    deinit { sqlite3_close_v2(handle) }

    /// Whether the file at `path` is one no process writes: it exists, this process may not
    /// write it or its mode has no write bit (which root passes, but pressdb honours), and no
    /// -wal beside it holds commits a reader must see.
    static func cannotBeWritten(_ path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return false }
        let noWriteBit = st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH) == 0
        guard noWriteBit || access(path, W_OK) != 0 else { return false }
        var wal = stat()
        return stat(path + "-wal", &wal) != 0 || wal.st_size == 0
    }

    /// `file:PATH?immutable=1`, the path's bytes other than unreserved ones and `/`
    /// percent-encoded (sqlite.org/uri.html: `?`, `#` and `%` in a file name must be).
    static func immutableURI(_ path: String) -> String {
        var out = "file:"
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                out += "%" + String(b, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out + "?immutable=1"
    }

    /// SQLite's process-wide configuration, set once before the first connection opens (SQLite
    /// takes it only before `sqlite3_initialize`, which the first `sqlite3_open_v2` runs; later
    /// the call fails with `SQLITE_MISUSE` and changes nothing):
    ///
    /// - `SQLITE_CONFIG_MEMSTATUS` off. With it on (the default of Debian's build, which also
    ///   omits the lookaside allocator), every `sqlite3_malloc` and `sqlite3_free` takes a
    ///   global mutex to keep the memory statistics; SQLite's own advice for speed is to turn it
    ///   off ("Recommended Compile-time Options", `SQLITE_DEFAULT_MEMSTATUS=0`,
    ///   sqlite.org/compile.html). Ingest calls the allocator about 30 times a session (records
    ///   and index keys built per row, freed when each statement ends). What stops working is
    ///   what reads the statistics (`sqlite3_memory_used`, `sqlite3_status64`, the soft and
    ///   hard heap limits: sqlite.org/c3ref/c_config_covering_index_scan.html), none of which
    ///   pressdb uses.
    private static let configureLibrary: Void = {
        _ = pressdb_sqlite_config_memstatus(0)
    }()

    /// The error SQLite reports for the last failed call on this connection.
    func error(_ code: Int32, sql: String = "") -> DatabaseError {
        DatabaseError(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// Runs one or more SQL statements that return no rows (`sqlite3_exec`).
    /// - Throws: `DatabaseError` with the failing SQL.
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw DatabaseError(code: rc, message: text, sql: sql)
        }
    }

    /// Compiles `sql` (one statement) into a prepared `Statement`.
    /// - Throws: `DatabaseError` when the SQL does not compile.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// Compiles `sql` into a `Statement` that binds text and blobs in place
    /// (`Statement.bindsInPlace`): for statements run once per row that bind every parameter
    /// before each run.
    /// - Throws: `DatabaseError` when the SQL does not compile.
    public func prepareBindingInPlace(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql, bindsInPlace: true)
    }

    /// The rowid of the last successful INSERT on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Pages this connection has written to the WAL since it opened (in rollback-journal mode,
    /// to the database file): `SQLITE_DBSTATUS_CACHE_WRITE` (sqlite.org/c3ref/c_dbstatus_options.html).
    public var pagesWritten: Int {
        var current: Int32 = 0, highwater: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_WRITE, &current, &highwater, 0)
        return Int(current)
    }

    /// The observers of this connection's transactions, in the order they were added.
    private var transactionObservers: [any TransactionObserver] = []
    /// Per observer type, the observer `transactionObserver(_:makingWith:)` made (nil when it
    /// made none), so each type is made at most once per connection.
    private var observerSlots: [ObjectIdentifier: (any TransactionObserver)?] = [:]

    /// This connection's observer of type `T`, if one was added.
    package func transactionObserver<T: TransactionObserver>(_ type: T.Type) -> T? {
        observerSlots[ObjectIdentifier(type)].flatMap { $0 as? T }
    }

    /// This connection's observer of type `T`: on the first ask, made by `make` and added to the
    /// transaction observers (`make` returning nil means none, and is remembered too).
    package func transactionObserver<T: TransactionObserver>(_ type: T.Type, makingWith make: () throws -> T?) rethrows -> T? {
        let key = ObjectIdentifier(type)
        if let slot = observerSlots[key] { return slot as? T }
        let made = try make()
        observerSlots[key] = .some(made)
        if let made { transactionObservers.append(made) }
        return made
    }

    /// True while a transaction is open (not in autocommit mode).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// `PRAGMA user_version`: the schema version pressdb's migrations record.
    public var userVersion: Int {
        get throws { Int(try prepare("PRAGMA user_version").scalarInt() ?? 0) }
    }

    // MARK: Transactions

    /// Starts a transaction: `BEGIN IMMEDIATE` takes the write lock at once, so a conflict shows
    /// up here rather than half-way through.
    ///
    /// Waits for the lock as long as other connections make progress: each try waits up to the
    /// busy timeout (polling every `busyPollMilliseconds`), and when it runs out another try
    /// follows if some other connection committed meanwhile (`PRAGMA data_version` changed:
    /// "different if changes were committed to the database by any other connection in the
    /// interim", sqlite.org/pragma.html#pragma_data_version). Eight ingests taking turns batch
    /// by batch then all finish, however long one waits; a holder that commits nothing for the
    /// busy timeout (stalled, or holding a transaction open) still makes this fail.
    /// - Throws: `DatabaseError` (`SQLITE_BUSY` after `busyTimeoutMilliseconds` without a
    ///   commit by anyone else).
    public func begin() throws {
        var version = try dataVersion()
        while true {
            do { return try execute("BEGIN IMMEDIATE") } catch let e as DatabaseError where e.primaryCode == SQLITE_BUSY {
                let now = try dataVersion()
                if now == version { throw e }
                version = now
            }
        }
    }

    /// `PRAGMA data_version`: changes whenever another connection commits.
    private func dataVersion() throws -> Int64 {
        try prepare("PRAGMA data_version").scalarInt() ?? 0
    }
    /// Commits the open transaction, first letting each transaction observer write into it
    /// (`TransactionObserver.databaseWillCommit`), so what they write commits with the rest.
    public func commit() throws {
        for observer in transactionObservers { try observer.databaseWillCommit(self) }
        try execute("COMMIT")
    }
    /// Commits, then pauses `handOffMilliseconds` before the caller begins its next transaction,
    /// so another process waiting to write (polling every `busyPollMilliseconds`) takes its turn:
    /// two long ingests then interleave their batches instead of one timing out.
    public func commitAndHandOff() throws {
        try commit()
        sqlite3_sleep(Database.handOffMilliseconds)
    }
    /// Rolls back when a transaction is open; never throws (used on error paths).
    public func rollback() {
        for observer in transactionObservers { observer.databaseDidRollback() }
        if isInTransaction { _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
    }

    // MARK: Pragmas

    /// Sets each pragma (`PRAGMA name = value`, in order) after reading its current value, and
    /// returns the scope that puts them back (`PragmaScope.restore`, in reverse order; also when
    /// the scope is released). Call outside a transaction: SQLite ignores `foreign_keys` inside
    /// one.
    ///
    ///     let scope = try db.settingPragmas([("cache_size", "-16384"), ("foreign_keys", "OFF")])
    ///     defer { scope.restore() }
    ///
    /// - Throws: `DatabaseError`; pragmas set before the failing one are put back first.
    public func settingPragmas(_ settings: [(name: String, value: String)]) throws -> PragmaScope {
        let scope = PragmaScope(database: self)
        do {
            for (name, value) in settings {
                let before = try prepare("PRAGMA \(name)").scalarText() ?? "0"
                try execute("PRAGMA \(name) = \(value)")
                scope.saved.append((name, before))
            }
        } catch {
            scope.restore()
            throw error
        }
        return scope
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try begin()
        do {
            let value = try body()
            try commit()
            return value
        } catch {
            rollback()
            throw error
        }
    }
}

/// Work a connection does as each of its transactions ends, added once per connection
/// (`Database.transactionObserver(_:makingWith:)`): what must commit with the transaction's rows
/// is written in `databaseWillCommit`, inside the transaction; `databaseDidRollback` forgets it.
package protocol TransactionObserver: AnyObject {
    /// Called by `Database.commit` inside the transaction, before COMMIT.
    /// - Throws: `DatabaseError`; the commit then fails and the caller rolls back.
    func databaseWillCommit(_ database: Database) throws
    /// Called by `Database.rollback`, before ROLLBACK.
    func databaseDidRollback()
}

/// The state of a connection's busy handler: when its current wait for a lock began.
private final class BusyWait {
    var startMilliseconds: Int64 = 0

    /// The monotonic clock, in milliseconds.
    static func milliseconds() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Int64(t.tv_sec) * 1000 + Int64(t.tv_nsec) / 1_000_000
    }
}

/// Pragmas a connection set for a while (`Database.settingPragmas`), and their values before.
public final class PragmaScope {
    let database: Database
    /// (name, value before), in the order they were set.
    var saved: [(name: String, value: String)] = []

    init(database: Database) { self.database = database }

    deinit { restore() }

    /// Puts every pragma back to its value before, last set first; then does nothing more.
    /// Never throws (used on error paths); call outside a transaction.
    public func restore() {
        for (name, value) in saved.reversed() { try? database.execute("PRAGMA \(name) = \(value)") }
        saved = []
    }
}

// MARK: - Statement

/// A prepared statement (`sqlite3_stmt`), finalized in `deinit`. Parameters are 1-based as in
/// SQLite (`?1`, `?2`, …); columns are 0-based, as `sqlite3_column_*`.
///
///     let s = try db.prepare("INSERT INTO t(x, y) VALUES (?, ?)")
///     s.bind(1, 42); s.bind(2, "text")
///     try s.run()          // step to done, then reset for the next row
public final class Statement {
    public let handle: OpaquePointer
    public let sql: String
    unowned let database: Database
    /// Whether text and blobs are bound from `arena` without SQLite copying them
    /// (`Database.prepareBindingInPlace`).
    ///
    /// SQLite copies a value bound with `SQLITE_TRANSIENT` into memory of its own (an allocation,
    /// a copy, and a free when the parameter is bound again), for each of ingest's seven texts
    /// and one blob a session.
    /// `SQLITE_STATIC` leaves the bytes where they are, and "the application must ensure that
    /// the pointer remains valid until either the prepared statement is finalized or the same
    /// SQL parameter is bound to something else" (sqlite.org/c3ref/bind_blob.html). Here the
    /// bytes are copied into `arena`, owned by the statement and freed after `sqlite3_finalize`,
    /// so every pointer stays valid for the statement's life. `reset` reuses the arena from its
    /// start, overwriting the bytes earlier runs bound: such a statement must bind every text and
    /// blob parameter again before each run (a value that does not fit the arena's free space is
    /// bound with `SQLITE_TRANSIENT`, as without it).
    public let bindsInPlace: Bool
    private var arena: UnsafeMutableRawPointer?
    private var arenaUsed = 0
    /// The first failed bind since the statement last ran: its result code (`SQLITE_OK`: none)
    /// and parameter. The next `step` throws it instead of running with a parameter unbound.
    private var bindFailure = SQLITE_OK, bindFailureIndex: Int32 = 0
    /// Bytes of `arena`: enough for a session's texts and the samples BLOB of about 600 samples.
    static let arenaCapacity = 16_384

    init(database: Database, sql: String, bindsInPlace: Bool = false) throws {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw database.error(rc, sql: sql) }
        handle = stmt
        self.sql = sql
        self.database = database
        self.bindsInPlace = bindsInPlace
        if bindsInPlace { arena = UnsafeMutableRawPointer.allocate(byteCount: Self.arenaCapacity, alignment: 8) }
    }

    deinit {
        sqlite3_finalize(handle)
        arena?.deallocate()
    }

    /// `count` bytes of the arena's free space, taken for a value bound until the next `reset`;
    /// nil when the statement does not bind in place or the space is too small.
    private func arenaSpace(_ count: Int) -> UnsafeMutableRawPointer? {
        guard let arena, arenaUsed + count <= Self.arenaCapacity else { return nil }
        defer { arenaUsed += count }
        return arena + arenaUsed
    }

    // MARK: Binding
    //
    // Every bind's result code is checked: the first that is not `SQLITE_OK` (`SQLITE_RANGE`
    // for a parameter the SQL does not have, `SQLITE_TOOBIG`, `SQLITE_NOMEM`;
    // sqlite.org/c3ref/bind_blob.html) is kept and thrown by the next `step`, so the binds keep
    // their non-throwing signatures and no statement runs with a parameter silently unbound.

    /// How many parameters the SQL has: the largest index (`?3` alone makes three).
    public var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    /// Keeps `rc` when it is the first failed bind since the last step.
    @inline(__always) private func check(_ rc: Int32, _ index: Int32) {
        if _slowPath(rc != SQLITE_OK) && bindFailure == SQLITE_OK { bindFailure = rc; bindFailureIndex = index }
    }

    public func bindNull(_ index: Int32) { check(sqlite3_bind_null(handle, index), index) }
    public func bind(_ index: Int32, _ value: Int64) { check(sqlite3_bind_int64(handle, index, value), index) }
    public func bind(_ index: Int32, _ value: Int) { check(sqlite3_bind_int64(handle, index, Int64(value)), index) }
    public func bind(_ index: Int32, _ value: Bool) { check(sqlite3_bind_int64(handle, index, value ? 1 : 0), index) }
    public func bind(_ index: Int32, _ value: Double) { check(sqlite3_bind_double(handle, index, value), index) }
    /// Binds text (copied by SQLite, `SQLITE_TRANSIENT`, or into the statement's arena:
    /// `bindsInPlace`): every UTF-8 byte, NULs included, so text read back by length is the
    /// string bound.
    ///
    /// The bytes are handed over from `withUTF8`: passing the `String` as a C string instead
    /// makes Swift build a NUL-terminated array on the heap for every small (≤ 15-byte) string,
    /// which is most of what ingest binds (session ids, config names, variants, controls).
    public func bind(_ index: Int32, _ value: String) {
        var text = value
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                var nul: CChar = 0
                check(sqlite3_bind_text(handle, index, &nul, 0, pressdb_sqlite_transient), index)
                return
            }
            // Every byte, NULs included: text() reads back by length, so "z\0a" and "z\0b" stay
            // two different session ids (found by review: cutting at the NUL made them collide).
            if let space = arenaSpace(bytes.count) {
                space.copyMemory(from: base, byteCount: bytes.count)
                check(sqlite3_bind_text(handle, index, space.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                                        pressdb_sqlite_static), index)
                return
            }
            base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                check(sqlite3_bind_text(handle, index, $0, Int32(bytes.count), pressdb_sqlite_transient), index)
            }
        }
    }
    /// Binds a blob (copied by SQLite, or into the arena: `bindsInPlace`). An empty array binds
    /// a zero-length blob, not NULL.
    public func bind(_ index: Int32, blob: [UInt8]) {
        let rc = blob.withUnsafeBytes { raw -> Int32 in
            if raw.isEmpty { return sqlite3_bind_zeroblob(handle, index, 0) }
            if let space = arenaSpace(raw.count) {
                space.copyMemory(from: raw.baseAddress!, byteCount: raw.count)
                return sqlite3_bind_blob(handle, index, space, Int32(raw.count), pressdb_sqlite_static)
            }
            return sqlite3_bind_blob(handle, index, raw.baseAddress, Int32(raw.count), pressdb_sqlite_transient)
        }
        check(rc, index)
    }
    /// Binds a blob of `count` bytes written by `write` (which must fill the whole buffer): in
    /// the arena when the statement binds in place and it fits (no copy at all), else in an
    /// array SQLite copies. `count` 0 binds a zero-length blob, not NULL.
    public func bindBlob(_ index: Int32, count: Int, _ write: (UnsafeMutableRawBufferPointer) -> Void) {
        if count == 0 { check(sqlite3_bind_zeroblob(handle, index, 0), index); return }
        if let space = arenaSpace(count) {
            write(UnsafeMutableRawBufferPointer(start: space, count: count))
            check(sqlite3_bind_blob(handle, index, space, Int32(count), pressdb_sqlite_static), index)
            return
        }
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes(write)
        bytes.withUnsafeBytes { raw in
            check(sqlite3_bind_blob(handle, index, raw.baseAddress, Int32(count), pressdb_sqlite_transient), index)
        }
    }
    public func bind(_ index: Int32, _ value: String?) {
        if let value { bind(index, value) } else { bindNull(index) }
    }
    public func bind(_ index: Int32, _ value: Double?) {
        if let value { bind(index, value) } else { bindNull(index) }
    }
    public func bind(_ index: Int32, _ value: Int64?) {
        if let value { bind(index, value) } else { bindNull(index) }
    }
    public func bind(_ index: Int32, _ value: SQLValue) {
        switch value {
        case .null: bindNull(index)
        case .integer(let v): bind(index, v)
        case .real(let v): bind(index, v)
        case .text(let v): bind(index, v)
        case .blob(let v): bind(index, blob: v)
        }
    }
    /// Binds `values` to parameters 1, 2, ….
    public func bind(_ values: [SQLValue]) {
        for (i, v) in values.enumerated() { bind(Int32(i + 1), v) }
    }

    // MARK: Stepping

    /// Steps once: true when a row is available, false when done.
    /// - Throws: `DatabaseError` with this statement's SQL: SQLite's, or a failed bind's since
    ///   the last step (the statement does not run then).
    @discardableResult
    public func step() throws -> Bool {
        if _slowPath(bindFailure != SQLITE_OK) { throw takeBindFailure() }
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let e = database.error(rc, sql: sql)
            sqlite3_reset(handle)
            throw e
        }
    }

    /// The failed bind as an error, forgotten (the caller binds again before the next step).
    private func takeBindFailure() -> DatabaseError {
        let e = DatabaseError(code: bindFailure, message: "cannot bind parameter \(bindFailureIndex): "
                                  + String(cString: sqlite3_errstr(bindFailure)), sql: sql)
        bindFailure = SQLITE_OK
        sqlite3_reset(handle)
        arenaUsed = 0
        return e
    }

    /// Resets the statement to run again; bindings are kept (but for a statement that binds in
    /// place, the bytes of its text and blob parameters are overwritten by the next binds).
    public func reset() {
        sqlite3_reset(handle)
        arenaUsed = 0
    }

    /// Steps to completion (for INSERT/UPDATE/DELETE), then resets.
    public func run() throws {
        defer { reset() }
        while try step() {}
    }

    /// Steps once and returns column 0 as an integer (nil for no row or NULL), then resets.
    public func scalarInt() throws -> Int64? {
        defer { sqlite3_reset(handle) }
        guard try step(), !isNull(0) else { return nil }
        return int64(0)
    }

    /// Steps once and returns column 0 as text (nil for no row or NULL), then resets.
    public func scalarText() throws -> String? {
        defer { sqlite3_reset(handle) }
        guard try step(), !isNull(0) else { return nil }
        return text(0)
    }

    // MARK: Columns

    public var columnCount: Int32 { sqlite3_column_count(handle) }
    public func columnName(_ i: Int32) -> String { String(cString: sqlite3_column_name(handle, i)) }
    public func isNull(_ i: Int32) -> Bool { sqlite3_column_type(handle, i) == SQLITE_NULL }
    public func int64(_ i: Int32) -> Int64 { sqlite3_column_int64(handle, i) }
    public func int(_ i: Int32) -> Int { Int(sqlite3_column_int64(handle, i)) }
    public func double(_ i: Int32) -> Double { sqlite3_column_double(handle, i) }
    public func text(_ i: Int32) -> String {
        guard let p = sqlite3_column_text(handle, i) else { return "" }
        let n = Int(sqlite3_column_bytes(handle, i))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }
    public func optionalText(_ i: Int32) -> String? { isNull(i) ? nil : text(i) }
    public func optionalDouble(_ i: Int32) -> Double? { isNull(i) ? nil : double(i) }
    /// Calls `body` with the blob's bytes, valid only during the call (no copy).
    public func withBlob<T>(_ i: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let p = sqlite3_column_blob(handle, i)
        let n = Int(sqlite3_column_bytes(handle, i))
        return try body(UnsafeRawBufferPointer(start: p, count: p == nil ? 0 : n))
    }
    public func blob(_ i: Int32) -> [UInt8] { withBlob(i) { Array($0) } }
    /// The column as an `SQLValue` in its storage class.
    public func value(_ i: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, i) {
        case SQLITE_INTEGER: return .integer(int64(i))
        case SQLITE_FLOAT: return .real(double(i))
        case SQLITE_TEXT: return .text(text(i))
        case SQLITE_BLOB: return .blob(blob(i))
        default: return .null
        }
    }
}
