// Ingest: record sources → assembled sessions → the database, in batched transactions.
import PressCore
import PressFormats

/// How an ingest behaves.
public struct IngestOptions: Sendable {
    /// Any reject aborts the whole ingest; nothing is written.
    public var strict = false
    /// Config name for sessions that give none (applied when a session is stored complete).
    public var defaultConfig: String?
    /// Container for sessions that give none (applied when a session is stored complete).
    public var defaultContainer: Container?
    /// A transaction is committed after this many new sessions…
    public var batchSessions = 10_000
    /// …or after this many seconds, whichever comes first.
    public var batchSeconds = 0.5
    /// How many reject messages the summary keeps (all are stored in `rejects`).
    public var rejectMessagesKept = 20
    /// Asked at batch boundaries (every few thousand records): true stops `ingest` with
    /// `IngestInterrupted`; then `Ingester.commitInterrupted()` keeps the whole sessions read so
    /// far. For Ctrl-C.
    public var shouldStop: (@Sendable () -> Bool)?
    /// Replay each new session from memory as it is stored, writing its `results` row in the
    /// same transaction (under its own configuration, as `Replayer.replayMissing` would; the
    /// configuration of sessions naming none is `defaultConfig`, else `spring-press`). Sessions
    /// naming a configuration that is not known when the run starts, or one that a
    /// `{"type":"config"}` record of this run may redefine, are left to `replayMissing`, as are
    /// sessions that cannot be replayed. Off by default; `pressdb ingest` turns it on.
    public var replayStoredSessions = false
    /// Parse on a second thread while this one stores (for sources that are `RawLineSource`s:
    /// NDJSON and CSV). The same items are handled in the same order; only the timing of
    /// batch commits (every `batchSeconds`) can differ.
    public var readAhead = true
    public init() {}
}

/// What an ingest did.
public struct IngestSummary: Sendable {
    public var files = 0
    public var bytes = 0
    /// Non-blank lines (CSV: data rows) read.
    public var records = 0
    public var configRecords = 0
    public var sessionsNew = 0
    /// Of `sessionsNew`, sessions that a pending (open) session from an earlier ingest completed.
    public var sessionsCompletedFromPending = 0
    public var duplicates = 0
    public var conflicts = 0
    /// Sessions still open at the end, kept in `pending`.
    public var pending = 0
    public var rejects = 0
    /// The first `rejectMessagesKept` rejects, in input order.
    public var firstRejects: [Reject] = []
    /// `sessions.id` of every session stored by this run, in order: what replay should process.
    public var newSessionIDs: [Int64] {
        get { newSessionIDRuns.flatMap { $0.first...$0.last } }
        set { newSessionIDRuns = []; for id in newValue { appendNewSessionID(id) } }
    }
    /// Of `sessionsNew`, sessions replayed as they were stored (`IngestOptions.replayStoredSessions`).
    public var sessionsReplayed = 0

    /// `newSessionIDs` as runs of consecutive ids (new rows get consecutive ids), so memory does
    /// not grow with the input.
    var newSessionIDRuns: [(first: Int64, last: Int64)] = []

    mutating func appendNewSessionID(_ id: Int64) {
        if let last = newSessionIDRuns.last, last.last &+ 1 == id {
            newSessionIDRuns[newSessionIDRuns.count - 1].last = id
        } else {
            newSessionIDRuns.append((id, id))
        }
    }
}

/// `IngestOptions.shouldStop` asked the ingest to stop; nothing was rolled back yet (call
/// `Ingester.commitInterrupted()`).
public struct IngestInterrupted: Error, Sendable {
    public init() {}
}

/// Ingest was aborted by `--strict` at this reject; nothing was written.
public struct StrictRejectError: Error, CustomStringConvertible, Sendable {
    public var reject: Reject
    public var description: String { "\(reject) (--strict: nothing was written)" }
}

