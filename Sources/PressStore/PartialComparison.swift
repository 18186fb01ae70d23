// The arms of an observed comparison from a partial: the same PressStats inputs that
// `ObservedComparisonReader` reads from a database, so `Experiment.observed` — and the renderer —
// print from a partial what they print from a database holding the same sessions.
import PressCore
import PressStats

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
        for (_, t) in try cells(name, by: by, equals: equals) { tally += t }
        guard tally.sessions > 0 else {
            throw ComparisonError.emptyArm(name: name, by: by, available: try comparisonGroups(by: by, equals: equals))
        }
        let events = ArmEventCounts(sessions: tally.sessions, taps: tally.count(.tap), cancels: tally.count(.cancel),
                                    scrollAborts: tally.count(.scrollAbort), falseActions: tally.count(.falseAction),
                                    unseenPresses: tally.count(.unseenPress))
        return ObservedArm(name: name, events: events,
                           feedbackLatency: LatencySample(values: Self.expanded(tally.feedbackLatencyMs)),
                           actionLatency: LatencySample(values: Self.expanded(tally.actionLatencyMs)))
    }

    /// One arm by user (`Experiment.observed(control: UserArm, …)`): per user of the arm — users
    /// in the order of their ids' UTF-8 bytes, as SQL's `GROUP BY user` gives them — X = the
    /// user's sessions and Y = those with each event; for each latency X = the user's values, Y
    /// their sum (over the values ascending), and the user's histogram for the bootstrap.
    /// Sessions without a user are not in it (`sessionsWithoutUser` says how many there are).
    /// - Throws: `ComparisonError.emptyArm`, `.badFilter` (a partial's users are keyed by config
    ///   and variant only: no other `--where`).
    public func userArm(_ name: String, by: String, equals: [String: String] = [:]) throws -> UserArm {
        guard let byIndex = Self.userKeys.firstIndex(of: by), Self.comparisonGroupings.contains(by) else {
            throw ComparisonError.badFilter("--by must be one of \(Self.comparisonGroupings.joined(separator: ", ")), not '\(by)'")
        }
        var conditions: [(Int, String)] = []
        for (key, value) in equals {
            guard let i = Self.userKeys.firstIndex(of: key), key != "user" else {
                throw ComparisonError.badFilter("--where: a partial's users are keyed by config and variant, not '\(key)'")
            }
            conditions.append((i, value))
        }
        var byUser: [String: SessionTally] = [:]
        for (key, tally) in users where key[byIndex] == name && conditions.allSatisfy({ key[$0.0] == $0.1 }) {
            byUser[key[2] ?? "", default: SessionTally()] += tally
        }
        guard !byUser.isEmpty else {
            throw ComparisonError.emptyArm(name: name, by: by, available: try comparisonGroups(by: by, equals: equals))
        }
        let ordered = byUser.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map(\.value)
        var events: [SessionEvent: RatioSummary] = [:]
        for e in SessionEvent.allCases {
            events[e] = RatioSummary(units: ordered.map { (denominator: Double($0.sessions), numerator: Double($0.count(e))) })
        }
        func latencies(_ h: (SessionTally) -> [Double: Int]) -> UserLatencies {
            var summary = RatioSummary.zero, histograms: [UnitHistogram] = []
            for u in ordered where !h(u).isEmpty {
                let values = Self.expanded(h(u))
                summary.add(denominator: Double(values.count), numerator: values.reduce(0, +))
                let (v, c) = SessionTally.sorted(h(u))
                histograms.append(try! UnitHistogram(values: v, counts: c))
            }
            return UserLatencies(summary: summary, histograms: histograms)
        }
        return UserArm(name: name, users: ordered.count, sessions: ordered.reduce(0) { $0 + $1.sessions }, events: events,
                       feedbackLatency: latencies(\.feedbackLatencyMs), actionLatency: latencies(\.actionLatencyMs))
    }

    /// Sessions of the arm that have no user (they are in `observedArm`, not in `userArm`).
    public func sessionsWithoutUser(_ name: String, by: String, equals: [String: String] = [:]) throws -> Int {
        let all = try cells(name, by: by, equals: equals).reduce(0) { $0 + $1.1.sessions }
        let byIndex = Self.userKeys.firstIndex(of: by) ?? 0
        let withUser = users.filter { key, _ in key[byIndex] == name && equals.allSatisfy { k, v in
            Self.userKeys.firstIndex(of: k).map { key[$0] == v } ?? false } }.reduce(0) { $0 + $1.value.sessions }
        return all - withUser
    }

    /// A histogram's values, each as often as it occurs, ascending.
    static func expanded(_ h: [Double: Int]) -> [Double] {
        let (values, counts) = SessionTally.sorted(h)
        var out: [Double] = []
        out.reserveCapacity(counts.reduce(0, +))
        for (v, c) in zip(values, counts) { out.append(contentsOf: repeatElement(v, count: c)) }
        return out
    }
}
