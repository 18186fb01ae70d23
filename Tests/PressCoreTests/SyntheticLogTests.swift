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

    // 10,000 sessions split 50/50: the count of A is Binomial(10000, 0.5), σ = √(10000·0.25) = 50,
    // so a 4σ band is 4800…5200. For 70/30, σ = √(10000·0.21) = 45.83, band 7000 ± 183.
    @Test func splitIsNearItsShares() throws {
        let even = try sessions(SyntheticLogConfiguration(sessions: 10_000, seed: 3))
        let a = even.filter { $0.attributes.variant == "A" }.count
        #expect((4800...5200).contains(a))
        #expect(even.allSatisfy { ($0.attributes.variant == "A" && $0.attributes.config == "spring-press") || ($0.attributes.variant == "B" && $0.attributes.config == "expand-delayed-click") })
        var c = SyntheticLogConfiguration(sessions: 10_000, seed: 3)
        c.arms[0].weight = 70; c.arms[1].weight = 30
        let skewed = try sessions(c).filter { $0.attributes.variant == "A" }.count
        #expect((6817...7183).contains(skewed))
    }

    // The arm comes from its own random stream: changing the split changes which arm sessions
    // fall in, and nothing else — the fingers are the same touch for touch.
    @Test func armIsDrawnIndependentlyOfTheFinger() throws {
        var c = SyntheticLogConfiguration(sessions: 2000, seed: 5)
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
        let all = try sessions(SyntheticLogConfiguration(sessions: 10_000, seed: 17))
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
        let taps = try sessions(SyntheticLogConfiguration(sessions: 10_000, seed: 23)).filter { $0.behavior == .tap }
        let shorter = taps.filter { $0.samples.last!.t - $0.samples[0].t < 0.090 }.count
        let n = Double(taps.count)
        #expect(abs(Double(shorter) / n - 0.5) < 4 * (0.25 / n).squareRoot())
    }

    // An A/A log has no real difference; an effect makes one: +0.05 drag_out in B only.
    // Expected drag_out shares 0.025·(1 − 0.12) ≈ 0.022 in A and 0.075·0.88 ≈ 0.066 in B.
    @Test func effectChangesOnlyItsArm() throws {
        var c = SyntheticLogConfiguration(sessions: 10_000, seed: 29)
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
