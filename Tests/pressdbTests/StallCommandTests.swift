// `replay --stalls` and `report --stalls` (issue 38, docs/press-model.md §8): printed, not
// stored; each row says what the stalls did; the report's attribution agrees with the rows.
import Foundation
import PressTestSupport
import Testing

private let database = Result<String, any Error> {
    let dir = try Binary.temporaryDirectory()
    let log = try Binary.run(["generate", "--sessions", "1500", "--seed", "38"]).stdout
    let db = dir.appendingPathComponent("stalls.sqlite").path
    let r = try Binary.run(["ingest", "--db", db, "--quiet"], stdin: log)
    guard r.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: r.stderr]) }
    return db
}

/// The CSV rows of `replay … --format csv` as dictionaries by column name (no field holds a comma).
private func rows(_ csv: String) -> [[String: String]] {
    let lines = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    guard let header = lines.first else { return [] }
    return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
}

@Suite struct StallCommandTests {
    // At 0 ms/s nothing stalls: every row is `none` and equals the replay without --stalls.
    @Test func replayWithoutAnyStallIsThePlainReplay() throws {
        let db = try database.get()
        let plain = rows(try Binary.run(["replay", "--db", db, "--format", "csv"]).stdout)
        let zero = try Binary.run(["replay", "--db", db, "--format", "csv", "--stalls", "0"])
        #expect(zero.status == 0, "\(zero.stderr)")
        let stalled = rows(zero.stdout)
        #expect(stalled.count == plain.count && plain.count == 1500)
        #expect(stalled.allSatisfy { $0["stall"] == "none" })
        #expect(stalled.map { $0.filter { $0.key != "stall" } } == plain)
        #expect(zero.stderr.contains("printed, not stored"))
    }

    // At 200 ms/s (one frame in five) and a 300–600 ms hang a second (one-frame hitches only
    // delay a press; a hang can outlast it), each row's mark agrees with the plain replay of the same
    // session: `hidden` has no feedback and had some, `delayed` is later, `none` the same; the
    // report's counts (same seed) are the rows'; stored results are untouched; a seed repeats.
    @Test func stallMarksAgreeWithThePlainReplayAndTheReport() throws {
        let db = try database.get()
        let before = try Binary.run(["report", "sessions", "--db", db, "--format", "csv"]).stdout
        let plain = Dictionary(uniqueKeysWithValues: rows(try Binary.run(["replay", "--db", db, "--format", "csv"]).stdout)
            .map { ($0["session"]!, $0) })
        let hangs = try Binary.temporaryDirectory().appendingPathComponent("hangs.json")
        try #"{"buckets": [{"lower_ms": 300, "upper_ms": 600, "per_hour": 3600}]}"#.write(to: hangs, atomically: true, encoding: .utf8)
        let stalls = ["--stalls", "200", "--hangs", hangs.path]
        let run = try Binary.run(["replay", "--db", db, "--format", "csv", "--seed", "5"] + stalls)
        #expect(run.status == 0, "\(run.stderr)")
        var hidden = 0, delayed = 0, unseen = 0
        for r in rows(run.stdout) {
            let p = try #require(plain[r["session"]!])
            let f = Double(r["feedback_latency_ms"]!), pf = Double(p["feedback_latency_ms"]!)
            // Presses (not scroll-aborts) are counted, as the report counts unseen presses.
            let press = r["outcome"] != "scroll_abort"
            if press && f == nil { unseen += 1 }
            switch r["stall"] {
            case "hidden": hidden += press ? 1 : 0; #expect(f == nil && pf != nil)
            case "delayed": delayed += press ? 1 : 0; #expect(f! > pf!)
            default: #expect(r["stall"] == "none" && f == pf)
            }
            #expect(r["outcome"] == p["outcome"] && r["action_latency_ms"] == p["action_latency_ms"])
        }
        #expect(hidden > 0 && delayed > 0, "\(hidden) hidden, \(delayed) delayed, \(unseen) unseen")
        let report = try Binary.run(["report", "--db", db, "--format", "csv", "--seed", "5"] + stalls)
        #expect(report.status == 0, "\(report.stderr)")
        let share = String(format: "%.1f %%", 100 * Double(hidden) / Double(unseen))
        #expect(report.stderr.contains("of the \(unseen) unseen presses, \(hidden) (\(share)) unseen because of a stall"), "\(report.stderr)")
        #expect(report.stderr.contains("\(delayed) presses seen later because of a stall"), "\(report.stderr)")
        #expect(try Binary.run(["report", "sessions", "--db", db, "--format", "csv"]).stdout == before)
        #expect(try Binary.run(["replay", "--db", db, "--format", "csv", "--seed", "5"] + stalls).stdout == run.stdout)
        #expect(try Binary.run(["replay", "--db", db, "--format", "csv", "--seed", "6"] + stalls).stdout != run.stdout)
    }

    @Test func badStallOptionsAreErrorsSayingWhatToDo() throws {
        let db = try database.get()
        let high = try Binary.run(["replay", "--db", db, "--stalls", "1000"])
        #expect(high.status == 2 && high.stderr.contains("--stalls"), "\(high.stderr)")
        let alone = try Binary.run(["report", "--db", db, "--seed", "3"])
        #expect(alone.status == 2 && alone.stderr.contains("applies only with --stalls"), "\(alone.stderr)")
        let file = try Binary.temporaryDirectory().appendingPathComponent("hangs.json")
        try #"{"buckets": [{"lower_ms": 500, "upper_ms": 250, "per_hour": 1}]}"#.write(to: file, atomically: true, encoding: .utf8)
        let bad = try Binary.run(["replay", "--db", db, "--stalls", "5", "--hangs", file.path])
        #expect(bad.status != 0 && bad.stderr.contains(file.path) && bad.stderr.contains("buckets[0].upper_ms"), "\(bad.stderr)")
        try #"{"buckets": [{"lower_ms": 250, "upper_ms": 500, "per_hour": 2}]}"#.write(to: file, atomically: true, encoding: .utf8)
        let good = try Binary.run(["replay", "--db", db, "--stalls", "5", "--hangs", file.path, "--format", "csv"])
        #expect(good.status == 0, "\(good.stderr)")
    }
}
