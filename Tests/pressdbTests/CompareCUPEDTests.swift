import Foundation
import PressTestSupport
import Testing

/// `pressdb compare --cuped` end to end, on a user-randomized A/A log with a week of pre-period:
/// `generate --sessions 6000 --seed 9 --variants A=spring-press,B=spring-press --pre-period 7`.
@Suite(.serialized) struct CompareCUPEDCommandTests {
    static let db: String = {
        let db = try! Binary.temporaryDirectory().appendingPathComponent("cuped.sqlite").path
        let log = try! Binary.run(["generate", "--sessions", "6000", "--seed", "9", "--variants", "A=spring-press,B=spring-press",
                                   "--pre-period", "7"]).stdout
        let ingest = try! Binary.run(["ingest", "--db", db, "--quiet"], stdin: log)
        precondition(ingest.status == 0, ingest.stderr)
        return db
    }()

    static func rows(_ extra: [String]) throws -> [[String: Any]] {
        let r = try Binary.run(["compare", "A", "B", "--db", db, "--metric", "cancel_rate,feedback_latency_ms", "--format", "json"] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
    }

    static func close(_ row: [String: Any], _ key: String, _ expected: Double, relative: Double = 1e-10) {
        let x = row[key] as? Double
        #expect(x.map { abs($0 - expected) <= relative * abs(expected) } == true, "\(key): \(String(describing: x)) against \(expected)")
    }

    // Reference: python outside the suite, from `pressdb report sessions --format csv` of this very
    // database (a session's user is its id's prefix; the pre-period the ids with "-p", the sessions
    // without a variant): per arm and user X, Y and the pre-period's Xc, Yc; the delta-method
    // pseudo-values R̂ + (Y − R̂X)/X̄ and Ĉ + (Yc − ĈXc)/X̄c; statsmodels 0.15 OLS of the first on an
    // arm indicator and the second gives the adjusted difference (the arm's coefficient) and θ; the
    // variance Σ_arm Σ resid²/(n(n − 1)); scipy's norm for the interval and p (135 and 165 users):
    //   cancel_rate: θ = 0.26055540469878735, diff −0.007088122298924105, SE 0.005616124559144866,
    //     (−0.01809552416753893, 0.003919279569690721), p 0.20691206901062376, reduction 0.052108097085845295
    //   feedback_latency_ms: θ = 0.2119156694333876, diff −1.2393045113524095, SE 2.723882086194193,
    //     (−6.578015298426855, 4.0994062757220355), p 0.6491255713704873, reduction 0.04828751388024377
    @Test func cupedRowsAreLeastSquaresOnEachUsersPrePeriod() throws {
        let rows = try Self.rows(["--cuped"])
        let cancel = rows[0], latency = rows[1]
        Self.close(cancel, "diff", -0.007088122298924105)
        Self.close(cancel, "se", 0.005616124559144866)
        Self.close(cancel, "diff_low", -0.01809552416753893)
        Self.close(cancel, "diff_high", 0.003919279569690721)
        Self.close(cancel, "p_value", 0.20691206901062376, relative: 1e-9)
        Self.close(cancel, "var_reduction", 0.052108097085845295, relative: 1e-9)
        Self.close(latency, "diff", -1.2393045113524095)
        Self.close(latency, "se", 2.723882086194193)
        Self.close(latency, "diff_low", -6.578015298426855)
        Self.close(latency, "diff_high", 4.0994062757220355)
        Self.close(latency, "p_value", 0.6491255713704873, relative: 1e-9)
        Self.close(latency, "var_reduction", 0.04828751388024377, relative: 1e-9)
        #expect(cancel["units_a"] as? Int == 135 && cancel["units_b"] as? Int == 165)
    }

    // The pre-period's last session touches down at 236.712899 s and the experiment's first at
    // 236.728699 s (sqlite3 on the database): a start between them reads the same two periods.
    // A start in the pre-period leaves its earlier part as the covariate and its later sessions
    // in neither arm (they have no variant A or B).
    @Test func startBetweenThePeriodsReadsTheSameCovariate() throws {
        let plain = try Binary.run(["compare", "A", "B", "--db", Self.db, "--cuped", "--format", "csv"])
        let started = try Binary.run(["compare", "A", "B", "--db", Self.db, "--cuped", "--start", "236.72", "--format", "csv"])
        #expect(plain.status == 0 && started.status == 0)
        #expect(plain.stdout == started.stdout)
        #expect(started.stderr.contains("in their sessions before 236.72 s"))
        let iso = try Binary.run(["compare", "A", "B", "--db", Self.db, "--cuped", "--start", "1970-01-01T00:03:00Z", "--format", "csv"])
        #expect(iso.status == 0 && iso.stderr.contains("in their sessions before 180 s"), "\(iso.stderr)")
        #expect(iso.stdout != plain.stdout)
    }

    @Test func withoutCupedNothingChanges() throws {
        let r = try Binary.run(["compare", "A", "B", "--db", Self.db, "--format", "csv"])
        #expect(r.status == 0)
        #expect(!r.stdout.contains("var_reduction") && !r.stderr.contains("CUPED"))
        // On an 80-column terminal the reductions are a line above the table, and nothing passes 80.
        let table = try PseudoTerminal.run(Binary.url, ["compare", "A", "B", "--db", Self.db, "--cuped"], columns: 80,
                                           environment: ["NO_COLOR": "1"])
        #expect(table.status == 0, "\(table.piped)")
        let text = table.terminal
        #expect(text.contains("CUPED: the variance of B − A reduced by tap_rate"), "\(text)")
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(text)")
    }

    @Test(arguments: [["--start", "10"], ["--cuped", "--paired"], ["--cuped", "--unit", "session"],
                      ["--cuped", "--by", "config"], ["--cuped", "--start", "yesterday"],
                      ["--cuped", "--segment", "screen"], ["--cuped", "C"]])
    func cupedRefusesWhatItCannotRead(_ options: [String]) throws {
        let r = try Binary.run(["compare", "A", "B", "--db", Self.db] + options)
        #expect(r.status == 2, "\(options): \(r.stderr)")
        #expect(r.stderr.hasPrefix("pressdb compare:"))
    }
}
