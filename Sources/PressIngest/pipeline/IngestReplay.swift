// Replay during ingest (`IngestOptions.replayStoredSessions`): each session ingest stores is
// replayed from memory on a worker thread while ingest goes on, and its result row is written
// on the ingesting thread before the transaction holding the session commits.
import Dispatch
import PressCore
import PressFormats
import PressSQLite
import PressStore

/// One stored session to replay on the worker: everything `Replayer.row` needs, by value.
struct ReplayJob: Sendable {
    var id: Int64
    var samples: [TouchSample]
    var attributes: SessionAttributes
    var configuration: SharedConfiguration
}

/// A configuration held by reference, shared by every job replayed under it: a job copies one
/// reference, where a copy of the struct retained each of its fields.
final class SharedConfiguration: Sendable {
    let value: PressConfiguration
    init(_ value: PressConfiguration) { self.value = value }
}

/// Sessions an ingest run stored and replayed itself, their result rows written in the same
/// transactions (`IngestSummary.replayedSessions`): every session with an id in `ids` whose
/// configuration — its `config`, else `defaultConfig` — is a key of `versions` has its row
/// under that version. `Replayer.replayMissing(excluding:)` then looks for missing results only
/// among the other sessions.
public struct ReplayedSessions: Sendable, Hashable {
    /// `sessions.id`s of the run's new sessions.
    public var ids: ClosedRange<Int64>
    /// The configuration of sessions that name none, as the run replayed them.
    public var defaultConfig: String
    /// Configuration name → the version (`PressConfiguration.version`) its sessions were
    /// replayed under.
    public var versions: [String: String]
}

/// A job's result row, and its session's report keys for the summary cells (made here, on the
/// worker's thread).
struct ReplayedRow: Sendable {
    var row: ResultRow
    var sessionKeys: SessionKeys
}

/// Replays jobs on a thread of its own (pure work: no database), handing the result rows back
/// in submission order, through two `BlockingQueue`s. The ingesting thread submits batches of
/// jobs and takes rows.
final class ReplayWorker: @unchecked Sendable {
    private let jobs = BlockingQueue<[ReplayJob]>(capacity: .max)
    /// Rows done, a batch per batch of jobs, in submission order; nil for a session that cannot
    /// be replayed.
    private let rows = BlockingQueue<[ReplayedRow?]>(capacity: .max)
    /// Batches submitted and not yet taken back (touched by the ingesting thread only).
    private var outstanding = 0
    private let stopped = DispatchSemaphore(value: 0)
    private var isStopped = false
    private let options: ReplayOptions

    init(options: ReplayOptions) {
        self.options = options
        ThreadWork(niceness: ThreadWork.feederNiceness) { self.work() }.start()
    }

    /// Queues `batch` for replay.
    func submit(_ batch: [ReplayJob]) {
        guard !batch.isEmpty else { return }
        outstanding += 1
        jobs.push(batch)
    }

    /// The rows finished so far (`all`: waits until every submitted job is finished), in
    /// submission order; nil marks a session that cannot be replayed.
    func take(all: Bool) -> [ReplayedRow?] {
        var done: [ReplayedRow?] = []
        while outstanding > 0, let batch = rows.pop(timeout: all ? nil : .zero) {
            outstanding -= 1
            done += batch
        }
        return done
    }

    /// Ends the worker thread (after the jobs already queued) and waits for it.
    func stop() {
        guard !isStopped else { return }
        isStopped = true
        jobs.close()
        stopped.wait()
    }

    /// Distinct session keys kept for sharing (`work`) before the set starts again (checked per
    /// batch of jobs, so it may pass this by a batch): `IngestTuning.sharedKeysLimit`.
    static var sharedKeysLimit: Int { IngestTuning.sharedKeysLimit }

    private func work() {
        // Sessions with the same report keys are given one shared array of them: the ingesting
        // thread then compares keys by identity in the summary cells' dictionary and only
        // releases a reference when it is done with a row, where a new array each freed the
        // keys' strings and the array on that thread.
        var shared = Set<SessionKeys>()
        while let batch = jobs.pop() {
            if shared.count > Self.sharedKeysLimit { shared.removeAll(keepingCapacity: true) }
            rows.push(batch.map { job in
                (try? Replayer.row(id: job.id, samples: job.samples, attributes: job.attributes,
                                   under: job.configuration.value, counterfactual: false, options: options))
                    .map { ReplayedRow(row: $0, sessionKeys: shared.insert(SessionKeys(of: job.attributes)).memberAfterInsert) }
            })
        }
        stopped.signal()
    }
}

