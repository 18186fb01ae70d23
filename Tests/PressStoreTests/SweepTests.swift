// The sweep engine: events read from the view, aggregates of the summary report's figures, and
// the runner's counts and paired sums checked against the same sessions replayed one by one.
import Foundation
import Testing
import PressCore
import PressFormats
import PressStats
@testable import PressStore
@testable import PressSQLite
@testable import PressIngest
@testable import PressAnalysis

@Suite struct ResultEventTableTests {
    // The table gives every stored result the events the view gives it: results of the
    // presets on synthetic sessions (taps, cancels of every reason, scroll-aborts, false actions,
    // unseen presses all occur).
    @Test func agreesWithTheViewOnStoredResults() throws {
        let (_, store) = try database(SyntheticLogConfiguration(sessions: 800, seed: 21))
        let replayer = Replayer(store: store, catalog: try ConfigurationCatalog(store: store))
        for preset in PressConfiguration.presets { try replayer.replay(SessionFilter(), as: preset) }
        let table = try ResultEventTable()
        let columns = SessionEvent.outcomeEvents.map(\.column).joined(separator: ", ")
        let s = try store.db.prepare("""
            SELECT outcome, cancel_reason, action_fired, feedback_latency_ms, action_latency_ms, duration_ms, \(columns)
            FROM result_events
            """)
        var rows = 0
        var seen = Set<SessionEvent>()
        while try s.step() {
            rows += 1
            let r = SessionResult(outcome: PressOutcome(rawValue: s.text(0))!, cancelReason: s.optionalText(1).map { CancelReason(rawValue: $0)! },
                                  actionFired: s.int(2) == 1, feedbackLatencyMs: s.optionalDouble(3), actionLatencyMs: s.optionalDouble(4),
                                  durationMs: s.double(5), maxTravelPt: 0, pressDepth: 0, releaseJumpPt: 0)
            for (i, e) in SessionEvent.outcomeEvents.enumerated() {
                #expect(table.contains(r, e) == (s.int(Int32(6 + i)) == 1), "\(e) of \(r)")
                if table.contains(r, e) { seen.insert(e) }
            }
        }
        #expect(rows == 800 * PressConfiguration.presets.count)
        #expect(seen == Set(SessionEvent.outcomeEvents))
    }

    // A view whose event depends on more than the table knows (here a duration) is refused, not
    // miscounted.
    @Test func refusesAnEventThatDependsOnAValue() throws {
        let changed = Migration(version: try Schema.embedded().count + 1, name: "9999_test.sql", sql: """
            DROP VIEW session_results;
            DROP VIEW result_events;
            CREATE VIEW result_events AS
            SELECT r.*, r.outcome = 'tap' AS is_tap, r.outcome = 'cancel' AS is_cancel,
                   r.outcome = 'scroll_abort' AS is_scroll_abort, r.action_fired AND r.outcome <> 'tap' AS is_false_action,
                   r.outcome <> 'scroll_abort' AND r.feedback_latency_ms IS NULL AND r.duration_ms < 1000 AS is_unseen_press,
                   r.feedback_latency_ms IS NOT NULL AS is_seen
            FROM results AS r;
            """)
        #expect(throws: ResultEventTableError.self) { try ResultEventTable(migrations: try Schema.embedded() + [changed]) }
        do { _ = try ResultEventTable(migrations: try Schema.embedded() + [changed]) } catch {
            #expect("\(error)".hasPrefix("the result_events column is_unseen_press depends on a result's values"))
        }
    }
}

