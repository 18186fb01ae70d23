// pressdb's tables through typed calls: sources, sessions, pending sessions, rejects,
// configuration records (written by ingest), and sessions and results (read and written by
// replay). Prepared statements are made once per connection and reused.
import PressCore
import PressFormats
#if canImport(Glibc)
import Glibc
#endif

/// Where a record came from: the `sources` row of its input and its 1-based line.
public struct Origin: Hashable, Sendable {
    public var sourceID: Int64
    public var line: Int
    public init(sourceID: Int64, line: Int) { self.sourceID = sourceID; self.line = line }
}

/// A session as assembled from records (open or complete).
public typealias AssembledSession = OpenSession<SessionAttributes, Origin>

/// A complete session read back from the database.
public struct StoredSession: Hashable, Sendable {
    /// `sessions.id`, the key results refer to.
    public var id: Int64
    /// The log's session id.
    public var session: String
    /// Every sample exactly as read (bit-exact doubles).
    public var samples: [TouchSample]
    /// The attributes as stored; `variant` is nil when the log gave none.
    public var attributes: SessionAttributes
    /// The A/B arm: the variant given, else the config name, else nil.
    public var variant: String?
    /// Touch-down time (the `began` sample's t), s.
    public var t0: Double { samples.first?.t ?? 0 }
}

/// Which stored sessions to read. Empty filters select everything; filters combine with AND.
public struct SessionFilter: Sendable, Hashable {
    /// `sessions.id` values.
    public var ids: [Int64]?
    /// Log session ids.
    public var sessions: [String]?
    /// Sessions whose `config` is this name.
    public var config: String?
    /// Sessions with no row in `results` for this configuration version.
    public var withoutResultForConfigVersion: String?
    /// With `config`: sessions that name no configuration count as this one (`--config`).
    public var defaultConfig: String?
    /// Sessions whose `sessions.id` is above this (reading in pages).
    public var afterID: Int64?
    public init(ids: [Int64]? = nil, sessions: [String]? = nil, config: String? = nil,
                withoutResultForConfigVersion: String? = nil) {
        self.ids = ids; self.sessions = sessions; self.config = config
        self.withoutResultForConfigVersion = withoutResultForConfigVersion
    }
}

/// One row of `results` (the shared contract in HELPERS.md): one session replayed under one
/// configuration version. Times in milliseconds, distances in points.
public struct ResultRow: Hashable, Sendable {
    public var sessionID: Int64
    public var config: String
    public var configVersion: String
    /// False: the session's own configuration; true: replayed "as" another one.
    public var counterfactual: Bool
    /// `tap`, `cancel` or `scroll_abort`.
    public var outcome: String
    /// `drag_exit`, `system`, `safe_area`, or nil (taps and scroll-aborts).
    public var cancelReason: String?
    public var actionFired: Bool
    public var feedbackLatencyMs: Double?
    public var actionLatencyMs: Double?
    public var durationMs: Double
    public var maxTravelPt: Double
    public var pressDepth: Double
    public var releaseJumpPt: Double
    public init(sessionID: Int64, config: String, configVersion: String, counterfactual: Bool, outcome: String,
                cancelReason: String?, actionFired: Bool, feedbackLatencyMs: Double?, actionLatencyMs: Double?,
                durationMs: Double, maxTravelPt: Double, pressDepth: Double, releaseJumpPt: Double) {
        self.sessionID = sessionID; self.config = config; self.configVersion = configVersion
        self.counterfactual = counterfactual; self.outcome = outcome; self.cancelReason = cancelReason
        self.actionFired = actionFired; self.feedbackLatencyMs = feedbackLatencyMs
        self.actionLatencyMs = actionLatencyMs; self.durationMs = durationMs; self.maxTravelPt = maxTravelPt
        self.pressDepth = pressDepth; self.releaseJumpPt = releaseJumpPt
    }
}

/// The database seen as pressdb's tables.
///
///     let store = try Store.open(path: "pressdb.sqlite")
///     let cursor = try store.sessions(SessionFilter(config: "spring-press"))
///     while let s = try cursor.next() { … }
public final class Store {
    public let db: Database
    private var statements: [String: Statement] = [:]

    public init(database: Database) {
        db = database
        _ = Store.allocatorTuned
    }

