// An A/B comparison of two arms, from their data to one row per metric: each arm's value, the
// difference B − A with its interval, the relative difference, the p-value (adjusted for the
// number of metrics when asked), the test used and a verdict. Pure: the store computes the
// inputs (counts, sums, sums of squares in SQL; raw latencies for rank tests).
//
// Convention, as in the rest of PressStats: A is the control (the configuration shipped today),
// B the treatment (the candidate); every difference is B − A.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Metrics

/// A per-session yes/no event whose rate is compared.
public enum SessionEvent: String, CaseIterable, Sendable, Hashable {
    /// outcome = tap (a completed press, `touchUpInside` or the long press's `.ended`).
    case tap
    /// outcome = cancel (drag exit, system cancel, safe area).
    case cancel
    /// outcome = scroll_abort (the scroll view took the touch).
    case scrollAbort = "scroll_abort"
    /// The action fired although the outcome is not a tap (e.g. the expand pattern's action on
    /// any release).
    case falseAction = "false_action"
    /// The control received the press (outcome ≠ scroll_abort) but its animation never moved the
    /// edge by a device pixel (feedback latency NULL): an unseen press.
    case unseenPress = "unseen_press"
    /// The first press of a rage episode: a maximal run of presses on one control in quick
    /// succession (docs/frustration.md; per press, so the rate is episodes per press).
    case rageEpisode = "rage_episode"
    /// A cancel or scroll-abort followed by a tap on the same control within the retry window.
    case retryAfterCancel = "retry_after_cancel"
    /// An unseen press followed by another press on the same control within the retry window.
    case retryAfterUnseen = "retry_after_unseen"
    /// A tap-sized lift (under 10 pt of travel, not a system cancel) whose action did not run.
    case deadPress = "dead_press"
}

extension SessionEvent {
    /// The events one result decides from its outcome, its action and whether it was seen — the
    /// `result_events` columns of schema version 3 — in `allCases` order (they come first). The
    /// frustration signals need the user's other presses (rage, retries) or the press's travel
    /// (dead press), so a table keyed by the kind of result (`ResultEventTable`) leaves them out.
    public static let outcomeEvents: [SessionEvent] = [.tap, .cancel, .scrollAbort, .falseAction, .unseenPress]

    /// The position in `allCases`, for per-event arrays.
    var ordinal: Int {
        switch self {
        case .tap: 0
        case .cancel: 1
        case .scrollAbort: 2
        case .falseAction: 3
        case .unseenPress: 4
        case .rageEpisode: 5
        case .retryAfterCancel: 6
        case .retryAfterUnseen: 7
        case .deadPress: 8
        }
    }
}

/// Which latency a latency row is about.
public enum LatencyKind: String, Sendable, Hashable {
    /// Touch-down to the first frame whose edge moved one device pixel (ms).
    case feedback
    /// The triggering touch event to the action (ms).
    case action
    /// Touch-down to the feedback frame reaching the glass on the session's display (ms): the
    /// feedback latency plus touch delivery and the display pipeline (docs/press-model.md §6).
    case feedbackPhoton = "feedback_photon"
}

/// One row of a comparison. The names are the snake_case names `pressdb compare` prints and
/// accepts with `--metric`.
public enum ExperimentMetric: String, CaseIterable, Sendable, Hashable {
    case tapRate = "tap_rate"
    case cancelRate = "cancel_rate"
    case scrollAbortRate = "scroll_abort_rate"
    case falseActionRate = "false_action_rate"
    case unseenRate = "unseen_rate"
    /// Mean feedback latency (ms).
    case feedbackLatency = "feedback_latency_ms"
    /// Median feedback latency (ms).
    case feedbackLatencyP50 = "feedback_latency_p50_ms"
    /// 90th percentile of feedback latency (ms).
    case feedbackLatencyP90 = "feedback_latency_p90_ms"
    /// Mean, median and 90th percentile of touch-to-photon feedback latency (ms); compared when
    /// named, as the family `feedback_photon` (see `all`).
    case feedbackPhoton = "feedback_photon_ms"
    case feedbackPhotonP50 = "feedback_photon_p50_ms"
    case feedbackPhotonP90 = "feedback_photon_p90_ms"
    /// Mean action latency (ms).
    case actionLatency = "action_latency_ms"
    case actionLatencyP50 = "action_latency_p50_ms"
    case actionLatencyP90 = "action_latency_p90_ms"
    /// The frustration signals per press (docs/frustration.md); shown only when asked for.
    case rageEpisodeRate = "rage_episode_rate"
    case retryAfterCancelRate = "retry_after_cancel_rate"
    case retryAfterUnseenRate = "retry_after_unseen_rate"
    case deadPressRate = "dead_press_rate"

