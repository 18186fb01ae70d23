import Foundation
import PressTestSupport
import Testing

/// Three arms, variants assigned per user: 450 users × 20 presses, A and B spring-press, C
/// longpress-safe-area. Seed 11.
private let threeArms = ["--sessions", "9000", "--seed", "11", "--variants", "A=spring-press,B=spring-press,C=longpress-safe-area"]

private func jsonRows(_ r: ProcessResult) throws -> [[String: Any]] {
    #expect(r.status == 0, "\(r.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
}

/// Holm's step-down adjustment written out here (Holm 1979), independently of PressStats.
private func holm(_ p: [Double]) -> [Double] {
    let order = p.indices.sorted { p[$0] < p[$1] }
    var out = p, running = 0.0
    for (j, i) in order.enumerated() {
        running = max(running, min(1, Double(p.count - j) * p[i]))
        out[i] = running
    }
    return out
}

@Suite(.serialized) struct CompareManyArmsCommandTests {
    static let db: String = {
        let db = try! Binary.temporaryDirectory().appendingPathComponent("k.sqlite").path
        let log = try! Binary.run(["generate"] + threeArms).stdout
        _ = try! Binary.run(["ingest", "--db", db, "--quiet"], stdin: log)
        return db
    }()

    // Each treatment's rows are its two-arm comparison with A (the same users: none crosses arms),
    // under an `arm` column; p_adjusted is Holm over every arm's and metric's p-value together.
    @Test func threeArmsCompareEachWithTheControlAndAdjustAcrossAll() throws {
        let r = try Binary.run(["compare", "A", "B", "C", "--db", Self.db, "--format", "json"])
        let rows = try jsonRows(r)
        let b = rows.filter { $0["arm"] as? String == "B" }, c = rows.filter { $0["arm"] as? String == "C" }
        #expect(!b.isEmpty && b.count == c.count && b.count + c.count == rows.count)
        let alone = try jsonRows(try Binary.run(["compare", "A", "B", "--db", Self.db, "--format", "json"]))
        #expect(alone.count == b.count)
        for (x, y) in zip(b, alone) {
            #expect(x["metric"] as? String == y["metric"] as? String)
            #expect(x["diff"] as? Double == y["diff"] as? Double, "\(x["metric"] ?? "")")
            #expect(x["p_value"] as? Double == y["p_value"] as? Double, "\(x["metric"] ?? "")")
        }
        let tested = rows.filter { $0["p_value"] is Double }
        let adjusted = holm(tested.map { $0["p_value"] as! Double })
        #expect(tested.count > b.filter { $0["p_value"] is Double }.count)
        for (row, want) in zip(tested, adjusted) {
            let got = try #require(row["p_adjusted"] as? Double)
            #expect(abs(got - want) <= 1e-15 * max(1, want), "\(row["arm"] ?? "") \(row["metric"] ?? ""): \(got) against \(want)")
        }
        // Spring-press against itself: no verdict survives; C's long-press rule changes the taps.
        #expect(b.allSatisfy { ["no detectable difference", "too few data"].contains($0["verdict"] as? String) })
        #expect(c.contains { $0["verdict"] as? String == "better" || $0["verdict"] as? String == "worse" })

        // The sample ratio over all three arms: χ² = Σ(O − E)²/E with 2 degrees of freedom, whose
        // survival function is exp(−χ²/2).
        let counts = try ["A", "B", "C"].map { arm in
            let m = try #require(r.stderr.range(of: "variant \(arm): ([0-9]+) users", options: .regularExpression))
            return try #require(Int(r.stderr[m].split(separator: " ")[2]))
        }
        let e = Double(counts.reduce(0, +)) / 3
        let chi = counts.reduce(0.0) { $0 + (Double($1) - e) * (Double($1) - e) / e }
        let table = try Binary.run(["compare", "A", "B", "C", "--db", Self.db])
        #expect(table.status == 0, "\(table.stderr)")
        let srm = try #require(table.stdout.split(separator: "\n").first { $0.contains("sample ratio ") })
        #expect(srm.contains("sample ratio \(counts.map(String.init).joined(separator: ":")) against an intended 33.3/33.3/33.3"), "\(srm)")
        let shown = try #require(srm.range(of: "χ² = [0-9.]+ \\(2 df\\), p = [0-9.e-]+", options: .regularExpression))
        let parts = srm[shown].split(separator: " ")
        #expect(abs(try #require(Double(parts[2])) - chi) <= 0.005, "\(srm) against χ² \(chi)")
        #expect(abs(try #require(Double(parts[7])) - exp(-chi / 2)) <= 0.0005 * max(1, exp(-chi / 2)) + 5e-4, "\(srm)")
        #expect(table.stdout.contains("adjusted across all") && table.stdout.contains("by Holm–Bonferroni"))
        #expect(table.stdout.contains("B against A:") && table.stdout.contains("C against A:"))

        let csv = try Binary.run(["compare", "A", "B", "C", "--db", Self.db, "--format", "csv", "--metric", "cancel_rate"])
        #expect(csv.stdout.hasPrefix("arm,metric,a,"))
        #expect(csv.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[0] } == ["B", "C"])
        let md = try Binary.run(["compare", "A", "B", "C", "--db", Self.db, "--format", "markdown", "--metric", "cancel_rate"])
        #expect(md.stdout.contains("| arm ") && md.stdout.contains("| B ") && md.stdout.contains("| C "))
        let html = try Binary.run(["compare", "A", "B", "C", "--db", Self.db, "--format", "html", "--metric", "cancel_rate"])
        #expect(html.stdout.contains("B against A</h2>") && html.stdout.contains("C against A</h2>"))
    }

