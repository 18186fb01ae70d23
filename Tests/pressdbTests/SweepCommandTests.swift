// `pressdb sweep` end to end: a point's numbers against `replay --as` + `report --as` of the
// same configuration added by hand, a grid whose effect is known in closed form, the stored
// sweep shown and exported again, and the command-line errors.
import Foundation
import Testing
import PressTestSupport

/// A fresh database holding `pressdb generate` output, ingested (CompareTests' `database`), and
/// its folder.
private func generatedDatabase(_ generate: [String]) throws -> (dir: URL, db: String) {
    let db = try database(generate)
    return (URL(fileURLWithPath: db).deletingLastPathComponent(), db)
}

private func rows(_ text: String) throws -> [[String: Any]] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text.prefix(300))")
}

/// A JSON number as a Double, nil for null.
private func number(_ v: Any?) -> Double? { (v as? NSNumber)?.doubleValue }

/// The summary report's columns after grp and variant.
private let summaryColumns = ["sessions", "taps", "cancels", "scroll_aborts", "tap_rate", "tap_rate_low", "tap_rate_high",
                              "cancel_rate", "cancel_rate_low", "cancel_rate_high", "scroll_abort_rate", "scroll_abort_rate_low",
                              "scroll_abort_rate_high", "false_actions", "unseen_presses", "feedback_p50_ms", "feedback_p90_ms",
                              "feedback_p99_ms", "share_over_100ms", "action_p50_ms", "action_p90_ms", "release_jump_pt_max"]

@Suite struct SweepCommandTests {
    /// Sweeps, then checks every point against the configuration exported, added with
    /// `pressdb config add`, replayed with `replay --as` and reported with `report --as`: the
    /// same counts, rates, Wilson intervals and percentiles, exactly.
    func checkExactness(_ db: String, _ dir: URL, base: String, vary: [String], variant: String) throws {
        let sweep = try Binary.run(["sweep", "--db", db, "--base", base, "--where", "variant=\(variant)", "--format", "json", "-q"]
                                   + vary.flatMap { ["--vary", $0] })
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let points = try rows(sweep.stdout)
        let sweepID = try Self.lastSweepID(db)
        for row in points {
            let point = try #require(row["point"] as? Int)
            guard point > 0 else { continue }   // the base's row
            let exported = try Binary.run(["sweep", "--db", db, "--export-config", "\(sweepID):\(point)"])
            #expect(exported.status == 0, "\(exported.stderr)")
            let file = dir.appendingPathComponent("p\(point).json")
            try exported.stdout.write(to: file, atomically: true, encoding: .utf8)
            let added = try Binary.run(["config", "add", file.path, "--db", db, "-q"])
            #expect(added.status == 0, "\(added.stderr)")
            let name = try #require((try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [String: Any])?["name"] as? String)
            let replay = try Binary.run(["replay", "--db", db, "--as", name, "--quiet"])
            #expect(replay.status == 0, "\(replay.stderr)")
            let report = try Binary.run(["report", "--db", db, "--as", name, "--where", "variant=\(variant)", "--format", "json"])
            #expect(report.status == 0, "\(report.stderr)")
            let expected = try rows(report.stdout)
            #expect(expected.count == 1)
            for column in summaryColumns {
                #expect(number(row[column]) == number(expected.first?[column]), "point \(point) \(column): \(row[column] ?? "nil") vs \(expected.first?[column] ?? "nil")")
            }
        }
    }

    /// The id of the newest stored sweep, from `--show` of a missing one (which lists them).
    static func lastSweepID(_ db: String) throws -> Int {
        let r = try Binary.run(["sweep", "--db", db, "--show", "999999"])
        let list = try #require(r.stderr.components(separatedBy: "stored sweeps: ").last)
        return try #require(list.split(separator: ",").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
    }

    // Animation and action paths on spring-press (the sessions' classification shared by every
    // point), gesture paths on longpress-safe-area (classified per point).
    @Test func pointsEqualReplayAsAndReportAs() throws {
        let (dir, db) = try generatedDatabase(["--sessions", "1200", "--seed", "17"])
        try checkExactness(db, dir, base: "spring-press", vary: ["pressed_scale=0.9,0.97", "action_delay=0,0.25"], variant: "A")
        try checkExactness(db, dir, base: "longpress-safe-area", vary: ["safe_area=2,null", "minimum_press_duration=0,0.1"],
                           variant: "B")
    }

