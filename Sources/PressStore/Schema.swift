// Opening a pressdb database: the embedded migrations, applied in order, each in its own
// transaction, the version recorded in `PRAGMA user_version`.
import CSQLite
#if canImport(Glibc)
import Glibc
#endif
import PressSQLite

/// A schema migration: its number (1, 2, …, from the file name `NNNN_name.sql`), name and SQL.
public struct Migration: Sendable, Hashable {
    public var version: Int
    public var name: String
    public var sql: String
    public init(version: Int, name: String, sql: String) {
        self.version = version; self.name = name; self.sql = sql
    }
}

/// Why a database cannot be opened by this pressdb.
public enum SchemaError: Error, CustomStringConvertible, Sendable {
    /// The file was written by a newer pressdb (its `user_version` is above the number of
    /// migrations this build embeds). It is left untouched.
    case newerDatabase(path: String, version: Int, known: Int)
    /// The file is an SQLite database with tables of its own but no pressdb schema (its
    /// `user_version` is 0): it is left untouched.
    case foreignDatabase(path: String, table: String)
    /// The file is an SQLite database without pressdb's `application_id` whose tables are not
    /// those of any pressdb schema version (`reason` says what was seen): it is left untouched.
    case notPressdb(path: String, reason: String)
    /// A read-only open found a database that needs migrating first.
    case needsUpgrade(path: String, version: Int, current: Int)
    /// A migration file is misnamed or numbered out of sequence (a build defect).
    case badMigration(String)

    public var description: String {
        switch self {
        case let .newerDatabase(path, version, known):
            return "\(path) was written by a newer pressdb (schema version \(version); this pressdb knows up to \(known)); "
                + "it was not modified — use a newer pressdb"
        case let .foreignDatabase(path, table):
            return "\(path) is an SQLite database of another application (it has a table '\(table)' and no pressdb schema); "
                + "it was not modified — give pressdb its own file with --db"
        case let .notPressdb(path, reason):
            return "\(path) is an SQLite database of another application (\(reason)); "
                + "it was not modified — give pressdb its own file with --db"
        case let .needsUpgrade(path, version, current):
            return "\(path) has schema version \(version), older than this pressdb's \(current) (or is not a pressdb database); "
                + "run a writing command such as 'pressdb ingest' once to upgrade it"
        case let .badMigration(m):
            return "bad migration: \(m)"
        }
    }
}

/// The database schema: the embedded `migrations/NNNN_name.sql` files and how to apply them.
public enum Schema {
    /// The migrations embedded in this build, in order.
    /// - Throws: `SchemaError.badMigration` when a file name has no number or numbers skip.
    public static func embedded() throws -> [Migration] {
        var out: [Migration] = []
        for (name, sql) in SQLFiles.migrations {
            let digits = name.prefix(while: { $0.isNumber })
            guard let n = Int(digits), n == out.count + 1 else {
                throw SchemaError.badMigration("\(name) should be numbered \(out.count + 1)")
            }
            out.append(Migration(version: n, name: name, sql: sql))
        }
        return out
    }

    /// The schema version this build creates: the number of embedded migrations.
    public static var currentVersion: Int { (try? embedded().count) ?? 0 }

    /// Opens `path` read-write, refuses a newer database (untouched), turns on WAL mode and
    /// applies the missing migrations (each in its own transaction, `user_version` set inside
    /// it). `migrations` defaults to the embedded ones; tests pass a prefix to build an older
    /// database.
    /// - Throws: `SchemaError.newerDatabase`, `DatabaseError`.
    public static func open(path: String, migrations: [Migration]? = nil) throws -> Database {
        let all = try migrations ?? embedded()
        // A file whose mode grants no write permission (chmod 0444) is opened read-only, as
        // SQLite opens it for a user the kernel refuses: its readers work, every write fails
        // with SQLITE_READONLY. Root passes every permission check, so without this a database
        // its owner protected would be written anyway.
        let db = try Database(path: path, readOnly: grantsNoWritePermission(path))
        // Whose file it is, before anything is written (the journal mode and page size below
        // are writes too): a database of another application is left exactly as it was.
        let owner = try ownership(db, migrations: all)
        let version = try db.userVersion
        // A new database gets `pageSize`; SQLite ignores the pragma once a page is written.
        if version == 0 { try db.execute("PRAGMA page_size = \(pageSize)") }
        // WAL lets a reader run while a writer commits. It persists in the file.
        try enableWAL(db)
        // WAL is safe against corruption at NORMAL; a power loss may lose the last commits only.
        try db.execute("PRAGMA synchronous = NORMAL")
        // An older pressdb's file is marked as pressdb's before it is migrated.
        if owner == .unmarkedPressdb, !db.isReadOnly { try db.transaction { try markIfUnmarked(db) } }
        try migrate(db, migrations: all)
        // The maintained summary cells (migrations/0006): built after the migration that adds
        // them, and again after writes from outside pressdb.
        if all.count >= 6 { try SummaryCells.ensureCurrent(db) }
        return db
    }

