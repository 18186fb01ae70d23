// A sweep's rows: per point, the summary report's columns, a few of the sweep's own (rates of
// unseen presses and false actions, the release jump's p90), the paired differences from the
// base with their intervals, and whether the point is on the Pareto frontier of the objectives.
import PressCore
import PressFormats
import PressStats
import PressSQLite
import PressStore
import PressIngest

/// A metric a sweep can trade off: a numeric column of its rows, and which way is better.
public struct SweepObjective: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var direction: MetricDirection

    public init(name: String, direction: MetricDirection) { self.name = name; self.direction = direction }

    /// The objectives of `pressdb sweep` when none are named: what a press animation trades off —
    /// how late the press shows (p90), how often it never shows, how far the edge jumps on
    /// release (p90), how often the scroll view takes the touch, and actions on non-taps.
    public static let defaults = ["feedback_p90_ms", "unseen_rate", "release_jump_p90_pt", "scroll_abort_rate", "false_actions"]
        .map { SweepObjective(name: $0, direction: SweepReport.direction(of: $0)!) }

    /// `NAME`, `NAME:min` or `NAME:max`, NAME one of `SweepReport.objectiveNames`.
    /// - Throws: `SweepDefinitionError` naming the text and the known names.
    public init(parsing text: String) throws(SweepDefinitionError) {
        var name = text, direction: MetricDirection? = nil
        if let colon = text.lastIndex(of: ":") {
            name = String(text[..<colon])
            switch text[text.index(after: colon)...] {
            case "min": direction = .lowerIsBetter
            case "max": direction = .higherIsBetter
            default:
                throw SweepDefinitionError(part: text, message: "the direction after ':' is min or max")
            }
        }
        guard let natural = SweepReport.direction(of: name) else {
            throw SweepDefinitionError(part: name, message: "not a metric of a sweep point; objectives: "
                                       + SweepReport.objectiveNames.joined(separator: ", "))
        }
        self.init(name: name, direction: direction ?? natural)
    }

    /// `NAME` when the direction is the metric's usual one, else `NAME:min|max`.
    public var description: String {
        direction == SweepReport.direction(of: name) ? name : name + (direction == .lowerIsBetter ? ":min" : ":max")
    }
}

/// One row of a sweep: a point (or the base) with its metrics.
public struct SweepRow: Sendable, Hashable {
    /// 1, 2, … for the points; 0 for the base.
    public var point: Int
    /// The varied values, by path, in parameter order (the base's row gives none).
    public var values: [SweepValue]
    /// Metric name → value, in `SweepReport.metricNames` order.
    public var metrics: [SweepColumn]
    /// On the Pareto frontier of the objectives among the points (never the base).
    public var pareto: Bool
    /// The weighted score (0 best, 1 worst over the points) when ranked.
    public var score: Double?
    /// 1 for the best score, when ranked.
    public var rank: Int?

    public init(point: Int, values: [SweepValue], metrics: [SweepColumn], pareto: Bool, score: Double? = nil, rank: Int? = nil) {
        self.point = point; self.values = values; self.metrics = metrics; self.pareto = pareto; self.score = score; self.rank = rank
    }

    /// The metric called `name`, as a number (nil for NULL or no such metric).
    public func number(_ name: String) -> Double? {
        guard let v = metrics.first(where: { $0.name == name })?.value else { return nil }
        switch v {
        case .integer(let i): return Double(i)
        case .real(let d): return d
        default: return nil
        }
    }
}

/// A varied value under its path.
public struct SweepValue: Sendable, Hashable {
    public var path: String
    public var value: CanonicalJSON
    public init(path: String, value: CanonicalJSON) { self.path = path; self.value = value }
}

/// A metric of a row under its name.
public struct SweepColumn: Sendable, Hashable {
    public var name: String
    public var value: SQLValue
    public init(name: String, value: SQLValue) { self.name = name; self.value = value }
}