/// Reads record sources into a store. One `Ingester` is one run: call `ingest` per input, then
/// `finish` once (which stores still-open sessions as pending and commits).
///
///     let ingester = try Ingester(store: store, options: IngestOptions())
///     try ingester.ingest(&reader, input: input)
///     let summary = try ingester.finish()
///
/// Rules (docs/log-format.md): a rejected record is dropped and its session continues without
/// it; a session id already stored with identical samples is a duplicate, with different samples
/// a conflict (rejected, stored data untouched); an open session from an earlier run (pending)
/// is resumed by the next record of the same session id.
public final class Ingester {
    public let store: Store
    public let options: IngestOptions
    public var summary: IngestSummary { state }
    private var state = IngestSummary()
    private var recordsBefore = 0
    private var rejectsBefore = 0
    private var assembler = SessionAssembler<SessionAttributes, Origin>()
    private var pendingIDs: Set<String>
    private var resumed: Set<String> = []
    private var sessionsInBatch = 0
    private var batchStart = ContinuousClock.now
    private var currentSourceID: Int64?
    private var finished = false
    private let replay: StoredSessionReplay?
    private var cacheSizeBefore: Int64 = -2000
    private var foreignKeysWereOn = true

    /// SQLite's page cache while a run is open, KiB (`PRAGMA cache_size = -16384`; SQLite's
    /// default is 2,000 KiB). The `sessions.session` index takes keys in no particular order;
    /// with the default cache its pages are read again and again once the index outgrows it:
    /// ingest of 400,000 generated sessions spent 2.9 s in the kernel with the default, 1.6 s
    /// with 16 MiB. Peak memory is then about 49 MB for 100,000 and for 400,000 sessions alike.
    /// Restored when the run ends.
    static let cacheKiB = 16_384

    /// Starts a run: opens the first transaction (for `strict`, the only one).
    public init(store: Store, options: IngestOptions = IngestOptions()) throws {
        self.store = store
        self.options = options
        let cacheBefore = try store.db.prepare("PRAGMA cache_size").scalarInt() ?? -2000
        cacheSizeBefore = cacheBefore
        let foreignKeysBefore = try store.db.prepare("PRAGMA foreign_keys").scalarInt() ?? 1
        foreignKeysWereOn = foreignKeysBefore != 0
        func undo() {
            store.db.rollback()
            store.ingestedAt = nil
            try? Ingester.enforceValueChecks(store.db, true)
            try? store.db.execute("PRAGMA cache_size = \(cacheBefore)")
            if foreignKeysBefore != 0 { try? Ingester.enforceForeignKeys(store.db, true) }
        }
        do {
            try Ingester.enforceValueChecks(store.db, false)
            try store.db.execute("PRAGMA cache_size = -\(Ingester.cacheKiB)")
            // Outside a transaction: SQLite ignores the pragma inside one.
            try Ingester.enforceForeignKeys(store.db, false)
            try store.db.begin()
            try store.stampIngestTime()
            pendingIDs = try store.pendingIDs()
            replay = options.replayStoredSessions ? try StoredSessionReplay(store: store, options: options) : nil
        } catch { undo(); throw error }
    }

    deinit { if !finished { end(committing: false) } }

    /// SQLite checks a `CHECK (x IN ('a', 'b', 'c'))` constraint by building a temporary B-tree
    /// of the list for every row it writes; for `sessions` (`end_phase`, `scroll_axis`) and
    /// `results` (`outcome`, `cancel_reason`) that was about a third of ingest's instructions
    /// (callgrind, 20,000 sessions: 6.35 → 4.48 G). Every value the ingest writes to those
    /// columns is the raw value of a Swift enum whose cases are exactly the listed values
    /// (`TouchPhase.ended`/`.cancelled`, `ScrollAxis`, `PressOutcome`, `CancelReason`; a test
    /// compares them with the schema), so while a run is open the connection skips CHECK
    /// constraints (`PRAGMA ignore_check_constraints`), and enforces them again when it ends
    /// (the pragma re-prepares every statement, so nothing else runs without them).
    static func enforceValueChecks(_ db: Database, _ on: Bool) throws {
        try db.execute("PRAGMA ignore_check_constraints = \(on ? "OFF" : "ON")")
    }

