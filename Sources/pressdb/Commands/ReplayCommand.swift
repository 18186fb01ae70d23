// `pressdb replay`: classify stored sessions and compute their latencies, under their own
// configuration or, counterfactually, under another one.
import Foundation
import PressCore
import PressStore

enum ReplayCommand: PressCommand {
    static let spec = CommandSpec(
        name: "replay",
        abstract: "Replay stored sessions through the press model and store their results.",
        discussion: """
        Replays the selected sessions (all, or those given with --session) under their own
        configuration and stores any result that is missing (replay is deterministic: a result
        already stored is recomputed identically). pressdb ingest already replays what it
        stores; --missing replays only the sessions without their own result (after an
        interrupted ingest, or after 'pressdb config add' changed a configuration). With --as
        CONFIG, replays the selected sessions as if they had run under CONFIG: same fingers,
        other animation or thresholds. Those counterfactual results are stored too and feed
        'pressdb report --as' and 'pressdb compare --paired'.

        Prints one row per replayed session: session, config, variant, outcome, cancel_reason,
        action_fired, feedback_latency_ms, action_latency_ms, duration_ms, max_travel_pt,
        press_depth, release_jump_pt (null where undefined).

        Example:
          pressdb replay --as expand-delayed-click --format csv > counterfactual.csv
        """,
        options: [
            CommonOptions.db,
            .option("as", "CONFIG", help: "Replay as this configuration (a preset or one added with 'pressdb config add')."),
            .option("session", "ID", help: "Only these sessions (repeatable, or comma-separated).", repeatable: true),
            .flag("missing", help: "Only sessions that have no result under their own configuration yet."),
            .option("config", "NAME", help: "Configuration of sessions that name none (default spring-press)."),
            .option("refresh-rate", "HZ", help: "Display refresh rate for the first visible frame (default 60;\n1 to 1000). Results on another display are printed, not stored."),
            .option("density", "PX", help: "Device pixels per point (default 3; 0.5 to 10). Results on\nanother density are printed, not stored."),
            CommonOptions.format([.table, .csv, .json, .ndjson]),
            .flag("quiet", short: "q", help: "Print nothing: no rows, no summary (results are still stored)."),
        ])

    static let columns: [Column] = [
        Column("session"), Column("config"), Column("variant"), Column("outcome"), Column("cancel_reason"),
        Column("action_fired"), Column("feedback_latency_ms", .number(1)), Column("action_latency_ms", .number(1)),
        Column("duration_ms", .number(1)), Column("max_travel_pt", .number(1)), Column("press_depth", .number(3)),
        Column("release_jump_pt", .number(3)),
    ]

    static func cells(_ s: StoredSession, _ row: ResultRow) -> [Cell] {
        let r = row.result
        return [.text(s.session), .text(row.config), s.variant.map(Cell.text) ?? .null, .text(r.outcome.rawValue),
                r.cancelReason.map { Cell.text($0.rawValue) } ?? .null, .bool(r.actionFired),
                r.feedbackLatencyMs.map(Cell.double) ?? .null, r.actionLatencyMs.map(Cell.double) ?? .null,
                .double(r.durationMs), .double(r.maxTravelPt), .double(r.pressDepth), .double(r.releaseJumpPt)]
    }

    /// Lines for standard error about what a replay did and what it could not do.
    static func describe(_ s: ReplaySummary) -> [String] {
        var lines = ["replay: \(s.replayed) session\(s.replayed == 1 ? "" : "s") replayed"]
        for (name, n) in s.unknownConfigs.sorted(by: { $0.key < $1.key }) {
            lines.append("replay: \(n) session\(n == 1 ? "" : "s") name configuration '\(name)', which is neither a preset nor added; add it with 'pressdb config add FILE.json', then run 'pressdb replay'")
        }
        for f in s.failures { lines.append("replay: session \(f.session) cannot be replayed: \(f.reason)") }
        if s.failureCount > s.failures.count { lines.append("replay: … and \(s.failureCount - s.failures.count) more sessions that cannot be replayed") }
        return lines
    }

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let format = try CommonOptions.outputFormat(args, [.table, .csv, .json, .ndjson])
        let quiet = args.flag("quiet")
        var display = Display()
        if let hz = try args.double("refresh-rate") {
            guard hz >= 1, hz <= 1000 else { throw CLIError.usage("pressdb replay: --refresh-rate must be from 1 to 1000 Hz, not \(hz)") }
            display.refreshRate = hz
        }
        if let px = try args.double("density") {
            guard px >= 0.5, px <= 10 else { throw CLIError.usage("pressdb replay: --density must be from 0.5 to 10 px per pt, not \(px)") }
            display.density = px
        }
        let store = try openStore(args, command: "replay")
        let catalog = try ConfigurationCatalog(store: store)
        var options = ReplayOptions(display: display)
        // Stored results are measured on the default display; another display is shown, not stored.
        options.storesResults = display == Display()
        if let name = args.string("config") {
            guard catalog.resolve(name) != nil else { throw unknownConfiguration(name, "replay", catalog) }
            options.defaultConfig = name
        }
        let replayer = Replayer(store: store, catalog: catalog, options: options)
        var target: PressConfiguration? = nil
        if let name = args.string("as") {
            guard let c = catalog.resolve(name) else { throw unknownConfiguration(name, "replay", catalog) }
            target = c
        }
        let sessions = args.strings("session")
        if try store.sessionCount() == 0 {
            printError("pressdb replay: the database \(CommonOptions.databasePath(args)) holds no sessions; ingest a log first ('pressdb ingest FILE')")
            return ExitCode.empty
        }