    /// What a row measures: a rate of sessions, a mean, or a percentile of a latency.
    public enum Kind: Sendable, Hashable {
        /// The share of sessions with the event (denominator: every session of the arm).
        case rate(SessionEvent)
        case mean(LatencyKind)
        /// The percentile at `probability` (0.5, 0.9).
        case percentile(LatencyKind, probability: Double)
    }

    public var kind: Kind {
        switch self {
        case .tapRate: .rate(.tap)
        case .cancelRate: .rate(.cancel)
        case .scrollAbortRate: .rate(.scrollAbort)
        case .falseActionRate: .rate(.falseAction)
        case .unseenRate: .rate(.unseenPress)
        case .feedbackLatency: .mean(.feedback)
        case .feedbackLatencyP50: .percentile(.feedback, probability: 0.5)
        case .feedbackLatencyP90: .percentile(.feedback, probability: 0.9)
        case .feedbackPhoton: .mean(.feedbackPhoton)
        case .feedbackPhotonP50: .percentile(.feedbackPhoton, probability: 0.5)
        case .feedbackPhotonP90: .percentile(.feedbackPhoton, probability: 0.9)
        case .actionLatency: .mean(.action)
        case .actionLatencyP50: .percentile(.action, probability: 0.5)
        case .actionLatencyP90: .percentile(.action, probability: 0.9)
        case .rageEpisodeRate: .rate(.rageEpisode)
        case .retryAfterCancelRate: .rate(.retryAfterCancel)
        case .retryAfterUnseenRate: .rate(.retryAfterUnseen)
        case .deadPressRate: .rate(.deadPress)
        }
    }

    /// Taps should go up; cancellations, aborts, false actions, unseen presses and latency down.
    public var direction: MetricDirection { self == .tapRate ? .higherIsBetter : .lowerIsBetter }

    /// Whether the row is a rate (a fraction; differences in percentage points when shown).
    public var isRate: Bool { if case .rate = kind { return true } else { return false } }

    /// The metrics compared when none is named, in the order rows are shown: every one but the
    /// frustration signals (`frustration`) and the photon rows (`feedbackPhotonFamily`), which
    /// are compared when named. A photon latency is the feedback latency plus the display's
    /// delivery and pipeline, so its rows would repeat the feedback rows' answer while Holm's
    /// correction counted them as three more tests, widening every other row's threshold.
    public static let all: [ExperimentMetric] = allCases.filter { !frustration.contains($0) && !feedbackPhotonFamily.contains($0) }

    /// The touch-to-photon rows, the family `feedback_photon`.
    public static let feedbackPhotonFamily: [ExperimentMetric] = [.feedbackPhoton, .feedbackPhotonP50, .feedbackPhotonP90]

    /// The frustration signals' rates (docs/frustration.md), the family `frustration`.
    public static let frustration: [ExperimentMetric] = [.rageEpisodeRate, .retryAfterCancelRate, .retryAfterUnseenRate, .deadPressRate]

    /// The latency families: `feedback_latency` and `action_latency` select their mean, p50 and
    /// p90 rows at once.
    public static let families: [String: [ExperimentMetric]] = [
        "feedback_latency": [.feedbackLatency, .feedbackLatencyP50, .feedbackLatencyP90],
        "feedback_photon": feedbackPhotonFamily,
        "action_latency": [.actionLatency, .actionLatencyP50, .actionLatencyP90],
        "frustration": frustration,
    ]

    /// The metrics `names` select (row names or family names), in the standard order; every
    /// metric when `names` is empty.
    /// - Throws: `StatsError.invalidInput` naming an unknown name and the known ones.
    public static func select(_ names: [String]) throws(StatsError) -> [ExperimentMetric] {
        if names.isEmpty { return all }
        var chosen = Set<ExperimentMetric>()
        for name in names {
            if let m = ExperimentMetric(rawValue: name) { chosen.insert(m) } else if let f = families[name] {
                chosen.formUnion(f)
            } else {
                let known = allCases.map(\.rawValue) + families.keys.sorted()
                throw .invalidInput("unknown metric '\(name)'; known: \(known.joined(separator: ", "))")
            }
        }
        return allCases.filter(chosen.contains)
    }
}