/// Replays sessions as ingest stores them: the samples and attributes are in memory, so nothing
/// is read back. The rows are exactly `Replayer.replayMissing`'s: same configuration (the
/// catalog as the run starts), same version, same replay of the same values, written in the
/// same order; a session is never committed without its result.
final class StoredSessionReplay {
    let store: Store
    let replayer: Replayer
    /// Highest `sessions.id` before this run: rows above it are this run's.
    let firstNewID: Int64
    /// Resolved configurations (nil: unknown, or possibly redefined by this run), by name.
    private var chosen: [String: SharedConfiguration?] = [:]
    /// The last name `replay` resolved and what it resolved to: sessions of one configuration
    /// often follow one another, and comparing a name costs less than hashing it.
    private var last: (name: String, configuration: SharedConfiguration?)?
    private var redefined: Set<String> = []
    /// Whether the worker gave some job back without a row (a session that cannot be replayed,
    /// left to `replayMissing`).
    private var someFailed = false
    private let worker: ReplayWorker
    private var batch: [ReplayJob] = []
    /// Jobs handed to the worker per batch (`IngestTuning.replayBatchSize`).
    static var batchSize: Int { IngestTuning.replayBatchSize }

    init(store: Store, options: IngestOptions) throws {
        self.store = store
        let catalog = try ConfigurationCatalog(store: store)
        replayer = Replayer(store: store, catalog: catalog,
                            options: ReplayOptions(defaultConfig: options.defaultConfig ?? Replay.defaultConfiguration.name))
        firstNewID = try store.largestSessionID() + 1
        // Results of no session above the largest id: left by a delete of their sessions made
        // without foreign keys (which would have cascaded to them). New sessions take those ids
        // (sqlite.org/autoinc.html), so such a row would pass for a new session's result — and
        // make the insert of new rows (`Store.writeResults(_:newSessionKeys:)`) fail. They
        // belong to no session and are in no report; they go, in this run's transaction.
        try store.deleteResults(where: "r.session_id >= ?1", [.integer(firstNewID)])
        worker = ReplayWorker(options: replayer.options)
        batch.reserveCapacity(Self.batchSize)
    }

    deinit { stop() }

    /// Queues stored session `id` for replay; false when it is left to `replayMissing`
    /// (unknown or redefined configuration). A session that cannot be replayed is left to it too
    /// when its row comes back empty.
    @discardableResult
    func replay(id: Int64, _ s: AssembledSession) -> Bool {
        let name = s.meta.config ?? replayer.options.defaultConfig
        let c: SharedConfiguration?
        if let last, last.name == name {
            c = last.configuration
        } else {
            if let known = chosen[name] { c = known } else {
                c = redefined.contains(name) ? nil : replayer.catalog.resolve(name).map(SharedConfiguration.init)
                chosen[name] = c
            }
            last = (name, c)
        }
        guard let c else { return false }
        // The stored attributes are `s.meta` as bound; `variant` plays no part in a replay.
        batch.append(ReplayJob(id: id, samples: s.samples, attributes: s.meta, configuration: c))
        if batch.count >= Self.batchSize {
            worker.submit(batch)
            batch.removeAll(keepingCapacity: true)
        }
        return true
    }

    /// Writes the rows the worker has finished (`all`: every queued session's, waiting for
    /// them: call before committing). Returns the number of rows written.
    func write(all: Bool) throws -> Int {
        if all {
            worker.submit(batch)
            batch.removeAll(keepingCapacity: true)
        }
        let done = worker.take(all: all)
        let replayed = done.compactMap { $0 }
        if replayed.count != done.count { someFailed = true }
        try store.writeResults(replayed.map(\.row), newSessionKeys: replayed.map(\.sessionKeys))
        return replayed.count
    }

    /// Ends the worker thread (queued replays are dropped with the transaction).
    func stop() { worker.stop() }

    /// What this run replayed for certain, once every queued row is written (`write(all: true)`):
    /// the sessions `ids` (this run's, when they are one run of consecutive ids), each under
    /// the version its configuration had as the run started — for the configurations none of
    /// whose sessions was left to `replayMissing`. Nil when some session could not be replayed,
    /// or the ids are not one run.
    func replayed(ids runs: [(first: Int64, last: Int64)]) -> ReplayedSessions? {
        guard !someFailed, runs.count == 1 else { return nil }
        var versions: [String: String] = [:]
        for (name, c) in chosen where !redefined.contains(name) {
            if let c { versions[name] = c.value.version }
        }
        return ReplayedSessions(ids: runs[0].first...runs[0].last, defaultConfig: replayer.options.defaultConfig,
                                versions: versions)
    }

    /// A `{"type":"config"}` record named `name` was read: after the ingest it may change what
    /// `name` resolves to, so this run's sessions of that configuration are left to
    /// `replayMissing` (their results written so far are removed in the same transaction).
    /// Call after `write(all: true)`.
    /// - Returns: the number of results removed.
    func mayBeRedefined(_ name: String) throws -> Int {
        guard !redefined.contains(name) else { return 0 }
        redefined.insert(name)
        var removed = 0
        if let c = chosen[name] ?? nil {
            removed = try store.deleteResults(where: """
                r.config_version = ?1 AND r.session_id IN (SELECT id FROM sessions WHERE id >= ?2 AND coalesce(config, ?3) = ?4)
                """, [.text(c.value.version), .integer(firstNewID), .text(replayer.options.defaultConfig), .text(name)])
        }
        chosen[name] = .some(nil)
        last = nil
        return removed
    }
}
