// A/A calibration by simulation with users as the randomization unit: heterogeneous
// users (Beta-distributed cancel chances with intra-user correlation 0.25, persistent latency
// shifts), frame-quantized latencies, variants assigned per user. Each test counts how many of
// many seeds call a difference significant at α = 0.05 and expects that count in the 99 % band of
// Binomial(seeds, 0.05), from scipy 1.17 binom.ppf(0.005) … binom.ppf(0.995):
//   400 seeds: 10 … 32 (P(X < 10) = 0.0042, P(X > 32) = 0.0038);
//   200 seeds:  3 … 19 (P(X < 3) = 0.0023, P(X > 19) = 0.0027);
//   100 seeds:  0 … 11 (P(X > 11) = 0.0043).
// A band that wide still fails an analysis that over-rejects like today's session-level one
// (43 of 100 in an earlier measurement), which the tests show on the same data.
import PressCore
import Testing
@testable import PressStats

private let alpha = 0.05
private let band400 = 10...32
private let band200 = 3...19
private let band100 = 0...11

private func p(_ report: ExperimentReport, _ metric: ExperimentMetric) throws -> Double {
    try #require(report.rows.first { $0.metric == metric }?.pValue)
}

/// Checks that a row's verdict says what its p-value says (both are one procedure).
private func expectVerdictFollowsP(_ report: ExperimentReport, sourceLocation: SourceLocation = #_sourceLocation) {
    for row in report.rows {
        guard let p = row.pValue, row.verdict != .tooFewData else { continue }
        #expect((row.verdict != .noDetectableDifference) == (p < alpha), "\(row.metric.rawValue): p \(p), \(row.verdict)",
                sourceLocation: sourceLocation)
    }
}

@Suite("A/A calibration with users as the randomization unit")
struct CalibrationTests {
    static let design = ClusteredDesign()

    // 400 A/A experiments of 300 users × 20 presses. By user, cancel_rate and the mean feedback
    // latency fall in the 400-seed band, and the sample ratio check on users (p < 0.001) fires at
    // most 3 times (Binomial(400, 0.001): P(X > 3) = 0.0008). On the first 100: p50 and p90 by
    // the bootstrap over users (100 resamples) stay within the 100-seed band — with 60 Hz frames
    // both arms' percentiles usually land on the same frame, so the test is conservative — while
    // the same sessions analysed one by one (z-test, Welch: today's compare) reject several times
    // as often as α.
    @Test func observedByUser() throws {
        var user = (cancel: 0, mean: 0, p50: 0, p90: 0), session = (cancel: 0, mean: 0), mismatches = 0
        var c = StatsConfiguration()
        c.bootstrapReplicates = 100
        for seed in UInt64(0)..<400 {
            let (usersA, usersB) = Self.design.observedUsers(seed: seed)
            let a = try UserArm(name: "A", users: usersA), b = try UserArm(name: "B", users: usersB)
            let first = seed < 100
            let metrics: [ExperimentMetric] = first ? [.cancelRate, .feedbackLatency, .feedbackLatencyP50, .feedbackLatencyP90]
                : [.cancelRate, .feedbackLatency]
            c.bootstrapSeed = 1000 + seed
            let r = try Experiment.observed(control: a, treatment: b, metrics: metrics, correction: .none, configuration: c)
            #expect(r.unit == .user && r.controlUnits == a.users)
            if try p(r, .cancelRate) < alpha { user.cancel += 1 }
            if try p(r, .feedbackLatency) < alpha { user.mean += 1 }
            if r.sampleRatio?.isMismatch == true { mismatches += 1 }
            expectVerdictFollowsP(r)
            guard first else { continue }
            if try p(r, .feedbackLatencyP50) < alpha { user.p50 += 1 }
            if try p(r, .feedbackLatencyP90) < alpha { user.p90 += 1 }
            let s = try Experiment.observed(control: ClusteredDesign.sessionArm("A", usersA), treatment: ClusteredDesign.sessionArm("B", usersB),
                                            metrics: [.cancelRate, .feedbackLatency], correction: .none)
            if try p(s, .cancelRate) < alpha { session.cancel += 1 }
            if try p(s, .feedbackLatency) < alpha { session.mean += 1 }
        }
        #expect(band400.contains(user.cancel), "cancel_rate by user: \(user.cancel) of 400")
        #expect(band400.contains(user.mean), "feedback_latency_ms by user: \(user.mean) of 400")
        #expect(mismatches <= 3, "sample ratio mismatches: \(mismatches) of 400")
        #expect(band100.contains(user.p50) && band100.contains(user.p90), "percentiles on frames: \(user) of 100")
        // By session the same data are wrongly significant several times as often as α.
        #expect(session.cancel > 25, "cancel_rate by session: \(session.cancel) of 100")
        #expect(session.mean > 25, "feedback_latency_ms by session: \(session.mean) of 100")
    }

