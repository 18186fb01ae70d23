// `pressdb displays [add FILE.json]`: the display profiles replay samples frames on and measures
// touch-to-photon latency with (docs/press-model.md §6).
import Foundation
import PressCore
import PressFormats
import PressStore
import PressIngest

struct DisplaysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "displays",
        abstract: "List the display profiles, or add one from a JSON file.",
        discussion: """
        A profile is the device a press is seen on: the refresh rate animations are sampled at
        (ProMotion: a range, animations at its highest), how often the touch screen samples a
        finger, how touches are delivered (once per frame), the frames from a rendered frame to
        the glass, and the pixel density. Sessions name theirs with the attribute "display"
        (default iphone-60hz); 'pressdb replay --display NAME' replays under another.

          pressdb displays                   lists the built-in profiles and those added
          pressdb displays add FILE.json|-   stores a profile (or an array of them); sessions
                                             naming a changed one are replayed again

        input_delay_ms is the mean wait from contact to delivery (half a sampling period, plus
        half a frame for per-frame delivery); pipeline_ms the frames from render to glass.
        Every value and its source: docs/press-model.md §6. A profile file:
          {"name":"my-tablet","refresh_rate":[24,120],"touch_sampling_rate":120,
           "delivery":"per_frame","pipeline_frames":1,"density":2}
        """
    )

    @Argument(name: "add", help: "'add' to store the profiles of FILE") var action: String?
    @Argument(name: "FILE", help: "With add: a JSON file ('-' for standard input)") var file: String?
    @Option(.database) var database: DatabasePath
    @Option(.format([OutputFormat.table, .csv, .json, .markdown])) var format: OutputFormat
    @Flag(.quiet) var quiet: Bool
    @Flag(.wide) var wide: Bool
    @Option(.columns) var columns: [String]
    @Flag(.explain) var explain: Bool

    func validate() throws {
        if let action, action != "add" { throw CLIError.usage("the only action is 'add' (to list, give none), not '\(action)'") }
        if action != nil && file == nil { throw CLIError.usage("displays add needs a JSON file ('-' for standard input)") }
    }

    func run() throws -> Int32 {
        if action == "add", let file { return try add(file) }
        var catalog: ConfigurationCatalog? = nil
        var counts: [String: Int] = [:]
        if database.exists {
            let store = try database.openStore()
            catalog = try ConfigurationCatalog(store: store)
            let s = try store.db.prepare("SELECT coalesce(display, ?1), count(*) FROM sessions GROUP BY 1")
            s.bind(1, DisplayProfile.default.name)
            while try s.step() { counts[s.text(0)] = s.int(1) }
        }
        let profiles = catalog?.allDisplays ?? DisplayProfile.builtIn
        var table = ResultTable(columns: [
            Column("name"), Column("refresh_hz", .exact), Column("min_refresh_hz", .exact), Column("touch_hz", .exact),
            Column("delivery"), Column("pipeline_frames", .integer), Column("density", .exact),
            Column("input_delay_ms", .milliseconds), Column("pipeline_ms", .milliseconds), Column("origin"),
            Column("sessions", .integer),
        ])
        for p in profiles {
            let d = p.display
            table.rows.append([
                .text(p.name), .double(p.refreshRate), .double(p.minimumRefreshRate), .double(p.touchSamplingRate),
                .text(p.delivery.rawValue), .int(p.pipelineFrames), .double(p.density),
                .double(PhotonLatency.inputDelay(d) * 1000), .double(PhotonLatency.pipelineDelay(d) * 1000),
                .text(DisplayProfile.builtIn(named: p.name) != nil ? "built-in" : "stored"),
                database.exists ? .int(counts[p.name] ?? 0) : .null,
            ])
        }
        guard format == .table else {
            try emit(Render.render(table, as: format))
            return ExitCode.ok
        }
        let (shown, cells) = TerminalTable.shownColumns(table.columns)
        let rows = table.rows.map(cells)
        let layout = try TerminalTable(columns: shown, rows: rows, presentation: TablePresentation(),
                                       options: .standardOutput(wide: wide, columns: columns, explain: explain))
        try emit(layout.render(rows))
        return ExitCode.ok
    }

    private func add(_ file: String) throws -> Int32 {
        let text = try TextArgument.read(file)
        let profiles: [DisplayProfile]
        do { profiles = try DisplayProfileJSON.parseFile(text) } catch { throw CLIError.failure("\(file): \(error)") }
        let store = try database.openStore()
        let catalog = try ConfigurationCatalog(store: store)
        var changed: [DisplayProfile] = []
        do {
            try database.writing {
                try store.db.transaction {
                    for p in profiles where try catalog.addDisplay(p) {
                        changed.append(p)
                        // Results measured on the old definition no longer hold.
                        try store.deleteResults(where: "r.session_id IN (SELECT id FROM sessions WHERE display = ?1)", [.text(p.name)])
                    }
                }
            }
        } catch let e as DisplayCatalogError {
            throw CLIError.failure("\(file): \(e)")
        }
        let replayer = Replayer(store: store, catalog: catalog)
        let progress = Progress("replay", unit: .sessions, enabled: Progress.shown(quiet: quiet))
        replayer.options.progress = progress.replayed
        let summary = try database.writing { try replayer.replayMissing() }
        progress.clear()
        if !quiet {
            var lines = profiles.map { p in
                changed.contains(p) ? "displays: added \(p.name)" : "displays: \(p.name) is already current"
            }
            if summary.replayed > 0 { lines += ReplayCommand.describe(summary) }
            printError(lines.joined(separator: "\n"))
        }
        return summary.failureCount > 0 ? ExitCode.failure : ExitCode.ok
    }
}
