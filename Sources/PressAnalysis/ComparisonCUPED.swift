// CUPED's inputs for `pressdb compare --cuped`: per arm and metric, the users' in-experiment totals
// beside their pre-period totals of the same metric, summed over the users the analysis by user
// keeps (`CovariateRatioSummary`). The pre-period is the sessions without a variant, or those
// before `--start` (read by a second reader whose `report_input` ends there).
import PressCore
import PressStats
import PressSQLite

/// What `ObservedComparisonReader.cupedCovariates` read: the sums per metric and how many users had
/// a pre-period.
public struct CUPEDCovariates: Sendable {
    public var sums: [ExperimentMetric: (control: CovariateRatioSummary, treatment: CovariateRatioSummary)]
    /// Users of each arm (those the analysis by user keeps) with at least one pre-period session.
    public var usersWithPrePeriod: (control: Int, treatment: Int)
    /// Users of each arm.
    public var users: (control: Int, treatment: Int)

    /// The metrics CUPED adjusts: the outcome rates and the mean latencies (the ratio metrics whose
    /// per-user totals `UserArmSums` reads; the frustration signals need press sequences).
    public static func adjusts(_ metric: ExperimentMetric) -> Bool {
        switch metric.kind {
        case .rate(let e): SessionEvent.outcomeEvents.contains(e)
        case .mean: true
        default: false
        }
    }
}

extension ObservedComparisonReader {
    /// The CUPED sums of arms `a` and `b` for `metrics` (those `CUPEDCovariates.adjusts`): each
    /// arm's users as `userArm` keeps them (not seen in the other arm, with a user id), with their
    /// totals in the pre-period (zeros for a user without pre-period sessions): every session of
    /// `prePeriod`'s reader (one ending before the experiment starts), or, when nil, this reader's
    /// sessions without a variant (`variant_given = 0`: their `variant` is their configuration's name).
    /// - Throws: `DatabaseError`.
    public func cupedCovariates(_ a: String, _ b: String, metrics: [ExperimentMetric],
                                prePeriod: ObservedComparisonReader?) throws -> CUPEDCovariates {
        let pre = try prePeriod.map { try Self.totals($0.runner.db, "user IS NOT NULL", []) }
            ?? Self.totals(runner.db, "user IS NOT NULL AND session_id IN (SELECT id FROM main.sessions WHERE variant_given = 0)", [])
        let condition = "grp = ?1 AND user IS NOT NULL AND user NOT IN "
            + "(SELECT user FROM temp.report_input WHERE grp = ?2 AND user IS NOT NULL)"
        let armA = try UserArmSums.userTotals(runner.db, UserArmSums.perUserSQL(from: "temp.report_input", where: condition),
                                              [.text(a), .text(b)])
        let armB = try UserArmSums.userTotals(runner.db, UserArmSums.perUserSQL(from: "temp.report_input", where: condition),
                                              [.text(b), .text(a)])
        var sums: [ExperimentMetric: (control: CovariateRatioSummary, treatment: CovariateRatioSummary)] = [:]
        for metric in metrics where CUPEDCovariates.adjusts(metric) {
            sums[metric] = (Self.summary(armA, pre, metric), Self.summary(armB, pre, metric))
        }
        return CUPEDCovariates(sums: sums,
                               usersWithPrePeriod: (armA.count { pre[$0.user] != nil }, armB.count { pre[$0.user] != nil }),
                               users: (armA.count, armB.count))
    }

    /// Per user, the totals of the `report_input` rows satisfying `condition`.
    static func totals(_ db: Database, _ condition: String, _ bindings: [SQLValue]) throws -> [String: UserArmSums.UserTotals] {
        let rows = try UserArmSums.userTotals(db, UserArmSums.perUserSQL(from: "temp.report_input", where: condition), bindings)
        return Dictionary(rows.map { ($0.user, $0.totals) }, uniquingKeysWith: { x, _ in x })
    }

    /// One arm's sums of `metric` with the pre-period's: a rate's X is sessions and Y sessions with
    /// the event; a mean's X the latency values and Y their sum, over the users with a value.
    static func summary(_ users: [(user: String, totals: UserArmSums.UserTotals)], _ pre: [String: UserArmSums.UserTotals],
                        _ metric: ExperimentMetric) -> CovariateRatioSummary {
        func pair(_ t: UserArmSums.UserTotals) -> (x: Double, y: Double) {
            switch metric.kind {
            case .rate(let e): return (Double(t.sessions), Double(t.events[SessionEvent.allCases.firstIndex(of: e)!]))
            case .mean(let kind), .percentile(let kind, _):
                let l = LatencyKind.all.firstIndex(of: kind)!
                return (Double(t.latencies[l].n), t.latencies[l].sum)
            }
        }
        var s = CovariateRatioSummary.zero
        for u in users {
            let now = pair(u.totals)
            // A mean's units are the users with a value, as `UserArmSums` counts them.
            if case .mean = metric.kind, now.x == 0 { continue }
            let before = pre[u.user].map(pair) ?? (x: 0, y: 0)
            s.add(denominator: now.x, numerator: now.y, covariateDenominator: before.x, covariateNumerator: before.y)
        }
        return s
    }
}
