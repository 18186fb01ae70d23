#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import PressCore

/// The ingest's rules for a log, checked independently of the generator: every session starts
/// with `began`, its times never decrease, and exactly one `ended`/`cancelled` comes last.
/// Returns the problems found (empty when valid).
private func validateLog(_ records: [(session: String, sample: TouchSample)]) -> [String] {
    var problems: [String] = []
    var lastTime: [String: Double] = [:]
    var ended: Set<String> = []
    for (session, s) in records {
        if ended.contains(session) { problems.append("\(session): record after its terminal sample") }
        if let t = lastTime[session] {
            if s.phase == .began { problems.append("\(session): second began") }
            if s.t < t { problems.append("\(session): time goes back") }
        } else if s.phase != .began {
            problems.append("\(session): first record is \(s.phase)")
        }
        lastTime[session] = s.t
        if s.phase.isTerminal { ended.insert(session) }
    }
    for s in lastTime.keys where !ended.contains(s) { problems.append("\(s): no terminal sample") }
    return problems
}

private func records(_ c: SyntheticLogConfiguration) throws -> [(session: String, sample: TouchSample)] {
    var out: [(session: String, sample: TouchSample)] = []
    try SyntheticLog(c).forEachRecord { s, i in out.append((s.id, s.samples[i].touchSample)) }
    return out
}

private func sessions(_ c: SyntheticLogConfiguration) throws -> [SyntheticSession] {
    var g = try SyntheticSessionGenerator(c)
    var out: [SyntheticSession] = []
    while let s = g.next() { out.append(s) }
    return out
}

@Suite struct SyntheticLogTests {
    @Test func logIsValidByTheIngestRulesAndMergedInTimeOrder() throws {
        let log = try records(SyntheticLogConfiguration(sessions: 3000, seed: 11))
        #expect(validateLog(log).isEmpty)
        #expect(Set(log.map(\.session)).count == 3000)
        // Merged like logs: the whole file is in time order, and sessions do overlap.
        #expect(zip(log, log.dropFirst()).allSatisfy { $0.sample.t <= $1.sample.t })
        var interleaved = 0
        for (a, b) in zip(log, log.dropFirst()) where a.session != b.session && !a.sample.phase.isTerminal { interleaved += 1 }
        #expect(interleaved > 1000)
    }

    @Test func sameSeedSameLogDifferentSeedDifferentLog() throws {
        let a = try sessions(SyntheticLogConfiguration(sessions: 500, seed: 7))
        let b = try sessions(SyntheticLogConfiguration(sessions: 500, seed: 7))
        let c = try sessions(SyntheticLogConfiguration(sessions: 500, seed: 8))
        #expect(a == b)
        #expect(a != c)
        #expect(zip(a, c).filter { $0.samples == $1.samples }.count < 5)
    }

    // 10,000 sessions split 50/50, each drawing its own arm (--assign session): the count of A is
    // Binomial(10000, 0.5), σ = √(10000·0.25) = 50, so a 4σ band is 4800…5200. For 70/30,
    // σ = √(10000·0.21) = 45.83, band 7000 ± 183.
    @Test func splitIsNearItsShares() throws {
        let even = try sessions(SyntheticLogConfiguration(sessions: 10_000, seed: 3, assignment: .session))
        let a = even.filter { $0.attributes.variant == "A" }.count
        #expect((4800...5200).contains(a))
        #expect(even.allSatisfy { ($0.attributes.variant == "A" && $0.attributes.config == "spring-press") || ($0.attributes.variant == "B" && $0.attributes.config == "expand-delayed-click") })
        var c = SyntheticLogConfiguration(sessions: 10_000, seed: 3, assignment: .session)
        c.arms[0].weight = 70; c.arms[1].weight = 30
        let skewed = try sessions(c).filter { $0.attributes.variant == "A" }.count
        #expect((6817...7183).contains(skewed))
    }

