import Foundation
import Testing
import PressCore
import PressFormats
import PressStats
@testable import PressStore

/// NDJSON text of a synthetic log.
func syntheticLog(_ configuration: SyntheticLogConfiguration) throws -> String {
    var writer = TouchLogWriter(format: .ndjson)
    try SyntheticLog(configuration).forEachRecord { session, index in writer.append(session, sample: index) }
    return String(decoding: writer.buffer, as: UTF8.self)
}

/// A database holding `configuration`'s log, ingested and replayed under each session's own
/// configuration (as `pressdb ingest` does).
func database(_ configuration: SyntheticLogConfiguration) throws -> (path: String, store: Store) {
    let path = try temporaryDatabasePath()
    let store = try Store.open(path: path)
    try ingestNDJSON(store, try syntheticLog(configuration))
    try Replayer(store: store, catalog: try ConfigurationCatalog(store: store)).replayMissing()
    return (path, store)
}

/// Whether a replay result has `event`, written out here from the definitions in
/// docs/compare.md (independently of the SQL that counts them).
func has(_ event: SessionEvent, _ row: ResultRow) -> Bool {
    let r = row.result
    switch event {
    case .tap: return r.outcome == .tap
    case .cancel: return r.outcome == .cancel
    case .scrollAbort: return r.outcome == .scrollAbort
    case .falseAction: return r.actionFired && r.outcome != .tap
    case .unseenPress: return r.outcome != .scrollAbort && r.feedbackLatencyMs == nil
    }
}

/// Counts one pair of results into each event's McNemar table (a: under the control, b: under the
/// treatment), by `has`.
func tally(_ tables: inout [SessionEvent: PairedCounts], _ a: ResultRow, _ b: ResultRow) {
    for e in SessionEvent.allCases {
        var t = tables[e] ?? PairedCounts(both: 0, controlOnly: 0, treatmentOnly: 0, neither: 0)
        switch (has(e, a), has(e, b)) {
        case (true, true): t.both += 1
        case (true, false): t.controlOnly += 1
        case (false, true): t.treatmentOnly += 1
        case (false, false): t.neither += 1
        }
        tables[e] = t
    }
}