    /// While a run is open the connection does not look up the parent row of each foreign key
    /// it writes (`PRAGMA foreign_keys = OFF`; on again when the run ends, and for every other
    /// connection throughout). For a session that is two `sources` lookups, for a result one
    /// `sessions` lookup, each with its own cursor: 4.6 % of the ingesting thread's instructions
    /// (callgrind, 20,000 sessions: 2,139 M → 2,040 M).
    ///
    /// What the run writes satisfies every foreign key by construction:
    /// - `sessions.source_id`/`last_source_id`, `pending.*source_id`, `rejects.source_id` are the
    ///   `sources` row this run inserted for the input being read (`beginSource`), or the one a
    ///   merge kept (`finishSource` moves every reference, in `sessions`, `pending`, `rejects`
    ///   and the open sessions in memory, before it deletes the duplicate row it inserted
    ///   itself), or, for a session resumed from `pending`, that row's own source, which held
    ///   when it was written and which only such a merge of that run's own row ever deletes
    ///   (pending rows are written after it, at the end of a run).
    /// - `results.session_id` is the id `insertSession` just returned, in the same transaction
    ///   (a result is written before the transaction holding its session commits).
    /// - The run deletes only `pending` and `results` rows (nothing refers to them) and its own
    ///   duplicate `sources` row after moving its references, so no `ON DELETE` action is due.
    /// Tests check `PRAGMA foreign_key_check` after runs that merge sources, resume pending
    /// sessions, reject, and abort (`IngestReplayTests`, the reliability tests).
    static func enforceForeignKeys(_ db: Database, _ on: Bool) throws {
        try db.execute("PRAGMA foreign_keys = \(on ? "ON" : "OFF")")
    }

    /// Commits (or rolls back) the open transaction and enforces CHECK constraints and foreign
    /// keys again.
    private func end(committing: Bool) {
        finished = true
        replay?.stop()
        store.ingestedAt = nil
        try? store.db.execute("PRAGMA cache_size = \(cacheSizeBefore)")
        if !committing { store.db.rollback() }
        try? Ingester.enforceValueChecks(store.db, true)
        if foreignKeysWereOn { try? Ingester.enforceForeignKeys(store.db, true) }
    }

    /// Reads every item of `source` (reading `input`), storing complete sessions as they close.
    /// `progress` is called now and then with the bytes and records read so far.
    /// - Throws: `StrictRejectError` (everything rolled back), `InputError`, `DatabaseError`
    ///   (the current batch rolled back; earlier batches stay committed).
    @inlinable
    public func ingest<S: RecordSource>(_ source: inout S, input: ByteInput,
                                        progress: ((_ bytes: Int, _ records: Int) -> Void)? = nil) throws {
        if options.readAhead, let ahead = source as? any RawLineSource {
            // Opens the existential: the reader's own type runs on the reader thread.
            var s = ahead
            defer { source = s as! S }
            return try ingestReadingAhead(&s, input: input, progress: progress)
        }
        // Inlinable so the loop is specialised for the reader type (no boxing of each item).
        do {
            let sourceID = try startSource(input)
            var sinceCheck = 0
            while let item = try source.next() {
                try handle(item, sourceID: sourceID, raw: { source.lastRaw })
                sinceCheck += 1
                if sinceCheck >= 4096 {
                    sinceCheck = 0
                    progress?(bytesBeforeCurrent + input.bytesRead, summary.records)
                    try commitIfDue()
                    if let stop = options.shouldStop, stop() { throw IngestInterrupted() }
                }
            }
            try endSource(input, sourceID: sourceID)
            progress?(summary.bytes, summary.records)
        } catch let stop as IngestInterrupted {
            throw stop
        } catch {
            abandon()
            throw error
        }
    }

