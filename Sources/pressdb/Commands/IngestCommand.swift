// `pressdb ingest`: reads NDJSON or CSV touch logs into the database.
import Foundation
import PressCore
import PressFormats
import PressStore

enum IngestCommand: PressCommand {
    static let spec = CommandSpec(
        name: "ingest",
        abstract: "Read NDJSON or CSV touch logs into the database.",
        discussion: """
        Each FILE (or standard input, for '-' or when no FILE is given) holds touch records:
        NDJSON, one JSON object per line, or CSV with a header row (docs/log-format.md).
        Sessions are stored when complete (began … ended|cancelled); sessions still open at the
        end are kept as pending and completed by a later ingest. Re-ingesting the same data adds
        nothing. Bad lines are reported as FILE:LINE: reason, stored in the rejects table, and
        the rest is still ingested (exit status 3); --strict aborts instead, writing nothing.
        """,
        positionals: [PositionalSpec(name: "FILE|-", help: "Input files; '-' or none reads standard input.",
                                     optional: true, variadic: true)],
        options: [
            CommonOptions.db,
            .option("format", "FORMAT", help: "Input format: auto|ndjson|csv (default auto: '{' first means NDJSON,\nelse a CSV header with 'session' and 't' columns)."),
            .option("config", "NAME", help: "Configuration name for sessions that give none."),
            .option("container", "NAME", help: "Container for sessions that give none:\nnone|scroll|table|scroll-immediate."),
            .flag("strict", help: "Abort on the first rejected record; write nothing (exit status 3)."),
            CommonOptions.quiet,
        ])

    /// Reject messages printed before "… and N more".
    static let rejectMessagesShown = 20

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let format = try args.choice("format", ["auto"] + InputFormat.allCases.map(\.rawValue)) ?? "auto"
        var options = IngestOptions()
        options.strict = args.flag("strict")
        options.defaultConfig = args.string("config")
        options.rejectMessagesKept = rejectMessagesShown
        if let name = args.string("container") {
            guard let c = Container(named: name) else {
                throw CLIError.usage("pressdb ingest: --container must be one of none, scroll, table, scroll-immediate, not '\(name)'")
            }
            options.defaultContainer = c
        }
        let quiet = args.flag("quiet")
        let paths = args.positionals.isEmpty ? ["-"] : args.positionals

        // Open every input first: a missing file fails before anything is written.
        var inputs: [ByteInput] = []
        for path in paths {
            if path == "-" { inputs.append(ByteInput(fileDescriptor: STDIN_FILENO, name: "-")); continue }
            do { inputs.append(try ByteInput(path: path)) } catch let e as InputError {
                throw CLIError.failure("pressdb ingest: cannot read \(e.message)")
            }
        }

        let dbPath = CommonOptions.databasePath(args)
        let store: Store
        do { store = try Store.open(path: dbPath) } catch {
            throw CLIError.failure("pressdb ingest: \(DatabaseProblem.describe(error, path: dbPath))")
        }
        // Ctrl-C: stop at the next batch boundary, keep what is whole (Interrupt.swift).
        Interrupt.install()
        defer { Interrupt.uninstall() }
        options.shouldStop = Interrupt.requested
        let started = ContinuousClock.now
        let progress = Progress(enabled: !quiet && isatty(STDERR_FILENO) == 1, started: started)
        let summary: IngestSummary
        var ingesting: Ingester?
        do {
            let ingester = try Ingester(store: store, options: options)
            ingesting = ingester
            for input in inputs {
                if Interrupt.requested() { throw IngestInterrupted() }
                let f: InputFormat = format == "auto" ? try InputFormat.detect(input) : InputFormat(rawValue: format)!
                switch f {
                case .ndjson:
                    var r = NDJSONReader(input)
                    try ingester.ingest(&r, input: input, progress: progress.update)
                case .csv:
                    var r = CSVReader(input)
                    try ingester.ingest(&r, input: input, progress: progress.update)
                }
            }
            summary = try ingester.finish()
        } catch is IngestInterrupted {
            progress.clear()
            do {
                let kept = try ingesting?.commitInterrupted()
                printError(Interrupt.message(sessionsCommitted: kept?.sessionsNew ?? 0))
            } catch {
                printError("interrupted: the last batch could not be committed: \(DatabaseProblem.describe(error, path: dbPath)); "
                    + "earlier batches are kept; re-run the same command to finish")
            }
            return Interrupt.exitStatus
        } catch let e as StrictRejectError {
            progress.clear()
            printError("\(e)")
            return ExitCode.rejects
        } catch let e as InputError {
            progress.clear()
            throw CLIError.failure("pressdb ingest: \(e.message)")
        } catch {
            progress.clear()
            throw CLIError.failure("pressdb ingest: \(DatabaseProblem.describe(error, path: dbPath))")
        }
        progress.clear()

