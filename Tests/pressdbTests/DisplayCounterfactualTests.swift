// `report --display NAME` and `compare --display NAME`: the stored sessions replayed
// on another display profile equal the same log ingested with "display" set to it.
import Foundation
import PressTestSupport
import Testing

private struct Databases {
    /// The log as generated (every session on the default iphone-60hz) and the same log with
    /// "display":"iphone-promotion" on every began record.
    let own: String, promotion: String
}

private let databases = Result<Databases, any Error> {
    let dir = try Binary.temporaryDirectory()
    let log = try Binary.run(["generate", "--sessions", "2000", "--seed", "38", "--variants", "A=spring-press,B=expand-delayed-click"]).stdout
    let marked = log.replacingOccurrences(of: "\"phase\":\"began\"", with: "\"phase\":\"began\",\"display\":\"iphone-promotion\"")
    var paths: [String] = []
    for (name, text) in [("own", log), ("promotion", marked)] {
        let db = dir.appendingPathComponent("\(name).sqlite").path
        let r = try Binary.run(["ingest", "--db", db, "--quiet"], stdin: text)
        guard r.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: r.stderr]) }
        paths.append(db)
    }
    return Databases(own: paths[0], promotion: paths[1])
}

@Suite struct DisplayCounterfactualTests {
    @Test(arguments: [[], ["--as", "swiftui-button"], ["--by", "variant", "--where", "control=play"]])
    func reportOnADisplayIsTheLogIngestedOnIt(_ options: [String]) throws {
        let dbs = try databases.get()
        let counterfactual = try Binary.run(["report", "--db", dbs.own, "--display", "iphone-promotion", "--format", "csv"] + options)
        let ingestedArgs = ["report", "--db", dbs.promotion, "--format", "csv"] + options
        // The ingested sessions replayed as the configuration first, as report --as needs.
        if options.first == "--as" {
            #expect(try Binary.run(["replay", "--db", dbs.promotion, "--as", options[1], "--quiet"]).status == 0)
        }
        let ingested = try Binary.run(ingestedArgs)
        let own = try Binary.run(["report", "--db", dbs.own, "--format", "csv"] + options.filter { $0 != "--as" && $0 != "swiftui-button" })
        #expect(counterfactual.status == 0, "\(counterfactual.stderr)")
        #expect(ingested.status == 0, "\(ingested.stderr)")
        #expect(counterfactual.stdout == ingested.stdout)
        // The 120 Hz grid moves feedback: the report is not the 60 Hz one.
        #expect(counterfactual.stdout != own.stdout)
    }

    // ProMotion's delays added by hand (docs/press-model.md §6): half a 120 Hz touch scan,
    // 1000 / 120 / 2 = 4.1667 ms; half a 120 Hz frame to delivery, 4.1667 ms; one 120 Hz
    // pipeline frame, 8.3333 ms; together 16.6667 ms (60 Hz: 29.1667 ms).
    @Test func compareOnADisplayIsTheLogIngestedOnIt() throws {
        let dbs = try databases.get()
        let args = ["A", "B", "--metric", "feedback_latency_ms,feedback_photon_ms", "--format", "json"]
        let counterfactual = try Binary.run(["compare", "--db", dbs.own, "--display", "iphone-promotion"] + args)
        let ingested = try Binary.run(["compare", "--db", dbs.promotion] + args)
        #expect(counterfactual.status == 0, "\(counterfactual.stderr)")
        #expect(counterfactual.stdout == ingested.stdout)
        #expect(counterfactual.stderr.contains("replayed now on iphone-promotion"))
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(counterfactual.stdout.utf8)) as? [[String: Any]])
        let feedback = try #require(rows.first { $0["metric"] as? String == "feedback_latency_ms" })
        let photon = try #require(rows.first { $0["metric"] as? String == "feedback_photon_ms" })
        let delay = 1000.0 / 120 / 2 + 1000.0 / 120 / 2 + 1000.0 / 120
        for arm in ["a", "b"] {
            let f = try #require(feedback[arm] as? Double), p = try #require(photon[arm] as? Double)
            #expect(abs(p - (f + delay)) < 1e-5, "\(arm): \(p) against \(f) + \(delay)")
        }
    }

    @Test func anUnknownDisplayIsAUsageErrorNamingTheProfiles() throws {
        let dbs = try databases.get()
        for command in [["report"], ["compare", "A", "B"]] {
            let r = try Binary.run(command + ["--db", dbs.own, "--display", "crt-50hz"])
            #expect(r.status == 2, "\(r.stderr)")
            #expect(r.stderr.contains("'crt-50hz'") && r.stderr.contains("iphone-promotion") && r.stderr.contains("pressdb displays add"))
        }
        let paired = try Binary.run(["compare", "spring-press", "swiftui-button", "--paired", "--db", dbs.own, "--display", "iphone-promotion"])
        #expect(paired.status == 2 && paired.stderr.contains("--paired does not apply with --display"), "\(paired.stderr)")
    }
}
