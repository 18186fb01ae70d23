// `pressdb replay --input FILE|-`: replay as a stream filter, without a database. The records are
// read as ingest reads them (RecordInputs, the Ingester's loop and rules); each complete session
// is replayed at once (StreamReplay) and written as a result line.
import Foundation
import PressCore
import PressFormats
import PressStore
import PressIngest

extension ReplayCommand {
    /// Reject messages printed on standard error before "… and N more".
    static let rejectMessagesShown = IngestCommand.rejectMessagesShown

    func replayStream(_ path: String) throws -> Int32 {
        let catalog = ConfigurationCatalog()
        guard catalog.resolve(config) != nil else { throw unknownConfiguration(config, catalog) }
        var target: PressConfiguration?
        if let name = self.target {
            guard let c = catalog.resolve(name) else { throw unknownConfiguration(name, catalog) }
            target = c
        }
        var replayOptions = ReplayOptions(display: Display(refreshRate: refreshRate, density: density), defaultConfig: config)
        if let container { replayOptions.defaultContainer = container }
        if let displayName {
            // A stream has no database: the built-in profiles only.
            guard let p = DisplayProfile.builtIn(named: displayName) else {
                throw CLIError.usage("--display: no built-in display profile named '\(displayName)' (known: "
                    + DisplayProfile.builtIn.map(\.name).joined(separator: ", ") + "); with --input only those apply")
            }
            var d = p.display
            if $refreshRate.wasGiven { d.refreshRate = refreshRate }
            if $density.wasGiven { d.density = density }
            replayOptions.displayOverride = d
        }
        // --config and --container are given to sessions naming none, as ingest stores them.
        var options = IngestOptions()
        options.defaultConfig = $config.wasGiven ? config : nil
        options.defaultContainer = container
        options.shouldStop = Interrupt.requested

        let inputs = try RecordInputs.open([path])
        inputs[0].framesOrigins = origins
        inputs[0].maxLineBytes = maxLineBytes
        let rejectFile = try rejects.flatMap { $0 == "-" ? nil : try Self.openRejectFile($0) }
        var rejectCount = 0
        var stream: StreamReplay!
        stream = StreamReplay(catalog: catalog, options: replayOptions, target: target, write: Self.writeToStandardOutput) { r in
            rejectCount += 1
            if !quiet && rejectCount <= Self.rejectMessagesShown { printError(r.description) }
            if rejects == "-" { stream.emit { $0.reject(r) } }
            if let rejectFile {
                var line = ResultLines()
                line.reject(r)
                rejectFile.write(Data(line.buffer))
            }
        }
        let ingester = Ingester(streamingTo: stream, options: options)
        var reading = RecordInputs(device: DeviceLogOptions(attributes: SessionAttributes(config: options.defaultConfig,
                                                                                          container: options.defaultContainer)))
        Interrupt.install()
        defer { Interrupt.uninstall() }
        let started = ContinuousClock.now
        let summary: IngestSummary
        do {
            try reading.read(inputs[0], path: path, format: inputFormat.format, into: ingester)
            summary = try ingester.finish()
        } catch is IngestInterrupted {
            let kept = try ingester.commitInterrupted()
            printError("interrupted: \(kept.sessionsNew) session\(kept.sessionsNew == 1 ? "" : "s") written; sessions open at the stop were not")
            return Interrupt.exitStatus
        } catch let e as InputError {
            throw CLIError.failure(e.message)
        }
        try? rejectFile?.close()
        if !quiet {
            var lines: [String] = []
            if rejectCount > Self.rejectMessagesShown {
                lines.append("… and \(rejectCount - Self.rejectMessagesShown) more" + (rejects.map { " (all in --rejects \($0))" } ?? ""))
            }
            lines += Self.describe(stream.summary, records: summary.records,
                                   seconds: IngestCommand.seconds(ContinuousClock.now - started), rejects: rejectCount)
            printError(lines.joined(separator: "\n"))
        }
        return rejectCount > 0 ? ExitCode.rejects : ExitCode.ok
    }

    /// The summary lines on standard error.
    static func describe(_ s: StreamReplaySummary, records: Int, seconds: Double, rejects: Int) -> [String] {
        var lines = [String(format: "replay: %d record%@; %d session%@ replayed, %d pending, %d rejected; %.2f s",
                            records, records == 1 ? "" : "s", s.results, s.results == 1 ? "" : "s", s.pending, rejects, seconds)]
        for (name, n) in s.unknownConfigs.sorted(by: { $0.key < $1.key }) {
            lines.append("replay: \(n) session\(n == 1 ? "" : "s") name configuration '\(name)', which is neither a preset nor defined by a {\"type\":\"config\"} record; written as unreplayed")
        }
        for f in s.failures { lines.append("replay: session \(f.session) cannot be replayed: \(f.reason)") }
        if s.failureCount > s.failures.count { lines.append("replay: … and \(s.failureCount - s.failures.count) more sessions that cannot be replayed") }
        for r in s.redefinitions {
            lines.append("replay: \(r.at): configuration '\(r.name)' is redefined after \(r.sessions) session\(r.sessions == 1 ? " was" : "s were") replayed under its earlier version (their lines carry that config_version); put configuration records first")
        }
        return lines
    }

    /// Creates (or empties) `path` for the NDJSON rejects.
    static func openRejectFile(_ path: String) throws -> FileHandle {
        guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path) else {
            throw CLIError.failure("cannot write --rejects \(path) (does its folder exist and is it writable?)")
        }
        return h
    }

    /// Writes `bytes` to standard output whole (`StandardOutput`). A reader that went away ends
    /// the stream there, quietly and with status 0, as for every command; another error with
    /// status 1.
    static func writeToStandardOutput(_ bytes: [UInt8]) {
        // Texts from the log may hold characters a terminal acts on: \u escapes in the lines.
        do { try StandardOutput.write(JSONText.escapingInvisible(bytes)) } catch is StandardOutput.Closed {
            exit(ExitCode.ok)
        } catch {
            printError("pressdb replay: \(error)")
            exit(ExitCode.failure)
        }
    }
}
