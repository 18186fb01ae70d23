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
        guard database.exists else { throw database.missing }
        let store = try database.openStore()
        let catalog = try database.writing { try ConfigurationCatalog(store: store) }
        guard let profile = catalog.display(named: name) else {
            throw CLIError.usage("--display: no display profile named '\(name)' (known: "
                + catalog.allDisplays.map(\.name).joined(separator: ", ") + "); add one with 'pressdb displays add FILE.json'")
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
                try Partial(store: store, catalog: catalog, display: profile.display, replayedAs: target, progress: progress.replayed)
            }
        } catch let e as PartialError {
            throw CLIError.failure("\(database.path): \(e.message)")
        }
    }
}
