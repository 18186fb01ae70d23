// Ingest: record sources → assembled sessions → the database, in batched transactions.
import PressCore
import PressFormats
import PressSQLite
import PressStore

/// How an ingest behaves.
public struct IngestOptions: Sendable {
    /// Any reject aborts the whole ingest; nothing is written.
    public var strict = false
    /// Config name for sessions that give none (applied when a session is stored complete).
    public var defaultConfig: String?
    /// Container for sessions that give none (applied when a session is stored complete).
    public var defaultContainer: Container?
    /// A transaction is committed after this many new sessions, or after `batchFraction` of the
    /// sessions in the database, whichever is more…
    public var batchSessions = 10_000
    /// …(the fraction: a commit writes most leaf pages of the `sessions.session` index to the WAL
    /// again, its keys coming in no order, so with batches of a fixed size the bytes a run writes
    /// grew with the square of its sessions; with batches a tenth of the database, about
    /// linearly, until `batchSeconds` bounds them (beyond some hundreds of thousands of sessions
    /// the batches are fixed again). The database's sessions are
    /// counted as its largest `sessions.id`; 0, a negative or a non-finite fraction: none)…
    public var batchFraction = 0.1
    /// …or after this many seconds, whichever comes first (also while the input is idle: a
    /// stalled pipe, read ahead, does not hold what was read).
    public var batchSeconds = 0.5
    /// WAL pages the run writes between two background checkpoints (`BackgroundCheckpoint`,
    /// requested at a batch commit once this many pages were written since the last): 1, a
    /// checkpoint after every batch commit that wrote something. What the last checkpoint has
    /// not copied, the close copies and syncs on the ingesting thread at the end of the run, and
    /// then the WAL is removed; a larger figure copies the pages the run rewrites batch after
    /// batch (the `sessions.session` index's leaves) fewer times, so it writes fewer bytes,
    /// but leaves more for the close, at the end of the run, where the user waits for it.
    public var backgroundCheckpointPages = 1
    /// How long the ingest waits for more input (read ahead) before it looks whether the batch
    /// is due and whether to stop: so a stalled pipe still commits on time and a Ctrl-C takes
    /// effect within this while it is idle. Seconds.
    public var idleSeconds = 0.1
    /// How many reject messages the summary keeps (all are stored in `rejects`).
    public var rejectMessagesKept = 20
    /// Asked at batch boundaries (every few thousand records, and every `idleSeconds` while the
    /// input stalls): true stops `ingest` with `IngestInterrupted`; then
    /// `Ingester.commitInterrupted()` keeps the whole sessions read so far. For Ctrl-C.
    public var shouldStop: (@Sendable () -> Bool)?
    /// Replay each new session from memory as it is stored, writing its `results` row in the
    /// same transaction (under its own configuration, as `Replayer.replayMissing` would; the
    /// configuration of sessions naming none is `defaultConfig`, else `spring-press`). Sessions
    /// naming a configuration that is not known when the run starts, or one that a
    /// `{"type":"config"}` record of this run may redefine, are left to `replayMissing`, as are
    /// sessions that cannot be replayed. Off by default; `pressdb ingest` turns it on.
    public var replayStoredSessions = false
    /// Parse on a second thread while this one stores (for sources that are `ChunkedRecordSource`s:
    /// NDJSON and CSV). The same items are handled in the same order; only the timing of
    /// batch commits (every `batchSeconds`) can differ.
    public var readAhead = true
    /// Rows of a session out of time order are put in order when they are at most this many
    /// seconds late, measured in the log's time against the session's rows read before them
    /// (docs/log-format.md, "Rows out of order"); 0 (the default here) turns it off; `pressdb
    /// ingest` gives `defaultReorderWindow`. In-order input never reaches it.
    public var reorderWindow = 0.0
    /// `reorderWindow`'s default: 5 s, longer than nearly every press (a late `began` is
    /// late by its whole press when the end came first).
    public static let defaultReorderWindow = 5.0
    /// Read and validate, store nothing: one transaction, never committed (`pressdb ingest --check`).
    public var checkOnly = false
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
    /// Rows put back in time order (`IngestOptions.reorderWindow`).
    public var reordered = 0
    /// Whether the stored sessions' times look like another unit than seconds.
    public var timeUnits = TimeUnitCheck()
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
    /// After `finish`: which of the new sessions have their result for certain (for
    /// `Replayer.replayMissing(excluding:)`); nil when not known.
    public var replayedSessions: ReplayedSessions?

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
/// Rules (docs/log-format.md, `IngestRules`): a rejected record is dropped and its session
/// continues without it; a session id already stored with identical samples is a duplicate,
/// with different samples a conflict (rejected, stored data untouched); an open session from an
/// earlier run (pending) is resumed by the next record of the same session id. What is read and
/// written goes through `IngestWriter`; the items come from a `RecordFeed` (on this thread, or
/// read ahead on another), all through one loop (`run`).
public final class Ingester {
    /// The database written; nil for a run into a `StreamReplay` (no database).
    public let store: Store?
    public let options: IngestOptions
    public var summary: IngestSummary {
        var s = state
        s.timeUnits = timeUnits
        return s
    }
    private var state = IngestSummary()
    /// Batches committed so far (before `finish`), and the new sessions they hold: what a run
    /// that fails now keeps.
    public private(set) var committedBatches = 0
    public private(set) var committedSessions = 0
    /// Where the run's decisions go: the database (`IngestWriter`) or a stream (`StreamReplay`).
    private let writer: any IngestSink
    private var assembler = SessionAssembler<SessionAttributes, Origin>()
    /// Pending sessions stored when the run began and not completed since.
    private var pendingIDs: Set<String>
    /// Of those, the ones this run resumed (now open in `assembler`).
    private var resumed: Set<String> = []
    private var currentSourceID: Int64?
    private let replay: StoredSessionReplay?

