// How a comparison looks: the five formats of `pressdb compare` (terminal table, CSV, JSON,
// Markdown, HTML) from one `ExperimentReport` and the notes the command collected. The command
// only computes the report and picks the format.
import Foundation
import PressCharts
import PressCore
import PressStats

/// Renders an `ExperimentReport` with the lines that describe how its arms were formed
/// (`notes`: session counts, pairing).
struct ComparisonRenderer {
    var report: ExperimentReport
    var notes: [String]
    /// One part of a larger comparison — a treatment of many arms (`ManyArmsRenderer`), a
    /// segment (`SegmentsRenderer`): how its p-values were adjusted (the family is all parts'),
    /// its label, and no header lines of its own in HTML.
    var family: (adjustment: String, label: String)? = nil
    /// Whether the HTML form draws the forest plots (the demo's segments show their tables only).
    var charts = true

    /// The report in `format`; `options` for the terminal table. Ends with a newline.
    /// - Throws: `CLIError.usage` for a `--columns` name the table does not have.
    func render(_ format: DocumentFormat, options: TableOptions) throws -> String {
        switch format {
        case .table: return try terminal(options)
        case .csv: return Render.csv(Self.machineTable(report))
        case .json: return Render.json(Self.machineTable(report))
        case .ndjson: return Render.ndjson(Self.machineTable(report))
        case .markdown: return markdown()
        case .html: return html()
        }
    }

    /// The lines the machine formats (CSV, JSON) leave out, for standard error.
    var standardErrorLines: [String] {
        notes.map { "compare: \($0)" } + report.warnings.map { "compare: warning: \($0.message)" }
    }

    // MARK: Machine formats (full precision)

    static func number(_ x: Double?) -> Cell { x.map { $0.isNaN ? .null : .double($0) } ?? .null }

    /// One row per metric with snake_case columns; numbers unrounded (rates as fractions, ms).
    static func machineTable(_ report: ExperimentReport) -> ResultTable {
        var names = ["metric", "a", "a_low", "a_high", "b", "b_low", "b_high", "diff", "diff_low", "diff_high",
                     "rel_diff", "rel_diff_low", "rel_diff_high", "p_value", "p_adjusted", "test", "verdict", "n_a", "n_b"]
        let paired = report.mode == .paired
        if paired { names += ["a_only", "b_only"] }
        names += ["unit", "units_a", "units_b", "se", "mde", "mde_rel", "units_needed", "sequential", "perceptible"]
        // Only with CUPED, so that every other comparison's columns stay as they were.
        let cuped = report.rows.contains { $0.varianceReduction != nil }
        if cuped { names.append("var_reduction") }
        var table = ResultTable(columns: names.map { Column($0) })
        for r in report.rows {
            var cells: [Cell] = [
                .text(r.metric.rawValue), Self.number(r.control), Self.number(r.controlInterval?.lower), Self.number(r.controlInterval?.upper),
                Self.number(r.treatment), Self.number(r.treatmentInterval?.lower), Self.number(r.treatmentInterval?.upper),
                Self.number(r.difference), Self.number(r.differenceInterval?.lower), Self.number(r.differenceInterval?.upper),
                Self.number(r.relativeDifference), Self.number(r.relativeInterval?.lower), Self.number(r.relativeInterval?.upper),
                Self.number(r.pValue), Self.number(r.adjustedPValue), .text(r.test), .text(r.verdict.rawValue),
                .int(r.controlCount), .int(r.treatmentCount),
            ]
            if paired { cells += [r.pairedCounts.map { .int($0.controlOnly) } ?? .null, r.pairedCounts.map { .int($0.treatmentOnly) } ?? .null] }
            cells += [.text(r.unit.rawValue), .int(r.controlUnits), .int(r.treatmentUnits), Self.number(r.standardError),
                      Self.number(r.minimumDetectableEffect), Self.number(r.relativeMinimumDetectableEffect),
                      r.unitsNeededPerArm.map { .int($0) } ?? .null, .bool(r.sequential),
                      r.perceptible.map { .text($0.rawValue) } ?? .null]
            if cuped { cells.append(Self.number(r.varianceReduction)) }
            table.rows.append(cells)
        }
        return table
    }

