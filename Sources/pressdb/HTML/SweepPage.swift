// `pressdb sweep --format html`: one self-contained page — what was swept, the frontier, a heatmap
// per objective when two parameters were varied (frontier cells outlined), frontier scatters of
// the objectives, the typical tap's scale curve of the chosen points beside the base, and every
// point's numbers (docs/sweep.md).
import Foundation
import PressCharts
import PressCore
import PressFormats
import PressStats
import PressStore
import PressSQLite
import PressAnalysis

enum SweepPage {
    /// The most points whose typical-tap curves are drawn beside the base.
    static let chosenCurves = 5

    static func page(_ sweep: StoredSweep, renderer: SweepRenderer, databasePath: String) throws -> HTMLPage {
        let report = sweep.report
        let d = report.definition
        var page = HTMLPage(title: "pressdb sweep \(sweep.id): \(d.base), \(report.rows.count) points")
        let objectives = report.objectives
        page.definitionList([
            ("Database", databasePath),
            ("Base", "\(d.base), version \(report.baseVersion)"),
            ("Varied", d.parameters.map { "\($0.path) = \($0.spec) (\($0.values.count) values)" }.joined(separator: "; ")),
            ("Points", "\(report.rows.count)" + (d.sample.map { " drawn at random from the grid (--sample \($0), seed \(d.seed))" } ?? " (every combination)")),
            ("Sessions", "\(report.sessions) (\(report.units) \(report.unit.rawValue)s), each replayed under the base and every point"
                + (sweep.equals.isEmpty ? "" : "; --where " + sweep.equals.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))),
            ("Objectives", objectives.map { "\($0.name) (\($0.direction == .lowerIsBetter ? "lower" : "higher") is better)" }
                .joined(separator: ", ")),
        ])

        let frontier = report.rows.filter(\.pareto)
        page.heading("The frontier")
        page.paragraph("\(frontier.count) of \(report.rows.count) points are on the Pareto frontier: no other point is at least as "
            + "good on every objective and better on one. Which of them to ship is a trade-off the numbers cannot make; "
            + (report.weights == nil ? "--top K --weights NAME=W,… ranks them by a weighted score."
                                     : "the ranking below uses the weights given."))
        page.table(table(frontier, renderer: renderer, caption: "Points on the frontier, with the base first", includeBase: true))
        page.paragraph("Headers: " + (renderer.report.objectives.map(\.name) + ["tap_rate"]).compactMap { n in
            SweepRenderer.shortNames[n].map { "\($0) = \(n)" } }.joined(separator: ", ") + ".")

        if d.parameters.count == 2, let heatmap = heatmap(report) {
            page.heading("Each objective over the grid")
            page.figure(heatmap, caption: "One panel per objective over \(d.parameters[0].path) (rows) and \(d.parameters[1].path) "
                + "(columns); each panel coloured from its worst value (dark) to its best (light), the value in each cell. "
                + "Outlined cells are on the Pareto frontier of all the objectives together. The base’s own values: "
                + objectives.map { "\($0.name) \(format(report.base, $0.name))" }.joined(separator: ", ") + ".")
        }

        // Scatters of the first varying objective against each other varying one (an objective
        // equal at every point separates nothing).
        let varying = objectives.filter { o in Set(report.rows.compactMap { $0.number(o.name) }).count > 1 }
        if varying.count >= 2 {
            page.heading("The frontier, objective against objective")
            for k in 1..<varying.count {
                let (chart, caption) = scatter(report, x: varying[0], y: varying[k])
                page.figure(chart, caption: caption)
            }
            let constant = objectives.filter { !varying.contains($0) }.map(\.name)
            if !constant.isEmpty {
                page.paragraph("Equal at every point, so not drawn: " + constant.joined(separator: ", ") + ".")
            }
        }

        page.heading("Press feedback during a typical tap")
        let chosen = chosenRows(report)
        let (chart, caption) = try typicalTap(sweep, chosen: chosen)
        page.figure(chart, caption: caption)