/// A sweep's rows, with the frontier and (optionally) a ranking.
public struct SweepReport: Sendable {
    public var definition: SweepDefinition
    /// The base configuration's name and version.
    public var baseVersion: String
    public var unit: AnalysisUnit
    public var sessions: Int
    public var units: Int
    public var objectives: [SweepObjective]
    /// Weights of the objectives (one each) when the rows are ranked; nil otherwise.
    public var weights: [Double]?
    /// The base's row (point 0).
    public var base: SweepRow
    /// One row per point, in point order.
    public var rows: [SweepRow]

    /// The sweep's own columns after the summary report's: the shares of sessions with an unseen
    /// press and with a false action, the 90th percentile of the release jump (pt), and of the
    /// seen presses the 90th percentile of feedback on the glass and the share reaching it later
    /// than the 100 ms "instant" bound (docs/press-model.md §5–§6).
    public static let extraNames = ["unseen_rate", "false_action_rate", "release_jump_p90_pt",
                                    "feedback_photon_p90_ms", "share_photon_over_100ms"]

    /// The paired comparisons against the base: a rate's or mean's difference (point − base) with
    /// its 95 % interval and p-value (`NAME_diff`, `_diff_low`, `_diff_high`, `_diff_p`), a
    /// percentile's difference alone.
    static let pairedRates: [(name: String, event: SessionEvent)] = [
        ("tap_rate", .tap), ("cancel_rate", .cancel), ("scroll_abort_rate", .scrollAbort),
        ("false_action_rate", .falseAction), ("unseen_rate", .unseenPress),
    ]
    static let pairedMeans = ["feedback_mean_ms", "action_mean_ms"]
    static let percentileDifferences = ["feedback_p90_ms", "release_jump_p90_pt"]

    /// The summary report's column names after grp and variant (`Partial.summaryValues`).
    public static let summaryNames = Array(Partial.summaryColumns.dropFirst(2))

    /// Every metric column of a row, in order.
    public static let metricNames: [String] = summaryNames + extraNames
        + pairedRates.flatMap { [$0.name + "_diff", $0.name + "_diff_low", $0.name + "_diff_high", $0.name + "_diff_p"] }
        + pairedMeans.flatMap { [$0 + "_diff", $0 + "_diff_low", $0 + "_diff_high", $0 + "_diff_p"] }
        + percentileDifferences.map { $0 + "_diff" }
        + ["pairs", "failures"]

    /// The names an objective may use: the numeric metrics of a point (not the intervals' ends,
    /// the paired columns or the counts of pairs and failures).
    public static let objectiveNames: [String] = (summaryNames + extraNames).filter {
        !$0.hasSuffix("_low") && !$0.hasSuffix("_high") && $0 != "sessions"
    }

    /// Which way `name` is better: higher for taps and the tap rate, lower for everything else;
    /// nil for a name that is not an objective.
    public static func direction(of name: String) -> MetricDirection? {
        guard objectiveNames.contains(name) else { return nil }
        return name == "taps" || name == "tap_rate" ? .higherIsBetter : .lowerIsBetter
    }

    /// The level of the paired intervals.
    public static let alpha = StatsConfiguration.defaultAlpha

    /// The rows of a finished sweep.
    /// - Parameters:
    ///   - points: the points replayed, in `result.points` order.
    ///   - weights: per objective, when the rows are to be ranked (`--top`, `--weights`).
    /// - Throws: `StatsError` for invalid weights.
    public init(definition: SweepDefinition, baseVersion: String, points: [SweepPoint], result: SweepResult,
                objectives: [SweepObjective], weights: [Double]?) throws(StatsError) {
        self.definition = definition
        self.baseVersion = baseVersion
        self.unit = result.unit
        self.sessions = result.sessions
        self.units = result.units
        self.objectives = objectives
        self.weights = weights
        self.base = SweepRow(point: 0, values: [], metrics: Self.metrics(result.base, base: result.base, isBase: true), pareto: false)
        self.rows = zip(points, result.points).map { point, aggregate in
            SweepRow(point: point.number, values: definition.values(of: point).map { SweepValue(path: $0.path, value: $0.value) },
                     metrics: Self.metrics(aggregate, base: result.base, isBase: false), pareto: false)
        }
        try markFrontier()
    }