    // The arm comes from its own random stream: changing the split changes which arm sessions
    // (or users) fall in, and nothing else — the fingers are the same touch for touch, the
    // users' traits included.
    @Test(arguments: SyntheticAssignment.allCases)
    func armIsDrawnIndependentlyOfTheFinger(assignment: SyntheticAssignment) throws {
        var c = SyntheticLogConfiguration(sessions: 2000, seed: 5, assignment: assignment)
        let even = try sessions(c)
        c.arms[0].weight = 9; c.arms[1].weight = 1
        let skewed = try sessions(c)
        #expect(zip(even, skewed).allSatisfy { $0.samples == $1.samples && $0.behavior == $1.behavior && $0.attributes.frame == $1.attributes.frame })
        #expect(zip(even, skewed).contains { $0.attributes.variant != $1.attributes.variant })
    }

    @Test func aboutTenRecordsPerSession() throws {
        for rate in [60.0] {
            let all = try sessions(SyntheticLogConfiguration(sessions: 10_000, seed: 21, sampleRate: rate))
            let mean = Double(all.reduce(0) { $0 + $1.samples.count }) / Double(all.count)
            #expect(mean > 9 && mean < 11.5, "mean records per session \(mean)")
        }
    }

    @Test func flicksOnlyInScrollContainersAndTheyScroll() throws {
        let all = try sessions(SyntheticLogConfiguration(sessions: 10_000, seed: 13))
        let flicks = all.filter { $0.behavior == .flick }
        #expect(flicks.count > 500)
        #expect(flicks.allSatisfy { $0.attributes.container?.name == "scroll" || $0.attributes.container?.name == "table" })
        #expect(all.filter { $0.attributes.container?.name == "none" }.allSatisfy { $0.behavior != .flick && $0.attributes.scrollAxis == nil })
        var early = 0, late = 0
        for f in flicks {
            let down = f.samples[0]
            // First move sample (moved/stationary, never the lift) ≥ 10 pt along the axis.
            let vertical = f.attributes.scrollAxis == .vertical
            let moves = f.samples.dropFirst().filter { $0.phase.isMove }
            let first = moves.first { s in
                let along = vertical ? abs(s.y - down.y) : abs(s.x - down.x)
                let across = vertical ? abs(s.x - down.x) : abs(s.y - down.y)
                return along >= 10 || (f.attributes.scrollAxis == .both && across >= 10)
            }
            guard let first else { Issue.record("flick \(f.id) never moves 10 pt along its axis"); continue }
            if first.t - down.t < 0.150 { early += 1 } else { late += 1 }
        }
        #expect(early > 100 && late > 100)
    }

    // Even the slowest flick (300 pt/s) must show ≥ 10 pt along its axis in its move samples,
    // at any sample rate: 300 pt/s × 0.0375 s = 11.25 pt at the worst rate (see FingerModel).
    @Test(arguments: [30.0, 60.0, 80.0, 120.0, 240.0])
    func flicksShowTheirTravelAtEveryRate(rate: Double) throws {
        var c = SyntheticLogConfiguration(sessions: 3000, seed: 37, containers: [ContainerShare(.scroll)], sampleRate: rate)
        c.finger.flickSpeed = 300...300.000001
        for f in try sessions(c) where f.behavior == .flick {
            let down = f.samples[0]
            let travel = f.samples.filter { $0.phase.isMove }.map { max(abs($0.x - down.x), abs($0.y - down.y)) }.max() ?? 0
            #expect(travel >= 10, "\(f.id) at \(rate) Hz: \(travel) pt")
        }
    }

    @Test func behavioursLookLikeTheirNames() throws {
        let all = try sessions(SyntheticLogConfiguration(sessions: 10_000, seed: 17, assignment: .session))
        let margin = FingerModel().retentionMargin
        func inside(_ s: SyntheticSample, _ f: Rect, grownBy m: Double) -> Bool {
            s.x >= f.x - m && s.x <= f.x + f.width + m && s.y >= f.y - m && s.y <= f.y + f.height + m
        }
        for s in all {
            let down = s.samples[0], last = s.samples.last!
            switch s.behavior {
            case .tap:
                // Sub-point jitter: every sample within 0.9 pt (+ rounding) of touch-down per axis.
                #expect(s.samples.allSatisfy { abs($0.x - down.x) <= 0.905 && abs($0.y - down.y) <= 0.905 })
                #expect(last.phase == .ended)
            case .dragOut:
                #expect(!inside(last, s.attributes.frame!, grownBy: margin) && last.phase == .ended)
            case .dragBack:
                #expect(s.samples.contains { !inside($0, s.attributes.frame!, grownBy: margin) })
                #expect(inside(last, s.attributes.frame!, grownBy: 0) || abs(last.x - down.x) <= 4 && abs(last.y - down.y) <= 4)
            case .systemCancel:
                #expect(last.phase == .cancelled)
            case .drift, .flick:
                #expect(last.phase == .ended)
            }
            #expect(inside(down, s.attributes.frame!, grownBy: 0))
            #expect(s.attributes.frame!.width >= 44 && s.attributes.frame!.width <= 120 && s.attributes.frame!.height >= 44)
        }
        let cancels = all.filter { $0.samples.last!.phase == .cancelled }.count
        // P(cancel) = 0.005 of the non-flicks: expected ≈ 0.005 · 10000 · (1 − 0.6·0.2) = 44;
        // a 4σ Poisson band is 44 ± 27.
        #expect((17...71).contains(cancels))
    }

