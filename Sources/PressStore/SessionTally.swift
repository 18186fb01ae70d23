// A tally of replayed sessions: what one summary cell counts, and what a partial adds up per
// report group and per user (the partial format is in PressAnalysis/Partial.swift).
import PressCore
import PressStats
import PressSQLite

/// Sessions, event counts and latency histograms of a set of sessions: one report group's cell
/// of a partial, or one user's in one arm. Every field adds up over disjoint sets of sessions.
public struct SessionTally: Sendable, Hashable {
    public var sessions = 0
    /// Sessions with each event, per `SessionEvent.allCases`.
    public var events = [Int](repeating: 0, count: SessionEvent.allCases.count)
    /// Feedback and action latencies (ms) by exact value: how many sessions had each. Latencies
    /// are frame-quantised (feedback) or a configured delay (action), so these stay small, and a
    /// percentile from them is the percentile of the latencies themselves.
    public var feedbackLatencyMs: [Double: Int] = [:]
    public var actionLatencyMs: [Double: Int] = [:]
    /// Touch-to-photon feedback latencies (ms) by exact value. Partials count them (compare's
    /// photon rows read them); the summary cells and the sweep do not.
    public var feedbackPhotonMs: [Double: Int] = [:]
    /// The largest release jump (pt); −∞ while empty. Kept for report groups, not for users.
    public var releaseJumpPtMax = -Double.infinity

    public init() {}

    /// Adds one result as `add` adds it as an `AggregatedSession` with `SessionEvent.occurs(in:)`
    /// for its events, without building that list (the summary cells count every result
    /// written this way).
    mutating func add(_ r: SessionResult) {
        for (i, e) in SessionEvent.allCases.enumerated() where e.occurs(in: r) { events[i] += 1 }
        addFigures(r.feedbackLatencyMs, r.actionLatencyMs, r.releaseJumpPt)
    }

    /// Adds one result whose outcome events are given as a mask: bit i set when
    /// `SessionEvent.outcomeEvents[i]` occurs (`ResultEventTable.mask`: the `result_events`
    /// view's own answer; those events come first in `allCases`). The signals that need the
    /// user's other presses or the press's travel are not counted (the sweep does not show them).
    public mutating func add(_ r: SessionResult, outcomeEvents mask: UInt8) {
        var m = mask, i = 0
        while m != 0 {
            if m & 1 != 0 { events[i] += 1 }
            m >>= 1; i += 1
        }
        addFigures(r.feedbackLatencyMs, r.actionLatencyMs, r.releaseJumpPt)
    }

    /// One session more, with these latencies (ms, nil: none) and release jump (pt).
    package mutating func addFigures(_ feedback: Double?, _ action: Double?, _ jump: Double) {
        sessions += 1
        if let f = feedback { feedbackLatencyMs[f == 0 ? 0 : f, default: 0] += 1 }
        if let a = action { actionLatencyMs[a == 0 ? 0 : a, default: 0] += 1 }
        releaseJumpPtMax = max(releaseJumpPtMax, jump)
    }

    public static func += (a: inout SessionTally, b: SessionTally) {
        a.sessions += b.sessions
        for i in a.events.indices { a.events[i] += b.events[i] }
        a.feedbackLatencyMs.merge(b.feedbackLatencyMs, uniquingKeysWith: +)
        a.actionLatencyMs.merge(b.actionLatencyMs, uniquingKeysWith: +)
        a.feedbackPhotonMs.merge(b.feedbackPhotonMs, uniquingKeysWith: +)
        a.releaseJumpPtMax = max(a.releaseJumpPtMax, b.releaseJumpPtMax)
    }

    /// The histogram of one latency.
    public func histogram(_ kind: LatencyKind) -> [Double: Int] {
        switch kind { case .feedback: feedbackLatencyMs; case .action: actionLatencyMs; case .feedbackPhoton: feedbackPhotonMs }
    }

    /// The sessions with `event`.
    public func count(_ event: SessionEvent) -> Int { events[SessionEvent.allCases.firstIndex(of: event)!] }

    /// The share of the sessions with `event`; nil without sessions.
    public func rate(_ event: SessionEvent) -> Double? { sessions == 0 ? nil : Double(count(event)) / Double(sessions) }

    /// The f-quantile of the values counted in `h` (value → occurrences), exactly as the report
    /// function `percentile(x, f)` gives it over the values themselves: `Percentile.type7` in its
    /// histogram form. Nil without values.
    public static func percentile(_ f: Double, of h: [Double: Int]) -> Double? {
        guard !h.isEmpty else { return nil }
        let (values, counts) = sorted(h)
        return Percentile.type7(f, sortedValues: values, counts: counts)
    }

    /// A latency histogram as ascending values and their counts.
    public static func sorted(_ h: [Double: Int]) -> (values: [Double], counts: [Int]) {
        let pairs = h.sorted { $0.key < $1.key }
        return (pairs.map(\.key), pairs.map(\.value))
    }
}

extension SessionEvent {
    /// The event's column (0 or 1 per session) in the `result_events` and `session_results`
    /// views, where it is defined (migrations/0003_result_events.sql): `is_` and the raw value
    /// (`is_unseen_press`).
    public var column: String { "is_" + rawValue }

    /// Whether the event occurred in a session with result `r` (false for the signals of the press
    /// sequences, which one result cannot decide): the `result_events` view's column
    /// (migrations/0003_result_events.sql, where the events are defined) evaluated for a result
    /// that is not in a database (result lines, partials). `ResultEventsTests` checks it against
    /// the view for every combination of what the events read: outcome × action fired ×
    /// feedback latency given or not.
    public func occurs(in r: SessionResult) -> Bool {
        switch self {
        case .tap: r.outcome == .tap
        case .cancel: r.outcome == .cancel
        case .scrollAbort: r.outcome == .scrollAbort
        case .falseAction: r.actionFired && r.outcome != .tap
        case .unseenPress: r.outcome != .scrollAbort && r.feedbackLatencyMs == nil
        case .deadPress: !r.actionFired && r.cancelReason != .system && r.maxTravelPt < 10
        // The signals of the press sequences need the actor's other presses, which one result
        // does not have: result lines and partials do not carry them (docs/frustration.md).
        case .rageEpisode, .retryAfterCancel, .retryAfterUnseen: false
        }
    }
}
