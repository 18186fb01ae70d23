// `pressdb ingest`: reads NDJSON or CSV touch logs, and getevent, evemu, evtest or libinput record
// device recordings, into the database.
import Foundation
import PressCore
import PressFormats
import PressStore
import PressIngest

struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "ingest",
        abstract: "Read touch logs (NDJSON, CSV) or device recordings (getevent, evemu, evtest, libinput) into the database.",
        discussion: """
        Each FILE (or standard input, for '-' or when no FILE is given) holds touch records:
        NDJSON, one JSON object per line, or CSV with a header row (docs/log-format.md).
        Sessions are stored when complete (began … ended|cancelled); sessions still open at the
        end are kept as pending and completed by a later ingest. Re-ingesting the same data adds
        nothing. Bad lines are reported as FILE:LINE: reason, stored in the rejects table, and
        the rest is still ingested (exit status 3); --strict aborts instead, writing nothing;
        --check reads and validates everything and writes nothing. Rows of a session out of time
        order are put in order within --reorder-window seconds. Exports in other shapes read
        with --columns (a CSV without a header, or other column names), --time-unit and
        --phase-names (docs/log-format.md, "Other exports").

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
          pressdb ingest --format getevent --abs-range 0:1079,0:2339 \\
              --screen 1080x2340 --px-per-pt 2.75 --layout screen.json \\
              --container scroll rec.getevent-lt.txt
        """
    )

    @Argument(name: "FILE|-", help: "Input files; '-' or none reads standard input") var files: [String]
    @Option(.database) var database: DatabasePath
    @Option(value: "FORMAT", help: "Input format",
            discussion: "auto: '{' first means NDJSON, a CSV header with 'session' and 't' columns CSV, else a device recording (getevent, evemu, evtest, libinput) recognised by its first lines.")
    var format = InputFormatSelection.auto
    @Option(value: "NAME", help: "Configuration name for sessions that give none: a preset or one added with 'pressdb config add'")
    var config: String?
    @Option(value: "NAME", help: "Container for sessions that give none") var container: Container?
    @Option(value: "X0:X1,Y0:Y1", help: "Device recordings: the touchscreen's raw axis ranges, e.g. 0:1079,0:2339, or with resolutions in units/mm, 0:3987:32,0:1960:31",
            defaultDescription: "the recording's own ranges, else none: pixels = raw")
    var absRange: AbsRanges?
    @Option(value: "WxH", help: "Device recordings: the screen size in pixels, e.g. 1080x2340",
            defaultDescription: "the axis span, so pixels = raw - min")
    var screen: ScreenSize?
    @Option(value: "F", help: "Device recordings: pixels per point, e.g. Android density / 160, 2 for a 320 dpi phone",
            requirement: "needs a positive number of pixels per point (e.g. 2, Android density / 160)", rule: .positive)
    var pxPerPt = DeviceLogOptions.defaultPixelsPerPoint
    @Option(value: "FILE.json",
            help: "Device recordings: the screen's controls, {\"controls\": [{\"id\", \"frame\": [x,y,w,h] in points, \"container\", \"scroll_axis\", \"config\"}, …]} or one {\"type\":\"control\",…} record per line")
    var layout: String?
    @Option(value: "NAME,…|FIELD=HEADER,…",
            help: "CSV: the columns of a file without a header row, in order (session,phase,x,y,t), or a header's names read as pressdb's fields (session=touch_id,t=epoch_ms)")
    var columns: LogColumnNames?
    @Option(value: "UNIT", help: "The unit of the log's times (t)")
    var timeUnit = TimeUnit.s
    @Option(value: "PHASE=NAME,…", help: "Other names of the phases, e.g. began=touchdown,moved=touchmove,ended=touchend,cancelled=touchcancel")
    var phaseNames: PhaseNames?
    @Option(value: "S", help: "Rows of a session at most this many seconds (of log time) out of order are put in order; 0: none",
            requirement: "needs a number of seconds >= 0", rule: .nonNegative)
    var reorderWindow = IngestOptions.defaultReorderWindow
    @Option(.maxLineBytes) var maxLineBytes: Int
    @Flag(help: "Read and validate every input, print what an ingest would store and reject, write nothing (exit status 3 with rejects).")
    var check: Bool
    @Flag(help: "Abort on the first rejected record; write nothing (exit status 3).") var strict: Bool
    @Flag(.quiet) var quiet: Bool

    /// Reject messages printed before "… and N more".
    static let rejectMessagesShown = 20

    /// The device-recording options from `--abs-range`, `--screen`, `--px-per-pt` and `--layout`,
    /// with `attributes` as every session's defaults.
    /// - Throws: `CLIError.usage` (status 2) for a layout that does not parse; `CLIError.failure`
    ///   (status 1) for an unreadable layout file.
    func deviceOptions(attributes: SessionAttributes) throws -> DeviceLogOptions {
        var options = DeviceLogOptions(attributes: attributes)
        options.absRange = absRange
        options.screen = screen
        options.pixelsPerPoint = pxPerPt
        if let path = layout {
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw CLIError.failure("--layout: cannot read \(path)")
            }
            do { options.layout = try LayoutJSON.parse(data, file: path) } catch {
                throw CLIError.usage("--layout: \(error.message); expected {\"controls\": [{\"id\": …, \"frame\": [x, y, w, h]}, …]}")
            }
        }
        return options
    }

    func run() throws -> Int32 { try run(summary: !quiet, progress: Progress.shown(quiet: quiet)) }

    /// Ingests, printing the summary and the progress as asked (`pressdb demo` shows the progress
    /// of its ingest and prints its own summary).
    func run(summary showsSummary: Bool, progress showsProgress: Bool) throws -> Int32 {
        var options = IngestOptions()
        options.strict = strict
        options.defaultConfig = config
        options.rejectMessagesKept = Self.rejectMessagesShown
        options.replayStoredSessions = !check
        options.reorderWindow = reorderWindow
        options.checkOnly = check
        // Batches bounded by time commit at moments that depend on the machine's speed and load;
        // instruction counts (under valgrind, 50 times slower) need them bounded by size alone.
        if let text = ProcessInfo.processInfo.environment["PRESSDB_BATCH_SECONDS"], let s = Double(text), s > 0, s.isFinite {
            options.batchSeconds = s
        }
        if let container { options.defaultContainer = container }
        var reading = RecordInputs(device: try deviceOptions(attributes: SessionAttributes(config: options.defaultConfig,
                                                                                          container: options.defaultContainer)))
        reading.touchLog = touchLogOptions
        let paths = files.isEmpty ? ["-"] : files
        // With no file named and a person at the keyboard, waiting in silence looks like a hang.
        if files.isEmpty, isatty(STDIN_FILENO) == 1, !quiet {
            printError("ingest: reading touch records from standard input (no FILE given); type or paste them and "
                + "end with Ctrl-D, or stop with Ctrl-C and name a file: pressdb ingest FILE")
        }

        // Every input is opened and its format told before the database is: one that cannot be
        // read is named at the end while the others are ingested; when none can, or every one
        // is empty, nothing is written (no database is created).
        let (inputs, unreadable) = Self.openInputs(paths, format: format.format, namedColumns: columns != nil,
                                                      maxLineBytes: maxLineBytes)
        if inputs.isEmpty || (strict && !unreadable.isEmpty) {
            for problem in unreadable.dropLast() { printError("pressdb ingest: \(problem)") }
            throw CLIError.failure(unreadable.last!)
        }
        if inputs.allSatisfy(\.isBlank) {
            if !unreadable.isEmpty {
                for problem in unreadable.dropLast() { printError("pressdb ingest: \(problem)") }
                throw CLIError.failure(unreadable.last!)
            }
            let names = inputs.map { $0.path == "-" ? "standard input" : $0.path }
            let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
            throw CLIError.empty("nothing to ingest: \(list) hold\(names.count == 1 ? "s" : "") no records")
        }

        let dbPath = database.path
        let databaseExisted = database.exists
        // --config names a configuration the database knows (a preset, or one added); checked
        // before anything is written, as a command-line error.
        var opened: Store?
        if let name = config, PressConfiguration.preset(named: name) == nil {
            guard databaseExisted else { throw unknownConfiguration(name, known: PressConfiguration.presets.map(\.name), option: "--config") }
            let store = try database.openStore()
            let catalog = try ConfigurationCatalog(store: store)
            guard catalog.resolve(name) != nil else { throw unknownConfiguration(name, catalog, option: "--config") }
            opened = store
        }
        // --check writes nothing: a database that does not exist is not created (one in memory
        // stands in), and one that does gets one transaction, rolled back.
        let store = try opened ?? (check && !databaseExisted ? Store.open(path: ":memory:") : database.openStore())
        // Ctrl-C: stop at the next batch boundary, keep what is whole (Interrupt.swift).
        Interrupt.install()
        defer { Interrupt.uninstall() }
        options.shouldStop = Interrupt.requested
        let started = ContinuousClock.now
        // Bytes of the files' total size; for standard input (or a pipe), bytes read.
        let progress = Progress("ingest", unit: .bytes, total: Self.totalSize(paths), enabled: showsProgress)
        func reportProgress(_ bytes: Int, _ records: Int) { progress.update(bytes, detail: "\(Progress.grouped(records)) records") }
        let summary: IngestSummary
        var ingesting: Ingester?
        do {
            let ingester = try Ingester(store: store, options: options)
            ingesting = ingester
            for (input, path, f, _) in inputs {
                if Interrupt.requested() { throw IngestInterrupted() }
                try reading.read(input, path: path, format: f, into: ingester, progress: reportProgress)
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
            if !databaseExisted { IngestCompletion.discardDatabase(createdAt: dbPath) }
            return ExitCode.rejects
        } catch let e as InputError {
            progress.clear()
            throw CLIError.failure("\(e.message)")
        } catch {
            progress.clear()
            let committed = (ingesting?.committedBatches ?? 0, ingesting?.committedSessions ?? 0)
            throw CLIError.failure("\(DatabaseProblem.describe(error, path: dbPath, committed: committed))")
        }
        progress.clear()
        if check {
            return try reportCheck(summary, reading: reading, unreadable: unreadable, showsSummary: showsSummary, store: store,
                                   configurations: ingesting?.configurationsNamed ?? [])
        }

        // Configurations from `{"type":"config"}` records, then replay of every session that has
        // no result under its own configuration yet (this run's, and any an interrupted run left).
        let configRejects: [Reject]
        let replayed: ReplaySummary
        let knownConfigurations: [String]
        do {
            let replaying = Progress("replay", unit: .sessions, enabled: showsProgress)
            defer { replaying.clear() }
            (configRejects, replayed, knownConfigurations) = try IngestCompletion.importConfigurationsAndReplay(
                store: store, summary: summary, defaultConfig: options.defaultConfig,
                shouldStop: Interrupt.requested, progress: replaying.replayed)
        } catch {
            throw CLIError.failure("the sessions are stored, but replaying them failed: "
                + "\(DatabaseProblem.describe(error, path: dbPath)); run 'pressdb replay' to retry")
        }
        if Interrupt.requested() {
            printError(Interrupt.message(sessionsCommitted: summary.sessionsNew))
            return Interrupt.exitStatus
        }
        let rejectCount = summary.rejects + configRejects.count

        if showsSummary {
            // Lines read in spite of a flaw (docs/device-recordings.md, "Warnings"), then rejects.
            let (warnings, warningCount) = (reading.warnings, reading.warningCount)
            var lines: [String] = warnings.prefix(Self.rejectMessagesShown).map(\.description)
            if warningCount > min(warnings.count, Self.rejectMessagesShown) {
                lines.append("… and \(warningCount - min(warnings.count, Self.rejectMessagesShown)) more warnings")
            }
            let shown = Array((summary.firstRejects + configRejects).prefix(Self.rejectMessagesShown))
            lines += shown.map(\.description)
            if rejectCount > shown.count {
                lines.append("… and \(rejectCount - shown.count) more (see the rejects table)")
            }
            if let warning = summary.timeUnits.warning(timeUnitGiven: timeUnit.rawValue) {
                lines.append(warning + " (into a new database: these sessions are stored as read)")
            }
            lines.append(Self.summaryLine(summary, controlRecords: reading.controlRecords, seconds: Self.seconds(ContinuousClock.now - started)))
            lines += ReplayCommand.describe(replayed, known: knownConfigurations)
            printError(lines.joined(separator: "\n"))
        }
        if !unreadable.isEmpty {
            for problem in unreadable {
                printError("pressdb ingest: \(problem); the other inputs were ingested; re-run the same command once it "
                    + "can be read (what is stored now is skipped as duplicates)")
            }
            return ExitCode.failure
        }
        return rejectCount > 0 ? ExitCode.rejects : ExitCode.ok
    }

    /// `--check`: what the run read, stored nowhere (its transaction was rolled back): warnings,
    /// rejects, and what an ingest would store; configurations named and not known, with the
    /// nearest known one. Status 3 with rejects, else 0 (1 when an input could not be read).
    func reportCheck(_ summary: IngestSummary, reading: RecordInputs, unreadable: [String], showsSummary: Bool,
                     store: Store, configurations: Set<String>) throws -> Int32 {
        var lines: [String] = reading.warnings.prefix(Self.rejectMessagesShown).map(\.description)
        if reading.warningCount > min(reading.warnings.count, Self.rejectMessagesShown) {
            lines.append("… and \(reading.warningCount - min(reading.warnings.count, Self.rejectMessagesShown)) more warnings")
        }
        lines += summary.firstRejects.prefix(Self.rejectMessagesShown).map(\.description)
        if summary.rejects > min(summary.firstRejects.count, Self.rejectMessagesShown) {
            lines.append("… and \(summary.rejects - min(summary.firstRejects.count, Self.rejectMessagesShown)) more rejects")
        }
        if let warning = summary.timeUnits.warning(timeUnitGiven: timeUnit.rawValue) { lines.append(warning) }
        // Configurations named and not known (a preset, or one the database has): the replay
        // of an ingest would leave their sessions unreplayed.
        let known = (try? ConfigurationCatalog(store: store)).map { Array($0.current.keys) }
            ?? PressConfiguration.presets.map(\.name)
        for name in configurations.sorted() where !known.contains(name) {
            let near = Suggestions.near(name, in: known.sorted())
            let hint = near.isEmpty ? "" : " (did you mean \(near.map { "'\($0)'" }.joined(separator: " or "))?)"
            lines.append("check: sessions name configuration '\(name)'\(hint), which is neither a preset nor added; "
                + "an ingest would store them unreplayed")
        }
        let s = summary
        var parts = ["\(s.files) file\(s.files == 1 ? "" : "s")", "\(s.records) record\(s.records == 1 ? "" : "s")",
                     "would store \(s.sessionsNew) new session\(s.sessionsNew == 1 ? "" : "s")",
                     "\(s.duplicates) duplicate, \(s.conflicts) conflict, \(s.pending) pending"]
        if s.reordered > 0 { parts.append("\(s.reordered) rows put in time order") }
        parts.append("\(s.rejects) rejected")
        lines.append("check: " + parts.joined(separator: "; ") + "; nothing was written")
        if showsSummary { printError(lines.joined(separator: "\n")) }
        for problem in unreadable { printError("pressdb ingest: \(problem)") }
        if !unreadable.isEmpty { return ExitCode.failure }
        return s.rejects > 0 ? ExitCode.rejects : ExitCode.ok
    }

    /// An input to ingest: its bytes, the path given (`-` for standard input), its format, and
    /// whether it holds nothing but blanks.
    typealias OpenInput = (input: ByteInput, path: String, format: InputFormat, isBlank: Bool)

    /// Opens each of `paths` and tells its format (`format` when given, else from its first
    /// bytes, `InputFormat.detect`): the inputs that can be read, and for each that cannot, why
    /// (`cannot read FILE: reason`, or `FILE: cannot tell the format: …`), in order.
    /// The readers' options from `--columns`, `--time-unit` and `--phase-names`.
    var touchLogOptions: TouchLogOptions {
        var o = TouchLogOptions()
        o.columns = columns?.options.columns
        o.headerNames = columns?.options.headerNames ?? [:]
        o.timeUnit = timeUnit
        o.phaseNames = phaseNames?.names ?? [:]
        return o
    }

    /// With `namedColumns` (`--columns`), an input told by content is CSV unless its first
    /// character is `{`: its header, if any, need not name `session` and `t`.
    static func openInputs(_ paths: [String], format: InputFormat?, namedColumns: Bool = false,
                           maxLineBytes: Int = ByteInput.defaultMaxLineBytes)
        -> (inputs: [OpenInput], unreadable: [String])
    {
        var inputs: [OpenInput] = [], unreadable: [String] = []
        for path in paths {
            let input: ByteInput
            if path == "-" { input = ByteInput(fileDescriptor: STDIN_FILENO, name: "-") } else {
                do { input = try ByteInput(path: path) } catch {
                    unreadable.append("cannot read \((error as? InputError)?.message ?? "\(path): \(error)")")
                    continue
                }
            }
            input.maxLineBytes = maxLineBytes
            do {
                let f: InputFormat
                if let format { f = format } else if namedColumns {
                    f = try input.peekFirstNonBlankByte() == UInt8(ascii: "{") ? .ndjson : .csv
                } else {
                    f = try InputFormat.detect(input)
                }
                var blank = try input.peekFirstNonBlankByte() == nil
                // A CSV's header is checked before the database is opened, and a header with
                // no rows after it holds no records, as an empty file does (with --columns, the
                // names are the option's, and the first line may be a row).
                if f == .csv, !blank, !namedColumns { blank = try !InputFormat.checkCSVHeader(input) }
                inputs.append((input, path, f, blank))
            } catch {
                unreadable.append((error as? InputError)?.message ?? "\(path): \(error)")
            }
        }
        return (inputs, unreadable)
    }

    /// A duration in seconds (ingest and replay report their times so).
    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    static func summaryLine(_ s: IngestSummary, controlRecords: Int = 0, seconds: Double) -> String {
        let rate = seconds > 0 ? Int((Double(s.records) / seconds).rounded()) : s.records
        var parts = ["\(s.files) file\(s.files == 1 ? "" : "s")", "\(s.records) record\(s.records == 1 ? "" : "s")",
                     "sessions: \(s.sessionsNew) new, \(s.duplicates) duplicate, \(s.conflicts) conflict, \(s.pending) pending"]
        if s.sessionsCompletedFromPending > 0 { parts.append("\(s.sessionsCompletedFromPending) completed from pending") }
        if s.reordered > 0 { parts.append("\(s.reordered) rows put in time order") }
        if s.configRecords > 0 { parts.append("\(s.configRecords) config record\(s.configRecords == 1 ? "" : "s")") }
        if controlRecords > 0 { parts.append("\(controlRecords) control records (layout for device recordings read after them)") }
        parts.append("\(s.rejects) rejected")
        parts.append(String(format: "%.2f s, %d records/s", seconds, rate))
        return "ingest: " + parts.joined(separator: "; ")
    }

    /// The total size of `paths` when every one is a regular file (nil for standard input, a pipe).
    static func totalSize(_ paths: [String]) -> Int? {
        var total = 0
        for path in paths {
            var st = stat()
            guard path != "-", stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
            total += Int(st.st_size)
        }
        return total
    }
}