    /// `ingest` with the source parsing on its own thread (`IngestOptions.readAhead`): the same
    /// items are handled in the same order, on this thread, so everything stored is the same.
    @usableFromInline func ingestReadingAhead<R: RawLineSource>(_ source: inout R, input: ByteInput,
                                                                progress: ((_ bytes: Int, _ records: Int) -> Void)?) throws {
        do {
            let sourceID = try startSource(input)
            let ahead = ReadAhead(source, input: input)
            do {
                while true {
                    let chunk = ahead.next()
                    for i in chunk.items.indices {
                        try handle(chunk.items[i], sourceID: sourceID, raw: { chunk.rawText(i) })
                    }
                    progress?(bytesBeforeCurrent + chunk.bytesRead, summary.records)
                    if let error = chunk.error { throw error }
                    if chunk.isLast { break }
                    try commitIfDue()
                    if let stop = options.shouldStop, stop() { throw IngestInterrupted() }
                }
            } catch {
                source = ahead.finish()
                throw error
            }
            source = ahead.finish()
            try endSource(input, sourceID: sourceID)
            progress?(summary.bytes, summary.records)
        } catch let stop as IngestInterrupted {
            throw stop
        } catch {
            abandon()
            throw error
        }
    }

    @usableFromInline var bytesBeforeCurrent: Int { summary.bytes }

    @usableFromInline func abandon() { end(committing: false) }

    @usableFromInline func startSource(_ input: ByteInput) throws -> Int64 {
        let sourceID = try store.beginSource(name: input.name)
        currentSourceID = sourceID
        recordsBefore = state.records
        rejectsBefore = state.rejects
        return sourceID
    }

    @usableFromInline func handle(_ item: RecordItem, sourceID: Int64, raw: () -> String) throws {
        state.records += 1
        switch item {
        case .touch(let r):
            try add(r, origin: Origin(sourceID: sourceID, line: r.source.line), raw: raw)
        case .config(let c):
            state.configRecords += 1
            try store.insertConfigRecord(c)
            if let replay {
                state.sessionsReplayed += try replay.write(all: true)
                state.sessionsReplayed -= try replay.mayBeRedefined(c.name)
            }
        case .control:
            break // layout records store nothing; `pressdb ingest` routes them (ControlRecordCollector)
        case .reject(let r):
            try reject(r)
        }
    }

    @usableFromInline func endSource(_ input: ByteInput, sourceID: Int64) throws {
        state.files += 1
        state.bytes += input.bytesRead
        let finalID = try store.finishSource(id: sourceID, hash: input.contentHash, bytes: input.bytesRead,
                                             records: state.records - recordsBefore,
                                             rejects: state.rejects - rejectsBefore)
        if finalID != sourceID {
            assembler.updateOpenSessions { s in
                if s.first.sourceID == sourceID { s.first.sourceID = finalID }
                if s.last.sourceID == sourceID { s.last.sourceID = finalID }
            }
        }
        currentSourceID = nil
    }

    /// Stores still-open sessions as pending, commits, and returns the state.
    public func finish() throws -> IngestSummary {
        do {
            for open in assembler.drain() { try keepOpen(open) }
            try writeReplayed(all: true)
            try store.db.commit()
            end(committing: true)
        } catch {
            end(committing: false)
            throw error
        }
        return state
    }

    /// After `IngestInterrupted`: commits the complete sessions stored so far and returns the
    /// state. Open sessions are not kept (re-running the same input reads them again); the
    /// current input's `sources` row stays without a content hash. With `strict`, rolls back
    /// instead: nothing is written.
    /// - Throws: `DatabaseError` (the last batch rolled back; earlier batches stay committed).
    public func commitInterrupted() throws -> IngestSummary {
        if options.strict {
            end(committing: false)
            state.sessionsNew = 0
            state.newSessionIDs = []
            return state
        }
        // Like `finish`, minus the open sessions: every stored session's replay result is
        // written before the commit, so none is committed without it.
        do {
            try writeReplayed(all: true)
            try store.db.commit()
            end(committing: true)
        } catch {
            end(committing: false)
            throw error
        }
        return state
    }

    // MARK: Records

