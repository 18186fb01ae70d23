// End-to-end guarantees of `pressdb ingest` (docs/guarantees.md): killed at random points it
// leaves a sound database of whole sessions, and the same command run again stores exactly the
// sessions of the log, each with its replay result; Ctrl-C stops cleanly; two ingests and a
// reader share one database; a full disk or a read-only database gives a clear error and a
// database that still opens. The truth each test compares with is the log parsed here,
// independently of pressdb's readers (Foundation's JSONSerialization).
import Foundation
import PressCore
import PressTestSupport
import Testing

/// What a log holds: each complete session's sample count.
private struct LogTruth {
    var sampleCounts: [String: Int] = [:]

    /// Parses NDJSON touch records; a session counts once it has its `ended`/`cancelled`.
    init(ndjson: String) throws {
        var counts: [String: Int] = [:]
        var complete: Set<String> = []
        for line in ndjson.split(separator: "\n") where !line.isEmpty {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let session = try #require(object["session"] as? String)
            counts[session, default: 0] += 1
            if let phase = object["phase"] as? String, phase == "ended" || phase == "cancelled" { complete.insert(session) }
        }
        sampleCounts = counts.filter { complete.contains($0.key) }
    }
}

/// `sqlite3 DB SQL` with a 5 s busy timeout (as pressdb's own connections); rows as lines,
/// columns split at `|`.
private func sqlite(_ db: URL, _ sql: String, readOnly: Bool = false) throws -> (status: Int32, out: String, err: String) {
    let r = try sqlite3(db, sql, readOnly: readOnly)
    return (r.status, r.stdout, r.stderr)
}

private func query(_ db: URL, _ sql: String) throws -> String {
    let r = try sqlite(db, sql)
    #expect(r.status == 0, "sqlite3: \(r.err)")
    return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The stored sessions, each checked whole: the BLOB is 25 bytes a sample (docs/log-format.md),
/// `sample_count` matches it, the first phase byte is 0 (began), the last is 3 or 4 and agrees
/// with `end_phase`, the ones between are 1 or 2 (moved, stationary). Returns id → sample count.
private func wholeSessions(_ db: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Int] {
    #expect(try query(db, "PRAGMA integrity_check") == "ok", sourceLocation: sourceLocation)
    #expect(try query(db, "PRAGMA foreign_key_check") == "", sourceLocation: sourceLocation)
    var out: [String: Int] = [:]
    // Killed before the first migration committed: the file exists, with no schema at all (each
    // migration is one transaction), so nothing is stored.
    if try query(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'sessions'") == "0" {
        #expect(try query(db, "SELECT count(*) FROM sqlite_schema") == "0", "a partial schema", sourceLocation: sourceLocation)
        return out
    }
    let rows = try query(db, "SELECT session, sample_count, end_phase, hex(samples) FROM sessions")
    for row in rows.split(separator: "\n") {
        let f = row.split(separator: "|", omittingEmptySubsequences: false)
        try #require(f.count == 4)
        let hex = Array(f[3].utf8)
        let count = Int(f[1])!
        #expect(hex.count == count * 50, "\(f[0]): BLOB of \(hex.count / 2) bytes for \(count) samples", sourceLocation: sourceLocation)
        func phase(_ k: Int) -> Int { Int(String(decoding: hex[(k * 50 + 48)..<(k * 50 + 50)], as: UTF8.self), radix: 16)! }
        guard hex.count == count * 50, count >= 2 else { continue }
        #expect(phase(0) == 0, sourceLocation: sourceLocation)
        #expect(phase(count - 1) == (f[2] == "ended" ? 3 : 4), "\(f[0])", sourceLocation: sourceLocation)
        for k in 1..<(count - 1) { #expect(phase(k) == 1 || phase(k) == 2, "\(f[0]) sample \(k)", sourceLocation: sourceLocation) }
        #expect(out.updateValue(count, forKey: String(f[0])) == nil, "\(f[0]) stored twice", sourceLocation: sourceLocation)
    }
    return out
}

/// The database holds exactly the log's sessions with their sample counts, each with a result
/// under its own configuration.
private func expectExactly(_ truth: LogTruth, in db: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let stored = try wholeSessions(db, sourceLocation: sourceLocation)
    #expect(stored.count == truth.sampleCounts.count, sourceLocation: sourceLocation)
    #expect(Set(stored.keys) == Set(truth.sampleCounts.keys), sourceLocation: sourceLocation)
    #expect(stored == truth.sampleCounts, sourceLocation: sourceLocation)
    #expect(try query(db, "SELECT count(*) FROM sessions s WHERE NOT EXISTS "
        + "(SELECT 1 FROM results r WHERE r.session_id = s.id AND r.counterfactual = 0)") == "0", sourceLocation: sourceLocation)
    #expect(try query(db, "SELECT count(*) FROM pending") == "0", sourceLocation: sourceLocation)
}