    // Tap durations are log-normal with median 0.090 s: half of them are shorter. The fraction
    // is binomial; 4σ on n taps is 4·√(0.25/n).
    @Test func tapDurationMedian() throws {
        let taps = try sessions(SyntheticLogConfiguration(sessions: 10_000, seed: 23, assignment: .session)).filter { $0.behavior == .tap }
        let shorter = taps.filter { $0.samples.last!.t - $0.samples[0].t < 0.090 }.count
        let n = Double(taps.count)
        #expect(abs(Double(shorter) / n - 0.5) < 4 * (0.25 / n).squareRoot())
    }

    // An A/A log has no real difference; an effect makes one: +0.05 drag_out in B only.
    // Expected drag_out shares 0.025·(1 − 0.12) ≈ 0.022 in A and 0.075·0.88 ≈ 0.066 in B.
    @Test func effectChangesOnlyItsArm() throws {
        var c = SyntheticLogConfiguration(sessions: 10_000, seed: 29, assignment: .session)
        c.arms[1].behaviors = try #require(c.arms[1].behaviors.adjusting(.dragOut, by: 0.05))
        let all = try sessions(c)
        func share(_ v: String) -> Double {
            let arm = all.filter { $0.attributes.variant == v }
            return Double(arm.filter { $0.behavior == .dragOut }.count) / Double(arm.count)
        }
        #expect(abs(share("A") - 0.022) < 0.01)
        #expect(abs(share("B") - 0.066) < 0.015)
        #expect(BehaviorMix.standard.adjusting(.systemCancel, by: -0.01) == nil)
        #expect(BehaviorMix.standard.adjusting(.tap, by: 0.01) == nil)
    }

    @Test func sampleRateSetsTheSpacing() throws {
        let all = try sessions(SyntheticLogConfiguration(sessions: 200, seed: 31, sampleRate: 120))
        for s in all {
            let moves = s.samples.filter { $0.phase.isMove }
            for (a, b) in zip(moves, moves.dropFirst()) {
                // 1/120 s = 8333.3 µs, each time rounded to the microsecond.
                #expect(abs((b.microseconds - a.microseconds) - 8333) <= 1)
            }
        }
    }

    @Test func invalidConfigurationsAreRejected() {
        #expect(throws: SyntheticLogError.self) { try SyntheticSessionGenerator(SyntheticLogConfiguration(arms: [])) }
        #expect(throws: SyntheticLogError.self) {
            try SyntheticSessionGenerator(SyntheticLogConfiguration(arms: [SyntheticArm(variant: "A", config: "x"),
                                                                          SyntheticArm(variant: "A", config: "y")]))
        }
        #expect(throws: SyntheticLogError.self) { try SyntheticSessionGenerator(SyntheticLogConfiguration(sampleRate: 0)) }
        #expect(throws: SyntheticLogError.self) {
            try SyntheticSessionGenerator(SyntheticLogConfiguration(containers: [ContainerShare(.none, weight: 0)]))
        }
    }

    @Test func sessionIdsNameTheirUser() throws {
        let all = try sessions(SyntheticLogConfiguration(sessions: 1000, seed: 2))
        #expect(Set(all.map(\.id)).count == 1000)
        #expect(all.allSatisfy { $0.id.hasPrefix($0.attributes[.user]! + "-") && $0.attributes[.appVersion]!.hasSuffix("+synthetic") })
        // 1000 sessions, 20 per user on average: 50 users u1…u50.
        #expect(Set(all.map { $0.attributes[.user] }).count <= 50)
        #expect(all.contains { $0.id.hasSuffix("-0001") })
    }
}

