// How a comparison of more than two arms looks: the shared lines once (counts, unit, the sample
// ratio check over all arms, the family of the adjustment), then each treatment against the
// control as ComparisonRenderer draws two arms — a section per treatment in the terminal,
// Markdown and HTML, an `arm` column first in CSV, JSON and NDJSON.
import PressCharts
import PressCore
import PressStats

struct ManyArmsRenderer {
    var report: MultiArmReport
    var notes: [String]
    /// What the arms name (variant or config), for the title.
    var by: String
    /// One renderer per treatment, with the family's adjustment in its header.
    var pairs: [ComparisonRenderer]

    init(report: MultiArmReport, notes: [String], by: String, perceptionThreshold: Double) {
        self.report = report
        self.notes = notes
        self.by = by
        let adjustment = Self.adjustment(report)
        pairs = report.comparisons.map {
            ComparisonRenderer(report: $0.classifyingPerceptibility(threshold: perceptionThreshold), notes: [],
                               family: (adjustment: adjustment, label: $0.treatmentName))
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

    static func adjustment(_ report: MultiArmReport) -> String {
        let m = report.familySize, arms = report.comparisons.count
        let family = "\(counted(m, "test")) (\(arms) treatments × metrics)"
        switch report.correction {
        case _ where m == 0: return "no p-values: no metric has a verdict"
        case .none: return "p-values not adjusted for the \(family)"
        case .holm: return "p-values adjusted across all \(family) by Holm–Bonferroni"
        case .benjaminiHochberg: return "p-values adjusted across all \(family) by Benjamini–Hochberg (false discovery rate)"
        }
    }

    var title: String {
        "\(report.comparisons.map(\.treatmentName).joined(separator: ", ")) each against \(report.controlName) (the control), "
            + "observed: different sessions in each arm"
    }

    /// The unit and sequential lines, the sample ratio check over all arms, α and the family.
    var header: [String] {
        var lines = pairs[0].header
        if let srm = report.sampleRatio {
            let split = report.expectedSplit.map { NumberText.compact($0 * 100, maxDigits: 1) }.joined(separator: "/")
            lines.insert("sample ratio \(srm.observed.map(String.init).joined(separator: ":")) against an intended \(split): "
                + "χ² = \(NumberText.compact(srm.chiSquared, maxDigits: 2)) (\(srm.degreesOfFreedom) df), "
                + "p = \(ComparisonRenderer.pText(srm.pValue))"
                + (srm.isMismatch ? " — MISMATCH" : " (no mismatch at p < \(ComparisonRenderer.pText(srm.threshold)))"),
                at: lines.count - 1)
        }
        return lines
    }

    var standardErrorLines: [String] {
        notes.map { "compare: \($0)" } + report.warnings.map { "compare: warning: \($0.message)" }
            + pairs.flatMap { p in p.report.warnings.map { "compare: warning: \(p.report.treatmentName): \($0.message)" } }
    }

    /// The two-arm machine table of each treatment, under an `arm` column naming it.
    var machineTable: ResultTable {
        tagged { ComparisonRenderer.machineTable($0.report) }
    }

    func tagged(_ table: (ComparisonRenderer) -> ResultTable) -> ResultTable {
        var out = ResultTable(columns: [])
        for p in pairs {
            let t = table(p)
            out.columns = [Column("arm")] + t.columns
            out.rows += t.rows.map { [.text(p.report.treatmentName)] + $0 }
        }
        return out
    }

    func terminal(_ options: TableOptions) throws -> String {
        let width = options.width
        var out = TerminalTable.wrap(Terminal.visible(title), width: width)
        for line in notes + header { out += TerminalTable.wrap("  " + Terminal.visible(line), width: width, indent: "    ") }
        for p in [nil] + pairs {
            for w in p?.report.warnings ?? report.warnings {
                let wrapped = TerminalTable.wrap("warning: " + Terminal.visible((p.map { "\($0.report.treatmentName): " } ?? "") + w.message),
                                                 width: width, indent: "  ")
                out += options.color ? "\u{1B}[1;31mwarning:\u{1B}[0m" + wrapped.dropFirst("warning:".count) : wrapped
            }
        }
        for p in pairs {
            out += "\n" + TerminalTable.wrap(Terminal.visible("\(p.report.treatmentName) against \(p.report.controlName):"), width: width)
            out += try p.tableText(options, footnote: false)
        }
        return out + "\n" + TerminalTable.wrap(pairs[0].footnote(), width: width ?? HelpRow.width)
    }

    func markdown() -> String {
        var out = "**\(Render.markdownText(title))**\n\n"
        for n in notes + header { out += "- \(Terminal.visible(n.trimmingCharacters(in: .whitespaces)))\n" }
        out += "\n"
        let warnings = report.warnings.map(\.message)
            + pairs.flatMap { p in p.report.warnings.map { "\(p.report.treatmentName): \($0.message)" } }
        for w in warnings { out += "> **Warning:** \(Terminal.visible(w))\n>\n" }
        if !warnings.isEmpty { out.removeLast(2); out += "\n\n" }
        return out + Render.markdown(tagged { ComparisonRenderer.roundedTable($0.report) })
    }

    func html() -> String {
        var page = HTMLPage(title: "pressdb compare: \(report.comparisons.map(\.treatmentName).joined(separator: ", ")) against \(report.controlName)")
        page.paragraph(title + ".")
        for line in notes + header { page.paragraph(line.trimmingCharacters(in: .whitespaces)) }
        for w in report.warnings { page.banner(w.message, kind: .warning) }
        for p in pairs {
            page.heading("\(p.report.treatmentName) against \(p.report.controlName)", level: 2)
            p.htmlSections(into: &page, level: 3)
        }
        return page.render()
    }
}