    func markdown() -> String {
        // The arm names come from input: every text line goes through `Terminal.visible`, as in
        // the terminal's form (Markdown is read as text too).
        var out = "**\(Render.markdownText(title))**\n\n"
        for n in notes + header { out += "- \(Terminal.visible(n.trimmingCharacters(in: .whitespaces)))\n" }
        out += "\n"
        for w in report.warnings { out += "> **Warning:** \(Terminal.visible(w.message))\n>\n" }
        if !report.warnings.isEmpty { out.removeLast(2); out += "\n\n" }
        return out + Render.markdown(Self.roundedTable(report))
    }

    /// The machine table's columns with every number rounded as the terminal table rounds it
    /// (rates and their differences in % and pp with one decimal, latencies in ms with one
    /// decimal, p-values as `pText`): the Markdown of a comparison, which carries every column.
    static func roundedTable(_ report: ExperimentReport) -> ResultTable {
        let machine = machineTable(report)
        var table = ResultTable(columns: machine.columns.map { c in
            Column(c.name, ["metric", "test", "verdict", "perceptible"].contains(c.name) ? .text : .number(0))
        })
        for (r, cells) in zip(report.rows, machine.rows) {
            table.rows.append(zip(machine.columns, cells).map { column, cell in
                guard case .double(let x) = cell else { return cell }
                switch column.name {
                case "p_value", "p_adjusted": return .text(pText(x))
                case "diff", "diff_low", "diff_high":
                    return .text(signedText(r.metric.isRate ? x * 100 : x, digits: 1) + (r.metric.isRate ? " pp" : " ms"))
                case "rel_diff", "rel_diff_low", "rel_diff_high": return .text(signedText(x * 100, digits: 1) + "%")
                case "var_reduction": return .text(String(format: "%.1f%%", x * 100))
                default: return .text(valueText(r.metric, x))
                }
            })
        }
        return table
    }

    // MARK: Human formats

    var title: String {
        report.mode == .paired
            ? "\(report.treatmentName) against \(report.controlName), paired: the same sessions replayed under both"
            : "\(report.treatmentName) against \(report.controlName), observed: different sessions in each arm"
    }

    /// "users" or "sessions" (pairs are sessions).
    var unitWord: String { report.unit == .user ? "users" : "sessions" }

    /// The lines under the title: the unit of analysis, whether the analysis is sequential, the
    /// sample ratio check and how p-values were adjusted.
    var header: [String] {
        var lines: [String] = []
        switch report.unit {
        case .user:
            lines.append("unit of analysis: users — each user is one observation, as when variants are assigned per user")
        case .session:
            lines.append("unit of analysis: sessions — each session is one observation")
        }
        if report.isSequential {
            lines.append("sequential analysis: confidence sequences and always-valid p-values (Waudby-Smith et al. 2023, "
                + "N* = \(NumberText.compact(report.configuration.sequentialTuning, maxDigits: 0)) \(unitWord)), valid however often you look")
        }
        if let srm = report.sampleRatio {
            let split = report.expectedSplit.map { NumberText.compact($0 * 100, maxDigits: 1) }.joined(separator: "/")
            lines.append("sample ratio \(srm.observed[0]):\(srm.observed[1]) against an intended \(split): "
                + "χ² = \(NumberText.compact(srm.chiSquared, maxDigits: 2)), p = \(Self.pText(srm.pValue))"
                + (srm.isMismatch ? " — MISMATCH" : " (no mismatch at p < \(Self.pText(srm.threshold)))"))
        }
        let reduced = report.rows.compactMap { r in r.varianceReduction.map { "\(r.metric.rawValue) \(String(format: "%.0f", $0 * 100)) %" } }
        if !reduced.isEmpty {
            lines.append("CUPED: the variance of B − A reduced by " + reduced.joined(separator: ", "))
        }
        let m = report.rows.filter { $0.pValue != nil }.count
        let adjustment: String
        switch report.correction {
        case _ where family != nil: adjustment = family?.adjustment ?? ""
        case _ where m == 0: adjustment = "no p-values: no metric has a verdict"
        case .none: adjustment = "p-values not adjusted for the \(counted(m, "test")) shown"
        case .holm: adjustment = "p-values adjusted across \(counted(m, "test")) by Holm–Bonferroni"
        case .benjaminiHochberg: adjustment = "p-values adjusted across \(counted(m, "test")) by Benjamini–Hochberg (false discovery rate)"
        }
        lines.append("α = \(NumberText.compact(report.configuration.alpha, maxDigits: 4)); intervals \(NumberText.compact((1 - report.configuration.alpha) * 100, maxDigits: 2)) %; \(adjustment)")
        return lines
    }