@Suite struct SummaryFromTalliesTests {
    // A hand-made group: 5 sessions. Latencies 50, 50, 100, 200 ms (one unseen press), action
    // latencies 0, 300. Type-7 p50 of [50, 50, 100, 200] is at h = 1.5: 50 + 0.5·50 = 75; p90 at
    // h = 2.7: 100 + 0.7·100 = 170; p99 at h = 2.97: 197. share_over_100ms = 1/4 (only 200 > 100).
    // Action p50 of [0, 300] = 150, p90 = 270. Wilson for 3 taps of 5 at z = 1.96: (0.2307, 0.8824)
    // (Wilson 1927; R: prop.test(3, 5, correct = FALSE)$conf.int gives 0.2307 0.8824).
    @Test func columnsOfAHandMadeGroup() throws {
        let table = try ResultEventTable()
        func r(_ o: PressOutcome, _ f: Double?, _ a: Double?, fired: Bool = false, jump: Double = 0) -> SessionResult {
            SessionResult(outcome: o, cancelReason: o == .cancel ? .dragExit : nil, actionFired: fired, feedbackLatencyMs: f,
                          actionLatencyMs: a, durationMs: 90, maxTravelPt: 0, pressDepth: 1, releaseJumpPt: jump)
        }
        let results = [r(.tap, 50, 0, fired: true), r(.tap, 50, nil), r(.tap, 100, nil, jump: 2.5),
                       r(.cancel, 200, 300, fired: true, jump: 18), r(.cancel, nil, nil)]
        var a = SessionTally(), b = SessionTally()
        for (i, x) in results.enumerated() {
            if i < 2 { a.add(x, outcomeEvents: table.mask(x)) } else { b.add(x, outcomeEvents: table.mask(x)) }
        }
        a += b
        func columns(_ t: SessionTally) -> [String: SQLValue] {
            Dictionary(uniqueKeysWithValues: zip(SweepReport.summaryNames, Partial.summaryValues(t)).map { ($0, $1) })
        }
        let c = columns(a)
        #expect(c["sessions"] == .integer(5) && c["taps"] == .integer(3) && c["cancels"] == .integer(2) && c["scroll_aborts"] == .integer(0))
        #expect(c["false_actions"] == .integer(1) && c["unseen_presses"] == .integer(1))
        #expect(c["tap_rate"] == .real(0.6))
        guard case .real(let low)? = c["tap_rate_low"], case .real(let high)? = c["tap_rate_high"] else { Issue.record("no interval"); return }
        #expect(abs(low - 0.2307) < 5e-5 && abs(high - 0.8824) < 5e-5)
        #expect(c["feedback_p50_ms"] == .real(75) && c["feedback_p90_ms"] == .real(170))
        guard case .real(let p99)? = c["feedback_p99_ms"] else { Issue.record("no p99"); return }
        #expect(abs(p99 - 197) < 1e-9)
        #expect(c["share_over_100ms"] == .real(0.25))
        #expect(c["action_p50_ms"] == .real(150) && c["action_p90_ms"] == .real(270))
        #expect(c["release_jump_pt_max"] == .real(18))
        // Nothing counted: NULL where SQL gives NULL over no rows.
        let empty = columns(SessionTally())
        #expect(empty["sessions"] == .integer(0) && empty["taps"] == .null && empty["tap_rate"] == .null && empty["feedback_p50_ms"] == .null)
        #expect(empty["tap_rate_low"] == .null && empty["share_over_100ms"] == .null && empty["release_jump_pt_max"] == .null)
    }