        page.heading("Every point")
        page.paragraph("The summary report’s metrics per point over the same sessions, and the paired differences from the base "
            + "(point − base, “Δ”, in percentage points or ms as the header says, the 95 % interval in parentheses): each session is replayed under both, and the interval is the delta-method "
            + "z-interval over \(report.unit.rawValue)s (clustered by user when every session names one; docs/compare.md). "
            + "CSV and JSON (--format csv|json) carry every column.")
        // Three tables of the same rows rather than one of 19 columns, whose interval cells would
        // wrap into tall rows on a 62rem page.
        let order = report.weights == nil ? "" : " by rank"
        page.table(table(renderer.rows, renderer: renderer, caption: "\(renderer.rows.count) points\(order): the objectives",
                         includeBase: true, part: .objectives))
        page.table(table(renderer.rows, renderer: renderer, caption: "\(renderer.rows.count) points\(order): more of the summary",
                         includeBase: true, part: .summary))
        page.table(table(renderer.rows, renderer: renderer,
                         caption: "\(renderer.rows.count) points\(order): paired differences from the base (95 % interval)",
                         includeBase: false, part: .differences))
        page.heading("Perception anchors")
        page.list(ReportPage.perceptionAnchors)
        return page
    }

    // MARK: Tables

    static func format(_ row: SweepRow, _ name: String) -> String {
        guard let v = row.metrics.first(where: { $0.name == name })?.value else { return "–" }
        let cell = SweepRenderer.cell(v)
        var style = ColumnStyle.named(name, sample: SweepRenderer.cell(v == .null ? .real(0) : v))
        if name.hasSuffix("_pt") { style = .number(3) }
        return Render.display(cell, style)
    }

    /// "−1.2 (−2.0 to −0.4)": a difference times `scale` (100 for a rate in percentage points),
    /// its interval in parentheses; the unit is in the header. No-break spaces keep it on one line.
    static func difference(_ row: SweepRow, _ name: String, scale: Double) -> String {
        guard let d = row.number(name + "_diff") else { return "–" }
        let low = row.number(name + "_diff_low"), high = row.number(name + "_diff_high")
        let text = NumberText.signed(d * scale, digits: 1)
        guard let low, let high else { return text }
        return text + "\u{A0}(\(NumberText.signed(low * scale, digits: 1))\u{A0}to\u{A0}\(NumberText.signed(high * scale, digits: 1)))"
    }

    /// Which columns a table of points holds after the point and its values.
    enum TablePart {
        /// The objectives and the tap rate (the frontier's table).
        case frontier
        /// The objectives, then whether the point is on the frontier.
        case objectives
        /// The other summary metrics.
        case summary
        /// The paired differences from the base with their intervals.
        case differences
    }

    static func table(_ rows: [SweepRow], renderer: SweepRenderer, caption: String, includeBase: Bool,
                      part: TablePart = .frontier) -> DataTable {
        let report = renderer.report
        let d = report.definition
        var columns: [DataTable.Column] = [.text(report.weights == nil ? "point" : "rank")]
        columns += renderer.pathHeaders.map { .numeric($0) }
        let objectives = report.objectives.map(\.name)
        let metrics: [String]
        switch part {
        case .frontier: metrics = objectives + ["tap_rate"].filter { !objectives.contains($0) }
        case .objectives: metrics = objectives
        case .summary: metrics = ["sessions", "tap_rate", "cancel_rate", "feedback_p50_ms", "action_p90_ms", "release_jump_pt_max"]
        case .differences: metrics = []
        }
        columns += metrics.map { .numeric(SweepRenderer.shortNames[$0] ?? $0) }
        let differences: [(name: String, unit: String, scale: Double)] = part == .differences
            ? [("unseen_rate", "pp", 100), ("scroll_abort_rate", "pp", 100), ("tap_rate", "pp", 100), ("feedback_mean_ms", "ms", 1)] : []
        columns += differences.map { .numeric("Δ " + (SweepRenderer.shortNames[$0.name] ?? $0.name) + " (\($0.unit))") }
        let marked = part == .objectives
        if marked { columns.append(.text("frontier")) }
        var out: [[String]] = []
        let all = (includeBase ? [report.base] : []) + rows
        for row in all {
            var cells = [row.point == 0 ? "base" : (row.rank.map { "\($0). (#\(row.point))" } ?? String(row.point))]
            if row.point == 0 {
                cells += d.parameters.map { Render.raw(renderer.baseValue($0.path)) }
            } else {
                cells += row.values.map { Render.raw(SweepRenderer.cell($0.value)) }
            }
            cells += metrics.map { format(row, $0) }
            cells += differences.map { row.point == 0 ? "" : difference(row, $0.name, scale: $0.scale) }
            if marked { cells.append(row.pareto ? "★" : "") }
            out.append(cells)
        }
        return DataTable(caption: caption, columns: columns, rows: out)
    }

    // MARK: Charts

    /// One panel per objective over the two parameters; nil when a parameter has one value.
    static func heatmap(_ report: SweepReport) -> HeatmapChart? {
        let d = report.definition
        let p = d.parameters[0], q = d.parameters[1]
        guard p.values.count > 1 || q.values.count > 1 else { return nil }
        func key(_ row: SweepRow) -> (Int, Int)? {
            guard let a = p.values.firstIndex(of: row.values[0].value), let b = q.values.firstIndex(of: row.values[1].value) else { return nil }
            return (a, b)
        }
        var cell: [[SweepRow?]] = Array(repeating: Array(repeating: nil, count: q.values.count), count: p.values.count)
        for row in report.rows { if let (a, b) = key(row) { cell[a][b] = row } }
        let panels = report.objectives.map { o in
            HeatmapPanel(title: "\(o.name) (\(o.direction == .lowerIsBetter ? "lower" : "higher") is better)",
                         values: cell.map { $0.map { $0?.number(o.name) } },
                         labels: cell.map { $0.map { $0.map { format($0, o.name) } ?? "–" } },
                         lowerIsBetter: o.direction == .lowerIsBetter)
        }
        func label(_ v: CanonicalJSON) -> String { Render.raw(SweepRenderer.cell(v)) }
        return HeatmapChart(title: "Objectives over \(p.path) and \(q.path)", rowLabels: p.values.map(label),
                            columnLabels: q.values.map(label), rowTitle: p.path, columnTitle: q.path, panels: panels,
                            outlined: cell.map { $0.map { $0?.pareto ?? false } })
    }

    static func scatter(_ report: SweepReport, x: SweepObjective, y: SweepObjective) -> (FrontierScatterChart, String) {
        var points: [FrontierPoint] = []
        var missing = 0
        // Rates on the axes in % as the tables show them, not as fractions.
        func isPercent(_ o: SweepObjective) -> Bool { ColumnStyle.named(o.name) == .percent }
        let xScale = isPercent(x) ? 100.0 : 1, yScale = isPercent(y) ? 100.0 : 1
        for row in [report.base] + report.rows {
            guard let a = row.number(x.name), let b = row.number(y.name) else { missing += 1; continue }
            let kind: FrontierPoint.Kind = row.point == 0 ? .base : (row.pareto ? .frontier : .dominated)
            points.append(FrontierPoint(label: row.point == 0 ? "base" : String(row.point), x: a * xScale, y: b * yScale, kind: kind))
        }
        func words(_ o: SweepObjective) -> String {
            "\(o.name) (\(isPercent(o) ? "%, " : "")\(o.direction == .lowerIsBetter ? "lower" : "higher") is better)"
        }
        let chart = FrontierScatterChart(title: "\(y.name) against \(x.name)", points: points, xTitle: words(x), yTitle: words(y),
                                         missing: missing)
        let caption = "Every point on \(x.name) and \(y.name): filled and numbered on the frontier of all \(report.objectives.count) "
            + "objectives, hollow when another point is at least as good on all of them; the square is the base."
            + (report.objectives.count > 2 ? " A frontier point that looks beaten here is better on another objective." : "")
            + (missing > 0 ? " \(missing) point\(missing == 1 ? "" : "s") without a value left out." : "")
        return (chart, caption)
    }

    /// The points whose curves are drawn: the best by rank when ranked, else the frontier's best
    /// by the equal-weight score, at most `chosenCurves`.
    static func chosenRows(_ report: SweepReport) -> [SweepRow] {
        if report.weights != nil {
            return Array(report.rows.filter { $0.rank != nil }.sorted { $0.rank! < $1.rank! }.prefix(chosenCurves))
        }
        let frontier = report.rows.filter(\.pareto)
        let values = frontier.map { row in report.objectives.map { row.number($0.name) } }
        guard let score = try? WeightedObjectiveScore(values, directions: report.objectives.map(\.direction),
                                                      weights: report.objectives.map { _ in 1 }) else {
            return Array(frontier.prefix(chosenCurves))
        }
        return score.ranking.prefix(chosenCurves).map { frontier[$0] }
    }

    /// The base's and the chosen points' scale during a stationary tap of the base's median tap
    /// duration, outside a scroll view.
    static func typicalTap(_ sweep: StoredSweep, chosen: [SweepRow]) throws -> (ScaleTimelineChart, String) {
        let duration = (sweep.medianTapDurationMs ?? 90) / 1000
        var entries: [(name: String, tap: TypicalTap)] = [("base \(sweep.base.name)", try TypicalTap(
            configuration: sweep.base, duration: duration, containers: [("none", .none)]))]
        for row in chosen {
            guard let p = sweep.points.first(where: { $0.point == row.point }) else { continue }
            let values = p.values.map { "\(String($0.path.split(separator: ".").last ?? ""))=\($0.value.text)" }.joined(separator: ", ")
            entries.append(("#\(row.point) (\(values))", try TypicalTap(configuration: p.configuration, duration: duration,
                                                                         containers: [("none", .none)])))
        }
        let end = entries.map { TypicalTap.axisEnd($0.tap.settledTime, $0.tap.display) }.max() ?? 0.5
        let series = entries.map { e -> ScaleSeries in
            let curve = e.tap.curves[0]
            let frames = curve.frames(until: end)
            return ScaleSeries(name: e.name, times: frames.map(\.t), scales: frames.map(\.scale),
                               highlightedTime: curve.feedbackLatency,
                               note: curve.feedbackLatency.map { "press first shows at \(TypicalTap.ms($0)) (dot)" } ?? "unseen")
        }
        let chart = ScaleTimelineChart(title: "Scale during a typical tap: the base and the chosen points", series: series,
                                       markers: [TimeMarker(time: 0, label: "touch-down"),
                                                 TimeMarker(time: duration, label: "lift \(TypicalTap.ms(duration))")],
                                       visibilityDelta: entries[0].tap.visibilityDelta,
                                       size: ChartSize(width: ChartSize.standard.width, height: 380))
        let caption = "The scale on each 60 Hz frame during a stationary tap of \(TypicalTap.ms(duration)) (the base’s median tap "
            + "in these sessions) on a 44 × 44 pt control outside a scroll view, under the base and "
            + (sweep.report.weights == nil ? "the best frontier points by an equal-weight score" : "the best-ranked points")
            + ". Inside the band the edge has moved less than one device pixel; a dot marks the first frame that shows the press."
        return (chart, caption)
    }
}
