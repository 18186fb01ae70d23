// Issue 15's reliability edges (items 2, 4, 11, 12, 14), end to end through the `pressdb`
// binary: a stalled pipe, many writers, a protected file, a full disk. Named "Reliability" so
// `scripts/sanitize` runs them under ASan and TSan too.
import Foundation
import PressCore
import PressTestSupport
import Testing

/// `bash -c SCRIPT pressdb ARGS…`: pressdb run under a shell prefix (a file size limit).
private func runLimited(_ script: String, _ args: [String], directory: URL) throws -> ProcessResult {
    try RunningProcess.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script, Binary.url.path] + args,
                           environment: ["NO_COLOR": "1"], directory: directory)
}

/// The files of `dir` whose names start with `prefix`.
private func files(_ dir: URL, _ prefix: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(prefix) }.sorted()
}

@Suite(.serialized) struct EdgeReliabilityTests {
    /// Item 12: a full disk on a fresh database left a 0-byte file (no room at all: `ulimit -f
    /// 0`) or a 4 KiB one with its -wal and -shm (room for a few pages: 20 KiB). Now: status 1,
    /// one line naming the database and what to do, and no file of it left.
    @Test func aFullDiskOnAFreshDatabaseLeavesNoFile() throws {
        let dir = try Binary.temporaryDirectory()
        try #"{"session":"a","t":0,"phase":"began","x":1,"y":1}"#.appending("\n")
            .appending(#"{"session":"a","t":0.1,"phase":"ended","x":1,"y":1}"#).appending("\n")
            .write(to: dir.appendingPathComponent("a.ndjson"), atomically: true, encoding: .utf8)
        for limit in [0, 20] {
            let script = "trap '' XFSZ; ulimit -f \(limit); exec \"$0\" \"$@\""
            let r = try runLimited(script, ["ingest", "a.ndjson", "--db", "f.sqlite"], directory: dir)
            #expect(r.exited && r.status == 1, "ulimit -f \(limit): \(r)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("pressdb ingest: cannot write f.sqlite: ") && r.stderr.contains("free some space"),
                    "\(r.stderr)")
            #expect(try files(dir, "f.sqlite") == [], "ulimit -f \(limit)")
        }
        // With room, the same command creates it.
        #expect(try Binary.run(["ingest", "a.ndjson", "--db", "f.sqlite", "-q"], directory: dir).status == 0)
        #expect(try files(dir, "f.sqlite").contains("f.sqlite"))
    }

    /// Item 11: as root, `chmod 0444 db; pressdb ingest --db db …` wrote the file anyway (root
    /// passes every permission check). A database whose file mode grants no write permission is
    /// now opened as a user without write permission would find it: every writing command
    /// fails with status 1 and the read-only message, nothing changes, and the commands that
    /// only read still work. (Run as another user the kernel enforces the same, so the test
    /// holds either way; as root it is the regression.)
    @Test func aDatabaseWithoutWritePermissionIsNotWrittenEvenByRoot() throws {
        let dir = try Binary.temporaryDirectory()
        let log = dir.appendingPathComponent("a.ndjson")
        let more = dir.appendingPathComponent("b.ndjson")
        try Binary.run(["generate", "--sessions", "40", "--seed", "5"]).stdout.write(to: log, atomically: true, encoding: .utf8)
        try Binary.run(["generate", "--sessions", "40", "--seed", "6"]).stdout
            .replacingOccurrences(of: #""session":"u"#, with: #""session":"v"#).write(to: more, atomically: true, encoding: .utf8)
        try #"{"type":"config","name":"soft","base":"spring-press","pressed_scale":0.97}"#
            .write(to: dir.appendingPathComponent("soft.json"), atomically: true, encoding: .utf8)
        let db = dir.appendingPathComponent("p.sqlite")
        #expect(try Binary.run(["ingest", log.path, "--db", db.path, "-q"]).status == 0)
        let state = "SELECT (SELECT count(*) FROM sessions), (SELECT count(*) FROM sources), (SELECT count(*) FROM results), "
            + "(SELECT count(*) FROM configs), (SELECT count(*) FROM rejects)"
        let before = try rows(db, state)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: db.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: db.path) }
        for args in [["ingest", more.path], ["replay", "--as", "longpress-safe-area"], ["config", "add", "soft.json"],
                     ["compare", "spring-press", "longpress-safe-area", "--paired"]] {
            let r = try Binary.run(args + ["--db", db.path], directory: dir)
            #expect(r.status == 1, "\(args): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("cannot write \(db.path): the database file or its directory is read-only"), "\(args): \(r.stderr)")
            #expect(try rows(db, state) == before, "\(args)")
        }
        #expect(try Binary.run(["report", "--db", db.path]).status == 0)
        #expect(try Binary.run(["configs", "--db", db.path]).status == 0)
        #expect(try rows(db, "PRAGMA integrity_check") == [["ok"]])
    }

    /// Item 14: a full disk during `replay --as` or `config add` printed SQLite's own "SQLite
    /// error 13: database or disk is full (while running: COMMIT)". Now, like ingest: status 1,
    /// one line naming the database and what to do; the database stays sound, and the same
    /// commands with room complete the work. (`ulimit -f 100`: the WAL cannot grow past 100 KiB,
    /// far less than 2,000 results need; SIGXFSZ ignored, so writes fail with EFBIG.)
    @Test func aFullDiskDuringReplayOrConfigAddSaysWhatToDo() throws {
        let dir = try Binary.temporaryDirectory()
        // Half the sessions name "soft", which `config add` then defines: it replays them.
        try Binary.run(["generate", "--sessions", "2000", "--seed", "4", "--variants", "A=soft,B=spring-press"]).stdout
            .write(to: dir.appendingPathComponent("d.ndjson"), atomically: true, encoding: .utf8)
        try #"{"type":"config","name":"soft","base":"spring-press","pressed_scale":0.97}"#
            .write(to: dir.appendingPathComponent("soft.json"), atomically: true, encoding: .utf8)
        #expect(try Binary.run(["ingest", "d.ndjson", "--db", "d.sqlite", "-q"], directory: dir).status == 0)
        let db = dir.appendingPathComponent("d.sqlite")
        let script = "trap '' XFSZ; ulimit -f 100; exec \"$0\" \"$@\""
        for (command, args) in [("replay", ["replay", "--as", "longpress-safe-area", "-q"]), ("config", ["config", "add", "soft.json"])] {
            let r = try runLimited(script, args + ["--db", "d.sqlite"], directory: dir)
            #expect(r.exited && r.status == 1, "\(args): \(r)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
            #expect(r.stderr.hasPrefix("pressdb \(command): cannot write d.sqlite: ") && r.stderr.contains("is the disk full")
                    && r.stderr.hasSuffix("free some space and re-run the same command\n"), "\(args): \(r.stderr)")
            #expect(!r.stderr.contains("SQLite error"), "\(args): \(r.stderr)")
            #expect(try rows(db, "PRAGMA integrity_check") == [["ok"]])
        }
        #expect(try Binary.run(["replay", "--as", "longpress-safe-area", "-q", "--db", "d.sqlite"], directory: dir).status == 0)
        #expect(try Binary.run(["config", "add", "soft.json", "--db", "d.sqlite"], directory: dir).status == 0)
        // Every session has its counterfactual result and its own.
        #expect(try rows(db, "SELECT count(*) FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM results r "
            + "WHERE r.session_id = s.id AND r.config = 'longpress-safe-area')") == [["0"]])
        #expect(try rows(db, "SELECT count(*) FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM results r "
            + "WHERE r.session_id = s.id AND r.counterfactual = 0)") == [["0"]])
    }
}
