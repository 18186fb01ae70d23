// How a comparison split into segments looks: the shared lines and Cochran's Q per metric once,
// then each segment's comparison as ComparisonRenderer draws it — a section per segment in the
// terminal, Markdown and HTML, a `segment` column first in CSV, JSON and NDJSON.
import Foundation
import PressCharts
import PressCore
import PressStats

struct SegmentsRenderer {
    var report: SegmentedReport
    var notes: [String]
    /// One renderer per segment, its counts as its notes.
    var sections: [ComparisonRenderer]

    init(report: SegmentedReport, notes: [String], segmentNotes: [String: [String]], perceptionThreshold: Double) {
        self.report = report
        self.notes = notes
        let m = report.familySize, k = report.segments.count
        let family = "\(counted(m, "test")) (\(counted(k, "segment")) × metrics)"
        let adjustment: String
        switch report.correction {
        case _ where m == 0: adjustment = "no p-values: no metric has a verdict"
        case .none: adjustment = "p-values not adjusted for the \(family)"
        case .holm: adjustment = "p-values adjusted across all \(family) by Holm–Bonferroni"
        case .benjaminiHochberg: adjustment = "p-values adjusted across all \(family) by Benjamini–Hochberg (false discovery rate)"
        }
        sections = report.segments.map {
            ComparisonRenderer(report: $0.report.classifyingPerceptibility(threshold: perceptionThreshold),
                               notes: segmentNotes[$0.value] ?? [], family: (adjustment: adjustment, label: $0.value))
        }
        // Each segment's own sample ratio goes with its counts; the shared header has none.
        for i in sections.indices {
            sections[i].notes += sections[i].header.filter { $0.hasPrefix("sample ratio ") }
        }
    }

    func render(_ format: DocumentFormat, options: TableOptions) throws -> String {
        switch format {
        case .table: return try terminal(options)
        case .csv: return Render.csv(machineTable)
        case .json: return Render.json(machineTable)
        case .ndjson: return Render.ndjson(machineTable)
        case .markdown: return markdown()
        case .html: return html()
        }
    }

    var first: ExperimentReport { report.segments[0].report }

    var title: String {
        "\(first.treatmentName) against \(first.controlName) per \(report.attribute), observed: different sessions in each arm"
    }

    /// The unit and sequential lines and the family of the adjustment, once for all segments.
    var header: [String] { sections[0].header.filter { !$0.hasPrefix("sample ratio ") } }

    /// Per metric: the segments' differences pooled, Cochran's Q, its p and I².
    var heterogeneityLines: [String] {
        report.heterogeneity.map { h in
            let t = h.test
            return "\(h.metric.rawValue): Q = \(NumberText.compact(t.q, maxDigits: 2)), \(t.degreesOfFreedom) df, "
                + "p = \(ComparisonRenderer.pText(t.pValue)), I² = \(NumberText.compact(t.inconsistency * 100, maxDigits: 0)) %"
        }
    }

    var heterogeneityIntroduction: String {
        "does the effect differ between \(report.attribute) values? Cochran's Q of the segments' B − A with "
            + "inverse-variance weights (Cochran 1954), df = segments − 1, and I² (Higgins & Thompson 2002), "
            + "over the segments whose row has a p-value; a small p says the segments differ"
    }

    static let noHeterogeneity = "no metric has a p-value in two segments or more: nothing to test"

    var standardErrorLines: [String] {
        notes.map { "compare: \($0)" } + ["compare: heterogeneity: \(heterogeneityIntroduction)"]
            + heterogeneityLines.map { "compare: heterogeneity: \($0)" }
            + sections.flatMap { s in
                s.notes.map { "compare: \(report.attribute) \(s.family?.label ?? ""): \($0)" }
                    + s.report.warnings.map { "compare: warning: \(report.attribute) \(s.family?.label ?? ""): \($0.message)" }
            }
    }

    /// Each segment's machine table under a `segment` column naming its value.
    var machineTable: ResultTable { tagged { ComparisonRenderer.machineTable($0.report) } }

    func tagged(_ table: (ComparisonRenderer) -> ResultTable) -> ResultTable {
        var out = ResultTable(columns: [])
        for s in sections {
            let t = table(s)
            out.columns = [Column("segment")] + t.columns
            out.rows += t.rows.map { [.text(s.family?.label ?? "")] + $0 }
        }
        return out
    }

