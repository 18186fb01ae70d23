import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// A fresh database holding `pressdb generate` output for `generate` options, ingested (and so
/// replayed under each session's own configuration). The tests of this suite draw the variant per
/// session (`--assign session`), and compare them with `--unit session`, as they were written for.
/// Also used by SweepCommandTests.
func database(_ generate: [String]) throws -> String {
    let dir = try Binary.temporaryDirectory()
    let db = dir.appendingPathComponent("c.sqlite").path
    let log = try Binary.run(["generate"] + generate)
    #expect(log.status == 0, "\(log.stderr)")
    let ingest = try Binary.run(["ingest", "--db", db, "--quiet"], stdin: log.stdout)
    #expect(ingest.status == 0, "\(ingest.stderr)")
    return db
}

private func jsonRows(_ text: String) throws -> [[String: Any]] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
}

private func row(_ rows: [[String: Any]], _ metric: String) throws -> [String: Any] {
    try #require(rows.first { $0["metric"] as? String == metric })
}

@Suite struct CompareCommandTests {
    // A known difference: B's fingers drag out 0.125 of the time instead of 0.025
    // (docs/generator.md), and a drag-out beyond the retention margin is a touchUpOutside, a
    // cancel. So B's cancel rate is higher by construction, and compare must say "worse".
    @Test func findsAKnownDifferenceInDragOuts() throws {
        let db = try database(["--sessions", "4000", "--seed", "21", "--variants", "A=spring-press,B=spring-press",
                               "--effect", "B:drag_out=+0.10", "--assign", "session"])
        let r = try Binary.run(["compare", "A", "B", "--unit", "session", "--db", db, "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try jsonRows(r.stdout)
        #expect(rows.count == 11)
        let cancel = try row(rows, "cancel_rate")
        #expect(cancel["verdict"] as? String == "worse")
        #expect(try #require(cancel["p_value"] as? Double) < 0.05)
        #expect(try #require(cancel["p_adjusted"] as? Double) < 0.05)
        #expect(try #require(cancel["diff"] as? Double) > 0)
        #expect(try #require(cancel["diff_low"] as? Double) > 0)
        #expect(try #require(cancel["b"] as? Double) > (cancel["a"] as? Double ?? 1))
        #expect((cancel["n_a"] as? Int ?? 0) + (cancel["n_b"] as? Int ?? 0) == 4000)
        let tap = try row(rows, "tap_rate")
        #expect(tap["verdict"] as? String == "worse")       // fewer taps
        // The table says the same in words, with the health lines above it.
        let table = try Binary.run(["compare", "A", "B", "--unit", "session", "--db", db, "--metric", "cancel_rate"])
        #expect(table.stdout.contains("sample ratio"))
        let line = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("cancel_rate") })
        #expect(line.contains("worse"))
    }

    // The note under the table explains what the rows shown need: cancel_rate alone (sessions
    // here) says nothing of latencies, percentiles or tap_rate; every metric explains them all.
    @Test func theNoteUnderTheTableFollowsTheMetricsShown() throws {
        let db = try database(["--sessions", "600", "--seed", "5", "--variants", "A=spring-press,B=spring-press",
                               "--assign", "session"])
        let one = try Binary.run(["compare", "A", "B", "--unit", "session", "--db", db, "--metric", "cancel_rate"])
        #expect(one.status == 0, "\(one.stderr)")
        for absent in ["latencies in ms", "tap_rate", "Hodges–Lehmann", "p90 rows", "Feedback latency covers", "means"] {
            #expect(!one.stdout.contains(absent), "\(absent) in\n\(one.stdout)")
        }
        #expect(one.stdout.contains("Lower is better for every metric shown."))
        #expect(one.stdout.contains("Rates need p < α"))
        let all = try Binary.run(["compare", "A", "B", "--unit", "session", "--db", db]).stdout.replacingOccurrences(of: "\n", with: " ")
        for present in ["latencies in ms", "but tap_rate", "Hodges–Lehmann", "p90 rows", "Feedback latency covers",
                        "Rates and means need"] {
            #expect(all.contains(present), "\(present) missing")
        }
    }

