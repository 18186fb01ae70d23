import Foundation
import PressTestSupport
import Testing

private func rows(_ r: ProcessResult) throws -> [[String: Any]] {
    #expect(r.status == 0, "\(r.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
}

/// End to end on a small demo database (with the demo's retries): the frustration report, the
/// sessions behind a signal, and the signal as a compare metric agree with one another.
@Suite(.serialized) struct FrustrationCommandTests {
    static let db: String = {
        let path = try! Binary.temporaryDirectory().appendingPathComponent("f.sqlite").path
        let demo = try! Binary.run(["demo", "--db", path, "--sessions", "2000", "--quiet"])
        precondition(demo.status == 0, demo.stderr)
        return path
    }()

    @Test func theReportShowsEverySignalPerConfigurationWithIntervals() throws {
        let report = try rows(try Binary.run(["report", "frustration", "--db", Self.db, "--format", "json"]))
        #expect(report.map { $0["config"] as? String } == ["expand-delayed-click", "longpress-safe-area", "spring-press"])
        var retries = 0
        for row in report {
            let presses = try #require(row["presses"] as? Int)
            for signal in ["rage_episodes", "retries_after_cancel", "retries_after_unseen", "dead_presses"] {
                let k = try #require(row[signal] as? Int, "\(signal)")
                let rate = try #require(row[signal + "_rate"] as? Double), low = try #require(row[signal + "_rate_low"] as? Double)
                let high = try #require(row[signal + "_rate_high"] as? Double)
                #expect(abs(rate - Double(k) / Double(presses)) < 1e-12)
                #expect(low <= rate && rate <= high && high > 0, "\(signal)")
                #expect(row[signal + "_users"] is Int && row[signal + "_rate_by_user_high"] is Double)
            }
            retries += try #require(row["retries_after_cancel"] as? Int)
        }
        #expect(retries > 0, "the demo's retries give retries after a cancel")
        // The sessions behind the signal are as many as the report counts.
        let sessions = try rows(try Binary.run(["report", "sessions", "--signal", "retry_after_cancel", "--db", Self.db, "--format", "json"]))
        #expect(sessions.count == retries)
        #expect(try Binary.run(["report", "sessions", "--signal", "angry", "--db", Self.db]).status == 2)
    }

    @Test func compareTakesTheSignalRates() throws {
        let compare = try rows(try Binary.run(["compare", "A", "B", "--db", Self.db, "--metric", "retry_after_cancel_rate", "--format", "json"]))
        #expect(compare.count == 1 && compare[0]["metric"] as? String == "retry_after_cancel_rate")
        let report = try rows(try Binary.run(["report", "frustration", "--by", "variant", "--db", Self.db, "--format", "json"]))
        let a = try #require(report.first { $0["variant"] as? String == "A" || $0["grp"] as? String == "A" })
        #expect(abs(try #require(compare[0]["a"] as? Double) - (try #require(a["retries_after_cancel_rate"] as? Double))) < 1e-12)
        let all = try rows(try Binary.run(["compare", "A", "B", "--db", Self.db, "--metric", "frustration", "--format", "json"]))
        #expect(all.map { $0["metric"] as? String } == ["rage_episode_rate", "retry_after_cancel_rate", "retry_after_unseen_rate", "dead_press_rate"])
        let paired = try rows(try Binary.run(["compare", "spring-press", "longpress-safe-area", "--paired", "--where", "variant=A",
                                               "--db", Self.db, "--metric", "dead_press_rate", "--format", "json"]))
        #expect(paired.count == 1)
    }

    // The signals' parameters reach compare as they reach the report: a wider retry window
    // (10 s instead of 2 s) can only add retries, and compare's rate by session under it is the
    // report's rate per press (one session is one press) under the same window.
    @Test func compareTakesTheSignalParameters() throws {
        func rate(_ extra: [String]) throws -> (compare: Double, report: Double) {
            let compare = try rows(try Binary.run(["compare", "A", "B", "--db", Self.db, "--metric", "retry_after_cancel_rate",
                                                   "--unit", "session", "--format", "json"] + extra))
            let report = try rows(try Binary.run(["report", "frustration", "--by", "variant", "--db", Self.db,
                                                  "--format", "json"] + extra))
            let a = try #require(report.first { $0["grp"] as? String == "A" || $0["variant"] as? String == "A" })
            return (try #require(compare[0]["a"] as? Double), try #require(a["retries_after_cancel_rate"] as? Double))
        }
        let standard = try rate([]), wide = try rate(["--cancel-retry-window", "10"])
        #expect(abs(standard.compare - standard.report) < 1e-12 && abs(wide.compare - wide.report) < 1e-12)
        #expect(wide.compare > standard.compare, "a 10 s window finds more retries than 2 s: \(wide) vs \(standard)")
        // A partial holds no press sequences: the parameters are refused with --from.
        let refused = try Binary.run(["compare", "A", "B", "--from", "none.json", "--rage-count", "4"])
        #expect(refused.status == 2 && refused.stderr.contains("--rage-count does not apply with --from"))
    }
}
