// Replay over the database: read stored sessions, run each through `Replay.session` under its
// own configuration (or another one, counterfactually), write `results` in batches.
import PressCore
import PressFormats
import PressSQLite
import PressStore

/// How to replay.
public struct ReplayOptions: Sendable {
    /// The display of sessions that name none (the `iphone-60hz` profile's, `Display()`).
    public var display: Display
    /// The display every session is replayed on, whatever it names (`--display`, `--refresh-rate`,
    /// `--density`: a counterfactual "how would these presses look there"); nil: each session's own.
    public var displayOverride: Display?
    /// Profiles sessions may name beyond the built-in ones (`pressdb displays add`), by name.
    public var profiles: [String: DisplayProfile] = [:]
    /// The configuration of sessions that name none (`--config`, default
    /// `Replay.defaultConfiguration`, `spring-press`).
    public var defaultConfig: String
    /// The container of sessions that name none (default `Replay.defaultContainer`, `none`).
    public var defaultContainer: Container
    /// Result rows per transaction.
    public var batchSize: Int
    /// Asked after each batch is written: true ends the replay there (`ReplaySummary.stopped`);
    /// the sessions left have no result yet, and `replayMissing` finds them next time. For Ctrl-C.
    public var shouldStop: (@Sendable () -> Bool)?
    /// Whether results are written to `results`. Off for a replay on another display than the
    /// session's own (`displayOverride`): `results` holds one row per session and configuration
    /// version, measured on the session's display, and a report must not mix displays.
    public var storesResults = true
    /// Main-thread stalls sampled into every replay (`--stalls`; docs/press-model.md §8), each
    /// session drawing its own by its id; nil: none, the model as it is. Results with stalls are
    /// not stored (set `storesResults` off).
    public var stalls: StallProfile?
    /// Called after each batch with the sessions handled so far and the total the call will
    /// handle (`replayMissing`: every session without its result, over all configurations), for
    /// a progress display. Nil: nothing is counted.
    public var progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?
    public init(display: Display = Display(), defaultConfig: String = Replay.defaultConfiguration.name,
                defaultContainer: Container = Replay.defaultContainer, batchSize: Int = 5_000) {
        self.display = display; self.defaultConfig = defaultConfig
        self.defaultContainer = defaultContainer; self.batchSize = batchSize
    }
}

extension ReplayOptions {
    /// The display `attributes`' session is replayed on: `displayOverride`, else the profile its
    /// `display` names (built in or in `profiles`), else `display`.
    /// - Throws: `UnknownDisplayError` for a name that is neither.
    @inlinable public func display(for attributes: SessionAttributes) throws(UnknownDisplayError) -> Display {
        if let displayOverride { return displayOverride }
        guard let name = attributes[.display] else { return display }
        if let p = DisplayProfile.builtIn(named: name) ?? profiles[name] { return p.display }
        throw UnknownDisplayError(name: name)
    }
}

/// A session names a display profile that is neither built in nor added.
public struct UnknownDisplayError: Error, Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public init(name: String) { self.name = name }
    public var description: String {
        "it names display \(JSONText.string(name)), which is neither built in (\(DisplayProfile.builtIn.map(\.name).joined(separator: ", "))) "
            + "nor added; add it with 'pressdb displays add FILE.json', then run 'pressdb replay'"
    }
}

/// What a replay run did.
public struct ReplaySummary: Sendable {
    /// Sessions replayed (results written).
    public var replayed = 0
    /// Sessions naming a configuration that is neither a preset nor stored, per name: not replayed.
    public var unknownConfigs: [String: Int] = [:]
    /// Sessions that could not be replayed (e.g. a zero-sized frame), with the reason; at most 20 kept.
    public var failures: [(session: String, reason: String)] = []
    public var failureCount = 0
    /// `ReplayOptions.shouldStop` ended the replay early.
    public var stopped = false
}

