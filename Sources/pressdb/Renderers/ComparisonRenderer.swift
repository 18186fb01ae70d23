// How a comparison looks: the five formats of `pressdb compare` (terminal table, CSV, JSON,
// Markdown, HTML) from one `ExperimentReport` and the notes the command collected. The command
// only computes the report and picks the format.
import Foundation
import PressCharts
import PressStats

/// Renders an `ExperimentReport` with the lines that describe how its arms were formed
/// (`notes`: session counts, pairing).
struct ComparisonRenderer {
    var report: ExperimentReport
    var notes: [String]

    /// The report in `format`; `color` for the terminal table. Ends with a newline.
    func render(_ format: DocumentFormat, color: Bool) -> String {
        switch format {
        case .table: return terminal(color: color)
        case .csv: return Render.csv(Self.machineTable(report))
        case .json: return Render.json(Self.machineTable(report))
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
        names += ["unit", "units_a", "units_b", "se", "mde", "mde_rel", "units_needed", "sequential"]
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
                      r.unitsNeededPerArm.map { .int($0) } ?? .null, .bool(r.sequential)]
            table.rows.append(cells)
        }
        return table
    }

    func markdown() -> String {
        var out = "**\(title)**\n\n"
        for n in notes + header { out += "- \(n.trimmingCharacters(in: .whitespaces))\n" }
        out += "\n"
        for w in report.warnings { out += "> **Warning:** \(w.message)\n>\n" }
        if !report.warnings.isEmpty { out.removeLast(2); out += "\n\n" }
        return out + Render.markdown(Self.machineTable(report))
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

    /// What the table's numbers mean for this report's unit and inference.
    var footnote: String {
        var lines = ["Rates in %, their differences in percentage points (pp); latencies in ms. MDE: the difference this",
                     "comparison detects with 80 % power at α. Lower is better for every metric but tap_rate."]
        if report.unit == .user || report.isSequential {
            lines += ["Each row's p-value and interval come from one test over \(unitWord) (percentiles: a bootstrap), so",
                      "p < α exactly when the interval excludes 0; a verdict needs the adjusted p below α as well."]
        } else {
            lines += ["The p50 difference is the Hodges–Lehmann shift (the median of the differences) and its verdict",
                      "follows the Mann–Whitney or signed-rank test; p90 rows have no test, their verdict comes from a",
                      "conservative interval; rates and means need p < α and their interval excluding 0."]
        }
        lines += ["Feedback latency covers the presses that were seen; presses never seen are counted by unseen_rate",
                  "instead, so read the two together: an arm that stops hiding quick taps can look slower on latency",
                  "while it is seen far more."]
        return lines.joined(separator: "\n")
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
        return metric.isRate ? String(format: "%.2f%%", x * 100) : String(format: "%.1f", x)
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

    /// B − A with its interval: "+1.23 pp (+0.50, +1.96)" or "+16.7 ms (+16.5, +16.9)".
    static func differenceText(_ row: ExperimentRow) -> String {
        guard row.difference.isFinite else { return "–" }
        let scale = row.metric.isRate ? 100.0 : 1, digits = row.metric.isRate ? 2 : 1
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

    /// The cells shown to people (terminal and HTML), one list per row.
    var humanRows: (columns: [(String, Bool)], rows: [[String]]) {
        let adjusted = report.correction != .none
        var columns: [(String, Bool)] = [("metric", false), ("A: \(report.controlName)", true), ("B: \(report.treatmentName)", true),
                                         ("B − A (95% CI)", true), ("relative (95% CI)", true), ("p", true)]
        if report.configuration.alpha != StatsConfiguration.defaultAlpha || report.isSequential {
            // CS: a confidence sequence, valid at every look.
            let level = NumberText.compact((1 - report.configuration.alpha) * 100, maxDigits: 2) + (report.isSequential ? "% CS" : "% CI")
            columns[3].0 = "B − A (\(level))"
            columns[4].0 = "relative (\(level))"
        }
        if adjusted { columns.append((report.correction == .holm ? "p (Holm)" : "p (BH)", true)) }
        let planned = report.configuration.plannedEffect != nil
        columns += [("verdict", false), ("MDE", true)]
        if planned { columns.append(("\(unitWord)/arm for --mde", true)) }
        columns.append(("test", false))
        let rows = report.rows.map { r -> [String] in
            var cells = [r.metric.rawValue, Self.armText(r.metric, r.control, r.controlInterval),
                         Self.armText(r.metric, r.treatment, r.treatmentInterval), Self.differenceText(r), Self.relativeText(r), Self.pText(r.pValue)]
            if adjusted { cells.append(Self.pText(r.adjustedPValue)) }
            cells += [r.verdict.rawValue, Self.mdeText(r)]
            if planned { cells.append(r.unitsNeededPerArm.map(String.init) ?? "–") }
            cells.append(r.test)
            return cells
        }
        return (columns, rows)
    }

    /// The minimum detectable effect in the row's unit: "1.23 pp" or "4.5 ms".
    static func mdeText(_ row: ExperimentRow) -> String {
        guard let m = row.minimumDetectableEffect, m.isFinite else { return "–" }
        return row.metric.isRate ? String(format: "%.2f pp", m * 100) : String(format: "%.1f ms", m)
    }

    /// The test's name without the interval method, for the terminal (other formats say both).
    static func shortTest(_ test: String) -> String {
        test.split(separator: ";", maxSplits: 1).first.map(String.init) ?? test
    }

    func terminal(color: Bool) -> String {
        var out = title + "\n"
        for line in notes + header { out += "  " + line + "\n" }
        for w in report.warnings {
            out += (color ? "\u{1B}[1;31mwarning:\u{1B}[0m " : "warning: ") + w.message + "\n"
        }
        out += "\n"
        let (columns, rows) = humanRows
        let table = ResultTable(columns: columns.map { Column($0.0, $0.1 ? .number(0) : .text) },
                                rows: rows.map { row in row.enumerated().map { .text($0.offset == row.count - 1 ? Self.shortTest($0.element) : $0.element) } })
        out += Render.text(table, color: color)
        return out + "\n" + footnote + "\n"
    }

    func html() -> String {
        var page = HTMLPage(title: "pressdb compare: \(report.treatmentName) against \(report.controlName)")
        page.paragraph(title + ".")
        for line in notes + header { page.paragraph(line.trimmingCharacters(in: .whitespaces)) }
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
        let (columns, rows) = humanRows
        page.table(DataTable(caption: "\(report.treatmentName) against \(report.controlName)",
                             columns: columns.map { $0.1 ? .numeric($0.0) : .text($0.0) }, rows: rows))
        page.paragraph(footnote.replacingOccurrences(of: "\n", with: " "))
        return page.render()
    }
}
