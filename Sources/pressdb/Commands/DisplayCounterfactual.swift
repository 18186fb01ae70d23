// `--display NAME` on report and compare: the names resolved and the stored sessions replayed on
// that profile into a partial (Partial(store:catalog:display:replayedAs:)), which the commands
// then read as they read `--from PARTIAL`.
import PressCore
import PressStore
import PressAnalysis

enum DisplayCounterfactual {
    /// Every stored session of `database` replayed on display profile `name`, under its own
    /// configuration or as `replayedAs`.
    static func partial(_ database: DatabasePath, display name: String, replayedAs: String?) throws -> Partial {
        try partial(database, display: name, stalls: nil, replayedAs: replayedAs).partial
    }

    /// The same on display `name` (nil: each session's own), with the main-thread stalls of
    /// `stalls` when given (`report --stalls`), and what they did to the presses.
    static func partial(_ database: DatabasePath, display name: String?, stalls: StallProfile?,
                        replayedAs: String?) throws -> (partial: Partial, stalls: StallTally) {
        guard database.exists else { throw database.missing }
        let store = try database.openStore()
        let catalog = try database.writing { try ConfigurationCatalog(store: store) }
        var display: Display? = nil
        if let name {
            guard let profile = catalog.display(named: name) else {
                throw CLIError.usage("--display: no display profile named '\(name)' (known: "
                    + catalog.allDisplays.map(\.name).joined(separator: ", ") + "); add one with 'pressdb displays add FILE.json'")
            }
            display = profile.display
        }
        var target: PressConfiguration? = nil
        if let replayedAs {
            guard let c = catalog.resolve(replayedAs) else { throw unknownConfiguration(replayedAs, catalog, option: "--as") }
            target = c
        }
        if try database.writing({ try store.sessionCount() }) == 0 {
            throw CLIError.empty("the database \(database.path) holds no sessions; ingest a log first ('pressdb ingest FILE')")
        }
        let progress = Progress("replay", unit: .sessions, enabled: Progress.shown(quiet: false))
        defer { progress.clear() }
        do {
            return try database.writing {
                try Partial.replayed(store: store, catalog: catalog, display: display, stalls: stalls, replayedAs: target,
                                     progress: progress.replayed)
            }
        } catch let e as PartialError {
            throw CLIError.failure("\(database.path): \(e.message)")
        }
    }
}
