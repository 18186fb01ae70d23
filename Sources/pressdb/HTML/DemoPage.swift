// `pressdb demo --html`: what the demo prints, as one page — the summary report's sections, the
// comparison of arm B with arm A (forest plots with their intervals, then every metric), and the
// frustration signals (docs/html-report.md, "The demo's page").
import Foundation
import PressCharts
import PressAnalysis

enum DemoPage {
    /// The page of the demo database at `database`; `comparison` is the `compare A B` the demo
    /// printed, computed by the same options.
    /// - Throws: `ReportError` or `DatabaseError` from the reports' reads; `AnimationParameterError`
    ///   from a stored configuration with invalid animations.
    static func page(database: String, comparison: ComparisonRenderer, segments: SegmentsRenderer? = nil,
                     generatedAt: Date) throws -> HTMLPage {
        let definitions = try ReportCommand.definitions(nil)
        func definition(_ name: String) throws -> ReportDefinition {
            guard let d = definitions.first(where: { $0.name == name }) else { throw ReportError.badFilter("no built-in report '\(name)'") }
            return d
        }
        var filter = ReportFilter()
        filter.pressSequences = false  // the summary reads none; the frustration runner below does
        let runner = try ReportRunner(path: database, filter: filter)
        let summary = try runner.run(try definition("summary"))
        let context = ReportPageContext(reportName: "summary, compare A B and frustration", isUserDefined: false,
                                        databasePath: database, filter: filter, generatedAt: generatedAt)

        var page = HTMLPage(title: "pressdb demo: the summary, arm B against arm A, the frustration signals")
        try ReportPage.describeSource(&page, runner: runner, context: context)
        page.paragraph("What pressdb demo printed, charted: the summary per configuration (pressdb report), the A/B "
            + "comparison of arm B with arm A by user (pressdb compare A B) and the frustration signals (pressdb report "
            + "frustration). The data is generated, not recorded.")
        try ReportPage.summarySections(&page, summary, runner: runner, context: context)

        page.heading("Arm B against arm A")
        comparison.htmlSections(into: &page, level: 3)
        if let segments {
            page.heading("Arm B against arm A per \(segments.report.attribute)")
            page.paragraph("The same comparison within each \(segments.report.attribute) (pressdb compare A B --segment "
                + "\(segments.report.attribute)): p-values adjusted across every \(segments.report.attribute) and metric, and "
                + "whether the effect differs between them.")
            for line in segments.notes + segments.header { page.paragraph(line) }
            // Tables only: the page's charts are the whole comparison's.
            segments.htmlSections(into: &page, level: 3, charts: false)
        }

        var signals = filter
        signals.pressSequences = true
        let frustration = try ReportRunner(path: database, filter: signals).run(try definition("frustration"))
        ReportPage.frustrationSections(&page, frustration, context: context)
        return page
    }
}
