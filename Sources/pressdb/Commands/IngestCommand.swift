// `pressdb ingest`: reads NDJSON or CSV touch logs, and getevent, evemu, evtest or libinput record
// device recordings, into the database.
import Foundation
import PressCore
import PressFormats
import PressStore

enum IngestCommand: PressCommand {
    static let spec = CommandSpec(
        name: "ingest",
        abstract: "Read touch logs (NDJSON, CSV) or device recordings (getevent, evemu, evtest, libinput) into the database.",
        discussion: """
        Each FILE (or standard input, for '-' or when no FILE is given) holds touch records:
        NDJSON, one JSON object per line, or CSV with a header row (docs/log-format.md).
        Sessions are stored when complete (began … ended|cancelled); sessions still open at the
        end are kept as pending and completed by a later ingest. Re-ingesting the same data adds
        nothing. Bad lines are reported as FILE:LINE: reason, stored in the rejects table, and
        the rest is still ingested (exit status 3); --strict aborts instead, writing nothing.

        A FILE may also be an Android 'getevent -lt' (or -t) recording, or a Linux 'evemu-record',
        'evtest /dev/input/eventN' or 'libinput record' one (docs/device-recordings.md): each
        finger contact becomes one session, named after the file's content hash, so the same
        recording always gives the same sessions. Raw coordinates become pixels (--abs-range,
        --screen), then points (--px-per-pt); without --screen, axes with a resolution (a
        touchpad's) become points physically, 1 pt = 1/160 inch. Each session is hit-tested at
        its touch-down point against --layout and the {"type":"control"} records of NDJSON
        inputs read before it; a miss keeps --config, --container and the reference's 44 x 44
        pt control centred on the touch-down. A regular file is read twice (first to hash
        it); standard input is read into memory first.

        Example (a 1080 x 2340 px phone at 440 dpi: 440 / 160 = 2.75 px per pt):
          pressdb ingest --format getevent --abs-range 0:1079,0:2339 --screen 1080x2340 \\
              --px-per-pt 2.75 --layout screen.json --container scroll rec.getevent-lt.txt
        """,
        positionals: [PositionalSpec(name: "FILE|-", help: "Input files; '-' or none reads standard input.",
                                     optional: true, variadic: true)],
        options: [
            CommonOptions.db,
            .option("format", "FORMAT", help: "Input format: auto|ndjson|csv|getevent|evemu|evtest|libinput (default\nauto: '{' first means NDJSON, a CSV header with 'session' and 't'\ncolumns CSV, else a device recording recognised by its first lines)."),
            .option("config", "NAME", help: "Configuration name for sessions that give none."),
            .option("container", "NAME", help: "Container for sessions that give none:\nnone|scroll|table|scroll-immediate."),
            .option("abs-range", "X0:X1,Y0:Y1", help: "Device recordings: the touchscreen's raw axis ranges, e.g.\n0:1079,0:2339, or with resolutions in units/mm, 0:3987:32,0:1960:31\n(default: the recording's own ranges, else none: pixels = raw)."),
            .option("screen", "WxH", help: "Device recordings: the screen size in pixels, e.g. 1080x2340\n(default: the axis span, so pixels = raw - min)."),
            .option("px-per-pt", "F", help: "Device recordings: pixels per point, e.g. Android density / 160\n(2 for a 320 dpi phone; default 1)."),
            .option("layout", "FILE.json", help: "Device recordings: the screen's controls, {\"controls\": [{\"id\", \"frame\":\n[x,y,w,h] in points, \"container\", \"scroll_axis\", \"config\"}, …]}\nor one {\"type\":\"control\",…} record per line."),
            .flag("strict", help: "Abort on the first rejected record; write nothing (exit status 3)."),
            CommonOptions.quiet,
        ])

    /// Reject messages printed before "… and N more".
    static let rejectMessagesShown = 20

