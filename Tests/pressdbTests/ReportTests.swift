import Foundation
import Testing

/// A database holding a generated log (2,000 sessions, seed 11), ingested and replayed.
private func ingestedDatabase() throws -> (dir: URL, db: String) {
    let dir = try Binary.temporaryDirectory()
    let db = dir.appendingPathComponent("r.sqlite").path
    let log = try Binary.run(["generate", "--sessions", "2000", "--seed", "11"])
    #expect(log.status == 0)
    let ingest = try Binary.run(["ingest", "--db", db, "--quiet"], stdin: log.stdout)
    #expect(ingest.status == 0, "\(ingest.stderr)")
    return (dir, db)
}

private func jsonRows(_ text: String) throws -> [[String: Any]] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
}

/// Type-7 quantile computed here, independently of the SQL function: h = (n − 1)·f, linear
/// interpolation between the order statistics around h (Hyndman & Fan 1996).
private func quantile(_ values: [Double], _ f: Double) -> Double {
    let v = values.sorted()
    let h = Double(v.count - 1) * f
    let lo = Int(h), hi = min(lo + 1, v.count - 1)
    return v[lo] + (h - Double(lo)) * (v[hi] - v[lo])
}

@Suite(.serialized) struct ReportCommandTests {
    // One key given two values matches no session (a session has one value): refused, where the
    // last pair used to win without a word; the same pair twice is one filter.
    @Test func whereWithTwoValuesForOneKeyIsRefused() throws {
        let db = try Binary.temporaryDirectory().appendingPathComponent("w.sqlite").path
        let log = try Binary.run(["generate", "-n", "60", "--seed", "2"])
        #expect(try Binary.run(["ingest", "-", "--db", db, "--quiet"], stdin: log.stdout).status == 0)
        let two = try Binary.run(["report", "--db", db, "--where", "variant=A", "--where", "variant=B"])
        #expect(two.status == 2 && two.stderr.contains("--where gives variant two values ('A' and 'B')"), "\(two.stderr)")
        let same = try Binary.run(["report", "--db", db, "--where", "variant=A", "--where", "variant=A", "--format", "csv"])
        let once = try Binary.run(["report", "--db", db, "--where", "variant=A", "--format", "csv"])
        #expect(same.status == 0 && same.stdout == once.stdout)
    }

    // The summary's counts, rates and percentiles recomputed in Swift from the per-session rows
    // `pressdb replay --format json` prints (not from the report SQL).
    @Test func summaryMatchesCountsComputedFromSessions() throws {
        let (_, db) = try ingestedDatabase()
        let sessions = try jsonRows(try Binary.run(["report", "sessions", "--db", db, "--format", "json"]).stdout)
        #expect(sessions.count == 2000)
        let summary = try jsonRows(try Binary.run(["report", "--db", db, "--format", "json"]).stdout)
        #expect(summary.count == 2)
        for group in summary {
            let config = try #require(group["config"] as? String)
            let mine = sessions.filter { $0["config"] as? String == config }
            #expect(group["sessions"] as? Int == mine.count)
            let taps = mine.filter { $0["outcome"] as? String == "tap" }.count
            let cancels = mine.filter { $0["outcome"] as? String == "cancel" }.count
            #expect(group["taps"] as? Int == taps)
            #expect(group["cancels"] as? Int == cancels)
            #expect(abs((group["cancel_rate"] as? Double ?? -1) - Double(cancels) / Double(mine.count)) < 1e-12)
            let low = try #require(group["cancel_rate_low"] as? Double), high = try #require(group["cancel_rate_high"] as? Double)
            #expect(low < Double(cancels) / Double(mine.count) && high > Double(cancels) / Double(mine.count))
            let feedback = mine.compactMap { $0["feedback_latency_ms"] as? Double }
            #expect(abs((group["feedback_p90_ms"] as? Double ?? -1) - quantile(feedback, 0.9)) < 1e-9)
            #expect(abs((group["feedback_p50_ms"] as? Double ?? -1) - quantile(feedback, 0.5)) < 1e-9)
            let over = Double(feedback.filter { $0 > 100 }.count) / Double(feedback.count)
            #expect(abs((group["share_over_100ms"] as? Double ?? -1) - over) < 1e-12)
            let falseActions = mine.filter { ($0["action_fired"] as? Int == 1 || $0["action_fired"] as? Bool == true)
                && $0["outcome"] as? String != "tap" }.count
            #expect(group["false_actions"] as? Int == falseActions)
        }
    }

