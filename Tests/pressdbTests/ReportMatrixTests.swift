// Every report × every `--by` grouping × every output format, run through the binary: a
// grouping that one report or one renderer mishandles (a crash, a trap, a failure) shows here.
import Foundation
import Testing

@Suite(.serialized) struct ReportMatrixTests {
    static let reports = ["summary", "sessions", "latency", "cancellations", "rejects", "frustration"]
    static let groupings = ["config", "variant", "control", "screen", "app_version"]
    static let formats = ["table", "csv", "json", "ndjson", "markdown", "html"]

    /// A small database with replayed sessions and one rejected line, so every built-in report
    /// has rows.
    static func database() throws -> (dir: URL, db: String) {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("m.sqlite").path
        let log = try Binary.run(["generate", "--sessions", "120", "--seed", "21"])
        #expect(log.status == 0)
        let ingest = try Binary.run(["ingest", "--db", db, "--quiet"], stdin: log.stdout + "{\"not a record\n")
        #expect(ingest.status == 3, "\(ingest.stderr)")
        return (dir, db)
    }

    /// Each combination ends with status 0 (no signal) and writes something; JSON parses, HTML
    /// is one document.
    @Test func everyReportGroupingAndFormat() throws {
        let (dir, db) = try Self.database()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The groupings the binary offers are the ones exercised here.
        let help = try Binary.run(["report", "--help"]).stdout
        for by in Self.groupings { #expect(help.contains(by), "--help does not list \(by)") }
        for report in Self.reports {
            for by in Self.groupings {
                for format in Self.formats {
                    let r = try Binary.run(["report", report, "--db", db, "--by", by, "--format", format])
                    let what = "report \(report) --by \(by) --format \(format)"
                    #expect(r.exited && r.status == 0, "\(what): \(r)")
                    #expect(!r.stdout.isEmpty, "\(what) printed nothing")
                    if format == "json" {
                        #expect((try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) is [Any], "\(what)")
                    }
                    if format == "html" { #expect(r.stdout.hasPrefix("<!DOCTYPE html>") && r.stdout.contains("</html>"), "\(what)") }
                }
            }
        }
    }

    /// The summary from a partial, by every grouping in every format it accepts.
    @Test func summaryFromAPartialByEveryGrouping() throws {
        let (dir, db) = try Self.database()
        defer { try? FileManager.default.removeItem(at: dir) }
        let partial = dir.appendingPathComponent("p.json").path
        let aggregate = try Binary.run(["aggregate", "--db", db, "--out", partial])
        #expect(aggregate.status == 0, "\(aggregate.stderr)")
        for by in Self.groupings {
            for format in Self.formats where format != "html" {
                let r = try Binary.run(["report", "--from", partial, "--by", by, "--format", format])
                #expect(r.exited && r.status == 0, "report --from --by \(by) --format \(format): \(r)")
                #expect(!r.stdout.isEmpty)
            }
        }
    }
}