    /// The device-recording options from `--abs-range`, `--screen`, `--px-per-pt` and `--layout`,
    /// with `attributes` as every session's defaults.
    /// - Throws: `CLIError.usage` (status 2) naming the flag and the expected form for a bad
    ///   value or layout; `CLIError.failure` (status 1) for an unreadable layout file.
    static func deviceOptions(_ args: ParsedArguments, attributes: SessionAttributes) throws -> DeviceLogOptions {
        var options = DeviceLogOptions(attributes: attributes)
        if let text = args.string("abs-range") {
            do { options.absRange = try AbsRanges(parsing: text) } catch {
                throw CLIError.usage("pressdb ingest: --abs-range: \(error.message); expected X0:X1,Y0:Y1, e.g. 0:1079,0:2339")
            }
        }
        if let text = args.string("screen") {
            do { options.screen = try ScreenSize(parsing: text) } catch {
                throw CLIError.usage("pressdb ingest: --screen: \(error.message)")
            }
        }
        if let text = args.string("px-per-pt") {
            guard let f = Double(text), f.isFinite, f > 0 else {
                throw CLIError.usage("pressdb ingest: --px-per-pt needs a positive number of pixels per point "
                    + "(e.g. 2, Android density / 160), not '\(text)'")
            }
            options.pixelsPerPoint = f
        }
        if let path = args.string("layout") {
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw CLIError.failure("pressdb ingest: --layout: cannot read \(path)")
            }
            do { options.layout = try LayoutJSON.parse(data, file: path) } catch {
                throw CLIError.usage("pressdb ingest: --layout: \(error.message); expected {\"controls\": [{\"id\": …, \"frame\": [x, y, w, h]}, …]}")
            }
        }
        return options
    }

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let format = try args.choice("format", ["auto"] + InputFormat.allCases.map(\.rawValue)) ?? "auto"
        var options = IngestOptions()
        options.strict = args.flag("strict")
        options.defaultConfig = args.string("config")
        options.rejectMessagesKept = rejectMessagesShown
        options.replayStoredSessions = true
        if let name = args.string("container") {
            guard let c = Container(named: name) else {
                throw CLIError.usage("pressdb ingest: --container must be one of none, scroll, table, scroll-immediate, not '\(name)'")
            }
            options.defaultContainer = c
        }
        var device = try deviceOptions(args, attributes: SessionAttributes(config: options.defaultConfig,
                                                                          container: options.defaultContainer))
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
        let databaseExisted = FileManager.default.fileExists(atPath: dbPath)
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
        var controlRecords = 0
        var warnings: [DeviceLogWarning] = [], warningCount = 0
        var ingesting: Ingester?
        do {
            let ingester = try Ingester(store: store, options: options)
            ingesting = ingester
            for (input, path) in zip(inputs, paths) {
                if Interrupt.requested() { throw IngestInterrupted() }
                let f: InputFormat = format == "auto" ? try InputFormat.detect(input) : InputFormat(rawValue: format)!
                switch f {
                case .ndjson:
                    // Layout records apply to the device recordings read after them.
                    var r = ControlRecordCollector(NDJSONReader(input))
                    try ingester.ingest(&r, input: input, progress: progress.update)
                    if !r.controls.isEmpty {
                        controlRecords += r.controls.count
                        device.layout = Layout(controls: (device.layout?.controls ?? []) + r.controls)
                    }
                case .csv:
                    var r = CSVReader(input)
                    try ingester.ingest(&r, input: input, progress: progress.update)
                case .getevent, .evemu, .evtest, .libinput:
                    var r = try DeviceLogSource(input, format: f.deviceLogFormat!, options: device,
                                                file: path == "-" ? nil : path)
                    try ingester.ingest(&r, input: input, progress: progress.update)
                    warnings += r.warnings
                    warningCount += r.warningCount
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
            // --strict writes nothing: a database this run created is removed again.
            if !databaseExisted {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: dbPath + suffix) }
            }
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
        var replayed: ReplaySummary
        do {
            let catalog = try ConfigurationCatalog(store: store)
            configRejects = try catalog.importConfigRecords()
            var replayOptions = ReplayOptions(defaultConfig: options.defaultConfig ?? PressConfiguration.springPress.name)
            replayOptions.shouldStop = Interrupt.requested
            let replayer = Replayer(store: store, catalog: catalog, options: replayOptions)
            replayed = try replayer.replayMissing()
            replayed.replayed += summary.sessionsReplayed
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
            // Lines read in spite of a flaw (docs/device-recordings.md, "Warnings"), then rejects.
            var lines: [String] = warnings.prefix(rejectMessagesShown).map(\.description)
            if warningCount > min(warnings.count, rejectMessagesShown) {
                lines.append("… and \(warningCount - min(warnings.count, rejectMessagesShown)) more warnings")
            }
            let shown = Array((summary.firstRejects + configRejects).prefix(rejectMessagesShown))
            lines += shown.map(\.description)
            if rejectCount > shown.count {
                lines.append("… and \(rejectCount - shown.count) more (see the rejects table)")
            }
            lines.append(summaryLine(summary, controlRecords: controlRecords, seconds: seconds(ContinuousClock.now - started)))
            lines += ReplayCommand.describe(replayed)
            printError(lines.joined(separator: "\n"))
        }
        return rejectCount > 0 ? ExitCode.rejects : ExitCode.ok
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    static func summaryLine(_ s: IngestSummary, controlRecords: Int = 0, seconds: Double) -> String {
        let rate = seconds > 0 ? Int((Double(s.records) / seconds).rounded()) : s.records
        var parts = ["\(s.files) file\(s.files == 1 ? "" : "s")", "\(s.records) record\(s.records == 1 ? "" : "s")",
                     "sessions: \(s.sessionsNew) new, \(s.duplicates) duplicate, \(s.conflicts) conflict, \(s.pending) pending"]
        if s.sessionsCompletedFromPending > 0 { parts.append("\(s.sessionsCompletedFromPending) completed from pending") }
        if s.configRecords > 0 { parts.append("\(s.configRecords) config record\(s.configRecords == 1 ? "" : "s")") }
        if controlRecords > 0 { parts.append("\(controlRecords) control records (layout for device recordings read after them)") }
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