    /// A record held back by the reordering: what `add` needs to add it later.
    private struct Held {
        var record: TouchRecord
        var origin: Origin
        var raw: String
    }
    // The three below are read or changed once per session on the in-order path; one thread
    // runs an ingest, so their accesses are not checked at run time (as `ByteInput`'s are not).
    /// Set at the first row out of order: from then on a session's end waits (`deferredEnds`)
    /// until the log's time is a window past it, and chunks go through `handleReordering`.
    @exclusivity(unchecked) private var reordering = false
    /// Whether the stored sessions' times look like another unit than seconds (in `summary`).
    @exclusivity(unchecked) private var timeUnits = TimeUnitCheck()
    /// With `checkOnly`: the configuration names the sessions that would be stored give.
    public private(set) var configurationsNamed: Set<String> = []
    /// Rows of sessions not begun yet (an end before its `began`), by session id.
    private var heldOrphans: [String: [Held]] = [:]
    @exclusivity(unchecked) private var heldCount = 0
    /// Ends of open sessions waiting for the window to pass, by session id.
    private var deferredEnds: [String: Held] = [:]
    /// Rows held at most (orphans and ends): beyond, the earliest are let go.
    static let maximumHeld = 100_000

    /// Starts a run: opens the first transaction (for `strict`, the only one).
    public init(store: Store, options: IngestOptions = IngestOptions()) throws {
        self.store = store
        self.options = options
        let writer = try IngestWriter(store: store, options: options)
        self.writer = writer
        do {
            pendingIDs = try writer.pendingIDs()
            replay = options.replayStoredSessions ? try StoredSessionReplay(store: store, options: options) : nil
        } catch { writer.end(committing: false); throw error }
    }

    /// Starts a run without a database: every complete session goes to `stream`, which replays
    /// it at once and writes its result line; sessions open at the end become its pending lines
    /// (`pressdb replay --input`). The same loop and rules as an ingest, with nothing stored:
    /// no session is pending from an earlier run or stored already, so nothing is a duplicate.
    /// `options.replayStoredSessions` plays no part (the stream replays every session itself).
    public init(streamingTo stream: StreamReplay, options: IngestOptions = IngestOptions()) {
        store = nil
        self.options = options
        writer = stream
        pendingIDs = []
        replay = nil
    }

    deinit { end(committing: false) }

    /// Ends the replay worker and the writer's run (committing or rolling back).
    private func end(committing: Bool) {
        replay?.stop()
        writer.end(committing: committing)
    }

    // MARK: The pipeline