@Suite struct ComparisonReaderTests {
    // The arms' counts and sums from SQL equal those counted here from the stored sessions
    // replayed one by one in Swift (Replayer.result, which writes nothing).
    @Test func observedArmsMatchSessionsReplayedInSwift() throws {
        let (path, store) = try database(SyntheticLogConfiguration(sessions: 600, seed: 5))
        let replayer = Replayer(store: store, catalog: try ConfigurationCatalog(store: store))
        var expected: [String: (n: Int, events: [SessionEvent: Int], feedback: [Double])] = [:]
        for s in try store.sessions().all() {
            let configuration = try #require(replayer.catalog.resolve(replayer.configurationName(of: s)))
            let r = try replayer.result(of: s, under: configuration, counterfactual: false)
            let v = try #require(s.variant)
            var e = expected[v] ?? (0, [:], [])
            e.n += 1
            for event in SessionEvent.allCases where has(event, r) { e.events[event, default: 0] += 1 }
            if let f = r.result.feedbackLatencyMs { e.feedback.append(f) }
            expected[v] = e
        }
        let reader = try ObservedComparisonReader(path: path, by: "variant")
        #expect(try reader.groups().map(\.name) == ["A", "B"])
        for name in ["A", "B"] {
            let arm = try reader.arm(name), e = try #require(expected[name])
            #expect(arm.events.sessions == e.n)
            for event in SessionEvent.allCases { #expect(arm.events.count(event) == e.events[event, default: 0], "\(name) \(event)") }
            #expect(arm.feedbackLatency.summary.count == e.feedback.count)
            #expect(abs(arm.feedbackLatency.summary.sum - e.feedback.reduce(0, +)) < 1e-6)
            #expect(arm.feedbackLatency.values.sorted() == e.feedback.sorted())
        }
        // An arm that does not exist names the ones that do.
        #expect(throws: ComparisonError.self) { try reader.arm("C") }
        do { _ = try reader.arm("C") } catch {
            #expect("\(error)" == "no sessions for variant 'C'; variants with sessions: A (\(expected["A"]!.n)), B (\(expected["B"]!.n))")
        }
        // --where narrows both arms; a key outside the list is refused.
        let feed = try ObservedComparisonReader(path: path, by: "variant", equals: ["screen": "feed"])
        #expect(try feed.arm("A").events.sessions < expected["A"]!.n)
        #expect(throws: ComparisonError.self) { try ObservedComparisonReader(path: path, by: "screen") }
    }

    // Paired mode replays what is missing, then pairs by session. The McNemar tables from SQL
    // equal the tables counted here from each session replayed under both configurations in Swift.
    @Test func pairedTablesMatchReplaysInSwift() throws {
        let (_, store) = try database(SyntheticLogConfiguration(sessions: 400, seed: 9))
        let pairing = try PairedComparison(store: store)
        let a = PressConfiguration.springPress, b = PressConfiguration.longPressSafeArea
        let summary = try pairing.prepare(control: a, treatment: b, equals: ["variant": "A"])
        let sessionsA = try store.sessions().all().filter { $0.variant == "A" }
        #expect(summary.selected == sessionsA.count)
        #expect(summary.paired == sessionsA.count)
        #expect(summary.replayedTreatment == sessionsA.count)   // none had a longpress result yet
        #expect(summary.replayedControl == 0)                    // their own spring-press results exist
        let arms = try pairing.read(control: a, treatment: b, equals: ["variant": "A"])
        #expect(arms.pairs == sessionsA.count)
        var tables: [SessionEvent: PairedCounts] = [:]
        var feedbackPairs = 0
        for s in sessionsA {
            let ra = try pairing.replayer.result(of: s, under: a, counterfactual: false)
            let rb = try pairing.replayer.result(of: s, under: b, counterfactual: true)
            tally(&tables, ra, rb)
            if ra.result.feedbackLatencyMs != nil && rb.result.feedbackLatencyMs != nil { feedbackPairs += 1 }
        }
        #expect(arms.events == tables)
        #expect(arms.feedbackLatency.control.count == feedbackPairs)
        // A second prepare finds nothing left to replay.
        let again = try pairing.prepare(control: a, treatment: b, equals: ["variant": "A"])
        #expect(again.replayedControl == 0 && again.replayedTreatment == 0 && again.paired == summary.paired)
        #expect(throws: ComparisonError.self) { try pairing.prepare(control: a, treatment: b, equals: ["variant": "Z"]) }
        #expect(throws: ComparisonError.self) { try pairing.prepare(control: a, treatment: b, equals: ["outcome": "tap"]) }
    }
}

@Suite struct AAComparisonTests {
    // An A/A experiment: both arms spring-press, no effect, so every "better"/"worse" on
    // cancel_rate is a false positive. A verdict needs p < α = 0.05 (pooled z-test here: no cell
    // is below 5) AND Newcombe's interval excluding 0, so the rule's exact size is a little under
    // α. Computed with python3 (scipy.stats.binom), summing over every outcome — arm sizes
    // Binomial(1000, ½), cancels Binomial(n, 0.0360) per arm — it is 4.66 % (the z-test alone:
    // 4.96 %; the z-test alone at exactly 500/500: 4.91 %). Over N independent seeds the count X
    // of false positives is Binomial(N, 0.0466):
    //   N = 200: P(X ≤ 3) = 0.0152, P(X ≥ 19) = 0.0028, so 4 ≤ X ≤ 18 holds with probability
    //   0.982 for a calibrated rule; outside it the test rejects too often or too rarely.
    // Seeds 1–200 give X = 14 (P(X ≥ 14) = 0.086). 17 of them have p < 0.05, but for three
    // (seeds 26, 96, 134, p = 0.048–0.0498) Newcombe's interval still covers 0. Seeds 1–40 alone
    // give 7 (P(X ≥ 7 | N = 40) = 0.0023): an unlucky batch, not a miscalibration. Evidence, from
    // this same in-process path run once outside the suite on 5,000 fresh seeds (1001–6000, 5 M
    // sessions): cancel_rate 213 false positives (4.26 %, Clopper–Pearson 95 % interval
    // 3.72–4.86 %, binomial test against 4.66 %: p = 0.19), tap_rate 234 (4.68 %, exact size
    // 4.95 %), scroll_abort_rate 254 (5.08 %, exact size 4.91 %); per-seed z of cancel_rate has
    // mean −0.01 and SD 0.98; over 10 M generated sessions arm × behaviour gives χ² = 6.4 on
    // 5 df (p = 0.27) and arm × container 0.18 on 2 df (p = 0.91). Two cheaper checks with more
    // power than the count ride along below. The seeds are fixed, so every number is deterministic.
    // In-process for speed: generator → PressClassifier (the outcome Replay.session reports) →
    // the same Experiment.observed that `pressdb compare` calls, without the database.
    @Test func cancelRateFalsePositivesStayWithinTheBinomialBand() throws {
        var falsePositives = 0
        var verdicts: [Verdict] = []
        var pooled = [(sessions: 0, cancels: 0), (sessions: 0, cancels: 0)]
        var sumOfSquaredZ = 0.0
        for seed in 1...200 {
            let configuration = SyntheticLogConfiguration(
                sessions: 1000, seed: UInt64(seed),
                arms: [SyntheticArm(variant: "A", config: "spring-press"), SyntheticArm(variant: "B", config: "spring-press")])
            var generator = try SyntheticSessionGenerator(configuration)
            var counts = [ArmEventCounts(sessions: 0, taps: 0, cancels: 0, scrollAborts: 0, falseActions: 0, unseenPresses: 0),
                          ArmEventCounts(sessions: 0, taps: 0, cancels: 0, scrollAborts: 0, falseActions: 0, unseenPresses: 0)]
            while let s = generator.next() {
                let c = PressClassifier.classify(s.samples.map(\.touchSample), frame: s.attributes.frame,
                                                 container: try #require(s.attributes.container),
                                                 scrollAxis: s.attributes.scrollAxis ?? .vertical, configuration: .springPress)
                counts[s.arm].sessions += 1
                if c.outcome == .cancel { counts[s.arm].cancels += 1 }
            }
            let empty = LatencySample(values: [])
            let report = try Experiment.observed(
                control: ObservedArm(name: "A", events: counts[0], feedbackLatency: empty, actionLatency: empty),
                treatment: ObservedArm(name: "B", events: counts[1], feedbackLatency: empty, actionLatency: empty),
                metrics: [.cancelRate], correction: .none)
            let verdict = report.rows[0].verdict
            // The pooled z of this seed, written out here: z = (p̂_B − p̂_A)/√(p̄(1 − p̄)(1/n_A + 1/n_B)).
            let (na, nb) = (Double(counts[0].sessions), Double(counts[1].sessions))
            let (xa, xb) = (Double(counts[0].cancels), Double(counts[1].cancels))
            let p = (xa + xb) / (na + nb)
            let z = (xb / nb - xa / na) / (p * (1 - p) * (1 / na + 1 / nb)).squareRoot()
            sumOfSquaredZ += z * z
            for arm in 0...1 {
                pooled[arm].sessions += counts[arm].sessions
                pooled[arm].cancels += counts[arm].cancels
            }
            verdicts.append(verdict)
            if verdict == .better || verdict == .worse { falsePositives += 1 }
        }
        #expect((4...18).contains(falsePositives), "\(falsePositives) of 200 A/A seeds found a cancel_rate difference")
        // Every seed got a real verdict (about 500 sessions per arm, above the 100 minimum).
        #expect(!verdicts.contains(.tooFewData))
        // All 200,000 sessions in one 2×2 table (arm × cancel): Pearson's χ² (1 df) stays below
        // 10.83, its 0.999 quantile (scipy.stats.chi2.ppf(0.999, 1)). At 100,000 sessions per arm the
        // SE of the difference is 0.083 pp, so an arm that shifts the cancel rate by 0.27 pp
        // (3.29 SE) is caught half the time and one of 0.4 pp (4.8 SE) 93 % of the time — shifts the
        // false-positive count above cannot see.
        let n = pooled.map { Double($0.sessions) }, x = pooled.map { Double($0.cancels) }
        let total = n[0] + n[1], cancels = x[0] + x[1]
        var chiSquared = 0.0
        for arm in 0...1 {
            for (observed, margin) in [(x[arm], cancels), (n[arm] - x[arm], total - cancels)] {
                let expected = n[arm] * margin / total
                chiSquared += (observed - expected) * (observed - expected) / expected
            }
        }
        #expect(chiSquared < 10.83, "arm × cancel over every seed: χ² = \(chiSquared)")
        // Under H₀ the 200 per-seed z are independent standard normals, so Σz² is χ² on 200 df;
        // its 0.0005 and 0.9995 quantiles are 140.66 and 272.42 (scipy.stats.chi2.ppf). Sessions
        // counted twice (z × √2, Σz² ≈ 400) or correlated within a seed would push it out.
        #expect(sumOfSquaredZ > 140.66 && sumOfSquaredZ < 272.42, "Σz² = \(sumOfSquaredZ) over 200 seeds")
    }
}