/// `--format` of ingest: a named input format, or `auto` (each input's format told from its
/// first bytes, `InputFormat.detect`).
enum InputFormatSelection: ExpressibleByArgument {
    case auto
    case named(InputFormat)

    init(argument: String) throws(InvalidArgument) {
        if argument == "auto" { self = .auto; return }
        guard let f = InputFormat(rawValue: argument) else {
            throw .requirement("must be one of \(Self.allValueStrings!.joined(separator: ", "))")
        }
        self = .named(f)
    }

    /// The format given, nil for `auto`.
    var format: InputFormat? {
        if case .named(let f) = self { return f }
        return nil
    }

    var argumentDescription: String { format?.rawValue ?? "auto" }
    static var allValueStrings: [String]? { ["auto"] + InputFormat.allCases.map(\.rawValue) }
}

extension AbsRanges: ExpressibleByArgument {
    init(argument: String) throws(InvalidArgument) {
        do { try self.init(parsing: argument) } catch {
            throw .problem("\(error.message); expected X0:X1,Y0:Y1, e.g. 0:1079,0:2339")
        }
    }
    var argumentDescription: String { "\(x.min):\(x.max),\(y.min):\(y.max)" }
}

extension ScreenSize: ExpressibleByArgument {
    init(argument: String) throws(InvalidArgument) {
        do { try self.init(parsing: argument) } catch { throw .problem(error.message) }
    }
    var argumentDescription: String { "\(width)x\(height)" }
}