// MARK: - Multiple comparisons

/// How p-values are adjusted for the number of metrics compared at once.
public enum MultipleComparisonCorrection: String, CaseIterable, Sendable, Hashable {
    /// No adjustment: each metric is tested at α on its own.
    case none
    /// Holm–Bonferroni: controls the family-wise error rate (the chance of any false "better" or
    /// "worse" among the rows) at α. The default of `pressdb compare`.
    case holm
    /// Benjamini–Hochberg: controls the false discovery rate at α.
    case benjaminiHochberg = "bh"

    /// The adjusted p-values, NaN (no p-value) left out of the count and kept NaN.
    public func adjust(_ pValues: [Double]) -> [Double] {
        switch self {
        case .none: pValues
        case .holm: HolmBonferroni.adjust(pValues)
        case .benjaminiHochberg: BenjaminiHochberg.adjust(pValues)
        }
    }
}

// MARK: - Inputs

/// Sessions per arm and how many had each event: `COUNT(*)` and `SUM(event)` in SQL.
public struct ArmEventCounts: Sendable, Hashable {
    public var sessions: Int
    public var taps: Int
    public var cancels: Int
    public var scrollAborts: Int
    public var falseActions: Int
    public var unseenPresses: Int
    /// The sessions with each frustration signal (`rageEpisode` … `deadPress`); 0 when absent.
    public var signals: [SessionEvent: Int]

    public init(sessions: Int, taps: Int, cancels: Int, scrollAborts: Int, falseActions: Int, unseenPresses: Int,
                signals: [SessionEvent: Int] = [:]) {
        self.sessions = sessions; self.taps = taps; self.cancels = cancels; self.scrollAborts = scrollAborts
        self.falseActions = falseActions; self.unseenPresses = unseenPresses; self.signals = signals
    }

    /// The sessions with `event`.
    public func count(_ event: SessionEvent) -> Int {
        switch event {
        case .tap: taps
        case .cancel: cancels
        case .scrollAbort: scrollAborts
        case .falseAction: falseActions
        case .unseenPress: unseenPresses
        case .rageEpisode, .retryAfterCancel, .retryAfterUnseen, .deadPress: signals[event] ?? 0
        }
    }

    /// The event's successes out of every session.
    public func proportion(_ event: SessionEvent) -> Proportion { Proportion(successes: count(event), trials: sessions) }
}

/// One arm's latencies (ms, NULLs left out): the sufficient statistics for Welch's test and the
/// raw values for the rank tests and percentiles.
public struct LatencySample: Sendable, Hashable {
    /// n, Σx, Σx², as SQL computed them.
    public var summary: MeanSummary
    /// The values themselves (any order).
    public var values: [Double]

    public init(summary: MeanSummary, values: [Double]) { self.summary = summary; self.values = values }

    /// Summarises `values` here (for tests and callers without SQL).
    public init(values: [Double]) { self.init(summary: MeanSummary(values: values), values: values) }
}

/// One arm of an observed (between-sessions) comparison.
public struct ObservedArm: Sendable, Hashable {
    /// The arm's name, for messages (a variant or a configuration).
    public var name: String
    public var events: ArmEventCounts
    public var feedbackLatency: LatencySample
    public var actionLatency: LatencySample
    /// Touch-to-photon feedback latencies; empty when the caller has none.
    public var feedbackPhoton: LatencySample

    public init(name: String, events: ArmEventCounts, feedbackLatency: LatencySample, actionLatency: LatencySample,
                feedbackPhoton: LatencySample = LatencySample(values: [])) {
        self.name = name; self.events = events; self.feedbackLatency = feedbackLatency; self.actionLatency = actionLatency
        self.feedbackPhoton = feedbackPhoton
    }

    func latency(_ kind: LatencyKind) -> LatencySample {
        switch kind { case .feedback: feedbackLatency; case .action: actionLatency; case .feedbackPhoton: feedbackPhoton }
    }
}

/// A 2×2 table of paired yes/no outcomes (the same sessions under A and under B), in McNemar's
/// layout: `both` = a, `controlOnly` = b (yes under A, no under B), `treatmentOnly` = c, `neither` = d.
public struct PairedCounts: Sendable, Hashable {
    public var both: Int
    public var controlOnly: Int
    public var treatmentOnly: Int
    public var neither: Int

    public init(both: Int, controlOnly: Int, treatmentOnly: Int, neither: Int) {
        self.both = both; self.controlOnly = controlOnly; self.treatmentOnly = treatmentOnly; self.neither = neither
    }

