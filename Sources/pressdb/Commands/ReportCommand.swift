// `pressdb report`: the product's answer — outcomes and perceived latency per configuration.
import Foundation
import PressCharts
import PressCore
import PressStore
import PressSQLite
import PressAnalysis

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "report",
        abstract: "Outcome rates and perceived latency per configuration, variant, control, screen or app version.",
        discussion: """
        Runs a report definition (default: summary) over the replayed sessions. Built-in
        reports: summary, latency, cancellations, frustration, sessions ('pressdb report --list'). Each is a
        plain SQL file reading the view report_input (docs/reports.md); --reports DIR adds your
        own .sql files, which run read-only: nothing they say can write to the database.

        Rates are fractions with Wilson 95 % intervals (_low, _high); times in milliseconds.
        The terminal table shows rates as percentages and fits the terminal's width: it says
        under the table what it left out (--wide shows all, --columns chooses, --explain
        explains each column, --full shows long text whole). CSV, JSON and NDJSON carry every
        column at full precision. Rows stream: a report of any size runs in bounded memory,
        and '| head' ends it at once (docs/reports.md).
        --format html writes one self-contained page (inline SVG and CSS, no scripts, nothing
        fetched): for the summary, the scale curve of a typical tap per configuration, the
        feedback-latency distributions, the outcome rates with their intervals and the same
        numbers as the terminal; for another report, its rows as a table (docs/html-report.md).

        --from PARTIAL reports from a partial ('pressdb aggregate', 'pressdb merge') instead
        of the database: the summary, exactly as it reads from a database holding the same
        sessions, grouped by and filtered on config, variant, control, screen or app_version
        (a partial keeps nothing finer; docs/scale-out.md).

        --display NAME reports every session replayed now on that display profile ('pressdb
        displays'; with --as, replayed as that configuration) instead of on its own: the
        counterfactual "how would these presses look on ProMotion?". Those results are not
        stored, so the summary is read from them as --from reads a partial, with its filters.

        --stalls MS_PER_S replays every session now with main-thread hitches sampled at that
        hitch-time ratio (and --hangs FILE's hangs; --seed S) and reports those results as
        --display does; standard error then says how many unseen presses are unseen because of
        a stall and how many because of the configuration (docs/press-model.md §8).

        Examples:
          pressdb report
          pressdb report latency --by variant --format csv
          pressdb report --where variant=B,screen=feed --since 1700000000
          pressdb report frustration --cancel-retry-window 3
          pressdb report sessions --signal retry_after_cancel
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
    @Option(value: "NAME", help: "Only the sessions with this frustration signal (docs/frustration.md)") var signal: SessionSignal?
    @OptionGroup var signals: FrustrationOptions
    @Option(value: "DIR", help: "A folder of your own .sql report files") var reports: String?
    @Flag(help: "List the available reports with their descriptions.") var list: Bool
    @Option(value: "PARTIAL", help: "Report from a partial ('pressdb aggregate') instead of the database",
            discussion: "The summary only; '-' reads standard input.")
    var from: String?
    @Option(name: "display", value: "NAME",
            help: "Report every session replayed on this display profile ('pressdb displays') instead of its own",
            discussion: "The summary only, replayed now and not stored; the filters of --from.")
    var displayName: String?
    @Option(name: "stalls", value: "MS_PER_S",
            help: "Report every session replayed with main-thread hitches at this hitch-time ratio (ms late per s), 0 to 999")
    var stallRatio: Double?
    @Option(value: "FILE", help: "With --stalls: also sample hangs from this histogram (JSON, counts per hour; docs/press-model.md §8)")
    var hangs: String?
    @Option(value: "S", help: "Random seed of --stalls, 0 to 2^64-1") var seed = StallProfile.defaultSeed
    @Option(.format(DocumentFormat.allCases)) var format: DocumentFormat
    @Option(.out) var out: String?
    @Flag(.wide) var wide: Bool
    @Option(.columns) var columns: [String]
    @Flag(help: "Terminal table: show text whole (e.g. report rejects' raw lines), every column, however wide.")
    var full: Bool
    @Flag(.explain) var explain: Bool

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

    /// A report's value as a cell (a BLOB as its size: its bytes are not text).
    static func cell(_ v: SQLValue) -> Cell {
        switch v {
        case .null: return .null
        case .integer(let n): return .int(Int(n))
        case .real(let d): return .double(d)
        case .text(let s): return .text(s)
        case .blob(let b): return .text("<\(b.count) bytes>")
        }
    }

    /// A report's rows as a table; the `grp` column is named after the grouping, each column's
    /// style told from its name and first value (`ColumnStyle.named`).
    static func table(_ result: ReportResult, groupName: String) -> ResultTable {
        let rows = result.rows.map { $0.map(cell) }
        let columns = result.columns.enumerated().map { i, name -> Column in
            Column(name == "grp" ? groupName : name, .named(name, sample: rows.lazy.map { $0[i] }.first { $0 != .null }))
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

    /// For HTML: each rate `X` with `X_low` and `X_high` beside it as one column "X (95 % CI)"
    /// showing "86.8% (84.5–88.7)", the other cells as the terminal shows them
    /// (`TerminalTable.shownColumns`).
    static func foldIntervals(_ t: ResultTable) -> ResultTable {
        let (columns, cells) = TerminalTable.shownColumns(t.columns)
        return ResultTable(columns: columns.map { Column($0.header, $0.alignsRight ? .number(0) : .text) },
                           rows: t.rows.map { cells($0).map { .text($0.full) } })
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

    /// `--from PARTIAL`: the summary from a partial, rendered as the database's.
    func reportFromPartial(_ path: String, def: ReportDefinition, filter: ReportFilter) throws -> Int32 {
        let tabular = try partialSummaryFormat(def, "--from", [$database])
        if let option = [$displayName, $stallRatio, $hangs, $seed].first(where: \.wasGiven) {
            throw CLIError.usage("\(option.displayName) does not apply with --from (a partial holds results already replayed)")
        }
        let partial = try PartialIO.read(path)
        guard partial.replayedAs == filter.replayedAs else {
            throw CLIError.usage(partial.replayedAs.map { "\(path) holds sessions replayed as '\($0)': add --as \($0)" }
                ?? "\(path) holds each session under its own configuration, not replayed as '\(filter.replayedAs ?? "")'")
        }
        return try report(partial, named: path, tabular: tabular, def: def, filter: filter)
    }

    /// What `--from` and `--display` both require (`option` is the one given): the built-in
    /// summary, no option a partial cannot answer, a tabular format.
    func partialSummaryFormat(_ def: ReportDefinition, _ option: String, _ refused: [Declaration]) throws -> OutputFormat {
        guard def.name == "summary", !def.isUserDefined else {
            throw CLIError.usage("\(option) reports the built-in summary only (a partial holds its sufficient statistics, not sessions)")
        }
        for o in refused + [$since, $until, $reports, $signal] + signals.declarations where o.wasGiven {
            throw CLIError.usage("\(o.displayName) does not apply with \(option) (a partial keeps no times, reports, database or press sequences)")
        }
        guard let tabular = format.tabular else { throw CLIError.usage("--format html does not apply with \(option); use table, csv, json or markdown") }
        return tabular
    }

    /// `--display NAME`: every session replayed now on that profile, aggregated into a partial
    /// (PressAnalysis/DisplayCounterfactual.swift) and reported as `--from` reports one.
    /// With `--stalls`, the same with stalls sampled into every replay (on `name`, or on each
    /// session's own display), and standard error says what the stalls did.
    func reportOnDisplay(_ name: String?, def: ReportDefinition, filter: ReportFilter) throws -> Int32 {
        if let r = stallRatio, !(r >= 0 && r <= 999) { throw CLIError.usage("--stalls: must be from 0 to 999 ms per s") }
        if stallRatio == nil, let o = [$hangs, $seed].first(where: \.wasGiven) { throw CLIError.usage("\(o.displayName) applies only with --stalls") }
        let tabular = try partialSummaryFormat(def, stallRatio == nil ? "--display" : "--stalls", [])
        let stalls = try StallArguments.profile(ratio: stallRatio, hangs: hangs, seed: seed)
        let (partial, tally) = try DisplayCounterfactual.partial(database, display: name, stalls: stalls, replayedAs: replayedAs)
        let what = "the sessions replayed" + (name.map { " on \($0)" } ?? "")
        let status = try report(partial, named: what + (stalls == nil ? "" : " with stalls"), tabular: tabular, def: def, filter: filter)
        if let stalls {
            func share(_ n: Int) -> String { String(format: "%d (%.1f %%)", n, 100 * Double(n) / Double(max(1, tally.unseen))) }
            let line = "report: \(what) \(StallArguments.describe(stalls, hangs: hangs)): of the \(counted(tally.unseen, "unseen press", plural: "unseen presses")), "
                + "\(share(tally.hidden)) unseen because of a stall, \(share(tally.unseenByConfiguration)) because of the configuration; "
                + "\(counted(tally.delayed, "press", plural: "presses")) seen later because of a stall"
            // A terminal gets it wrapped to its width.
            printError(String(TerminalTable.wrap(line, width: Terminal.width(STDERR_FILENO), indent: "  ").dropLast()))
        }
        return status
    }

    /// The summary of `partial` (called `what` in messages), rendered as the database's.
    func report(_ partial: Partial, named what: String, tabular: OutputFormat, def: ReportDefinition,
                filter: ReportFilter) throws -> Int32 {
        let path = what
        let result: ReportResult
        do { result = try partial.summary(by: filter.by, equals: filter.equals) } catch let e as ReportError {
            throw CLIError.usage("\(e)")
        }
        if result.rows.isEmpty {
            let what = filter.equals.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
            throw CLIError.empty(what.isEmpty ? "\(path) holds no session" : "no session in \(path) matches \(what)")
        }
        let writer = try rowWriter(def, tabular: tabular, filter: filter, columns: result.columns, protecting: nil)
        for row in result.rows { try writer.add(row.map(Self.cell)) }
        try writer.finish()
        return ExitCode.ok
    }

    /// The writer of a report's rows, as the database's report and `--from` write them.
    func rowWriter(_ def: ReportDefinition, tabular: OutputFormat, filter: ReportFilter, columns names: [String],
                   protecting path: String?) throws -> RowWriter {
        let presentation = try ReportPresentation.parse(def, groupName: filter.by)
        let sink = try OutputSink(path: out, protecting: path)
        let options = TableOptions.standardOutput(wide: wide, columns: columns, explain: explain, full: full, out: out)
        return RowWriter(format: tabular, columns: names.map { Column($0 == "grp" ? filter.by : $0) },
                         presentation: presentation, options: options, sink: sink,
                         dropsWhenEmpty: names.contains("grp") ? ["variant"] : [], infersStyles: true)
    }

    func run() throws -> Int32 {
        let defs = try Self.definitions(reports)
        let path = database.path
        if list {
            let page: String
            if let tabular = format.tabular {
                let t = ResultTable(columns: [Column("report"), Column("source"), Column("description")],
                                    rows: defs.map { [.text($0.name), .text($0.isUserDefined ? "user" : "built-in"), .text($0.summary)] })
                if tabular == .table {
                    let (shown, cells) = TerminalTable.shownColumns(t.columns)
                    let rows = t.rows.map(cells)
                    let presentation = TablePresentation(key: ["report", "description", "source"], cut: ["description": 30])
                    page = try TerminalTable(columns: shown, rows: rows, presentation: presentation,
                                             options: .standardOutput(wide: wide, columns: columns, explain: explain,
                                                                      full: full, out: out)).render(rows)
                } else {
                    page = Render.render(t, as: tabular)
                }
            } else {
                page = ReportPage.list(defs, generatedAt: Date()).render()
            }
            try emit(page, to: out, protecting: path)
            return ExitCode.ok
        }
        let name = self.name ?? "summary"
        guard let def = defs.first(where: { $0.name == name }) else {
            throw CLIError.usage("no report named '\(Terminal.cut(name))'; available: \(defs.map(\.name).joined(separator: ", ")) ('pressdb report --list')")
        }
        var filter = ReportFilter()
        filter.by = by
        filter.equals = try Equality.dictionary(self.filter)
        filter.since = since
        filter.until = until
        filter.replayedAs = replayedAs
        filter.pressSequences = def.readsPressSequences
        filter.signal = signal
        filter.signals = signals.parameters
        if let from { return try reportFromPartial(from, def: def, filter: filter) }
        if displayName != nil || [$stallRatio, $hangs, $seed].contains(where: \.wasGiven) {
            return try reportOnDisplay(displayName, def: def, filter: filter)
        }

        guard database.exists else {
            throw database.missing
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
            if try !runner.hasSessions() {
                throw CLIError.empty("the database \(path) holds no sessions; ingest a log first ('pressdb ingest FILE')")
            }
            if try !runner.hasInput() {
                throw CLIError.empty(try Self.emptyInputReason(runner, filter))
            }
            for partial in try runner.partialCoverage() {
                let warning = "pressdb report: warning: " + Self.describe(partial, replayedAs: filter.replayedAs != nil)
                printError(TerminalTable.wrap(warning, width: Terminal.width(STDERR_FILENO), indent: "  "))
            }
        }
        guard let tabular = format.tabular else {
            let result: ReportResult
            do { result = try runner.run(def) } catch let e as ReportError {
                throw CLIError.failure("\(e)")
            }
            let context = ReportPageContext(reportName: name, isUserDefined: def.isUserDefined, databasePath: path, filter: filter, generatedAt: Date())
            let page: HTMLPage
            do {
                switch def.isUserDefined ? "" : name {
                case "summary": page = try ReportPage.summary(result, runner: runner, context: context)
                case "frustration": page = try ReportPage.frustration(result, runner: runner, context: context)
                default: page = try ReportPage.table(result, runner: runner, context: context)
                }
            } catch {
                throw CLIError.failure("cannot build the HTML page: \(error)")
            }
            try emit(page.render(), to: out, protecting: path)
            return ExitCode.ok
        }
        // The built-in summary from the cells maintained as results are written, when they can
        // answer it (SummaryCells.swift); the same rows as its SQL.
        if name == "summary", !def.isUserDefined, let result = try runner.maintainedSummary() {
            let writer = try rowWriter(def, tabular: tabular, filter: filter, columns: result.columns, protecting: path)
            for row in result.rows { try writer.add(row.map(Self.cell)) }
            try writer.finish()
            return ExitCode.ok
        }
        // Rows go out as SQLite produces them (RowWriter): a report of any length runs in bounded
        // memory, and a closed pipe (`| head`) ends it at once.
        var writer: RowWriter?
        // The press sequences are one statement over every stored session, seconds before the
        // first row: the progress line says what is being done until then.
        let sequences = def.readsPressSequences || filter.signal != nil
        do {
            try Progress.whileWorking("report", "press sequences of every stored session (frustration signals)",
                                      enabled: sequences && Progress.shown(quiet: false)) { progress in
                try runner.run(def, columns: { names in
                    writer = try rowWriter(def, tabular: tabular, filter: filter, columns: names, protecting: path)
                }, row: { progress.stop(); try writer!.add($0.map(Self.cell)) })
            }
        } catch let e as ReportError {
            throw CLIError.failure("\(e)")
        }
        try writer!.finish()
        if let n = writer?.count, n > ReportFilter.manyGroups, def.sql.contains("GROUP BY grp") {
            printError(TerminalTable.wrap("pressdb report: warning: --by \(filter.by) gives \(n) groups; "
                + "--where \(filter.by)=VALUE reports one, or a coarser --by (\(ReportFilter.groupings.filter { $0 != filter.by }.prefix(3).joined(separator: ", "))) fewer",
                width: Terminal.width(STDERR_FILENO), indent: "  "))
        }
        return ExitCode.ok
    }
}
