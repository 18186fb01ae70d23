// `pressdb replay`: classify stored sessions and compute their latencies, under their own
// configuration or, counterfactually, under another one.
import Foundation
import PressCore
import PressStore
import PressIngest
import PressAnalysis

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
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

        In a terminal, prints what was replayed: the sessions, the outcomes counted, and where
        the rows are ('pressdb report sessions', stored unless --refresh-rate or --density
        says otherwise); --rows (or --session, --wide, --columns) prints the rows there too.
        To a pipe or a file, and with --format csv|json|ndjson, prints one row per replayed
        session as it is replayed: session, config, variant,
        outcome, cancel_reason, action_fired, feedback_latency_ms, action_latency_ms,
        duration_ms, max_travel_pt, press_depth, release_jump_pt (null where undefined), shown
        as 'pressdb report sessions' shows them; the terminal table fits the terminal's width.
        On a terminal, standard error shows the progress (sessions of the total).

        With --input FILE (or '-' for standard input), replay is a stream filter with no
        database: it reads touch records (NDJSON, CSV or a device recording: the same readers,
        checks and {"type":"config"} records as 'pressdb ingest'), replays each session the
        moment it completes and writes one NDJSON line per session to standard output:
        {"type":"result",…} with the session, its arm, the configuration and version replayed,
        every column of the results table, the per-session events and its attributes. Sessions
        still open at the end are written as {"type":"pending",…}; sessions whose configuration
        is unknown as {"type":"unreplayed",…}. Rejects go to standard error as FILE:LINE:
        reason (and to --rejects FILE as NDJSON); the exit status is ingest's (3 with rejects).
        Memory holds the open sessions only. The lines feed 'pressdb aggregate'
        (docs/scale-out.md has every field).

        Examples:
          pressdb replay --as expand-delayed-click --format csv > counterfactual.csv
          pressdb generate --sessions 1000 | pressdb replay --input - \\
              | pressdb aggregate - > day.partial.json
        """
    )

    @Option(.database) var database: DatabasePath
    @Option(name: "as", value: "CONFIG", help: "Replay as this configuration (a preset or one added with 'pressdb config add')")
    var target: String?
    @Option(name: "session", value: "ID", help: "Only these sessions")
    var sessions: [String]
    @Flag(help: "Only sessions that have no result under their own configuration yet.") var missing: Bool
    @Option(value: "NAME", help: "Configuration of sessions that name none")
    var config = PressConfiguration.springPress.name
    @Option(name: "display", value: "NAME", help: "Replay every session on this display profile ('pressdb displays'), whatever it names",
            discussion: "A counterfactual ('how would these presses look on ProMotion?'): printed, not stored.")
    var displayName: String?
    @Option(value: "HZ", help: "Display refresh rate for the first visible frame, 1 to 1000",
            discussion: "Results on another display are printed, not stored.",
            rule: .within(1...1000, "must be from 1 to 1000 Hz"))
    var refreshRate = Display().refreshRate
    @Option(value: "PX", help: "Device pixels per point, 0.5 to 10",
            discussion: "Results on another density are printed, not stored.",
            rule: .within(0.5...10, "must be from 0.5 to 10 px per pt"))
    var density = Display().density
    @Option(name: "stalls", value: "MS_PER_S",
            help: "Sample main-thread hitches at this hitch-time ratio (ms late per s, as MetricKit reports it), 0 to 999",
            discussion: "Printed, not stored; the column stall says whether a stall delayed or hid the feedback (docs/press-model.md §8).")
    var stallRatio: Double?
    @Option(value: "FILE", help: "With --stalls: also sample hangs from this histogram (JSON, counts per hour; docs/press-model.md §8)")
    var hangs: String?
    @Option(value: "S", help: "Random seed of --stalls, 0 to 2^64-1") var seed = StallProfile.defaultSeed
    @Option(.format([OutputFormat.table, .csv, .json, .ndjson])) var format: OutputFormat
    @Option(name: "input", value: "FILE|-", help: "Replay the touch records of FILE ('-': standard input) as a stream filter, without a database",
            discussion: "Writes result lines (NDJSON) to standard output.")
    var input: String?
    @Option(value: "FORMAT", help: "With --input: the input format",
            discussion: "auto: told from the first bytes, as ingest tells it.")
    var inputFormat = InputFormatSelection.auto
    @Option(value: "NAME", help: "With --input: container for sessions that give none") var container: Container?
    @Option(value: "FILE", help: "With --input: also write every reject to FILE as NDJSON",
            discussion: "'-' writes them to standard output among the result lines, as {\"type\":\"reject\",…}.")
    var rejects: String?
    @Option(.maxLineBytes) var maxLineBytes: Int
    @Flag(help: "With --input: each line is NAME:LINE, a tab and the record, which messages then name by NAME:LINE (a stream re-assembled from many files, as the Spark job sends it).")
    var origins: Bool
    @Flag(.quiet(help: "Print nothing: no rows, no summary, no progress (results are still stored).")) var quiet: Bool
    @Flag(help: "Print a row per session on a terminal too (a pipe or a file always gets them).") var rows: Bool
    @Flag(.wide) var wide: Bool
    @Option(.columns) var columns: [String]
    @Flag(.explain) var explain: Bool

    func validate() throws {
        if let unknown = columns.first(where: { name in !(Self.columns + [Self.stallColumn]).contains { $0.name == name } }) {
            throw CLIError.usage("--columns: no column '\(unknown)'; the columns are \(Self.columns.map(\.name).joined(separator: ", "))")
        }
        if missing && ($target.wasGiven || $sessions.wasGiven) {
            throw CLIError.usage("--missing replays sessions without their own result; it does not go with --as or --session")
        }
        if let r = stallRatio, !(r >= 0 && r <= 999) { throw CLIError.usage("--stalls: must be from 0 to 999 ms per s") }
        if stallRatio == nil, let o = [$hangs, $seed].first(where: \.wasGiven) { throw CLIError.usage("\(o.displayName) applies only with --stalls") }
        if input != nil {
            for option in [$database, $stallRatio, $hangs, $seed, $sessions, $missing, $format, $wide, $columns, $explain] where option.wasGiven {
                throw CLIError.usage("\(option.displayName) does not apply with --input (a stream without a database; it writes NDJSON result lines)")
            }
            if origins && inputFormat.format == nil {
                throw CLIError.usage("--origins needs --input-format (ndjson or csv): framed lines do not tell their format")
            }
        } else {
            for option in [$inputFormat, $container, $rejects, $origins, $maxLineBytes] where option.wasGiven {
                throw CLIError.usage("\(option.displayName) applies only with --input FILE|-")
            }
        }
    }

    /// The printed columns, named and styled as `report sessions` names and styles them
    /// (`ColumnStyle.named`), so a session reads the same in both.
    static let columns: [Column] = [
        "session", "config", "variant", "outcome", "cancel_reason", "action_fired", "feedback_latency_ms",
        "action_latency_ms", "duration_ms", "max_travel_pt", "press_depth", "release_jump_pt",
        "feedback_photon_ms", "action_photon_ms",
    ].map { Column($0, .named($0)) }
    /// With --stalls, after `columns`: none, delayed or hidden (`StallEffect`).
    static let stallColumn = Column("stall", .text)

    /// The terminal table reads as `report sessions` reads: that report's presentation
    /// (`-- table:` lines of reports/sessions.sql).
    static var presentation: TablePresentation {
        let sessions = ReportDefinition.builtIn.first { $0.name == "sessions" }!
        return (try? ReportPresentation.parse(sessions, groupName: "config")) ?? TablePresentation()
    }

    static func cells(_ s: StoredSession, _ row: ResultRow) -> [Cell] {
        let r = row.result
        let stall: [Cell] = row.stallEffect.map { [Cell.text($0.rawValue)] } ?? []
        let model: [Cell] = [.text(s.session), .text(row.config), s.variant.map(Cell.text) ?? .null, .text(r.outcome.rawValue),
                r.cancelReason.map { Cell.text($0.rawValue) } ?? .null, .bool(r.actionFired),
                r.feedbackLatencyMs.map(Cell.double) ?? .null, r.actionLatencyMs.map(Cell.double) ?? .null,
                .double(r.durationMs), .double(r.maxTravelPt), .double(r.pressDepth), .double(r.releaseJumpPt),
                r.feedbackPhotonMs.map(Cell.double) ?? .null, r.actionPhotonMs.map(Cell.double) ?? .null,
            ]
        return model + stall
    }

    /// Lines for standard error about what a replay did and what it could not do.
    /// The replay's lines; `known`, the configurations known, gives an unknown name the nearest.
    static func describe(_ s: ReplaySummary, known: [String] = []) -> [String] {
        var lines = ["replay: \(s.replayed) session\(s.replayed == 1 ? "" : "s") replayed"]
        for (name, n) in s.unknownConfigs.sorted(by: { $0.key < $1.key }) {
            let near = Suggestions.near(name, in: known.sorted())
            let hint = near.isEmpty ? "" : " (did you mean \(near.map { "'\($0)'" }.joined(separator: " or "))?)"
            lines.append("replay: \(n) session\(n == 1 ? "" : "s") name configuration '\(name)'\(hint), which is neither a preset nor added; add it with 'pressdb config add FILE.json', then run 'pressdb replay'")
        }
        for f in s.failures { lines.append("replay: session \(f.session) cannot be replayed: \(f.reason)") }
        if s.failureCount > s.failures.count { lines.append("replay: … and \(s.failureCount - s.failures.count) more sessions that cannot be replayed") }
        return lines
    }

    func run() throws -> Int32 {
        if let input { return try replayStream(input) }
        guard database.exists else {
            throw database.missing
        }
        let store = try database.openStore()
        let catalog = try ConfigurationCatalog(store: store)
        var display = Display(refreshRate: refreshRate, density: density)
        if let displayName {
            guard let p = catalog.display(named: displayName) else {
                throw CLIError.usage("--display: no display profile named '\(displayName)' (known: "
                    + catalog.allDisplays.map(\.name).joined(separator: ", ") + "); add one with 'pressdb displays add FILE.json'")
            }
            display = p.display
            // --refresh-rate and --density, when given too, change the profile's.
            if $refreshRate.wasGiven { display.refreshRate = refreshRate }
            if $density.wasGiven { display.density = density }
        }
        var options = ReplayOptions()
        // Stored results are measured on each session's own display; another display is shown,
        // not stored.
        let counterfactualDisplay = displayName != nil || display != Display()
        if counterfactualDisplay { options.displayOverride = display }
        // Results with sampled stalls are printed, not stored, like another display's.
        options.stalls = try StallArguments.profile(ratio: stallRatio, hangs: hangs, seed: seed)
        options.storesResults = !counterfactualDisplay && options.stalls == nil
        guard catalog.resolve(config) != nil else { throw unknownConfiguration(config, catalog) }
        options.defaultConfig = config
        let replayer = Replayer(store: store, catalog: catalog, options: options)
        var target: PressConfiguration? = nil
        if let name = self.target {
            guard let c = catalog.resolve(name) else { throw unknownConfiguration(name, catalog) }
            target = c
        }
        if try store.sessionCount() == 0 {
            throw CLIError.empty("the database \(database.path) holds no sessions; ingest a log first ('pressdb ingest FILE')")
        }

        // Rows are printed as they are replayed (RowWriter); a reader that goes away (`| head`)
        // stops the printing, not the replay: every result is still stored.
        // A terminal gets a summary, not a line per session (114,000 lines would flood it),
        // unless rows are asked for.
        let rowsShown = !quiet && (format != .table || isatty(STDOUT_FILENO) != 1 || rows || !sessions.isEmpty || wide
                                   || !columns.isEmpty || explain)
        var counts = OutcomeCounts()
        let out = !rowsShown ? nil : RowWriter(format: format, columns: Self.columns + (options.stalls == nil ? [] : [Self.stallColumn]), presentation: Self.presentation,
                                          options: .standardOutput(wide: wide, columns: columns, explain: explain),
                                          sink: try OutputSink(path: nil), headerWhenEmpty: false)
        var printing: Error?
        func show(_ session: StoredSession, _ row: ResultRow) {
            counts.add(row.result, stall: row.stallEffect)
            guard let out, printing == nil else { return }
            do { try out.add(Self.cells(session, row)) } catch { printing = error }
        }
        let progress = Progress("replay", unit: .sessions, enabled: Progress.shown(quiet: quiet))
        replayer.options.progress = progress.replayed
        let started = ContinuousClock.now
        let summary: ReplaySummary
        if missing {
            summary = try database.writing { try replayer.replayMissing(show) }
        } else {
            let filter = SessionFilter(sessions: sessions.isEmpty ? nil : sessions)
            summary = try database.writing { try replayer.replay(filter, as: target, show) }
            if !sessions.isEmpty && summary.replayed + summary.failureCount == 0 && summary.unknownConfigs.isEmpty {
                throw CLIError.empty("no stored session has the id \(sessions.joined(separator: ", "))")
            }
        }
        progress.clear()
        if let out, printing == nil { do { try out.finish() } catch { printing = error } }
        if let printing, !(printing is StandardOutput.Closed) { throw printing }
        if !quiet {
            let secs = IngestCommand.seconds(ContinuousClock.now - started)
            var lines = Self.describe(summary)
            lines[0] += String(format: " in %.2f s", secs) + (target.map { " as \($0.name) (version \($0.version))" } ?? "")
            if let stalls = options.stalls {
                lines[0] += " " + StallArguments.describe(stalls, hangs: hangs)
                    + ": printed, not stored; " + counts.stallSummary
            } else if !options.storesResults {
                lines[0] += (displayName.map { " on \($0)" } ?? "")
                    + String(format: " (a %g Hz, %g px/pt display): printed, not stored (stored results use each session's own display)",
                             display.refreshRate, display.density)
            }
            if summary.replayed == 0 && missing && summary.unknownConfigs.isEmpty {
                lines[0] += "; every session already has its result"
            }
            printError(lines.joined(separator: "\n"))
            if !rowsShown, counts.sessions > 0 {
                try emit(TerminalTable.wrap(counts.summary(as: target?.name, stored: options.storesResults), width: Terminal.width(),
                                            indent: "  "))
            }
        }
        return summary.failureCount > 0 || !summary.unknownConfigs.isEmpty ? ExitCode.failure : ExitCode.ok
    }
}

/// What a replay gave, counted for the summary a terminal gets instead of its rows.
struct OutcomeCounts {
    var sessions = 0, taps = 0, cancels = 0, scrollAborts = 0, unseen = 0, falseActions = 0

    /// With --stalls: presses whose feedback a stall delayed, and seen ones it hid.
    var stallDelayed = 0, stallHidden = 0

    mutating func add(_ r: SessionResult, stall: StallEffect? = nil) {
        // Presses only, as `unseen` (StallTally's definition).
        if stall == .delayed && r.outcome != .scrollAbort { stallDelayed += 1 }
        if stall == .hidden && r.outcome != .scrollAbort { stallHidden += 1 }
        sessions += 1
        switch r.outcome {
        case .tap: taps += 1
        case .cancel: cancels += 1
        case .scrollAbort: scrollAborts += 1
        }
        // The definitions of the result_events view (docs/reports.md).
        if r.outcome != .scrollAbort && r.feedbackLatencyMs == nil { unseen += 1 }
        if r.actionFired && r.outcome != .tap { falseActions += 1 }
    }

    /// "of the 40 unseen presses, 3 are unseen because of a stall and 37 because of the configuration; …".
    var stallSummary: String {
        "of the \(counted(unseen, "unseen press", plural: "unseen presses")), \(stallHidden) unseen because of a stall and "
            + "\(unseen - stallHidden) because of the configuration; \(counted(stallDelayed, "press", plural: "presses")) seen later because of a stall"
    }

    /// "Outcomes of the 22831 sessions replayed as X: 19800 taps (86.7 %), …; the rows are stored: …".
    func summary(as target: String?, stored: Bool) -> String {
        func share(_ n: Int, _ noun: String, _ plural: String? = nil) -> String {
            counted(n, noun, plural: plural) + String(format: " (%.1f %%)", 100 * Double(n) / Double(max(1, sessions)))
        }
        let what = "Outcomes of the \(counted(sessions, "session")) replayed" + (target.map { " as \($0)" } ?? " under their own configuration")
        let outcomes = [share(taps, "tap"), share(cancels, "cancel"), share(scrollAborts, "scroll-abort"),
                        counted(unseen, "unseen press", plural: "unseen presses"),
                        counted(falseActions, "false action")].joined(separator: ", ")
        let asked = target.map { " --as \(DemoCommand.shellQuoted($0))" } ?? ""
        let rows = stored ? "the rows are stored: pressdb report sessions\(asked) (pressdb report\(asked) summarises them)"
            : "the rows were not stored (another display): pressdb replay\(asked) --rows prints them"
        return "\(what): \(outcomes); \(rows); --rows prints a row per session here.\n"
    }
}

/// The error for a configuration name that is neither a preset nor stored (status 2), after
/// `option` when given ("--config: no configuration named …").
func unknownConfiguration(_ name: String, _ catalog: ConfigurationCatalog, option: String? = nil) -> CLIError {
    unknownConfiguration(name, known: Array(catalog.current.keys), option: option)
}

/// The same, given the names known.
func unknownConfiguration(_ name: String, known: [String], option: String? = nil) -> CLIError {
    CLIError.usage((option.map { "\($0): " } ?? "") + "no configuration named '\(Terminal.cut(name))' (known: \(known.sorted().joined(separator: ", "))); "
        + "add one with 'pressdb config add FILE.json'")
}

