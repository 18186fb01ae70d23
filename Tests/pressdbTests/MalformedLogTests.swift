// Malformed logs, end to end through the `pressdb` binary: what a user sees and what the
// database keeps.
import Foundation
import Testing

@Suite struct MalformedLogTests {
    /// The reported reproduction: header `session,t,phase,x,y,control`, row 2
    /// `c0,0,began,1,1,"oops`, then 1,000 valid sessions (two rows each). Before: exit 3, 0 sessions,
    /// one reject holding all 2,001 rows. Now: exit 3, the 1,000 sessions stored, one reject (line 2).
    @Test func anUnterminatedCSVQuoteRejectsOnlyItsRow() throws {
        let dir = try Binary.temporaryDirectory()
        var text = "session,t,phase,x,y,control\nc0,0,began,1,1,\"oops\n"
        for k in 1...1000 { text += "s\(k),\(k),began,1,1,\ns\(k),\(k).5,ended,1,1,\n" }
        try text.write(to: dir.appendingPathComponent("quote.csv"), atomically: true, encoding: .utf8)
        let r = try Binary.run(["ingest", "quote.csv", "--db", "q.sqlite"], directory: dir)
        #expect(r.status == 3, "\(r.stderr)")
        #expect(r.stderr.contains("quote.csv:2: malformed CSV: a quoted field opened on this line is not closed"), "\(r.stderr)")
        let db = dir.appendingPathComponent("q.sqlite")
        #expect(try rows(db, "SELECT count(*) FROM sessions") == [["1000"]])
        #expect(try rows(db, "SELECT line, raw FROM rejects") == [["2", "c0,0,began,1,1,\"oops"]])
    }
}

extension MalformedLogTests {
    /// Through `pressdb ingest`: a protocol-B getevent tap (hand-made, 9 lines) with a `0`
    /// pasted before line 2's timestamp is stored whole (1 session, exit 0) with one warning naming
    /// the line; with a value that does not parse either, the line and the three frames of the
    /// contact-less slot (lines 5, 7, 9) are rejected (exit 3), none dropped silently.
    @Test func getEventJunkBeforeTheTimestamp() throws {
        let dir = try Binary.temporaryDirectory()
        let lines = [
            "add device 1: /dev/input/event2",
            "0[   100.000000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   0000002a",
            "[   100.000000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    000001a4",
            "[   100.000000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    00000320",
            "[   100.000000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000",
            "[   100.016000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    000001a8",
            "[   100.016000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000",
            "[   100.090000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   ffffffff",
            "[   100.090000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000",
        ]
        try (lines.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("junk.txt"), atomically: true, encoding: .utf8)
        let r = try Binary.run(["ingest", "junk.txt", "--db", "j.sqlite"], directory: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains(#"junk.txt:2: warning: text "0" before the timestamp is ignored"#), "\(r.stderr)")
        #expect(r.stderr.contains("sessions: 1 new"), "\(r.stderr)")
        var broken = lines
        broken[1] = broken[1].replacingOccurrences(of: "0000002a", with: "2a")
        try (broken.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("broken.txt"), atomically: true, encoding: .utf8)
        let b = try Binary.run(["ingest", "--format", "getevent", "broken.txt", "--db", "b.sqlite"], directory: dir)
        #expect(b.status == 3, "\(b.stderr)")
        #expect(b.stderr.contains("broken.txt:7: this frame updates slot 0, which has no contact"), "\(b.stderr)")
        #expect(try rows(dir.appendingPathComponent("b.sqlite"), "SELECT line FROM rejects ORDER BY line")
                == [["2"], ["5"], ["7"], ["9"]])
    }
}
