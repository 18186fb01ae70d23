// Issue 15's edges found by adversarial testing (items 3, 5, 6, 10, 13, 15), end to end through
// the `pressdb` binary: what a user sees, the exit status, and what the database keeps. Each test
// reproduces the issue's report first; the expected values come from the issue and from the
// inputs written here by hand.
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

@Suite struct AdversarialEdgeTests {
    /// Item 15, first half: a database path that cannot be opened is named once, not twice
    /// (before: "cannot open /proc/nope.sqlite: cannot open /proc/nope.sqlite: unable to open
    /// database file …"), by every command that writes.
    @Test func anUnopenableDatabaseIsNamedOnce() throws {
        let dir = try Binary.temporaryDirectory()
        let log = dir.appendingPathComponent("a.ndjson")
        try write([record("a", 0, "began"), record("a", 0.1, "ended")], to: log)
        for args in [["ingest", log.path], ["replay"], ["config", "add", log.path]] {
            let r = try Binary.run(args + ["--db", "/proc/nope.sqlite"])
            #expect(r.status == 1, "\(args): \(r.stderr)")
            #expect(r.stderr.components(separatedBy: "/proc/nope.sqlite").count == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("cannot open /proc/nope.sqlite: unable to open database file"), "\(args): \(r.stderr)")
        }
    }

    /// Item 5: a zero-size frame (`"frame":[1,1,0,0]`) was stored and then could never be replayed
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

    /// Item 10, at ingest: times spanning −1.7e308 … 1.7e308 are finite, but the session's
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

    /// Item 3, log rotation: `open.ndjson` (the `began`s), then `ends.ndjson` (the rest, which
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
}
