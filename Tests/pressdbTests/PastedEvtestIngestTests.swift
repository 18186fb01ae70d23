// A real evtest dump as it arrives by mail, through `pressdb ingest` end to end: the shared MELFAS
// MMS114 dump with a prompt line before it and every event line longer than 72 columns wrapped
// at a space, as a mailer does. Its one contact and 191 records are scripts/count-contacts' count
// of the original (Tests/PressFormatsTests/EvtestRecordingTests.swift).
import Foundation
import Testing

@Suite(.enabled(if: SharedRecordings.available, "the shared recordings (../shared/data beside the package) are not here"))
struct PastedEvtestIngestTests {
    /// `line` broken at the last space before column 73, as long as it is longer than 72.
    static func wrapped(_ line: Substring) -> [Substring] {
        guard line.count > 72, let cut = line.prefix(72).lastIndex(of: " ") else { return [line] }
        return [line[..<cut], line[line.index(after: cut)...]]
    }

    @Test func aMailWrappedDumpAfterAPromptGivesTheOriginalsContact() throws {
        let dir = try Binary.temporaryDirectory()
        let original = try String(contentsOf: SharedRecordings.url("evtest", "evtest_melfas-mms114_linux-input-2020-06-23.txt"), encoding: .utf8)
        let lines = original.split(separator: "\n", omittingEmptySubsequences: false).flatMap(Self.wrapped)
        let text = "device: ~/ ./evtest /dev/input/event1\n" + lines.joined(separator: "\n")
        #expect(lines.count > original.split(separator: "\n", omittingEmptySubsequences: false).count + 800)
        try text.write(to: dir.appendingPathComponent("mail.txt"), atomically: true, encoding: .utf8)
        // By name (read twice, hashed first) and from standard input (read into memory).
        let r = try Binary.run(["ingest", "mail.txt", "--db", "m.sqlite"], directory: dir)
        #expect(r.status == 0, "\(r.stderr.prefix(600))")
        let db = dir.appendingPathComponent("m.sqlite")
        #expect(try rows(db, "SELECT count(*), sum(sample_count) FROM sessions") == [["1", "191"]])
        let piped = try Binary.run(["ingest", "-", "--db", "p.sqlite"], stdin: text, directory: dir)
        #expect(piped.status == 0, "\(piped.stderr.prefix(600))")
        #expect(try rows(dir.appendingPathComponent("p.sqlite"), "SELECT count(*), sum(sample_count) FROM sessions") == [["1", "191"]])
    }
}
