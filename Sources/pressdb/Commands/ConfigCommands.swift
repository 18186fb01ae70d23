// `pressdb config add|show` and `pressdb configs`: the configurations a database knows.
import Foundation
import PressCore
import PressFormats
import PressStore
import PressIngest

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "config",
        abstract: "Add a configuration from a JSON file, or show one as canonical JSON.",
        discussion: """
          pressdb config add FILE.json|-   stores the configuration (or array of configurations)
                                           in FILE; a changed definition gets a new version, and
                                           old results keep theirs. Sessions naming it are
                                           replayed.
          pressdb config show NAME         prints NAME's current definition as canonical JSON.

        The JSON schema, with the three presets written out: docs/configurations.md. Start from
        a preset with "base":
          {"type":"config","name":"soft-press","base":"spring-press","pressed_scale":0.97}
        """
    )

    @Argument(name: "add|show", help: "What to do") var action: String
    @Argument(name: "FILE|NAME", help: "A JSON file ('-' for standard input), or a configuration name") var target: String
    @Option(.database) var database: DatabasePath
    @Flag(.quiet) var quiet: Bool

    func run() throws -> Int32 {
        let store = try database.openStore()
        let catalog = try ConfigurationCatalog(store: store)
        switch action {
        case "show":
            guard let c = catalog.resolve(target) else { throw unknownConfiguration(target, catalog) }
            // A name may hold characters a terminal acts on: printed as \u escapes.
            print(String(decoding: JSONText.escapingInvisible(Array(ConfigurationJSON.encode(c).utf8)), as: UTF8.self))
            return ExitCode.ok
        case "add":
            let text = try TextArgument.read(target)
            let configurations: [PressConfiguration]
            do { configurations = try ConfigurationJSON.parseFile(text, bases: catalog.bases) } catch {
                throw CLIError.failure("\(target): \(error)")
            }
            var changed: [PressConfiguration] = []
            do {
                try database.writing {
                    try store.db.transaction {
                        for c in configurations where try catalog.add(c) { changed.append(c) }
                    }
                }
            } catch let e as CatalogError {
                throw CLIError.failure("\(target): \(e)")
            }
            let replayer = Replayer(store: store, catalog: catalog)
            let progress = Progress("replay", unit: .sessions, enabled: Progress.shown(quiet: quiet))
            replayer.options.progress = progress.replayed
            let summary = try database.writing { try replayer.replayMissing() }
            progress.clear()
            if !quiet {
                var lines = configurations.map { c in
                    changed.contains(c) ? "config: added \(c.name) version \(c.version)"
                                        : "config: \(c.name) version \(c.version) is already current"
                }
                if summary.replayed > 0 { lines += ReplayCommand.describe(summary) }
                printError(lines.joined(separator: "\n"))
            }
            return ExitCode.ok
        default:
            throw CLIError.usage("the first argument is 'add' or 'show', not '\(action)'")
        }
    }
}

struct ConfigsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "configs",
        abstract: "List the configurations: the built-in presets and those added.",
        discussion: """
        One row per configuration name: its current version (a hash of its definition), where
        it comes from (preset or stored), how many versions are stored, its gesture model,
        feedback (scale, opacity or color), pressed value, press and release animations, action rule and delay, and how many stored
        sessions name it.
        """
    )

    @Option(.database) var database: DatabasePath
    @Option(.format([OutputFormat.table, .csv, .json, .markdown])) var format: OutputFormat
    @Flag(.wide) var wide: Bool
    @Option(.columns) var columns: [String]
    @Flag(.explain) var explain: Bool

    /// The terminal table: name, use and animations first; the animations' text may be cut.
    static let presentation = TablePresentation(
        key: ["name", "sessions", "gesture", "feedback", "pressed_scale", "press_animation", "release_animation", "action",
              "press_animation+", "release_animation+", "action_delay", "origin"],
        cut: ["press_animation": 14, "release_animation": 14])

    static func animationName(_ a: AnimationSpec) -> String {
        switch a {
        case let .uiViewSpring(d, z, v): return "UIView spring \(Render.full(d)) s, ζ \(Render.full(z)), v \(Render.full(v))"
        case let .uiViewCurve(d, curve): return "UIView \(Render.full(d)) s \(curveName(curve))"
        case let .caSpring(m, k, c, v, d, _): return "CASpring m \(Render.full(m)) k \(Render.full(k)) c \(Render.full(c)) v \(Render.full(v)), cut \(Render.full(d)) s"
        case let .caBasic(d, curve, _): return "CABasic \(Render.full(d)) s \(curveName(curve))"
        case let .swiftUISpring(r, z): return "SwiftUI spring response \(Render.full(r)) s, ζ \(Render.full(z))"
        }
    }

    static func curveName(_ c: TimingCurve) -> String {
        switch c {
        case .linear: return "linear"
        case .easeIn: return "ease-in"
        case .easeOut: return "ease-out"
        case .easeInEaseOut: return "ease-in-ease-out"
        case .default: return "default"
        case let .cubicBezier(x1, y1, x2, y2): return "bezier(\(x1), \(y1), \(x2), \(y2))"
        }
    }

    func run() throws -> Int32 {
        let store = try database.openStore()
        let catalog = try ConfigurationCatalog(store: store)
        var counts: [String: Int] = [:]
        let s = try store.db.prepare("SELECT config, count(*) FROM sessions WHERE config IS NOT NULL GROUP BY config")
        while try s.step() { counts[s.text(0)] = s.int(1) }
        // Parameters are shown as given (they are definitions, not measurements).
        var table = ResultTable(columns: [
            Column("name"), Column("version"), Column("origin"), Column("versions", .integer), Column("gesture"),
            Column("feedback"), Column("pressed_scale", .exact), Column("press_animation"), Column("release_animation"),
            Column("action"), Column("action_delay", .exact), Column("sessions", .integer),
        ])
        for name in catalog.current.keys.sorted() {
            let (c, origin) = catalog.current[name]!
            table.rows.append([
                .text(name), .text(c.version), .text(origin.rawValue), .int(try catalog.versions(name).count),
                .text(c.gesture.name), .text(c.animation.feedback.name), .double(c.animation.pressedScale), .text(Self.animationName(c.animation.press)),
                .text(Self.animationName(c.animation.release)), .text(c.actionRule.rawValue), .double(c.actionDelay),
                .int(counts[name] ?? 0),
            ])
        }
        guard format == .table else {
            try emit(Render.render(table, as: format))
            return ExitCode.ok
        }
        let (columns, cells) = TerminalTable.shownColumns(table.columns)
        let rows = table.rows.map(cells)
        let layout = try TerminalTable(columns: columns, rows: rows, presentation: Self.presentation,
                                       options: .standardOutput(wide: wide, columns: self.columns, explain: explain))
        try emit(layout.render(rows))
        return ExitCode.ok
    }
}
