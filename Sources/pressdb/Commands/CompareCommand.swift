// `pressdb compare`: the A/B comparison of two variants or configurations — each metric's values,
// the difference with its interval, the test, and a verdict, after the health checks. How the
// result looks is ComparisonRenderer's.
import Foundation
import PressCore
import PressStats
import PressStore
import PressAnalysis

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "compare",
        abstract: "Compare arm B with arm A: differences, intervals, tests and verdicts per metric.",
        discussion: """
        Observed mode (default): A and B are variants (--by variant) or configurations
        (--by config) of recorded sessions, each session counted under its own configuration.
        Paired mode (--paired): A and B are configurations, and the same sessions are replayed
        under both (counterfactually, as 'pressdb replay --as' does), so each press is its own
        control; restrict the sessions with --where (e.g. variant=A).

        Metrics (--metric, repeatable; default all): tap_rate, cancel_rate, scroll_abort_rate,
        false_action_rate, unseen_rate, feedback_latency_ms (mean), feedback_latency_p50_ms,
        feedback_latency_p90_ms, action_latency_ms, action_latency_p50_ms, action_latency_p90_ms;
        feedback_latency and action_latency select a latency's three rows; when named,
        touch-to-photon feedback_photon_ms, feedback_photon_p50_ms, feedback_photon_p90_ms
        (--metric feedback_photon: all three; not by default, as they repeat the feedback rows
        plus the display's fixed delays and would widen Holm's correction) and the
        frustration signals rage_episode_rate, retry_after_cancel_rate, retry_after_unseen_rate
        and dead_press_rate (--metric frustration: all four), with their parameters
        (--rage-count ... --unseen-retry-window) as in 'pressdb report frustration'. Lower is
        better for everything but tap_rate.

        Unit of analysis (--unit): users by default. Observed, the users seen in both arms
        (multiple exposures) and the sessions without a user are left out of the analysis by
        user and counted above the table; the sample ratio check counts the users left. Paired,
        sessions when some have no user. --unit session assumes the variants were drawn per
        session. By user each user is one observation, as when variants are assigned per user:
        rates and means are ratio metrics over users with the delta-method z-test (Deng,
        Knoblich & Lu 2018), the relative difference on the log scale, p50 and p90 by a
        bootstrap over users (2000 resamples, seed 20240301), the sample ratio check on users,
        and in paired mode the sessions of a user form one cluster (Obuchowski 1998 for rates).
        Below 100 users per arm, or below 20 effective users (Kish's (sum x)^2/sum x^2: a few
        heavy users carry the arm), a row gets no verdict and no p-value. By session each
        session is one observation: rates get Newcombe's interval and the two-proportion z-test
        (Fisher's exact test when a cell is below 5), paired McNemar's test; means Welch's
        t-test, paired the paired t-test; p50 Mann-Whitney U with the Hodges-Lehmann shift,
        paired Wilcoxon signed-rank; p90 order-statistic intervals only, no test. Sessions of
        one user are alike, so analysing sessions when users were randomized overstates
        significance.

        --sequential makes every interval a confidence sequence and every p-value always valid
        (Waudby-Smith et al. 2023, as GrowthBook ships it, tuned by --tuning): look at the
        comparison every day and stop when you like, without inflating false positives. Every
        row gives the minimum detectable effect (MDE) at 80 % power; --mde X (absolute: a
        fraction for rates, ms for latency) or --mde X% (relative to A) adds the units per arm
        needed to detect X. --cuped adjusts the rates and means by each user's pre-period value
        of the same metric (CUPED, Deng et al. 2013: their sessions without a variant, or before
        --start) and gives each row's variance reduction. Health checks above the table: sample ratio mismatch (chi-square
        against --split, p < 0.001), too few sessions or users (no verdict), suspicious lifts
        (>= 50 %). See docs/compare.md.

        The terminal table shows rates as percentages and their differences in percentage
        points (pp), fitted to the terminal's width (--wide, --columns, --explain); Markdown
        rounds as the table does; CSV, JSON and NDJSON carry every number at full precision
        (rates as fractions, latencies in ms). Paired mode shows the progress of its replays on
        standard error. Exit status 4 when an arm has no sessions.

        More than two arms (compare A B C ...): each treatment against A, the control; the
        p-values of every treatment and metric adjusted as one family (Holm by default), users
        seen in more than one arm left out of all, and the sample ratio check over all arms
        (chi-square, k - 1 degrees of freedom, against --split P/Q/R...). Observed mode from
        the database; one section per treatment, an arm column in CSV, JSON and Markdown.

        Segments (--segment ATTR: control, screen, app_version, device or display): B against A
        within each value of the attribute, the p-values of every segment and metric adjusted
        as one family, and per metric Cochran's Q of the segments' differences (inverse-variance
        weights, segments - 1 degrees of freedom) with I²: does the effect differ between them?
        --by keeps naming what A and B are.

        Examples:
          pressdb compare A B
          pressdb compare A B --sequential --mde 5%
          pressdb compare A B --unit session
          pressdb compare A B --cuped --start 1700000000
          pressdb compare spring-press longpress-safe-area --by config \\
              --metric cancel_rate
          pressdb compare spring-press expand-delayed-click --paired --where variant=A
          pressdb compare A B --format html --out compare.html
          pressdb compare A B C --split 50/25/25
          pressdb compare A B --segment screen
        """,
    )

    @Argument(name: "A", help: "The control arm: a variant (or, with --by config or --paired, a configuration)")
    var a: String
    @Argument(name: "B", help: "The treatment arm, compared with A (differences are B − A)")
    var b: String
    @Argument(name: "C", help: "More treatment arms, each compared with A (observed mode; p-values adjusted across all arms)")
    var more: [String]
    @Option(.database) var database: DatabasePath
    @Option(.by(ObservedComparisonReader.groupings, default: "variant", value: "KIND", help: "What A and B name",
                discussion: "Not with --paired."))
    var by: String
    @Option(value: "ATTR", help: "Compare B with A within each value of this attribute, with Cochran's Q of the differences",
            discussion: "Observed mode, two arms; --by keeps naming what A and B are.",
            choices: ObservedComparisonReader.segmentAttributes)
    var segment: String?
    @Option(name: "metric", value: "NAME", help: "Only these metrics",
            defaultDescription: "all")
    var metrics: [String]
    @Option(value: "A", help: "Significance level; intervals are 1 − A",
            rule: .between(0, 1, "must lie between 0 and 1"))
    var alpha = StatsConfiguration.defaultAlpha
    @Option(value: "METHOD", help: "Adjust p-values across the metrics shown")
    var correction = MultipleComparisonCorrection.holm
    @Option(value: "P/Q", help: "The intended split of the units (users or sessions) between A and B (P/Q/R… with more arms), for the sample ratio check",
            discussion: "Not with --paired.", defaultDescription: "50/50")
    var split: ArmSplit?
    @Flag(help: "Replay the same sessions under configurations A and B and compare them pair by pair.")
    var paired: Bool
    @Option(value: "UNIT", help: "What counts as one observation",
            defaultDescription: "user (observed: users in both arms and sessions without a user left out and counted)")
    var unit: AnalysisUnit?
    @Flag(help: "Confidence sequences and always-valid p-values, for looking at a running experiment as often as you like.")
    var sequential: Bool
    @Option(value: "N", help: "With --sequential: the units at which the confidence sequence is tightest", rule: .positive)
    var tuning = ConfidenceSequence.defaultTuning
    @Option(value: "X|X%", help: "An effect to plan for, absolute or relative to A: adds the units per arm needed to detect it")
    var mde: EffectSize?
    @Option(value: "PARTIAL", help: "Compare from a partial ('pressdb aggregate', 'pressdb merge') instead of the database",
            discussion: "Observed mode; --where on config, variant (and with --unit session on control, screen, app_version).")
    var from: String?
    @Option(name: "display", value: "NAME",
            help: "Compare every session replayed now on this display profile ('pressdb displays') instead of its own",
            discussion: "Observed mode, not stored; the arms and filters of --from.")
    var displayName: String?
    @Flag(help: "CUPED: adjust the rates and means by each user's pre-period value of the same metric (their sessions without a variant, or before --start); observed, by user, from the database.")
    var cuped: Bool
    @Option(value: "TIME", help: "With --cuped: the experiment's start; sessions before it are the pre-period, not in the arms",
            discussion: "Seconds on the log's clock (as report --since), or an ISO-8601 time such as 2026-03-01T00:00:00Z for logs whose t is Unix time.")
    var start: StartTime?
    @Option(value: "MS", help: "The latency difference people can perceive, for the perceptible column",
            discussion: "Default 69 ms, the just-noticeable difference of tapping latency (Deber et al., CHI 2015); docs/press-model.md §7 lists the others.",
            rule: .positive)
    var jnd = PerceptionThresholds.default.ms
    @Option(.where(keys: ReportFilter.filterKeys, note: "paired mode: no outcome")) var filter: [Equality]
    @OptionGroup var signals: FrustrationOptions
    @Option(.format(DocumentFormat.allCases)) var format: DocumentFormat
    @Option(.out) var out: String?
    @Flag(.wide) var wide: Bool
    @Option(.columns) var columns: [String]
    @Flag(.explain) var explain: Bool

    func validate() throws {
        guard a != b else {
            throw CLIError.usage("A and B are both '\(a)'; compare two different \(paired ? "configurations" : "variants or configurations")")
        }
        if let twice = more.indices.first(where: { ([a, b] + more[..<$0]).contains(more[$0]) }) {
            throw CLIError.usage("'\(more[twice])' is named twice; name each arm once")
        }
        if $tuning.wasGiven && !sequential {
            throw CLIError.usage("--tuning applies to --sequential only (the confidence sequence's N*)")
        }
        if $start.wasGiven && !cuped {
            throw CLIError.usage("--start applies to --cuped only (where the pre-period ends)")
        }
        if cuped, let refused = [$paired, $from, $displayName].first(where: { $0.wasGiven }) {
            throw CLIError.usage("--cuped does not apply with \(refused.displayName): it reads each user's pre-period from the database, observed")
        }
        if cuped && by == "config" && !$start.wasGiven {
            throw CLIError.usage("--cuped --by config needs --start: a session without a variant is in its configuration's arm, so it cannot be the pre-period")
        }
        if cuped && unit == .session {
            throw CLIError.usage("--cuped adjusts per user: not with --unit session")
        }
        if cuped && (segment != nil || !more.isEmpty) {
            throw CLIError.usage("--cuped compares two arms as a whole: not with \(segment != nil ? "--segment" : "more than two arms") (yet)")
        }
    }

    func run() throws -> Int32 {
        if segment != nil { return try runSegments() }
        if !more.isEmpty { return try runManyArms() }
        let renderer = try renderer()
        let text = try renderer.render(format, options: .standardOutput(wide: wide, columns: columns, explain: explain, out: out))
        if format == .csv || format == .json || format == .ndjson {
            // Machine formats carry rows only: the notes and warnings go to standard error.
            for line in renderer.standardErrorLines { printError(line) }
        }
        try emit(text, to: out, protecting: database.path)
        return ExitCode.ok
    }

    /// The comparison these options ask for, ready to render (also the demo page's).
    func renderer() throws -> ComparisonRenderer {
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
        let path = database.path
        guard database.exists || from != nil else {
            throw database.missing
        }

        let signals = self.signals.parameters
        let report: ExperimentReport
        var notes: [String] = []
        if from != nil || displayName != nil {
            let given = from != nil ? "--from" : "--display"
            for option in from != nil ? [$paired, $database, $displayName] : [$paired] where option.wasGiven {
                throw CLIError.usage("\(option.displayName) does not apply with \(given) (a partial of observed sessions)")
            }
            for option in self.signals.declarations where option.wasGiven {
                throw CLIError.usage("\(option.displayName) does not apply with \(given) (a partial holds no press sequences)")
            }
            // A partial holds no press sequences: rage episodes and retries need each user's other presses.
            let sequenceMetrics: [ExperimentMetric] = [.rageEpisodeRate, .retryAfterCancelRate, .retryAfterUnseenRate]
            if let m = metrics.first(where: sequenceMetrics.contains) {
                throw CLIError.usage("--metric \(m.rawValue) does not apply with \(given): a partial holds no press sequences "
                    + "(docs/frustration.md); compare it on the database, or use dead_press_rate")
            }
            if let from {
                (report, notes) = try Self.observed(a, b, partial: from, by: by, equals: equals, split: split?.shares, metrics: metrics,
                                                    correction: correction, configuration: configuration, unit: unit)
            } else {
                let name = displayName ?? ""
                let partial = try DisplayCounterfactual.partial(database, display: name, replayedAs: nil)
                (report, notes) = try Self.observed(a, b, partial: partial, named: "the sessions replayed on \(name)", by: by,
                                                    equals: equals, split: split?.shares, metrics: metrics, correction: correction,
                                                    configuration: configuration, unit: unit)
                notes.append("every session replayed now on \(name), not on its own display (not stored)")
            }
        } else if paired {
            for option in [$by, $split] where option.wasGiven {
                throw CLIError.usage("\(option.displayName) does not apply with --paired (A and B are configurations; every session is in both arms)")
            }
            (report, notes) = try Self.paired(a, b, path: path, equals: equals, metrics: metrics, correction: correction,
                                              configuration: configuration, unit: unit, signals: signals)
        } else {
            // The frustration metrics read the press sequences of every stored session: seconds
            // of one statement, shown on the progress line.
            let sequences = metrics.contains(where: ExperimentMetric.frustration.contains)
            (report, notes) = try Progress.whileWorking("compare", "press sequences of every stored session (frustration signals)",
                                                        enabled: sequences && Progress.shown(quiet: false)) { _ in
                try Self.observed(a, b, path: path, by: by, equals: equals, split: split?.shares, metrics: metrics,
                                  correction: correction, configuration: configuration, unit: unit, signals: signals,
                                  cuped: cuped ? .some(start?.seconds) : nil)
            }
        }

        return ComparisonRenderer(report: report.classifyingPerceptibility(threshold: jnd), notes: notes)
    }

    static func describe(_ error: Error) -> String {
        if let e = error as? StatsError {
            switch e {
            case .invalidInput(let m): return m
            case let .tooFewObservations(needed, got): return "needs at least \(needed) observations, got \(got)"
            }
        }
        return "\(error)"
    }

    /// The unit to analyse by and its notes (`UserCoverage.unit(asked:)`), a refusal as a usage error.
    static func unit(_ asked: AnalysisUnit?, _ coverage: UserCoverage) throws -> (AnalysisUnit, [String]) {
        do { return try coverage.unit(asked: asked) } catch { throw CLIError.usage(error.description) }
    }

    static func observed(_ a: String, _ b: String, path: String, by: String, equals: [String: String], split: [Double]?,
                         metrics: [ExperimentMetric], correction: MultipleComparisonCorrection,
                         configuration: StatsConfiguration, unit asked: AnalysisUnit?,
                         signals: FrustrationParameters = FrustrationParameters(),
                         cuped: Double?? = nil) throws -> (ExperimentReport, [String]) {
        let reader: ObservedComparisonReader
        let sequences = metrics.contains(where: ExperimentMetric.frustration.contains)
        // With --cuped --start T the arms are the sessions from T on, and a second reader holds those before.
        let start = cuped ?? nil
        var preReader: ObservedComparisonReader? = nil
        do {
            reader = try ObservedComparisonReader(path: path, by: by, equals: equals, pressSequences: sequences, signals: signals,
                                                  since: start)
            if let start { preReader = try ObservedComparisonReader(path: path, by: by, equals: equals, until: start.nextDown) }
        } catch let e as ComparisonError {
            throw CLIError.usage("\(e)")
        } catch {
            throw CLIError.failure("cannot read \(path): \(error)")
        }
        if try reader.storedSessions() == 0 {
            throw CLIError.empty("the database \(path) holds no sessions; ingest a log first ('pressdb ingest FILE')")
        }
        if by == "config", let unknown = [a, b].first(where: { !reader.knowsConfiguration($0) }) {
            throw unknownConfiguration(unknown, known: try reader.configurationNames())
        }
        do {
            return try observedReport(a, b, by: by, coverage: try reader.coverage(requiring: [a, b]), asked: asked, metrics: metrics,
                                      split: split, correction: correction, configuration: configuration,
                                      userArm: { a, b, _ in try reader.userArm(a, other: b, metrics: metrics) }, sessionArm: reader.arm,
                                      covariates: cuped == nil ? nil : {
                                          try reader.cupedCovariates(a, b, metrics: metrics, prePeriod: preReader)
                                      }, prePeriod: start.map { "before \(Render.full($0)) s" } ?? "without a variant")
        } catch let e as ComparisonError {
            let filter = equals.isEmpty ? "" : " (with --where \(PairedComparison.describe(equals)))"
            throw CLIError.empty("\(e)\(filter)")
        } catch let e as StatsError {
            throw CLIError.failure("\(Self.describe(e))")
        }
    }

    /// The observed report of arms `a` and `b` by the unit `unit(_:_:)` chooses from `coverage`,
    /// with its notes; the arms come from `userArm(name, other, percentiles)` (the users of arm
    /// `name` not seen in arm `other`) or `sessionArm(name)` — a database's reader or a partial,
    /// the one path both take.
    static func observedReport(_ a: String, _ b: String, by: String, coverage: UserCoverage, asked: AnalysisUnit?,
                               metrics: [ExperimentMetric], split: [Double]?, correction: MultipleComparisonCorrection,
                               configuration: StatsConfiguration, userArm: (String, String, Bool) throws -> UserArm,
                               sessionArm: (String) throws -> ObservedArm,
                               covariates: (() throws -> CUPEDCovariates)? = nil,
                               prePeriod: String = "") throws -> (ExperimentReport, [String]) {
        var (unit, notes) = try Self.unit(asked, coverage)
        let report: ExperimentReport
        if unit == .user {
            let percentiles = metrics.contains { if case .percentile = $0.kind { true } else { false } }
            let usersA = try userArm(a, b, percentiles), usersB = try userArm(b, a, percentiles)
            if let empty = [usersA, usersB].first(where: { $0.users == 0 }) {
                throw CLIError.empty("\(by) '\(empty.name)' has no user to compare by: every session of it has no user or "
                    + "belongs to a user seen in both arms (\(coverage.usersInBothArms) of \(counted(coverage.users, "user"))); "
                    + "if the variants were drawn per session, compare with --unit session")
            }
            let cuped = try covariates?()
            report = try Experiment.observed(control: usersA, treatment: usersB, metrics: metrics, expectedSplit: split,
                                             correction: correction, configuration: configuration, covariates: cuped?.sums ?? [:])
            if let cuped {
                notes.append("CUPED: the covariate is each user's value of the same metric in their sessions \(prePeriod); "
                    + "\(cuped.usersWithPrePeriod.control) of \(counted(cuped.users.control, "user")) in \(a) and "
                    + "\(cuped.usersWithPrePeriod.treatment) of \(cuped.users.treatment) in \(b) have one (the others count at their arm's mean)")
            }
            notes.insert("\(by) \(a): \(counted(usersA.users, "user")), \(counted(usersA.sessions, "session")); "
                + "\(by) \(b): \(counted(usersB.users, "user")), \(counted(usersB.sessions, "session"))", at: 0)
        } else {
            report = try Experiment.observed(control: try sessionArm(a), treatment: try sessionArm(b), metrics: metrics,
                                             expectedSplit: split, correction: correction, configuration: configuration)
            notes.insert("\(by) \(a): \(counted(report.controlSessions, "session")); \(by) \(b): \(counted(report.treatmentSessions, "session"))", at: 0)
        }
        return (report, notes)
    }

    static func paired(_ a: String, _ b: String, path: String, equals: [String: String], metrics: [ExperimentMetric],
                       correction: MultipleComparisonCorrection,
                       configuration: StatsConfiguration, unit asked: AnalysisUnit?,
                       signals: FrustrationParameters = FrustrationParameters()) throws -> (ExperimentReport, [String]) {
        let database = DatabasePath(path)
        let store = try database.openStore()
        let pairing = try PairedComparison(store: store, signals: signals,
                                           pressSequences: metrics.contains(where: ExperimentMetric.frustration.contains))
        // Sessions replayed now under A or B, of all that lack one of the two results.
        let progress = Progress("compare", unit: .sessions, enabled: Progress.shown(quiet: false))
        defer { progress.clear() }
        pairing.replayer.options.progress = progress.replayed
        guard let configA = pairing.replayer.catalog.resolve(a) else { throw unknownConfiguration(a, pairing.replayer.catalog) }
        guard let configB = pairing.replayer.catalog.resolve(b) else { throw unknownConfiguration(b, pairing.replayer.catalog) }
        let summary: PairingSummary
        let unit: AnalysisUnit, why: [String]
        do {
            summary = try database.writing { try pairing.prepare(control: configA, treatment: configB, equals: equals) }
            (unit, why) = try Self.unit(asked, try pairing.userCoverage(equals: equals))
        } catch let e as ComparisonError {
            if case .badFilter = e { throw CLIError.usage("\(e)") }
            throw CLIError.empty("\(e)")
        }
        var notes = ["paired \(summary.paired) of \(counted(summary.selected, "session"))"
            + (equals.isEmpty ? "" : " (\(PairedComparison.describe(equals)))")
            + ", each replayed under \(a) and \(b)"
            + (summary.replayedControl + summary.replayedTreatment > 0
               ? " (replayed now: \(summary.replayedControl) as \(a), \(summary.replayedTreatment) as \(b))" : "")]
        if summary.unpairedCount > 0 {
            notes.append("\(summary.unpairedCount) session\(summary.unpairedCount == 1 ? "" : "s") could not be paired:")
            for u in summary.unpaired { notes.append("  \(u.session): \(u.reason)") }
            if summary.unpairedCount > summary.unpaired.count { notes.append("  … and \(summary.unpairedCount - summary.unpaired.count) more") }
        }
        notes += why
        guard summary.paired > 0 else {
            throw CLIError.empty("no session could be paired under \(a) and \(b)")
        }
        do {
            if unit == .user {
                let percentiles = metrics.contains { if case .percentile = $0.kind { true } else { false } }
                let arms = try pairing.readByUser(control: configA, treatment: configB, equals: equals, percentiles: percentiles)
                notes[0] += "; \(counted(arms.users, "user"))"
                return (try Experiment.paired(arms, metrics: metrics, correction: correction, configuration: configuration), notes)
            }
            let arms = try pairing.read(control: configA, treatment: configB, equals: equals)
            return (try Experiment.paired(arms, metrics: metrics, correction: correction, configuration: configuration), notes)
        } catch let e as StatsError {
            throw CLIError.failure("\(Self.describe(e))")
        }
    }
}