    // Every output format carries the same numbers: CSV parsed back, Markdown rows counted.
    @Test func formatsParseBack() throws {
        let (_, db) = try ingestedDatabase()
        let json = try jsonRows(try Binary.run(["report", "--db", db, "--format", "json"]).stdout)
        let csv = try Binary.run(["report", "--db", db, "--format", "csv"]).stdout.split(separator: "\n")
        let header = csv[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(header.contains("cancel_rate_low"))
        #expect(csv.count == json.count + 1)
        for (i, line) in csv.dropFirst().enumerated() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let column = try #require(header.firstIndex(of: "cancel_rate"))
            let rate = try #require(Double(fields[column]))
            // Foundation's JSONSerialization on Linux may round the last digit of a double, so
            // compare to 1e-15 rather than bit for bit (the CSV text is shortest round-trip).
            #expect(abs(rate - (json[i]["cancel_rate"] as? Double ?? -1)) < 1e-15)
        }
        let md = try Binary.run(["report", "--db", db, "--format", "markdown"]).stdout.split(separator: "\n")
        #expect(md.count == json.count + 2)
        #expect(md[1].hasPrefix("|---"))
        let table = try Binary.run(["report", "--db", db]).stdout
        #expect(table.contains("cancel_rate (95% CI)"))
    }