    private func add(_ r: TouchRecord, origin: Origin, raw: () -> String) throws {
        var event = assembler.add(session: r.session, sample: r.sample, meta: r.hasAttributes ? r.attributes : nil,
                                  empty: SessionAttributes(), at: origin)
        if case .rejected(.notOpen) = event {
            if pendingIDs.contains(r.session), !resumed.contains(r.session), let p = try store.pending(session: r.session) {
                assembler.resume(p)
                resumed.insert(r.session)
                event = assembler.add(session: r.session, sample: r.sample, meta: r.hasAttributes ? r.attributes : nil,
                                      empty: SessionAttributes(), at: origin)
            } else if try store.storedSamples(session: r.session) != nil {
                return try reject(Reject(source: r.source, reason: "sample after the end of session \"\(r.session)\" "
                    + "(it already ended with \"ended\" or \"cancelled\")", raw: raw()))
            }
        }
        switch event {
        case .accepted: break
        case .completed(let s): try complete(s, at: r.source)
        case .rejected(let problem):
            try reject(Reject(source: r.source, reason: problem.reason(session: r.session), raw: raw()))
        }
    }

    private func withDefaults(_ s: AssembledSession) -> AssembledSession {
        var s = s
        if s.meta.config == nil { s.meta.config = options.defaultConfig }
        if s.meta.container == nil { s.meta.container = options.defaultContainer }
        return s
    }

    private func complete(_ assembled: AssembledSession, at location: SourceLocation) throws {
        let s = withDefaults(assembled)
        let fromPending = pendingIDs.contains(s.id)
        if fromPending, !resumed.contains(s.id), let p = try store.pending(session: s.id) {
            // Started afresh over a pending session: fine only if it re-reads the same start.
            guard isPrefix(p.samples, of: s.samples) else { return try conflict(s, at: location, with: "a pending session") }
        }
        switch try store.insertSession(s) {
        case .inserted(let id):
            state.sessionsNew += 1
            state.appendNewSessionID(id)
            sessionsInBatch += 1
            replay?.replay(id: id, s)
            if fromPending {
                try store.deletePending(session: s.id)
                pendingIDs.remove(s.id)
                resumed.remove(s.id)
                state.sessionsCompletedFromPending += 1
            }
        case .duplicate:
            state.duplicates += 1
        case .conflict:
            try conflict(s, at: location, with: "a stored session")
        }
    }

    /// At the end of the run: an open session is kept as pending unless it repeats stored data.
    private func keepOpen(_ open: AssembledSession) throws {
        let location = SourceLocation(file: try sourceName(open.last.sourceID), line: open.last.line)
        if resumed.contains(open.id) {
            try store.savePending(open)
            state.pending += 1
            return
        }
        let blob = SampleCodec.encode(open.samples)
        if let stored = try store.storedSamples(session: open.id) {
            if stored.blob.starts(with: blob) { state.duplicates += 1 } else {
                try conflict(open, at: location, with: "a stored session")
            }
            return
        }
        if pendingIDs.contains(open.id), let p = try store.pending(session: open.id) {
            if isPrefix(p.samples, of: open.samples) {
                if p.samples.count == open.samples.count { state.duplicates += 1; return }
                try store.savePending(open)
                state.pending += 1
            } else if isPrefix(open.samples, of: p.samples) {
                state.duplicates += 1
            } else {
                try conflict(open, at: location, with: "a pending session")
            }
            return
        }
        try store.savePending(open)
        state.pending += 1
    }

    private func isPrefix(_ a: [TouchSample], of b: [TouchSample]) -> Bool {
        a.count <= b.count && SampleCodec.encode(b).starts(with: SampleCodec.encode(a))
    }

    private func sourceName(_ id: Int64) throws -> String {
        let s = try store.cached("SELECT name FROM sources WHERE id = ?")
        s.bind(1, id)
        return try s.scalarText() ?? "?"
    }