    // Feedback latency versus the scroll view's touch delay, in closed form. Stationary taps of
    // 0.3 s in a delaying scroll view; press and release animations linear over 0.2 s from 1 to
    // 0.95 and back, on the default 44 × 44 pt control at 3 px/pt. The press shows once
    // |scale − 1| · 22 pt · 3 px/pt ≥ 1 px, i.e. 0.05 · τ/0.2 ≥ 1/66, τ ≥ 0.0606 s after the
    // touch is delivered at the delay d; frames fall at k/60 s, so the first visible frame is
    // k = ⌈60 (d + 0.0606)⌉: 4 frames (66.7 ms) for d = 0, 7 (116.7 ms) for 0.05, 10 (166.7 ms)
    // for 0.1, 13 (216.7 ms) for 0.15. With d = 0.35 the lift (0.3 s) comes first: the touch is
    // delivered at lift, press and release start together and cancel (the same linear curve),
    // and every press is unseen. Turning the delay off delivers at touch-down: 66.7 ms.
    @Test func touchDelayMovesFeedbackAsComputed() throws {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("t.sqlite").path
        var log = #"{"type":"config","name":"linear-press","base":"spring-press","press_animation":{"kind":"uiview-curve","duration":0.2,"curve":"linear"},"release_animation":{"kind":"uiview-curve","duration":0.2,"curve":"linear"}}"# + "\n"
        for i in 0..<12 {
            let t0 = Double(i) * 10
            log += #"{"session":"s\#(i)","t":\#(t0),"phase":"began","x":100,"y":200,"config":"linear-press","container":"scroll","user":"u\#(i % 3)"}"# + "\n"
            log += #"{"session":"s\#(i)","t":\#(t0 + 0.3),"phase":"ended","x":100,"y":200}"# + "\n"
        }
        let ingest = try Binary.run(["ingest", "-", "--db", db, "--quiet"], stdin: log)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let sweep = try Binary.run(["sweep", "--db", db, "--base", "linear-press", "--vary", "container.touch_delay=0,0.05,0.1,0.15,0.35",
                                    "--vary", "container.delays_content_touches=true,false", "--format", "json", "-q"])
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let points = try rows(sweep.stdout).filter { ($0["point"] as? Int ?? 0) > 0 }
        #expect(points.count == 10)
        for row in points {
            let d = try #require(number(row["container.touch_delay"]))
            let delays = try #require(row["container.delays_content_touches"] as? Bool)
            let frames: Double? = !delays ? 4 : [0: 4, 0.05: 7, 0.1: 10, 0.15: 13][d]
            #expect(number(row["sessions"]) == 12)
            if let frames {
                // Latencies are 6-decimal figures (docs/log-format.md, "results"): within 1e-6.
                let p90 = try #require(number(row["feedback_p90_ms"]), "d \(d)")
                #expect(abs(p90 - frames * 1000 / 60) < 1e-6, "d \(d), delays \(delays): \(p90)")
                #expect(number(row["feedback_p50_ms"]).map { abs($0 - p90) < 1e-9 } == true)
                #expect(number(row["unseen_rate"]) == 0)
            } else {
                #expect(row["feedback_p90_ms"] is NSNull && number(row["unseen_rate"]) == 1, "d \(d)")
            }
        }
        // The paired difference of the unseen rate at d = 0.35 against the base (0.15 s, recorded):
        // every pair goes from seen to unseen, +1 with no spread.
        let late = try #require(points.first { number($0["container.touch_delay"]) == 0.35 && $0["container.delays_content_touches"] as? Bool == true })
        #expect(number(late["unseen_rate_diff"]) == 1 && number(late["unseen_rate_diff_low"]) == 1)
        // Lower is better on every default objective: the frontier is the points without a delay
        // (66.7 ms); every delayed point is beaten by them, the unseen ones too.
        let frontier = points.filter { $0["pareto"] as? Bool == true }
        #expect(!frontier.isEmpty && frontier.allSatisfy { abs((number($0["feedback_p90_ms"]) ?? 0) - 4000.0 / 60) < 1e-6 })
    }