    /// glibc's malloc gives memory back to the system (`brk`) whenever the free space at the top
    /// of the heap exceeds its trim threshold (128 KiB by default, adjusted as it goes). SQLite
    /// opens a small temporary B-tree for each `CHECK (x IN (…))` constraint of every row it
    /// inserts (`sessions.end_phase`, `sessions.scroll_axis`, `results.outcome`, …) and frees it
    /// at the end of the statement; when those blocks sit at the top of the heap, every row costs
    /// a pair of `brk` calls and fresh zeroed pages. Measured on `pressdb replay --as` of 100,000
    /// sessions: 200,000 `brk` calls, 3.5 s of 5.3 s in the kernel; the time varied 1.3–5.9 s with
    /// nothing but the environment's size (the heap's layout) changing. A fixed 64 MiB threshold
    /// keeps the freed blocks for reuse; peak memory is unchanged (only freed memory is kept).
    /// Process-wide, set once, by the first `Store`.
    /// (`mallopt` is looked up with `dlsym` because Swift's Glibc module does not import
    /// `<malloc.h>`; elsewhere, or when it is missing, nothing is changed.)
    static let allocatorTuned: Bool = {
        #if canImport(Glibc)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return false }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        return mallopt(Store.mallocTrimThresholdParameter, Store.trimThresholdBytes) == 1
        #else
        return false
        #endif
    }()

    /// glibc's `M_TRIM_THRESHOLD` parameter number (`<malloc.h>`: `#define M_TRIM_THRESHOLD -1`).
    static let mallocTrimThresholdParameter: Int32 = -1
    /// The trim threshold `allocatorTuned` sets: 64 MiB.
    static let trimThresholdBytes: Int32 = 64 << 20

    /// Opens (creating and migrating) the database at `path` for writing.
    public static func open(path: String) throws -> Store { Store(database: try Schema.open(path: path)) }

    /// Statements of the per-session paths (ingest, replay), held directly: `cached` hashes its
    /// SQL text on every call, which showed in profiles at one call per session.
    private var insertSessionStatement: Statement?
    private var insertResultStatement: Statement?

    /// The statement in `slot`, prepared from `sql` on first use, reset and ready to bind.
    @inline(__always)
    func hot(_ slot: inout Statement?, _ sql: @autoclosure () -> String) throws -> Statement {
        if let s = slot { s.reset(); return s }
        let s = try db.prepare(sql())
        slot = s
        return s
    }

    /// A cached prepared statement for `sql`, reset and ready to bind.
    func cached(_ sql: String) throws -> Statement {
        if let s = statements[sql] { s.reset(); return s }
        let s = try db.prepare(sql)
        statements[sql] = s
        return s
    }

    // MARK: Attribute columns (same order in sessions and pending)

    static let attributeColumns = "config, variant, control, frame_x, frame_y, frame_w, frame_h, container, scroll_axis, "
        + "user, device, app_version, screen, extra"
    static let attributeCount: Int32 = 14

    /// Binds `a` to parameters `first`, `first + 1`, … in `attributeColumns` order. `variant`
    /// is bound as `variant` (the caller decides the default).
    static func bindAttributes(_ s: Statement, _ first: Int32, _ a: SessionAttributes, variant: String?) {
        s.bind(first, a.config)
        s.bind(first + 1, variant)
        s.bind(first + 2, a.control)
        s.bind(first + 3, a.frame?.x)
        s.bind(first + 4, a.frame?.y)
        s.bind(first + 5, a.frame?.width)
        s.bind(first + 6, a.frame?.height)
        s.bind(first + 7, a.container.map(ContainerJSON.storedText))
        s.bind(first + 8, a.scrollAxis?.rawValue)
        s.bind(first + 9, a.user)
        s.bind(first + 10, a.device)
        s.bind(first + 11, a.appVersion)
        s.bind(first + 12, a.screen)
        s.bind(first + 13, a.extra)
    }

    /// Reads attributes from columns `first`, … in `attributeColumns` order; `variant` as stored.
    static func readAttributes(_ s: Statement, _ first: Int32) -> SessionAttributes {
        var a = SessionAttributes()
        a.config = s.optionalText(first)
        a.variant = s.optionalText(first + 1)
        a.control = s.optionalText(first + 2)
        if let x = s.optionalDouble(first + 3), let y = s.optionalDouble(first + 4),
           let w = s.optionalDouble(first + 5), let h = s.optionalDouble(first + 6) {
            a.frame = Rect(x: x, y: y, width: w, height: h)
        }
        a.container = s.optionalText(first + 7).flatMap(ContainerJSON.fromStoredText)
        a.scrollAxis = s.optionalText(first + 8).flatMap(ScrollAxis.init(rawValue:))
        a.user = s.optionalText(first + 9)
        a.device = s.optionalText(first + 10)
        a.appVersion = s.optionalText(first + 11)
        a.screen = s.optionalText(first + 12)
        a.extra = s.optionalText(first + 13)
        return a
    }