    func terminal(_ options: TableOptions) throws -> String {
        let width = options.width
        var out = TerminalTable.wrap(Terminal.visible(title), width: width)
        for line in notes + header { out += TerminalTable.wrap("  " + Terminal.visible(line), width: width, indent: "    ") }
        out += "\n" + TerminalTable.wrap("Heterogeneity: " + heterogeneityIntroduction + ".", width: width)
        for line in heterogeneityLines.isEmpty ? [Self.noHeterogeneity] : heterogeneityLines {
            out += TerminalTable.wrap("  " + line, width: width, indent: "    ")
        }
        for s in sections {
            out += "\n" + TerminalTable.wrap(Terminal.visible("\(report.attribute) \(s.family?.label ?? ""):"), width: width)
            for line in s.notes { out += TerminalTable.wrap("  " + Terminal.visible(line), width: width, indent: "    ") }
            for w in s.report.warnings {
                let wrapped = TerminalTable.wrap("warning: " + Terminal.visible(w.message), width: width, indent: "  ")
                out += options.color ? "\u{1B}[1;31mwarning:\u{1B}[0m" + wrapped.dropFirst("warning:".count) : wrapped
            }
            out += try s.tableText(options, footnote: false)
        }
        return out + "\n" + TerminalTable.wrap(sections[0].footnote(), width: width ?? HelpRow.width)
    }

    func markdown() -> String {
        var out = "**\(Render.markdownText(title))**\n\n"
        for n in notes + header { out += "- \(Terminal.visible(n.trimmingCharacters(in: .whitespaces)))\n" }
        out += "- heterogeneity: \(heterogeneityIntroduction)\n"
        for h in heterogeneityLines { out += "  - \(Terminal.visible(h))\n" }
        out += "\n"
        let warnings = sections.flatMap { s in s.report.warnings.map { "\(report.attribute) \(s.family?.label ?? ""): \($0.message)" } }
        for w in warnings { out += "> **Warning:** \(Terminal.visible(w))\n>\n" }
        if !warnings.isEmpty { out.removeLast(2); out += "\n\n" }
        return out + Render.markdown(tagged { ComparisonRenderer.roundedTable($0.report) })
    }

    func html() -> String {
        var page = HTMLPage(title: "pressdb compare: \(first.treatmentName) against \(first.controlName) per \(report.attribute)")
        page.paragraph(title + ".")
        for line in notes + header { page.paragraph(line.trimmingCharacters(in: .whitespaces)) }
        htmlSections(into: &page, level: 2)
        return page.render()
    }

    /// The heterogeneity table and a section per segment, headings at `level` (the demo's page
    /// nests them under its own); `charts` false leaves out the segments' forest plots.
    func htmlSections(into page: inout HTMLPage, level: Int, charts: Bool = true) {
        page.heading("Heterogeneity across \(report.attribute)", level: level)
        page.paragraph(heterogeneityIntroduction.prefix(1).uppercased() + heterogeneityIntroduction.dropFirst() + ".")
        let scale = { (m: ExperimentMetric) in m.isRate ? 100.0 : 1 }
        if report.heterogeneity.isEmpty { page.paragraph(Self.noHeterogeneity) } else {
        page.table(DataTable(
            caption: "Cochran's Q per metric across \(report.attribute)",
            columns: [.text("metric"), .numeric("segments"), .numeric("pooled B − A"), .numeric("Q"), .numeric("df"),
                      .numeric("p"), .numeric("I²")],
            rows: report.heterogeneity.map { h in
                [h.metric.rawValue, "\(h.segments.count)",
                 ComparisonRenderer.signedText(h.test.pooled * scale(h.metric), digits: 1) + (h.metric.isRate ? " pp" : " ms"),
                 NumberText.compact(h.test.q, maxDigits: 2), "\(h.test.degreesOfFreedom)", ComparisonRenderer.pText(h.test.pValue),
                 NumberText.compact(h.test.inconsistency * 100, maxDigits: 0) + " %"]
            }))
        }
        for s in sections {
            page.heading("\(report.attribute) \(s.family?.label ?? "")", level: level)
            for line in s.notes { page.paragraph(line) }
            var section = s
            section.charts = charts
            section.htmlSections(into: &page, level: level + 1)
        }
    }
}
