// How a sweep looks: every column for CSV, JSON and Markdown (the varied values under their
// paths, the summary report's names, the sweep's own, the paired differences, pareto), and for
// the terminal the objectives of each point beside the base with the frontier marked.
import Foundation
import PressCore
import PressFormats
import PressStore
import PressSQLite
import PressAnalysis

struct SweepRenderer {
    let report: SweepReport
    /// The base configuration (for its own values of the varied paths).
    let base: PressConfiguration
    let sweepID: Int64
    /// Show only the best `top` points by score.
    let top: Int?

    /// The rows shown: every point, or the best `top` by rank.
    var rows: [SweepRow] { report.shown(top: top) }

    var ranked: Bool { report.weights != nil }

    // MARK: Every column

    /// point (0: the base), the varied paths, every metric, then score and rank when ranked, then pareto.
    func fullTable() -> ResultTable {
        var columns = [Column("point", .integer)]
        columns += report.definition.parameters.map { Column($0.path, .text) }
        for name in SweepReport.metricNames {
            let sample = rows.lazy.compactMap { $0.metrics.first { $0.name == name }?.value }.first { $0 != .null }
            columns.append(Column(name, ColumnStyle.named(name, sample: Self.cell(sample ?? .real(0)))))
        }
        if ranked { columns += [Column("score", .number(3)), Column("rank", .integer)] }
        columns.append(Column("pareto"))
        var table = ResultTable(columns: columns)
        for row in [report.base] + rows {
            var cells: [Cell] = [.int(row.point)]
            cells += row.point == 0 ? report.definition.parameters.map { baseValue($0.path, recorded: .null) }
                                    : row.values.map { Self.cell($0.value) }
            cells += row.metrics.map { Self.cell($0.value) }
            if ranked { cells += [row.score.map(Cell.double) ?? .null, row.rank.map(Cell.int) ?? .null] }
            cells.append(.bool(row.pareto))
            table.rows.append(cells)
        }
        return table
    }