    /// n = a + b + c + d.
    public var pairs: Int { both + controlOnly + treatmentOnly + neither }
}

/// Paired latencies: the values of the sessions that have one under both configurations, in the
/// same session order.
public struct PairedLatencies: Sendable, Hashable {
    public var control: [Double]
    public var treatment: [Double]
    public init(control: [Double], treatment: [Double]) { self.control = control; self.treatment = treatment }
}

/// The data of a paired (within-session) comparison: every session replayed under both A and B.
public struct PairedArms: Sendable, Hashable {
    /// Names of the two configurations, for messages.
    public var controlName: String
    public var treatmentName: String
    /// The number of sessions paired.
    public var pairs: Int
    /// One table per event; every table sums to `pairs`.
    public var events: [SessionEvent: PairedCounts]
    public var feedbackLatency: PairedLatencies
    public var actionLatency: PairedLatencies
    /// Touch-to-photon feedback latency pairs; empty when the caller has none.
    public var feedbackPhoton: PairedLatencies

    public init(controlName: String, treatmentName: String, pairs: Int, events: [SessionEvent: PairedCounts],
                feedbackLatency: PairedLatencies, actionLatency: PairedLatencies,
                feedbackPhoton: PairedLatencies = PairedLatencies(control: [], treatment: [])) {
        self.controlName = controlName; self.treatmentName = treatmentName; self.pairs = pairs; self.events = events
        self.feedbackLatency = feedbackLatency; self.actionLatency = actionLatency; self.feedbackPhoton = feedbackPhoton
    }

    func latency(_ kind: LatencyKind) -> PairedLatencies {
        switch kind { case .feedback: feedbackLatency; case .action: actionLatency; case .feedbackPhoton: feedbackPhoton }
    }
}

// MARK: - Inputs by user

/// What one row of a comparison counts as an independent observation.
public enum AnalysisUnit: String, CaseIterable, Sendable, Hashable {
    /// The randomization unit: variants are assigned per user, so each user is one observation and
    /// a rate or mean is a ratio metric over users (the delta method; percentiles by a bootstrap of
    /// users). The default whenever every compared session has a user.
    case user
    /// Every session independent (the classical tests). Right when sessions, not users, were
    /// randomized, or when each user contributes one session.
    case session
}

/// One user's data in one arm, for callers that have the sessions rather than SQL sums (tests,
/// simulations, small logs). Latencies in ms, NULLs left out.
public struct UserSessions: Sendable, Hashable {
    /// The user's sessions in the arm.
    public var sessions: Int
    /// The user's sessions with each event (missing events count 0).
    public var events: [SessionEvent: Int]
    public var feedbackLatencies: [Double]
    public var actionLatencies: [Double]
    /// Touch-to-photon feedback latencies; empty when the caller has none.
    public var feedbackPhotonLatencies: [Double]

    public init(sessions: Int, events: [SessionEvent: Int], feedbackLatencies: [Double], actionLatencies: [Double],
                feedbackPhotonLatencies: [Double] = []) {
        self.sessions = sessions; self.events = events
        self.feedbackLatencies = feedbackLatencies; self.actionLatencies = actionLatencies
        self.feedbackPhotonLatencies = feedbackPhotonLatencies
    }
}

/// One latency of one arm, by user: the ratio summary for the mean (X = the user's values,
/// Y = their sum in ms) and the users' histograms for the percentiles.
public struct UserLatencies: Sendable, Hashable {
    public var summary: RatioSummary
    /// One histogram per user with at least one value (users without are left out).
    public var histograms: [UnitHistogram]

    public init(summary: RatioSummary, histograms: [UnitHistogram]) { self.summary = summary; self.histograms = histograms }

    /// Disjoint users' latencies together.
    public static func + (a: UserLatencies, b: UserLatencies) -> UserLatencies {
        UserLatencies(summary: a.summary + b.summary, histograms: a.histograms + b.histograms)
    }

    /// Builds both from each user's values (ms).
    /// - Throws: `StatsError.invalidInput` for a non-finite value.
    public init(users: [[Double]]) throws(StatsError) {
        var summary = RatioSummary.zero, histograms: [UnitHistogram] = []
        for values in users where !values.isEmpty {
            summary.add(denominator: Double(values.count), numerator: values.reduce(0, +))
            histograms.append(try UnitHistogram(sample: values))
        }
        self.init(summary: summary, histograms: histograms)
    }
}

