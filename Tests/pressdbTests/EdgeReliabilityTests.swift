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
}
