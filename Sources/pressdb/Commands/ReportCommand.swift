// `pressdb report`: the product's answer — outcomes and perceived latency per configuration.
import Foundation
import PressCharts
import PressStore

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "report",
        abstract: "Outcome rates and perceived latency per configuration, variant, control, screen or app version.",
        discussion: """
        Runs a report definition (default: summary) over the replayed sessions. Built-in
        reports: summary, latency, cancellations, sessions ('pressdb report --list'). Each is a
        plain SQL file reading the view report_input (docs/reports.md); --reports DIR adds your
        own .sql files, which run read-only: nothing they say can write to the database.

        Rates are fractions with Wilson 95 % intervals (_low, _high); times in milliseconds.
        The terminal table shows rates as percentages; CSV and JSON carry full precision.
        --format html writes one self-contained page (inline SVG and CSS, no scripts, nothing
        fetched): for the summary, the scale curve of a typical tap per configuration, the
        feedback-latency distributions, the outcome rates with their intervals and the same
        numbers as the terminal; for another report, its rows as a table (docs/html-report.md).

        Examples:
          pressdb report
          pressdb report latency --by variant --format csv
          pressdb report --where variant=B,screen=feed --since 1700000000
          pressdb report --reports ./my-reports weekly
          pressdb report --format html --out report.html
        """
    )

    @Argument(help: "The report to run (default summary)") var name: String?
    @Option(.database) var database: DatabasePath
    @Option(.by(ReportFilter.groupings, default: ReportFilter().by, help: "Group by")) var by: String
    @Option(.where(keys: ReportFilter.filterKeys)) var filter: [Equality]
    @Option(value: "T", help: "Only sessions touching down at or after T (seconds, the log's clock)") var since: Double?
    @Option(value: "T", help: "Only sessions touching down at or before T") var until: Double?
    @Option(name: "as", value: "CONFIG",
            help: "Report the sessions replayed as CONFIG ('pressdb replay --as') instead of each under its own configuration")
    var replayedAs: String?
    @Option(value: "DIR", help: "A folder of your own .sql report files") var reports: String?
    @Flag(help: "List the available reports with their descriptions.") var list: Bool
    @Option(.format(DocumentFormat.allCases)) var format: DocumentFormat
    @Option(.out) var out: String?

    /// Built-in reports plus the `.sql` files of `dir`.
    static func definitions(_ dir: String?) throws -> [ReportDefinition] {
        var all = ReportDefinition.builtIn
        guard let dir else { return all }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: dir) } catch {
            throw CLIError.failure("cannot read --reports folder \(dir): \(error.localizedDescription)")
        }
        for name in names.sorted() where name.hasSuffix(".sql") {
            let path = (dir as NSString).appendingPathComponent(name)
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw CLIError.failure("cannot read \(path) as UTF-8 text")
            }
            let def = ReportDefinition(name: String(name.dropLast(4)), sql: text, isUserDefined: true)
            all.removeAll { $0.name == def.name }
            all.append(def)
        }
        return all
    }

    /// How a report column is shown in the terminal, from its name and first value.
    static func style(_ name: String, _ sample: SQLValue?) -> ColumnStyle {
        if case .text = sample { return .text }
        if name.hasSuffix("_rate") || name.hasSuffix("_rate_low") || name.hasSuffix("_rate_high")
            || name.hasPrefix("share") { return .percent }
        if name.hasSuffix("_ms") { return .number(1) }
        if name.hasSuffix("_pt") || name.hasSuffix("_pt_max") { return .number(2) }
        if name == "press_depth" { return .number(3) }
        if case .integer = sample { return .integer }
        if case .real = sample { return .number(3) }
        return .text
    }

    /// A report's rows as a table; the `grp` column is named after the grouping.
    static func table(_ result: ReportResult, groupName: String) -> ResultTable {
        let columns = result.columns.enumerated().map { i, name -> Column in
            let sample = result.rows.lazy.map { $0[i] }.first { $0 != .null }
            return Column(name == "grp" ? groupName : name, style(name, sample))
        }
        let rows = result.rows.map { row in
            row.map { v -> Cell in
                switch v {
                case .null: return .null
                case .integer(let n): return .int(Int(n))
                case .real(let d): return .double(d)
                case .text(let s): return .text(s)
                case .blob(let b): return .text("<\(b.count) bytes>")
                }
            }
        }
        var t = ResultTable(columns: columns, rows: rows)
        // A variant column that is empty everywhere says nothing: drop it.
        if let i = result.columns.firstIndex(of: "variant"), result.columns.contains("grp"),
           t.rows.allSatisfy({ $0[i] == .null }) {
            t.columns.remove(at: i)
            t.rows = t.rows.map { var r = $0; r.remove(at: i); return r }
        }
        return t
    }

    /// For the terminal: each `X` with `X_low` and `X_high` beside it becomes one column
    /// "X (95 % CI)" showing "86.8% (84.5–88.7)", so a summary fits a screen. CSV, JSON and
    /// Markdown keep every column.
    static func foldIntervals(_ t: ResultTable) -> ResultTable {
        var out = ResultTable(columns: [], rows: Array(repeating: [], count: t.rows.count))
        var skip = Set<Int>()
        for (i, c) in t.columns.enumerated() where !skip.contains(i) {
            if c.style == .percent,
               let lo = t.columns.firstIndex(where: { $0.name == c.name + "_low" }),
               let hi = t.columns.firstIndex(where: { $0.name == c.name + "_high" }) {
                skip.formUnion([lo, hi])
                out.columns.append(Column(c.name + " (95% CI)", .number(0)))
                for r in t.rows.indices {
                    let v = Render.display(t.rows[r][i], .percent)
                    func pct(_ cell: Cell) -> String {
                        if case .double(let d) = cell { return String(format: "%.1f", d * 100) }
                        return Render.display(cell, .text)
                    }
                    out.rows[r].append(.text("\(v) (\(pct(t.rows[r][lo]))–\(pct(t.rows[r][hi])))"))
                }
            } else {
                out.columns.append(c)
                for r in t.rows.indices { out.rows[r].append(t.rows[r][i]) }
            }
        }
        return out
    }

    /// The warning for a configuration whose results cover only part of the selected sessions
    /// (its own sessions' results, or with `--as` the sessions replayed as it), and what to run.
    static func describe(_ p: ReportRunner.PartialCoverage, replayedAs: Bool) -> String {
        replayedAs
            ? "the results replayed as \(p.config) (version \(p.version)) cover \(p.covered) of the \(p.selected) selected "
                + "sessions; run 'pressdb replay --as \(p.config)' to replay the others"
            : "configuration \(p.config) has results of its current version \(p.version) for \(p.covered) of the "
                + "\(p.selected) selected sessions naming it; run 'pressdb replay --missing' to replay the others"
    }

    /// Why `report_input` is empty, and what to do about it.
    static func emptyInputReason(_ runner: ReportRunner, _ filter: ReportFilter) throws -> String {
        let unknown = try runner.unknownConfigurations()
        var what: [String] = filter.equals.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        if let s = filter.since { what.append("since \(s)") }
        if let u = filter.until { what.append("until \(u)") }
        if let a = filter.replayedAs { what.append("replayed as \(a) (run 'pressdb replay --as \(a)' first)") }
        if !what.isEmpty { return "no session matches " + what.joined(separator: ", ") }
        if !unknown.isEmpty {
            let names = unknown.map { "'\($0.name)' (\($0.sessions) session\($0.sessions == 1 ? "" : "s"))" }.joined(separator: ", ")
            return "no session has a replay result: they name configurations that are not defined — \(names); add them with 'pressdb config add FILE.json'"
        }
        return "no session has a replay result yet (run 'pressdb replay')"
    }

    func run() throws -> Int32 {
        let defs = try Self.definitions(reports)
        let path = database.path
        if list {
            let page: String
            if let tabular = format.tabular {
                let t = ResultTable(columns: [Column("report"), Column("source"), Column("description")],
                                    rows: defs.map { [.text($0.name), .text($0.isUserDefined ? "user" : "built-in"), .text($0.summary)] })
                page = Render.render(t, as: tabular, color: useColor())
            } else {
                page = ReportPage.list(defs, generatedAt: Date()).render()
            }
            try emit(page, to: out, protecting: path)
            return ExitCode.ok
        }
        let name = self.name ?? "summary"
        guard let def = defs.first(where: { $0.name == name }) else {
            throw CLIError.usage("no report named '\(name)'; available: \(defs.map(\.name).joined(separator: ", ")) ('pressdb report --list')")
        }
        var filter = ReportFilter()
        filter.by = by
        filter.equals = Equality.dictionary(self.filter)
        filter.since = since
        filter.until = until
        filter.replayedAs = replayedAs

        guard database.exists else {
            throw CLIError.empty("no database at \(path); ingest a log first ('pressdb ingest FILE', or 'pressdb demo')")
        }
        let runner: ReportRunner
        do { runner = try ReportRunner(path: path, filter: filter) } catch let e as ReportError {
            throw CLIError.usage("\(e)")
        } catch {
            throw CLIError.failure(DatabaseProblem.describe(error, path: path))
        }
        if let a = replayedAs, !runner.knowsConfiguration(a) {
            throw unknownConfiguration(a, known: Array(try runner.configurations().keys))
        }
        // Reports over report_input need replayed sessions; others (rejects) read tables directly.
        if def.sql.contains("report_input") {
            if try runner.sessionCount() == 0 {
                throw CLIError.empty("the database \(path) holds no sessions; ingest a log first ('pressdb ingest FILE')")
            }
            if try runner.inputCount() == 0 {
                throw CLIError.empty(try Self.emptyInputReason(runner, filter))
            }
            for partial in try runner.partialCoverage() { printError("pressdb report: warning: \(Self.describe(partial, replayedAs: filter.replayedAs != nil))") }
        }
        let result: ReportResult
        do { result = try runner.run(def) } catch let e as ReportError {
            throw CLIError.failure("\(e)")
        }
        guard let tabular = format.tabular else {
            let context = ReportPageContext(reportName: name, isUserDefined: def.isUserDefined, databasePath: path, filter: filter, generatedAt: Date())
            let page: HTMLPage
            do {
                page = name == "summary" && !def.isUserDefined
                    ? try ReportPage.summary(result, runner: runner, context: context)
                    : try ReportPage.table(result, runner: runner, context: context)
            } catch {
                throw CLIError.failure("cannot build the HTML page: \(error)")
            }
            try emit(page.render(), to: out, protecting: path)
            return ExitCode.ok
        }
        var table = Self.table(result, groupName: filter.by)
        if tabular == .table { table = Self.foldIntervals(table) }
        try emit(Render.render(table, as: tabular, color: tabular == .table && out == nil && useColor()),
                 to: out, protecting: path)
        return ExitCode.ok
    }
}