    private func conflict(_ s: AssembledSession, at location: SourceLocation, with what: String) throws {
        state.conflicts += 1
        let raw = NDJSONWriter.lines(session: s.id, samples: s.samples, attributes: s.meta).joined(separator: "\n")
        try reject(Reject(source: location, reason: "session \"\(s.id)\" conflicts with \(what) of the same id "
            + "and different samples; the stored data was kept (this session's records are the raw text)", raw: raw),
            sourceID: s.last.sourceID)
    }

    private func reject(_ r: Reject, sourceID: Int64? = nil) throws {
        if options.strict {
            end(committing: false)
            throw StrictRejectError(reject: r)
        }
        state.rejects += 1
        if state.firstRejects.count < options.rejectMessagesKept { state.firstRejects.append(r) }
        try store.insertReject(r, sourceID: sourceID ?? currentSourceID)
    }

    // MARK: Batches

    /// Writes the results the replay worker has finished (`all`: waits for every queued one).
    @usableFromInline func writeReplayed(all: Bool) throws {
        if let replay { state.sessionsReplayed += try replay.write(all: all) }
    }

    @usableFromInline func commitIfDue() throws {
        try writeReplayed(all: false)
        guard !options.strict else { return }
        let elapsed = ContinuousClock.now - batchStart
        if sessionsInBatch >= options.batchSessions || elapsed > .milliseconds(Int64(options.batchSeconds * 1000)) {
            try writeReplayed(all: true)
            try store.db.commitAndHandOff()
            try store.db.begin()
            try store.stampIngestTime()
            sessionsInBatch = 0
            batchStart = ContinuousClock.now
        }
    }
}

/// Replays sessions as ingest stores them (`IngestOptions.replayStoredSessions`): the samples
/// and attributes are in memory, so nothing is read back. The replays run on a worker thread
/// (`ReplayWorker`, pure work) while ingest goes on; their rows are written on the ingesting
/// thread, always before the transaction that stores their sessions commits (a session is never
/// committed without its result). The rows are exactly `Replayer.replayMissing`'s: same
/// configuration (the catalog as the run starts), same version, same replay of the same values,
/// written in the same order.
final class StoredSessionReplay {
    let store: Store
    let replayer: Replayer
    /// Highest `sessions.id` before this run: rows above it are this run's.
    let firstNewID: Int64
    /// Resolved configurations (nil: unknown, or possibly redefined by this run), by name.
    private var chosen: [String: PressConfiguration?] = [:]
    private var redefined: Set<String> = []
    private let worker: ReplayWorker
    private var batch: [ReplayJob] = []
    private var stopped = false
    /// Jobs handed to the worker per batch (the hand-over costs a lock and a wake-up).
    static let batchSize = 256

    init(store: Store, options: IngestOptions) throws {
        self.store = store
        let catalog = try ConfigurationCatalog(store: store)
        replayer = Replayer(store: store, catalog: catalog,
                            options: ReplayOptions(defaultConfig: options.defaultConfig ?? Replay.defaultConfiguration.name))
        firstNewID = (try store.db.prepare("SELECT max(id) FROM sessions").scalarInt() ?? 0) + 1
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
        let c: PressConfiguration?
        if let known = chosen[name] { c = known } else {
            c = redefined.contains(name) ? nil : replayer.catalog.resolve(name)
            chosen[name] = c
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
        var written = 0
        for row in worker.take(all: all) {
            guard let row else { continue }
            try store.insertResult(row)
            written += 1
        }
        return written
    }

    /// Ends the worker thread (queued replays are dropped with the transaction).
    func stop() {
        guard !stopped else { return }
        stopped = true
        worker.stop()
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
            let delete = try store.db.prepare("""
                DELETE FROM results WHERE config_version = ?1 AND session_id IN
                    (SELECT id FROM sessions WHERE id >= ?2 AND coalesce(config, ?3) = ?4)
                """)
            delete.bind(1, c.version); delete.bind(2, firstNewID)
            delete.bind(3, replayer.options.defaultConfig); delete.bind(4, name)
            try delete.run()
            removed = store.db.changes
        }
        chosen[name] = .some(nil)
        return removed
    }
}