    /// Reads every item of `source` (reading `input`), storing complete sessions as they close.
    /// `progress` is called now and then with the bytes and records read so far.
    /// - Throws: `StrictRejectError` (everything rolled back), `IngestInterrupted` (nothing rolled
    ///   back: call `commitInterrupted`), `InputError`, `DatabaseError` (the current batch rolled
    ///   back; earlier batches stay committed).
    public func ingest<S: RecordSource>(_ source: inout S, input: ByteInput,
                                        progress: ((_ bytes: Int, _ records: Int) -> Void)? = nil) throws {
        if let chunked = source as? any ChunkedRecordSource {
            var s = chunked
            defer { source = s as! S }
            return try ingestChunks(&s, input: input, progress: progress)
        }
        var feed = InlineFeed(source: ItemChunks(source), input: input)
        defer { source = feed.source.base }
        try run(&feed, input: input, progress: progress)
    }

    /// `ingest` of a source that fills chunks itself, parsing on its own thread when
    /// `IngestOptions.readAhead` is set; opens the existential so the reader's own type runs on
    /// the reader thread.
    private func ingestChunks<R: ChunkedRecordSource>(_ source: inout R, input: ByteInput,
                                                      progress: ((_ bytes: Int, _ records: Int) -> Void)?) throws {
        guard options.readAhead else {
            var feed = InlineFeed(source: source, input: input)
            defer { source = feed.source }
            return try run(&feed, input: input, progress: progress)
        }
        var feed = ReadAheadFeed(source, input: input, idleTimeout: .milliseconds(Int64(options.idleSeconds * 1000)))
        // Nil: the reader still waits for a stalled input (an interrupted or failed run); the
        // source is not used again.
        defer { if let s = feed.finish() { source = s } }
        try run(&feed, input: input, progress: progress)
    }

    /// The ingest loop: every batch of the feed's items is handled in order, then (between
    /// batches, and on an idle one) the batch may be committed and a stop is honoured.
    private func run<F: RecordFeed>(_ feed: inout F, input: ByteInput,
                                    progress: ((_ bytes: Int, _ records: Int) -> Void)?) throws {
        do {
            let sourceID = try startSource(input)
            let recordsBefore = state.records, rejectsBefore = state.rejects
            while true {
                let batch = try feed.nextBatch { chunk in try handle(chunk, sourceID: sourceID) }
                progress?(state.bytes + feed.bytesRead, state.records)
                if batch == .end { break }
                try commitIfDue()
                if let stop = options.shouldStop, stop() { throw IngestInterrupted() }
            }
            try endSource(input, sourceID: sourceID, records: state.records - recordsBefore,
                          rejects: state.rejects - rejectsBefore)
            progress?(state.bytes, state.records)
        } catch let stop as IngestInterrupted {
            throw stop
        } catch {
            end(committing: false)
            throw error
        }
    }

    private func startSource(_ input: ByteInput) throws -> Int64 {
        let sourceID = try writer.beginSource(name: input.inputName)
        currentSourceID = sourceID
        return sourceID
    }

    private func endSource(_ input: ByteInput, sourceID: Int64, records: Int, rejects: Int) throws {
        state.files += 1
        state.bytes += input.bytesRead
        let finalID = try writer.finishSource(id: sourceID, input: input, records: records, rejects: rejects)
        if finalID != sourceID {
            assembler.updateOpenSessions { s in
                if s.first.sourceID == sourceID { s.first.sourceID = finalID }
                if s.last.sourceID == sourceID { s.last.sourceID = finalID }
            }
        }
        currentSourceID = nil
    }

    /// Handles a chunk's items in order. A touch record without attributes of a session open
    /// here is added through the session's handle, looked up once per session and chunk (no
    /// `TouchRecord`, no lookup by id); any other touch record goes through `add`.
    private func handle(_ chunk: RecordChunk, sourceID: Int64) throws {
        if reordering { return try handleReordering(chunk, sourceID: sourceID) }
        try handleInOrder(chunk, sourceID: sourceID)
        if reordering { try releaseDeferredEnds(seenUpTo: Self.latestTime(chunk)) }
    }

