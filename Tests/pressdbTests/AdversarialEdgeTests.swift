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
}