    static func cell(_ v: CanonicalJSON) -> Cell {
        switch v {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let x): return .double(x)
        case .string(let s): return .text(s)
        default: return .text(v.text)
        }
    }

    /// A metric's value as a cell (the report's conversion).
    static func cell(_ v: SQLValue) -> Cell { ReportCommand.cell(v) }

    // MARK: The terminal

    /// Short headers for the HTML page's tables, so that a grid's objectives fit the page; the
    /// legend under them names them in full. (The terminal table shortens its headers itself,
    /// `ColumnNames.short`, and `--columns` takes the full names.)
    static let shortNames: [String: String] = [
        "feedback_p50_ms": "fb_p50_ms", "feedback_p90_ms": "fb_p90_ms", "feedback_p99_ms": "fb_p99_ms",
        "unseen_rate": "unseen", "unseen_presses": "unseen_n", "release_jump_p90_pt": "jump_p90_pt",
        "release_jump_pt_max": "jump_max_pt", "scroll_abort_rate": "abort", "scroll_aborts": "aborts",
        "false_actions": "false_act", "false_action_rate": "false_rate", "cancel_rate": "cancel", "tap_rate": "tap",
        "share_over_100ms": "over_100ms", "action_p50_ms": "act_p50_ms", "action_p90_ms": "act_p90_ms",
        "feedback_photon_p90_ms": "photon_p90_ms", "share_photon_over_100ms": "photon_over_100",
    ]

    /// The report's style for a column, with jumps in points to 3 decimals (they are small).
    static func terminalStyle(_ name: String, _ sample: SQLValue?) -> ColumnStyle {
        name.hasSuffix("_pt") || name.hasSuffix("_pt_max") ? .number(3) : ColumnStyle.named(name, sample: cell(sample ?? .real(0)))
    }

    /// The varied paths' headers: the last field name, or the whole path where two would clash.
    var pathHeaders: [String] {
        let paths = report.definition.parameters.map(\.path)
        let last = paths.map { String($0.split(separator: ".").last ?? "") }
        return zip(paths, last).map { path, l in last.filter { $0 == l }.count > 1 ? path : l }
    }

    /// The base's own value of a varied path (`recorded` for a container parameter or the
    /// display: the sessions').
    func baseValue(_ path: String, recorded: Cell = .text("recorded")) -> Cell {
        if !SweepPath.isConfiguration(path) { return recorded }
        var v = base.definition
        for key in path.split(separator: ".") {
            guard case .object(let m) = v, let next = m[String(key)] else { return .null }
            v = next
        }
        return Self.cell(v)
    }

    /// The terminal table: the base, then each point — its varied values, its objectives, and ★
    /// on the frontier — with the legend lines that go under it.
    func terminalTable() -> (table: ResultTable, legend: [String]) {
        let objectives = report.objectives
        var columns = [Column(ranked ? "rank" : "point", .text)]
        columns += pathHeaders.map { Column($0, .number(0)) }
        for o in objectives {
            let sample = rows.lazy.compactMap { $0.metrics.first { $0.name == o.name }?.value }.first { $0 != .null }
            columns.append(Column(o.name, Self.terminalStyle(o.name, sample)))
        }
        if ranked { columns.append(Column("score", .number(3))) }
        columns.append(Column("pareto"))
        var table = ResultTable(columns: columns)
        func objectiveCells(_ row: SweepRow) -> [Cell] {
            objectives.map { o in row.metrics.first { $0.name == o.name }.map { Self.cell($0.value) } ?? .null }
        }
        var baseCells: [Cell] = [.text("base")] + report.definition.parameters.map { Self.text(baseValue($0.path)) }
        baseCells += objectiveCells(report.base)
        if ranked { baseCells.append(.null) }
        baseCells.append(.text(""))
        table.rows.append(baseCells)
        for row in rows {
            var cells: [Cell] = [.text(ranked ? "\(row.rank ?? 0). #\(row.point)" : String(row.point))]
            cells += row.values.map { Self.text(Self.cell($0.value)) }
            cells += objectiveCells(row)
            if ranked { cells.append(row.score.map(Cell.double) ?? .null) }
            cells.append(.text(row.pareto ? "★" : ""))
            table.rows.append(cells)
        }
        let onFrontier = report.rows.filter(\.pareto).count
        var legend: [String] = []
        let directions = objectives.map { "\($0.name) \($0.direction == .lowerIsBetter ? "lower" : "higher")" }
        legend.append("★ Pareto frontier: \(onFrontier) of \(report.rows.count) points that no other point beats on every "
                      + "objective (\(directions.joined(separator: ", ")) is better)")
        if ranked, let weights = report.weights {
            let w = zip(objectives, weights).map { "\($0.name)=\(Render.full($1))" }.joined(separator: ", ")
            legend.append("score: weighted mean of each objective rescaled over the points (0 best, 1 worst); weights \(w)")
        }
        legend.append("paired differences from the base with 95% intervals, by \(report.unit.rawValue) "
                      + "(\(report.units) \(report.unit.rawValue)s): --format csv or json; a point as a configuration: "
                      + "pressdb sweep --export-config \(sweepID):POINT")
        return (table, legend)
    }

    /// A value as text, so numbers and words line up in one column.
    static func text(_ c: Cell) -> Cell {
        switch c {
        case .double(let d): return .text(Render.full(d))
        default: return c
        }
    }

    /// The lines above the table (standard error for CSV and JSON).
    var headline: String {
        let d = report.definition
        var text = "sweep \(sweepID): base \(d.base) (version \(report.baseVersion)), \(report.rows.count) "
            + (report.rows.count == 1 ? "point" : "points")
        if let sample = d.sample { text += " (a sample of \(sample), seed \(d.seed))" }
        text += ", \(report.sessions) sessions"
        return text
    }

    /// The sweep in `format`; a terminal table is fitted to `options`' width (`TerminalTable`:
    /// the point, ★ and the varied values are kept longest, then the objectives in order) with
    /// the legend wrapped under it.
    /// - Throws: `CLIError.usage` for a `--columns` name the table does not have.
    func render(_ format: OutputFormat, options: TableOptions = TableOptions()) throws -> String {
        switch format {
        case .table:
            let (table, legend) = terminalTable()
            let (columns, cells) = TerminalTable.shownColumns(table.columns)
            let rows = table.rows.map(cells)
            let presentation = TablePresentation(key: [table.columns[0].name, "pareto"] + pathHeaders
                                                     + table.columns.dropFirst().map(\.name).filter { $0 != "pareto" })
            let layout = try TerminalTable(columns: columns, rows: rows, presentation: presentation, options: options)
            let width = options.width ?? Terminal.defaultWidth
            return TextWrap.lines(headline, width: width).map { $0 + "\n" }.joined() + layout.render(rows)
                + legend.flatMap { TextWrap.lines($0, width: width) }.map { $0 + "\n" }.joined()
        default:
            return Render.render(fullTable(), as: format)
        }
    }
}