    // With latencies to the millisecond (200 experiments of 300 users × 5 presses) the percentile
    // bootstrap is not held back by ties, and its rate falls inside the 200-seed band.
    @Test func percentilesByUserWithoutFrames() throws {
        var c = StatsConfiguration()
        c.bootstrapReplicates = 100
        var fine = (p50: 0, p90: 0)
        var milliseconds = Self.design
        milliseconds.frame = 1
        milliseconds.pressesPerUser = 5
        for seed in UInt64(0)..<200 {
            c.bootstrapSeed = 3000 + seed
            let e = try milliseconds.observed(seed: 10_000 + seed)
            let q = try Experiment.observed(control: e.a, treatment: e.b, metrics: [.feedbackLatencyP50, .feedbackLatencyP90],
                                            correction: .none, configuration: c)
            if try p(q, .feedbackLatencyP50) < alpha { fine.p50 += 1 }
            if try p(q, .feedbackLatencyP90) < alpha { fine.p90 += 1 }
            expectVerdictFollowsP(q)
        }
        #expect(band200.contains(fine.p50) && band200.contains(fine.p90), "milliseconds: \(fine) of 200")
    }

    // 200 paired replays of every user's presses under two configurations that are the same on
    // average but not for each user. By user, Obuchowski's clustered McNemar and the paired
    // z-test on per-user sums fall in the 200-seed band; on the first 100 the paired bootstrap's
    // p50 and p90 stay within the 100-seed band, and session-level McNemar and the paired t-test
    // reject beyond it.
    @Test func pairedByUser() throws {
        var user = (cancel: 0, mean: 0, p50: 0, p90: 0), session = (cancel: 0, mean: 0)
        var c = StatsConfiguration()
        c.bootstrapReplicates = 100
        for seed in UInt64(0)..<200 {
            let d = try Self.design.paired(seed: 20_000 + seed)
            let first = seed < 100
            let metrics: [ExperimentMetric] = first ? [.cancelRate, .feedbackLatency, .feedbackLatencyP50, .feedbackLatencyP90]
                : [.cancelRate, .feedbackLatency]
            c.bootstrapSeed = 2000 + seed
            let r = try Experiment.paired(d.users, metrics: metrics, correction: .none, configuration: c)
            #expect(r.unit == .user && r.controlUnits == 300)
            if try p(r, .cancelRate) < alpha { user.cancel += 1 }
            if try p(r, .feedbackLatency) < alpha { user.mean += 1 }
            expectVerdictFollowsP(r)
            guard first else { continue }
            if try p(r, .feedbackLatencyP50) < alpha { user.p50 += 1 }
            if try p(r, .feedbackLatencyP90) < alpha { user.p90 += 1 }
            let s = try Experiment.paired(d.sessions, metrics: [.cancelRate, .feedbackLatency], correction: .none)
            if try p(s, .cancelRate) < alpha { session.cancel += 1 }
            if try p(s, .feedbackLatency) < alpha { session.mean += 1 }
        }
        #expect(band200.contains(user.cancel), "paired cancel_rate by user: \(user.cancel) of 200")
        #expect(band200.contains(user.mean), "paired feedback_latency_ms by user: \(user.mean) of 200")
        #expect(band100.contains(user.p50) && band100.contains(user.p90), "paired percentiles: \(user) of 100")
        #expect(session.cancel > band100.upperBound, "McNemar by session: \(session.cancel) of 100")
        #expect(session.mean > band100.upperBound, "paired t by session: \(session.mean) of 100")
    }

