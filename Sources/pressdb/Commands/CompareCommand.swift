// `pressdb compare`: the A/B comparison of two variants or configurations — each metric's values,
// the difference with its interval, the test, and a verdict, after the health checks.
import Foundation
import PressCharts
import PressCore
import PressStats
import PressStore

enum CompareCommand: PressCommand {
    static let formats = ["table", "csv", "json", "markdown", "html"]

    static let spec = CommandSpec(
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
        feedback_latency and action_latency select a latency's three rows. Lower is better for
        everything but tap_rate.

        Rates: Newcombe's interval and the two-proportion z-test (Fisher's exact test when a cell
        is below 5); paired: McNemar's test. Means: Welch's t-test; paired: the paired t-test.
        p50: Mann–Whitney U with the Hodges–Lehmann shift; paired: Wilcoxon signed-rank.
        p90: order-statistic intervals only, no test. Health checks above the table: sample
        ratio mismatch (χ² against --split, p < 0.001), too few sessions (< 100 per arm: no
        verdict), suspicious lifts (≥ 50 %). See docs/compare.md.

        The terminal table shows rates as percentages and their differences in percentage
        points (pp); CSV, JSON and Markdown carry every number at full precision (rates as
        fractions, latencies in ms). Exit status 4 when an arm has no sessions.

