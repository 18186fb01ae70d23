// Whose file a database is: pressdb marks its own with `PRAGMA application_id` at creation,
// recognises an older pressdb's unmarked file by its exact schema, and leaves every other SQLite
// file byte for byte as it was (docs/guarantees.md, "Another application's database").
import Foundation
import Testing
@testable import PressStore
import PressSQLite

@Suite struct DatabaseOwnershipTests {
    /// The file's bytes (the -wal beside it must not exist: nothing was opened for writing).
    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// Builds, with SQLite alone, a file another application could have written.
    static func foreign(_ sql: String) throws -> String {
        let path = try temporaryDatabasePath()
        try Database(path: path).execute(sql)
        return path
    }

    /// Another application's file with a user_version of 1…8, its own application_id, or a
    /// schema of its own at version 0 (a view only): refused before any write, the file
    /// unchanged, no -wal or -shm made, the reason in one line.
    @Test func anotherApplicationsFileIsRefusedUntouched() throws {
        var cases: [(String, String)] = (1...Schema.currentVersion).map {
            ("CREATE TABLE foo(x); PRAGMA user_version = \($0)", "it has a table 'foo'")
        }
        cases.append(("CREATE TABLE foo(x); PRAGMA application_id = 5", "its application_id is 5"))
        cases.append(("PRAGMA application_id = 5", "its application_id is 5"))
        cases.append(("CREATE VIEW v AS SELECT 1", "a schema of its own"))
        cases.append(("PRAGMA user_version = 3", "user_version 3"))
        // pressdb's own version-3 tables with one more of the application's: not pressdb's.
        let v3 = try Schema.embedded().prefix(3).map(\.sql).joined(separator: "\n")
        cases.append(("\(v3); CREATE TABLE extra(x); PRAGMA user_version = 3", "not pressdb's schema version 3"))
        for (sql, reason) in cases {
            let path = try Self.foreign(sql)
            let before = try Self.bytes(path)
            for open in [{ _ = try Schema.open(path: path) }, { _ = try Schema.openReadOnly(path: path) }] {
                do {
                    try open()
                    Issue.record("\(sql): opened")
                } catch let e as SchemaError {
                    #expect("\(e)".contains(reason), "\(sql): \(e)")
                    #expect("\(e)".contains("it was not modified"))
                    #expect(!"\(e)".contains("\n"))
                }
            }
            #expect(try Self.bytes(path) == before, "\(sql)")
            #expect(!FileManager.default.fileExists(atPath: path + "-wal") && !FileManager.default.fileExists(atPath: path + "-shm"))
        }
    }

    /// A new database carries the marker from its first commit on.
    @Test func aNewDatabaseIsMarked() throws {
        let path = try temporaryDatabasePath()
        let db = try Schema.open(path: path)
        #expect(try db.prepare("PRAGMA application_id").scalarInt() == Int64(Schema.applicationID))
        // "PrDB" in the header's bytes 68–71 (sqlite.org/fileformat2.html §1.3.15).
        _ = try db.prepare("PRAGMA wal_checkpoint(TRUNCATE)").scalarInt()
        #expect(Array(try Self.bytes(path)[68..<72]) == Array("PrDB".utf8))
    }

    /// An older pressdb's file (every schema version, no marker): recognised by its schema,
    /// marked, migrated, its rows kept.
    @Test func anOlderPressdbFileWithoutTheMarkerIsMigrated() throws {
        let all = try Schema.embedded()
        for version in 1...all.count {
            let path = try temporaryDatabasePath()
            do {
                let db = try Schema.open(path: path, migrations: Array(all.prefix(version)))
                try db.execute("INSERT INTO sessions(session, t0, t1, sample_count, end_phase, samples) VALUES ('old', 1, 2, 0, 'ended', x'')")
                try db.execute("PRAGMA application_id = 0")
            }
            // A reader accepts the current version unmarked (it cannot mark it).
            if version == all.count { _ = try Schema.openReadOnly(path: path) }
            let db = try Schema.open(path: path)
            #expect(try db.userVersion == all.count)
            #expect(try db.prepare("PRAGMA application_id").scalarInt() == Int64(Schema.applicationID), "version \(version)")
            #expect(try db.prepare("SELECT session FROM sessions").scalarText() == "old")
        }
    }

    /// A marked file from a newer pressdb is refused as newer (not as foreign); an unmarked one
    /// with a higher version is not pressdb's.
    @Test func newerVersions() throws {
        let path = try temporaryDatabasePath()
        _ = try Schema.open(path: path)
        try Database(path: path).execute("PRAGMA user_version = \(Schema.currentVersion + 1)")
        #expect { _ = try Schema.open(path: path) } throws: { "\($0)".contains("newer pressdb") }
        let other = try Self.foreign("CREATE TABLE t(x); PRAGMA user_version = \(Schema.currentVersion + 1)")
        #expect { _ = try Schema.open(path: other) } throws: { "\($0)".contains("another application") }
    }
}