    @Test func manyArmsRefuseWhatOnlyTwoArmsCanDo() throws {
        let split = try Binary.run(["compare", "A", "B", "C", "--db", Self.db, "--split", "50/50"])
        #expect(split.status == 2 && split.stderr.contains("--split 50/50 gives 2 shares for 3 arms"), "\(split.stderr)")
        let paired = try Binary.run(["compare", "A", "B", "C", "--db", Self.db, "--paired"])
        #expect(paired.status == 2 && paired.stderr.contains("--paired compares two arms"), "\(paired.stderr)")
        let twice = try Binary.run(["compare", "A", "B", "A", "--db", Self.db])
        #expect(twice.status == 2 && twice.stderr.contains("'A' is named twice"), "\(twice.stderr)")
        let skewed = try Binary.run(["compare", "A", "B", "C", "--db", Self.db, "--split", "80/10/10"])
        #expect(skewed.status == 0 && skewed.stdout.contains("sample ratio mismatch: users per arm A "), "\(skewed.stdout)")
    }

    @Test(arguments: [80, 120])
    func everyLineFitsTheTerminal(_ width: Int) throws {
        let r = try PseudoTerminal.run(Binary.url, ["compare", "A", "B", "C", "--db", Self.db], columns: width, environment: ["NO_COLOR": "1"])
        #expect(r.status == 0, "\(r.piped)")
        let lines = PseudoTerminal.screenLines(r.terminal)
        for line in lines { #expect(line.count <= width, "at \(width): \(line)") }
        #expect(lines.filter { $0.hasPrefix("metric ") }.count == 2)
        #expect(lines.contains { $0.hasPrefix("cancel_rate ") })
    }
}

/// `compare A C --segment screen` on the three-arm log: each screen's rows are the comparison
/// within that screen (`--where screen=…`), p_adjusted is Holm over every screen's p-values, and
/// the heterogeneity line's Q is Σw(d − d̄)² of the screens' diff and se (w = 1/se²), computed here.
@Suite(.serialized) struct CompareSegmentsCommandTests {
    @Test func segmentsAreTheComparisonWithinEachValueAdjustedTogether() throws {
        let db = CompareManyArmsCommandTests.db
        let metrics = ["--metric", "tap_rate,cancel_rate,feedback_latency_ms"]
        let r = try Binary.run(["compare", "A", "C", "--db", db, "--segment", "screen", "--format", "json"] + metrics)
        let rows = try jsonRows(r)
        let screens = rows.compactMap { $0["segment"] as? String }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        #expect(screens == ["cart", "feed", "product", "profile", "search", "settings"])
        for screen in ["feed", "settings"] {
            let alone = try jsonRows(try Binary.run(["compare", "A", "C", "--db", db, "--where", "screen=\(screen)",
                                                     "--correction", "none", "--format", "json"] + metrics))
            let mine = rows.filter { $0["segment"] as? String == screen }
            #expect(mine.count == alone.count)
            for (x, y) in zip(mine, alone) {
                #expect(x["diff"] as? Double == y["diff"] as? Double && x["se"] as? Double == y["se"] as? Double, "\(screen)")
                #expect(x["p_value"] as? Double == y["p_value"] as? Double, "\(screen)")
            }
        }
        let tested = rows.filter { $0["p_value"] is Double }
        for (row, want) in zip(tested, holm(tested.map { $0["p_value"] as! Double })) {
            let got = try #require(row["p_adjusted"] as? Double)
            #expect(abs(got - want) <= 1e-15 * max(1, want))
        }
        for metric in ["tap_rate", "cancel_rate", "feedback_latency_ms"] {
            let used = tested.filter { $0["metric"] as? String == metric }
            let d = used.map { $0["diff"] as! Double }, w = used.map { 1 / pow($0["se"] as! Double, 2) }
            let pooled = zip(w, d).map { $0 * $1 }.reduce(0, +) / w.reduce(0, +)
            let q = zip(w, d).map { $0 * ($1 - pooled) * ($1 - pooled) }.reduce(0, +)
            let line = try #require(r.stderr.split(separator: "\n").first { $0.hasPrefix("compare: heterogeneity: \(metric): Q = ") })
            let shown = try #require(Double(line.split(separator: " ")[5].dropLast()), "\(line)")
            #expect(abs(shown - q) <= 0.005 + 1e-9 && line.contains(", \(used.count - 1) df,"), "\(line) against Q = \(q)")
        }
    }