    // Every format carries the same numbers: CSV parsed back equals JSON; Markdown has a row per
    // metric; HTML has both forest plots, the table, and parses as XML.
    @Test func formatsParseBack() throws {
        let db = try database(["--sessions", "1500", "--seed", "4", "--variants", "A=spring-press,B=longpress-safe-area",
                               "--assign", "session"])
        let json = try jsonRows(try Binary.run(["compare", "A", "B", "--unit", "session", "--db", db, "--format", "json"]).stdout)
        let csvText = try Binary.run(["compare", "A", "B", "--unit", "session", "--db", db, "--format", "csv"]).stdout
        let csv = csvText.split(separator: "\n").map(String.init)
        let header = csv[0].split(separator: ",").map(String.init)
        #expect(header == ["metric", "a", "a_low", "a_high", "b", "b_low", "b_high", "diff", "diff_low", "diff_high",
                           "rel_diff", "rel_diff_low", "rel_diff_high", "p_value", "p_adjusted", "test", "verdict", "n_a", "n_b",
                           "unit", "units_a", "units_b", "se", "mde", "mde_rel", "units_needed", "sequential",
                           "perceptible"])
        #expect(csv.count == json.count + 1)
        for (i, line) in csv.dropFirst().enumerated() {
            // Test names hold no comma or quote, so a plain split reads the line back.
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(fields.count == header.count)
            for name in ["a", "b", "diff", "diff_low", "diff_high", "p_value"] {
                let k = try #require(header.firstIndex(of: name))
                if let expected = json[i][name] as? Double {
                    // JSONSerialization on Linux may round the last digit; the CSV text is shortest round-trip.
                    #expect(abs(try #require(Double(fields[k])) - expected) <= 1e-15 * max(1, abs(expected)))
                } else {
                    #expect(fields[k].isEmpty)
                }
            }
            #expect(fields[header.firstIndex(of: "verdict")!] == json[i]["verdict"] as? String)
        }
        let md = try Binary.run(["compare", "A", "B", "--unit", "session", "--db", db, "--format", "markdown"]).stdout
        let tableLines = md.split(separator: "\n").filter { $0.hasPrefix("|") }
        #expect(tableLines.count == json.count + 2)
        #expect(tableLines[0].contains("| rel_diff_low |"))
        let dir = try Binary.temporaryDirectory()
        let out = dir.appendingPathComponent("c.html").path
        let html = try Binary.run(["compare", "A", "B", "--unit", "session", "--db", db, "--format", "html", "--out", out])
        #expect(html.status == 0 && html.stdout.isEmpty)
        let page = try String(contentsOfFile: out, encoding: .utf8)
        #expect(page.contains("Rates: B − A") && page.contains("Latency: B − A"))
        #expect(page.contains("<table>") && page.contains("cancel_rate"))
        #expect(page.hasPrefix("<!DOCTYPE html>\n"))
        #expect(XMLParser(data: Data(page.dropFirst("<!DOCTYPE html>\n".count).utf8)).parse())
    }

    // A 70/30 split compared against the default 50/50 expectation: sample ratio mismatch. The
    // same database with --split 70/30 is healthy.
    @Test func flagsASampleRatioMismatch() throws {
        let db = try database(["--sessions", "1000", "--seed", "8", "--variants", "A=spring-press,B=spring-press",
                               "--split", "70/30", "--assign", "session"])
        let skewed = try Binary.run(["compare", "A", "B", "--unit", "session", "--db", db])
        #expect(skewed.status == 0)
        #expect(skewed.stdout.contains("warning: sample ratio mismatch: A has"))
        #expect(skewed.stdout.contains("MISMATCH"))
        let page = try Binary.run(["compare", "A", "B", "--unit", "session", "--db", db, "--format", "html"]).stdout
        #expect(page.contains("banner-warning") && page.contains("sample ratio mismatch"))
        let csv = try Binary.run(["compare", "A", "B", "--unit", "session", "--db", db, "--format", "csv"])
        #expect(csv.stderr.contains("compare: warning: sample ratio mismatch"))
        let intended = try Binary.run(["compare", "A", "B", "--unit", "session", "--db", db, "--split", "70/30"])
        #expect(!intended.stdout.contains("sample ratio mismatch"))
        #expect(intended.stdout.contains("no mismatch"))
    }

    // Paired: the McNemar discordant counts equal the counts computed here from the per-session
    // rows of `pressdb replay --as CONFIG --format json` under each configuration.
    @Test func pairedDiscordantCountsMatchPerSessionReplays() throws {
        let db = try database(["--sessions", "600", "--seed", "13", "--assign", "session"])
        let r = try Binary.run(["compare", "spring-press", "longpress-safe-area", "--paired", "--db", db, "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("compare: paired 600 of 600 sessions"))
        let rows = try jsonRows(r.stdout)
        func replay(_ config: String) throws -> [String: [String: Any]] {
            let out = try Binary.run(["replay", "--as", config, "--db", db, "--format", "json"])
            #expect(out.status == 0, "\(out.stderr)")
            return Dictionary(uniqueKeysWithValues: try jsonRows(out.stdout).map { ($0["session"] as! String, $0) })
        }
        let a = try replay("spring-press"), b = try replay("longpress-safe-area")
        #expect(a.count == 600 && b.count == 600)
        func fired(_ s: [String: Any]) -> Bool { s["action_fired"] as? Bool ?? (s["action_fired"] as? Int == 1) }
        let events: [String: ([String: Any]) -> Bool] = [
            "tap_rate": { $0["outcome"] as? String == "tap" },
            "cancel_rate": { $0["outcome"] as? String == "cancel" },
            "scroll_abort_rate": { $0["outcome"] as? String == "scroll_abort" },
            "false_action_rate": { fired($0) && $0["outcome"] as? String != "tap" },
            "unseen_rate": { $0["outcome"] as? String != "scroll_abort" && $0["feedback_latency_ms"] is NSNull },
        ]
        for (metric, event) in events {
            var aOnly = 0, bOnly = 0
            for (session, ra) in a {
                let rb = try #require(b[session])
                if event(ra) && !event(rb) { aOnly += 1 }
                if !event(ra) && event(rb) { bOnly += 1 }
            }
            let got = try row(rows, metric)
            #expect(got["a_only"] as? Int == aOnly, "\(metric)")
            #expect(got["b_only"] as? Int == bOnly, "\(metric)")
            #expect(got["n_a"] as? Int == 600)
        }
        // The table mode prints the pairing line and a McNemar test.
        let table = try Binary.run(["compare", "spring-press", "longpress-safe-area", "--paired", "--db", db, "--where", "variant=A"])
        #expect(table.stdout.contains("paired ") && table.stdout.contains("(variant=A)"))
        #expect(table.stdout.contains("McNemar"))
    }

    @Test func exitStatusesAndMessages() throws {
        let db = try database(["--sessions", "300", "--seed", "2", "--assign", "session"])
        let missing = try Binary.run(["compare", "A", "Z", "--db", db])
        #expect(missing.status == 4)
        let message = missing.stderr.trimmingCharacters(in: .newlines)
        #expect(!message.contains("\n"))
        #expect(message.hasPrefix("pressdb compare: no sessions for variant 'Z'; variants with sessions: A ("))
        #expect(try Binary.run(["compare", "A", "B", "--unit", "session", "--db", db, "--metric", "latency"]).status == 2)
        #expect(try Binary.run(["compare", "A", "B", "--unit", "session", "--db", db, "--split", "50"]).status == 2)
        #expect(try Binary.run(["compare", "A", "B", "--unit", "session", "--db", db, "--correction", "bonferroni"]).status == 2)
        #expect(try Binary.run(["compare", "A", "B", "--unit", "session", "--db", db, "--paired"]).status == 2)   // not configurations
        #expect(try Binary.run(["compare", "A", "B", "--unit", "session", "--db", db + ".none"]).status == 4)
        // Too few sessions (about 150 per arm is fine; with --where screen=feed about 25): no verdict.
        let few = try Binary.run(["compare", "A", "B", "--unit", "session", "--db", db, "--where", "screen=feed", "--format", "json"])
        #expect(few.status == 0)
        #expect(try jsonRows(few.stdout).allSatisfy { $0["verdict"] as? String == "too few data" })
        #expect(few.stderr.contains("too few sessions"))
    }
}