    /// What the table's numbers mean for this report's unit and inference, saying only what the
    /// metrics shown need (a comparison of `cancel_rate` alone says nothing of latencies), and
    /// what MDE means only when `showsMDE` (the terminal may leave that column out to fit).
    func footnote(showsMDE: Bool = true) -> String {
        let metrics = report.rows.map(\.metric)
        let rates = metrics.contains { $0.isRate }, latencies = metrics.contains { !$0.isRate }
        func percentile(_ p: Double) -> Bool {
            metrics.contains { if case .percentile(_, let q) = $0.kind { q == p } else { false } }
        }
        var sentences: [String] = []
        sentences.append([rates ? "Rates in %, their differences in percentage points (pp)" : nil,
                          latencies ? "latencies in ms" : nil].compactMap { $0 }.joined(separator: "; ") + ".")
        if showsMDE { sentences.append("MDE: the difference this comparison detects with 80 % power at α.") }
        if metrics == [.tapRate] { sentences.append("Higher is better for tap_rate.") }
        else if metrics.contains(.tapRate) { sentences.append("Lower is better for every metric but tap_rate.") }
        else { sentences.append("Lower is better for every metric shown.") }
        if report.unit == .user || report.isSequential {
            let bootstrap = percentile(0.5) || percentile(0.9) ? " (percentiles: a bootstrap)" : ""
            sentences.append("Each row's p-value and interval come from one test over \(unitWord)\(bootstrap), so p < α "
                + "exactly when the interval excludes 0; a verdict needs the adjusted p below α as well.")
        } else {
            if percentile(0.5) {
                sentences.append("The p50 difference is the Hodges–Lehmann shift (the median of the differences) and its "
                    + "verdict follows the Mann–Whitney or signed-rank test.")
            }
            if percentile(0.9) {
                sentences.append("p90 rows have no test, their verdict comes from a conservative interval.")
            }
            let means = metrics.contains { if case .mean = $0.kind { true } else { false } }
            if rates || means {
                sentences.append(rates && means ? "Rates and means need p < α and their interval excluding 0."
                                 : "\(rates ? "Rates" : "Means") need p < α and their interval excluding 0.")
            }
        }
        if let t = report.perceptionThreshold, latencies {
            sentences.append("perceptible: yes when a latency difference's interval lies beyond ±\(NumberText.compact(t, maxDigits: 1)) ms"
                + (t == PerceptionThresholds.default.ms ? ", the just-noticeable difference of tapping latency (Deber et al., CHI 2015)" : " (--jnd)")
                + ", no when it lies within, unclear when it straddles.")
        }
        if metrics.contains(where: { if case .rate = $0.kind { false } else { $0.rawValue.hasPrefix("feedback") } }) {
            sentences.append("Feedback latency covers the presses that were seen; presses never seen are counted by "
                + "unseen_rate instead, so read the two together: an arm that stops hiding quick taps can look slower "
                + "on latency while it is seen far more.")
        }
        return sentences.joined(separator: " ")
    }

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
        return metric.isRate ? Render.display(.double(x), .percent) : Render.display(.double(x), .milliseconds)
    }

    static func signedText(_ x: Double, digits: Int) -> String {
        guard x.isFinite else { return Self.bound(x) { "\($0)" } }
        let s = String(format: "%+.\(digits)f", x)
        return s == String(format: "%+.\(digits)f", 0.0) || s == String(format: "%+.\(digits)f", -0.0) ? String(s.dropFirst()) : s
    }

    /// "33.3 (33.3–50.0)" for a value with its interval, else the value.
    static func armText(_ metric: ExperimentMetric, _ value: Double, _ interval: ConfidenceInterval?) -> String {
        let v = Self.valueText(metric, value)
        guard case .percentile = metric.kind, let interval else { return v }
        let f = { (x: Double) in String(format: "%.1f", x) }
        return "\(v) (\(Self.bound(interval.lower, f))–\(Self.bound(interval.upper, f)))"
    }

    /// B − A with its interval: "+1.2 pp (+0.5, +2.0)" or "+16.7 ms (+16.5, +16.9)" — one decimal
    /// for both, as the rates and latencies themselves are shown.
    static func differenceText(_ row: ExperimentRow) -> String {
        guard row.difference.isFinite else { return "–" }
        let scale = row.metric.isRate ? 100.0 : 1, digits = 1
        let unit = row.metric.isRate ? " pp" : " ms"
        var s = Self.signedText(row.difference * scale, digits: digits) + unit
        if let i = row.differenceInterval {
            s += " (\(Self.signedText(i.lower * scale, digits: digits)), \(Self.signedText(i.upper * scale, digits: digits)))"
        }
        return s
    }

    static func relativeText(_ row: ExperimentRow) -> String {
        guard let r = row.relativeDifference, r.isFinite else { return "–" }
        var s = Self.signedText(r * 100, digits: 1) + "%"
        if let i = row.relativeInterval { s += " (\(Self.signedText(i.lower * 100, digits: 1)), \(Self.signedText(i.upper * 100, digits: 1)))" }
        return s
    }

    /// The columns and cells shown to people: the terminal table (fitted to its width) and the
    /// HTML table (full forms). Columns are named as in CSV (`--columns diff,verdict`); the MDE
    /// column is `mde`, the units needed for `--mde` `units_needed`.
    var humanTable: (columns: [ShownColumn], rows: [[ShownCell]]) {
        let adjusted = report.correction != .none
        // CS: a confidence sequence, valid at every look.
        let level = NumberText.compact((1 - report.configuration.alpha) * 100, maxDigits: 2) + (report.isSequential ? "% CS" : "% CI")
        var columns = [
            ShownColumn(name: "metric"),
            // "A: spring-press", but "A" where the arm is named A (not "A: A").
            ShownColumn(name: "a", header: report.controlName == "A" ? "A" : "A: \(report.controlName)", shortHeader: "A", compactLeavesOut: "intervals",
                        alignsRight: true, abbreviations: report.controlName == "A" ? [] : [("A", report.controlName)]),
            ShownColumn(name: "b", header: report.treatmentName == "B" ? "B" : "B: \(report.treatmentName)", shortHeader: "B", compactLeavesOut: "intervals",
                        alignsRight: true, abbreviations: report.treatmentName == "B" ? [] : [("B", report.treatmentName)]),
            ShownColumn(name: "diff", header: "B − A (\(level))", compactHeader: "B − A", compactLeavesOut: "intervals",
                        alignsRight: true),
            ShownColumn(name: "rel_diff", header: "relative (\(level))", shortHeader: "rel (\(level))",
                        compactHeader: "rel", compactLeavesOut: "intervals", alignsRight: true),
            ShownColumn(name: "p_value", header: "p", alignsRight: true),
        ]
        if adjusted {
            columns.append(ShownColumn(name: "p_adjusted", header: report.correction == .holm ? "p (Holm)" : "p (BH)",
                                       shortHeader: "p adj", alignsRight: true,
                                       abbreviations: [("p adj", report.correction == .holm ? "p adjusted by Holm–Bonferroni"
                                                                                            : "p adjusted by Benjamini–Hochberg")]))
        }
        let planned = report.configuration.plannedEffect != nil
        let perceptible = report.rows.contains { $0.perceptible != nil }
        columns.append(ShownColumn(name: "verdict"))
        if perceptible { columns.append(ShownColumn(name: "perceptible")) }
        columns += [ShownColumn(name: "mde", header: "MDE", alignsRight: true,
                                abbreviations: [("MDE", "minimum detectable effect at 80 % power")])]
        if planned {
            columns.append(ShownColumn(name: "units_needed", header: "\(unitWord)/arm for --mde", shortHeader: "\(unitWord)/arm",
                                       alignsRight: true, abbreviations: [("\(unitWord)/arm", "\(unitWord) per arm to detect --mde")]))
        }
        columns.append(ShownColumn(name: "test"))
        let rows = report.rows.map { r -> [ShownCell] in
            func arm(_ value: Double, _ interval: ConfidenceInterval?) -> ShownCell {
                let full = Self.armText(r.metric, value, interval), compact = Self.valueText(r.metric, value)
                return ShownCell(full, compact: full == compact ? nil : compact)
            }
            let diff = Self.differenceText(r), rel = Self.relativeText(r)
            var cells = [ShownCell(r.metric.rawValue), arm(r.control, r.controlInterval), arm(r.treatment, r.treatmentInterval),
                         ShownCell(diff, compact: diff.split(separator: " (").first.map(String.init)),
                         ShownCell(rel, compact: rel.split(separator: " (").first.map(String.init)),
                         ShownCell(Self.pText(r.pValue))]
            if adjusted { cells.append(ShownCell(Self.pText(r.adjustedPValue))) }
            // The verdict's words are PressStats' own, the same in every format.
            // A latency difference below the threshold says so (`verdictText`).
            cells.append(ShownCell(r.verdictText))
            if perceptible { cells.append(ShownCell(r.perceptible?.rawValue ?? "–")) }
            cells.append(ShownCell(Self.mdeText(r)))
            if planned { cells.append(ShownCell(r.unitsNeededPerArm.map(String.init) ?? "–")) }
            cells.append(ShownCell(r.test))
            return cells
        }
        return (columns, rows)
    }

    /// Which of the terminal table's columns matter most, and what its legend says.
    var presentation: TablePresentation {
        // The difference with its interval carries the story (the note under the table explains
        // "the interval"), so it outranks the arms' values; --mde asks for the MDE and the units
        // needed, so they come next when it is given.
        let planned = report.configuration.plannedEffect != nil
        var presentation = TablePresentation(
            key: ["metric", "diff", "verdict", "diff+"] + (planned ? ["mde", "units_needed"] : [])
                + [report.correction == .none ? "p_value" : "p_adjusted", "a", "b", "perceptible", "rel_diff", "a+", "b+", "rel_diff+", "p_value"]
                + (planned ? [] : ["mde"]),
            together: [["a", "b"]],
            // The test's name wraps within its row when it is chosen (--columns …,test) on a
            // narrow terminal, rather than widening the table past it.
            wraps: ["test"])
        presentation.cut["test"] = 24
        return presentation
    }

    /// The minimum detectable effect in the row's unit: "1.23 pp" or "4.5 ms".
    static func mdeText(_ row: ExperimentRow) -> String {
        guard let m = row.minimumDetectableEffect, m.isFinite else { return "–" }
        return row.metric.isRate ? String(format: "%.2f pp", m * 100) : String(format: "%.1f ms", m)
    }

    /// The test's name alone ("bootstrap over users"), without its details (after ":", ";" or
    /// " ("), for the page's table.
    static func testName(_ test: String) -> String {
        let name = shortTest(test).split(separator: ":", maxSplits: 1).first.map(String.init) ?? test
        return name.components(separatedBy: " (").first ?? name
    }

    /// The test's name without the interval method, for the terminal (other formats say both).
    static func shortTest(_ test: String) -> String {
        test.split(separator: ";", maxSplits: 1).first.map(String.init) ?? test
    }

    /// The terminal's form: the title, the notes and warnings, the table fitted to the width
    /// (`TerminalTable`), and how to read it.
    func terminal(_ options: TableOptions) throws -> String {
        let width = options.width
        // The arm names in the title, notes and warnings come from input: made visible
        // (`Terminal.visible`) before they are wrapped, and before any colour is added.
        var out = TerminalTable.wrap(Terminal.visible(title), width: width)
        for line in notes + header { out += TerminalTable.wrap("  " + Terminal.visible(line), width: width, indent: "    ") }
        for w in report.warnings {
            // Wrapped as plain text, then coloured: the escape codes take no columns.
            let wrapped = TerminalTable.wrap("warning: " + Terminal.visible(w.message), width: width, indent: "  ")
            out += options.color ? "\u{1B}[1;31mwarning:\u{1B}[0m" + wrapped.dropFirst("warning:".count) : wrapped
        }
        out += "\n"
        return out + (try tableText(options))
    }

    /// The terminal's table fitted to the width, and how to read it.
    func tableText(_ options: TableOptions, footnote withFootnote: Bool = true) throws -> String {
        let width = options.width
        var out = ""
        var (columns, rows) = humanTable
        // The terminal names the test without its interval method (other formats say both).
        rows = rows.map { row in var r = row; r[r.count - 1].full = Self.shortTest(r[r.count - 1].full); return r }
        let table = try TerminalTable(columns: columns, rows: rows, presentation: presentation, options: options)
        out += table.render(rows)
        guard withFootnote else { return out }
        let showsMDE = table.shown.contains { columns[$0].name == "mde" }
        return out + "\n" + TerminalTable.wrap(footnote(showsMDE: showsMDE), width: width ?? HelpRow.width)
    }

    func html() -> String {
        var page = HTMLPage(title: "pressdb compare: \(report.treatmentName) against \(report.controlName)")
        htmlSections(into: &page)
        return page.render()
    }

    /// The page's content, its headings at `level` (the demo's page nests them under its own).
    func htmlSections(into page: inout HTMLPage, level headingLevel: Int = 2) {
        page.paragraph(title + ".")
        for line in notes + header where family == nil { page.paragraph(line.trimmingCharacters(in: .whitespaces)) }
        for w in report.warnings { page.banner(w.message, kind: .warning) }
        func differences(_ rows: [ExperimentRow], scale: Double) -> [Difference] {
            rows.compactMap { r in
                guard r.difference.isFinite, let i = r.differenceInterval, i.lower.isFinite, i.upper.isFinite else { return nil }
                return Difference(metric: r.metric.rawValue, estimate: r.difference * scale, lower: i.lower * scale,
                                  upper: i.upper * scale, preferred: r.metric.direction == .higherIsBetter ? .higher : .lower,
                                  significant: r.verdict == .better || r.verdict == .worse,
                                  verdictText: r.verdictText)  // the words of the table
            }
        }
        let level = NumberText.compact((1 - report.configuration.alpha) * 100, maxDigits: 2)
        let rates = differences(report.rows.filter(\.metric.isRate), scale: 100)
        let latencies = differences(report.rows.filter { !$0.metric.isRate }, scale: 1)
        let left = report.rows.count - rates.count - latencies.count
        // "B − A", or the arms' names with "(B − A)" when they are named otherwise.
        let arms = report.treatmentName == "B" && report.controlName == "A" ? "B − A"
            : "\(report.treatmentName) − \(report.controlName) (B − A)"
        if charts, !rates.isEmpty {
            page.heading("Rates", level: headingLevel)
            page.figure(ForestPlot(title: "Rates: \(arms)", rows: rates, xTitle: "Difference B − A (percentage points)", unit: "pp", digits: 1),
                        caption: "Differences of rates, \(report.treatmentName) minus \(report.controlName), with \(level) % intervals. Coloured only when the verdict is better or worse.")
        }
        if charts, !latencies.isEmpty {
            page.heading("Latency", level: headingLevel)
            page.figure(ForestPlot(title: "Latency: \(arms)", rows: latencies, xTitle: "Difference B − A (milliseconds)", unit: "ms", digits: 1),
                        caption: "Differences of latencies, \(report.treatmentName) minus \(report.controlName), with \(level) % intervals (p50: Hodges–Lehmann shift). Coloured only when the verdict is better or worse."
                            + (left > 0 ? " \(left) metric\(left == 1 ? "" : "s") without a finite interval are in the table only." : ""))
        }
        page.heading("All metrics", level: headingLevel)
        let (columns, rows) = humanTable
        // With adjusted p-values shown, the unadjusted ones stay in CSV/JSON/Markdown: the page
        // keeps the MDE instead, and the table fits a 1280 px window.
        // The verdict says when a latency difference is below perception; the perceptible column
        // itself stays in the other forms, so the table fits.
        let kept = columns.indices.filter {
            (report.correction == .none || columns[$0].name != "p_value") && columns[$0].name != "perceptible"
        }
        // A value over its interval, so the numbers never wrap; the test by its name, its details
        // (resamples, seed, interval method) once each below, so the column stays narrow.
        let test = columns.firstIndex { $0.name == "test" }
        page.table(DataTable(caption: "\(report.treatmentName) against \(report.controlName)",
                             columns: kept.map { columns[$0].alignsRight ? .numeric(columns[$0].header) : .text(columns[$0].header) },
                             rows: rows.map { row in kept.map {
                                 $0 == test ? Self.testName(row[$0].full)
                                     : row[$0].full.replacingOccurrences(of: " (", with: "\n(").replacingOccurrences(of: ", but ", with: ",\nbut ")
                             } }))
        var tests: [(String, String)] = []
        for r in report.rows where !tests.contains(where: { $0.1 == r.test }) {
            tests.append((Self.testName(r.test), r.test))
        }
        // Each name once, with what follows it in the full text ("2000 resamples …; percentile interval").
        tests = tests.map { name, full in
            (name, String(full.dropFirst(name.count).drop { $0 == ":" || $0 == ";" || $0 == " " }))
        }.filter { !$0.1.isEmpty }
        page.definitionList(tests)
        page.paragraph(footnote()
            + (kept.count < columns.count ? " Unadjusted p-values are in the CSV, JSON and Markdown forms." : ""))
    }
}
