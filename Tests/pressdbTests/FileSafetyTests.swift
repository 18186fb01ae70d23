// Files that are not pressdb's own: another application's SQLite database, devices and pipes
// given as --out, a database the user made read-only. None is written, replaced or grown.
import Foundation
import Testing
import PressTestSupport

@Suite(.serialized) struct FileSafetyTests {
    static func generatedLog(_ dir: URL, sessions: Int = 30) throws -> String {
        let path = dir.appendingPathComponent("log.ndjson").path
        try Binary.run(["generate", "--sessions", "\(sessions)", "--seed", "4"]).stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `sqlite3 o.db "create table foo(x); pragma user_version=3"; pressdb ingest --db o.db log`
    /// migrated the file (a sweeps table, user_version 4) and printed KB of migration SQL. Now
    /// every command refuses it with one line and the file's bytes are unchanged.
    @Test func anotherApplicationsDatabaseIsNeverWritten() throws {
        let dir = try Binary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try Self.generatedLog(dir)
        let db = dir.appendingPathComponent("o.db").path
        let made = try RunningProcess.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), [db, "create table foo(x); pragma user_version=3"])
        #expect(made.status == 0, "\(made.stderr)")
        try #"{"type":"config","name":"x","base":"spring-press","pressed_scale":0.97}"#
            .write(to: dir.appendingPathComponent("x.json"), atomically: true, encoding: .utf8)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        for args in [["ingest", log], ["report"], ["config", "add", "x.json"], ["replay", "--as", "spring-press"], ["configs"]] {
            let r = try Binary.run(args + ["--db", db], directory: dir)
            #expect(r.exited && r.status == 1, "\(args): \(r)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("another application") && r.stderr.contains("it was not modified"), "\(args): \(r.stderr)")
            #expect(r.stderr.utf8.count < 300, "\(args): \(r.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before, "\(args)")
            #expect(!FileManager.default.fileExists(atPath: db + "-wal"), "\(args)")
        }
    }
}
