import Testing
import PressCore
import PressStats
@testable import PressAnalysis

/// The by-user arms `compare` reads for rates and means in one scan
/// (`ObservedComparisonReader.userArm(_:other:metrics:)`) against the per-arm path it replaces
/// (`userArm(_:other:percentiles:)`, with its exclusion rules): on a generated log with 20 % of users in
/// both arms and 5 % of sessions without a user, every summary a metric reads is equal to the
/// last bit, with and without `--where`.
@Suite struct BothArmsByUserTests {
    static let metrics: [ExperimentMetric] = ExperimentMetric.allCases.filter { ObservedComparisonReader.readsNarrowly([$0]) }

    static func path() throws -> String {
        var c = SyntheticLogConfiguration(sessions: 4000, seed: 4101,
                                          arms: [SyntheticArm(variant: "A", config: "spring-press"),
                                                 SyntheticArm(variant: "B", config: "expand-delayed-click")])
        c.crossArmUsers = 0.2
        c.missingUser = 0.05
        return try database(c).path
    }

    @Test func ratesAndMeansAreTheOnesServed() {
        // The five outcome events' rates and both mean latencies; no percentile, no frustration signal.
        #expect(Set(Self.metrics.map(\.rawValue)) == ["tap_rate", "cancel_rate", "scroll_abort_rate", "false_action_rate",
                                                        "unseen_rate", "feedback_latency_ms", "action_latency_ms"])
        #expect(!ObservedComparisonReader.readsNarrowly([.cancelRate, .deadPressRate]))
        #expect(!ObservedComparisonReader.readsNarrowly(ExperimentMetric.all))
    }

    @Test(arguments: [[:], ["outcome": "cancel"], ["control": "buy"]] as [[String: String]])
    func sumsEqualThePerArmPath(_ equals: [String: String]) throws {
        let path = try Self.path()
        let old = try ObservedComparisonReader(path: path, by: "variant", equals: equals)
        let coverage = try old.userCoverage("A", "B")
        // The rules have something to leave out, or the test could not fail on them.
        #expect(coverage.usersInBothArms > 0 && coverage.sessionsWithoutUser > 0)
        let before = (try old.userArm("A", other: "B", percentiles: false), try old.userArm("B", other: "A", percentiles: false))
        #expect(before.0.users > 0 && before.1.users > 0)
        // Each metric alone (its own scan), then all of them in one.
        for metrics in Self.metrics.map({ [$0] }) + [Self.metrics] {
            let new = try ObservedComparisonReader(path: path, by: "variant", equals: equals)
            let after = (try new.userArm("A", other: "B", metrics: metrics), try new.userArm("B", other: "A", metrics: metrics))
            for (x, y) in [(before.0, after.0), (before.1, after.1)] {
                #expect((x.users, x.sessions) == (y.users, y.sessions), "\(metrics)")
                for m in metrics {
                    switch m.kind {
                    case .rate(let e): #expect(x.events[e] == y.events[e], "\(m) \(equals)")
                    case .mean(let l):
                        let (p, q) = l == .feedback ? (x.feedbackLatency, y.feedbackLatency) : (x.actionLatency, y.actionLatency)
                        #expect(p.summary == q.summary, "\(m) \(equals)")
                    default: Issue.record("\(m) is not served")
                    }
                }
            }
            let report = { (a: UserArm, b: UserArm) in try Experiment.observed(control: a, treatment: b, metrics: metrics) }
            // As text: a row without data (no action latency among cancels) holds NaN, never == itself.
            #expect("\(try report(before.0, before.1))" == "\(try report(after.0, after.1))", "\(metrics) \(equals)")
        }
    }
}
