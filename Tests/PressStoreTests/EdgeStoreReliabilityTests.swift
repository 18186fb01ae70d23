// Issue 15's store-level edges: a database whose creation failed is removed, one holding
// anything is kept (item 12).
import Foundation
import Testing
@testable import PressStore

@Suite struct EdgeStoreReliabilityTests {
    /// Nothing committed — an empty file, or one SQLite created and switched to WAL with no
    /// schema — is removed with its -wal and -shm; a database with a schema, or with frames in
    /// its WAL, is kept.
    @Test func onlyADatabaseWithNothingCommittedIsRemoved() throws {
        let fm = FileManager.default
        let empty = try temporaryDatabasePath()
        #expect(fm.createFile(atPath: empty, contents: Data()))
        #expect(Schema.removeIfNothingCommitted(path: empty))
        #expect(!fm.fileExists(atPath: empty))

        let walOnly = try temporaryDatabasePath()
        do {
            let db = try Database(path: walOnly)
            try Schema.enableWAL(db)
        }
        #expect(fm.fileExists(atPath: walOnly))
        #expect(Schema.removeIfNothingCommitted(path: walOnly))
        #expect(Schema.files(of: walOnly).allSatisfy { !fm.fileExists(atPath: $0) })

        // Migrated, the connection still open (its commits are in the WAL), then closed
        // (checkpointed into the file): kept both times.
        let migrated = try temporaryDatabasePath()
        do {
            let db = try Schema.open(path: migrated)
            #expect(!Schema.removeIfNothingCommitted(path: migrated))
            _ = db
        }
        #expect(!Schema.removeIfNothingCommitted(path: migrated))
        #expect(try Schema.openReadOnly(path: migrated).userVersion == Schema.currentVersion)
        #expect(!Schema.removeIfNothingCommitted(path: migrated + ".missing"))
    }
}