        Examples:
          pressdb compare A B
          pressdb compare spring-press longpress-safe-area --by config --metric cancel_rate
          pressdb compare spring-press expand-delayed-click --paired --where variant=A
          pressdb compare A B --format html --out compare.html
        """,
        positionals: [
            PositionalSpec(name: "A", help: "The control arm: a variant (or, with --by config or --paired, a configuration)."),
            PositionalSpec(name: "B", help: "The treatment arm, compared with A (differences are B − A)."),
        ],
        options: [
            CommonOptions.db,
            .option("by", "KIND", help: "What A and B name: variant|config (default variant). Not with --paired."),
            .option("metric", "NAME", help: "Only these metrics (repeatable, or comma-separated).", repeatable: true),
            .option("alpha", "A", help: "Significance level; intervals are 1 − A (default 0.05)."),
            .option("correction", "METHOD", help: "Adjust p-values across the metrics shown: none|holm|bh (default holm)."),
            .option("split", "P/Q", help: "The intended split of sessions between A and B, for the sample\nratio check (default 50/50). Not with --paired."),
            .flag("paired", help: "Replay the same sessions under configurations A and B and compare them pair by pair."),
            .option("where", "KEY=VALUE", help: "Only sessions with these values (comma-separated pairs; keys:\n\(ReportFilter.filterKeys.joined(separator: ", ")); paired mode: no outcome).", repeatable: true),
            .option("format", "FORMAT", help: "Output: \(formats.joined(separator: "|")) (default table)."),
            CommonOptions.out,
        ])

    // MARK: Running

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let a = args.positionals[0], b = args.positionals[1]
        guard a != b else {
            throw CLIError.usage("pressdb compare: A and B are both '\(a)'; compare two different \(args.flag("paired") ? "configurations" : "variants or configurations")")
        }
        let format = try args.choice("format", formats) ?? "table"
        var configuration = StatsConfiguration()
        if let alpha = try args.double("alpha") {
            guard alpha > 0, alpha < 1 else { throw CLIError.usage("pressdb compare: --alpha must lie between 0 and 1, not \(alpha)") }
            configuration.alpha = alpha
        }
        let correction = MultipleComparisonCorrection(rawValue: try args.choice("correction", MultipleComparisonCorrection.allCases.map(\.rawValue)) ?? "holm")!
        let metrics: [ExperimentMetric]
        do { metrics = try ExperimentMetric.select(args.strings("metric")) } catch {
            throw CLIError.usage("pressdb compare: --metric: \(describe(error))")
        }
        let equals = try ReportCommand.equalities(args)
        let path = CommonOptions.databasePath(args)
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIError(message: "pressdb compare: no database at \(path); ingest a log first ('pressdb ingest FILE', or 'pressdb demo')", status: ExitCode.empty)
        }

        let report: ExperimentReport
        var notes: [String] = []
        if args.flag("paired") {
            for option in ["by", "split"] where args.string(option) != nil {
                throw CLIError.usage("pressdb compare: --\(option) does not apply with --paired (A and B are configurations; every session is in both arms)")
            }
            (report, notes) = try paired(a, b, path: path, equals: equals, metrics: metrics, correction: correction, configuration: configuration)
        } else {
            let by = try args.choice("by", ObservedComparisonReader.groupings) ?? "variant"
            let split = try parseSplit(args.string("split"))
            report = try observed(a, b, path: path, by: by, equals: equals, split: split, metrics: metrics,
                                  correction: correction, configuration: configuration)
            notes.append("\(by) \(a): \(report.controlSessions) sessions; \(by) \(b): \(report.treatmentSessions) sessions")
        }

        let text: String
        switch format {
        case "csv": text = Render.csv(machineTable(report))
        case "json": text = Render.json(machineTable(report))
        case "markdown": text = markdown(report, notes: notes)
        case "html": text = html(report, notes: notes)
        default: text = terminal(report, notes: notes, color: args.string("out") == nil && useColor())
        }
        if format == "csv" || format == "json" {
            // Machine formats carry rows only: the notes and warnings go to standard error.
            for line in notes { printError("compare: \(line)") }
            for w in report.warnings { printError("compare: warning: \(w.message)") }
        }
        try emit(text, to: args.string("out"), protecting: CommonOptions.databasePath(args))
        return ExitCode.ok
    }

    /// "50/50" → [0.5, 0.5].
    static func parseSplit(_ text: String?) throws -> [Double]? {
        guard let text else { return nil }
        let parts = text.split(separator: "/").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let p = parts[0], let q = parts[1], p > 0, q > 0, p.isFinite, q.isFinite else {
            throw CLIError.usage("pressdb compare: --split needs two positive shares P/Q (e.g. 50/50 or 90/10), not '\(text)'")
        }
        return [p / (p + q), q / (p + q)]
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

    static func observed(_ a: String, _ b: String, path: String, by: String, equals: [String: String], split: [Double]?,
                         metrics: [ExperimentMetric], correction: MultipleComparisonCorrection,
                         configuration: StatsConfiguration) throws -> ExperimentReport {
        let reader: ObservedComparisonReader
        do { reader = try ObservedComparisonReader(path: path, by: by, equals: equals) } catch let e as ComparisonError {
            throw CLIError.usage("pressdb compare: \(e)")
        } catch {
            throw CLIError.failure("pressdb compare: cannot read \(path): \(error)")
        }
        if try reader.storedSessions() == 0 {
            throw CLIError(message: "pressdb compare: the database \(path) holds no sessions; ingest a log first ('pressdb ingest FILE')", status: ExitCode.empty)
        }
        do {
            let armA = try reader.arm(a), armB = try reader.arm(b)
            return try Experiment.observed(control: armA, treatment: armB, metrics: metrics, expectedSplit: split,
                                           correction: correction, configuration: configuration)
        } catch let e as ComparisonError {
            let filter = equals.isEmpty ? "" : " (with --where \(PairedComparison.describe(equals)))"
            throw CLIError(message: "pressdb compare: \(e)\(filter)", status: ExitCode.empty)
        } catch let e as StatsError {
            throw CLIError.failure("pressdb compare: \(describe(e))")
        }
    }

    static func paired(_ a: String, _ b: String, path: String, equals: [String: String], metrics: [ExperimentMetric],
                       correction: MultipleComparisonCorrection,
                       configuration: StatsConfiguration) throws -> (ExperimentReport, [String]) {
        let store: Store
        do { store = try Store.open(path: path) } catch {
            throw CLIError.failure("pressdb compare: cannot open \(path): \(error)")
        }
        let pairing = try PairedComparison(store: store)
        guard let configA = pairing.replayer.catalog.resolve(a) else { throw unknownConfiguration(a, "compare", pairing.replayer.catalog) }
        guard let configB = pairing.replayer.catalog.resolve(b) else { throw unknownConfiguration(b, "compare", pairing.replayer.catalog) }
        let summary: PairingSummary
        let arms: PairedArms
        do {
            summary = try pairing.prepare(control: configA, treatment: configB, equals: equals)
            arms = try pairing.read(control: configA, treatment: configB, equals: equals)
        } catch let e as ComparisonError {
            if case .badFilter = e { throw CLIError.usage("pressdb compare: \(e)") }
            throw CLIError(message: "pressdb compare: \(e)", status: ExitCode.empty)
        }
        var notes = ["paired \(summary.paired) of \(summary.selected) sessions"
            + (equals.isEmpty ? "" : " (\(PairedComparison.describe(equals)))")
            + ", each replayed under \(a) and \(b)"
            + (summary.replayedControl + summary.replayedTreatment > 0
               ? " (replayed now: \(summary.replayedControl) as \(a), \(summary.replayedTreatment) as \(b))" : "")]
        if summary.unpairedCount > 0 {
            notes.append("\(summary.unpairedCount) session\(summary.unpairedCount == 1 ? "" : "s") could not be paired:")
            for u in summary.unpaired { notes.append("  \(u.session): \(u.reason)") }
            if summary.unpairedCount > summary.unpaired.count { notes.append("  … and \(summary.unpairedCount - summary.unpaired.count) more") }
        }
        guard summary.paired > 0 else {
            throw CLIError(message: "pressdb compare: no session could be paired under \(a) and \(b)", status: ExitCode.empty)
        }
        do {
            return (try Experiment.paired(arms, metrics: metrics, correction: correction, configuration: configuration), notes)
        } catch {
            throw CLIError.failure("pressdb compare: \(describe(error))")
        }
    }

    // MARK: Machine formats (full precision)

    static func number(_ x: Double?) -> Cell { x.map { $0.isNaN ? .null : .double($0) } ?? .null }

    /// One row per metric with snake_case columns; numbers unrounded (rates as fractions, ms).
    static func machineTable(_ report: ExperimentReport) -> ResultTable {
        var names = ["metric", "a", "a_low", "a_high", "b", "b_low", "b_high", "diff", "diff_low", "diff_high",
                     "rel_diff", "rel_diff_low", "rel_diff_high", "p_value", "p_adjusted", "test", "verdict", "n_a", "n_b"]
        let paired = report.mode == .paired
        if paired { names += ["a_only", "b_only"] }
        var table = ResultTable(columns: names.map { Column($0) })
        for r in report.rows {
            var cells: [Cell] = [
                .text(r.metric.rawValue), number(r.control), number(r.controlInterval?.lower), number(r.controlInterval?.upper),
                number(r.treatment), number(r.treatmentInterval?.lower), number(r.treatmentInterval?.upper),
                number(r.difference), number(r.differenceInterval?.lower), number(r.differenceInterval?.upper),
                number(r.relativeDifference), number(r.relativeInterval?.lower), number(r.relativeInterval?.upper),
                number(r.pValue), number(r.adjustedPValue), .text(r.test), .text(r.verdict.rawValue),
                .int(r.controlCount), .int(r.treatmentCount),
            ]
            if paired { cells += [r.pairedCounts.map { .int($0.controlOnly) } ?? .null, r.pairedCounts.map { .int($0.treatmentOnly) } ?? .null] }
            table.rows.append(cells)
        }
        return table
    }

    static func markdown(_ report: ExperimentReport, notes: [String]) -> String {
        var out = "**\(title(report))**\n\n"
        for n in notes + header(report) { out += "- \(n.trimmingCharacters(in: .whitespaces))\n" }
        out += "\n"
        for w in report.warnings { out += "> **Warning:** \(w.message)\n>\n" }
        if !report.warnings.isEmpty { out.removeLast(2); out += "\n\n" }
        return out + Render.markdown(machineTable(report))
    }

    // MARK: Human formats

    static func title(_ report: ExperimentReport) -> String {
        report.mode == .paired
            ? "\(report.treatmentName) against \(report.controlName), paired: the same sessions replayed under both"
            : "\(report.treatmentName) against \(report.controlName), observed: different sessions in each arm"
    }

    /// The lines under the title: the sample ratio check and how p-values were adjusted.
    static func header(_ report: ExperimentReport) -> [String] {
        var lines: [String] = []
        if let srm = report.sampleRatio {
            let split = report.expectedSplit.map { NumberText.compact($0 * 100, maxDigits: 1) }.joined(separator: "/")
            lines.append("sample ratio \(srm.observed[0]):\(srm.observed[1]) against an intended \(split): "
                + "χ² = \(NumberText.compact(srm.chiSquared, maxDigits: 2)), p = \(pText(srm.pValue))"
                + (srm.isMismatch ? " — MISMATCH" : " (no mismatch at p < \(pText(srm.threshold)))"))
        }
        let m = report.rows.filter { $0.pValue != nil }.count
        let adjustment: String
        switch report.correction {
        case .none: adjustment = "p-values not adjusted for the \(m) tests shown"
        case .holm: adjustment = "p-values adjusted across \(m) tests by Holm–Bonferroni"
        case .benjaminiHochberg: adjustment = "p-values adjusted across \(m) tests by Benjamini–Hochberg (false discovery rate)"
        }
        lines.append("α = \(NumberText.compact(report.configuration.alpha, maxDigits: 4)); intervals \(NumberText.compact((1 - report.configuration.alpha) * 100, maxDigits: 2)) %; \(adjustment)")
        return lines
    }

    static let footnote = """
        Rates in %, their differences in percentage points (pp); latencies in ms. The p50 difference is the
        Hodges–Lehmann shift (the median of the differences); p90 rows have no test, their verdict comes
        from a conservative interval. Verdicts: better / worse when the (adjusted) p-value is below α and
        the interval excludes 0; lower is better for every metric but tap_rate. Feedback latency covers the
        presses that were seen; presses never seen are counted by unseen_rate instead, so read the two
        together: an arm that stops hiding quick taps can look slower on latency while it is seen far more.
        """

    static func pText(_ p: Double?) -> String {
        guard let p, p.isFinite else { return "–" }
        // A p-value that underflowed to 0 is below the smallest normal double; say so, not "0".
        if p == 0 { return "<1e-300" }
        if p >= 0.001 { return NumberText.compact(p, maxDigits: 3) }
        return String(format: "%.1e", p)
    }

    static func bound(_ x: Double, _ format: (Double) -> String) -> String {
        x.isInfinite ? (x > 0 ? "∞" : "-∞") : format(x)
    }

    /// A value in the row's unit: "12.3%" for a rate, "33.3" (ms) for a latency.
    static func valueText(_ metric: ExperimentMetric, _ x: Double) -> String {
        guard x.isFinite else { return "–" }
        return metric.isRate ? String(format: "%.2f%%", x * 100) : String(format: "%.1f", x)
    }

    static func signedText(_ x: Double, digits: Int) -> String {
        guard x.isFinite else { return bound(x) { "\($0)" } }
        let s = String(format: "%+.\(digits)f", x)
        return s == String(format: "%+.\(digits)f", 0.0) || s == String(format: "%+.\(digits)f", -0.0) ? String(s.dropFirst()) : s
    }

    /// "33.3 (33.3–50.0)" for a value with its interval, else the value.
    static func armText(_ metric: ExperimentMetric, _ value: Double, _ interval: ConfidenceInterval?) -> String {
        let v = valueText(metric, value)
        guard case .percentile = metric.kind, let interval else { return v }
        let f = { (x: Double) in String(format: "%.1f", x) }
        return "\(v) (\(bound(interval.lower, f))–\(bound(interval.upper, f)))"
    }

    /// B − A with its interval: "+1.23 pp (+0.50, +1.96)" or "+16.7 ms (+16.5, +16.9)".
    static func differenceText(_ row: ExperimentRow) -> String {
        guard row.difference.isFinite else { return "–" }
        let scale = row.metric.isRate ? 100.0 : 1, digits = row.metric.isRate ? 2 : 1
        let unit = row.metric.isRate ? " pp" : " ms"
        var s = signedText(row.difference * scale, digits: digits) + unit
        if let i = row.differenceInterval {
            s += " (\(signedText(i.lower * scale, digits: digits)), \(signedText(i.upper * scale, digits: digits)))"
        }
        return s
    }

    static func relativeText(_ row: ExperimentRow) -> String {
        guard let r = row.relativeDifference, r.isFinite else { return "–" }
        var s = signedText(r * 100, digits: 1) + "%"
        if let i = row.relativeInterval { s += " (\(signedText(i.lower * 100, digits: 1)), \(signedText(i.upper * 100, digits: 1)))" }
        return s
    }

    static func verdictText(_ row: ExperimentRow) -> String {
        row.verdict == .tooFewData ? "too few data" : row.verdict.rawValue
    }

    /// The cells shown to people (terminal and HTML), one list per row.
    static func humanRows(_ report: ExperimentReport) -> (columns: [(String, Bool)], rows: [[String]]) {
        let adjusted = report.correction != .none
        var columns: [(String, Bool)] = [("metric", false), ("A: \(report.controlName)", true), ("B: \(report.treatmentName)", true),
                                         ("B − A (95% CI)", true), ("relative (95% CI)", true), ("p", true)]
        if report.configuration.alpha != StatsConfiguration.defaultAlpha {
            let level = NumberText.compact((1 - report.configuration.alpha) * 100, maxDigits: 2)
            columns[3].0 = "B − A (\(level)% CI)"
            columns[4].0 = "relative (\(level)% CI)"
        }
        if adjusted { columns.append((report.correction == .holm ? "p (Holm)" : "p (BH)", true)) }
        columns += [("verdict", false), ("test", false)]
        let rows = report.rows.map { r -> [String] in
            var cells = [r.metric.rawValue, armText(r.metric, r.control, r.controlInterval),
                         armText(r.metric, r.treatment, r.treatmentInterval), differenceText(r), relativeText(r), pText(r.pValue)]
            if adjusted { cells.append(pText(r.adjustedPValue)) }
            cells += [verdictText(r), r.test]
            return cells
        }
        return (columns, rows)
    }

    /// The test's name without the interval method, for the terminal (other formats say both).
    static func shortTest(_ test: String) -> String {
        test.split(separator: ";", maxSplits: 1).first.map(String.init) ?? test
    }

    static func terminal(_ report: ExperimentReport, notes: [String], color: Bool) -> String {
        var out = title(report) + "\n"
        for line in notes + header(report) { out += "  " + line + "\n" }
        for w in report.warnings {
            out += (color ? "\u{1B}[1;31mwarning:\u{1B}[0m " : "warning: ") + w.message + "\n"
        }
        out += "\n"
        let (columns, rows) = humanRows(report)
        let table = ResultTable(columns: columns.map { Column($0.0, $0.1 ? .number(0) : .text) },
                                rows: rows.map { row in row.enumerated().map { .text($0.offset == row.count - 1 ? shortTest($0.element) : $0.element) } })
        out += Render.text(table, color: color)
        return out + "\n" + footnote + "\n"
    }

    static func html(_ report: ExperimentReport, notes: [String]) -> String {
        var page = HTMLPage(title: "pressdb compare: \(report.treatmentName) against \(report.controlName)")
        page.paragraph(title(report) + ".")
        for line in notes + header(report) { page.paragraph(line.trimmingCharacters(in: .whitespaces)) }
        for w in report.warnings { page.banner(w.message, kind: .warning) }
        func differences(_ rows: [ExperimentRow], scale: Double) -> [Difference] {
            rows.compactMap { r in
                guard r.difference.isFinite, let i = r.differenceInterval, i.lower.isFinite, i.upper.isFinite else { return nil }
                return Difference(metric: r.metric.rawValue, estimate: r.difference * scale, lower: i.lower * scale,
                                  upper: i.upper * scale, preferred: r.metric.direction == .higherIsBetter ? .higher : .lower,
                                  significant: r.verdict == .better || r.verdict == .worse)
            }
        }
        let level = NumberText.compact((1 - report.configuration.alpha) * 100, maxDigits: 2)
        let rates = differences(report.rows.filter(\.metric.isRate), scale: 100)
        let latencies = differences(report.rows.filter { !$0.metric.isRate }, scale: 1)
        let left = report.rows.count - rates.count - latencies.count
        if !rates.isEmpty {
            page.heading("Rates")
            page.figure(ForestPlot(title: "Rates: B − A", rows: rates, xTitle: "Difference B − A (percentage points)", unit: "pp", digits: 2),
                        caption: "Differences of rates, \(report.treatmentName) minus \(report.controlName), with \(level) % intervals. Coloured only when the verdict is better or worse.")
        }
        if !latencies.isEmpty {
            page.heading("Latency")
            page.figure(ForestPlot(title: "Latency: B − A", rows: latencies, xTitle: "Difference B − A (milliseconds)", unit: "ms", digits: 1),
                        caption: "Differences of latencies, \(report.treatmentName) minus \(report.controlName), with \(level) % intervals (p50: Hodges–Lehmann shift). Coloured only when the verdict is better or worse."
                            + (left > 0 ? " \(left) metric\(left == 1 ? "" : "s") without a finite interval are in the table only." : ""))
        }
        page.heading("All metrics")
        let (columns, rows) = humanRows(report)
        page.table(DataTable(caption: "\(report.treatmentName) against \(report.controlName)",
                             columns: columns.map { $0.1 ? .numeric($0.0) : .text($0.0) }, rows: rows))
        page.paragraph(footnote.replacingOccurrences(of: "\n", with: " "))
        return page.render()
    }
}
