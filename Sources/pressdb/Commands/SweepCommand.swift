// `pressdb sweep`: replay the recorded sessions under a grid of configuration and container
// parameters, and find the points that trade the objectives off best (docs/sweep.md).
import Foundation
import PressCore
import PressFormats
import PressStats
import PressStore
import PressIngest
import PressAnalysis

struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "sweep",
        abstract: "Replay the recorded presses across a grid of parameters and mark the Pareto frontier.",
        discussion: """
        Every selected session is replayed under the base configuration and under every point
        of the grid the --vary options make (read from the database once, on every core,
        nothing per session stored). Per point: the summary report's metrics over the same
        sessions, the paired differences from the base with 95 % intervals (clustered by user
        when every session names one), and whether the point is on the Pareto frontier of the
        objectives. The sweep is stored: 'pressdb sweep --show ID' prints it again, and
        'pressdb sweep --export-config ID:POINT' prints a point as a configuration for
        'pressdb config add'.

        PATH is a field of the configuration JSON (pressed_scale, press_animation.damping_ratio,
        release_animation.duration, action_delay, retention_margin, minimum_press_duration,
        safe_area, …; docs/configurations.md) or a container parameter replacing the recorded
        scroll views' (container.delays_content_touches, container.cancels_control_touches,
        container.touch_delay, container.hysteresis), or display: the display profiles a point
        replays every session on (display=iphone-60hz,iphone-promotion; 'pressdb displays'; the
        base keeps each session's own). SPEC is a list (0.9,0.95,0.97), a range with a step
        (0.3:1.0:0.1) or a count (0.2:0.6/9). Several --vary make a grid; --sample N draws N of
        its points at random. A value that makes an invalid configuration is refused before
        anything is replayed.

        Objectives (default feedback_p90_ms, unseen_rate, release_jump_p90_pt,
        scroll_abort_rate, false_actions; NAME:max or NAME:min to set the direction): the
        frontier holds the points no other point beats on all of them. --top K shows the best K
        by a weighted score (--weights NAME=W,…; equal weights without it).

        Examples:
          pressdb sweep --base spring-press \\
              --vary press_animation.damping_ratio=0.3:1.0:0.1 \\
              --vary pressed_scale=0.9,0.95,0.97
          pressdb sweep --base spring-press \\
              --vary container.delays_content_touches=true,false --where screen=feed
          pressdb sweep --base longpress-safe-area --vary safe_area=2:20/10 \\
              --vary minimum_press_duration=0,0.05,0.1 --top 3
          pressdb sweep --base spring-press --vary pressed_scale=0.9:0.98:0.01 \\
              --format html --out sweep.html
          pressdb sweep --show 1 --format csv
          pressdb sweep --export-config 1:7 > soft.json && pressdb config add soft.json
        """
    )

    @Option(.database) var database: DatabasePath
    @Option(value: "CONFIG", help: "The configuration to start from (a preset or one added with 'pressdb config add')")
    var base: String?
    @Option(value: "PATH=SPEC", help: "A parameter and its values", keepsCommas: true)
    var vary: [String]
    @Option(value: "N", help: "Replay N points of the grid drawn at random instead of every point",
            rule: .within(1...SweepDefinition.maximumPoints, "must be from 1 to \(SweepDefinition.maximumPoints)"))
    var sample: Int?
    @Option(value: "S", help: "The seed of --sample's draw") var seed: UInt64 = 1
    @Option(.where(keys: PairedComparison.filterKeys, note: "config is the session's own configuration")) var filter: [Equality]
    @Option(name: "objective", value: "NAME", help: "The metrics to trade off",
            defaultDescription: SweepObjective.defaults.map(\.name).joined(separator: ","))
    var objectives: [String]
    @Option(name: "display", value: "NAME", help: "Sweep every session on this display profile ('pressdb displays') instead of its own")
    var displayName: String?
    @Option(value: "NAME=W", help: "Weights of the objectives for --top") var weights: [Equality]
    @Option(value: "K", help: "Show the best K points by the weighted score", rule: .within(1...Int.max, "must be at least 1"))
    var top: Int?
    @Option(value: "N", help: "Worker threads", rule: .within(1...256, "must be from 1 to 256"),
            defaultDescription: "all cores")
    var jobs: Int?
    @Option(value: "ID", help: "Print stored sweep ID again") var show: Int?
    @Option(name: "export-config", value: "ID:POINT", help: "Print a point of a stored sweep as a configuration JSON")
    var exportConfig: String?
    @Option(.format(DocumentFormat.allCases)) var format: DocumentFormat
    @Option(.out) var out: String?
    @Flag(.wide) var wide: Bool
    @Option(.columns) var columns: [String]
    @Flag(.explain) var explain: Bool
    @Flag(.quiet(help: "Print no progress or summary on standard error.")) var quiet: Bool

    func validate() throws {
        let modes = [$show.wasGiven, $exportConfig.wasGiven, $base.wasGiven || !vary.isEmpty].filter { $0 }.count
        if modes > 1 {
            throw CLIError.usage("--show, --export-config and a new sweep (--base, --vary) go one at a time")
        }
        if modes == 0 {
            throw CLIError.usage("give --base CONFIG and --vary PATH=SPEC (or --show ID, or --export-config ID:POINT); see 'pressdb sweep --help'")
        }
        if $base.wasGiven != !vary.isEmpty {
            throw CLIError.usage(base == nil ? "--vary needs --base CONFIG, the configuration to start from"
                                             : "--base needs at least one --vary PATH=SPEC")
        }
        if $seed.wasGiven && sample == nil { throw CLIError.usage("--seed goes with --sample N") }
        if !weights.isEmpty && top == nil { throw CLIError.usage("--weights rank the points for --top K; give --top too") }
    }

    func run() throws -> Int32 {
        guard database.exists else {
            throw database.missing
        }
        let store = try database.openStore()
        if let id = show { return try showStored(Int64(id), store: store) }
        if let spec = exportConfig { return try export(spec, store: store) }
        return try sweep(store: store)
    }

    // MARK: A new sweep

    func sweep(store: Store) throws -> Int32 {
        let catalog = try ConfigurationCatalog(store: store)
        guard let baseName = base, let baseConfiguration = catalog.resolve(baseName) else {
            throw unknownConfiguration(base ?? "", catalog)
        }
        var parameters: [SweepParameter] = []
        for text in vary {
            do { parameters.append(try SweepParameter(parsing: text)) } catch { throw CLIError.usage("--vary \(error)") }
        }
        let definition = SweepDefinition(base: baseName, parameters: parameters, sample: sample, seed: seed)
        let nextID = (try store.db.prepare("SELECT coalesce(max(id), 0) + 1 FROM sweeps").scalarInt()) ?? 1
        if displayName != nil, parameters.contains(where: { SweepPath.isDisplay($0.path) }) {
            throw CLIError.usage("--display and --vary display=… both set the display: give the profiles to compare in "
                                 + "--vary display=… alone (the base replays each session on its own)")
        }
        let planned: (points: [SweepPoint], candidates: [SweepCandidate])
        do { planned = try definition.candidates(base: baseConfiguration, sweepID: nextID, displays: catalog.allDisplays) } catch {
            throw CLIError.usage(error.part.hasPrefix("--") ? "\(error)" : "--vary \(error)")
        }
        let objectives = try Self.objectives(self.objectives)
        let weights = try top.map { _ in try Self.weights(self.weights, objectives: objectives) }

        var options = SweepOptions(jobs: jobs ?? SweepOptions.processors, equals: try Equality.dictionary(filter))
        options.profiles = catalog.displays
        if let displayName {
            guard let p = catalog.display(named: displayName) else {
                throw CLIError.usage("--display: no display profile named '\(displayName)' (known: "
                    + catalog.allDisplays.map(\.name).joined(separator: ", ") + "); add one with 'pressdb displays add FILE.json'")
            }
            options.displayOverride = p.display
        }
        let configurations = planned.candidates.count + 1
        let progress = SweepProgress(enabled: !quiet && isatty(STDERR_FILENO) == 1, configurations: configurations)
        options.progress = { done, total in progress.show(done, total) }
        Interrupt.install()
        defer { Interrupt.uninstall() }
        options.shouldStop = Interrupt.requested

        let started = ContinuousClock.now
        let cpuStart = Self.cpuSeconds()
        let result: SweepResult
        do {
            let runner = try SweepRunner(store: store, base: baseConfiguration, candidates: planned.candidates, options: options)
            result = try runner.run()
        } catch let e as SweepError {
            progress.clear()
            switch e {
            case .badFilter: throw CLIError.usage("\(e)")
            case .noSessions: throw CLIError.empty("\(e)")
            }
        }
        progress.clear()
        if result.stopped {
            printError("interrupted: nothing stored; re-run the same command to sweep")
            return Interrupt.exitStatus
        }
        let report: SweepReport
        do {
            report = try SweepReport(definition: definition, baseVersion: baseConfiguration.version, points: planned.points,
                                     result: result, objectives: objectives, weights: weights)
        } catch {
            throw CLIError.usage("--weights: \(CompareCommand.describe(error))")
        }
        let stored = zip(planned.points, planned.candidates).map { point, c in
            StoredSweepPoint(point: point.number, values: definition.values(of: point).map { SweepValue(path: $0.path, value: $0.value) },
                             configuration: c.configuration, containerOverride: c.containerOverride)
        }
        let id = try SweepStore.save(report, base: baseConfiguration, points: stored, equals: options.equals,
                                     medianTapDurationMs: result.medianTapDurationMs, in: store)
        if !quiet {
            let wall = IngestCommand.seconds(ContinuousClock.now - started)
            let cpu = Self.cpuSeconds() - cpuStart
            var lines = [String(format: "sweep: %d sessions × %d configurations (%@ replays) in %.2f s (%.2f s of CPU) on %d thread%@",
                                result.sessions, configurations, Self.count(result.sessions * configurations), wall, cpu,
                                options.jobs, options.jobs == 1 ? "" : "s"),
                         "sweep: stored as sweep \(id) ('pressdb sweep --show \(id)')"]
            let failed = result.points.map(\.failures).reduce(result.base.failures, +)
            if failed > 0 { lines.append("sweep: \(counted(failed, "replay")) failed and \(failed == 1 ? "is" : "are") left out of their point's numbers") }
            for f in result.failures.prefix(5) { lines.append("sweep: session \(f.session) \(f.reason)") }
            printError(lines.joined(separator: "\n"))
        }
        let sweep = StoredSweep(id: id, createdAt: "", report: report, equals: options.equals,
                                medianTapDurationMs: result.medianTapDurationMs, base: baseConfiguration, points: stored)
        try write(sweep)
        return ExitCode.ok
    }

    /// The objectives named (or the defaults).
    static func objectives(_ names: [String]) throws -> [SweepObjective] {
        if names.isEmpty { return SweepObjective.defaults }
        var out: [SweepObjective] = []
        for n in names {
            do { out.append(try SweepObjective(parsing: n)) } catch { throw CLIError.usage("--objective \(error)") }
            if out.dropLast().contains(where: { $0.name == out.last!.name }) {
                throw CLIError.usage("--objective names \(n) twice")
            }
        }
        return out
    }

    /// One weight per objective: as given, else 1 each when none is given, else 0.
    static func weights(_ given: [Equality], objectives: [SweepObjective]) throws -> [Double] {
        if given.isEmpty { return objectives.map { _ in 1 } }
        var out = objectives.map { _ in 0.0 }
        for w in given {
            guard let i = objectives.firstIndex(where: { $0.name == w.key }) else {
                throw CLIError.usage("--weights \(w.key)=\(w.value): \(w.key) is not an objective; the objectives are "
                                     + objectives.map(\.name).joined(separator: ", ") + " (--objective sets them)")
            }
            guard let x = Double(w.value), x.isFinite, x >= 0 else {
                throw CLIError.usage("--weights \(w.key)=\(w.value): a weight is a number ≥ 0")
            }
            out[i] = x
        }
        guard out.contains(where: { $0 > 0 }) else { throw CLIError.usage("--weights: at least one weight must be above 0") }
        return out
    }

    // MARK: Stored sweeps

    func showStored(_ id: Int64, store: Store) throws -> Int32 {
        for option in [$vary, $sample, $filter, $objectives, $weights, $jobs] where option.wasGiven {
            throw CLIError.usage("\(option.displayName) does not apply with --show (the sweep is printed as it was stored)")
        }
        let sweep: StoredSweep
        do { sweep = try SweepStore.load(id, from: store) } catch let e as SweepStoreError {
            throw CLIError.empty("\(e)")
        }
        try write(sweep)
        return ExitCode.ok
    }

    func export(_ spec: String, store: Store) throws -> Int32 {
        let parts = spec.split(separator: ":")
        guard parts.count == 2, let id = Int64(parts[0]), let point = Int(parts[1]) else {
            throw CLIError.usage("--export-config needs ID:POINT (e.g. 3:12: point 12 of sweep 3), not '\(spec)'")
        }
        let sweep: StoredSweep
        do { sweep = try SweepStore.load(id, from: store) } catch let e as SweepStoreError {
            throw CLIError.empty("\(e)")
        }
        guard let p = sweep.points.first(where: { $0.point == point }) else {
            throw CLIError.usage("sweep \(id) has points 1 to \(sweep.points.count), not \(point)")
        }
        if let o = p.containerOverride, !quiet {
            printError("sweep: point \(point) also sets the container (\(ConfigurationJSON.encode(o).text)); a configuration "
                       + "cannot hold that: it is a property of the screen the button sits in")
        }
        if let d = p.values.first(where: { SweepPath.isDisplay($0.path) }), !quiet {
            printError("sweep: point \(point) also sets the display (\(d.value.text)); a configuration cannot hold that: it is "
                       + "the device the sessions are seen on (replay, report and compare take it as --display NAME)")
        }
        // Named after the sweep's id as stored (a sweep run alongside another may have taken the id
        // this one expected when it named its points).
        var configuration = p.configuration
        configuration.name = SweepDefinition.pointName(base: sweep.base.name, sweep: id, point: point)
        try emit(ConfigurationJSON.encode(configuration) + "\n", to: out, protecting: database.path)
        return ExitCode.ok
    }

    /// Renders a sweep in the chosen format.
    func write(_ sweep: StoredSweep) throws {
        if show != nil, top != nil, sweep.report.weights == nil {
            throw CLIError.usage("--top needs a ranked sweep: sweep \(sweep.id) was stored without --top")
        }
        let shownTop = top ?? (sweep.report.weights == nil ? nil : sweep.report.rows.count)
        let renderer = SweepRenderer(report: sweep.report, base: sweep.base, sweepID: sweep.id, top: shownTop)
        let text: String
        if let tabular = format.tabular {
            if tabular != .table && !quiet { printError(renderer.headline) }
            text = try renderer.render(tabular, options: .standardOutput(wide: wide, columns: columns, explain: explain,
                                                                         out: out))
        } else {
            do { text = try SweepPage.page(sweep, renderer: renderer, databasePath: database.path).render() } catch {
                throw CLIError.failure("cannot build the HTML page: \(error)")
            }
        }
        try emit(text, to: out, protecting: database.path)
    }

    // MARK: Helpers

    /// CPU time of this process so far, user and system, in seconds (getrusage).
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return s(usage.ru_utime) + s(usage.ru_stime)
    }

    /// 2,400,000 → "2.4 M".
    static func count(_ n: Int) -> String {
        n >= 1_000_000 ? String(format: "%.1f M", Double(n) / 1e6) : n >= 10_000 ? String(format: "%.0f k", Double(n) / 1e3) : String(n)
    }
}

/// The progress line on standard error while a sweep replays: the one line every long command
/// draws (`Progress`: bar, counts, rate, ETA), the grid's size after the counts; erased when done.
final class SweepProgress: Sendable {
    let enabled: Bool
    let configurations: Int
    private let progress: Progress

    init(enabled: Bool, configurations: Int) {
        self.enabled = enabled
        self.configurations = configurations
        progress = Progress("sweep", unit: .sessions, enabled: enabled)
    }

    func show(_ done: Int, _ total: Int) {
        progress.counted(done, of: total, detail: "× \(PressCore.counted(configurations, "configuration"))")
    }

    func clear() { progress.clear() }
}
