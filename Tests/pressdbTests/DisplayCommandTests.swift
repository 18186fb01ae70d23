import Foundation
import Testing

@Suite struct DisplayCommandTests {
    /// A generated log, and the same log with `"display": NAME` on every `began` record.
    private func logs(in dir: URL, display: String) throws -> (plain: URL, named: URL) {
        let g = try Binary.run(["generate", "--sessions", "400", "--seed", "5"])
        #expect(g.status == 0, "\(g.stderr)")
        let plain = dir.appendingPathComponent("plain.ndjson"), named = dir.appendingPathComponent("named.ndjson")
        try g.stdout.write(to: plain, atomically: true, encoding: .utf8)
        let lines = g.stdout.split(separator: "\n").map { line in
            line.contains(#""phase":"began""#) ? line.dropLast() + #","display":"\#(display)"}"# : line
        }
        try (lines.joined(separator: "\n") + "\n").write(to: named, atomically: true, encoding: .utf8)
        return (plain, named)
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
}
