// Bad input found by adversarial testing, end to end through the `pressdb` binary: what a user
// sees, the exit status, and what the database keeps. Each test reproduces the report first;
// the expected values come from the report and from the inputs written here by hand.
import Foundation
import PressTestSupport
import Testing

/// One NDJSON touch record.
private func record(_ session: String, _ t: Double, _ phase: String, x: Double = 10, y: Double = 10,
                    extra: String = "") -> String {
    #"{"session":"\#(session)","t":\#(t),"phase":"\#(phase)","x":\#(x),"y":\#(y)\#(extra)}"#
}

private func write(_ lines: [String], to url: URL) throws {
    try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
}

@Suite struct BadInputTests {
    /// a database path that cannot be opened is named once, not twice
    /// (before: "cannot open /proc/nope.sqlite: cannot open /proc/nope.sqlite: unable to open
    /// database file …"), by every command that writes.
    @Test func anUnopenableDatabaseIsNamedOnce() throws {
        let dir = try Binary.temporaryDirectory()
        let log = dir.appendingPathComponent("a.ndjson")
        try write([record("a", 0, "began"), record("a", 0.1, "ended")], to: log)
        for args in [["ingest", log.path], ["configs"], ["config", "add", log.path]] {
            let r = try Binary.run(args + ["--db", "/proc/nope.sqlite"])
            #expect(r.status == 1, "\(args): \(r.stderr)")
            #expect(r.stderr.components(separatedBy: "/proc/nope.sqlite").count == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("cannot open /proc/nope.sqlite: unable to open database file"), "\(args): \(r.stderr)")
        }
    }