/// A started `pressdb` child (under `prefix`, a wrapper command, when given) whose standard
/// error is collected; standard input and output are /dev/null.
private final class Child: Sendable {
    let process: RunningProcess

    init(_ args: [String], prefix: [String] = []) throws {
        process = prefix.isEmpty
            ? try RunningProcess(Binary.url, args, collectsStdout: false)
            : try RunningProcess(URL(fileURLWithPath: prefix[0]), Array(prefix.dropFirst()) + [Binary.url.path] + args,
                                 collectsStdout: false)
    }

    func signal(_ s: Int32) { process.signal(s) }

    /// Waits for the exit; returns the status (or the signal for a killed child) and standard error.
    func wait() -> (exited: Bool, status: Int32, stderr: String) {
        let r = process.wait()
        return (r.exited, r.status, r.stderr)
    }
}

/// Reproducible kill times from PressCore's SplitMix64.
private struct Delays {
    var random: SplitMix64
    init(state: UInt64) { random = SplitMix64(seed: state) }
    /// Microseconds in 0..<limit.
    mutating func microseconds(below limit: UInt32) -> UInt32 { UInt32(random.next() % UInt64(limit)) }
}

private func generatedLog(_ dir: URL, sessions: Int, seed: Int, name: String, renamingTo prefix: String? = nil) throws -> (URL, LogTruth) {
    var text = try Binary.run(["generate", "--sessions", "\(sessions)", "--seed", "\(seed)"]).stdout
    if let prefix { text = text.replacingOccurrences(of: #""session":"u"#, with: #""session":"\#(prefix)"#) }
    let url = dir.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return (url, try LogTruth(ndjson: text))
}

/// How many kills the crash tests make (PRESSDB_CRASH_ITERATIONS raises it for long runs).
private let crashIterations = ProcessInfo.processInfo.environment["PRESSDB_CRASH_ITERATIONS"].flatMap(Int.init) ?? 6

@Suite(.serialized) struct IngestGuaranteesTests {
    /// SIGKILL at random points (opening, migrating, mid-batch, at a commit, while replaying):
    /// every time the database opens, passes integrity_check and holds only whole sessions of
    /// the log; the same command then completes it exactly.
    ///
    /// A kill counts only when it interrupted a running ingest (the child died of the signal,
    /// it had not exited by itself), and `crashIterations` of them are required. The kill times
    /// are drawn from the length of an uninterrupted ingest of the same log measured here first
    /// (so a fast machine does not let the ingest finish before every kill and a loaded one does
    /// not make every kill land at start-up); a kill that misses does not count, and the test
    /// goes on killing, up to four times as many attempts, until enough have landed.
    @Test func killedAtRandomPointsLosesAndDuplicatesNothing() throws {
        let dir = try Binary.temporaryDirectory()
        let (log, truth) = try generatedLog(dir, sessions: 2000, seed: 11, name: "a.ndjson")
        let db = dir.appendingPathComponent("p.sqlite")
        let reference = dir.appendingPathComponent("reference.sqlite")
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try Binary.run(["ingest", log.path, "--db", reference.path, "-q"]).status == 0)
        let length = clock.now - start
        let window = UInt32(max(20_000, min(10_000_000, length.components.seconds * 1_000_000
            + length.components.attoseconds / 1_000_000_000_000)))
        var delays = Delays(state: 0x5EED_0001)
        var landed = 0, attempts = 0
        while landed < crashIterations && attempts < 4 * crashIterations {
            attempts += 1
            let child = try Child(["ingest", log.path, "--db", db.path, "-q"])
            usleep(delays.microseconds(below: window))
            child.signal(SIGKILL)
            let r = child.wait()
            if !r.exited && r.status == SIGKILL { landed += 1 } else { #expect(r.exited && r.status == 0, "\(r)") }
            guard FileManager.default.fileExists(atPath: db.path) else { continue }
            let stored = try wholeSessions(db)
            for (id, n) in stored { #expect(truth.sampleCounts[id] == n, "\(id): \(n) samples stored") }
            // An ingest that ran to its end leaves nothing for the next to do but find duplicates,
            // which is quicker than the window: start the next from an empty database, so kills
            // keep landing however loaded the machine is.
            if r.exited {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db.path + suffix) }
            }
        }
        #expect(landed >= crashIterations,
                "only \(landed) of \(attempts) kills interrupted an ingest (an uninterrupted one took \(length))")
        let final = try Binary.run(["ingest", log.path, "--db", db.path, "-q"])
        #expect(final.status == 0, "\(final.stderr)")
        try expectExactly(truth, in: db)
    }

    /// Ctrl-C: a clean stop (status 130) saying how many sessions were committed — exactly the
    /// ones the database gained — or, before the handler is installed, the default action.
    @Test func interruptedCleanlyAndCompletedByTheSameCommand() throws {
        let dir = try Binary.temporaryDirectory()
        // Large enough that an ingest is still running 300 ms in (ingest reads ahead on a second
        // thread and replays on a third, so 2,000 sessions can finish sooner than that).
        let (log, truth) = try generatedLog(dir, sessions: 12_000, seed: 12, name: "a.ndjson")
        let db = dir.appendingPathComponent("p.sqlite")
        var delays = Delays(state: 0x5EED_0002)
        var cleanStops = 0
        for k in 0..<max(3, crashIterations / 2) {
            let before = FileManager.default.fileExists(atPath: db.path) ? try wholeSessions(db).count : 0
            let child = try Child(["ingest", log.path, "--db", db.path])
            // The first stop lands mid-ingest for sure (after the handler is installed).
            usleep(k == 0 ? 300_000 : 100_000 + delays.microseconds(below: 600_000))
            child.signal(SIGINT)
            let r = child.wait()
            if r.exited && r.status == 130 {
                cleanStops += 1
                let after = try wholeSessions(db).count
                #expect(r.stderr.contains("interrupted: \(after - before) sessions committed; re-run the same command to finish\n"),
                        "\(r.stderr)")
            } else {
                #expect((r.exited && r.status == 0) || (!r.exited && r.status == SIGINT), "\(r)")
            }
            if FileManager.default.fileExists(atPath: db.path) {
                for (id, n) in try wholeSessions(db) { #expect(truth.sampleCounts[id] == n) }
            }
        }
        #expect(cleanStops >= 1)
        let final = try Binary.run(["ingest", log.path, "--db", db.path, "-q"])
        #expect(final.status == 0, "\(final.stderr)")
        try expectExactly(truth, in: db)
    }

    /// Two ingests of different logs into one new database at once, a reader polling meanwhile:
    /// both succeed, the totals add up, and every read succeeds (no "database is locked") and
    /// sees whole sessions, never fewer than the read before.
    @Test func twoIngestsAndAReaderShareOneDatabase() throws {
        let dir = try Binary.temporaryDirectory()
        let (a, truthA) = try generatedLog(dir, sessions: 1500, seed: 21, name: "a.ndjson")
        let (b, truthB) = try generatedLog(dir, sessions: 1500, seed: 22, name: "b.ndjson", renamingTo: "v")
        #expect(Set(truthA.sampleCounts.keys).isDisjoint(with: truthB.sampleCounts.keys))
        let db = dir.appendingPathComponent("p.sqlite")
        let first = try Child(["ingest", a.path, "--db", db.path, "-q"])
        let second = try Child(["ingest", b.path, "--db", db.path, "-q"])
        var reads = 0
        var lastCount = 0
        while first.process.isRunning || second.process.isRunning {
            usleep(20_000)
            guard FileManager.default.fileExists(atPath: db.path + "-wal") else { continue }
            // One read transaction: the session count, and sessions whose BLOB is not whole.
            let r = try sqlite(db, "BEGIN; SELECT count(*) FROM sessions; "
                + "SELECT count(*) FROM sessions WHERE length(samples) <> 25 * sample_count; COMMIT;", readOnly: true)
            if r.err.contains("no such table") { continue } // before the first migration committed
            #expect(r.status == 0 && !r.err.contains("locked"), "\(r.err)")
            let lines = r.out.split(separator: "\n").compactMap { Int($0) }
            guard lines.count == 2 else { continue }
            #expect(lines[1] == 0)
            #expect(lines[0] >= lastCount)
            lastCount = lines[0]
            reads += 1
        }
        let ra = first.wait(), rb = second.wait()
        #expect(ra.exited && ra.status == 0, "\(ra.stderr)")
        #expect(rb.exited && rb.status == 0, "\(rb.stderr)")
        #expect(reads > 0)
        var both = truthA
        both.sampleCounts.merge(truthB.sampleCounts) { x, _ in x }
        try expectExactly(both, in: db)
    }

    /// A full disk (a file size limit: `ulimit -f`, with SIGXFSZ ignored so writes fail with
    /// EFBIG): status 1, one line naming the database and what to do; the database still opens
    /// and holds only whole batches; the same command without the limit completes it.
    @Test func diskFullFailsCleanly() throws {
        let dir = try Binary.temporaryDirectory()
        let (log, truth) = try generatedLog(dir, sessions: 2000, seed: 13, name: "a.ndjson")
        let db = dir.appendingPathComponent("p.sqlite")
        // 600 KiB: room for the schema and little else (the log's sessions take several MiB).
        let script = "trap '' XFSZ; ulimit -f 600; exec \"$0\" \"$@\""
        let child = try Child(["ingest", log.path, "--db", db.path], prefix: ["/bin/bash", "-c", script])
        let r = child.wait()
        #expect(r.exited && r.status == 1)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("cannot write \(db.path)") && r.stderr.contains("re-run the same command"), "\(r.stderr)")
        for (id, n) in try wholeSessions(db) { #expect(truth.sampleCounts[id] == n) }
        let final = try Binary.run(["ingest", log.path, "--db", db.path, "-q"])
        #expect(final.status == 0, "\(final.stderr)")
        try expectExactly(truth, in: db)
    }

    /// A read-only database file, or a read-only directory (no room for the -wal and -shm
    /// files): status 1, one line naming the file and what to do; nothing changed. As root
    /// permissions do not bind, so the child runs as `nobody` (setpriv).
    @Test func readOnlyDatabaseFailsWithAClearMessage() throws {
        let dir = try Binary.temporaryDirectory()
        let (log, _) = try generatedLog(dir, sessions: 50, seed: 14, name: "a.ndjson")
        let (more, _) = try generatedLog(dir, sessions: 50, seed: 15, name: "b.ndjson", renamingTo: "v")
        let db = dir.appendingPathComponent("p.sqlite")
        #expect(try Binary.run(["ingest", log.path, "--db", db.path, "-q"]).status == 0)
        let before = try query(db, "SELECT count(*), (SELECT count(*) FROM sources) FROM sessions")
        let prefix = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let fm = FileManager.default
        for readOnlyDirectory in [false, true] {
            try fm.setAttributes([.posixPermissions: readOnlyDirectory ? 0o555 : 0o777], ofItemAtPath: dir.path)
            try fm.setAttributes([.posixPermissions: readOnlyDirectory ? 0o666 : 0o444], ofItemAtPath: db.path)
            let r = try Child(["ingest", more.path, "--db", db.path], prefix: prefix).wait()
            try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
            try fm.setAttributes([.posixPermissions: 0o644], ofItemAtPath: db.path)
            #expect(r.exited && r.status == 1)
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("pressdb ingest: cannot write \(db.path): the database file or its directory is read-only"),
                    "\(r.stderr)")
            #expect(try query(db, "SELECT count(*), (SELECT count(*) FROM sources) FROM sessions") == before)
            #expect(try query(db, "PRAGMA integrity_check") == "ok")
        }
    }
}
