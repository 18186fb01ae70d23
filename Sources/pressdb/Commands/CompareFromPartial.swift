// `pressdb compare A B --from PARTIAL`: the observed comparison from a partial, through the same
// PressStats code path and renderer as from a database.
import PressStats
import PressStore
import PressAnalysis

extension CompareCommand {
    /// The observed report of arms `a` and `b` read from the partial at `path`
    /// (`Partial.observedArm`: the inputs `ObservedComparisonReader.arm` reads from a database).
    static func observed(_ a: String, _ b: String, partial path: String, by: String, equals: [String: String],
                         split: [Double]?, metrics: [ExperimentMetric], correction: MultipleComparisonCorrection,
                         configuration: StatsConfiguration, unit asked: AnalysisUnit?) throws -> (ExperimentReport, [String]) {
        let partial = try PartialIO.read(path)
        guard partial.replayedAs == nil else {
            throw CLIError.usage("\(path) holds sessions replayed as '\(partial.replayedAs!)'; compare observed sessions "
                + "(a partial of each session under its own configuration)")
        }
        return try observed(a, b, partial: partial, named: path, by: by, equals: equals, split: split, metrics: metrics,
                            correction: correction, configuration: configuration, unit: asked)
    }

    /// The observed report of arms `a` and `b` read from `partial` (called `path` in messages):
    /// a partial file's, or the sessions replayed on another display (`--display`).
    static func observed(_ a: String, _ b: String, partial: Partial, named path: String, by: String, equals: [String: String],
                         split: [Double]?, metrics: [ExperimentMetric], correction: MultipleComparisonCorrection,
                         configuration: StatsConfiguration, unit asked: AnalysisUnit?) throws -> (ExperimentReport, [String]) {
        do {
            _ = try partial.observedArm(a, by: by, equals: equals)
            _ = try partial.observedArm(b, by: by, equals: equals)
            // A partial's users are keyed by config and variant: the unit can be told, and users
            // compared, under --where on those keys; otherwise only by session.
            let coverage = asked == .session ? UserCoverage(sessionsWithoutUser: 0, usersInBothArms: 0, users: 0)
                : try partial.userCoverage(a, b, by: by, equals: equals)
            return try observedReport(a, b, by: by, coverage: coverage, asked: asked, metrics: metrics, split: split,
                                      correction: correction, configuration: configuration,
                                      userArm: { try partial.userArm($0, other: $1, by: by, equals: equals, percentiles: $2) },
                                      sessionArm: { try partial.observedArm($0, by: by, equals: equals) })
        } catch let e as ComparisonError {
            if case .badFilter = e { throw CLIError.usage("\(e)") }
            let filter = equals.isEmpty ? "" : " (with --where \(PairedComparison.describe(equals)))"
            throw CLIError.empty("\(e)\(filter)")
        } catch let e as PartialError {
            throw CLIError.failure("\(path): \(e.message)")
        } catch let e as StatsError {
            throw CLIError.failure("\(Self.describe(e))")
        }
    }
}
