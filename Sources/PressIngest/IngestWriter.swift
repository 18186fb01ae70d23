// The store calls of one ingest run: its connection settings, its transactions (batches), and
// every row it reads or writes. The ingester decides (IngestRules); this writes.
import PressCore
import PressFormats
import PressSQLite
import PressStore

/// One ingest run's side of the database: opens a transaction at the start, commits it in
/// batches, and while the run is open sets the connection up for bulk writing
/// (`connectionSettings`), put back when it ends.
final class IngestWriter: IngestSink {
    let store: Store
    /// `IngestOptions.strict`: one transaction for the whole run, never committed in batches.
    let strict: Bool
    private var settings: PragmaScope?
    /// Copies committed WAL pages into the database on a thread of its own
    /// (`BackgroundCheckpoint`), after each commit once `backgroundCheckpointPages` pages were
    /// written since the last (by default every commit that wrote any); nil for `strict` runs,
    /// which commit once, and for databases another connection cannot open.
    private let checkpoint: BackgroundCheckpoint?
    /// The WAL's pages sent to disk after each commit (`WALWriteback`), so that the syncs of
    /// the checkpoints, the last one's at the close above all, find them written.
    private let writeback: WALWriteback
    /// `IngestOptions.backgroundCheckpointPages`.
    let backgroundCheckpointPages: Int
    /// `Database.pagesWritten` when the last background checkpoint was requested.
    private var pagesAtLastCheckpoint = 0
    /// New sessions stored since the last commit.
    private(set) var sessionsInBatch = 0
    /// The sessions in the database, as its largest `sessions.id` when the run began plus the
    /// sessions the run has stored (`IngestOptions.batchFraction`).
    private var sessionsStored = 0
    /// Bytes and count of the session ids the cache's size is estimated from: a sample of the
    /// stored ones when the run began, then every id the run stores.
    private var keyBytes = 0
    private var keyCount = 0
    /// The page cache's size as last set, KiB (`resizeCache`).
    private(set) var cacheKiBSet = IngestTuning.cacheKiB
    private var batchStart = ContinuousClock.now
    private(set) var isOpen = true

    /// SQLite's page cache when a run opens, KiB (SQLite's default is 2,000 KiB). The
    /// `sessions.session` index takes keys in no particular order; with the default cache its
    /// pages are read again and again once the index outgrows it. Once the database holds some
    /// 270,000 sessions the cache grows with the index, at most to `IngestTuning.maxCacheKiB`
    /// (`resizeCache`): memory then grows with the database, so cost per session need not.
    /// `IngestTuning.cacheKiB`.
    static var cacheKiB: Int { IngestTuning.cacheKiB }

    /// WAL pages after which a commit of the run checkpoints on the ingesting connection
    /// (SQLite's default is 1,000 pages, 16 MiB of WAL at 16 KiB pages). In a batched run
    /// `BackgroundCheckpoint` has copied most frames by then, but this checkpoint is still the
    /// one after which SQLite starts the WAL again from its beginning (see there), so the WAL
    /// grows to about this size during a run. The `sessions.session` index takes keys in no
    /// order, so each commit writes most of its leaf pages to the WAL again; checkpointing on
    /// the ingesting thread only this seldom kept those copies off it; the background
    /// checkpoints, each copying what a batch wrote, add bytes, off this thread.
    ///
    /// Crash safety: WAL mode with `synchronous = NORMAL` keeps the database consistent after a
    /// crash or power loss, and a process that dies loses no commit (the commits are in the WAL,
    /// which the next open reads). What a power loss or an OS crash may take back is what was
    /// committed since the WAL was last synced, which with `NORMAL` happens at each checkpoint:
    /// for a batched run the last batch or two (a background checkpoint follows each commit and
    /// runs while the next batch is written), for a `strict` run the transaction itself. Whole
    /// sessions, which re-running the ingest stores again (duplicates are skipped). The last
    /// connection to close checkpoints the WAL and removes it. `IngestTuning.walCheckpointPages`.
    static var walCheckpointPages: Int { IngestTuning.walCheckpointPages }