/// One arm of an observed comparison analysed by user: what SQL computes per arm from a
/// per-user aggregate (see docs/compare.md, "What the store computes").
public struct UserArm: Sendable, Hashable {
    /// The arm's name, for messages.
    public var name: String
    /// Users in the arm (the sample ratio check counts these).
    public var users: Int
    /// Sessions in the arm.
    public var sessions: Int
    /// Per event, over users: X = the user's sessions, Y = the user's sessions with the event
    /// (n = `users`; ΣX = `sessions`). An event without sums gives a row that says so.
    public var events: [SessionEvent: RatioSummary]
    public var feedbackLatency: UserLatencies
    public var actionLatency: UserLatencies
    /// Touch-to-photon feedback latency by user; no users when the caller has none.
    public var feedbackPhoton: UserLatencies

    public init(name: String, users: Int, sessions: Int, events: [SessionEvent: RatioSummary],
                feedbackLatency: UserLatencies, actionLatency: UserLatencies,
                feedbackPhoton: UserLatencies = UserLatencies(summary: .zero, histograms: [])) {
        self.name = name; self.users = users; self.sessions = sessions; self.events = events
        self.feedbackLatency = feedbackLatency; self.actionLatency = actionLatency; self.feedbackPhoton = feedbackPhoton
    }

    /// Sums each user's sessions (one element per user of the arm).
    /// - Throws: `StatsError.invalidInput` for a non-finite latency or more events than sessions.
    public init(name: String, users: [UserSessions]) throws(StatsError) {
        let all = SessionEvent.allCases
        var sums = [RatioSummary](repeating: .zero, count: all.count)
        var counts = [Int](repeating: 0, count: all.count)
        for u in users {
            for i in counts.indices { counts[i] = 0 }
            for (e, k) in u.events {
                guard k >= 0, k <= u.sessions else {
                    throw .invalidInput("a user has \(k) sessions with \(e.rawValue) but \(u.sessions) sessions")
                }
                counts[e.ordinal] = k
            }
            for i in sums.indices { sums[i].add(denominator: Double(u.sessions), numerator: Double(counts[i])) }
        }
        let events = Dictionary(uniqueKeysWithValues: zip(all, sums))
        self.init(name: name, users: users.count, sessions: users.reduce(0) { $0 + $1.sessions }, events: events,
                  feedbackLatency: try UserLatencies(users: users.map(\.feedbackLatencies)),
                  actionLatency: try UserLatencies(users: users.map(\.actionLatencies)),
                  feedbackPhoton: try UserLatencies(users: users.map(\.feedbackPhotonLatencies)))
    }

    /// The arm of the union of two disjoint sets of users (two partials, two days of data): sums
    /// added, histograms concatenated, `a`'s name kept. An event summed in only one of them is
    /// dropped (its sums would miss the other's users).
    public static func + (a: UserArm, b: UserArm) -> UserArm {
        var events: [SessionEvent: RatioSummary] = [:]
        for (e, s) in a.events { if let t = b.events[e] { events[e] = s + t } }
        return UserArm(name: a.name, users: a.users + b.users, sessions: a.sessions + b.sessions, events: events,
                feedbackLatency: a.feedbackLatency + b.feedbackLatency, actionLatency: a.actionLatency + b.actionLatency,
                feedbackPhoton: a.feedbackPhoton + b.feedbackPhoton)
    }

    func event(_ e: SessionEvent) throws(StatsError) -> RatioSummary {
        guard let s = events[e] else { throw .invalidInput("no per-user sums for \(e.rawValue) in arm \(name)") }
        return s
    }

    func latency(_ kind: LatencyKind) -> UserLatencies {
        switch kind { case .feedback: feedbackLatency; case .action: actionLatency; case .feedbackPhoton: feedbackPhoton }
    }
}

/// One user's sessions replayed under both configurations, for callers without SQL: per paired
/// session, the events under A and under B, and the latencies of the pairs that have one under both.
public struct UserPairs: Sendable, Hashable {
    /// The user's paired sessions.
    public var pairs: Int
    /// Per event, McNemar's table of the user's pairs (it sums to `pairs`).
    public var events: [SessionEvent: PairedCounts]
    public var feedbackLatency: PairedLatencies
    public var actionLatency: PairedLatencies

    public init(pairs: Int, events: [SessionEvent: PairedCounts], feedbackLatency: PairedLatencies, actionLatency: PairedLatencies) {
        self.pairs = pairs; self.events = events; self.feedbackLatency = feedbackLatency; self.actionLatency = actionLatency
    }
}