    /// `handle` while no row was out of order: the fast path.
    private func handleInOrder(_ chunk: RecordChunk, sourceID: Int64) throws {
        // The raw text of a touch record's line is only read for a reject found later; a closure
        // capturing `chunk` itself copied the whole chunk (a retain of each of its arrays, and a
        // release) each time one was made, three times a session. The closures capture this
        // reference instead.
        let text = ChunkText(chunk)
        // The assembler and the record count are worked on in locals for the chunk: as stored
        // properties of this class every `add` and `+= 1` was a dynamically checked access
        // (`swift_beginAccess`). Nothing the
        // loop calls reads either (`complete`, `reject` and the others' `handle` are given the
        // assembler), and both go back when the chunk ends, also when it throws.
        var assembler = SessionAssembler<SessionAttributes, Origin>()
        swap(&assembler, &self.assembler)
        var records = 0
        defer {
            swap(&assembler, &self.assembler)
            state.records += records
        }
        var handles = [SessionAssembler<SessionAttributes, Origin>.Handle?](repeating: nil, count: chunk.sessionIDs.count)
        var other = 0, attribute = 0, file = -1
        var fileName = "", fileSourceID = sourceID
        // The first row out of order sends the rest of the chunk to the reordering path.
        var resumeAt: Int?
        records: for i in 0..<chunk.touchCount {
            while other < chunk.otherPositions.count, chunk.otherPositions[other] == i {
                try handle(chunk.others[other], sourceID: sourceID, assembler: &assembler)
                other += 1
            }
            while file + 1 < chunk.fileStarts.count, chunk.fileStarts[file + 1] <= i {
                file += 1
                fileName = chunk.fileNames[file]
                fileSourceID = writer.sourceID(of: SourceLocation(file: fileName, line: 0), input: sourceID)
            }
            records += 1
            let touch = chunk.touch(i)
            let origin = Origin(sourceID: fileSourceID, line: touch.line)
            let k = Int(touch.session)
            var attributes: SessionAttributes?
            if attribute < chunk.attributeTouches.count, chunk.attributeTouches[attribute] == i {
                attributes = chunk.attributeValues[attribute]
                attribute += 1
            } else {
                if handles[k] == nil { handles[k] = assembler.handle(of: chunk.sessionIDs[k]) }
                if let h = handles[k], let event = assembler.add(touch.sample, to: h, at: origin) {
                    switch event {
                    case .accepted:
                        break
                    case .completed(let s):
                        handles[k] = nil
                        try complete(s, at: SourceLocation(file: fileName, line: touch.line), raw: { text.rawText(ofTouch: i) })
                    case .rejected(let problem):
                        if late(problem, session: chunk.sessionIDs[k], touch.sample, meta: nil, origin, &assembler) {
                            resumeAt = i + 1
                            break records
                        }
                        try reject(Reject(source: SourceLocation(file: fileName, line: touch.line),
                                          reason: problem.reason(session: chunk.sessionIDs[k]), raw: chunk.rawText(ofTouch: i)))
                    }
                    continue
                }
            }
            handles[k] = nil
            if let given = attributes {
                // A record giving attributes (a session's first, as a rule) is added as `add`
                // would add it, without building a `TouchRecord` (its attributes boxed on the
                // heap, then copied out again). Only a record of no open session goes on to
                // `add`, whose first step is this same call, for a pending or stored session.
                let session = chunk.sessionIDs[k]
                let event = assembler.add(session: session, sample: touch.sample, meta: given.hasAnyValue ? given : nil,
                                          empty: SessionAttributes(), at: origin)
                switch event {
                case .rejected(.notOpen):
                    break
                case .accepted:
                    if heldCount != 0 { try releaseHeld(session, began: touch.sample.t, &assembler) }
                    continue
                case .completed(let s):
                    try complete(s, at: SourceLocation(file: fileName, line: touch.line), raw: { text.rawText(ofTouch: i) })
                    continue
                case .rejected(let problem):
                    if late(problem, session: session, touch.sample, meta: given.hasAnyValue ? given : nil, origin, &assembler) {
                        resumeAt = i + 1
                        break records
                    }
                    try reject(Reject(source: SourceLocation(file: fileName, line: touch.line),
                                      reason: problem.reason(session: session), raw: chunk.rawText(ofTouch: i)))
                    continue
                }
            }
            var r = TouchRecord(session: chunk.sessionIDs[k], sample: touch.sample,
                                source: SourceLocation(file: fileName, line: touch.line))
            if let attributes { r.attributes = attributes }
            try add(r, origin: origin, raw: { text.rawText(ofTouch: i) }, to: &assembler)
            if reordering { resumeAt = i + 1; break records }
        }
        if let resumeAt { return try reorderRecords(chunk, from: resumeAt, other: &other, sourceID: sourceID, &assembler) }
        while other < chunk.others.count {
            try handle(chunk.others[other], sourceID: sourceID, assembler: &assembler)
            other += 1
        }
    }