extension AnalysisUnit: ChoiceArgument {}

/// `--mde X` (absolute, in the row's unit) or `--mde X%` (relative to A).
extension EffectSize: ExpressibleByArgument {
    init(argument: String) throws(InvalidArgument) {
        let relative = argument.hasSuffix("%")
        let number = relative ? String(argument.dropLast()) : argument
        guard let x = Double(number.trimmingCharacters(in: .whitespaces)), x.isFinite, x != 0 else {
            throw .requirement("needs a non-zero effect: a number (0.01 = 1 point of a rate, or ms of latency) or a percentage of A (5%)")
        }
        self = relative ? .relative(x / 100) : .absolute(x)
    }

    var argumentDescription: String {
        switch self {
        case .absolute(let x): Render.full(x)
        case .relative(let x): Render.full(x * 100) + "%"
        }
    }
}

/// `--start TIME`: seconds on the log's clock, or an ISO-8601 time read as Unix seconds.
struct StartTime: ExpressibleByArgument {
    var seconds: Double
    var text: String

    init(argument: String) throws(InvalidArgument) {
        text = argument
        if let x = Double(argument), x.isFinite { seconds = x; return }
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime]
        guard let date = parser.date(from: argument) else {
            throw .requirement("needs seconds on the log's clock (e.g. 1700000000) or an ISO-8601 time with a zone (2026-03-01T00:00:00Z)")
        }
        seconds = date.timeIntervalSince1970
    }

    var argumentDescription: String { text }
}

/// `--split P/Q`: the intended shares of A and B, e.g. 50/50 or 90/10 (`P/Q/R…`: one per arm).
struct ArmSplit: ExpressibleByArgument {
    /// The shares as fractions summing to 1, one per arm.
    var shares: [Double]
    var text: String

    init(argument: String) throws(InvalidArgument) {
        let parts = argument.split(separator: "/").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        // Two shares for A and B; with more arms, one per arm (P/Q/R).
        let values = parts.compactMap { $0 }
        guard parts.count >= 2, values.count == parts.count, values.allSatisfy({ $0 > 0 && $0.isFinite }) else {
            throw .requirement("needs two positive shares P/Q (e.g. 50/50 or 90/10)")
        }
        let total = values.reduce(0, +)
        shares = values.map { $0 / total }
        text = argument
    }

    var argumentDescription: String { text }
}