    /// A zero-size frame (`"frame":[1,1,0,0]`) was stored and then could never be replayed
    /// (exit 0, "width must be positive" at replay, reports silently one session short). It is
    /// rejected at ingest like a negative frame: the record with a reason naming the frame, then
    /// its session's orphaned `ended`; nothing stored. The same for CSV's four frame columns.
    @Test func aZeroSizeFrameIsRejectedAtIngest() throws {
        let dir = try Binary.temporaryDirectory()
        try write([record("z", 0, "began", extra: #","frame":[1,1,0,0]"#), record("z", 0.1, "ended"),
                   record("ok", 1, "began", extra: #","frame":[1,1,40,44]"#), record("ok", 1.1, "ended")],
                  to: dir.appendingPathComponent("z.ndjson"))
        try "session,t,phase,x,y,frame_x,frame_y,frame_w,frame_h\nz,0,began,1,1,1,1,30,0\nz,0.1,ended,1,1,,,,\n"
            .write(to: dir.appendingPathComponent("z.csv"), atomically: true, encoding: .utf8)
        for (file, sessions) in [("z.ndjson", [["ok"]]), ("z.csv", [])] {
            let r = try Binary.run(["ingest", file, "--db", file + ".sqlite"], directory: dir)
            #expect(r.status == 3, "\(file): \(r.stderr)")
            #expect(r.stderr.contains(#"\#(file):\#(file.hasSuffix("csv") ? 2 : 1): "frame" width and height must be positive"#),
                    "\(r.stderr)")
            #expect(!r.stderr.contains("cannot be replayed"), "\(r.stderr)")
            let db = dir.appendingPathComponent(file + ".sqlite")
            #expect(try rows(db, "SELECT session FROM sessions") == sessions)
            #expect(try rows(db, "SELECT count(*) FROM rejects") == [["2"]])
        }
    }

    /// At ingest: times spanning −1.7e308 … 1.7e308 are finite, but the session's
    /// duration is not (1.7e308 − (−1.7e308) overflows to +inf); it was stored with a
    /// `duration_ms` of 0.0. Such a session is rejected at the record that completes it, with a
    /// reason; a session of ordinary times beside it is stored.
    @Test func aSessionWhoseDurationIsNotFiniteIsRejected() throws {
        let dir = try Binary.temporaryDirectory()
        try write([record("huge", -1.7e308, "began"), record("huge", 1.7e308, "ended"),
                   // 1e306 s is finite, but in milliseconds (1e309) it is not.
                   record("long", 0, "began"), record("long", 1e306, "ended"),
                   record("ok", 1, "began"), record("ok", 1.1, "ended")], to: dir.appendingPathComponent("h.ndjson"))
        let r = try Binary.run(["ingest", "h.ndjson", "--db", "h.sqlite"], directory: dir)
        #expect(r.status == 3, "\(r.stderr)")
        #expect(r.stderr.contains(#"h.ndjson:2: session "huge" lasts from -1.7e+308 s to 1.7e+308 s: its duration is not a finite number of milliseconds"#),
                "\(r.stderr)")
        #expect(r.stderr.contains(#"h.ndjson:4: session "long" lasts from 0.0 s to 1e+306 s"#), "\(r.stderr)")
        let db = dir.appendingPathComponent("h.sqlite")
        #expect(try rows(db, "SELECT session FROM sessions") == [["ok"]])
        #expect(try rows(db, "SELECT line FROM rejects ORDER BY line") == [["2"], ["4"]])
    }

    /// Log rotation: `open.ndjson` (the `began`s), then `ends.ndjson` (the rest, which
    /// completes the pending sessions), then `ends.ndjson` again. Before: the third ingest exited
    /// 3 with one "sample after the end of session" reject per record. Now its samples, equal to
    /// the stored sessions' samples, are duplicates: exit 0, one duplicate per session, no
    /// reject, nothing changed. A sample after the end that is not one of the stored ones is
    /// still rejected.
    @Test func reingestingTheEndsOfCompletedSessionsGivesDuplicates() throws {
        let dir = try Binary.temporaryDirectory()
        var opens: [String] = [], ends: [String] = []
        for k in 0..<100 {
            opens.append(record("s\(k)", Double(k), "began"))
            ends.append(record("s\(k)", Double(k) + 0.05, "moved", x: 11))
            ends.append(record("s\(k)", Double(k) + 0.1, k % 10 == 0 ? "cancelled" : "ended", x: 12))
        }
        try write(opens, to: dir.appendingPathComponent("open.ndjson"))
        try write(ends, to: dir.appendingPathComponent("ends.ndjson"))
        let first = try Binary.run(["ingest", "open.ndjson", "--db", "r.sqlite"], directory: dir)
        #expect(first.status == 0 && first.stderr.contains("sessions: 0 new, 0 duplicate, 0 conflict, 100 pending"), "\(first.stderr)")
        let second = try Binary.run(["ingest", "ends.ndjson", "--db", "r.sqlite"], directory: dir)
        #expect(second.status == 0 && second.stderr.contains("sessions: 100 new, 0 duplicate, 0 conflict, 0 pending; 100 completed from pending"),
                "\(second.stderr)")
        let db = dir.appendingPathComponent("r.sqlite")
        let stored = try rows(db, "SELECT session, sample_count, hex(samples) FROM sessions ORDER BY id")
        let again = try Binary.run(["ingest", "ends.ndjson", "--db", "r.sqlite"], directory: dir)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("200 records; sessions: 0 new, 100 duplicate, 0 conflict, 0 pending; 0 rejected"), "\(again.stderr)")
        #expect(try rows(db, "SELECT count(*) FROM rejects") == [["0"]])
        #expect(try rows(db, "SELECT session, sample_count, hex(samples) FROM sessions ORDER BY id") == stored)
        // A sample after the end that the stored session does not have is still an error.
        try write([record("s1", 1.2, "moved", x: 13)], to: dir.appendingPathComponent("late.ndjson"))
        let late = try Binary.run(["ingest", "late.ndjson", "--db", "r.sqlite"], directory: dir)
        #expect(late.status == 3 && late.stderr.contains(#"late.ndjson:1: sample after the end of session "s1""#), "\(late.stderr)")
    }

    /// An unknown configuration is a command-line error (status 2) everywhere. Before,
    /// `ingest --config no-such-config` exited 0 and its sessions never got results, and
    /// `compare --by config` and `report --as` gave 4; `compare --paired` and `replay --as`
    /// already gave 2. A fresh database is not created for the failed ingest.
    @Test func anUnknownConfigurationIsAUsageErrorEverywhere() throws {
        let dir = try Binary.temporaryDirectory()
        try write([record("a", 0, "began"), record("a", 0.1, "ended")], to: dir.appendingPathComponent("a.ndjson"))
        let fresh = try Binary.run(["ingest", "--config", "no-such-config", "a.ndjson", "--db", "fresh.sqlite"], directory: dir)
        #expect(fresh.status == 2, "\(fresh.stderr)")
        #expect(fresh.stderr.hasPrefix("pressdb ingest: --config: no configuration named 'no-such-config' (known: "), "\(fresh.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("fresh.sqlite").path))
        let db = dir.appendingPathComponent("p.sqlite").path
        try Binary.run(["generate", "--sessions", "200", "--seed", "3"]).stdout
            .write(to: dir.appendingPathComponent("g.ndjson"), atomically: true, encoding: .utf8)
        #expect(try Binary.run(["ingest", "g.ndjson", "--db", db, "-q"], directory: dir).status == 0)
        let stored = try Binary.run(["ingest", "--config", "no-such-config", "a.ndjson", "--db", db], directory: dir)
        #expect(stored.status == 2, "\(stored.stderr)")
        #expect(try rows(URL(fileURLWithPath: db), "SELECT count(*) FROM sessions WHERE session = 'a'") == [["0"]])
        for args in [["compare", "spring-press", "no-such-config", "--by", "config"],
                     ["compare", "no-such-config", "spring-press", "--by", "config"],
                     ["report", "--as", "no-such-config"],
                     ["compare", "spring-press", "no-such-config", "--paired"],
                     ["replay", "--as", "no-such-config"]] {
            let r = try Binary.run(args + ["--db", db])
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("no configuration named 'no-such-config'"), "\(args): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
        }
        // A known configuration with no sessions is still "nothing to work on".
        #expect(try Binary.run(["compare", "spring-press", "longpress-safe-area", "--by", "config", "--db", db]).status == 4)
    }

    /// An empty input is "nothing to work on" (status 4; before: 0), and no database
    /// is created for it.
    @Test func anEmptyInputIsNothingToWorkOn() throws {
        let dir = try Binary.temporaryDirectory()
        try "".write(to: dir.appendingPathComponent("empty.ndjson"), atomically: true, encoding: .utf8)
        try "\n  \n".write(to: dir.appendingPathComponent("blank.csv"), atomically: true, encoding: .utf8)
        let file = try Binary.run(["ingest", "empty.ndjson", "blank.csv", "--db", "e.sqlite"], directory: dir)
        #expect(file.status == 4, "\(file.stderr)")
        #expect(file.stderr == "pressdb ingest: nothing to ingest: empty.ndjson and blank.csv hold no records\n", "\(file.stderr)")
        let stdin = try Binary.run(["ingest", "--db", "e.sqlite"], stdin: "", directory: dir)
        #expect(stdin.status == 4, "\(stdin.stderr)")
        #expect(stdin.stderr == "pressdb ingest: nothing to ingest: standard input holds no records\n", "\(stdin.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("e.sqlite").path))
    }

    /// A multi-file ingest with one missing file ingests the others (before: nothing),
    /// then exits 1 naming the missing one. Every input missing: status 1 and no database.
    @Test func aMissingFileAmongOthersIsNamedAfterTheOthersAreIngested() throws {
        let dir = try Binary.temporaryDirectory()
        try write([record("a", 0, "began"), record("a", 0.1, "ended")], to: dir.appendingPathComponent("a.ndjson"))
        try write([record("b", 0, "began"), record("b", 0.1, "ended")], to: dir.appendingPathComponent("b.ndjson"))
        let r = try Binary.run(["ingest", "a.ndjson", "missing.ndjson", "b.ndjson", "--db", "m.sqlite"], directory: dir)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("ingest: 2 files; 4 records; sessions: 2 new"), "\(r.stderr)")
        #expect(r.stderr.hasSuffix("pressdb ingest: cannot read missing.ndjson: No such file or directory; "
            + "the other inputs were ingested; re-run the same command once it can be read (what is stored now is "
            + "skipped as duplicates)\n"), "\(r.stderr)")
        #expect(try rows(dir.appendingPathComponent("m.sqlite"), "SELECT session FROM sessions ORDER BY session") == [["a"], ["b"]])
        let none = try Binary.run(["ingest", "missing.ndjson", "gone.ndjson", "--db", "n.sqlite"], directory: dir)
        #expect(none.status == 1, "\(none.stderr)")
        #expect(none.stderr == "pressdb ingest: cannot read missing.ndjson: No such file or directory\n"
            + "pressdb ingest: cannot read gone.ndjson: No such file or directory\n", "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("n.sqlite").path))
        // --strict writes all or nothing: a missing file stops it before anything is written.
        let strict = try Binary.run(["ingest", "--strict", "a.ndjson", "missing.ndjson", "--db", "s.sqlite"], directory: dir)
        #expect(strict.status == 1, "\(strict.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("s.sqlite").path))
    }

    /// Garbage that is no known format exited 1 but left an empty 80 KB database. Now
    /// the format is told before the database is opened: status 1, the reason, no file.
    @Test func garbageInputLeavesNoDatabase() throws {
        let dir = try Binary.temporaryDirectory()
        try "\u{7F}ELF garbage\n\u{1}\u{2}\u{3}\n".write(to: dir.appendingPathComponent("g.bin"), atomically: true, encoding: .utf8)
        let r = try Binary.run(["ingest", "g.bin", "--db", "g.sqlite"], directory: dir)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("pressdb ingest: g.bin: cannot tell the format"), "\(r.stderr)")
        // Replay has nothing to work on without a database, and creates none either.
        let replay = try Binary.run(["replay", "--db", "g.sqlite"], directory: dir)
        #expect(replay.status == 4 && replay.stderr.contains("no database at g.sqlite"), "\(replay.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("g.sqlite") }
        #expect(left.isEmpty, "\(left)")
    }

    /// A killed `config add` leaves the configuration's new version replayed for some
    /// of its sessions; `report` then showed only those, without a word (20,000 of 100,129 in
    /// the report). The state is made here directly — the new version's results deleted for all
    /// but 37 of the sessions naming it, as a replay killed after its first pages leaves it.
    /// Now every report warns on standard error, naming the configuration, the counts (counted
    /// here with SQL of our own) and `pressdb replay --missing`; after that replay, no warning.
    @Test func aConfigurationReplayedForSomeOfItsSessionsIsWarnedAbout() throws {
        let dir = try Binary.temporaryDirectory()
        try Binary.run(["generate", "--sessions", "300", "--seed", "8", "--variants", "A=soft,B=spring-press"]).stdout
            .write(to: dir.appendingPathComponent("g.ndjson"), atomically: true, encoding: .utf8)
        let db = dir.appendingPathComponent("p.sqlite")
        try #"{"type":"config","name":"soft","base":"spring-press","pressed_scale":0.97}"#
            .write(to: dir.appendingPathComponent("v1.json"), atomically: true, encoding: .utf8)
        try #"{"type":"config","name":"soft","base":"spring-press","pressed_scale":0.9}"#
            .write(to: dir.appendingPathComponent("v2.json"), atomically: true, encoding: .utf8)
        #expect(try Binary.run(["config", "add", "v1.json", "--db", db.path, "-q"], directory: dir).status == 0)
        #expect(try Binary.run(["ingest", "g.ndjson", "--db", db.path, "-q"], directory: dir).status == 0)
        let clean = try Binary.run(["report", "--db", db.path, "--format", "csv"])
        #expect(clean.status == 0 && clean.stderr.isEmpty, "\(clean.stderr)")
        #expect(try Binary.run(["config", "add", "v2.json", "--db", db.path, "-q"], directory: dir).status == 0)
        let soft = Int(try rows(db, "SELECT count(*) FROM sessions WHERE config = 'soft'")[0][0])!
        let version = try rows(db, "SELECT version FROM configs WHERE name = 'soft' ORDER BY rowid DESC LIMIT 1")[0][0]
        let r = try sqlite3(db, "DELETE FROM results WHERE config_version = '\(version)' AND session_id NOT IN "
            + "(SELECT id FROM sessions WHERE config = 'soft' ORDER BY id LIMIT 37)")
        #expect(r.status == 0, "\(r.stderr)")
        // What the report shows: the 37 (the report's "20,000 of 100,129").
        #expect(try sessionsOfSoft(try Binary.run(["report", "--db", db.path, "--format", "csv"]).stdout) == 37)
        for args in [["report"], ["report", "latency", "--format", "csv"], ["report", "--where", "screen=feed"]] {
            let where_ = args.contains("--where") ? " AND screen = 'feed'" : ""
            let covered = try rows(db, "SELECT count(*) FROM sessions s JOIN results r ON r.session_id = s.id "
                + "WHERE s.config = 'soft' AND r.config_version = '\(version)'\(where_)")[0][0]
            let selected = try rows(db, "SELECT count(*) FROM sessions WHERE config = 'soft'\(where_)")[0][0]
            let report = try Binary.run(args + ["--db", db.path])
            #expect(report.status == 0, "\(args): \(report.stderr)")
            #expect(report.stderr == "pressdb report: warning: configuration soft has results of its current version "
                + "\(version) for \(covered) of the \(selected) selected sessions naming it; run 'pressdb replay --missing' "
                + "to replay the others\n", "\(args): \(report.stderr)")
        }
        #expect(soft > 100)
        #expect(try Binary.run(["replay", "--missing", "--db", db.path, "-q"]).status == 0)
        let complete = try Binary.run(["report", "--db", db.path, "--format", "csv"])
        #expect(complete.status == 0 && complete.stderr.isEmpty, "\(complete.stderr)")
        #expect(try sessionsOfSoft(complete.stdout) == soft)
        // --as: sessions replayed as a configuration for only some of them.
        let two = try rows(db, "SELECT session FROM sessions ORDER BY id LIMIT 2").map { $0[0] }
        #expect(try Binary.run(["replay", "--as", "longpress-safe-area", "--db", db.path, "-q"]
                               + two.flatMap { ["--session", $0] }).status == 0)
        let asReport = try Binary.run(["report", "--as", "longpress-safe-area", "--db", db.path])
        #expect(asReport.status == 0)
        #expect(asReport.stderr.hasPrefix("pressdb report: warning: the results replayed as longpress-safe-area (version ")
                && asReport.stderr.hasSuffix(") cover 2 of the 300 selected sessions; run 'pressdb replay --as longpress-safe-area' "
                    + "to replay the others\n"), "\(asReport.stderr)")
    }

    /// The `sessions` cell of the row of configuration `soft` in a summary report's CSV.
    private func sessionsOfSoft(_ csv: String) throws -> Int? {
        let lines = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let column = try #require(lines.first?.firstIndex(of: "sessions"))
        return lines.first { $0.first == "soft" }.flatMap { Int($0[column]) }
    }
}
