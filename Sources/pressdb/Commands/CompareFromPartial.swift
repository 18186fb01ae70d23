// `pressdb compare A B --from PARTIAL`: the observed comparison from a partial, through the same
// PressStats code path and renderer as from a database.
import PressStats
import PressStore

extension CompareCommand {
    /// The observed report of arms `a` and `b` read from the partial at `path`
    /// (`Partial.observedArm`: the inputs `ObservedComparisonReader.arm` reads from a database).
    static func observed(_ a: String, _ b: String, partial path: String, by: String, equals: [String: String],
                         split: [Double]?, metrics: [ExperimentMetric], correction: MultipleComparisonCorrection,
                         configuration: StatsConfiguration) throws -> ExperimentReport {
        let partial = try PartialIO.read(path)
        guard partial.replayedAs == nil else {
            throw CLIError.usage("\(path) holds sessions replayed as '\(partial.replayedAs!)'; compare observed sessions "
                + "(a partial of each session under its own configuration)")
        }
        do {
            let armA = try partial.observedArm(a, by: by, equals: equals), armB = try partial.observedArm(b, by: by, equals: equals)
            return try Experiment.observed(control: armA, treatment: armB, metrics: metrics, expectedSplit: split,
                                           correction: correction, configuration: configuration)
        } catch let e as ComparisonError {
            if case .badFilter = e { throw CLIError.usage("\(e)") }
            let filter = equals.isEmpty ? "" : " (with --where \(PairedComparison.describe(equals)))"
            throw CLIError.empty("\(e)\(filter)")
        } catch let e as StatsError {
            throw CLIError.failure("\(Self.describe(e))")
        }
    }
}