extension TimeUnit: ExpressibleByArgument {
    init(argument: String) throws(InvalidArgument) {
        guard let u = TimeUnit(rawValue: argument) else { throw .requirement("must be one of s, ms, us, ns") }
        self = u
    }
    var argumentDescription: String { rawValue }
    static var allValueStrings: [String]? { TimeUnit.allCases.map(\.rawValue) }
}

/// `--columns`: a header-less CSV's column names, or a header's names mapped to pressdb's.
struct LogColumnNames: ExpressibleByArgument {
    var options = TouchLogOptions()
    init(argument: String) throws(InvalidArgument) {
        do { try options.setColumns(argument) } catch { throw .problem(error.reason) }
    }
    var argumentDescription: String {
        options.columns?.joined(separator: ",") ?? options.headerNames.map { "\($0.value)=\($0.key)" }.sorted().joined(separator: ",")
    }
}

/// `--phase-names`: other names of the phases.
struct PhaseNames: ExpressibleByArgument {
    var names: [String: TouchPhase] = [:]
    init(argument: String) throws(InvalidArgument) {
        var o = TouchLogOptions()
        do { try o.setPhaseNames(argument) } catch { throw .problem(error.reason) }
        names = o.phaseNames
    }
    var argumentDescription: String { names.map { "\($0.value.rawValue)=\($0.key)" }.sorted().joined(separator: ",") }
}