    /// The connection's settings while a run is open, each put back when it ends:
    ///
    /// - `cache_size`: `cacheKiB` (above).
    /// - `wal_autocheckpoint`: `walCheckpointPages` (above).
    /// - `ignore_check_constraints = ON`. SQLite checks a `CHECK (x IN ('a', 'b', 'c'))`
    ///   constraint by building a temporary B-tree of the list for every row it writes; for
    ///   `sessions` (`end_phase`, `scroll_axis`) and `results` (`outcome`, `cancel_reason`) that
    ///   was a large share of ingest's work.
    ///   Every value the ingest writes to those columns is the raw value of a Swift enum whose
    ///   cases are exactly the listed values (`TouchPhase.ended`/`.cancelled`, `ScrollAxis`,
    ///   `PressOutcome`, `CancelReason`; a test compares them with the schema). Setting the
    ///   pragma back re-prepares every statement, so nothing else runs without the checks.
    /// - `foreign_keys = OFF` (outside the transaction: SQLite ignores it inside one). For a
    ///   session that saves two `sources` lookups, for a result one `sessions` lookup, each with
    ///   its own cursor. What the run writes satisfies every foreign key by
    ///   construction:
    ///   - `sessions.source_id`/`last_source_id`, `pending.*source_id`, `rejects.source_id` are
    ///     the `sources` row this run inserted for the input being read (`beginSource`), or the
    ///     one a merge kept (`finishSource` moves every reference, in `sessions`, `pending`,
    ///     `rejects` and the open sessions in memory, before it deletes the duplicate row it
    ///     inserted itself), or, for a session resumed from `pending`, that row's own source,
    ///     which held when it was written and which only such a merge of that run's own row ever
    ///     deletes (pending rows are written after it, at the end of a run).
    ///   - `results.session_id` is the id `insertSession` just returned, in the same transaction
    ///     (a result is written before the transaction holding its session commits).
    ///   - The run deletes only `pending` and `results` rows (nothing refers to them) and its own
    ///     duplicate `sources` row after moving its references, so no `ON DELETE` action is due.
    ///   Tests check `PRAGMA foreign_key_check` after runs that merge sources, resume pending
    ///   sessions, reject, and abort (`IngestReplayTests`, the reliability tests); other
    ///   connections enforce foreign keys throughout.
    static let connectionSettings: [(name: String, value: String)] = [
        ("cache_size", "-\(cacheKiB)"),
        ("wal_autocheckpoint", "\(walCheckpointPages)"),
        ("ignore_check_constraints", "ON"),
        ("foreign_keys", "OFF"),
    ]

    /// Starts a run: sets `connectionSettings` and opens the first transaction (for `strict`,
    /// the only one).
    init(store: Store, options: IngestOptions) throws {
        self.store = store
        strict = options.strict
        backgroundCheckpointPages = options.backgroundCheckpointPages
        checkpoint = strict ? nil : BackgroundCheckpoint.start(for: store.db)
        writeback = WALWriteback(store.db)
        settings = try store.db.settingPragmas(Self.connectionSettings)
        do {
            // At most 2^53 (a Double holds it exactly, and `insert` can count on from it).
            sessionsStored = Int(min(try store.largestSessionID(), 1 << 53))
            (keyBytes, keyCount) = try store.recentSessionKeyBytes()
            try resizeCache()
            try store.db.begin()
            try store.stampIngestTime()
        } catch { end(committing: false); throw error }
    }

    deinit { if isOpen { end(committing: false) } }

    /// Commits (or rolls back) the open transaction, stops the background checkpoints (so the
    /// store's connection, closing last, checkpoints what is left and removes the WAL) and puts
    /// the connection's settings back.
    func end(committing: Bool) {
        guard isOpen else { return }
        isOpen = false
        checkpoint?.stop()
        store.ingestedAt = nil
        if !committing { store.db.rollback() }
        settings?.restore()
        settings = nil
    }

    /// Commits what is written, then ends the run.
    func commitAndEnd() throws {
        do {
            try store.db.commit()
            writeback.start()
            end(committing: true)
        } catch {
            end(committing: false)
            throw error
        }
    }

    // MARK: Batches

