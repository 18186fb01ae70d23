// The WAL write-out an ingest starts after each commit (WALWriteback): it names the file SQLite
// writes, and leaves databases without one alone.
import Foundation
import Testing
@testable import PressStore
@testable import PressSQLite
@testable import PressIngest

@Suite struct WALWritebackTests {
    // SQLite's WAL is the database's name with "-wal" appended (sqlite.org/wal.html, "the WAL
    // file"), the file `Schema.files(of:)` lists; after a commit it exists and the write-out of
    // it is started.
    @Test func startsTheWriteOutOfTheDatabasesOwnWAL() throws {
        let path = try temporaryDatabasePath()
        let store = try Store.open(path: path)
        let writeback = WALWriteback(store.db)
        let expected = URL(fileURLWithPath: path).resolvingSymlinksInPath().path + "-wal"
        #expect(writeback.walPath.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path } == expected)
        try store.db.begin()
        try store.db.execute("CREATE TABLE t(x)")
        try store.db.execute("INSERT INTO t VALUES (1)")
        try store.db.commit()
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        #if os(Linux)
        #expect(writeback.start())
        #endif
    }

    // An in-memory database has no file and no WAL: nothing to write out, and no error.
    @Test func anInMemoryDatabaseHasNone() throws {
        let db = try Database(path: ":memory:")
        let writeback = WALWriteback(db)
        #expect(writeback.walPath == nil)
        #expect(!writeback.start())
    }
}