    // MARK: Sources

    /// Adds a `sources` row for an input about to be read (its hash is not known yet).
    public func beginSource(name: String) throws -> Int64 {
        let s = try cached("INSERT INTO sources(name) VALUES (?)")
        s.bind(1, name)
        try s.run()
        return db.lastInsertRowID
    }

    /// Records an input's hash and counts. When the same content was ingested before, the new
    /// row is merged into the old one (references moved, `ingest_count` incremented) and the
    /// old row's id is returned; otherwise `id`.
    public func finishSource(id: Int64, hash: String, bytes: Int, records: Int, rejects: Int) throws -> Int64 {
        let find = try cached("SELECT id FROM sources WHERE content_hash = ? AND id <> ?")
        find.bind(1, hash)
        find.bind(2, id)
        if let old = try find.scalarInt() {
            for sql in [
                "UPDATE sessions SET source_id = ?1 WHERE source_id = ?2",
                "UPDATE sessions SET last_source_id = ?1 WHERE last_source_id = ?2",
                "UPDATE pending SET source_id = ?1 WHERE source_id = ?2",
                "UPDATE pending SET last_source_id = ?1 WHERE last_source_id = ?2",
                "UPDATE OR IGNORE rejects SET source_id = ?1 WHERE source_id = ?2",
                "DELETE FROM rejects WHERE source_id = ?2",
                "DELETE FROM sources WHERE id = ?2",
                "UPDATE sources SET ingest_count = ingest_count + 1, last_ingested = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1",
            ] {
                let s = try cached(sql)
                s.bind(1, old)
                s.bind(2, id)
                try s.run()
            }
            return old
        }
        let s = try cached("UPDATE sources SET content_hash = ?, bytes = ?, records = ?, rejects = ? WHERE id = ?")
        s.bind(1, hash); s.bind(2, bytes); s.bind(3, records); s.bind(4, rejects); s.bind(5, id)
        try s.run()
        return id
    }

    // MARK: Sessions

    /// What storing a complete session did.
    public enum InsertOutcome: Hashable, Sendable {
        /// Stored as a new row with this id.
        case inserted(Int64)
        /// The id was already stored with identical samples: nothing changed.
        case duplicate(Int64)
        /// The id was already stored with different samples: nothing changed.
        case conflict(Int64)
    }

    /// Stores a complete session unless its id is already stored. `variant` is stored as given,
    /// else the config name (`variant_given` = 0).
    /// - Precondition: the session has at least one sample and ends with `ended` or `cancelled`.
    public func insertSession(_ s: AssembledSession) throws -> InsertOutcome {
        let blob = SampleCodec.encode(s.samples)
        let st = try hot(&insertSessionStatement, """
            INSERT INTO sessions(session, t0, t1, sample_count, end_phase, samples, variant_given,
                                 source_id, first_line, last_source_id, last_line, \(Store.attributeColumns), ingested_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25,
                    coalesce(?26, \(Store.nowTimestamp)))
            ON CONFLICT(session) DO NOTHING
            """)
        st.bind(26, ingestedAt)
        st.bind(1, s.id)
        st.bind(2, s.samples[0].t)
        st.bind(3, s.samples[s.samples.count - 1].t)
        st.bind(4, s.samples.count)
        st.bind(5, s.samples[s.samples.count - 1].phase.rawValue)
        st.bind(6, blob: blob)
        st.bind(7, s.meta.variant != nil)
        st.bind(8, s.first.sourceID)
        st.bind(9, s.first.line)
        st.bind(10, s.last.sourceID)
        st.bind(11, s.last.line)
        Store.bindAttributes(st, 12, s.meta, variant: s.meta.variant ?? s.meta.config)
        try st.run()
        if db.changes == 1 { return .inserted(db.lastInsertRowID) }
        guard let stored = try storedSamples(session: s.id) else {
            throw DatabaseError(code: 0, message: "session \(s.id) neither inserted nor found")
        }
        return stored.blob == blob ? .duplicate(stored.id) : .conflict(stored.id)
    }

    /// The schema's default for `ingested_at`: the current UTC time, e.g. `2026-11-29T17:06:01.250Z`.
    static let nowTimestamp = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"

