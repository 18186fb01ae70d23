import Foundation
import PressTestSupport
import Testing

/// A fresh database holding `pressdb generate` output for `generate` options (or `log`), ingested.
private func database(_ generate: [String], log: String? = nil) throws -> String {
    let db = try Binary.temporaryDirectory().appendingPathComponent("u.sqlite").path
    let text = try log ?? Binary.run(["generate"] + generate).stdout
    let ingest = try Binary.run(["ingest", "--db", db, "--quiet"], stdin: text)
    #expect(ingest.status == 0, "\(ingest.stderr)")
    return db
}

private func jsonRows(_ r: ProcessResult) throws -> [[String: Any]] {
    #expect(r.status == 0, "\(r.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
}

private func number(_ row: [String: Any], _ key: String) throws -> Double { try #require(row[key] as? Double, "\(key)") }

private func expectClose(_ x: Double, _ y: Double, _ what: String, relative: Double = 1e-12) {
    #expect(abs(x - y) <= relative * max(abs(y), 1e-300), "\(what): \(x) against \(y)")
}

/// A user-randomized A/A log: 300 users × 20 presses (`generate -n 6000`), variants
/// assigned per user with persistent finger traits, both arms spring-press. Seed 5.
private let aaLog = ["--sessions", "6000", "--seed", "5", "--variants", "A=spring-press,B=spring-press"]

@Suite(.serialized) struct CompareByUserCommandTests {
    /// The database of `aaLog`, made once for the suite's tests.
    static let aa: String = try! database(aaLog)

    // Reference values from numpy 2.4 / scipy 1.17 / statsmodels 0.15, computed outside the suite
    // from `pressdb report sessions --format csv` of this very database: each session's user is its
    // id's prefix (s5-u38-0001 → s5-u38), X = a user's sessions (or feedback latencies) and Y =
    // its cancels (or the latencies' sum), per arm Var(R̂) = (s²_Y/X̄² − 2Ȳ s_XY/X̄³ + Ȳ² s²_X/X̄⁴)/n
    // with np.cov(ddof=1) (Deng, Knoblich & Lu 2018, §3), interval δ ± norm.ppf(0.975)·√(Var_A + Var_B):
    //   cancel_rate: 151 and 149 users, 3040 and 2960 sessions, δ = −0.0024182076813655737,
    //     SE = 0.00534431333399576, interval (−0.012892869338094444, 0.008056453975363297),
    //     p = 0.6509215032405781; statsmodels' OLS of the session indicator on the arm with
    //     cov_type='cluster' (CR0, groups = users) gives SE 0.0053264834303528834, which is the
    //     delta method with each arm's variance times (n − 1)/n, as it must be.
    //   feedback_latency_ms: δ = −1.9456778678180768, SE = 2.5767735329754657,
    //     interval (−6.996061188766023, 3.1047054531298697) (latencies as stored, to 6 decimals of a ms).
    @Test func ratioMetricIntervalsAreTheDeltaMethodOverUsers() throws {
        let r = try Binary.run(["compare", "A", "B", "--db", Self.aa, "--metric", "cancel_rate,feedback_latency_ms", "--format", "json"])
        let rows = try jsonRows(r)
        #expect(r.stderr.contains("compare: variant A: 151 users, 3040 sessions; variant B: 149 users, 2960 sessions"))
        let cancel = rows[0], latency = rows[1]
        #expect(cancel["unit"] as? String == "user" && cancel["sequential"] as? Bool == false)
        #expect(cancel["units_a"] as? Int == 151 && cancel["units_b"] as? Int == 149)
        #expect(cancel["n_a"] as? Int == 3040 && cancel["n_b"] as? Int == 2960)
        expectClose(try number(cancel, "diff"), -0.0024182076813655737, "cancel diff")
        expectClose(try number(cancel, "se"), 0.00534431333399576, "cancel se", relative: 1e-10)
        expectClose(try number(cancel, "diff_low"), -0.012892869338094444, "cancel low", relative: 1e-10)
        expectClose(try number(cancel, "diff_high"), 0.008056453975363297, "cancel high", relative: 1e-10)
        expectClose(try number(cancel, "p_value"), 0.6509215032405781, "cancel p", relative: 1e-9)
        expectClose(try number(latency, "diff_low"), -6.996061188766023, "latency low", relative: 1e-10)
        expectClose(try number(latency, "diff_high"), 3.1047054531298697, "latency high", relative: 1e-10)
        #expect(latency["unit"] as? String == "user")

        // The same interval from the per-session rows, in the residual form of the delta method,
        // Var(R̂) = n/(n − 1) · Σ(Yᵢ − R̂Xᵢ)²/(ΣX)² — another algebra of the same formula.
        let sessions = try jsonRows(try Binary.run(["report", "sessions", "--db", Self.aa, "--format", "json"]))
        #expect(sessions.count == 6000)
        var users: [String: [String: (x: Double, y: Double)]] = ["A": [:], "B": [:]]
        for s in sessions {
            let id = try #require(s["session"] as? String), variant = try #require(s["variant"] as? String)
            let dash = try #require(id.lastIndex(of: "-"))
            let user = String(id[..<dash])
            var t = users[variant]![user] ?? (0, 0)
            t.x += 1
            if s["outcome"] as? String == "cancel" { t.y += 1 }
            users[variant]![user] = t
        }
        func estimate(_ arm: [String: (x: Double, y: Double)]) -> (r: Double, variance: Double) {
            let sx = arm.values.reduce(0) { $0 + $1.x }, r = arm.values.reduce(0) { $0 + $1.y } / sx
            let n = Double(arm.count), residuals = arm.values.reduce(0) { $0 + ($1.y - r * $1.x) * ($1.y - r * $1.x) }
            return (r, n / (n - 1) * residuals / (sx * sx))
        }
        let a = estimate(users["A"]!), b = estimate(users["B"]!)
        let half = 1.959963984540054 * (a.variance + b.variance).squareRoot()
        expectClose(try number(cancel, "diff_low"), b.r - a.r - half, "cancel low (residual form)", relative: 1e-10)
        expectClose(try number(cancel, "diff_high"), b.r - a.r + half, "cancel high (residual form)", relative: 1e-10)

        // The table says the unit above the rows and shows the MDE.
        let table = try Binary.run(["compare", "A", "B", "--db", Self.aa, "--metric", "cancel_rate"])
        #expect(table.stdout.contains("unit of analysis: users — each user is one observation"))
        #expect(table.stdout.contains("sample ratio 151:149"))
        #expect(table.stdout.contains("MDE") && table.stdout.contains("delta-method z-test over users"))
    }

    // --sequential widens the interval by exactly the confidence-sequence factor. GrowthBook's
    // formula evaluated in numpy for N = 151 + 149 = 300 users, α = 0.05, N* = 5000:
    // ρ = √((−2 ln α + ln(−2 ln α + 1))/N*), half-width = SE·√N·√(2(Nρ² + 1)/(N²ρ²)·ln(√(Nρ² + 1)/α)),
    // factor = half-width/(z_{0.975}·SE) = 2.26924184345505, and for cancel_rate the sequence
    // (−0.026187748208848925, 0.021351332846117777). The MDE grows by the same c: with
    // --sequential it is (half-width per SE + z_{0.8})·SE.
    @Test func sequentialWidensByTheConfidenceSequenceFactor() throws {
        let fixed = try jsonRows(try Binary.run(["compare", "A", "B", "--db", Self.aa, "--metric", "cancel_rate,feedback_latency_ms",
                                                 "--format", "json"]))
        let r = try Binary.run(["compare", "A", "B", "--db", Self.aa, "--metric", "cancel_rate,feedback_latency_ms",
                                "--format", "json", "--sequential"])
        let sequential = try jsonRows(r)
        for (f, s) in zip(fixed, sequential) {
            #expect(s["sequential"] as? Bool == true)
            let widening = (try number(s, "diff_high") - (try number(s, "diff_low"))) / (try number(f, "diff_high") - (try number(f, "diff_low")))
            expectClose(widening, 2.26924184345505, "widening of \(s["metric"]!)", relative: 1e-9)
            expectClose(try number(s, "diff"), try number(f, "diff"), "estimate")
            #expect(try number(s, "p_value") >= (try number(f, "p_value")))   // always-valid p is larger
        }
        expectClose(try number(sequential[0], "diff_low"), -0.026187748208848925, "sequence low", relative: 1e-10)
        expectClose(try number(sequential[0], "diff_high"), 0.021351332846117777, "sequence high", relative: 1e-10)
        let se = try number(sequential[0], "se")
        expectClose(try number(sequential[0], "mde"), (2.26924184345505 * 1.959963984540054 + 0.8416212335729143) * se, "sequential MDE", relative: 1e-9)
        let table = try Binary.run(["compare", "A", "B", "--db", Self.aa, "--metric", "cancel_rate", "--sequential", "--tuning", "2000"])
        #expect(table.stdout.contains("sequential analysis: confidence sequences and always-valid p-values"))
        #expect(table.stdout.contains("N* = 2000") && table.stdout.contains("95% CS"))
        #expect(try Binary.run(["compare", "A", "B", "--db", Self.aa, "--tuning", "2000"]).status == 2)
    }

    // Power: the MDE at 80 % is (z_{0.975} + z_{0.8})·SE, and --mde 10% gives the users per arm
    // n = ((z_{0.975} + z_{0.8})·σ/δ)², σ² = n_A Var(R̂_A) + n_B Var(R̂_B), δ = 0.1·R̂_A, rounded up.
    // In numpy from the same data: cancel_rate MDE 0.014972549237486555, n = 2666.54 → 2667;
    // feedback_latency_ms MDE 7.219050640408795, n = 214.03 → 215. statsmodels' NormalIndPower
    // with effect size δ/√(σ²/2) gives 2666.53 and 214.03 (it adds the far tail's sliver of power).
    @Test func mdeAndUnitsNeeded() throws {
        let rows = try jsonRows(try Binary.run(["compare", "A", "B", "--db", Self.aa, "--metric", "cancel_rate,feedback_latency_ms",
                                                "--format", "json", "--mde", "10%"]))
        expectClose(try number(rows[0], "mde"), 0.014972549237486555, "cancel MDE", relative: 1e-10)
        expectClose(try number(rows[1], "mde"), 7.219050640408795, "latency MDE", relative: 1e-10)
        expectClose(try number(rows[0], "mde_rel"), 0.014972549237486555 / 0.035526315789473684, "relative MDE", relative: 1e-10)
        #expect(rows[0]["units_needed"] as? Int == 2667 && rows[1]["units_needed"] as? Int == 215)
        // Without --mde there is no planned effect.
        let plain = try jsonRows(try Binary.run(["compare", "A", "B", "--db", Self.aa, "--metric", "cancel_rate", "--format", "json"]))
        #expect(plain[0]["units_needed"] is NSNull)
        // Absolute: 0.005 = half a point of cancel rate: n = 2666.54 · (0.1·R̂_A/0.005)² → 1347.
        let absolute = try jsonRows(try Binary.run(["compare", "A", "B", "--db", Self.aa, "--metric", "cancel_rate", "--format", "json",
                                                    "--mde", "0.005"]))
        let expected = (2666.540173376401 * pow(0.1 * 0.035526315789473684 / 0.005, 2)).rounded(.up)
        #expect(absolute[0]["units_needed"] as? Int == Int(expected))
        let table = try Binary.run(["compare", "A", "B", "--db", Self.aa, "--metric", "cancel_rate", "--mde", "10%"])
        #expect(table.stdout.contains("users/arm for --mde") && table.stdout.contains("2667"))
    }

    // An MDE only where it means something: percentiles come in whole display frames, so their
    // bootstrap SE can be 0 or rounding noise and (c + z)·SE would promise to detect 0 ms with one
    // user per arm; the percentile rows carry no MDE and no units needed, by user and by session.
    // false_action_rate never varies under spring-press (it fires on taps only), so its SE is 0
    // and it gets none either; the mean latency row keeps its MDE.
    @Test func percentilesAndConstantMetricsHaveNoMDE() throws {
        for unit in ["user", "session"] {
            let rows = try jsonRows(try Binary.run(["compare", "A", "B", "--db", Self.aa, "--unit", unit, "--format", "json",
                                                    "--metric", "feedback_latency_ms,feedback_latency_p50_ms,feedback_latency_p90_ms,false_action_rate",
                                                    "--mde", "5%"]))
            #expect(rows.count == 4)
            for row in rows {
                if row["metric"] as? String == "feedback_latency_ms" {
                    #expect(try number(row, "mde") > 0 && row["units_needed"] is Int, "\(unit): \(row)")
                } else {
                    #expect(row["mde"] is NSNull && row["mde_rel"] is NSNull && row["units_needed"] is NSNull, "\(unit): \(row)")
                }
                if row["metric"] as? String == "false_action_rate" { #expect(row["se"] as? Double == 0, "\(unit): \(row)") }
            }
        }
        let table = try Binary.run(["compare", "A", "B", "--db", Self.aa, "--metric", "feedback_latency_p50_ms", "--mde", "5%"])
        // The full table (a pipe): the MDE and the users per arm are the two cells before the test.
        let row = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("feedback_latency_p50_ms") })
        let cells = row.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(cells.suffix(3).dropLast() == ["–", "–"], "\(row)")
        #expect(table.stdout.contains("across 1 test by"), "\(table.stdout)")
    }

    // --unit session gives the session-level analysis: scipy 1.17 on the same counts (108 of 3040
    // against 98 of 2960): `chi2_contingency([[108, 2932], [98, 2862]], correction=False)` p =
    // 0.6070319230054979; Newcombe's method 10 from the Wilson limits, (−0.011695237735192423,
    // 0.006868538752654963); the relative interval by Katz's log method (statsmodels
    // `confint_proportions_2indep(98, 2960, 108, 3040, method='log', compare='ratio')`: ratio
    // (0.7123345495220837, 1.2192264524261407)) — the last changed on purpose (a log-scale interval).
    @Test func sessionUnitGivesTheSessionLevelTests() throws {
        let rows = try jsonRows(try Binary.run(["compare", "A", "B", "--db", Self.aa, "--metric", "cancel_rate", "--format", "json",
                                                "--unit", "session"]))
        let c = rows[0]
        #expect(c["unit"] as? String == "session" && c["units_a"] as? Int == 3040 && c["units_b"] as? Int == 2960)
        #expect((c["test"] as? String)?.hasPrefix("two-proportion z-test") == true)
        expectClose(try number(c, "p_value"), 0.6070319230054979, "z-test p", relative: 1e-9)
        expectClose(try number(c, "diff_low"), -0.011695237735192423, "Newcombe low", relative: 1e-9)
        expectClose(try number(c, "diff_high"), 0.006868538752654963, "Newcombe high", relative: 1e-9)
        expectClose(try number(c, "rel_diff_low"), 0.7123345495220837 - 1, "Katz low", relative: 1e-9)
        expectClose(try number(c, "rel_diff_high"), 1.2192264524261407 - 1, "Katz high", relative: 1e-9)
        let table = try Binary.run(["compare", "A", "B", "--db", Self.aa, "--unit", "session", "--metric", "cancel_rate"])
        #expect(table.stdout.contains("unit of analysis: sessions") && !table.stdout.contains("users,"))
    }

    // Paired by user: the same sessions under two configurations, each user one cluster of pairs.
    @Test func pairedModeClustersByUser() throws {
        let rows = try jsonRows(try Binary.run(["compare", "spring-press", "longpress-safe-area", "--paired", "--db", Self.aa,
                                                "--where", "variant=A", "--metric", "cancel_rate,feedback_latency_ms", "--format", "json"]))
        #expect(rows.allSatisfy { $0["unit"] as? String == "user" && $0["units_a"] as? Int == 151 && $0["units_b"] as? Int == 151 })
        #expect((rows[0]["test"] as? String)?.hasPrefix("cluster-adjusted McNemar over users") == true)
        #expect(rows[0]["n_a"] as? Int == 3040)
    }

    // Users seen in both arms (multiple exposures) and sessions without a user are left out of
    // the analysis by user and counted; the unit stays users. The log is `aaLog` edited: users
    // whose number ends in 0 have their odd-numbered sessions moved to the other arm, and the
    // sessions numbered …7 of users whose number ends in 5 lose their user. What is left out and
    // what is kept is counted here from the edited log, and the kept users' interval recomputed
    // from `report sessions` in the residual form of the delta method.
    @Test func usersInBothArmsAndSessionsWithoutUserAreLeftOutAndCounted() throws {
        var lines: [String] = []
        var variantOf: [String: String] = [:], userOf: [String: String] = [:]
        for line in try Binary.run(["generate"] + aaLog).stdout.split(separator: "\n") {
            var l = String(line)
            let session = String(l.split(separator: "\"")[3])          // {"session":"s5-u38-0001",…
            let parts = session.split(separator: "-"), user = Int(parts[1].dropFirst())!, number = Int(parts[2])!
            if user % 10 == 0 && number % 2 == 1 {
                l = l.contains(#""variant":"A""#) ? l.replacingOccurrences(of: #""variant":"A""#, with: #""variant":"B""#)
                    : l.replacingOccurrences(of: #""variant":"B""#, with: #""variant":"A""#)
            }
            if user % 10 == 5 && number % 10 == 7 {
                l = l.replacingOccurrences(of: #","user":"\#(parts[0])-\#(parts[1])""#, with: "")
            }
            if l.contains(#""phase":"began""#) {
                variantOf[session] = l.contains(#""variant":"A""#) ? "A" : "B"
                if l.contains(#""user":"#) { userOf[session] = "\(parts[0])-\(parts[1])" }
            }
            lines.append(l)
        }
        let db = try database([], log: lines.joined(separator: "\n") + "\n")
        var armsOf: [String: Set<String>] = [:], sessionsOf: [String: Int] = [:]
        for (session, user) in userOf { armsOf[user, default: []].insert(variantOf[session]!); sessionsOf[user, default: 0] += 1 }
        let crossed = Set(armsOf.filter { $0.value.count == 2 }.keys)
        let anonymous = variantOf.count - userOf.count
        #expect(crossed.count > 20 && anonymous > 50)
        let kept = { (arm: String) in armsOf.filter { $0.value == [arm] }.keys }
        let (usersA, usersB) = (kept("A").count, kept("B").count)
        let sessionsA = kept("A").reduce(0) { $0 + sessionsOf[$1]! }, sessionsB = kept("B").reduce(0) { $0 + sessionsOf[$1]! }

        for unit in [[], ["--unit", "user"]] {
            let r = try Binary.run(["compare", "A", "B", "--db", db, "--metric", "cancel_rate", "--format", "json"] + unit)
            let row = try jsonRows(r)[0]
            #expect(row["unit"] as? String == "user")
            #expect(row["units_a"] as? Int == usersA && row["units_b"] as? Int == usersB)
            #expect(row["n_a"] as? Int == sessionsA && row["n_b"] as? Int == sessionsB)
            #expect(r.stderr.contains("compare: left out: \(crossed.count) of \(armsOf.count) users seen in both arms (multiple exposures), "
                + "with their \(crossed.reduce(0) { $0 + sessionsOf[$1]! }) sessions"))
            #expect(r.stderr.contains("compare: left out: \(anonymous) sessions without a user"))
            #expect(!r.stderr.contains("unit: sessions"))

            // The kept users' interval, from each session's outcome.
            let sessions = try jsonRows(try Binary.run(["report", "sessions", "--db", db, "--format", "json"]))
            var totals: [String: [String: (x: Double, y: Double)]] = ["A": [:], "B": [:]]
            for s in sessions {
                let id = try #require(s["session"] as? String)
                guard let user = userOf[id], !crossed.contains(user) else { continue }
                var t = totals[variantOf[id]!]![user] ?? (0, 0)
                t.x += 1
                if s["outcome"] as? String == "cancel" { t.y += 1 }
                totals[variantOf[id]!]![user] = t
            }
            func estimate(_ arm: [String: (x: Double, y: Double)]) -> (r: Double, variance: Double) {
                let sx = arm.values.reduce(0) { $0 + $1.x }, r = arm.values.reduce(0) { $0 + $1.y } / sx
                let n = Double(arm.count), residuals = arm.values.reduce(0) { $0 + ($1.y - r * $1.x) * ($1.y - r * $1.x) }
                return (r, n / (n - 1) * residuals / (sx * sx))
            }
            let a = estimate(totals["A"]!), b = estimate(totals["B"]!)
            let half = 1.959963984540054 * (a.variance + b.variance).squareRoot()
            expectClose(try number(row, "diff_low"), b.r - a.r - half, "cancel low", relative: 1e-10)
            expectClose(try number(row, "diff_high"), b.r - a.r + half, "cancel high", relative: 1e-10)
        }
        // The sample ratio check counts the users kept.
        let table = try Binary.run(["compare", "A", "B", "--db", db, "--metric", "cancel_rate"])
        #expect(table.stdout.contains("sample ratio \(usersA):\(usersB)"))
        // Sessions are analysed only when asked, and the output says what that assumes.
        let sessions = try Binary.run(["compare", "A", "B", "--db", db, "--metric", "cancel_rate", "--unit", "session"])
        #expect(sessions.stdout.contains("unit of analysis: sessions"))
        #expect(sessions.stdout.contains("--unit session assumes the variants were drawn per session"))
    }

    // A log whose variants were drawn per session puts every user in both arms: by user nothing
    // is left, and compare says so and what to do rather than analysing sessions unasked.
    @Test func perSessionAssignmentNeedsUnitSession() throws {
        let perSession = try database(["--sessions", "1000", "--seed", "3", "--assign", "session"])
        let r = try Binary.run(["compare", "A", "B", "--db", perSession, "--metric", "cancel_rate"])
        #expect(r.status == 4)
        #expect(r.stderr == "pressdb compare: variant 'A' has no user to compare by: every session of it has no user or belongs "
            + "to a user seen in both arms (50 of 50 users); if the variants were drawn per session, compare with --unit session\n")
        let asked = try Binary.run(["compare", "A", "B", "--db", perSession, "--metric", "cancel_rate", "--unit", "session"])
        #expect(asked.status == 0 && asked.stdout.contains("unit of analysis: sessions"))
    }
    // Five users (3 and 2): no verdict, so no p-value in any format; a confidence sequence that
    // 5 users make wider than ±1 is shown as what a difference of rates can be, [−1, 1].
    @Test func tooFewUsersShowNoPValueAndRateSequencesStayWithinOne() throws {
        let db = try database(["--sessions", "100", "--seed", "4"])
        let rows = try jsonRows(try Binary.run(["compare", "A", "B", "--db", db, "--sequential", "--format", "json",
                                                "--metric", "tap_rate,cancel_rate,feedback_latency_ms"]))
        #expect(rows[0]["units_a"] as? Int == 3 && rows[0]["units_b"] as? Int == 2)
        for row in rows {
            #expect(row["verdict"] as? String == "too few data" && row["p_value"] is NSNull && row["p_adjusted"] is NSNull, "\(row)")
        }
        for row in rows.prefix(2) {
            #expect(try number(row, "diff_low") >= -1 && number(row, "diff_high") <= 1, "\(row)")
        }
        #expect(try number(rows[0], "diff_low") == -1 && number(rows[0], "diff_high") == 1)
        let table = try Binary.run(["compare", "A", "B", "--db", db, "--metric", "cancel_rate", "--columns", "metric,p_value,p_adjusted,verdict"])
        #expect(table.stdout.contains("no verdict and no p-value are given"))
        // With no p-value left, the note does not speak of an adjustment across 0 tests.
        let notes = table.stdout + table.stderr
        #expect(notes.contains("no p-values: no metric has a verdict") && !notes.contains("across 0 tests"), "\(notes)")
        let line = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("cancel_rate") })
        let cells = line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(cells == ["cancel_rate", "–", "–", "too few data"], "\(line)")
    }
    // A partial leaves out the same users and sessions as the database: on a log with users
    // crossing arms and sessions without a user, `compare --from` prints the database's rows and
    // notes byte for byte.
    @Test func partialLeavesOutWhatTheDatabaseLeavesOut() throws {
        let db = try database(["--sessions", "3000", "--seed", "77", "--variants", "A=spring-press,B=spring-press",
                               "--cross-arm-users", "0.2", "--missing-user", "0.05"])
        let partial = try Binary.temporaryDirectory().appendingPathComponent("p.json").path
        #expect(try Binary.run(["aggregate", "--db", db, "--out", partial]).status == 0)
        let fromDB = try Binary.run(["compare", "A", "B", "--db", db, "--format", "csv"])
        let fromPartial = try Binary.run(["compare", "A", "B", "--from", partial, "--format", "csv"])
        #expect(fromDB.status == 0 && fromDB.stderr.contains("seen in both arms") && fromDB.stderr.contains("without a user"))
        #expect(fromPartial.stdout == fromDB.stdout && fromPartial.stderr == fromDB.stderr)
    }
    // No session has a user: a partial says what the database says (no user to compare by,
    // status 4), not that the arm has no sessions while listing its sessions.
    @Test func partialWithoutUsersSaysWhatTheDatabaseSays() throws {
        let db = try database(["--sessions", "200", "--seed", "5", "--missing-user", "1"])
        let partial = try Binary.temporaryDirectory().appendingPathComponent("p.json").path
        #expect(try Binary.run(["aggregate", "--db", db, "--out", partial]).status == 0)
        let fromDB = try Binary.run(["compare", "A", "B", "--db", db])
        let fromPartial = try Binary.run(["compare", "A", "B", "--from", partial])
        #expect(fromDB.status == 4 && fromDB.stderr.contains("has no user to compare by"), "\(fromDB.stderr)")
        #expect(fromPartial.status == 4 && fromPartial.stderr == fromDB.stderr, "\(fromPartial.stderr)")
    }
}