        // Configurations from `{"type":"config"}` records, then replay of every session that has
        // no result under its own configuration yet (this run's, and any an interrupted run left).
        let configRejects: [Reject]
        let replayed: ReplaySummary
        do {
            let catalog = try ConfigurationCatalog(store: store)
            configRejects = try catalog.importConfigRecords()
            var replayOptions = ReplayOptions(defaultConfig: options.defaultConfig ?? PressConfiguration.springPress.name)
            replayOptions.shouldStop = Interrupt.requested
            let replayer = Replayer(store: store, catalog: catalog, options: replayOptions)
            replayed = try replayer.replayMissing()
        } catch {
            throw CLIError.failure("pressdb ingest: the sessions are stored, but replaying them failed: "
                + "\(DatabaseProblem.describe(error, path: dbPath)); run 'pressdb replay' to retry")
        }
        if Interrupt.requested() {
            printError(Interrupt.message(sessionsCommitted: summary.sessionsNew))
            return Interrupt.exitStatus
        }
        let rejectCount = summary.rejects + configRejects.count

        if !quiet {
            let shown = Array((summary.firstRejects + configRejects).prefix(rejectMessagesShown))
            var lines: [String] = shown.map(\.description)
            if rejectCount > shown.count {
                lines.append("… and \(rejectCount - shown.count) more (see the rejects table)")
            }
            lines.append(summaryLine(summary, seconds: seconds(ContinuousClock.now - started)))
            lines += ReplayCommand.describe(replayed)
            printError(lines.joined(separator: "\n"))
        }
        return rejectCount > 0 ? ExitCode.rejects : ExitCode.ok
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    static func summaryLine(_ s: IngestSummary, seconds: Double) -> String {
        let rate = seconds > 0 ? Int((Double(s.records) / seconds).rounded()) : s.records
        var parts = ["\(s.files) file\(s.files == 1 ? "" : "s")", "\(s.records) records",
                     "sessions: \(s.sessionsNew) new, \(s.duplicates) duplicate, \(s.conflicts) conflict, \(s.pending) pending"]
        if s.sessionsCompletedFromPending > 0 { parts.append("\(s.sessionsCompletedFromPending) completed from pending") }
        if s.configRecords > 0 { parts.append("\(s.configRecords) config records") }
        parts.append("\(s.rejects) rejected")
        parts.append(String(format: "%.2f s, %d records/s", seconds, rate))
        return "ingest: " + parts.joined(separator: "; ")
    }

    /// A progress line on a terminal, shown after the first second and redrawn a few times a second.
    final class Progress {
        let enabled: Bool
        let started: ContinuousClock.Instant
        var lastDraw: ContinuousClock.Instant
        var drawn = false
        init(enabled: Bool, started: ContinuousClock.Instant) {
            self.enabled = enabled; self.started = started; lastDraw = started
        }
        func update(bytes: Int, records: Int) {
            guard enabled else { return }
            let now = ContinuousClock.now
            guard now - started > .seconds(1), now - lastDraw > .milliseconds(250) else { return }
            lastDraw = now
            drawn = true
            let mb = Double(bytes) / 1_048_576
            FileHandle.standardError.write(Data(String(format: "\r\u{1B}[Kingest: %.1f MiB, %d records", mb, records).utf8))
        }
        func clear() {
            if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)); drawn = false }
        }
    }
}