    /// `sessions.ingested_at` for the sessions `insertSession` stores; nil: the time of each
    /// insert (the schema's default). Ingest sets it once per transaction (`stampIngestTime`):
    /// SQLite formats the default with `strftime` for every row, 3.9 % of the ingesting
    /// thread's instructions (callgrind, 20,000 sessions).
    public var ingestedAt: String?

    /// Sets `ingestedAt` to the current time, formatted as the schema's default formats it.
    public func stampIngestTime() throws {
        ingestedAt = try cached("SELECT \(Store.nowTimestamp)").scalarText()
    }

    /// The row id and sample BLOB of a stored session, or nil.
    public func storedSamples(session: String) throws -> (id: Int64, blob: [UInt8])? {
        let s = try cached("SELECT id, samples FROM sessions WHERE session = ?")
        s.bind(1, session)
        defer { s.reset() }
        guard try s.step() else { return nil }
        return (s.int64(0), s.blob(1))
    }

    /// Number of stored sessions.
    public func sessionCount() throws -> Int { Int(try cached("SELECT count(*) FROM sessions").scalarInt() ?? 0) }

    /// Reads stored sessions matching `filter`, in `id` order, one at a time.
    public func sessions(_ filter: SessionFilter = SessionFilter()) throws -> SessionCursor {
        let (whereClause, values) = selection(filter)
        let sql = "SELECT id, session, samples, variant_given, \(Store.attributeColumns) FROM sessions\(whereClause) ORDER BY id"
        let s = try db.prepare(sql)
        s.bind(values)
        return SessionCursor(statement: s)
    }

    /// Number of stored sessions matching `filter` (what `sessions(filter)` would read).
    public func sessionCount(_ filter: SessionFilter) throws -> Int {
        let (whereClause, values) = selection(filter)
        let s = try db.prepare("SELECT count(*) FROM sessions\(whereClause)")
        s.bind(values)
        return Int(try s.scalarInt() ?? 0)
    }