/// Replays stored sessions and stores their results.
///
///     let replayer = Replayer(store: store, catalog: try ConfigurationCatalog(store: store))
///     let summary = try replayer.replayMissing()          // every session without its result
///     try replayer.replay(SessionFilter(), as: .expandDelayedClick) { session, row in … }
public final class Replayer {
    public let store: Store
    public let catalog: ConfigurationCatalog
    public var options: ReplayOptions

    /// `options.profiles`, when empty, become the catalog's added display profiles.
    public init(store: Store, catalog: ConfigurationCatalog, options: ReplayOptions = ReplayOptions()) {
        self.store = store; self.catalog = catalog; self.options = options
        if options.profiles.isEmpty { self.options.profiles = catalog.displays }
    }

    /// The configuration a session ran under: its own `config`, else the default.
    public func configurationName(of session: StoredSession) -> String {
        session.attributes.config ?? options.defaultConfig
    }

    /// Replays one session under `configuration` (pure; nothing is written).
    /// - Throws: `AnimationParameterError` for geometry or animation parameters that cannot be
    ///   measured (e.g. a zero-sized frame).
    public func result(of session: StoredSession, under configuration: PressConfiguration,
                       counterfactual: Bool) throws -> ResultRow {
        try Replayer.row(id: session.id, samples: session.samples, attributes: session.attributes,
                         under: configuration, counterfactual: counterfactual, options: options)
    }

    /// The result row of session `id` from its samples and attributes as stored (ingest replays
    /// the sessions it stores from memory, without reading them back, through this too): its
    /// frame, its container or `options.defaultContainer`, its scroll axis or
    /// `Replay.defaultScrollAxis`, on `options.display`.
    /// - Throws: `AnimationParameterError` (see `result(of:under:counterfactual:)`).
    static func row(id: Int64, samples: [TouchSample], attributes: SessionAttributes, under configuration: PressConfiguration,
                    counterfactual: Bool, options: ReplayOptions) throws -> ResultRow {
        let display = try options.display(for: attributes)
        if let stalls = options.stalls {
            var sampler = stalls.sampler(index: UInt64(bitPattern: id), refreshRate: display.refreshRate)
            let r = try Replay.session(samples, attributes: attributes, defaultContainer: options.defaultContainer,
                                       configuration: configuration, display: display, stalls: &sampler)
            var row = ResultRow(sessionID: id, configuration: configuration, counterfactual: counterfactual, result: r.stalled)
            row.stallEffect = StallEffect(baseline: r.baseline, stalled: r.stalled)
            return row
        }
        let r = try Replay.session(samples, attributes: attributes, defaultContainer: options.defaultContainer,
                                   configuration: configuration, display: display)
        return ResultRow(sessionID: id, configuration: configuration, counterfactual: counterfactual, result: r)
    }