/// One latency of a paired comparison, by user: X = the user's pairs with the latency under both
/// configurations, Y_A and Y_B = their sums under A and under B (ms); and per user the two histograms.
public struct PairedUserLatencies: Sendable, Hashable {
    public var summary: PairedRatioSummary
    public var histograms: [PairedUnitHistogram]

    public init(summary: PairedRatioSummary, histograms: [PairedUnitHistogram]) {
        self.summary = summary; self.histograms = histograms
    }

    /// Builds both from each user's paired values.
    /// - Throws: `StatsError.invalidInput` for samples of different lengths or a non-finite value.
    public init(users: [PairedLatencies]) throws(StatsError) {
        var summary = PairedRatioSummary.zero, histograms: [PairedUnitHistogram] = []
        for u in users where !u.control.isEmpty || !u.treatment.isEmpty {
            guard u.control.count == u.treatment.count else {
                throw .invalidInput("paired samples differ in length: \(u.control.count) and \(u.treatment.count)")
            }
            summary.add(denominator: Double(u.control.count), control: u.control.reduce(0, +), treatment: u.treatment.reduce(0, +))
            histograms.append(PairedUnitHistogram(control: try UnitHistogram(sample: u.control),
                                                  treatment: try UnitHistogram(sample: u.treatment)))
        }
        self.init(summary: summary, histograms: histograms)
    }
}

/// The data of a paired comparison analysed by user.
public struct PairedUserArms: Sendable, Hashable {
    public var controlName: String
    public var treatmentName: String
    /// Users with at least one paired session.
    public var users: Int
    /// Sessions paired.
    public var pairs: Int
    /// Per event, over users: X = the user's pairs, Y_A and Y_B = its pairs with the event under A
    /// and under B.
    public var events: [SessionEvent: PairedRatioSummary]
    /// Per event, McNemar's table summed over all pairs (for the discordant counts shown); optional.
    public var tables: [SessionEvent: PairedCounts]
    public var feedbackLatency: PairedUserLatencies
    public var actionLatency: PairedUserLatencies
    /// Touch-to-photon feedback latency by user; no users when the caller has none.
    public var feedbackPhoton: PairedUserLatencies

    public init(controlName: String, treatmentName: String, users: Int, pairs: Int,
                events: [SessionEvent: PairedRatioSummary], tables: [SessionEvent: PairedCounts],
                feedbackLatency: PairedUserLatencies, actionLatency: PairedUserLatencies,
                feedbackPhoton: PairedUserLatencies = PairedUserLatencies(summary: .zero, histograms: [])) {
        self.controlName = controlName; self.treatmentName = treatmentName; self.users = users; self.pairs = pairs
        self.events = events; self.tables = tables; self.feedbackLatency = feedbackLatency; self.actionLatency = actionLatency
        self.feedbackPhoton = feedbackPhoton
    }

    /// Sums each user's pairs.
    /// - Throws: `StatsError.invalidInput` for a table that does not sum to the user's pairs, or bad latencies.
    public init(controlName: String, treatmentName: String, users: [UserPairs]) throws(StatsError) {
        let all = SessionEvent.allCases
        let none = PairedCounts(both: 0, controlOnly: 0, treatmentOnly: 0, neither: 0)
        var sums = [PairedRatioSummary](repeating: .zero, count: all.count)
        var totals = [PairedCounts](repeating: none, count: all.count)
        var user = [PairedCounts](repeating: none, count: all.count)
        for u in users {
            for i in user.indices { user[i] = PairedCounts(both: 0, controlOnly: 0, treatmentOnly: 0, neither: u.pairs) }
            for (e, t) in u.events {
                guard t.pairs == u.pairs, t.both >= 0, t.controlOnly >= 0, t.treatmentOnly >= 0, t.neither >= 0 else {
                    throw .invalidInput("a user's \(e.rawValue) table \(t) does not hold its \(u.pairs) pairs")
                }
                user[e.ordinal] = t
            }
            for (i, t) in user.enumerated() {
                sums[i].add(denominator: Double(u.pairs), control: Double(t.both + t.controlOnly),
                            treatment: Double(t.both + t.treatmentOnly))
                totals[i].both += t.both; totals[i].controlOnly += t.controlOnly
                totals[i].treatmentOnly += t.treatmentOnly; totals[i].neither += t.neither
            }
        }
        self.init(controlName: controlName, treatmentName: treatmentName, users: users.count,
                  pairs: users.reduce(0) { $0 + $1.pairs }, events: Dictionary(uniqueKeysWithValues: zip(all, sums)),
                  tables: Dictionary(uniqueKeysWithValues: zip(all, totals)),
                  feedbackLatency: try PairedUserLatencies(users: users.map(\.feedbackLatency)),
                  actionLatency: try PairedUserLatencies(users: users.map(\.actionLatency)))
    }