    @Test func segmentsRefuseWhatTheyCannotSplit() throws {
        let db = CompareManyArmsCommandTests.db
        let user = try Binary.run(["compare", "A", "C", "--db", db, "--segment", "user"])
        #expect(user.status == 2 && user.stderr.contains("--segment"), "\(user.stderr)")
        let one = try Binary.run(["compare", "A", "C", "--db", db, "--segment", "screen", "--where", "screen=feed"])
        #expect(one.status == 2 && one.stderr.contains("leaves one segment"), "\(one.stderr)")
        let paired = try Binary.run(["compare", "A", "C", "--db", db, "--segment", "screen", "--paired"])
        #expect(paired.status == 2, "\(paired.stderr)")
        let three = try Binary.run(["compare", "A", "B", "C", "--db", db, "--segment", "screen"])
        #expect(three.status == 2 && three.stderr.contains("--segment compares two arms"), "\(three.stderr)")
    }

    @Test func segmentsFitEightyColumns() throws {
        let r = try PseudoTerminal.run(Binary.url, ["compare", "A", "C", "--db", CompareManyArmsCommandTests.db, "--segment", "screen"],
                                       columns: 80, environment: ["NO_COLOR": "1"])
        #expect(r.status == 0, "\(r.piped)")
        let lines = PseudoTerminal.screenLines(r.terminal)
        for line in lines { #expect(line.count <= 80, "\(line)") }
        #expect(lines.filter { $0.hasPrefix("metric ") }.count == 6)
    }
}