    /// Replays every session that has no result for the current version of its own
    /// configuration (what `pressdb ingest` runs after storing, and what `pressdb replay` does
    /// without `--as`). Re-running after an interrupted ingest completes what is missing.
    ///
    /// `replayed`: sessions known to have their results (an ingest run's,
    /// `IngestSummary.replayedSessions`), not probed when asking whether a configuration has
    /// anything missing, wherever the version they were replayed under is the configuration's
    /// current one and the default configuration is the same. The sessions replayed are the
    /// same either way: the ones without a result.
    @discardableResult
    public func replayMissing(excluding replayed: ReplayedSessions? = nil,
                              _ each: ((StoredSession, ResultRow) -> Void)? = nil) throws -> ReplaySummary {
        var summary = ReplaySummary()
        let configNames = try storedConfigurationNames()
        var counter = ProgressCounter(report: options.progress)
        // Whether a configuration has a session without its result, asked once per name: the
        // question scans the configuration's sessions, and the progress count below (asked for
        // by `pressdb ingest` also when it shows no progress) counted them all a second time;
        // now only a configuration with something missing is counted.
        var missing: [String: Bool] = [:]
        func isMissing(_ name: String, _ configuration: PressConfiguration) throws -> Bool {
            if let known = missing[name] { return known }
            var known: ClosedRange<Int64>?
            if let replayed, replayed.defaultConfig == options.defaultConfig,
               replayed.versions[name] == configuration.version { known = replayed.ids }
            let answer = try anyMissing(name, version: configuration.version, outside: known)
            missing[name] = answer
            return answer
        }
        if counter.report != nil {
            for name in configNames {
                guard let configuration = catalog.resolve(name), try isMissing(name, configuration) else { continue }
                var filter = SessionFilter(config: name, withoutResultForConfigVersion: configuration.version)
                filter.defaultConfig = options.defaultConfig
                counter.total += try store.sessionCount(filter)
            }
        }
        for name in configNames where !summary.stopped {
            var filter = SessionFilter(config: name)
            filter.defaultConfig = options.defaultConfig
            guard let configuration = catalog.resolve(name) else {
                let n = try store.db.prepare("SELECT count(*) FROM sessions WHERE coalesce(config, ?) = ?")
                n.bind(1, options.defaultConfig); n.bind(2, name)
                summary.unknownConfigs[name, default: 0] += Int(try n.scalarInt() ?? 0)
                continue
            }
            // Usually nothing is missing (ingest replays what it stores): found through the
            // config index and the results key, without reading any session.
            guard try isMissing(name, configuration) else { continue }
            filter.withoutResultForConfigVersion = configuration.version
            try run(filter, &summary, &counter, each) { _ in (configuration, false) }
        }
        return summary
    }

    /// The distinct configuration names of the stored sessions (those naming none count as
    /// `options.defaultConfig`): the default first when some session names none, then the names
    /// in `sessions_by_config`'s order — the rows `SELECT DISTINCT coalesce(config, ?) FROM
    /// sessions` gives, in its order. Each name is found by one seek of the index (a skip-scan
    /// written as a recursive CTE, sqlite.org/lang_with.html), where `DISTINCT` read every entry
    /// of it, a cost that grew with the database.
    private func storedConfigurationNames() throws -> [String] {
        var out: [String] = []
        if try store.cached("SELECT EXISTS (SELECT 1 FROM sessions WHERE config IS NULL)").scalarInt() == 1 {
            out.append(options.defaultConfig)
        }
        let names = try store.cached("""
            WITH RECURSIVE name(config) AS (
                SELECT min(config) FROM sessions
                UNION ALL
                SELECT (SELECT min(config) FROM sessions WHERE config > name.config) FROM name WHERE name.config IS NOT NULL)
            SELECT config FROM name WHERE config IS NOT NULL
            """)
        defer { names.reset() }
        while try names.step() {
            let name = names.text(0)
            if !out.contains(name) { out.append(name) }
        }
        return out
    }

    /// True when some session of configuration `name` (sessions naming none count as the
    /// default's) has no result for `version`. Sessions with an id in `known` have theirs
    /// (`ReplayedSessions`) and are not looked at.
    ///
    /// The question probes the results key once for every session it looks at. The sessions
    /// outside `known` are two ranges of the
    /// `sessions_by_config` index (`config = ?1 AND rowid < ?3`, `… AND rowid > ?4`), found
    /// with a seek each.
    private func anyMissing(_ name: String, version: String, outside known: ClosedRange<Int64>?) throws -> Bool {
        let missing = "NOT EXISTS (SELECT 1 FROM results r WHERE r.session_id = sessions.id AND r.config_version = ?2)"
        func ask(_ config: String) throws -> Bool {
            let s = try store.cached("""
                SELECT EXISTS (SELECT 1 FROM sessions WHERE \(config) AND id < ?3 AND \(missing))
                    OR EXISTS (SELECT 1 FROM sessions WHERE \(config) AND id > ?4 AND \(missing))
                """)
            s.bind(1, name)
            s.bind(2, version)
            // Without `known`, the two ranges are every id (below the largest, and the largest).
            s.bind(3, known?.lowerBound ?? Int64.max)
            s.bind(4, known?.upperBound ?? Int64.max - 1)
            return try s.scalarInt() == 1
        }
        if try ask("config = ?1") { return true }
        guard name == options.defaultConfig else { return false }
        return try ask("config IS NULL")
    }