/// Users of a log (`--assign user`, the default): every user's sessions, by user id.
private func byUser(_ all: [SyntheticSession]) -> [String: [SyntheticSession]] {
    Dictionary(grouping: all) { $0.attributes[.user]! }
}

@Suite struct SyntheticUserAssignmentTests {
    // 20,000 sessions, 1,000 users: each user keeps one variant and one set of traits; the number
    // of users in A is Binomial(1000, 0.5) (σ = √250 = 15.8, 4σ band 437…563).
    @Test func usersKeepTheirVariantAndTraits() throws {
        let users = byUser(try sessions(SyntheticLogConfiguration(sessions: 20_000, seed: 41)))
        #expect(users.count > 990 && users.count <= 1000)
        for (_, s) in users {
            #expect(Set(s.map { $0.attributes.variant }).count == 1)
            #expect(Set(s.map { $0.traits }).count == 1 && s[0].traits != nil)
            #expect(Set(s.map { $0.attributes.config }).count == 1)
        }
        let inA = users.values.filter { $0[0].attributes.variant == "A" }.count
        #expect((437...563).contains(inA), "\(inA) of \(users.count) users in A")
        // Per session nobody has traits, and users meet both arms.
        let mixed = byUser(try sessions(SyntheticLogConfiguration(sessions: 2000, seed: 41, assignment: .session)))
        #expect(mixed.values.allSatisfy { $0.allSatisfy { $0.traits == nil } })
        #expect(mixed.values.filter { Set($0.map { $0.attributes.variant }).count == 2 }.count > 90)
    }

    // The traits' distributions (docs/generator.md): the drag-off multiplier χ²₁ — mean 1,
    // variance 2, so the mean of 1,000 has σ = √(2/1000) = 0.045 (4σ: ±0.18); its quartiles
    // 0.1015 and 1.3233 (scipy.stats.chi2.ppf(0.25 / 0.75, 1)), so a quarter of the users below
    // the first, σ = √(0.1875/1000) = 0.0137 (4σ: ±0.055); ln(duration factor) normal with
    // σ = 0.25: its mean within 4·0.25/√1000 = 0.032 of 0, its SD within 0.025 of 0.25
    // (SE ≈ 0.25/√2000 = 0.0056).
    @Test func traitsFollowTheirDistributions() throws {
        let users = byUser(try sessions(SyntheticLogConfiguration(sessions: 20_000, seed: 43)))
        let traits = users.values.map { $0[0].traits! }
        let m = traits.map(\.dragOffMultiplier), n = Double(m.count)
        #expect(abs(m.reduce(0, +) / n - 1) < 0.18)
        #expect(abs(Double(m.filter { $0 < 0.10153104 }.count) / n - 0.25) < 0.055)
        #expect(abs(Double(m.filter { $0 > 1.3233037 }.count) / n - 0.25) < 0.055)
        let l = traits.map { log($0.durationFactor) }
        let mean = l.reduce(0, +) / n
        let squares = l.map { ($0 - mean) * ($0 - mean) }.reduce(0, +)
        let sd = (squares / (n - 1)).squareRoot()
        #expect(abs(mean) < 0.032 && abs(sd - 0.25) < 0.025, "ln f: mean \(mean), sd \(sd)")
    }