    /// A chunk held by reference, for the closures that give a touch record's raw line.
    private final class ChunkText {
        let chunk: RecordChunk
        init(_ chunk: RecordChunk) { self.chunk = chunk }
        func rawText(ofTouch i: Int) -> String { chunk.rawText(ofTouch: i) }
    }

    /// An item other than a touch record (a configuration, a layout control, a reject), with the
    /// run's open sessions (`assembler`, the chunk loop's local).
    private func handle(_ item: RecordItem, sourceID: Int64,
                        assembler: inout SessionAssembler<SessionAttributes, Origin>) throws {
        state.records += 1
        switch item {
        case .touch(let r):
            try add(r, origin: Origin(sourceID: writer.sourceID(of: r.source, input: sourceID), line: r.source.line),
                    raw: { "" }, to: &assembler)
        case .config(let c):
            state.configRecords += 1
            try writer.configRecord(c)
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

    // MARK: Ending the run

    /// Stores still-open sessions as pending, commits, and returns the state.
    public func finish() throws -> IngestSummary {
        try commit(keepingOpenSessions: true)
        return summary
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
            return summary
        }
        try commit(keepingOpenSessions: false)
        return summary
    }

    /// The end of a run: the open sessions kept as pending (or not), every stored session's
    /// replay result written (none is committed without it), then the commit.
    private func commit(keepingOpenSessions: Bool) throws {
        do {
            try finishReordering(rejectingHeld: keepingOpenSessions)
            if keepingOpenSessions { for open in assembler.drain() { try keepOpen(open) } }
            try writeReplayed(all: true)
            if state.sessionsNew > 0 { state.replayedSessions = replay?.replayed(ids: state.newSessionIDRuns) }
            replay?.stop()
            if options.checkOnly { end(committing: false) } else { try writer.commitAndEnd() }
        } catch {
            end(committing: false)
            throw error
        }
    }

    // MARK: Applying the rules

    /// Adds touch record `r` to its session in `assembler` (the run's open sessions).
    private func add(_ r: TouchRecord, origin: Origin, raw: () -> String,
                     to assembler: inout SessionAssembler<SessionAttributes, Origin>) throws {
        let meta = r.hasAttributes ? r.attributes : nil
        var event = assembler.add(session: r.session, sample: r.sample, meta: meta, empty: SessionAttributes(), at: origin)
        if case .rejected(.notOpen) = event {
            var pending: AssembledSession?
            if pendingIDs.contains(r.session), !resumed.contains(r.session) { pending = try writer.pending(r.session) }
            let stored = pending == nil ? try storedForOrphans(r.session) : nil
            switch IngestRules.orphanSample(r.sample, pendingToResume: pending != nil, stored: stored?.samples,
                                            hint: stored?.next ?? 0) {
            case .resumePending:
                assembler.resume(pending!)
                resumed.insert(r.session)
                event = assembler.add(session: r.session, sample: r.sample, meta: meta, empty: SessionAttributes(), at: origin)
            case .repeatsStored(let index):
                orphansOf?.next = index + 1
                if repeatedSessions.insert(r.session).inserted { state.duplicates += 1 }
                return
            case .afterEnd:
                return try reject(Reject(source: r.source, reason: "sample after the end of session \"\(r.session)\" "
                    + "(it already ended with \"ended\" or \"cancelled\")", raw: raw()))
            case .notStarted:
                // Perhaps its `began` comes later (rows out of order): held until it does.
                if options.reorderWindow > 0 {
                    reordering = true
                    heldOrphans[r.session, default: []].append(Held(record: r, origin: origin, raw: raw()))
                    heldCount += 1
                    if heldCount > Self.maximumHeld { try rejectHeld(heldOrphans.keys.first!) }
                    return
                }
            }
        }
        switch event {
        case .accepted:
            if heldCount != 0, r.sample.phase == .began { try releaseHeld(r.session, began: r.sample.t, &assembler) }
        case .completed(let s): try complete(s, at: r.source, raw: raw)
        case .rejected(let problem):
            if late(problem, session: r.session, r.sample, meta: meta, origin, &assembler) { return }
            try reject(Reject(source: r.source, reason: problem.reason(session: r.session), raw: raw()))
        }
    }

    // MARK: Rows out of order

    /// A sample that came after later samples of its open session, at most the window late: put
    /// at its place in time (true). False for anything else (rejected as before).
    private func late(_ problem: AssemblyProblem, session: String, _ sample: TouchSample, meta: SessionAttributes?,
                      _ origin: Origin, _ assembler: inout SessionAssembler<SessionAttributes, Origin>) -> Bool {
        guard case .timeGoesBackwards(let t, let previous) = problem, previous - t <= options.reorderWindow,
              assembler.insertLate(session: session, sample: sample, meta: meta, at: origin) == nil else { return false }
        reordering = true
        state.reordered += 1
        return true
    }

    /// A chunk once rows were out of order: every touch record through `addReordering`, then
    /// the ends the window has passed are added.
    private func handleReordering(_ chunk: RecordChunk, sourceID: Int64) throws {
        var assembler = SessionAssembler<SessionAttributes, Origin>()
        swap(&assembler, &self.assembler)
        defer { swap(&assembler, &self.assembler) }
        var other = 0
        try reorderRecords(chunk, from: 0, other: &other, sourceID: sourceID, &assembler)
    }

    /// The chunk's touch records from `start` on (and its other items from `other` on) through
    /// `addReordering`, then the ends the window has passed.
    private func reorderRecords(_ chunk: RecordChunk, from start: Int, other: inout Int, sourceID: Int64,
                                _ assembler: inout SessionAssembler<SessionAttributes, Origin>) throws {
        for i in start..<chunk.touchCount {
            while other < chunk.otherPositions.count, chunk.otherPositions[other] == i {
                try handle(chunk.others[other], sourceID: sourceID, assembler: &assembler)
                other += 1
            }
            state.records += 1
            let r = chunk.record(ofTouch: i)
            let origin = Origin(sourceID: writer.sourceID(of: r.source, input: sourceID), line: r.source.line)
            try addReordering(r, origin: origin, raw: chunk.rawText(ofTouch: i), &assembler)
        }
        while other < chunk.others.count {
            try handle(chunk.others[other], sourceID: sourceID, assembler: &assembler)
            other += 1
        }
        try releaseDeferredEnds(seenUpTo: Self.latestTime(chunk), assembler: &assembler)
    }

    /// `add`, but the end of an open session waits in `deferredEnds` (rows of it may still come).
    private func addReordering(_ r: TouchRecord, origin: Origin, raw: String,
                               _ assembler: inout SessionAssembler<SessionAttributes, Origin>) throws {
        if let end = deferredEnds[r.session], r.sample.phase == .began || r.sample.phase.isTerminal {
            // A second end, or the id begun again: the waiting end goes first.
            deferredEnds[r.session] = nil
            try add(end.record, origin: end.origin, raw: { end.raw }, to: &assembler)
        } else if r.sample.phase.isTerminal, assembler.isOpen(r.session) {
            deferredEnds[r.session] = Held(record: r, origin: origin, raw: raw)
            if deferredEnds.count > Self.maximumHeld { try releaseDeferredEnds(seenUpTo: .infinity, assembler: &assembler) }
            return
        }
        try add(r, origin: origin, raw: { raw }, to: &assembler)
    }

    /// The latest time among a chunk's touch records (the log's time when it ends).
    private static func latestTime(_ chunk: RecordChunk) -> Double {
        var latest = -Double.infinity
        for i in 0..<chunk.touchCount { latest = max(latest, chunk.touch(i).sample.t) }
        return latest
    }

    /// Adds the waiting ends a window or more before `seenUpTo` (every one for `.infinity`), in
    /// time order.
    private func releaseDeferredEnds(seenUpTo latest: Double) throws {
        var assembler = SessionAssembler<SessionAttributes, Origin>()
        swap(&assembler, &self.assembler)
        defer { swap(&assembler, &self.assembler) }
        try releaseDeferredEnds(seenUpTo: latest, assembler: &assembler)
    }

    private func releaseDeferredEnds(seenUpTo latest: Double,
                                     assembler: inout SessionAssembler<SessionAttributes, Origin>) throws {
        if deferredEnds.isEmpty { return }
        let due = deferredEnds.values.filter { latest == .infinity || $0.record.sample.t + options.reorderWindow < latest }
            .sorted { ($0.record.sample.t, $0.origin.sourceID, $0.origin.line) < ($1.record.sample.t, $1.origin.sourceID, $1.origin.line) }
        for end in due {
            deferredEnds[end.record.session] = nil
            try add(end.record, origin: end.origin, raw: { end.raw }, to: &assembler)
        }
    }

    /// The rows held for session `id`, whose `began` (at `began`) was just added: added in time
    /// order when the latest is at most the window after it, else rejected as before.
    private func releaseHeld(_ id: String, began: Double, _ assembler: inout SessionAssembler<SessionAttributes, Origin>) throws {
        guard let held = heldOrphans.removeValue(forKey: id) else { return }
        heldCount -= held.count
        let ordered = held.enumerated().sorted { ($0.element.record.sample.t, $0.offset) < ($1.element.record.sample.t, $1.offset) }
            .map(\.element)
        guard let latest = ordered.last?.record.sample.t, latest - began <= options.reorderWindow else {
            for h in held { try rejectHeld(h) }
            return
        }
        state.reordered += held.count
        for h in ordered { try addReordering(h.record, origin: h.origin, raw: h.raw, &assembler) }
    }

    private func rejectHeld(_ id: String) throws {
        guard let held = heldOrphans.removeValue(forKey: id) else { return }
        heldCount -= held.count
        for h in held { try rejectHeld(h) }
    }

    private func rejectHeld(_ h: Held) throws {
        try reject(Reject(source: h.record.source, reason: AssemblyProblem.notOpen(h.record.sample.phase)
            .reason(session: h.record.session), raw: h.raw), sourceID: h.origin.sourceID)
    }

    /// The end of a run: every waiting end added; rows whose `began` never came rejected (or,
    /// for an interrupted run, dropped: re-running reads them again).
    private func finishReordering(rejectingHeld: Bool) throws {
        try releaseDeferredEnds(seenUpTo: .infinity)
        if rejectingHeld {
            for id in heldOrphans.keys.sorted() { try rejectHeld(id) }
        }
        heldOrphans = [:]
        heldCount = 0
    }

    /// The stored complete session that orphan samples were last compared with, and where the
    /// next of them is looked for first (a re-read tail comes in order, so each is found at once).
    private var orphansOf: (session: String, samples: [TouchSample], next: Int)?
    /// Sessions whose samples this run re-read after they were stored complete, counted once each
    /// as a duplicate.
    private var repeatedSessions: Set<String> = []

    /// The samples of the complete session `session` (nil when none is stored), kept while
    /// orphan samples of the same session follow one another.
    private func storedForOrphans(_ session: String) throws -> (samples: [TouchSample], next: Int)? {
        if let o = orphansOf, o.session == session { return (o.samples, o.next) }
        guard let samples = try writer.storedSamples(session) else { return nil }
        orphansOf = (session, samples, 0)
        return (samples, 0)
    }

    /// Gives `s` the run's defaults for what it does not give (`--config`, `--container`). The
    /// values are asked with `has`: reading `config` and `container` to compare them with nil
    /// copied each out (a `Container` with its name), and the session was copied to be changed.
    private func applyDefaults(_ s: inout AssembledSession) {
        if let config = options.defaultConfig, !s.meta.has(.config) { s.meta.config = config }
        if let container = options.defaultContainer, !s.meta.has(.container) { s.meta.container = container }
    }

    /// A session completed by the record at `location` (whose line is `raw`).
    private func complete(_ assembled: consuming AssembledSession, at location: SourceLocation, raw: () -> String) throws {
        var s = assembled
        applyDefaults(&s)
        let fromPending = pendingIDs.contains(s.id)
        let startedOver = fromPending && !resumed.contains(s.id) ? try writer.pending(s.id)?.samples : nil
        switch IngestRules.completed(s.samples, startedOver: startedOver) {
        case .store: break
        case .conflictsWithPending:
            return try conflict(s.id, with: "a pending session", at: location, raw: raw(), sourceID: s.last.sourceID)
        case .durationNotFinite:
            return try reject(Reject(source: location, reason: "session \"\(s.id)\" lasts from \(s.samples[0].t) s to "
                + "\(s.samples[s.samples.count - 1].t) s: its duration is not a finite number of milliseconds "
                + "(are the times in seconds?)", raw: raw()), sourceID: s.last.sourceID)
        }
        timeUnits.observe(first: s.samples[0].t, last: s.samples[s.samples.count - 1].t, count: s.samples.count)
        if options.checkOnly, let name = s.meta.config { configurationsNamed.insert(name) }
        if let id = try writer.insert(s) {
            state.sessionsNew += 1
            state.appendNewSessionID(id)
            replay?.replay(id: id, s)
            if fromPending {
                try writer.deletePending(s.id)
                pendingIDs.remove(s.id)
                resumed.remove(s.id)
                state.sessionsCompletedFromPending += 1
            }
            return
        }
        guard let stored = try writer.storedSamples(s.id) else {
            throw DatabaseError(code: 0, message: "session \(s.id) neither inserted nor found")
        }
        switch IngestRules.alreadyStored(s.samples, stored: stored) {
        case .duplicate: state.duplicates += 1
        case .conflict: try conflict(s.id, with: "a stored session", at: location, raw: raw(), sourceID: s.last.sourceID)
        }
    }

    /// At the end of the run: an open session is kept as pending unless it repeats stored data.
    private func keepOpen(_ open: AssembledSession) throws {
        let resumedHere = resumed.contains(open.id)
        let stored = resumedHere ? nil : try writer.storedSamples(open.id)
        let pending = resumedHere || stored != nil || !pendingIDs.contains(open.id) ? nil : try writer.pending(open.id)?.samples
        let what: String
        switch IngestRules.leftOpen(open.samples, resumed: resumedHere, stored: stored, pending: pending) {
        case .keepPending:
            try writer.keepPending(open)
            state.pending += 1
            return
        case .duplicate:
            state.duplicates += 1
            return
        case .conflictsWithStored: what = "a stored session"
        case .conflictsWithPending: what = "a pending session"
        }
        // No record completed it: the reject is the session's last record, named but not quoted.
        let location = SourceLocation(file: try writer.sourceName(open.last.sourceID), line: open.last.line)
        try conflict(open.id, with: what, at: location, raw: "", sourceID: open.last.sourceID)
    }

    /// Rejects session `id`, which conflicts with `what` of the same id, at the record that
    /// completed it (`raw`, its line).
    private func conflict(_ id: String, with what: String, at location: SourceLocation, raw: String, sourceID: Int64) throws {
        state.conflicts += 1
        try reject(Reject(source: location, reason: "session \"\(id)\" conflicts with \(what) of the same id "
            + "and different samples; the stored data was kept", raw: raw), sourceID: sourceID)
    }

    private func reject(_ r: Reject, sourceID: Int64? = nil) throws {
        if options.strict {
            end(committing: false)
            throw StrictRejectError(reject: r)
        }
        state.rejects += 1
        if state.firstRejects.count < options.rejectMessagesKept { state.firstRejects.append(r) }
        try writer.reject(r, sourceID: sourceID ?? currentSourceID)
    }

    // MARK: Batches

    /// Writes the results the replay worker has finished (`all`: waits for every queued one).
    private func writeReplayed(all: Bool) throws {
        if let replay { state.sessionsReplayed += try replay.write(all: all) }
    }

    private func commitIfDue() throws {
        try writeReplayed(all: false)
        guard writer.batchIsDue(options) else { return }
        try writeReplayed(all: true)
        try writer.commitBatch {
            committedBatches += 1
            committedSessions = state.sessionsNew
        }
    }
}