    /// Replays the sessions `filter` selects: under `configuration` when given (a counterfactual
    /// result unless it is the session's own configuration), else under their own. Existing
    /// results for the same configuration version are replaced by identical ones (replay is
    /// deterministic).
    @discardableResult
    public func replay(_ filter: SessionFilter, as configuration: PressConfiguration? = nil,
                       _ each: ((StoredSession, ResultRow) -> Void)? = nil) throws -> ReplaySummary {
        var summary = ReplaySummary()
        var f = filter
        f.defaultConfig = options.defaultConfig
        var counter = ProgressCounter(report: options.progress)
        if counter.report != nil { counter.total = try store.sessionCount(f) }
        // Each name resolved once, not once per session.
        var resolved: [String: PressConfiguration?] = [:]
        try run(f, &summary, &counter, each) { session in
            let name = self.configurationName(of: session)
            let own: PressConfiguration?
            if let known = resolved[name] { own = known } else {
                own = self.catalog.resolve(name)
                resolved[name] = own
            }
            if let configuration { return (configuration, own?.version != configuration.version) }
            return own.map { ($0, false) }
        }
        return summary
    }

    /// Sessions handled of the total, for `ReplayOptions.progress`.
    struct ProgressCounter {
        let report: (@Sendable (Int, Int) -> Void)?
        var done = 0
        var total = 0
        mutating func add(_ n: Int) {
            done += n
            report?(done, max(total, done))
        }
    }

    /// The connection's setting while a replay writes results, put back when it ends:
    /// `ignore_check_constraints = ON`, on the guarantee `IngestWriter.connectionSettings` gives
    /// for it (every `outcome` and `cancel_reason` written is the raw value of `PressOutcome` or
    /// `CancelReason`, whose cases are the values the `CHECK`s list; a test compares them). With
    /// the checks on, SQLite built a temporary B-tree of each `IN` list for every row written.
    static let connectionSettings: [(name: String, value: String)] = [("ignore_check_constraints", "ON")]

    private func run(_ filter: SessionFilter, _ summary: inout ReplaySummary, _ counter: inout ProgressCounter,
                     _ each: ((StoredSession, ResultRow) -> Void)?,
                     choose: (StoredSession) -> (PressConfiguration, Bool)?) throws {
        let settings = options.storesResults ? try store.db.settingPragmas(Replayer.connectionSettings) : nil
        defer { settings?.restore() }
        // Sessions are read a page at a time and the cursor is closed before the page's results
        // are written: a read kept open across a write would pin an old snapshot, and in WAL
        // mode upgrading it to write fails at once (SQLITE_BUSY_SNAPSHOT, no busy wait) as soon
        // as another process (a concurrent ingest) has committed since.
        var page = filter
        var batch: [ResultRow] = []
        batch.reserveCapacity(options.batchSize)
        while true {
            var sessions: [StoredSession] = []
            do {
                let cursor = try store.sessions(page)
                while sessions.count < options.batchSize, let s = try cursor.next() { sessions.append(s) }
            }
            guard let last = sessions.last else { break }
            page.afterID = last.id
            for session in sessions {
                guard let (configuration, counterfactual) = choose(session) else {
                    summary.unknownConfigs[configurationName(of: session), default: 0] += 1
                    continue
                }
                do {
                    let row = try result(of: session, under: configuration, counterfactual: counterfactual)
                    batch.append(row)
                    each?(session, row)
                } catch {
                    summary.failureCount += 1
                    if summary.failures.count < 20 { summary.failures.append((session.session, "\(error)")) }
                }
            }
            if !batch.isEmpty {
                if options.storesResults { try store.writeResults(batch) }
                summary.replayed += batch.count
                batch.removeAll(keepingCapacity: true)
            }
            counter.add(sessions.count)
            if sessions.count < options.batchSize { break }
            if let stop = options.shouldStop, stop() { summary.stopped = true; return }
        }
    }
}