    /// `PRAGMA application_id` of every database pressdb creates: the ASCII bytes "PrDB"
    /// (0x50724442) as the header's big-endian integer at offset 68 (sqlite.org/fileformat2.html
    /// §1.3.15: an application's own file format is told by this number, not by its name).
    public static let applicationID: Int32 = 0x5072_4442

    /// What `ownership` found.
    enum Ownership: Equatable {
        /// Marked with `applicationID`.
        case marked
        /// An empty file or an SQLite database with no schema at all: pressdb's to create.
        case new
        /// No marker, but exactly the tables, indexes, views and triggers some pressdb schema
        /// version creates, with that version in `user_version`: an older pressdb's file.
        case unmarkedPressdb
    }

    /// Tells whether the database is pressdb's, reading only, from one snapshot.
    ///
    /// A file marked with `applicationID` is pressdb's (refused when newer than this build). A
    /// file with another `application_id` is another application's. An unmarked file is
    /// pressdb's when it has no schema at all (a new file), or when its `user_version` v is one
    /// of pressdb's (1…`migrations.count`) and its schema — every table, index, view and
    /// trigger, by type, name, table and SQL text — is exactly what migrations 1…v create (built
    /// in memory to compare): the files older pressdb wrote before it set the marker. Anything
    /// else is refused: `user_version` alone is any application's to use.
    /// - Throws: `SchemaError.foreignDatabase`, `.notPressdb`, `.newerDatabase`, `DatabaseError`.
    static func ownership(_ db: Database, migrations all: [Migration]) throws -> Ownership {
        // One statement, one snapshot: another pressdb creating this file at the same moment
        // commits its first migration, version 1 and the marker together.
        let s = try db.prepare("""
            SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM pragma_user_version),
                   (SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' LIMIT 1),
                   (SELECT count(*) FROM sqlite_master)
            """)
        guard try s.step() else { throw DatabaseError(code: SQLITE_ERROR, message: "cannot read the header of \(db.path)") }
        let id = Int32(truncatingIfNeeded: s.int(0)), version = Int(s.int(1))
        let table = s.optionalText(2), objects = s.int(3)
        if id == applicationID {
            if version > all.count { throw SchemaError.newerDatabase(path: db.path, version: version, known: all.count) }
            return .marked
        }
        if id != 0 {
            throw SchemaError.notPressdb(path: db.path, reason: "its application_id is \(id), not pressdb's \(applicationID)")
        }
        if version == 0 {
            if let table { throw SchemaError.foreignDatabase(path: db.path, table: table) }
            if objects == 0 { return .new }
            throw SchemaError.notPressdb(path: db.path, reason: "it has a schema of its own and no pressdb tables")
        }
        guard version <= all.count else {
            throw SchemaError.notPressdb(path: db.path, reason: "its user_version is \(version) and it has no pressdb application_id")
        }
        let expected = try schemaObjects(of: Array(all.prefix(version)))
        let found = try schemaObjects(db)
        guard found == expected else {
            let what = table.map { "it has a table '\($0)'" } ?? "its schema"
            throw SchemaError.notPressdb(path: db.path, reason: "\(what), user_version \(version), and not pressdb's schema version \(version)")
        }
        return .unmarkedPressdb
    }

    /// Every schema object of `db` but SQLite's own, as type, name, table and SQL text.
    static func schemaObjects(_ db: Database) throws -> Set<[String]> {
        let s = try db.prepare("SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
        var out = Set<[String]>()
        while try s.step() { out.insert([s.text(0), s.text(1), s.text(2), s.text(3)]) }
        return out
    }

    /// The schema objects `migrations` create, applied to an empty database in memory.
    static func schemaObjects(of migrations: [Migration]) throws -> Set<[String]> {
        let memory = try Database(path: ":memory:")
        try migrate(memory, migrations: migrations)
        return try schemaObjects(memory)
    }

    /// Sets `applicationID` when the file has none. Call in a transaction.
    static func markIfUnmarked(_ db: Database) throws {
        if try db.prepare("PRAGMA application_id").scalarInt() == 0 { try db.execute("PRAGMA application_id = \(applicationID)") }
    }

    /// The page size of a database pressdb creates, bytes (SQLite's default is 4,096; a power of
    /// two from 512 to 65,536, sqlite.org/pragma.html#pragma_page_size). A `sessions` row holds
    /// its samples BLOB (25 bytes a sample) and is a few hundred bytes long, so 4 KiB pages hold
    /// few of them and split often. `cache_size` is set in KiB, so memory is the same.
    /// A database created by an older pressdb keeps its page size (changing it takes a `VACUUM`).
    static let pageSize = 16_384

    /// Whether the file at `path` exists and its mode has no write bit (owner, group or other).
    static func grantsNoWritePermission(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH) == 0
    }