    // The traits act on the fingers. Drag-outs: a user's non-flick touch drags out with
    // probability 0.025·m, so among users with m < 0.5 (52 % of them: scipy.stats.chi2.cdf(0.5, 1))
    // the expected count is Σ 0.025·m·n′ over those users (n′ their non-flick touches), and
    // likewise for m > 2; the counts are sums of Bernoulli draws, so each lies within 4√E of E.
    // Without the multiplier the low group would drag out about 6 times as often as expected and
    // the high group about a quarter as often. Durations: a tap lasts the user's median
    // 0.090·f times e^(σ_w Z), σ_w = √(0.45² − 0.25²) = 0.3742; over all users ln(duration) keeps
    // the model's σ 0.45 (the 0.02 s and 1.5 s clamps cut 0.04 % of taps).
    @Test func traitsShapeWhatFingersDo() throws {
        let users = byUser(try sessions(SyntheticLogConfiguration(sessions: 20_000, seed: 47)))
        for (range, label) in [(0.0..<0.5, "m < 0.5"), (2.0..<Double.infinity, "m > 2")] {
            var expected = 0.0, observed = 0
            for (_, s) in users where range.contains(s[0].traits!.dragOffMultiplier) {
                let touches = s.filter { $0.behavior != .flick }
                expected += 0.025 * s[0].traits!.dragOffMultiplier * Double(touches.count)
                observed += touches.filter { $0.behavior == .dragOut }.count
            }
            #expect(abs(Double(observed) - expected) <= 4 * expected.squareRoot(), "\(label): \(observed) drag-outs, \(expected) expected")
        }
        var within: [Double] = [], all: [Double] = []
        for (_, s) in users {
            let median = 0.090 * s[0].traits!.durationFactor
            for t in s where t.behavior == .tap {
                let d = Double(t.samples.last!.microseconds - t.samples[0].microseconds) / 1e6
                within.append(log(d / median)); all.append(log(d))
            }
        }
        func sd(_ x: [Double]) -> Double {
            let m = x.reduce(0, +) / Double(x.count)
            return (x.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(x.count - 1)).squareRoot()
        }
        #expect(abs(sd(within) - 0.3742) < 0.01, "within-user σ(ln d) \(sd(within))")
        #expect(abs(sd(all) - 0.45) < 0.015, "σ(ln d) over users \(sd(all))")
    }

    // Two seeds share no session id and no user: their logs go into one database side by side.
    @Test func seedsNeverShareIds() throws {
        let a = try sessions(SyntheticLogConfiguration(sessions: 500, seed: 7))
        let b = try sessions(SyntheticLogConfiguration(sessions: 500, seed: 8))
        #expect(Set(a.map(\.id)).isDisjoint(with: b.map(\.id)))
        #expect(Set(a.map { $0.attributes[.user]! }).isDisjoint(with: b.map { $0.attributes[.user]! }))
        #expect(a.allSatisfy { $0.id.hasPrefix("s7-u") } && b.allSatisfy { $0.attributes[.user]!.hasPrefix("s8-u") })
    }
}

