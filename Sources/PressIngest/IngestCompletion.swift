// What follows an ingest's reading: the configurations its records carried, imported, and the
// replay of every session still without its result; or, for a strict run that rejected
// something, the database it created taken away again. The commands call these; the rules are
// ingest's.
import Foundation
import PressCore
import PressFormats
import PressSQLite
import PressStore

public enum IngestCompletion {
    /// Imports the configurations from the run's `{"type":"config"}` records, then replays every
    /// session that has no result under its own configuration yet (this run's, and any an
    /// interrupted run left), counting in the sessions the run replayed as it stored them.
    /// Returns the rejected configuration records, what was replayed and the configuration names
    /// known afterwards (for a nearest-name hint on an unknown one).
    /// - Throws: `DatabaseError`, `ReplayError` and what replay throws.
    public static func importConfigurationsAndReplay(
        store: Store, summary: IngestSummary, defaultConfig: String?,
        shouldStop: (@Sendable () -> Bool)?, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?
    ) throws -> (configRejects: [Reject], replayed: ReplaySummary, knownConfigurations: [String]) {
        let catalog = try ConfigurationCatalog(store: store)
        let configRejects = try catalog.importConfigRecords()
        var replayOptions = ReplayOptions(defaultConfig: defaultConfig ?? PressConfiguration.springPress.name)
        replayOptions.shouldStop = shouldStop
        replayOptions.progress = progress
        let replayer = Replayer(store: store, catalog: catalog, options: replayOptions)
        var replayed = try replayer.replayMissing(excluding: summary.replayedSessions)
        replayed.replayed += summary.sessionsReplayed
        return (configRejects, replayed, Array(catalog.current.keys))
    }

    /// A strict run writes nothing: the database at `path`, which the run created, is removed
    /// again with its `-wal` and `-shm` (best effort).
    public static func discardDatabase(createdAt path: String) {
        for file in Schema.files(of: path) { try? FileManager.default.removeItem(atPath: file) }
    }
}
