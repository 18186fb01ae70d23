// Comparisons by user: the rows carry the delta-method numbers computed separately in numpy,
// the unit and units, the MDE; sample ratio counts users; sequential rows widen by the
// confidence-sequence factor; the session-level p50 row agrees with its own test.
import Testing
@testable import PressStats

/// Users with (sessions, cancels): the same six and seven users as RatioMetricTests.
private func users(_ pairs: [(Int, Int)]) -> [UserSessions] {
    pairs.map { UserSessions(sessions: $0.0, events: [.cancel: $0.1, .tap: $0.0 - $0.1], feedbackLatencies: [], actionLatencies: []) }
}

private let armA = [(3, 1), (5, 0), (2, 2), (4, 1), (6, 3), (1, 0)]
private let armB = [(4, 2), (3, 0), (5, 1), (2, 1), (7, 4), (3, 3), (2, 0)]

private func row(_ report: ExperimentReport, _ metric: ExperimentMetric) throws -> ExperimentRow {
    try #require(report.rows.first { $0.metric == metric })
}

@Suite struct ExperimentUserTests {
    // numpy (RatioMetricTests): δ = 0.08974358974358976, SE 0.17064603124084432,
    // p 0.5989542608248518, CI (−0.244716485593162, 0.4242036650803415), log-scale relative
    // (−0.4899438909693605, 2.1583716321401014). scipy: MDE = (norm.ppf(0.975) + norm.ppf(0.8))·SE
    // = 0.47807939865399324, relative to A's 1/3: 1.4342381959619799; units per arm for an absolute
    // 0.05 with σ² = 6·Var_A + 7·Var_B = 0.1881186315544856: ((z + z_0.8)/0.05)²σ² = 590.6 → 591.
    @Test func rateRowByUserCarriesTheDeltaMethodNumbers() throws {
        var c = StatsConfiguration()
        c.plannedEffect = .absolute(0.05)
        let a = try UserArm(name: "A", users: users(armA)), b = try UserArm(name: "B", users: users(armB))
        let r = try Experiment.observed(control: a, treatment: b, metrics: [.cancelRate], correction: .none, configuration: c)
        let cancel = try row(r, .cancelRate)
        #expect(cancel.unit == .user && cancel.controlUnits == 6 && cancel.treatmentUnits == 7)
        #expect(cancel.controlCount == 21 && cancel.treatmentCount == 26)     // sessions
        expectClose(cancel.control, 1.0 / 3, tolerance: 1e-15)
        expectClose(cancel.difference, 0.08974358974358976, tolerance: 1e-15)
        expectRelativelyClose(try #require(cancel.standardError), 0.17064603124084432, tolerance: 1e-12)
        // Below the minimum of users no p-value is shown (nor adjusted); with the minimum lowered,
        // the numpy one.
        #expect(cancel.pValue == nil && cancel.adjustedPValue == nil)
        c.minimumUsersPerArm = 1
        c.minimumEffectiveUsersPerArm = 0
        let shown = try row(try Experiment.observed(control: a, treatment: b, metrics: [.cancelRate], correction: .holm,
                                                    configuration: c), .cancelRate)
        expectRelativelyClose(try #require(shown.pValue), 0.5989542608248518, tolerance: 1e-12)
        expectClose(try #require(cancel.differenceInterval).lower, -0.244716485593162, tolerance: 1e-12)
        expectClose(try #require(cancel.differenceInterval).upper, 0.4242036650803415, tolerance: 1e-12)
        expectClose(try #require(cancel.relativeInterval).lower, -0.4899438909693605, tolerance: 1e-12)
        expectClose(try #require(cancel.relativeInterval).upper, 2.1583716321401014, tolerance: 1e-12)
        expectRelativelyClose(try #require(cancel.minimumDetectableEffect), 0.47807939865399324, tolerance: 1e-12)
        expectRelativelyClose(try #require(cancel.relativeMinimumDetectableEffect), 1.4342381959619799, tolerance: 1e-12)
        #expect(cancel.unitsNeededPerArm == 591)
        #expect(!cancel.sequential && cancel.test.hasPrefix("delta-method z-test over users"))
        // Six and seven users are far below 100: no verdict, and the warning says users.
        #expect(cancel.verdict == .tooFewData)
        #expect(r.warnings.contains { $0.message.hasPrefix("too few users: A has only 6 users") })
        #expect(r.unit == .user && r.controlUnits == 6 && r.controlSessions == 21)
    }

    // GrowthBook's formula in numpy for N = 13 users, α = 0.05, N* = 5000: the half-width is
    // 8.798338203487534 times z_0.975·SE, i.e. 2.9426928583766614 for this SE.
    // The sequence's own reach, 0.0897 ± 2.94, passes both ends of what a difference of rates can
    // be, so the interval shown is [−1, 1]; the MDE, (half-width + z_0.8·SE), still carries the
    // factor: 2.9426928583766614 + 0.8416212335729143·0.17064603124084432 (scipy's norm.ppf(0.8)).
    @Test func sequentialRowsWidenByTheConfidenceSequenceFactor() throws {
        var c = StatsConfiguration()
        c.sequential = true
        c.minimumUsersPerArm = 1
        c.minimumEffectiveUsersPerArm = 0
        let a = try UserArm(name: "A", users: users(armA)), b = try UserArm(name: "B", users: users(armB))
        let r = try Experiment.observed(control: a, treatment: b, metrics: [.cancelRate], correction: .none, configuration: c)
        let cancel = try row(r, .cancelRate)
        let ci = try #require(cancel.differenceInterval)
        #expect(ci.lower == -1 && ci.upper == 1)
        expectRelativelyClose(try #require(cancel.minimumDetectableEffect), 2.9426928583766614 + 0.8416212335729143 * 0.17064603124084432,
                              tolerance: 1e-12)
        #expect(cancel.sequential && r.isSequential)
        #expect(cancel.test.contains("confidence sequence"))
        // The always-valid p-value is larger than the fixed-horizon one (0.599) and consistent.
        #expect(try #require(cancel.pValue) > 0.5989542608248518)
    }

    // 700 against 300 users under an intended 50/50: χ² = 2·200²/500 = 160 on users, whatever
    // the sessions per user.
    @Test func sampleRatioCountsUsers() throws {
        let many = UserSessions(sessions: 3, events: [.cancel: 1], feedbackLatencies: [], actionLatencies: [])
        let few = UserSessions(sessions: 7, events: [.cancel: 1], feedbackLatencies: [], actionLatencies: [])
        let a = try UserArm(name: "A", users: Array(repeating: many, count: 700))
        let b = try UserArm(name: "B", users: Array(repeating: few, count: 300))
        let r = try Experiment.observed(control: a, treatment: b, metrics: [.cancelRate])
        expectClose(try #require(r.sampleRatio).chiSquared, 160, tolerance: 1e-9)
        #expect(try #require(r.sampleRatio).observed == [700, 300])
        #expect(r.warnings.first?.message.hasPrefix("sample ratio mismatch: A has 700 users and B 300") == true)
    }

    // The clusters of RatioMetricTests' Obuchowski example as users replayed under A and B:
    // numpy p = 0.6207534409522089, CI (−0.2369009030295381, 0.3969009030295381); the discordant
    // counts shown are the sums over users, b = 4 and c = 6.
    @Test func pairedRateRowByUserIsObuchowskisWaldForm() throws {
        let cells: [(Int, Int, Int, Int)] = [(1, 1, 0, 2), (0, 0, 2, 3), (2, 0, 1, 0), (0, 2, 0, 4), (1, 0, 0, 1), (0, 1, 3, 1)]
        let people = cells.map { a, b, c, d in
            UserPairs(pairs: a + b + c + d, events: [.cancel: PairedCounts(both: a, controlOnly: b, treatmentOnly: c, neither: d)],
                      feedbackLatency: PairedLatencies(control: [], treatment: []),
                      actionLatency: PairedLatencies(control: [], treatment: []))
        }
        let arms = try PairedUserArms(controlName: "A", treatmentName: "B", users: people)
        var few = StatsConfiguration()
        few.minimumUsersPerArm = 1      // six users: shown only with the minimum lowered
        few.minimumEffectiveUsersPerArm = 0
        let r = try Experiment.paired(arms, metrics: [.cancelRate, .feedbackLatency], correction: .none, configuration: few)
        let cancel = try row(r, .cancelRate)
        expectRelativelyClose(try #require(cancel.pValue), 0.6207534409522089, tolerance: 1e-12)
        expectClose(try #require(cancel.differenceInterval).lower, -0.2369009030295381, tolerance: 1e-12)
        expectClose(try #require(cancel.differenceInterval).upper, 0.3969009030295381, tolerance: 1e-12)
        #expect(cancel.pairedCounts == PairedCounts(both: 4, controlOnly: 4, treatmentOnly: 6, neither: 11))
        #expect(cancel.controlUnits == 6 && cancel.controlCount == 25)
        #expect(cancel.test.hasPrefix("cluster-adjusted McNemar over users (Obuchowski 1998"))
        // No latencies: a row that says so rather than an error.
        #expect(try row(r, .feedbackLatency).verdict == .tooFewData)
        // At the default minimum: the warning, no verdict and no p-value.
        let strict = try Experiment.paired(arms, metrics: [.cancelRate], correction: .none)
        #expect(strict.warnings.contains { $0.message.hasPrefix("too few users: only 6 users have paired sessions") })
        #expect(strict.rows[0].verdict == .tooFewData && strict.rows[0].pValue == nil)
    }

    // An inconsistent p50 row, frame-quantized: A has 550 presses on frame 1 and 450 on
    // frame 2, B 450 and 550. numpy: medians 16.67 and 33.33 ms, Hodges–Lehmann shift (median of
    // the 10⁶ differences) 0; scipy mannwhitneyu(B, A, method='asymptotic', use_continuity=True):
    // p = 7.78645034230005e-06. The session-level row is a distribution-shift row: its verdict
    // follows Mann–Whitney (B's latencies are higher: worse) and its relative difference is the
    // shift's (0 %), not the +100 % of the medians that read "no detectable difference" before.
    @Test func sessionP50RowAgreesWithItsTest() throws {
        let f = 1000.0 / 60
        let a = Array(repeating: f, count: 550) + Array(repeating: 2 * f, count: 450)
        let b = Array(repeating: f, count: 450) + Array(repeating: 2 * f, count: 550)
        let arm = { (name: String, values: [Double]) in
            ObservedArm(name: name, events: ArmEventCounts(sessions: values.count, taps: values.count, cancels: 0, scrollAborts: 0,
                                                           falseActions: 0, unseenPresses: 0),
                        feedbackLatency: LatencySample(values: values), actionLatency: LatencySample(values: []))
        }
        let r = try Experiment.observed(control: arm("A", a), treatment: arm("B", b), metrics: [.feedbackLatencyP50], correction: .none)
        let p50 = try row(r, .feedbackLatencyP50)
        expectClose(p50.control, f, tolerance: 1e-12)
        expectClose(p50.treatment, 2 * f, tolerance: 1e-12)
        #expect(p50.difference == 0)
        expectRelativelyClose(try #require(p50.pValue), 7.78645034230005e-06, tolerance: 1e-9)
        #expect(p50.verdict == .worse)
        #expect(p50.relativeDifference == 0)
        #expect(p50.test.hasPrefix("Mann–Whitney U (normal approximation) test of a distribution shift"))
        #expect(!p50.test.contains(","))
        #expect(p50.evidence != .differenceTest)
        // By user (one press per user here), the bootstrap's row is the difference of the medians:
        // one frame, with a p-value that agrees with its interval.
        let people = { (values: [Double]) in
            values.map { UserSessions(sessions: 1, events: [:], feedbackLatencies: [$0], actionLatencies: []) }
        }
        var c = StatsConfiguration()
        c.bootstrapReplicates = 200
        let u = try Experiment.observed(control: try UserArm(name: "A", users: people(a)), treatment: try UserArm(name: "B", users: people(b)),
                                        metrics: [.feedbackLatencyP50], correction: .none, configuration: c)
        let q = try row(u, .feedbackLatencyP50)
        expectClose(q.difference, f, tolerance: 1e-12)
        expectClose(try #require(q.relativeDifference), 1, tolerance: 1e-12)
        #expect((try #require(q.pValue) < 0.05) == (try #require(q.differenceInterval).excludes(0)))
        #expect(q.test.hasPrefix("bootstrap over users: 200 resamples with seed \(ClusterBootstrapQuantiles.defaultSeed);"))
        #expect(u.bootstrap == BootstrapRun(replicates: 200, seed: ClusterBootstrapQuantiles.defaultSeed))
    }

    // A whale: one of A's 120 users holds 2380 of its 2975 sessions (80 %), the others 5 each.
    // Kish's effective number (Σs)²/Σs² = 2975²/(119·5² + 2380²) = 1.5616797900262467 (exact
    // fractions in python3), far below 20: no verdict, no p-value, and the warning says why. A
    // milder heavy user (60 sessions: 65.25 effective) leaves the verdict alone.
    @Test func heavyUsersBelowKishsEffectiveMinimumGetNoVerdict() throws {
        func arm(_ name: String, heaviest: Int) throws -> UserArm {
            try UserArm(name: name, users: (0..<120).map { i in
                let sessions = i == 0 ? heaviest : 5
                return UserSessions(sessions: sessions, events: [.cancel: sessions / 5], feedbackLatencies: [], actionLatencies: [])
            })
        }
        let whale = try Experiment.observed(control: try arm("A", heaviest: 2380), treatment: try arm("B", heaviest: 5),
                                            metrics: [.cancelRate], correction: .holm)
        let row = whale.rows[0]
        expectRelativelyClose(try #require(row.controlEffectiveUnits), 1.5616797900262467, tolerance: 1e-14)
        #expect(row.treatmentEffectiveUnits == 120)
        #expect(row.verdict == .tooFewData && row.pValue == nil && row.adjustedPValue == nil)
        #expect(whale.warnings.contains { $0.message.hasPrefix("heavy users: A's 120 users weigh as 1.562 equal ones") })
        #expect(!whale.warnings.contains { $0.message.hasPrefix("heavy users: B") })
        let mild = try Experiment.observed(control: try arm("A", heaviest: 60), treatment: try arm("B", heaviest: 5),
                                           metrics: [.cancelRate], correction: .holm)
        expectRelativelyClose(try #require(mild.rows[0].controlEffectiveUnits), 65.25095057034221, tolerance: 1e-14)
        #expect(mild.rows[0].verdict != .tooFewData && mild.rows[0].pValue != nil && mild.warnings.isEmpty)
    }

    // --mde's units per arm count the users randomized, not only those with a latency value: two
    // of A's six users and two of B's seven have none. numpy/scipy (delta method over the users
    // with a value, Var_A and Var_B): n = ((norm.ppf(0.975) + norm.ppf(0.8))/10)²·(N_A·Var_A +
    // N_B·Var_B) = 38.521944223817876 → 39 with N = 6 and 7 randomized users (26.18 → 27 with the
    // 4 and 5 users that have a value, a count that would leave out users without one);
    // SE 8.867580910725307.
    @Test func latencyUnitsNeededCountRandomizedUsers() throws {
        let a: [(Int, [Double])] = [(3, [16.7, 33.3]), (2, []), (4, [50.0]), (5, [33.3, 33.3, 16.7]), (1, []), (2, [66.7])]
        let b: [(Int, [Double])] = [(2, [33.3]), (3, [16.7, 50.0]), (2, []), (1, [33.3]), (4, [83.3, 16.7]), (3, []), (2, [50.0, 50.0])]
        func arm(_ name: String, _ users: [(Int, [Double])]) throws -> UserArm {
            try UserArm(name: name, users: users.map { UserSessions(sessions: $0.0, events: [:], feedbackLatencies: $0.1, actionLatencies: []) })
        }
        var c = StatsConfiguration()
        c.plannedEffect = .absolute(10)
        let r = try Experiment.observed(control: try arm("A", a), treatment: try arm("B", b), metrics: [.feedbackLatency],
                                        correction: .none, configuration: c)
        let latency = try row(r, .feedbackLatency)
        expectRelativelyClose(try #require(latency.standardError), 8.867580910725307, tolerance: 1e-12)
        #expect(latency.controlUnits == 4 && latency.treatmentUnits == 5)    // the users behind each mean
        #expect(latency.unitsNeededPerArm == 39)
    }

    // Session-level rows keep their tests and gain the MDE from the z-test with sessions as
    // units: scipy, SE = √(0.03·0.97/999 + 0.055·0.945/999) = 0.009008671164836474 and
    // MDE = 2.8015852181129685·SE = 0.0252385599702464.
    @Test func sessionRowsCarryTheirMDE() throws {
        let arm = { (name: String, sessions: Int, cancels: Int) in
            ObservedArm(name: name, events: ArmEventCounts(sessions: sessions, taps: sessions - cancels, cancels: cancels,
                                                           scrollAborts: 0, falseActions: 0, unseenPresses: 0),
                        feedbackLatency: LatencySample(values: []), actionLatency: LatencySample(values: []))
        }
        let r = try Experiment.observed(control: arm("A", 1000, 30), treatment: arm("B", 1000, 55), metrics: [.cancelRate])
        let cancel = try row(r, .cancelRate)
        #expect(cancel.test.hasPrefix("two-proportion z-test") && cancel.unit == .session && cancel.controlUnits == 1000)
        expectRelativelyClose(try #require(cancel.minimumDetectableEffect), 0.0252385599702464, tolerance: 1e-12)
        expectRelativelyClose(try #require(cancel.standardError), 0.009008671164836474, tolerance: 1e-12)
    }

    @Test func eventOrdinalsFollowAllCases() {
        #expect(SessionEvent.allCases.enumerated().allSatisfy { $0.offset == $0.element.ordinal })
    }

    @Test func armsMergeAcrossPartials() throws {
        let all = try UserArm(name: "A", users: users(armA))
        let parts = try UserArm(name: "A", users: users(Array(armA.prefix(2)))) + UserArm(name: "A", users: users(Array(armA.dropFirst(2))))
        #expect(parts.events[.cancel] == all.events[.cancel] && parts.users == 6 && parts.sessions == 21)
    }
}