@Suite struct SyntheticRetryTests {
    // The retry behaviour (docs/generator.md): the regular sessions are the same with or without
    // it; each retry repeats a likely failed press of the same user, control, frame and arm,
    // touching down 0.2–1.5 s after that press's lift, within the frame; sessions come out in
    // touch-down order (what the merge of SyntheticLog needs).
    @Test func retriesRepeatLikelyFailedPressesAndLeaveTheRestAlone() throws {
        let plain = try sessions(SyntheticLogConfiguration(sessions: 2000, seed: 3))
        var c = SyntheticLogConfiguration(sessions: 2000, seed: 3)
        c.retryProbability = 0.5
        let all = try sessions(c)
        let regular = all.filter { !$0.id.hasSuffix("r") }
        #expect(regular == plain)
        let retries = all.filter { $0.id.hasSuffix("r") }
        #expect(retries.count > 50, "\(retries.count) retries")
        let byID = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
        for r in retries {
            let parent = try #require(byID[String(r.id.dropLast())])
            let failed: Set<FingerBehavior> = [.dragOut, .flick, .systemCancel, .tap]
            #expect(failed.contains(parent.behavior))
            #expect(r.attributes == parent.attributes && r.arm == parent.arm)
            let gap = Double(r.samples[0].microseconds - parent.samples.last!.microseconds) / 1_000_000
            #expect(gap >= 0.2 - 1e-6 && gap <= 1.5 + 1e-6, "\(r.id): \(gap) s")
            let f = try #require(r.attributes.frame)
            #expect(r.samples[0].x > f.x && r.samples[0].x < f.x + f.width)
        }
        let starts = all.map { $0.samples[0].microseconds }
        #expect(starts == starts.sorted())
        #expect(throws: SyntheticLogError.self) {
            var bad = SyntheticLogConfiguration()
            bad.retryProbability = 1
            try bad.validate()
        }
    }
    // The shapes of messy experiment data change only what they name, and by their shares: counts
    // within the 99.9 % band of their binomials (scipy 1.17 binom.ppf(0.0005) … binom.isf(0.0005):
    // Binomial(300, 0.2) 38…84 users re-bucketed; Binomial(6000, 0.05) 246…357 sessions without a
    // user; Binomial(6000, 0.8) 4697…4901 sessions of the heavy user).
    // A pre-period of 7 days (the experiment taken to last 7) adds as many sessions as the
    // experiment has, all before its first touch-down, without a variant, under the first arm's
    // configuration, by the same users with the same traits; the experiment's sessions are those
    // of the log without it, shifted in time by one constant.
    @Test func prePeriodAddsEachUsersEarlierSessionsAndLeavesTheExperimentAlone() throws {
        let base = SyntheticLogConfiguration(sessions: 2000, seed: 8)
        var withPre = base
        withPre.prePeriodDays = 7
        let plain = try sessions(base), all = try sessions(withPre)
        let pre = all.filter { $0.attributes.variant == nil }, experiment = all.filter { $0.attributes.variant != nil }
        #expect(pre.count == 2000 && experiment.count == 2000)
        #expect(pre.last!.samples[0].microseconds < experiment.first!.samples[0].microseconds)
        #expect(pre.allSatisfy { $0.id.contains("-p") && $0.attributes.config == "spring-press" && $0.arm == 0 })
        let offset = experiment[0].samples[0].microseconds - plain[0].samples[0].microseconds
        for (p, e) in zip(plain, experiment) {
            var shifted = e
            for i in shifted.samples.indices { shifted.samples[i].microseconds -= offset }
            #expect(shifted == p, "\(e.id) differs beyond its time")
        }
        var traits: [String: UserTraits] = [:]
        for e in experiment { traits[e.attributes[.user]!] = e.traits }
        #expect(pre.allSatisfy { session in traits[session.attributes[.user]!].map { $0 == session.traits } ?? true })
        #expect(Set(pre.compactMap { $0.attributes[.user] }).count > 90)
        #expect(throws: SyntheticLogError.self) {
            var bad = base
            bad.prePeriodDays = -1
            try bad.validate()
        }
    }

    @Test func messyShapesChangeOnlyWhatTheyName() throws {
        let base = SyntheticLogConfiguration(sessions: 6000, seed: 5)
        let plain = try sessions(base)
        func user(_ s: SyntheticSession) -> String { String(s.id.split(separator: "-").prefix(2).joined(separator: "-")) }

        var crossing = base
        crossing.crossArmUsers = 0.2
        let crossed = try sessions(crossing)
        var arms: [String: Set<Int>] = [:]
        var changedUsers = Set<String>()
        for (p, c) in zip(plain, crossed) {
            arms[user(c), default: []].insert(c.arm)
            if SyntheticSessionGenerator.crosses(Int(user(c).split(separator: "u").last!)! - 1, configuration: crossing) {
                changedUsers.insert(user(c))
            } else {
                #expect(p == c, "\(c.id) changed though its user does not cross")
            }
        }
        #expect((38...84).contains(changedUsers.count), "\(changedUsers.count) users re-bucketed")
        #expect(changedUsers.allSatisfy { arms[$0]!.count == 2 })       // 20 sessions each: both arms, all but surely
        #expect(arms.filter { $0.value.count == 2 }.count == changedUsers.count)

        var anonymous = base
        anonymous.missingUser = 0.05
        let logged = try sessions(anonymous)
        var missing = 0
        for (p, a) in zip(plain, logged) {
            if a.attributes[.user] == nil {
                missing += 1
                var back = a
                back.attributes[.user] = user(a)
                #expect(back == p)
            } else {
                #expect(a == p)
            }
        }
        #expect((246...357).contains(missing), "\(missing) sessions without a user")

        var heavy = base
        heavy.whaleShare = 0.8
        let whale = try sessions(heavy)
        let first = whale.filter { user($0) == "s5-u1" }.count
        #expect((4697...4901).contains(first), "\(first) sessions of s5-u1")
        #expect(Set(whale.map(user)).count > 250)
        #expect(throws: SyntheticLogError.self) {
            var bad = base
            bad.assignment = .session
            bad.crossArmUsers = 0.1
            try bad.validate()
        }
    }
}