    func latency(_ kind: LatencyKind) -> PairedUserLatencies {
        switch kind { case .feedback: feedbackLatency; case .action: actionLatency; case .feedbackPhoton: feedbackPhoton }
    }
}

// MARK: - Paired statistics used only here

/// The difference of two proportions measured on the same units, p̂_B − p̂_A = (c − b)/n, with the
/// Wald interval for dependent proportions (Agresti, Categorical Data Analysis, 2nd ed., §10.1.1):
///   SE = √((b + c) − (c − b)²/n) / n,  interval δ ± z_{1−α/2} SE (clamped to [−1, 1]).
/// Agresti's Table 10.1 (approval of the Prime Minister in two surveys of the same 1,600 people:
/// a = 794, b = 150, c = 86, d = 570) gives δ = −0.04, SE ≈ 0.0095, interval (−0.06, −0.02).
///
/// The relative difference p_B/p_A − 1 uses the delta method on the log scale with the covariance
/// of the two estimates, Cov(p̂_A, p̂_B) = (a/n − p̂_A p̂_B)/n (`LogScaleRelativeDifference`).
public struct PairedProportionDifference: Sendable, Hashable {
    public let counts: PairedCounts
    /// p̂_A = (a + b)/n, p̂_B = (a + c)/n.
    public let control: Double, treatment: Double
    /// δ = p̂_B − p̂_A.
    public let difference: Double
    public let standardError: Double
    public let interval: ConfidenceInterval

    /// - Throws: `StatsError.tooFewObservations` for an empty table, `.invalidInput` for a negative
    ///   cell or α ∉ (0, 1).
    public init(_ t: PairedCounts, alpha: Double = StatsConfiguration.defaultAlpha) throws(StatsError) {
        try validate(alpha: alpha)
        guard t.both >= 0, t.controlOnly >= 0, t.treatmentOnly >= 0, t.neither >= 0 else {
            throw .invalidInput("paired counts must be non-negative: \(t)")
        }
        let n = Double(t.pairs)
        guard t.pairs > 0 else { throw .tooFewObservations(needed: 1, got: 0) }
        let b = Double(t.controlOnly), c = Double(t.treatmentOnly)
        let delta = (c - b) / n
        let se = max(0, (b + c) - (c - b) * (c - b) / n).squareRoot() / n
        let z = normalCriticalValue(alpha: alpha)
        self.counts = t
        self.control = (Double(t.both) + b) / n
        self.treatment = (Double(t.both) + c) / n
        self.difference = delta
        self.standardError = se
        self.interval = ConfidenceInterval(lower: max(-1, delta - z * se), upper: min(1, delta + z * se), level: 1 - alpha)
    }

    /// p_B/p_A − 1 with its delta-method interval on the log scale; nil when p̂_A or p̂_B is 0.
    /// - Throws: `StatsError.invalidInput` for α ∉ (0, 1).
    public func relativeDifference(alpha: Double = StatsConfiguration.defaultAlpha) throws(StatsError) -> LogScaleRelativeDifference? {
        try validate(alpha: alpha)
        let n = Double(counts.pairs)
        return LogScaleRelativeDifference(
            control: control, controlVariance: control * (1 - control) / n,
            treatment: treatment, treatmentVariance: treatment * (1 - treatment) / n,
            covariance: (Double(counts.both) / n - control * treatment) / n, inference: .fixedHorizon(alpha: alpha))
    }
}

/// The paired t-test of H₀: the mean of the differences B − A is 0 (Student, Biometrika 6:1–25,
/// 1908; the one-sample t-test on the differences):
///   d̄ = Σdᵢ/n,  s_d² = Σ(dᵢ − d̄)²/(n − 1),  SE = s_d/√n,  t = d̄/SE on n − 1 degrees of freedom,
///   interval d̄ ± t_{1−α/2, n−1} SE.
public struct PairedTTest: Sendable, Hashable {
    public let count: Int
    /// Mean of A and of B over the pairs.
    public let controlMean: Double, treatmentMean: Double
    /// d̄ = mean of B − A (equal to treatmentMean − controlMean).
    public let meanDifference: Double
    public let standardError: Double
    public let t: Double
    public let degreesOfFreedom: Double
    public let pValue: Double
    public let interval: ConfidenceInterval
    /// B̄/Ā − 1 with its delta-method interval on the log scale (covariance included); nil unless
    /// both means are positive.
    public let relativeDifference: LogScaleRelativeDifference?