    /// Turns on WAL mode unless the file already uses it. Switching the journal mode needs an
    /// exclusive lock and SQLite does not call the busy handler for it, so two processes creating
    /// the same new database at once would see SQLITE_BUSY at once: retry, polling every
    /// millisecond, for up to the busy timeout.
    static func enableWAL(_ db: Database) throws {
        var waited: Int32 = 0
        while true {
            do {
                if try db.prepare("PRAGMA journal_mode").scalarText()?.lowercased() == "wal" { return }
                _ = try db.prepare("PRAGMA journal_mode = WAL").scalarText()
                return
            } catch let e as DatabaseError where e.primaryCode == SQLITE_BUSY && waited < Database.busyTimeoutMilliseconds {
                sqlite3_sleep(Database.busyPollMilliseconds)
                waited += Database.busyPollMilliseconds
            }
        }
    }

    /// The files of the database at `path`: the database itself and its WAL and shared-memory
    /// files (`-wal`, `-shm`).
    public static func files(of path: String) -> [String] { [path, path + "-wal", path + "-shm"] }

    /// Removes the database at `path` (with its `-wal` and `-shm`) when nothing was ever
    /// committed to it, as when creating it failed on a full disk: a command that created a
    /// database and could store nothing leaves no file behind. Returns whether it removed it.
    ///
    /// Nothing was committed when the WAL holds no frame (it is missing or empty) and the
    /// database file is empty or has never had a schema: its schema cookie, the 4-byte
    /// big-endian integer at offset 40 of the 100-byte header, is still 0 (the file format,
    /// sqlite.org/fileformat2.html §1.3.9: every schema change increments it). The file is read
    /// directly because a connection cannot: on a full disk SQLite fails to size the -shm file
    /// before it reads anything (SQLITE_IOERR_SHMSIZE). Another process that created the same
    /// file at the same moment and committed something keeps it; one that has opened it and not
    /// committed yet would lose the file (on a disk too full for a schema it fails as well).
    @discardableResult
    public static func removeIfNothingCommitted(path: String) -> Bool {
        func size(_ file: String) -> Int? {
            var st = stat()
            return stat(file, &st) == 0 ? Int(st.st_size) : nil
        }
        guard let databaseSize = size(path), (size(path + "-wal") ?? 0) == 0 else { return false }
        if databaseSize > 0 {
            guard databaseSize >= 100 else { return false }
            let fd = Glibc.open(path, O_RDONLY)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            var header = [UInt8](repeating: 0, count: 100)
            guard pread(fd, &header, 100, 0) == 100, header.starts(with: Array("SQLite format 3\u{0}".utf8)),
                  header[40..<44].allSatisfy({ $0 == 0 }) else { return false }
        }
        for file in files(of: path) { unlink(file) }
        return true
    }

    /// Opens `path` read-only (`SQLITE_OPEN_READONLY` and `PRAGMA query_only`). The database
    /// must exist and be at this build's version.
    /// - Throws: `DatabaseError` (missing file), `SchemaError.newerDatabase`, `.needsUpgrade`.
    public static func openReadOnly(path: String) throws -> Database {
        let db = try Database(path: path, readOnly: true)
        let all = try embedded()
        _ = try ownership(db, migrations: all)
        let version = try db.userVersion
        let current = all.count
        if version < current { throw SchemaError.needsUpgrade(path: path, version: version, current: current) }
        return db
    }

    /// Applies the migrations after the database's `user_version`, each in its own transaction.
    public static func migrate(_ db: Database, migrations: [Migration]) throws {
        let version = try db.userVersion
        if version > migrations.count {
            throw SchemaError.newerDatabase(path: db.path, version: version, known: migrations.count)
        }
        // Functions a migration's SQL may call (version 5 reads touch-down points from BLOBs).
        if migrations.contains(where: { $0.version > version }) {
            let rc = registerSampleFunctions(db.handle)
            guard rc == SQLITE_OK else { throw DatabaseError(code: rc, message: "cannot register the sample functions") }
            // Version 9 computes the photon latencies of results stored before it.
            let photon = registerPhotonFunctions(db.handle)
            guard photon == SQLITE_OK else { throw DatabaseError(code: photon, message: "cannot register the photon functions") }
        }
        for m in migrations where m.version > version {
            try db.transaction {
                // Re-check inside the write lock: another process may have migrated meanwhile.
                guard try db.userVersion < m.version else { return }
                try db.execute(m.sql)
                try db.execute("PRAGMA user_version = \(m.version)")
                // The marker commits with the first migration: no pressdb schema without it.
                try markIfUnmarked(db)
            }
        }
    }
}
