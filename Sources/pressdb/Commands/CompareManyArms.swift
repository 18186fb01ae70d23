// `pressdb compare A B C …`: every treatment against the control A, p-values adjusted across all
// arms and metrics, the sample ratio check over all arms. Observed mode from the database.
import PressCore
import PressStats
import PressStore
import PressAnalysis

extension CompareCommand {
    func runManyArms() throws -> Int32 {
        let renderer = try manyArmsRenderer()
        let text = try renderer.render(format, options: .standardOutput(wide: wide, columns: columns, explain: explain, out: out))
        if format == .csv || format == .json || format == .ndjson {
            for line in renderer.standardErrorLines { printError(line) }
        }
        try emit(text, to: out, protecting: database.path)
        return ExitCode.ok
    }

    func manyArmsRenderer() throws -> ManyArmsRenderer {
        for option in [$paired, $from, $displayName] where option.wasGiven {
            throw CLIError.usage("\(option.displayName) compares two arms; more than two (A B C …) are compared observed, from the database")
        }
        let arms = [a, b] + more
        if let split, split.shares.count != arms.count {
            throw CLIError.usage("--split \(split.text) gives \(split.shares.count) shares for \(arms.count) arms; give one per arm "
                + "(e.g. \(arms.map { _ in "1" }.joined(separator: "/")))")
        }
        var configuration = StatsConfiguration()
        configuration.alpha = alpha
        configuration.sequential = sequential
        configuration.sequentialTuning = tuning
        configuration.plannedEffect = mde
        let metrics: [ExperimentMetric]
        do { metrics = try ExperimentMetric.select(self.metrics) } catch {
            throw CLIError.usage("--metric: \(Self.describe(error))")
        }
        let equals = try Equality.dictionary(filter)
        guard database.exists else { throw database.missing }
        let frustration = signals.parameters
        let (report, notes) = try Self.observed(arms: arms, path: database.path, by: by, equals: equals, split: split?.shares,
                                                metrics: metrics, correction: correction, configuration: configuration,
                                                unit: unit, signals: frustration)
        return ManyArmsRenderer(report: report, notes: notes, by: by, perceptionThreshold: jnd)
    }

    /// The observed comparison of `arms` (the first the control) and its notes. By user, a user
    /// seen in more than one arm is left out of all of them (multiple exposures).
    static func observed(arms: [String], path: String, by: String, equals: [String: String], split: [Double]?,
                         metrics: [ExperimentMetric], correction: MultipleComparisonCorrection,
                         configuration: StatsConfiguration, unit asked: AnalysisUnit?,
                         signals: FrustrationParameters) throws -> (MultiArmReport, [String]) {
        let reader: ObservedComparisonReader
        let sequences = metrics.contains(where: ExperimentMetric.frustration.contains)
        do { reader = try ObservedComparisonReader(path: path, by: by, equals: equals, pressSequences: sequences, signals: signals) } catch let e as ComparisonError {
            throw CLIError.usage("\(e)")
        } catch {
            throw CLIError.failure("cannot read \(path): \(error)")
        }
        if try reader.storedSessions() == 0 {
            throw CLIError.empty("the database \(path) holds no sessions; ingest a log first ('pressdb ingest FILE')")
        }
        if by == "config", let unknown = arms.first(where: { !reader.knowsConfiguration($0) }) {
            throw unknownConfiguration(unknown, known: try reader.configurationNames())
        }
        do {
            let coverage = try reader.coverage(requiring: arms)
            var (unit, notes) = try Self.unit(asked, coverage)
            notes = notes.map { $0.replacingOccurrences(of: "seen in both arms", with: "seen in more than one arm") }
            let report: MultiArmReport
            if unit == .user {
                let percentiles = metrics.contains { if case .percentile = $0.kind { true } else { false } }
                let users = try arms.map { arm in try reader.userArm(arm, others: arms.filter { $0 != arm }, percentiles: percentiles) }
                if let empty = users.first(where: { $0.users == 0 }) {
                    throw CLIError.empty("\(by) '\(empty.name)' has no user to compare by: every session of it has no user or "
                        + "belongs to a user seen in more than one arm (\(coverage.usersInBothArms) of \(counted(coverage.users, "user"))); "
                        + "if the variants were drawn per session, compare with --unit session")
                }
                report = try Experiment.observed(control: users[0], treatments: Array(users.dropFirst()), metrics: metrics,
                                                 expectedSplit: split, correction: correction, configuration: configuration)
                notes.insert(users.map { "\(by) \($0.name): \(counted($0.users, "user")), \(counted($0.sessions, "session"))" }
                    .joined(separator: "; "), at: 0)
            } else {
                let sessions = try arms.map(reader.arm)
                report = try Experiment.observed(control: sessions[0], treatments: Array(sessions.dropFirst()), metrics: metrics,
                                                 expectedSplit: split, correction: correction, configuration: configuration)
                notes.insert(sessions.map { "\(by) \($0.name): \(counted($0.events.sessions, "session"))" }.joined(separator: "; "), at: 0)
            }
            return (report, notes)
        } catch let e as ComparisonError {
            let filter = equals.isEmpty ? "" : " (with --where \(PairedComparison.describe(equals)))"
            throw CLIError.empty("\(e)\(filter)")
        } catch let e as StatsError {
            throw CLIError.failure("\(Self.describe(e))")
        }
    }
}