        let out = RowStream(format: quiet ? nil : format, columns: columns)
        let started = ContinuousClock.now
        let summary: ReplaySummary
        let missingOnly = args.flag("missing")
        if missingOnly && (target != nil || !sessions.isEmpty) {
            throw CLIError.usage("pressdb replay: --missing replays sessions without their own result; it does not go with --as or --session")
        }
        if missingOnly {
            summary = try replayer.replayMissing { out.add(cells($0, $1)) }
        } else {
            let filter = SessionFilter(sessions: sessions.isEmpty ? nil : sessions)
            summary = try replayer.replay(filter, as: target) { out.add(cells($0, $1)) }
            if !sessions.isEmpty && summary.replayed + summary.failureCount == 0 && summary.unknownConfigs.isEmpty {
                printError("pressdb replay: no stored session has the id \(sessions.joined(separator: ", "))")
                return ExitCode.empty
            }
        }
        out.finish()
        if !quiet {
            let elapsed = ContinuousClock.now - started
            let secs = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            var lines = describe(summary)
            lines[0] += String(format: " in %.2f s", secs) + (target.map { " as \($0.name) (version \($0.version))" } ?? "")
            if !options.storesResults {
                lines[0] += String(format: "; on a %g Hz, %g px/pt display: printed, not stored (stored results use 60 Hz, 3 px/pt)",
                                   display.refreshRate, display.density)
            }
            if summary.replayed == 0 && missingOnly && summary.unknownConfigs.isEmpty {
                lines[0] += "; every session already has its result"
            }
            printError(lines.joined(separator: "\n"))
        }
        return summary.failureCount > 0 || !summary.unknownConfigs.isEmpty ? ExitCode.failure : ExitCode.ok
    }
}

/// Opens the database for writing with a one-line error naming it.
func openStore(_ args: ParsedArguments, command: String) throws -> Store {
    let path = CommonOptions.databasePath(args)
    do { return try Store.open(path: path) } catch {
        throw CLIError.failure("pressdb \(command): \(DatabaseProblem.describe(error, path: path))")
    }
}

/// The error for a configuration name that is neither a preset nor stored.
func unknownConfiguration(_ name: String, _ command: String, _ catalog: ConfigurationCatalog) -> CLIError {
    let known = catalog.current.keys.sorted().joined(separator: ", ")
    return CLIError.usage("pressdb \(command): no configuration named '\(name)' (known: \(known)); add one with 'pressdb config add FILE.json'")
}

/// Writes result rows as they come: CSV, NDJSON and JSON stream; the terminal table is
/// buffered to align its columns. A nil format writes nothing (--quiet).
final class RowStream {
    let format: OutputFormat?
    let columns: [Column]
    var buffered = ResultTable(columns: [])
    var pending = ""
    var count = 0

    init(format: OutputFormat?, columns: [Column]) {
        self.format = format
        self.columns = columns
        buffered.columns = columns
        if format == .csv { pending = Render.csv(ResultTable(columns: columns)) }
    }

    func add(_ row: [Cell]) {
        guard let format else { return }
        count += 1
        let table = ResultTable(columns: columns, rows: [row])
        switch format {
        case .csv: pending += row.map { Render.csvField(Render.raw($0)) }.joined(separator: ",") + "\n"
        case .ndjson: pending += Render.jsonObject(table, row) + "\n"
        case .json: pending += (count == 1 ? "[\n  " : ",\n  ") + Render.jsonObject(table, row)
        case .table, .markdown: buffered.rows.append(row)
        }
        if pending.utf8.count > 1 << 16 { flush() }
    }

    func flush() {
        FileHandle.standardOutput.write(Data(pending.utf8))
        pending = ""
    }

    func finish() {
        guard let format else { return }
        switch format {
        case .json: pending += count == 0 ? "[]\n" : "\n]\n"
        case .table, .markdown: pending = count == 0 ? "" : Render.render(buffered, as: format, color: useColor())
        default: break
        }
        flush()
    }
}
