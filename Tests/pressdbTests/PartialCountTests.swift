// Partials whose counts no set of sessions has: refused by `report --from`, `compare --from` and
// `merge` with status 1 and one line, never a trap on an overflowing sum or a rate above 1.
import Foundation
import Testing

@Suite(.serialized) struct PartialCountTests {
    static let events = ["tap", "cancel", "scroll_abort", "false_action", "unseen_press", "rage_episode",
                         "retry_after_cancel", "retry_after_unseen", "dead_press"]

    /// A partial's text with one cell per `(variant, sessions, taps, feedback histogram)`; the
    /// users list is empty (so comparisons are by session).
    static func partial(_ cells: [(variant: String, sessions: String, taps: String, feedback: String)]) -> String {
        let groups = cells.map { c in
            #"{"key":["spring-press","\#(c.variant)","buy","feed","1.0"],"sessions":\#(c.sessions),"events":[\#(c.taps),0,0,0,0,0,0,0,0],"#
                + #""feedback_latency_ms":\#(c.feedback),"action_latency_ms":[],"release_jump_pt_max":1}"#
        }.joined(separator: ",\n")
        return #"{"format":"pressdb-partial","version":1,"replayed_as":null,"configurations":{"spring-press":"0123456789abcdef"},"#
            + #""group_keys":["config","variant","control","screen","app_version"],"user_keys":["config","variant","user"],"#
            + #""events":[\#(events.map { "\"\($0)\"" }.joined(separator: ","))],"groups":[\#(groups)],"users":[]}"#
    }

    static let twoTo62 = "4611686018427387904"
    static let twoTo52 = "4503599627370496"

    /// The three commands on `text`: each ends with status 1 and one line of stderr.
    static func expectRefused(_ text: String, _ what: String, contains expected: String) throws {
        let dir = try Binary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("p.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        for args in [["report", "--from", path], ["compare", "A", "B", "--from", path], ["merge", path, path]] {
            let r = try Binary.run(args)
            #expect(r.exited && r.status == 1, "\(what): \(args[0]): \(r)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(what): \(args[0]): \(r.stderr)")
            #expect(r.stderr.contains(expected), "\(what): \(args[0]): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }

    /// Two latency counts of 2^62 in one cell of 2^62 sessions: their sum overflows Int64.
    @Test func latencyCountsWhoseSumOverflows() throws {
        try Self.expectRefused(Self.partial([("A", Self.twoTo62, "0", "[[16.7,\(Self.twoTo62)],[33.3,\(Self.twoTo62)]]"),
                                             ("B", "1", "1", "[[16.7,1]]")]),
                               "histogram", contains: "p.json:")
    }

    /// Two cells of 2^62 sessions: together 2^63, past Int64.
    @Test func sessionCountsWhoseSumOverflows() throws {
        try Self.expectRefused(Self.partial([("A", Self.twoTo62, "0", "[]"), ("A", Self.twoTo62, "0", "[]"),
                                             ("B", "1", "1", "[]")]),
                               "sessions", contains: "more sessions than a partial holds")
    }

    /// 31 taps among 1 session (a tap rate of 31 was printed).
    @Test func moreEventsThanSessions() throws {
        try Self.expectRefused(Self.partial([("A", "1", "31", "[]"), ("B", "1", "1", "[]")]),
                               "events", contains: "31 sessions with tap among 1 sessions")
    }

    /// More latencies than sessions: each session has at most one feedback latency.
    @Test func moreLatenciesThanSessions() throws {
        try Self.expectRefused(Self.partial([("A", "2", "1", "[[16.7,3]]"), ("B", "1", "1", "[]")]),
                               "latencies", contains: "more feedback_latency_ms values than its 2 sessions")
    }

    /// A latency is a time after touch-down: a negative one (a p50 of -1000000 ms was printed)
    /// is refused.
    @Test func negativeLatencies() throws {
        try Self.expectRefused(Self.partial([("A", "2", "1", "[[-1000000,1]]"), ("B", "1", "1", "[]")]),
                               "negative latency", contains: "a feedback_latency_ms of -1000000.0")
    }

    /// Each partial valid alone (2^52 sessions): merged, more than a partial holds; a comparison
    /// by session of an arm that large is refused rather than expanded in memory.
    @Test func mergeOfTwoLargePartialsAndALargeArm() throws {
        let dir = try Binary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("big.json").path
        try Self.partial([("A", Self.twoTo52, "0", "[[16.7,\(Self.twoTo52)]]"), ("B", "1", "1", "[[16.7,1]]")])
            .write(toFile: path, atomically: true, encoding: .utf8)
        let report = try Binary.run(["report", "--from", path, "--format", "csv", "--by", "variant"])
        #expect(report.status == 0, "\(report)")
        #expect(report.stdout.contains(Self.twoTo52))
        let merge = try Binary.run(["merge", path, path, path])
        #expect(merge.exited && merge.status == 1, "\(merge)")
        #expect(merge.stderr.split(separator: "\n").count == 1 && merge.stderr.contains("more than a partial holds"), "\(merge.stderr)")
        let compare = try Binary.run(["compare", "A", "B", "--from", path])
        #expect(compare.exited && compare.status == 1, "\(compare)")
        #expect(compare.stderr.split(separator: "\n").count == 1 && compare.stderr.contains("more than a comparison by session holds"),
                "\(compare.stderr)")
    }
}