    // The names and order of the summary report's columns after grp and variant.
    @Test func namesAreTheSummaryReportsColumns() throws {
        let (path, _) = try database(SyntheticLogConfiguration(sessions: 50, seed: 2))
        let runner = try ReportRunner(path: path, filter: ReportFilter())
        let summary = try runner.run(try #require(ReportDefinition.builtIn.first { $0.name == "summary" }))
        #expect(Array(summary.columns.dropFirst(2)) == SweepReport.summaryNames)
        #expect(SweepReport.summaryNames.count == Partial.summaryValues(SessionTally()).count)
    }
}

@Suite struct SweepRunnerTests {
    // Each point's counts, percentiles and paired sums equal those of the same sessions replayed
    // one by one here: `Replay.session` per session and configuration (no shared classification),
    // events from docs/compare.md's definitions (`has`), percentiles of plain arrays, per-user
    // pairs summed by `PairedUserArms` — on two threads with small batches, so that users are
    // spread over batches and workers.
    @Test func pointsMatchSessionsReplayedOneByOne() throws {
        let (_, store) = try database(SyntheticLogConfiguration(sessions: 700, seed: 9))
        let base = PressConfiguration.springPress
        let soft = try SweepPath.configuration(base, setting: [("pressed_scale", .number(0.9)), ("action_delay", .number(0.1))], name: "soft")
        let long = PressConfiguration.longPressSafeArea
        let candidates = [SweepCandidate(configuration: soft),
                          SweepCandidate(configuration: long),
                          SweepCandidate(configuration: base, containerOverride: ContainerOverride(delaysContentTouches: false)),
                          SweepCandidate(configuration: soft, containerOverride: ContainerOverride(touchDelay: 0.05, hysteresis: 4))]
        var options = SweepOptions(jobs: 2, equals: ["variant": "A"])
        options.batchSize = 37
        let result = try SweepRunner(store: store, base: base, candidates: candidates, options: options).run()

        let sessions = try store.sessions().all().filter { $0.variant == "A" }
        #expect(result.sessions == sessions.count && result.unit == .user)
        let byUser = Dictionary(grouping: sessions) { $0.attributes[.user]! }
        #expect(result.units == byUser.count)

        func replay(_ s: StoredSession, _ c: SweepCandidate) throws -> ResultRow {
            let recorded = s.attributes.container ?? .none
            let r = try Replay.session(s.samples, frame: s.attributes.frame,
                                       container: c.containerOverride?.apply(to: recorded) ?? recorded,
                                       scrollAxis: s.attributes.scrollAxis ?? .vertical, configuration: c.configuration)
            return ResultRow(sessionID: s.id, configuration: c.configuration, counterfactual: true, result: r)
        }
        for (index, candidate) in candidates.enumerated() {
            let point = result.points[index]
            var users: [UserPairs] = []
            var feedback: [Double] = [], action: [Double] = [], jumps: [Double] = []
            var events: [SessionEvent: Int] = [:]
            for user in byUser.keys.sorted() {
                var tables: [SessionEvent: PairedCounts] = [:]
                var fa: [Double] = [], fb: [Double] = [], xa: [Double] = [], xb: [Double] = []
                let mine = byUser[user]!.sorted { $0.id < $1.id }
                for s in mine {
                    let a = try replay(s, SweepCandidate(configuration: base)), b = try replay(s, candidate)
                    tally(&tables, a, b)
                    for e in SessionEvent.outcomeEvents where has(e, b) { events[e, default: 0] += 1 }
                    if let x = a.result.feedbackLatencyMs, let y = b.result.feedbackLatencyMs { fa.append(x); fb.append(y) }
                    if let x = a.result.actionLatencyMs, let y = b.result.actionLatencyMs { xa.append(x); xb.append(y) }
                    if let f = b.result.feedbackLatencyMs { feedback.append(f) }
                    if let x = b.result.actionLatencyMs { action.append(x) }
                    jumps.append(b.result.releaseJumpPt)
                }
                users.append(UserPairs(pairs: mine.count, events: tables, feedbackLatency: PairedLatencies(control: fa, treatment: fb),
                                       actionLatency: PairedLatencies(control: xa, treatment: xb)))
            }
            let s = point.summary
            #expect(s.sessions == sessions.count && point.failures == 0 && point.pairs == sessions.count)
            for e in SessionEvent.outcomeEvents { #expect(s.count(e) == events[e, default: 0], "\(candidate.configuration.name) \(e)") }
            for f in [0.5, 0.9, 0.99] {
                #expect(SessionTally.percentile(f, of: s.feedbackLatencyMs) == percentileType7(feedback, f))
                #expect(SessionTally.percentile(f, of: s.actionLatencyMs) == percentileType7(action, f))
                #expect(SessionTally.percentile(f, of: point.releaseJumpPt) == percentileType7(jumps, f))
            }
            let arms = try PairedUserArms(controlName: base.name, treatmentName: candidate.configuration.name, users: users)
            for e in SessionEvent.outcomeEvents { #expect(point.paired(e) == arms.events[e], "\(candidate.configuration.name) \(e)") }
            for (got, want) in [(point.feedbackLatency, arms.feedbackLatency.summary), (point.actionLatency, arms.actionLatency.summary)] {
                #expect(got.units == want.units && got.denominatorSum == want.denominatorSum)
                #expect(abs(got.treatmentSum - want.treatmentSum) <= 1e-9 * max(1, abs(want.treatmentSum)))
                #expect(abs(got.crossSumOfProducts - want.crossSumOfProducts) <= 1e-9 * max(1, abs(want.crossSumOfProducts)))
            }
        }
        // The base against itself pairs nothing; its summary is spring-press's.
        #expect(result.base.summary.sessions == sessions.count)
        #expect(result.points[0].summary != result.points[1].summary)
    }

    // The same sweep on 1 and on 3 workers, several times: equal to the last bit. Which worker
    // replays which batch varies from run to run, and doubles added in another order differ in
    // their last bits (the latency sums); the paired sums are added batch by batch in the order
    // the batches were read (`SweepPairedSums`), the counts and histograms in any order.
    @Test func theSameDigitsWhateverWorkerReplaysWhichBatch() throws {
        let (_, store) = try database(SyntheticLogConfiguration(sessions: 700, seed: 9))
        let soft = try SweepPath.configuration(.springPress, setting: [("pressed_scale", .number(0.9)), ("action_delay", .number(0.1))], name: "soft")
        let candidates = [SweepCandidate(configuration: soft), SweepCandidate(configuration: .longPressSafeArea)]
        func run(jobs: Int) throws -> SweepResult {
            var options = SweepOptions(jobs: jobs)
            options.batchSize = 11
            return try SweepRunner(store: store, base: .springPress, candidates: candidates, options: options).run()
        }
        let one = try run(jobs: 1)
        #expect(one.points[0].feedbackLatency.treatmentSum > 0)
        for _ in 0..<4 {
            let three = try run(jobs: 3)
            #expect(three.base == one.base && three.points == one.points)
            #expect(three.medianTapDurationMs == one.medianTapDurationMs)
        }
    }

    // Without a user on every session, each session is its own unit; an unknown --where key and
    // an empty selection are refused.
    @Test func unitsAndSelection() throws {
        let (_, store) = try database(SyntheticLogConfiguration(sessions: 60, seed: 4))
        try store.db.execute("UPDATE sessions SET user = NULL WHERE id % 7 = 0")
        let one = [SweepCandidate(configuration: .longPressSafeArea)]
        let r = try SweepRunner(store: store, base: .springPress, candidates: one, options: SweepOptions(jobs: 3)).run()
        #expect(r.unit == .session && r.units == 60 && r.points[0].paired(.tap).units == 60)
        #expect(throws: SweepError.self) {
            try SweepRunner(store: store, base: .springPress, candidates: one, options: SweepOptions(equals: ["outcome": "tap"]))
        }
        #expect(throws: SweepError.self) {
            try SweepRunner(store: store, base: .springPress, candidates: one, options: SweepOptions(equals: ["variant": "Z"])).run()
        }
    }
}
