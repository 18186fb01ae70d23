// The summary report's numbers (reports/summary.sql) from sufficient statistics, for results
// counted in memory rather than read from `report_input`: session and event counts, latency
// histograms keyed by exact value (feedback latency sits on display frames and action latency is
// a configured delay, so the histograms are small and their percentiles exact), the release
// jumps. Partial aggregates of disjoint sessions add up (`+`), so threads or partitions can each
// count their share.
import PressCore
import PressStats

/// Counts of a value: each distinct value (a latency in ms, a jump in pt) with how often it occurs.
public struct ValueHistogram: Sendable, Hashable {
    /// Value → occurrences (≥ 1). Negative zero is counted as zero.
    public private(set) var counts: [Double: Int] = [:]
    /// Σ occurrences.
    public private(set) var total = 0

    public init() {}

    @inline(__always)
    public mutating func add(_ value: Double, count: Int = 1) {
        counts[value == 0 ? 0 : value, default: 0] += count
        total += count
    }

    public static func + (a: ValueHistogram, b: ValueHistogram) -> ValueHistogram {
        var out = a
        for (v, n) in b.counts { out.add(v, count: n) }
        return out
    }

    /// Every value, ascending, each as often as it occurs.
    public var sortedValues: [Double] {
        var out: [Double] = []
        out.reserveCapacity(total)
        for v in counts.keys.sorted() { out.append(contentsOf: repeatElement(v, count: counts[v]!)) }
        return out
    }

    /// The f-quantile exactly as the report function `percentile(x, f)` gives it over the same
    /// values: the expanded, sorted values through `Percentile.type7`, the code that function
    /// runs (PressStore/ReportFunctions.swift). Nil without values.
    public func percentile(_ f: Double) -> Double? {
        total == 0 ? nil : Percentile.type7(f, ofSorted: sortedValues)
    }

    /// Several quantiles from one expansion.
    public func percentiles(_ fs: [Double]) -> [Double?] {
        guard total > 0 else { return fs.map { _ in nil } }
        let sorted = sortedValues
        return fs.map { Percentile.type7($0, ofSorted: sorted) }
    }

    /// Σ value × occurrences.
    public var sum: Double { counts.reduce(0) { $0 + $1.key * Double($1.value) } }
}

/// The sufficient statistics of the summary report for one group of sessions: what
/// `reports/summary.sql` computes from `report_input`, held as counts and histograms.
///
/// `columns` gives the report's columns after `grp` and `variant` — same names, same order, same
/// values (`sum` and `count` as integers, `avg` as their quotient, Wilson intervals through
/// `wilsonInterval`, percentiles through `ValueHistogram.percentile`, i.e. the report function's
/// own code). The events of each session come from the `result_events` view through a
/// `ResultEventTable`.
///
///     var a = SummaryAggregate()
///     a.add(result, events: table.mask(result))
///     a.columns   // [("sessions", .integer(1)), ("taps", …), …, ("release_jump_pt_max", …)]
public struct SummaryAggregate: Sendable, Hashable {
    /// Sessions counted (`count(*)`).
    public private(set) var sessions = 0
    /// Per event of `SessionEvent.outcomeEvents` (the events `ResultEventTable` gives), the sessions with it (`sum(is_…)`).
    public private(set) var eventCounts = [Int](repeating: 0, count: SessionEvent.outcomeEvents.count)
    /// Non-NULL `feedback_latency_ms`.
    public private(set) var feedbackLatency = ValueHistogram()
    /// Non-NULL `action_latency_ms`.
    public private(set) var actionLatency = ValueHistogram()
    /// Every `release_jump_pt`.
    public private(set) var releaseJump = ValueHistogram()
    /// Feedback latencies above 100 ms (`feedback_latency_ms > 100`).
    public private(set) var feedbackOver100ms = 0

    public init() {}

    /// Counts one session's result with its events (`ResultEventTable.mask`).
    @inline(__always)
    public mutating func add(_ r: SessionResult, events: UInt8) {
        sessions += 1
        var m = events, i = 0
        while m != 0 {
            if m & 1 != 0 { eventCounts[i] += 1 }
            m >>= 1; i += 1
        }
        if let f = r.feedbackLatencyMs {
            feedbackLatency.add(f)
            if f > 100 { feedbackOver100ms += 1 }
        }
        if let a = r.actionLatencyMs { actionLatency.add(a) }
        releaseJump.add(r.releaseJumpPt)
    }

    /// The aggregate of two disjoint sets of sessions.
    public static func + (a: SummaryAggregate, b: SummaryAggregate) -> SummaryAggregate {
        var out = a
        out.sessions += b.sessions
        for i in out.eventCounts.indices { out.eventCounts[i] += b.eventCounts[i] }
        out.feedbackLatency = a.feedbackLatency + b.feedbackLatency
        out.actionLatency = a.actionLatency + b.actionLatency
        out.releaseJump = a.releaseJump + b.releaseJump
        out.feedbackOver100ms += b.feedbackOver100ms
        return out
    }

    /// The sessions with `event`.
    public func count(_ event: SessionEvent) -> Int { eventCounts[SessionEvent.outcomeEvents.firstIndex(of: event)!] }

    /// The share of sessions with `event`; nil without sessions.
    public func rate(_ event: SessionEvent) -> Double? { sessions == 0 ? nil : Double(count(event)) / Double(sessions) }

    /// The summary report's columns after `grp` and `variant`, with its values: SQL NULL where
    /// the report gives NULL (a sum over no sessions, a percentile without values).
    public var columns: [(name: String, value: SQLValue)] {
        let n = sessions
        func sum(_ e: SessionEvent) -> SQLValue { n == 0 ? .null : .integer(Int64(count(e))) }
        func real(_ x: Double?) -> SQLValue { x.map(SQLValue.real) ?? .null }
        func rate(_ name: String, _ e: SessionEvent) -> [(String, SQLValue)] {
            let ci = wilsonInterval(successes: Double(count(e)), trials: Double(n))
            return [(name, real(self.rate(e))), (name + "_low", real(ci?.low)), (name + "_high", real(ci?.high))]
        }
        let feedback = feedbackLatency.percentiles([0.50, 0.90, 0.99])
        let action = actionLatency.percentiles([0.50, 0.90])
        var out: [(String, SQLValue)] = [("sessions", .integer(Int64(n))), ("taps", sum(.tap)), ("cancels", sum(.cancel)),
                                         ("scroll_aborts", sum(.scrollAbort))]
        out += rate("tap_rate", .tap) + rate("cancel_rate", .cancel) + rate("scroll_abort_rate", .scrollAbort)
        out += [("false_actions", sum(.falseAction)), ("unseen_presses", sum(.unseenPress)),
                ("feedback_p50_ms", real(feedback[0])), ("feedback_p90_ms", real(feedback[1])),
                ("feedback_p99_ms", real(feedback[2])),
                ("share_over_100ms", real(feedbackLatency.total == 0 ? nil
                                          : Double(feedbackOver100ms) / Double(feedbackLatency.total))),
                ("action_p50_ms", real(action[0])), ("action_p90_ms", real(action[1])),
                ("release_jump_pt_max", real(releaseJump.counts.keys.max()))]
        return out
    }
}
