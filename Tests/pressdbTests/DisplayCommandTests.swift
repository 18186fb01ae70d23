import Foundation
import Testing

@Suite struct DisplayCommandTests {
    /// A generated log, and the same log with `"display": NAME` on every `began` record.
    private func logs(in dir: URL, display: String) throws -> (plain: URL, named: URL) {
        let g = try Binary.run(["generate", "--sessions", "400", "--seed", "5"])
        #expect(g.status == 0, "\(g.stderr)")
        return try sessionLogs(g.stdout, in: dir, display: display)
    }

    // `--display NAME` replays every session on NAME (printed, not stored); ingesting the same
    // log with "display": NAME stores exactly those rows. Both are read as `replay` prints them.
    @Test func counterfactualDisplayReplayEqualsIngestingWithTheDisplaySet() throws {
        let dir = try Binary.temporaryDirectory()
        let (plain, named) = try logs(in: dir, display: "iphone-promotion")
        for (log, db) in [(plain, "plain.sqlite"), (named, "named.sqlite")] {
            let r = try Binary.run(["ingest", log.lastPathComponent, "--db", db, "--quiet"], directory: dir)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let counterfactual = try Binary.run(["replay", "--db", "plain.sqlite", "--display", "iphone-promotion", "--format", "csv"],
                                            directory: dir)
        #expect(counterfactual.status == 0, "\(counterfactual.stderr)")
        #expect(counterfactual.stderr.contains("on iphone-promotion"), "\(counterfactual.stderr)")
        #expect(counterfactual.stderr.contains("printed, not stored"), "\(counterfactual.stderr)")
        let own = try Binary.run(["replay", "--db", "named.sqlite", "--format", "csv"], directory: dir)
        #expect(own.status == 0, "\(own.stderr)")
        #expect(counterfactual.stdout == own.stdout)
        #expect(counterfactual.stdout.split(separator: "\n").count == 401)
        // The counterfactual stored nothing: the plain database keeps its 60 Hz results, which
        // differ from the ProMotion ones.
        let stored = try Binary.run(["replay", "--db", "plain.sqlite", "--format", "csv"], directory: dir)
        #expect(stored.stdout != own.stdout)
        #expect(try rows(dir.appendingPathComponent("named.sqlite"),
                         "SELECT count(*) FROM sessions WHERE display = 'iphone-promotion'") == [["400"]])
    }

    // A session naming a profile pressdb does not know is not replayed; adding the profile
    // replays it.
    @Test func anUnknownDisplayIsReportedAndAddingItReplaysTheSessions() throws {
        let dir = try Binary.temporaryDirectory()
        let (_, named) = try logs(in: dir, display: "lab-panel")
        let ingest = try Binary.run(["ingest", named.lastPathComponent, "--db", "d.sqlite"], directory: dir)
        #expect(ingest.stderr.contains(#"display "lab-panel""#), "\(ingest.stderr)")
        let db = dir.appendingPathComponent("d.sqlite")
        #expect(try rows(db, "SELECT count(*) FROM results") == [["0"]])
        try #"{"name":"lab-panel","refresh_rate":[30,90],"touch_sampling_rate":180,"pipeline_frames":2,"density":2}"#
            .write(to: dir.appendingPathComponent("lab.json"), atomically: true, encoding: .utf8)
        let add = try Binary.run(["displays", "add", "lab.json", "--db", "d.sqlite"], directory: dir)
        #expect(add.status == 0, "\(add.stderr)")
        #expect(try rows(db, "SELECT count(*) FROM results WHERE feedback_photon_ms IS NOT NULL OR feedback_latency_ms IS NULL")
                == [["400"]])
        let list = try Binary.run(["displays", "--db", "d.sqlite", "--format", "csv"], directory: dir)
        #expect(list.status == 0)
        // Built-in first, then the added one: its input delay is 1/360 + 1/180 s = 8.3333 ms, its
        // pipeline 2/90 s = 22.2222 ms.
        let names = list.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[0] }
        #expect(names == ["iphone-60hz", "iphone-promotion", "ipad-promotion", "lab-panel"])
        #expect(list.stdout.contains("lab-panel,90,30,180,per_frame,2,2,8.333333333333334,22.22222222222222,stored,400"),
                "\(list.stdout)")
        // A built-in name cannot be redefined; a bad field is named.
        try #"{"name":"iphone-60hz","refresh_rate":60,"touch_sampling_rate":60,"pipeline_frames":1,"density":2}"#
            .write(to: dir.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let bad = try Binary.run(["displays", "add", "bad.json", "--db", "d.sqlite"], directory: dir)
        #expect(bad.status == 1 && bad.stderr.contains("built-in display profile"), "\(bad.stderr)")
        try #"{"name":"x","refresh_rate":60,"touch_sampling_rate":0,"pipeline_frames":1,"density":2}"#
            .write(to: dir.appendingPathComponent("zero.json"), atomically: true, encoding: .utf8)
        let zero = try Binary.run(["displays", "add", "zero.json", "--db", "d.sqlite"], directory: dir)
        #expect(zero.status == 1 && zero.stderr.contains("touch_sampling_rate: must be from 1 to 1000 Hz"), "\(zero.stderr)")
    }

    // Without a database, the built-in profiles; a session naming none is on iphone-60hz.
    @Test func theBuiltInProfilesAreListedWithoutADatabase() throws {
        let dir = try Binary.temporaryDirectory()
        let r = try Binary.run(["displays", "--format", "csv", "--db", "none.sqlite"], directory: dir)
        #expect(r.status == 0, "\(r.stderr)")
        // iphone-60hz: input delay 1/240 + 1/120 s = 12.5 ms, pipeline 1/60 s.
        #expect(r.stdout.contains("iphone-60hz,60,60,120,per_frame,1,3,12.5,16.666666666666668,built-in,"))
        #expect(r.stdout.contains("iphone-promotion,120,10,120,per_frame,1,3,8.333333333333334,8.333333333333334,built-in,"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("none.sqlite").path))
    }
}