    // Peeking: 200 A/A experiments whose 300 users arrive 30 a day for 10 days, analysed after
    // every day on all users so far (the day's partial sums added to the earlier ones). With
    // confidence sequences the share of experiments ever significant stays within α's band (it
    // is far below α here: N = 300 users is small against the tuning N* = 5000); the fixed-horizon
    // test on the same peeks is ever significant well beyond the band.
    @Test func dailyPeeksWithConfidenceSequences() throws {
        // Every look gives a p-value, even the first days' below 100 users per arm (where compare
        // shows none): the test is of the sequence's validity at every N.
        var sequential = StatsConfiguration(), fixed = StatsConfiguration()
        sequential.sequential = true
        sequential.minimumUsersPerArm = 0
        sequential.minimumEffectiveUsersPerArm = 0
        fixed.minimumUsersPerArm = 0
        fixed.minimumEffectiveUsersPerArm = 0
        var ever = (sequential: 0, fixed: 0)
        let metrics: [ExperimentMetric] = [.cancelRate, .feedbackLatency]
        for seed in UInt64(0)..<200 {
            var a: UserArm?, b: UserArm?
            var hit = (sequential: false, fixed: false)
            for day in 0..<10 {
                let d = try Self.design.observed(seed: 40_000 + seed, users: (30 * day)..<(30 * (day + 1)))
                a = a.map { $0 + d.a } ?? d.a
                b = b.map { $0 + d.b } ?? d.b
                let s = try Experiment.observed(control: a!, treatment: b!, metrics: metrics, correction: .none, configuration: sequential)
                let f = try Experiment.observed(control: a!, treatment: b!, metrics: metrics, correction: .none, configuration: fixed)
                #expect(s.rows.allSatisfy(\.sequential) && s.isSequential)
                if try p(s, .cancelRate) < alpha { hit.sequential = true }
                if try p(f, .cancelRate) < alpha { hit.fixed = true }
            }
            if hit.sequential { ever.sequential += 1 }
            if hit.fixed { ever.fixed += 1 }
        }
        #expect(ever.sequential <= band200.upperBound, "ever significant with confidence sequences: \(ever.sequential) of 200")
        #expect(ever.fixed > band200.upperBound, "ever significant at a fixed horizon: \(ever.fixed) of 200")
    }

    // Power: B users cancel 5 points more often and their latency is 5 ms higher. Each
    // experiment's row gives its MDE, hence its SE = MDE/(z_0.975 + z_0.8); the power that SE
    // predicts for the true effect, Φ(δ/SE − z) + Φ(−δ/SE − z), averaged over 300 experiments, is
    // about the share of experiments that detect the effect (99 % binomial band around it).
    @Test func detectionRateMatchesThePowerTheMDEPredicts() throws {
        var design = Self.design
        design.cancelEffect = 0.05
        design.latencyEffect = 5
        let z = StandardNormal.quantile(1 - alpha / 2), zPower = StandardNormal.quantile(0.8)
        let metrics: [ExperimentMetric] = [.cancelRate, .feedbackLatency]
        let effects: [Double] = [0.05, 5]
        var detected: [Int] = [0, 0]
        var predicted: [Double] = [0, 0]
        for seed in UInt64(0)..<300 {
            let d = try design.observed(seed: 50_000 + seed)
            let r = try Experiment.observed(control: d.a, treatment: d.b, metrics: metrics, correction: .none)
            for i in 0..<2 {
                let row = try #require(r.rows.first { $0.metric == metrics[i] })
                if try #require(row.pValue) < alpha { detected[i] += 1 }
                let mde: Double = try #require(row.minimumDetectableEffect)
                let se: Double = mde / (z + zPower)
                expectClose(se, try #require(row.standardError), tolerance: 1e-12)
                let ratio: Double = effects[i] / se
                predicted[i] += StandardNormal.cdf(ratio - z) + StandardNormal.cdf(-ratio - z)
            }
        }
        for i in 0..<2 {
            let rate: Double = predicted[i] / 300
            let binomial = Binomial(trials: 300, probability: rate)
            let band: ClosedRange<Int> = binomial.quantile(0.005)...binomial.quantile(0.995)
            #expect(band.contains(detected[i]), "\(metrics[i].rawValue): detected \(detected[i]) of 300, predicted \(rate * 300)")
            #expect(rate > 0.5 && rate < 0.97, "\(metrics[i].rawValue): the effect is near the MDE (predicted power \(rate))")
        }
    }
}
