// The arms of an observed comparison from a partial: the same PressStats inputs that
// `ObservedComparisonReader` reads from a database, so `Experiment.observed` — and the renderer —
// print from a partial what they print from a database holding the same sessions.
import PressCore
import PressStats
import PressSQLite
import PressStore
import PressIngest

extension Partial {
    /// What an arm can be named by (`--by`): a variant or a configuration, as for a database.
    public static let comparisonGroupings = ObservedComparisonReader.groupings

    /// The cells of the sessions with `equals`' values whose `by` value is `name`.
    private func cells(_ name: String?, by: String, equals: [String: String]) throws -> [([String?], SessionTally)] {
        guard Self.comparisonGroupings.contains(by), let byIndex = Self.groupKeys.firstIndex(of: by) else {
            throw ComparisonError.badFilter("--by must be one of \(Self.comparisonGroupings.joined(separator: ", ")), not '\(by)'")
        }
        let cells: [([String?], SessionTally)]
        do { cells = try groups(matching: equals) } catch { throw ComparisonError.badFilter("\(error) (compare by it on the database)") }
        return cells.filter { key, _ in name == nil || key[byIndex] == name }
    }

    /// Every group with at least one session (by name, NULL left out), as
    /// `ObservedComparisonReader.groups` lists them.
    public func comparisonGroups(by: String, equals: [String: String] = [:]) throws -> [ComparisonGroup] {
        let byIndex = Self.groupKeys.firstIndex(of: by) ?? 0
        var sessions: [String: Int] = [:]
        for (key, tally) in try cells(nil, by: by, equals: equals) {
            if let name = key[byIndex] { sessions[name, default: 0] += tally.sessions }
        }
        return sessions.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            .map { ComparisonGroup(name: $0.key, sessions: $0.value) }
    }

    /// One arm by session (`ObservedComparisonReader.arm`'s inputs): its event counts, and its
    /// latencies expanded from the histograms in ascending order — the order the database's
    /// arm reads them in, so n, Σx and Σx² are summed alike.
    /// - Throws: `ComparisonError.emptyArm`, `.badFilter`.
    public func observedArm(_ name: String, by: String, equals: [String: String] = [:]) throws -> ObservedArm {
        var tally = SessionTally()
        for (_, t) in try cells(name, by: by, equals: equals) { try tally.add(checked: t) }
        guard tally.sessions > 0 else {
            throw ComparisonError.emptyArm(name: name, by: by, available: try comparisonGroups(by: by, equals: equals))
        }
        // The comparison by session holds every latency: refuse an arm too large for memory.
        guard tally.sessions <= Self.maxSessionsComparedBySession else {
            throw PartialError("\(by) '\(name)' holds \(tally.sessions) sessions, more than a comparison by session holds in "
                + "memory (\(Self.maxSessionsComparedBySession)); compare by user (--unit user) or on fewer sessions")
        }
        let events = ArmEventCounts(sessions: tally.sessions, taps: tally.count(.tap), cancels: tally.count(.cancel),
                                    scrollAborts: tally.count(.scrollAbort), falseActions: tally.count(.falseAction),
                                    unseenPresses: tally.count(.unseenPress),
                                    signals: [.deadPress: tally.count(.deadPress)])
        return ObservedArm(name: name, events: events,
                           feedbackLatency: LatencySample(values: Self.expanded(tally.feedbackLatencyMs)),
                           actionLatency: LatencySample(values: Self.expanded(tally.actionLatencyMs)),
                           feedbackPhoton: LatencySample(values: Self.expanded(tally.feedbackPhotonMs)))
    }

    /// The user cells of arm `name`, by user id in the order of the ids' UTF-8 bytes — the order
    /// SQL's `GROUP BY user` gives them.
    /// - Throws: `ComparisonError.badFilter` for `--by` other than variant or config, or a
    ///   `--where` key a partial's users are not keyed by (they are keyed by config and variant).
    private func userCells(_ name: String, by: String, equals: [String: String]) throws -> [(user: String, tally: SessionTally)] {
        guard let byIndex = Self.userKeys.firstIndex(of: by), Self.comparisonGroupings.contains(by) else {
            throw ComparisonError.badFilter("--by must be one of \(Self.comparisonGroupings.joined(separator: ", ")), not '\(by)'")
        }
        let conditions = try Self.userConditions(equals)
        var byUser: [String: SessionTally] = [:]
        for (key, tally) in users where key[byIndex] == name && conditions.allSatisfy({ key[$0.0] == $0.1 }) {
            guard let user = key[2] else { continue }
            byUser[user, default: SessionTally()] += tally
        }
        return byUser.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { ($0.key, $0.value) }
    }