    /// Whether the batch is due: `batchSessions` new sessions or `batchFraction` of the
    /// database's, whichever is more, or `batchSeconds` since it began, longer for a larger
    /// batch (`IngestTuning.batchSeconds(forSessions:…)`; never with `strict`).
    func batchIsDue(_ options: IngestOptions) -> Bool {
        guard !strict, !options.checkOnly else { return false }
        let elapsed = ContinuousClock.now - batchStart
        let fraction = options.batchFraction.isFinite ? min(max(options.batchFraction, 0), 1) : 0
        let size = max(options.batchSessions, Int(Double(sessionsStored) * fraction))
        let seconds = IngestTuning.batchSeconds(forSessions: size, batchSessions: options.batchSessions,
                                                batchSeconds: options.batchSeconds)
        return sessionsInBatch >= size || elapsed > .milliseconds(Int64(seconds * 1000))
    }

    /// Commits the batch (letting another writer take its turn), then calls `committed`, then
    /// begins the next batch (waiting for the lock while other writers take theirs).
    func commitBatch(committed: () -> Void = {}) throws {
        try store.db.commitAndHandOff()
        writeback.start()
        if let checkpoint, store.db.pagesWritten - pagesAtLastCheckpoint >= backgroundCheckpointPages {
            checkpoint.request()
            pagesAtLastCheckpoint = store.db.pagesWritten
        }
        committed()
        try resizeCache()
        try store.db.begin()
        try store.stampIngestTime()
        sessionsInBatch = 0
        batchStart = ContinuousClock.now
    }

    /// Sets the page cache to hold the `sessions.session` index of the database as it now is
    /// (`IngestTuning.cacheKiB(sessions:meanKeyBytes:)`), when that is at least 1 MiB more than
    /// set, and the ingesting connection's checkpoint interval with it
    /// (`IngestTuning.walCheckpointPages(cacheKiB:pageKiB:)`): between transactions, so the
    /// pages cached stay. The run's end puts SQLite's values back.
    private func resizeCache() throws {
        let mean = keyCount > 0 ? Double(keyBytes) / Double(keyCount) : 0
        let kiB = IngestTuning.cacheKiB(sessions: sessionsStored, meanKeyBytes: mean)
        guard kiB >= cacheKiBSet + 1_024 else { return }
        try store.db.execute("PRAGMA cache_size = -\(kiB)")
        cacheKiBSet = kiB
        let pageBytes = try store.db.prepare("PRAGMA page_size").scalarInt() ?? 4_096
        let pages = IngestTuning.walCheckpointPages(cacheKiB: kiB, pageKiB: Int(pageBytes) / 1024)
        try store.db.execute("PRAGMA wal_autocheckpoint = \(pages)")
    }

    // MARK: Rows

    func beginSource(name: String) throws -> Int64 { try store.beginSource(name: name) }
    func sourceID(of location: SourceLocation, input: Int64) -> Int64 { input }

    func finishSource(id: Int64, input: ByteInput, records: Int, rejects: Int) throws -> Int64 {
        try store.finishSource(id: id, hash: input.contentHash, bytes: input.bytesRead, records: records, rejects: rejects)
    }

    /// The name of the `sources` row `id` (for a message), `?` when there is none.
    func sourceName(_ id: Int64) throws -> String {
        let s = try store.cached("SELECT name FROM sources WHERE id = ?")
        s.bind(1, id)
        return try s.scalarText() ?? "?"
    }

    /// Stores a complete session: its new `sessions.id`, or nil when the id is stored already.
    func insert(_ s: AssembledSession) throws -> Int64? {
        let id = try store.insertSession(s)
        if id != nil { sessionsInBatch += 1; sessionsStored += 1; keyBytes += s.id.utf8.count; keyCount += 1 }
        return id
    }

    /// The samples of the complete session stored under `session`, or nil. Samples that cannot be
    /// decoded (a damaged BLOB) are given as none, which no session repeats: the ingest then
    /// reports a conflict and keeps the stored row.
    func storedSamples(_ session: String) throws -> [TouchSample]? {
        do { return try store.storedSamples(session: session) } catch is SampleCodecError { return [] }
    }

    func pendingIDs() throws -> Set<String> { try store.pendingIDs() }
    func pending(_ session: String) throws -> AssembledSession? { try store.pending(session: session) }
    func keepPending(_ s: AssembledSession) throws { try store.savePending(s) }
    func deletePending(_ session: String) throws { try store.deletePending(session: session) }
    func reject(_ r: Reject, sourceID: Int64?) throws { try store.insertReject(r, sourceID: sourceID) }
    func configRecord(_ c: ConfigRecordText) throws { try store.insertConfigRecord(c) }
}