    /// Rows as stored (`SweepStore`), frontier and ranking as they were.
    public init(definition: SweepDefinition, baseVersion: String, unit: AnalysisUnit, sessions: Int, units: Int,
                objectives: [SweepObjective], weights: [Double]?, base: SweepRow, rows: [SweepRow]) {
        self.definition = definition; self.baseVersion = baseVersion; self.unit = unit; self.sessions = sessions
        self.units = units; self.objectives = objectives; self.weights = weights; self.base = base; self.rows = rows
    }

    /// Marks the frontier of the objectives among the rows, and the scores and ranks when weighted.
    mutating func markFrontier() throws(StatsError) {
        let values = rows.map { row in objectives.map { row.number($0.name) } }
        let directions = objectives.map(\.direction)
        let frontier = ParetoFrontier(values, directions: directions)
        for i in rows.indices { rows[i].pareto = frontier.isOptimal[i] }
        if let weights {
            let s = try WeightedObjectiveScore(values, directions: directions, weights: weights)
            for (rank, i) in s.ranking.enumerated() { rows[i].score = s.scores[i]; rows[i].rank = rank + 1 }
        }
    }

    /// The rows to show: every point in point order, or with a ranking the best `top` by rank.
    public func shown(top: Int?) -> [SweepRow] {
        guard let top, weights != nil else { return rows }
        return Array(rows.filter { $0.rank != nil }.sorted { $0.rank! < $1.rank! }.prefix(top))
    }

    /// One point's metric columns.
    static func metrics(_ a: SweepPointAggregate, base: SweepPointAggregate, isBase: Bool) -> [SweepColumn] {
        var out = zip(summaryNames, Partial.summaryValues(a.summary)).map { SweepColumn(name: $0, value: $1) }
        func real(_ x: Double?) -> SQLValue { x.map { $0.isFinite ? SQLValue.real($0) : .null } ?? .null }
        let s = a.summary
        out.append(SweepColumn(name: "unseen_rate", value: real(s.rate(.unseenPress))))
        out.append(SweepColumn(name: "false_action_rate", value: real(s.rate(.falseAction))))
        out.append(SweepColumn(name: "release_jump_p90_pt", value: real(SessionTally.percentile(0.9, of: a.releaseJumpPt))))
        out.append(SweepColumn(name: "feedback_photon_p90_ms", value: real(SessionTally.percentile(0.9, of: a.feedbackPhotonMs))))
        let seen = a.feedbackPhotonMs.values.reduce(0, +)
        let late = a.feedbackPhotonMs.reduce(0) { $0 + ($1.key > PerceptionThresholds.instant.ms ? $1.value : 0) }
        out.append(SweepColumn(name: "share_photon_over_100ms", value: seen == 0 ? .null : .real(Double(late) / Double(seen))))
        let inference = NormalInference.fixedHorizon(alpha: alpha)
        func paired(_ name: String, _ sums: PairedRatioSummary) {
            let test = isBase ? nil : try? DeltaMethodZTest(paired: sums, inference: inference)
            out += [SweepColumn(name: name + "_diff", value: real(test?.difference)),
                    SweepColumn(name: name + "_diff_low", value: real(test?.interval.lower)),
                    SweepColumn(name: name + "_diff_high", value: real(test?.interval.upper)),
                    SweepColumn(name: name + "_diff_p", value: real(test?.pValue))]
        }
        for (name, event) in pairedRates { paired(name, a.paired(event)) }
        paired("feedback_mean_ms", a.feedbackLatency)
        paired("action_mean_ms", a.actionLatency)
        let p90 = { (x: SweepPointAggregate) in SessionTally.percentile(0.9, of: x.summary.feedbackLatencyMs) }
        let jump = { (x: SweepPointAggregate) in SessionTally.percentile(0.9, of: x.releaseJumpPt) }
        for (name, f) in [("feedback_p90_ms", p90), ("release_jump_p90_pt", jump)] {
            let d: Double? = isBase ? nil : f(a).flatMap { x in f(base).map { x - $0 } }
            out.append(SweepColumn(name: name + "_diff", value: real(d)))
        }
        out.append(SweepColumn(name: "pairs", value: isBase ? .null : .integer(Int64(a.pairs))))
        out.append(SweepColumn(name: "failures", value: .integer(Int64(a.failures))))
        return out
    }
}