    /// `equals` as (user key index, value) pairs.
    /// - Throws: `ComparisonError.badFilter` for a key other than config or variant.
    static func userConditions(_ equals: [String: String]) throws -> [(Int, String)] {
        try equals.map { key, value in
            guard let i = userKeys.firstIndex(of: key), key != "user" else {
                throw ComparisonError.badFilter("--where \(key): a partial's users are keyed by config and variant only; "
                    + "compare with --unit session, or by user on the database")
            }
            return (i, value)
        }
    }

    /// How the users of arms `a` and `b` cover their sessions (`ObservedComparisonReader.userCoverage`).
    /// - Throws: `ComparisonError.badFilter` (see `userCells`).
    public func userCoverage(_ a: String, _ b: String, by: String, equals: [String: String] = [:]) throws -> UserCoverage {
        let cellsA = try userCells(a, by: by, equals: equals), cellsB = try userCells(b, by: by, equals: equals)
        let all = try cells(a, by: by, equals: equals).reduce(0) { $0 + $1.1.sessions }
            + (try cells(b, by: by, equals: equals).reduce(0) { $0 + $1.1.sessions })
        let withUser = (cellsA + cellsB).reduce(0) { $0 + $1.tally.sessions }
        let usersA = Set(cellsA.map(\.user)), usersB = Set(cellsB.map(\.user))
        let both = usersA.intersection(usersB)
        let sessionsOfBoth = (cellsA + cellsB).reduce(0) { $0 + (both.contains($1.user) ? $1.tally.sessions : 0) }
        return UserCoverage(sessionsWithoutUser: all - withUser, usersInBothArms: both.count,
                            users: usersA.union(usersB).count, sessionsOfUsersInBothArms: sessionsOfBoth)
    }

    /// One arm by user (`Experiment.observed(control: UserArm, …)`), built as the database's is:
    /// each user's totals (`UserArmSums.UserTotals`; latency totals by `UserArmSums.total` of the
    /// user's histogram), users in the order of their ids' bytes, summed by `UserArmSums.sums`;
    /// the users' histograms for the bootstrap when `percentiles`. Sessions without a user are
    /// not in it, nor (given `other`) the users with sessions in arm `other` too — as the
    /// database's `userArm(_:other:percentiles:)` leaves them out.
    /// - Throws: `ComparisonError.emptyArm` when the arm has no user at all, `.badFilter` (see `userCells`).
    public func userArm(_ name: String, other: String? = nil, by: String, equals: [String: String] = [:],
                        percentiles: Bool = true) throws -> UserArm {
        let cells = try userCells(name, by: by, equals: equals)
        if cells.isEmpty {
            // An arm with sessions but no user cell is an arm of 0 users (as the database's
            // reader gives it, so the command says why); an arm with no session at all is empty.
            let groups = try comparisonGroups(by: by, equals: equals)
            guard groups.contains(where: { $0.name == name }) else {
                throw ComparisonError.emptyArm(name: name, by: by, available: groups)
            }
        }
        let crossed = try other.map { Set(try userCells($0, by: by, equals: equals).map(\.user)) } ?? []
        let ordered = cells.filter { !crossed.contains($0.user) }.map(\.tally)
        var histograms: [LatencyKind: [UnitHistogram]] = [:]
        var totals = ordered.map { UserArmSums.UserTotals(sessions: $0.sessions, events: $0.events, latencies: []) }
        for l in LatencyKind.all {
            var perUser: [UnitHistogram] = []
            for (i, u) in ordered.enumerated() {
                let (values, counts) = SessionTally.sorted(u.histogram(l))
                totals[i].latencies.append((counts.reduce(0, +), UserArmSums.total(values: values, counts: counts)))
                if percentiles, !values.isEmpty { perUser.append(try! UnitHistogram(values: values, counts: counts)) }
            }
            if percentiles { histograms[l] = perUser }
        }
        let v = UserArmSums.sums(totals)
        return UserArmSums.arm(name, sums: v, histograms: histograms)
    }

    /// The most sessions an arm compared by session may hold: its latencies are held as Doubles
    /// (8 bytes each, two per session at most), 2^28 sessions in at most 4 GiB.
    public static let maxSessionsComparedBySession = 1 << 28

    /// A histogram's values, each as often as it occurs, ascending.
    static func expanded(_ h: [Double: Int]) -> [Double] {
        let (values, counts) = SessionTally.sorted(h)
        var out: [Double] = []
        out.reserveCapacity(counts.reduce(0, +))
        for (v, c) in zip(values, counts) { out.append(contentsOf: repeatElement(v, count: c)) }
        return out
    }
}