    // The Done-when run's shape on a generated database: 24 points, the base, the frontier marked,
    // within 100 columns; --show prints the same again; --export-config gives a configuration.
    @Test func gridTableShowAndExport() throws {
        let (_, db) = try generatedDatabase(["--sessions", "400", "--seed", "3"])
        let args = ["sweep", "--db", db, "--base", "spring-press", "--vary", "press_animation.damping_ratio=0.3:1.0:0.1",
                    "--vary", "pressed_scale=0.9,0.95,0.97"]
        // On a 100-column terminal every column fits: the point, 2 varied values, the 5 default
        // objectives and pareto, the headers shortened ("fb p90", "unseen%").
        let table = try PseudoTerminal.run(Binary.url, args, columns: 100, environment: ["NO_COLOR": "1"])
        #expect(table.status == 0, "\(table.piped)")
        let lines = table.terminal.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("base ") })
        #expect(lines.filter { $0.first?.isNumber == true }.count == 24)
        #expect(lines.contains { $0.hasSuffix("★") })
        #expect(lines.allSatisfy { $0.count <= 100 }, "\(lines.map(\.count))")
        #expect(lines.contains { $0.contains("fb p90") && $0.contains("unseen%") && $0.hasSuffix("pareto") })
        #expect(table.piped.contains("stored as sweep 1"))
        // On 60 columns the last objectives are left out and named under the table; ★ stays.
        let narrow = try PseudoTerminal.run(Binary.url, ["sweep", "--db", db, "--show", "1"], columns: 60,
                                            environment: ["NO_COLOR": "1"])
        let narrowLines = narrow.terminal.split(separator: "\n")
        #expect(narrow.status == 0 && narrowLines.allSatisfy { $0.count <= 60 }, "\(narrow.terminal)")
        #expect(narrowLines.contains { $0.hasSuffix("★") })
        #expect(narrow.terminal.contains("false_actions") && narrow.terminal.contains("--wide shows all"))
        // --columns chooses by the CSV names.
        let chosen = try Binary.run(["sweep", "--db", db, "--show", "1", "--columns", "point,pareto,unseen_rate"])
        #expect(chosen.status == 0 && chosen.stdout.split(separator: "\n").dropFirst().first == "point  pareto  unseen_rate")
        let json = try Binary.run(args + ["--format", "json", "-q"])
        let shown = try Binary.run(["sweep", "--db", db, "--show", "2", "--format", "json", "-q"])
        #expect(shown.status == 0 && shown.stdout == json.stdout)
        let first = try rows(json.stdout)
        #expect(first.count == 25 && first[0]["point"] as? Int == 0 && first[1]["press_animation.damping_ratio"] as? Double == 0.3)
        let keys = try #require(json.stdout.split(separator: "\n").dropFirst(2).first)
        #expect(keys.hasPrefix(#"  {"point":1,"press_animation.damping_ratio":0.3,"pressed_scale":0.9,"sessions":400,"taps":"#))
        #expect(keys.hasSuffix(#""pareto":false},"#) || keys.hasSuffix(#""pareto":true},"#))
        let exported = try Binary.run(["sweep", "--db", db, "--export-config", "2:7"])
        #expect(exported.status == 0)
        #expect(exported.stdout.contains(#""damping_ratio":0.5"#) && exported.stdout.contains(#""pressed_scale":0.9"#)
                && exported.stdout.contains(#""name":"spring-press@sweep2.7""#))
        // --top ranks; --show keeps the ranking.
        let top = try Binary.run(args + ["--top", "3", "--weights", "feedback_p90_ms=1,unseen_rate=2"])
        #expect(top.status == 0, "\(top.stderr)")
        #expect(top.stdout.split(separator: "\n").filter { $0.hasPrefix("1. ") || $0.hasPrefix("2. ") || $0.hasPrefix("3. ") }.count == 3)
        let csv = try Binary.run(["sweep", "--db", db, "--show", "3", "--format", "csv", "-q"])
        #expect(csv.stdout.split(separator: "\n").first?.hasSuffix(",score,rank,pareto") == true)
    }

    // Bad input is refused before anything is replayed, naming the part at fault (exit 2), and
    // nothing is stored; a missing database or sweep is "nothing to work on" (exit 4).
    @Test func refusals() throws {
        let (dir, db) = try generatedDatabase(["--sessions", "30", "--seed", "5"])
        func refused(_ args: [String], _ message: String, status: Int32 = 2) throws {
            let r = try Binary.run(["sweep", "--db", db] + args)
            #expect(r.status == status, "\(args): \(r.stderr)")
            #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
        }
        let base = ["--base", "spring-press"]
        try refused(base + ["--vary", "press_animation.damping_ratio=0:1:0.1"],
                    "pressdb sweep: --vary press_animation.damping_ratio=0:1:0.1: the value 0 is refused: press_animation.damping_ratio: expected a number > 0, got 0")
        try refused(base + ["--vary", "pressed_scale=0.9,-1"], "--vary pressed_scale=0.9,-1: the value -1 is refused: pressed_scale: expected a number > 0, got -1")
        try refused(base + ["--vary", "safe_area=2,5"],
                    #"--vary safe_area=2,5: safe_area: applies to gesture "long-press" only; this configuration's gesture is "control""#)
        try refused(base + ["--vary", "pressed_scal=0.9"], "--vary pressed_scal=0.9: pressed_scal: no such field; the paths of spring-press:")
        try refused(base + ["--vary", "pressed_scale=0.9:0.8:0.01"], "--vary pressed_scale=0.9:0.8:0.01: the start 0.9 of '0.9:0.8:0.01' is above its end 0.8")
        try refused(base + ["--vary", "pressed_scale"], "--vary pressed_scale: expected PATH=SPEC")
        try refused(base + ["--vary", "container.touch_delay=-1,0"], "--vary container.touch_delay=-1,0: the value -1 is refused: container.touch_delay: expected a number ≥ 0, got -1")
        try refused(base + ["--vary", "container.hysteresis=yes"], "the value \"yes\" is refused: container.hysteresis: expected a number ≥ 0, got \"yes\"")
        try refused(["--base", "nope", "--vary", "pressed_scale=0.9"], "no configuration named 'nope'")
        try refused(base, "--base needs at least one --vary PATH=SPEC")
        try refused(["--vary", "pressed_scale=0.9"], "--vary needs --base CONFIG")
        try refused(base + ["--vary", "pressed_scale=0.9", "--objective", "speed"], "--objective speed: not a metric of a sweep point; objectives:")
        try refused(base + ["--vary", "pressed_scale=0.9", "--weights", "tap_rate=1"], "--weights rank the points for --top K")
        try refused(base + ["--vary", "pressed_scale=0.9", "--top", "2", "--weights", "tap_rate=1"], "--weights tap_rate=1: tap_rate is not an objective")
        try refused(base + ["--vary", "pressed_scale=0.9", "--where", "outcome=tap"], "--where: 'outcome' is not one of")
        try refused(base + ["--vary", "pressed_scale=0.9", "--where", "variant=Z"], "no stored session matches variant=Z", status: 4)
        try refused(base + ["--vary", "pressed_scale=0.9", "--seed", "3"], "--seed goes with --sample N")
        try refused(["--show", "4"], "no sweep 4 is stored; none is", status: 4)
        try refused(["--export-config", "1"], "--export-config needs ID:POINT")
        // Nothing was stored by the refusals.
        #expect(try Binary.run(["sweep", "--db", db, "--show", "1"]).status == 4)
        let missing = try Binary.run(["sweep", "--db", dir.appendingPathComponent("none.sqlite").path] + base + ["--vary", "pressed_scale=0.9"])
        #expect(missing.status == 4 && missing.stderr.contains("no database at"))
    }
}

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite struct SweepPageTests {
    // The HTML page of a two-parameter sweep: well-formed, self-contained, one heatmap with every
    // objective's panel and the frontier outlined in each, the scatters, the typical tap.
    @Test func pageHoldsTheHeatmapsAndTheFrontier() throws {
        let (dir, db) = try generatedDatabase(["--sessions", "300", "--seed", "8"])
        let page = dir.appendingPathComponent("s.html")
        let r = try Binary.run(["sweep", "--db", db, "--base", "spring-press", "--vary", "press_animation.damping_ratio=0.4,0.7,1",
                                "--vary", "pressed_scale=0.9,0.97", "--format", "html", "--out", page.path, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(XMLParser(data: Data(html.utf8)).parse())
        for forbidden in ["<script", "http://", "https://", "<link", "<img"] { #expect(!html.lowercased().contains(forbidden)) }
        let json = try rows(try Binary.run(["sweep", "--db", db, "--show", "1", "--format", "json", "-q"]).stdout)
        let frontier = json.filter { $0["pareto"] as? Bool == true }.count
        #expect(frontier >= 1)
        #expect(html.components(separatedBy: "class=\"pc-heat-panel\"").count - 1 == 5)
        #expect(html.components(separatedBy: "class=\"pc-heat-frontier\"").count - 1 == 5 * frontier + 1)
        #expect(html.contains("Scale during a typical tap: the base and the chosen points"))
        #expect(html.contains("The frontier, objective against objective") || html.contains("Equal at every point"))
        // A rate's axis is in % as the tables are (the default objectives hold unseen_rate).
        #expect(html.contains("unseen_rate against") && html.contains("unseen_rate (%, lower is better)"))
    }
}