    /// The WHERE clause (empty, or starting with " WHERE") selecting `filter`'s sessions, with its
    /// bound values.
    private func selection(_ filter: SessionFilter) -> (String, [SQLValue]) {
        var conditions: [String] = []
        var values: [SQLValue] = []
        if let ids = filter.ids {
            values.append(.text("[" + ids.map(String.init).joined(separator: ",") + "]"))
            conditions.append("id IN (SELECT value FROM json_each(?\(values.count)))")
        }
        if let names = filter.sessions {
            values.append(.text("[" + names.map(JSONText.string).joined(separator: ",") + "]"))
            conditions.append("session IN (SELECT value FROM json_each(?\(values.count)))")
        }
        if let config = filter.config {
            values.append(.text(config))
            if let d = filter.defaultConfig {
                values.append(.text(d))
                conditions.append("coalesce(config, ?\(values.count)) = ?\(values.count - 1)")
            } else {
                conditions.append("config = ?\(values.count)")
            }
        }
        if let version = filter.withoutResultForConfigVersion {
            values.append(.text(version))
            conditions.append("NOT EXISTS (SELECT 1 FROM results r WHERE r.session_id = sessions.id AND r.config_version = ?\(values.count))")
        }
        if let afterID = filter.afterID {
            values.append(.integer(afterID))
            conditions.append("id > ?\(values.count)")
        }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), values)
    }

    // MARK: Pending

    /// Ids of every pending (open) session.
    public func pendingIDs() throws -> Set<String> {
        let s = try cached("SELECT session FROM pending")
        defer { s.reset() }
        var out: Set<String> = []
        while try s.step() { out.insert(s.text(0)) }
        return out
    }

    /// A pending session, as it was when its last ingest ended.
    public func pending(session: String) throws -> AssembledSession? {
        let s = try cached("""
            SELECT samples, source_id, first_line, last_source_id, last_line, \(Store.attributeColumns)
            FROM pending WHERE session = ?
            """)
        s.bind(1, session)
        defer { s.reset() }
        guard try s.step() else { return nil }
        let samples = try s.withBlob(0) { try SampleCodec.decode($0) }
        return AssembledSession(id: session, samples: samples, meta: Store.readAttributes(s, 5),
                                first: Origin(sourceID: s.int64(1), line: s.int(2)),
                                last: Origin(sourceID: s.int64(3), line: s.int(4)))
    }

    /// Stores (or replaces) an open session as pending; `variant` as given.
    public func savePending(_ p: AssembledSession) throws {
        let s = try cached("""
            INSERT OR REPLACE INTO pending(session, sample_count, samples, source_id, first_line, last_source_id, last_line,
                                           \(Store.attributeColumns))
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)
            """)
        s.bind(1, p.id)
        s.bind(2, p.samples.count)
        s.bind(3, blob: SampleCodec.encode(p.samples))
        s.bind(4, p.first.sourceID)
        s.bind(5, p.first.line)
        s.bind(6, p.last.sourceID)
        s.bind(7, p.last.line)
        Store.bindAttributes(s, 8, p.meta, variant: p.meta.variant)
        try s.run()
    }

    public func deletePending(session: String) throws {
        let s = try cached("DELETE FROM pending WHERE session = ?")
        s.bind(1, session)
        try s.run()
    }

    // MARK: Rejects and configuration records

    /// Stores a rejected line (ignored when the same source line was already rejected).
    public func insertReject(_ r: Reject, sourceID: Int64?) throws {
        let s = try cached("INSERT OR IGNORE INTO rejects(source_id, source_file, line, reason, raw) VALUES (?, ?, ?, ?, ?)")
        s.bind(1, sourceID)
        s.bind(2, r.source.file)
        s.bind(3, r.source.line)
        s.bind(4, r.reason)
        s.bind(5, r.raw)
        try s.run()
    }

    /// Stores a configuration record's JSON text (once per distinct name and text).
    public func insertConfigRecord(_ c: ConfigRecordText) throws {
        let s = try cached("INSERT OR IGNORE INTO config_records(name, definition, source_file, line) VALUES (?, ?, ?, ?)")
        s.bind(1, c.name)
        s.bind(2, c.json)
        s.bind(3, c.source.file)
        s.bind(4, c.source.line)
        try s.run()
    }

    // MARK: Results

    /// Inserts (or replaces, for a re-replay) result rows, in one transaction per call unless a
    /// transaction is already open, with one prepared statement reused. Call with batches of
    /// a few thousand rows.
    ///
    /// A row whose (session_id, config_version) is already stored is deleted and inserted again:
    /// what `INSERT OR REPLACE` does. It is done in two plain statements because SQLite runs an
    /// `OR REPLACE` insert into a table with a foreign key under a statement journal (a
    /// savepoint per row, copying each page it touches).
    public func insertResults(_ rows: [ResultRow]) throws {
        if db.isInTransaction {
            for r in rows { try insertResult(r) }
        } else {
            try db.transaction { for r in rows { try insertResult(r) } }
        }
    }

    /// Inserts (or replaces) one result row in the open transaction (or on its own): what
    /// `insertResults` does per row.
    public func insertResult(_ r: ResultRow) throws {
        let s = try hot(&insertResultStatement, """
            INSERT INTO results(session_id, config, config_version, counterfactual, outcome, cancel_reason,
                action_fired, feedback_latency_ms, action_latency_ms, duration_ms, max_travel_pt, press_depth, release_jump_pt)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
            ON CONFLICT(session_id, config_version) DO NOTHING
            """)
        s.bind(1, r.sessionID); s.bind(2, r.config); s.bind(3, r.configVersion); s.bind(4, r.counterfactual)
        s.bind(5, r.outcome); s.bind(6, r.cancelReason); s.bind(7, r.actionFired)
        s.bind(8, r.feedbackLatencyMs); s.bind(9, r.actionLatencyMs); s.bind(10, r.durationMs)
        s.bind(11, r.maxTravelPt); s.bind(12, r.pressDepth); s.bind(13, r.releaseJumpPt)
        try s.run()
        if db.changes == 0 {
            let delete = try cached("DELETE FROM results WHERE session_id = ? AND config_version = ?")
            delete.bind(1, r.sessionID); delete.bind(2, r.configVersion)
            try delete.run()
            try s.run()
        }
    }
}

/// Stored sessions read one at a time (memory stays flat however many there are).
public final class SessionCursor {
    let statement: Statement
    init(statement: Statement) { self.statement = statement }

    /// The next session, or nil at the end.
    /// - Throws: `DatabaseError`, `SampleCodecError` for a damaged BLOB.
    public func next() throws -> StoredSession? {
        guard try statement.step() else { return nil }
        let s = statement
        let samples = try s.withBlob(2) { try SampleCodec.decode($0) }
        var attributes = Store.readAttributes(s, 4)
        let variant = attributes.variant
        if s.int(3) == 0 { attributes.variant = nil }
        return StoredSession(id: s.int64(0), session: s.text(1), samples: samples, attributes: attributes, variant: variant)
    }

    /// Every remaining session (for small selections and tests).
    public func all() throws -> [StoredSession] {
        var out: [StoredSession] = []
        while let s = try next() { out.append(s) }
        return out
    }
}