    // User reports run read-only: INSERT and ATTACH fail with a clear error, nothing changes.
    @Test func userReportsCannotWrite() throws {
        let (dir, db) = try ingestedDatabase()
        let reports = dir.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        try "-- counts\nSELECT count(*) AS n FROM report_input;\n".write(to: reports.appendingPathComponent("count.sql"), atomically: true, encoding: .utf8)
        try "-- evil\nINSERT INTO rejects(source_file, line, reason, raw) VALUES ('x', 1, 'y', 'z');\n"
            .write(to: reports.appendingPathComponent("insert.sql"), atomically: true, encoding: .utf8)
        try "-- evil\nATTACH DATABASE '\(dir.path)/other.sqlite' AS other;\n"
            .write(to: reports.appendingPathComponent("attach.sql"), atomically: true, encoding: .utf8)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let ok = try Binary.run(["report", "--db", db, "--reports", reports.path, "count", "--format", "csv"])
        #expect(ok.status == 0 && ok.stdout == "n\n2000\n")
        for name in ["insert", "attach"] {
            let r = try Binary.run(["report", "--db", db, "--reports", reports.path, name])
            #expect(r.status == 1)
            #expect(r.stderr.contains("report \(name): not authorized"), "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("other.sqlite").path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        // One statement per file (SQLite would silently run only the first); an empty file is
        // an error, not an empty report (found by review).
        try "-- two\nSELECT 1; SELECT 2;\n".write(to: reports.appendingPathComponent("two.sql"), atomically: true, encoding: .utf8)
        try "".write(to: reports.appendingPathComponent("empty.sql"), atomically: true, encoding: .utf8)
        let two = try Binary.run(["report", "--db", db, "--reports", reports.path, "two"])
        #expect(two.status == 1 && two.stderr.contains("holds one SQL statement"))
        let empty = try Binary.run(["report", "--db", db, "--reports", reports.path, "empty"])
        #expect(empty.status == 1 && empty.stderr.contains("holds no SQL statement"))
        let list = try Binary.run(["report", "--list", "--reports", reports.path, "--db", db])
        #expect(list.stdout.contains("summary") && list.stdout.contains("count") && list.stdout.contains("user"))
    }

    // Clear one-line messages instead of empty tables.
    @Test func emptyAndUnknownGiveMessages() throws {
        let dir = try Binary.temporaryDirectory()
        let missing = try Binary.run(["report", "--db", dir.appendingPathComponent("none.sqlite").path])
        #expect(missing.status == 4 && missing.stderr.contains("no database"))
        let (_, db) = try ingestedDatabase()
        let unknown = try Binary.run(["report", "nosuch", "--db", db])
        #expect(unknown.status == 2 && unknown.stderr.contains("no report named 'nosuch'"))
        let nomatch = try Binary.run(["report", "--db", db, "--where", "variant=O'Brien\"; DROP TABLE sessions; --"])
        #expect(nomatch.status == 4 && nomatch.stderr.contains("no session matches variant=O'Brien"))
        let stillThere = try Binary.run(["report", "--db", db, "--format", "csv"])
        #expect(stillThere.status == 0)
        let badKey = try Binary.run(["report", "--db", db, "--where", "colour=red"])
        #expect(badKey.status == 2)
        let filtered = try jsonRows(try Binary.run(["report", "--db", db, "--where", "variant=B", "--format", "json"]).stdout)
        #expect(filtered.count == 1 && filtered[0]["variant"] as? String == "B")
    }

    // A database whose every line was rejected still answers the rejects report; sessions that
    // name an undefined configuration get a message that names it and says what to do.
    @Test func rejectsReportAndUndefinedConfigurations() throws {
        let dir = try Binary.temporaryDirectory()
        let bad = dir.appendingPathComponent("bad.sqlite").path
        let line = #"{"session":"a","t":0,"phase":"tapped","x":1,"y":2}"#
        #expect(try Binary.run(["ingest", "--db", bad, "-q"], stdin: line + "\n").status == 3)
        let rejects = try jsonRows(try Binary.run(["report", "rejects", "--db", bad, "--format", "json"]).stdout)
        #expect(rejects.count == 1)
        #expect(rejects.first?["line"] as? Int == 1 && rejects.first?["raw"] as? String == line)
        #expect((rejects.first?["reason"] as? String)?.contains(#"phase "tapped""#) == true)
        let summary = try Binary.run(["report", "--db", bad])
        #expect(summary.status == 4 && summary.stderr.contains("holds no sessions"))

        let unknown = dir.appendingPathComponent("unknown.sqlite").path
        let log = #"{"session":"a","t":0,"phase":"began","x":1,"y":2,"config":"mystery"}"# + "\n"
            + #"{"session":"a","t":0.1,"phase":"ended","x":1,"y":2}"# + "\n"
        _ = try Binary.run(["ingest", "--db", unknown, "-q"], stdin: log)
        let r = try Binary.run(["report", "--db", unknown])
        #expect(r.status == 4)
        #expect(r.stderr.contains("'mystery' (1 session)") && r.stderr.contains("pressdb config add"))
    }
}

@Suite struct ReportGroupingTests {
    // Every attribute --where filters on can be grouped: --by user gives one row per user, the
    // users read independently from the generated session ids (docs/generator.md: s SEED - u
    // USER - n), their sessions summing to all; --by device too. A grouping of more than 200
    // groups says so on standard error; --from (a partial, keyed by the coarser groupings) refuses it.
    @Test func everyFilterableAttributeGroups() throws {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("g.sqlite").path
        let log = try Binary.run(["generate", "--sessions", "4400", "--seed", "3"])
        _ = try Binary.run(["ingest", "--db", db, "--quiet"], stdin: log.stdout)
        let ids = try Binary.run(["report", "sessions", "--db", db, "--format", "csv"]).stdout.split(separator: "\n").dropFirst()
            .map { $0.split(separator: ",")[0] }
        let users = Set(ids.map { $0.split(separator: "-").prefix(2).joined(separator: "-") })
        let byUser = try Binary.run(["report", "--by", "user", "--db", db, "--format", "json"])
        #expect(byUser.status == 0, "\(byUser.stderr)")
        let rows = try jsonRows(byUser.stdout)
        #expect(Set(rows.compactMap { $0["user"] as? String }) == users)
        #expect(rows.reduce(0) { $0 + (($1["sessions"] as? Int) ?? 0) } == ids.count)
        #expect(users.count > 200 && byUser.stderr.contains("warning: --by user gives \(users.count) groups"), "\(byUser.stderr)")
        let byDevice = try Binary.run(["report", "--by", "device", "--db", db, "--format", "json"])
        #expect(byDevice.status == 0 && !byDevice.stderr.contains("warning"), "\(byDevice.stderr)")
        #expect(try jsonRows(byDevice.stdout).reduce(0) { $0 + (($1["sessions"] as? Int) ?? 0) } == ids.count)
        let partial = dir.appendingPathComponent("p.json").path
        _ = try Binary.run(["aggregate", "--db", db, "--out", partial])
        let from = try Binary.run(["report", "--from", partial, "--by", "user"])
        #expect(from.status != 0 && from.stderr.contains("with --from"), "\(from.stderr)")
    }
}

@Suite struct ReplayCommandTests {
    // End to end: ingest a log, then `pressdb replay --format json` gives every
    // session's classification and latencies (exactly the documented keys, null where undefined).
    @Test func replayAfterIngestPrintsEverySession() throws {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("r.sqlite").path
        let log = #"{"session":"tap","t":0,"phase":"began","x":100,"y":100,"container":"none"}"# + "\n"
            + #"{"session":"tap","t":0.1,"phase":"ended","x":100,"y":100}"# + "\n"
            + #"{"session":"scroll","t":0,"phase":"began","x":100,"y":100,"container":"scroll"}"# + "\n"
            + #"{"session":"scroll","t":0.05,"phase":"moved","x":100,"y":120}"# + "\n"
            + #"{"session":"scroll","t":0.2,"phase":"ended","x":100,"y":200}"# + "\n"
        #expect(try Binary.run(["ingest", "--db", db, "-q"], stdin: log).status == 0)
        let r = try Binary.run(["replay", "--db", db, "--format", "json"])
        #expect(r.status == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 2)
        let keys: Set<String> = ["session", "config", "variant", "outcome", "cancel_reason", "action_fired",
                                 "feedback_latency_ms", "action_latency_ms", "duration_ms", "max_travel_pt",
                                 "press_depth", "release_jump_pt", "feedback_photon_ms", "action_photon_ms"]
        for row in rows { #expect(Set(row.keys) == keys) }
        let tap = try #require(rows.first { $0["session"] as? String == "tap" })
        // The 100 ms tap on the default 44 pt control, spring-press, no container: seen on the
        // second frame at 60 Hz (reference §4; see ReplayTests for the arithmetic).
        #expect(tap["outcome"] as? String == "tap")
        // Stored to 6 decimals (docs/log-format.md, "results"): 2000/60 = 33.3333… is 33.333333.
        #expect(abs((tap["feedback_latency_ms"] as? Double ?? 0) - 2000.0 / 60) < 1e-6)
        #expect(tap["feedback_latency_ms"] as? Double == 33.333333)
        // A 20 pt move within 150 ms in a scroll view: the pan begins, the control never sees
        // the touch: scroll_abort, no feedback, no action (null, not absent).
        let scroll = try #require(rows.first { $0["session"] as? String == "scroll" })
        #expect(scroll["outcome"] as? String == "scroll_abort")
        #expect(scroll["feedback_latency_ms"] is NSNull && scroll["cancel_reason"] is NSNull)
        // Another display is printed, not stored (found by review: it replaced the stored
        // 60 Hz rows); absurd rates are refused.
        let hz120 = try Binary.run(["replay", "--db", db, "--refresh-rate", "120", "--session", "tap", "--format", "csv"])
        #expect(hz120.status == 0 && hz120.stderr.contains("printed, not stored"))
        let stored = try Binary.run(["report", "sessions", "--db", db, "--format", "json"])
        let storedTap = try #require((try JSONSerialization.jsonObject(with: Data(stored.stdout.utf8)) as? [[String: Any]])?
            .first { $0["session"] as? String == "tap" })
        #expect(storedTap["feedback_latency_ms"] as? Double == 33.333333)
        #expect(try Binary.run(["replay", "--db", db, "--refresh-rate", "1e308"]).status == 2)
        // --missing finds nothing left to do.
        let missing = try Binary.run(["replay", "--db", db, "--missing", "--format", "json"])
        #expect(missing.stdout == "[]\n" && missing.stderr.contains("every session already has its result"))
    }
}