    /// - Throws: `StatsError.tooFewObservations` for fewer than 2 pairs, `.invalidInput` for
    ///   samples of different lengths, a non-finite value or α ∉ (0, 1).
    public init(control: [Double], treatment: [Double], alpha: Double = StatsConfiguration.defaultAlpha) throws(StatsError) {
        try validate(alpha: alpha)
        guard control.count == treatment.count else {
            throw .invalidInput("paired samples differ in length: \(control.count) and \(treatment.count)")
        }
        guard control.count >= 2 else { throw .tooFewObservations(needed: 2, got: control.count) }
        try requireFinite(control, "control")
        try requireFinite(treatment, "treatment")
        let n = Double(control.count)
        let meanA = control.reduce(0, +) / n, meanB = treatment.reduce(0, +) / n
        var ssA = 0.0, ssB = 0.0, sAB = 0.0, ssD = 0.0
        let dBar = meanB - meanA
        for (a, b) in zip(control, treatment) {
            ssA += (a - meanA) * (a - meanA)
            ssB += (b - meanB) * (b - meanB)
            sAB += (a - meanA) * (b - meanB)
            let d = (b - a) - dBar
            ssD += d * d
        }
        let se = (ssD / (n - 1) / n).squareRoot()
        let df = n - 1
        let distribution = StudentT(degreesOfFreedom: df)
        let tCritical = distribution.quantile(1 - alpha / 2)
        self.count = control.count
        self.controlMean = meanA
        self.treatmentMean = meanB
        self.meanDifference = dBar
        self.standardError = se
        self.degreesOfFreedom = df
        if se > 0 {
            self.t = dBar / se
            self.pValue = distribution.twoSidedPValue(dBar / se)
        } else {
            // Every difference equal: the mean difference is known exactly.
            self.t = dBar == 0 ? 0 : (dBar > 0 ? .infinity : -.infinity)
            self.pValue = dBar == 0 ? 1 : 0
        }
        self.interval = ConfidenceInterval(lower: dBar - tCritical * se, upper: dBar + tCritical * se, level: 1 - alpha)
        self.relativeDifference = LogScaleRelativeDifference(
            control: meanA, controlVariance: ssA / (n - 1) / n, treatment: meanB, treatmentVariance: ssB / (n - 1) / n,
            covariance: sAB / (n - 1) / n, inference: .fixedHorizon(alpha: alpha))
    }
}

/// A conservative interval for the difference of two percentiles, ξ_B − ξ_A, from each arm's
/// distribution-free order-statistic interval at level 1 − α/2: if both cover (probability at least
/// 1 − α by Bonferroni's inequality, whether or not the arms are independent), then
/// ξ_B − ξ_A ∈ [L_B − U_A, U_B − L_A]. There is no p-value: the verdict comes from the interval.
public struct PercentileDifference: Sendable, Hashable {
    /// Each arm's percentile with its 1 − α interval (what the row shows per arm).
    public let control: Percentile, treatment: Percentile
    /// ξ̂_B − ξ̂_A.
    public let difference: Double
    /// [L_B − U_A, U_B − L_A] from the 1 − α/2 intervals; level ≥ 1 − α.
    public let interval: ConfidenceInterval

    /// - Throws: as `Percentile`.
    public init(_ probability: Double, control: [Double], treatment: [Double],
                alpha: Double = StatsConfiguration.defaultAlpha) throws(StatsError) {
        let a = try Percentile(probability, of: control, alpha: alpha)
        let b = try Percentile(probability, of: treatment, alpha: alpha)
        let wideA = try Percentile(probability, of: control, alpha: alpha / 2)
        let wideB = try Percentile(probability, of: treatment, alpha: alpha / 2)
        self.control = a
        self.treatment = b
        self.difference = b.estimate - a.estimate
        self.interval = ConfidenceInterval(lower: wideB.interval.lower - wideA.interval.upper,
                                           upper: wideB.interval.upper - wideA.interval.lower, level: 1 - alpha)
    }
}