@Suite struct DisplaySweepTests {
    private func rows(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text.prefix(300))")
    }

    // The sweep's photon columns for the base equal what `report latency --as` computes in SQL
    // from the stored results of the same sessions (two independent paths); with --display the
    // sweep replays on that profile, and the objective can be the share past the instant bound.
    @Test func sweepPhotonColumnsMatchTheReportAndFollowTheDisplay() throws {
        let db = try database(["--sessions", "600", "--seed", "8", "--variants", "A=spring-press"])
        let sweep = try Binary.run(["sweep", "--db", db, "--base", "spring-press", "--vary", "pressed_scale=0.9,0.95",
                                    "--objective", "share_photon_over_100ms,feedback_photon_p90_ms", "--format", "json", "-q"])
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let base = try #require(try rows(sweep.stdout).first { $0["point"] as? Int == 0 })
        let report = try Binary.run(["report", "latency", "--db", db, "--as", "spring-press", "--format", "json"])
        #expect(report.status == 0, "\(report.stderr)")
        let latency = try #require(try rows(report.stdout).first)
        #expect((base["share_photon_over_100ms"] as? NSNumber)?.doubleValue
                == (latency["share_photon_over_100ms"] as? NSNumber)?.doubleValue)
        #expect((base["feedback_photon_p90_ms"] as? NSNumber)?.doubleValue
                == (latency["feedback_photon_p90_ms"] as? NSNumber)?.doubleValue)
        let promotion = try Binary.run(["sweep", "--db", db, "--base", "spring-press", "--vary", "pressed_scale=0.9,0.95",
                                        "--display", "iphone-promotion", "--format", "json", "-q"])
        #expect(promotion.status == 0, "\(promotion.stderr)")
        let promoted = try #require(try rows(promotion.stdout).first { $0["point"] as? Int == 0 })
        // On 120 Hz a press seen at 60 Hz is seen no later (the 60 Hz frames are among the 120 Hz
        // ones) and every other photon component is smaller (half a frame and one frame of
        // 8.3 instead of 16.7 ms); only presses seen at 120 Hz alone could pull the p90 up, and
        // these sessions (fixed by their seed) have too few for that.
        let p60 = try #require((base["feedback_photon_p90_ms"] as? NSNumber)?.doubleValue)
        let p120 = try #require((promoted["feedback_photon_p90_ms"] as? NSNumber)?.doubleValue)
        #expect(p120 < p60)
        let unknown = try Binary.run(["sweep", "--db", db, "--base", "spring-press", "--vary", "pressed_scale=0.9",
                                      "--display", "crt", "-q"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no display profile named 'crt'"), "\(unknown.stderr)")
    }

    /// The summary's counts and latency percentiles (the columns a sweep point shares with it).
    private static let summaryColumns = ["sessions", "taps", "cancels", "scroll_aborts", "false_actions", "unseen_presses",
                                         "feedback_p50_ms", "feedback_p90_ms", "feedback_p99_ms", "share_over_100ms",
                                         "action_p50_ms", "action_p90_ms", "release_jump_pt_max"]

    private func number(_ row: [String: Any], _ key: String) -> Double? { (row[key] as? NSNumber)?.doubleValue }

    // `--vary display=…` replays every session of a point on that profile. Its point equals two
    // other paths through the code: `report --display NAME --as` (every session replayed on NAME
    // into a partial) for the summary, and `report latency --as` over the same log ingested with
    // "display": NAME (stored results, percentiles in SQL) for the photon latencies. The other way
    // round, a point on iphone-60hz of sessions recorded on ProMotion equals the plain log's report.
    @Test func sweepPointOnADisplayEqualsTheReportOnThatDisplay() throws {
        let dir = try Binary.temporaryDirectory()
        let g = try Binary.run(["generate", "--sessions", "500", "--seed", "12", "--variants", "A=spring-press"])
        #expect(g.status == 0, "\(g.stderr)")
        let (plain, named) = try sessionLogs(g.stdout, in: dir, display: "iphone-promotion")
        for (log, db) in [(plain, "plain.sqlite"), (named, "named.sqlite")] {
            let r = try Binary.run(["ingest", log.lastPathComponent, "--db", db, "--quiet"], directory: dir)
            #expect(r.status == 0, "\(r.stderr)")
        }
        func sweep(_ db: String) throws -> [Int: [String: Any]] {
            let r = try Binary.run(["sweep", "--db", db, "--base", "spring-press", "--vary", "display=iphone-60hz,iphone-promotion",
                                    "--format", "json", "-q"], directory: dir)
            #expect(r.status == 0, "\(r.stderr)")
            return Dictionary(uniqueKeysWithValues: try rows(r.stdout).map { ($0["point"] as? Int ?? -1, $0) })
        }
        func single(_ args: [String]) throws -> [String: Any] {
            let r = try Binary.run(args + ["--format", "json"], directory: dir)
            #expect(r.status == 0, "\(r.stderr)")
            let all = try rows(r.stdout)
            #expect(all.count == 1, "\(r.stdout.prefix(300))")
            return try #require(all.first)
        }
        let onPlain = try sweep("plain.sqlite"), onNamed = try sweep("named.sqlite")
        let promoted = try #require(onPlain[2]), sixty = try #require(onNamed[1])
        #expect(promoted["display"] as? String == "iphone-promotion" && sixty["display"] as? String == "iphone-60hz")

        let counterfactual = try single(["report", "--db", "plain.sqlite", "--display", "iphone-promotion", "--as", "spring-press"])
        let stored60 = try single(["report", "--db", "plain.sqlite", "--as", "spring-press"])
        #expect(number(counterfactual, "sessions") == 500 && number(stored60, "sessions") == 500)
        for c in Self.summaryColumns {
            #expect(number(promoted, c) == number(counterfactual, c), "\(c)")
            #expect(number(sixty, c) == number(stored60, c), "\(c)")
        }
        // ProMotion moves some feedback: the check above compared different numbers, not 60 Hz twice.
        #expect(number(counterfactual, "feedback_p90_ms") != number(stored60, "feedback_p90_ms"))

        let photonPromotion = try single(["report", "latency", "--db", "named.sqlite", "--as", "spring-press"])
        let photon60 = try single(["report", "latency", "--db", "plain.sqlite", "--as", "spring-press"])
        for c in ["feedback_photon_p90_ms", "share_photon_over_100ms"] {
            #expect(number(promoted, c) == number(photonPromotion, c), "\(c)")
            #expect(number(sixty, c) == number(photon60, c), "\(c)")
        }
        // Each database's base replays the sessions on their own display: point 1 of the plain log
        // (iphone-60hz, the default) and point 2 of the named one repeat their base.
        for c in Self.summaryColumns + ["feedback_photon_p90_ms"] {
            #expect(number(try #require(onPlain[1]), c) == number(try #require(onPlain[0]), c), "\(c)")
            #expect(number(try #require(onNamed[2]), c) == number(try #require(onNamed[0]), c), "\(c)")
        }
    }

    // The display points of a grid, worked by hand. Stationary 0.3 s taps outside a scroll view;
    // press animation linear over 0.18 s from 1 to 0.95, on the default 44 × 44 pt control. An
    // edge moves 0.05 · (τ/0.18) · 22 pt after τ s; it shows once that reaches a device pixel:
    // 1/3 pt at 3 px/pt (τ ≥ 0.0545 s), 1/2 pt at the iPad's 2 px/pt (τ ≥ 0.0818 s). The first
    // frame k/f at or past it: 60 Hz k = 4 (66.67 ms), 120 Hz k = 7 (58.33 ms), iPad 120 Hz
    // k = 10 (83.33 ms). On the glass (docs/press-model.md §6) add half the 120 Hz sampling
    // period (4.17 ms), half a frame of delivery and one frame of pipeline: 4.17 + 8.33 + 66.67 +
    // 16.67 = 95.83 ms at 60 Hz; 4.17 + 4.17 + 58.33 + 8.33 = 75 ms and 4.17 + 4.17 + 83.33 +
    // 8.33 = 100 ms at 120 Hz. Against the base (60 Hz, the sessions name no display) ProMotion
    // shows every press one 120 Hz frame sooner: −8.33 ms, the same for every pair.
    @Test func displayPointsMoveFeedbackAsComputed() throws {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("t.sqlite").path
        var log = #"{"type":"config","name":"linear-press","base":"spring-press","press_animation":{"kind":"uiview-curve","duration":0.18,"curve":"linear"},"release_animation":{"kind":"uiview-curve","duration":0.18,"curve":"linear"}}"# + "\n"
        for i in 0..<12 {
            let t0 = Double(i) * 10
            log += #"{"session":"s\#(i)","t":\#(t0),"phase":"began","x":100,"y":200,"config":"linear-press","user":"u\#(i % 3)"}"# + "\n"
            log += #"{"session":"s\#(i)","t":\#(t0 + 0.3),"phase":"ended","x":100,"y":200}"# + "\n"
        }
        let ingest = try Binary.run(["ingest", "-", "--db", db, "--quiet"], stdin: log)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let sweep = try Binary.run(["sweep", "--db", db, "--base", "linear-press",
                                    "--vary", "display=iphone-60hz,iphone-promotion,ipad-promotion", "--format", "json", "-q"])
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let byName = Dictionary(uniqueKeysWithValues: try rows(sweep.stdout).map { ($0["display"] as? String ?? "base", $0) })
        let expected: [(String, Double, Double)] = [("iphone-60hz", 4000.0 / 60, 95.0 + 5.0 / 6),
                                                    ("iphone-promotion", 7000.0 / 120, 75), ("ipad-promotion", 10000.0 / 120, 100)]
        for (name, feedback, photon) in expected {
            let row = try #require(byName[name], "\(name)")
            #expect(number(row, "sessions") == 12 && number(row, "unseen_presses") == 0, "\(name)")
            // Latencies are kept to 6 decimals (docs/log-format.md, "results"): within 1e-6.
            for c in ["feedback_p50_ms", "feedback_p90_ms"] {
                #expect(abs((number(row, c) ?? .nan) - feedback) < 1e-6, "\(name) \(c): \(row[c] ?? "")")
            }
            #expect(abs((number(row, "feedback_photon_p90_ms") ?? .nan) - photon) < 1e-6, "\(name): \(row["feedback_photon_p90_ms"] ?? "")")
        }
        let promotion = try #require(byName["iphone-promotion"])
        #expect(abs((number(promotion, "feedback_mean_ms_diff") ?? .nan) + 1000.0 / 120) < 1e-6)
        #expect(abs((number(promotion, "feedback_mean_ms_diff_low") ?? .nan) + 1000.0 / 120) < 1e-6)
        #expect(number(promotion, "share_photon_over_100ms") == 0)
    }

    // Sessions naming a profile pressdb does not know cannot be replayed on their own display:
    // the base counts each as a failure, a point that sets the display replays every one.
    @Test func sweepPointOnADisplayReplaysSessionsOfAnUnknownProfile() throws {
        let dir = try Binary.temporaryDirectory()
        let g = try Binary.run(["generate", "--sessions", "60", "--seed", "4", "--variants", "A=spring-press"])
        #expect(g.status == 0, "\(g.stderr)")
        let (_, named) = try sessionLogs(g.stdout, in: dir, display: "lab-panel")
        _ = try Binary.run(["ingest", named.lastPathComponent, "--db", "d.sqlite", "--quiet"], directory: dir)
        let r = try Binary.run(["sweep", "--db", "d.sqlite", "--base", "spring-press", "--vary", "display=iphone-promotion",
                                "--format", "json"], directory: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("60 replays failed") && r.stderr.contains(#"display "lab-panel""#), "\(r.stderr)")
        let byPoint = Dictionary(uniqueKeysWithValues: try rows(r.stdout).map { ($0["point"] as? Int ?? -1, $0) })
        let base = try #require(byPoint[0]), point = try #require(byPoint[1])
        #expect(number(base, "failures") == 60 && number(base, "sessions") == 0)
        #expect(number(point, "failures") == 0 && number(point, "sessions") == 60)
    }

    // A display the catalog does not hold, a value that is not a name, and --display beside
    // --vary display are refused before anything is replayed.
    @Test func sweepOverDisplaysRefusesWhatItCannotReplay() throws {
        let db = try database(["--sessions", "50", "--seed", "3"])
        let unknown = try Binary.run(["sweep", "--db", db, "--base", "spring-press", "--vary", "display=iphone-60hz,crt", "-q"])
        #expect(unknown.status == 2, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("display=iphone-60hz,crt") && unknown.stderr.contains("no display profile named 'crt'")
                && unknown.stderr.contains("ipad-promotion"), "\(unknown.stderr)")
        let numeric = try Binary.run(["sweep", "--db", db, "--base", "spring-press", "--vary", "display=120", "-q"])
        #expect(numeric.status == 2 && numeric.stderr.contains("expected a display profile's name"), "\(numeric.stderr)")
        let both = try Binary.run(["sweep", "--db", db, "--base", "spring-press", "--vary", "display=iphone-promotion",
                                   "--display", "ipad-promotion", "-q"])
        #expect(both.status == 2 && both.stderr.contains("--display and --vary display"), "\(both.stderr)")
    }
}

/// `log` as given, and the same log with `"display": NAME` on every `began` record, in `dir`.
func sessionLogs(_ log: String, in dir: URL, display: String) throws -> (plain: URL, named: URL) {
    let plain = dir.appendingPathComponent("plain.ndjson"), named = dir.appendingPathComponent("named.ndjson")
    try log.write(to: plain, atomically: true, encoding: .utf8)
    let lines = log.split(separator: "\n").map { line in
        line.contains(#""phase":"began""#) ? line.dropLast() + #","display":"\#(display)"}"# : line
    }
    try (lines.joined(separator: "\n") + "\n").write(to: named, atomically: true, encoding: .utf8)
    return (plain, named)
}
