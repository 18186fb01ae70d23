// pressdb's tables through typed calls: sources, sessions, pending sessions, rejects,
// configuration records (written by ingest), and sessions and results (read and written by
// replay). Prepared statements are made once per connection and reused.
import CSQLite
import PressCore
import PressFormats
import PressSQLite

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

/// One row of `results`: one session replayed under one configuration version. The figures are
/// PressCore's `SessionResult` (milliseconds and points), stored as they are.
public struct ResultRow: Hashable, Sendable {
    /// `sessions.id`.
    public var sessionID: Int64
    /// The configuration's name and version (`PressConfiguration.version`).
    public var config: String
    public var configVersion: String
    /// False: the session's own configuration; true: replayed "as" another one.
    public var counterfactual: Bool
    public var result: SessionResult
    /// With `--stalls` (never stored): what the sampled stalls did to the feedback, `result`
    /// being the replay with them; nil without stalls.
    public var stallEffect: StallEffect?

    public init(sessionID: Int64, config: String, configVersion: String, counterfactual: Bool, result: SessionResult,
                stallEffect: StallEffect? = nil) {
        self.sessionID = sessionID; self.config = config; self.configVersion = configVersion
        self.counterfactual = counterfactual; self.result = result; self.stallEffect = stallEffect
    }

    /// The row of session `sessionID` replayed under `configuration`.
    public init(sessionID: Int64, configuration: PressConfiguration, counterfactual: Bool, result: SessionResult) {
        self.init(sessionID: sessionID, config: configuration.name, configVersion: configuration.version,
                  counterfactual: counterfactual, result: result)
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
    }

    /// Opens (creating and migrating) the database at `path` for writing.
    public static func open(path: String) throws -> Store { Store(database: try Schema.open(path: path)) }

    /// Statements of the per-session paths (ingest, replay), held directly: `cached` hashes its
    /// SQL text on every call, which showed in profiles at one call per session.
    private var insertSessionStatement: Statement?
    private var insertResultStatement: Statement?
    private var insertResultsStatement: Statement?
    private var insertFreshResultsStatement: Statement?
    private var insertFreshResultStatement: Statement?

    /// The statement in `slot`, prepared from `sql` on first use, reset and ready to bind. It
    /// binds text and blobs in place (`Statement.bindsInPlace`): its caller binds every
    /// parameter before each run.
    @inline(__always)
    func hot(_ slot: inout Statement?, _ sql: @autoclosure () -> String) throws -> Statement {
        if let s = slot { s.reset(); return s }
        let s = try db.prepareBindingInPlace(sql())
        slot = s
        return s
    }

    /// A cached prepared statement for `sql`, reset and ready to bind.
    package func cached(_ sql: String) throws -> Statement {
        if let s = statements[sql] { s.reset(); return s }
        let s = try db.prepare(sql)
        statements[sql] = s
        return s
    }

    // MARK: Attribute columns (the field table's, same names in sessions and pending)

    /// The attribute columns, in table order (`SessionAttribute.columns`), then `extra`.
    package static let attributeColumns = (SessionAttribute.columns + ["extra"]).joined(separator: ", ")
    /// How many parameters `bindAttributes` binds (and columns `readAttributes` reads).
    static let attributeCount = Int32(SessionAttribute.columns.count + 1)

    /// Binds `a` to parameters `first`, `first + 1`, … in `attributeColumns` order, each value by
    /// its kind (text as text, a frame as four reals, a container as `Container.storedText`, a
    /// scroll axis as its raw value; NULL when not given). `variant` is bound as `variant` (the
    /// caller decides the default).
    static func bindAttributes(_ s: Statement, _ first: Int32, _ a: SessionAttributes, variant: String?) {
        // The values are read in place and the kinds from their table once: copying each value
        // out (`a[value:]`, a retain and release of its text) and asking `SessionAttribute.kinds`
        // per attribute repeated work per session.
        let kinds = SessionAttribute.kinds
        var p = first
        a.withValues { values in
            for (i, kind) in kinds.enumerated() {
                if i == SessionAttribute.variant.rawValue {
                    s.bind(p, variant)
                } else {
                    switch values.isEmpty ? nil : values[i] {
                    case .text(let text)?:
                        s.bind(p, text)
                    case .frame(let f)?:
                        s.bind(p, f.x); s.bind(p + 1, f.y); s.bind(p + 2, f.width); s.bind(p + 3, f.height)
                    case .container(let c)?:
                        s.bind(p, c.storedText)
                    case .scrollAxis(let axis)?:
                        s.bind(p, axis.rawValue)
                    case .size(let w)?:
                        s.bind(p, w.text)
                    case .systemGestures(let g)?:
                        s.bind(p, g.text)
                    case nil:
                        for k in 0..<kind.columnCount { s.bindNull(p + Int32(k)) }
                    }
                }
                p += Int32(kind.columnCount)
            }
        }
        s.bind(p, a.extra)
    }

    /// Reads attributes from columns `first`, … in `attributeColumns` order; `variant` as stored.
    /// A value that does not read back (a frame with a NULL part, an unknown container or axis
    /// text) is left unset.
    static func readAttributes(_ s: Statement, _ first: Int32) -> SessionAttributes {
        attributes(readValues(s, first), extra: s, first + attributeCount - 1)
    }

    /// The attributes of `values` (`readValues`) and the unknown fields of the `extra` column `i`.
    static func attributes(_ values: [AttributeValue?], extra s: Statement, _ i: Int32) -> SessionAttributes {
        var a = SessionAttributes(values: values)
        if let extra = text(s, i) { a.setExtraFields(SessionAttributes.extraFields(ofStoredText: extra)) }
        return a
    }

    /// The value per attribute (by `SessionAttribute.rawValue`) of columns `first`, … in
    /// `attributeColumns` order, as `readAttributes` reads them. Each element is written once
    /// into the new array: filling an array of nils first and assigning into it (copies of the
    /// optional enum, a uniqueness check per assignment) and a `sqlite3_column_type` before each
    /// text cost more than the reading.
    static func readValues(_ s: Statement, _ first: Int32) -> [AttributeValue?] {
        let kinds = SessionAttribute.kinds
        return [AttributeValue?](unsafeUninitializedCapacity: kinds.count) { values, initialized in
            var p = first
            for (i, kind) in kinds.enumerated() {
                let value: AttributeValue?
                switch kind {
                case .text:
                    value = text(s, p).map(AttributeValue.text)
                case .frame:
                    if let x = s.optionalDouble(p), let y = s.optionalDouble(p + 1),
                       let w = s.optionalDouble(p + 2), let h = s.optionalDouble(p + 3) {
                        value = .frame(Rect(x: x, y: y, width: w, height: h))
                    } else {
                        value = nil
                    }
                case .container:
                    value = text(s, p).flatMap(ContainerJSON.fromStoredText).map(AttributeValue.container)
                case .scrollAxis:
                    value = text(s, p).flatMap(ScrollAxis.init(rawValue:)).map(AttributeValue.scrollAxis)
                case .size:
                    value = text(s, p).flatMap(WindowSize.init(text:)).map(AttributeValue.size)
                case .systemGestures:
                    value = text(s, p).flatMap(SystemGestures.init(text:)).map(AttributeValue.systemGestures)
                }
                (values.baseAddress! + i).initialize(to: value)
                p += Int32(kind.columnCount)
            }
            initialized = kinds.count
        }
    }

    /// Column `i` as text, nil when NULL: `sqlite3_column_text` is a null pointer for NULL, so
    /// the column's type is asked only then (an empty text on a failed conversion, as
    /// `Statement.text`).
    @inline(__always)
    static func text(_ s: Statement, _ i: Int32) -> String? {
        guard let p = sqlite3_column_text(s.handle, i) else { return s.isNull(i) ? nil : "" }
        return String(decoding: UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(s.handle, i))), as: UTF8.self)
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
                if s.parameterCount >= 2 { s.bind(2, id) }  // the last statement has ?1 only
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

    /// Stores a complete session unless its id is already stored. `variant` is stored as given,
    /// else the config name (`variant_given` = 0).
    /// - Returns: the new row's `sessions.id`, or nil when a session of this id is stored already
    ///   (nothing changed; `storedSamples` gives its samples to compare).
    /// - Precondition: the session has at least one sample and ends with `ended` or `cancelled`.
    public func insertSession(_ s: AssembledSession) throws -> Int64? {
        let st = try hot(&insertSessionStatement, """
            INSERT INTO sessions(session, t0, t1, sample_count, end_phase, samples, variant_given,
                                 source_id, first_line, last_source_id, last_line, \(Store.attributeColumns), x0, y0, ingested_at)
            VALUES (\(Store.parameters(1...(13 + Store.attributeCount))), coalesce(?\(14 + Store.attributeCount), \(Store.nowTimestamp)))
            ON CONFLICT(session) DO NOTHING
            """)
        st.bind(14 + Store.attributeCount, ingestedAt)
        st.bind(1, s.id)
        st.bind(2, s.samples[0].t)
        st.bind(3, s.samples[s.samples.count - 1].t)
        st.bind(4, s.samples.count)
        st.bind(5, s.samples[s.samples.count - 1].phase.rawValue)
        st.bindBlob(6, count: s.samples.count * SampleCodec.sampleSize) { SampleCodec.encode(s.samples, into: $0) }
        st.bind(7, s.meta.variant != nil)
        st.bind(8, s.first.sourceID)
        st.bind(9, s.first.line)
        st.bind(10, s.last.sourceID)
        st.bind(11, s.last.line)
        Store.bindAttributes(st, 12, s.meta, variant: Store.storedVariant(s.meta))
        // The touch-down point (migrations/0005_touch_down_point.sql), from the samples in hand.
        st.bind(12 + Store.attributeCount, s.samples[0].x)
        st.bind(13 + Store.attributeCount, s.samples[0].y)
        try st.run()
        guard db.changes == 1 else { return nil }
        return db.lastInsertRowID
    }

    /// A complete session's A/B arm as `sessions.variant` stores it (and reports group by it):
    /// the variant given, else the session's config name, else nil.
    public static func storedVariant(_ a: SessionAttributes) -> String? { a.variant ?? a.config }

    /// `?1, ?2, …` for the parameters `range`.
    static func parameters(_ range: ClosedRange<Int32>) -> String { range.map { "?\($0)" }.joined(separator: ", ") }

    /// The schema's default for `ingested_at`: the current UTC time, e.g. `2026-11-29T17:06:01.250Z`.
    static let nowTimestamp = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"

    /// `sessions.ingested_at` for the sessions `insertSession` stores; nil: the time of each
    /// insert (the schema's default). Ingest sets it once per transaction (`stampIngestTime`):
    /// SQLite formats the default with `strftime` for every row.
    public var ingestedAt: String?

    /// Sets `ingestedAt` to the current time, formatted as the schema's default formats it.
    public func stampIngestTime() throws {
        ingestedAt = try cached("SELECT \(Store.nowTimestamp)").scalarText()
    }

    /// The samples of the stored (complete) session `session`, exactly as read, or nil.
    /// - Throws: `DatabaseError`, `SampleCodecError` for a damaged BLOB.
    public func storedSamples(session: String) throws -> [TouchSample]? {
        let s = try cached("SELECT samples FROM sessions WHERE session = ?")
        s.bind(1, session)
        defer { s.reset() }
        guard try s.step() else { return nil }
        return try s.withBlob(0) { try SampleCodec.decode($0) }
    }

    /// Number of stored sessions.
    public func sessionCount() throws -> Int { Int(try cached("SELECT count(*) FROM sessions").scalarInt() ?? 0) }

    /// The largest `sessions.id`, 0 for none: a look-up of the table's last row, where
    /// `sessionCount` reads them all. New sessions take ids above it (sqlite.org/autoinc.html).
    package func largestSessionID() throws -> Int64 { try cached("SELECT max(id) FROM sessions").scalarInt() ?? 0 }

    /// The bytes and the count of the last (at most) 1,000 stored session ids: what an ingest
    /// estimates the `sessions.session` index's entries from. Reads the table's last pages only.
    package func recentSessionKeyBytes() throws -> (bytes: Int, count: Int) {
        let s = try cached("""
            SELECT coalesce(sum(length(CAST(session AS BLOB))), 0), count(*)
            FROM (SELECT session FROM sessions ORDER BY id DESC LIMIT 1000)
            """)
        defer { s.reset() }
        guard try s.step() else { return (0, 0) }
        return (s.int(0), s.int(1))
    }

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
            VALUES (\(Store.parameters(1...(7 + Store.attributeCount))))
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

    /// Writes result rows: the one way pressdb writes `results`, in one transaction per call
    /// unless one is open. Call with batches of a few thousand rows.
    ///
    ///     try store.writeResults(replayed)                              // replay: insert or update
    ///     try store.writeResults(rows, newSessionKeys: keys)            // ingest: new rows only
    ///
    /// The rows go `resultsPerStatement` to a statement (one `INSERT` of that many `VALUES`
    /// rows, the rest one by one): SQLite handles them in order, as one statement per row
    /// would, and a statement's fixed cost (the cursors on the table and both indexes, its end)
    /// is paid once per batch. Per batch the writer picks how:
    /// - `newSessionKeys` given: every row is the first result under its version of a session
    ///   stored in this transaction, `newSessionKeys[i]` its session's report keys. The rows are
    ///   inserted with `insertFreshResultsSQL` (`INSERT OR FAIL`, no statement journal) and
    ///   counted into the summary cells with those keys, nothing read back; a row that is not
    ///   new after all fails the statement (`SQLITE_CONSTRAINT`) instead of being counted twice.
    /// - otherwise the upsert (`insertResultSQL`): a row whose (session_id, config_version) is
    ///   stored is updated when a value differs and left alone when none does (replay is
    ///   deterministic, so a re-replay writes nothing). The batch's stored rows are read back in
    ///   one statement first (`SummaryCellsWriter.write(batch:)`), so a replaced row is
    ///   subtracted from its cell; a batch holding a session and version twice goes row by row,
    ///   each row read back after the one before it was written.
    ///
    /// One upsert rather than `INSERT OR REPLACE`: SQLite runs an `OR REPLACE` insert into a
    /// table with a foreign key under a statement journal (a savepoint per row), and a delete
    /// and a new insert rewrite the row and both of its indexes.
    /// - Precondition: with `newSessionKeys`: in a transaction, `newSessionKeys.count ==
    ///   rows.count`, and no two rows are the same session and version.
    /// - Throws: `DatabaseError`; the caller's transaction is to be rolled back.
    package func writeResults(_ rows: [ResultRow], newSessionKeys: [SessionKeys]? = nil) throws {
        guard !rows.isEmpty else { return }
        if let keys = newSessionKeys {
            precondition(db.isInTransaction && keys.count == rows.count)
            return try insertNew(rows, keys: keys)
        }
        guard db.isInTransaction else { return try db.transaction { try upsert(rows) } }
        try upsert(rows)
    }

    /// Rows per multi-row statement in `writeResults`.
    static let resultsPerStatement = 32

    /// `writeResults`' new rows: `resultsPerStatement` to an `INSERT OR FAIL`, the rest one by
    /// one, each counted with its session's keys.
    private func insertNew(_ rows: [ResultRow], keys: [SessionKeys]) throws {
        let cells = try summaryCells()
        var i = 0
        while i < rows.count {
            let n = rows.count - i >= Store.resultsPerStatement ? Store.resultsPerStatement : 1
            let s = n == 1 ? try hot(&insertFreshResultStatement, Store.insertFreshResultsSQL(rows: 1))
                : try hot(&insertFreshResultsStatement, Store.insertFreshResultsSQL(rows: n))
            for j in 0..<n { Store.bindResult(s, rows[i + j], first: Int32(j * Store.resultColumnCount + 1)) }
            try s.run()
            if let cells { for j in i..<(i + n) { cells.countInserted(rows[j], keys: keys[j]) } }
            i += n
        }
    }

    /// `writeResults`' upserts, in the open transaction.
    private func upsert(_ rows: [ResultRow]) throws {
        let k = Store.resultsPerStatement
        let cells = try summaryCells()
        var i = 0
        while rows.count - i >= k {
            let batch = rows[i..<(i + k)]
            func run() throws {
                let s = try hot(&insertResultsStatement, Store.insertResultSQL(rows: k))
                for (j, r) in batch.enumerated() { Store.bindResult(s, r, first: Int32(j * Store.resultColumnCount + 1)) }
                try s.run()
            }
            if let cells {
                if SummaryCellsWriter.areDistinct(batch) {
                    try cells.write(batch: batch, in: db, run)
                } else {
                    for r in batch { try upsert(r, cells) }
                }
            } else {
                try run()
            }
            i += k
        }
        while i < rows.count {
            try upsert(rows[i], cells)
            i += 1
        }
    }

    /// One row's upsert, counted into the summary cells (`cells`: nil on a schema without them).
    private func upsert(_ r: ResultRow, _ cells: SummaryCellsWriter?) throws {
        let s = try hot(&insertResultStatement, Store.insertResultSQL(rows: 1))
        Store.bindResult(s, r, first: 1)
        if let cells { try cells.write(r, in: db) { try s.run() } } else { try s.run() }
    }

    /// Parameters a result row binds (`bindResult`).
    static let resultColumnCount = 15

    /// Binds `r` to parameters `first` … `first + 14`, in `insertResultSQL`'s column order.
    static func bindResult(_ s: Statement, _ r: ResultRow, first p: Int32) {
        let x = r.result
        s.bind(p, r.sessionID); s.bind(p + 1, r.config); s.bind(p + 2, r.configVersion); s.bind(p + 3, r.counterfactual)
        s.bind(p + 4, x.outcome.rawValue); s.bind(p + 5, x.cancelReason?.rawValue); s.bind(p + 6, x.actionFired)
        s.bind(p + 7, x.feedbackLatencyMs); s.bind(p + 8, x.actionLatencyMs); s.bind(p + 9, x.durationMs)
        s.bind(p + 10, x.maxTravelPt); s.bind(p + 11, x.pressDepth); s.bind(p + 12, x.releaseJumpPt)
        s.bind(p + 13, x.feedbackPhotonMs); s.bind(p + 14, x.actionPhotonMs)
    }

    /// The `VALUES` rows of a `rows`-row insert into `results`: parameters `?1` … `?(15 × rows)`,
    /// `bindResult`'s order.
    private static func resultValues(rows: Int) -> String {
        let values = (0..<rows).map { j in
            "(" + parameters(Int32(j * resultColumnCount + 1)...Int32((j + 1) * resultColumnCount)) + ")"
        }.joined(separator: ", ")
        return """
            (session_id, config, config_version, counterfactual, outcome, cancel_reason,
                action_fired, feedback_latency_ms, action_latency_ms, duration_ms, max_travel_pt, press_depth, release_jump_pt,
                feedback_photon_ms, action_photon_ms)
            VALUES \(values)
            """
    }

    /// The insert of `rows` result rows known to be new (`writeResults(_:newSessionKeys:)`:
    /// ingest's rows), parameters as `insertResultSQL`'s. `INSERT OR FAIL`, not the upsert, because an
    /// upsert, like a plain `INSERT`, runs under a statement journal so that a failing row can
    /// take back the rows before it, and a 32-row statement over the indexes' pages outgrew the
    /// journal's memory and spilled to a temporary file (`/var/tmp/etilqs_*`).
    /// `OR FAIL` keeps the rows before a failing one and needs no statement journal
    /// (sqlite.org/lang_conflict.html: FAIL "does not back out prior changes of the SQL
    /// statement"); the fresh rows cannot conflict, and should one (a bug) the statement still
    /// fails with `SQLITE_CONSTRAINT` and the caller's transaction is rolled back whole.
    static func insertFreshResultsSQL(rows: Int) -> String {
        "INSERT OR FAIL INTO results" + resultValues(rows: rows)
    }

    /// The upsert of `rows` result rows (parameters `?1` … `?(15 × rows)`, `bindResult`'s order).
    static func insertResultSQL(rows: Int) -> String {
        return """
            INSERT INTO results\(resultValues(rows: rows))
            ON CONFLICT(session_id, config_version) DO UPDATE SET
                (config, counterfactual, outcome, cancel_reason, action_fired, feedback_latency_ms, action_latency_ms,
                 duration_ms, max_travel_pt, press_depth, release_jump_pt, feedback_photon_ms, action_photon_ms)
                = (excluded.config, excluded.counterfactual, excluded.outcome, excluded.cancel_reason,
                   excluded.action_fired, excluded.feedback_latency_ms, excluded.action_latency_ms,
                   excluded.duration_ms, excluded.max_travel_pt, excluded.press_depth, excluded.release_jump_pt,
                   excluded.feedback_photon_ms, excluded.action_photon_ms)
            WHERE (config, counterfactual, outcome, cancel_reason, action_fired, feedback_latency_ms, action_latency_ms,
                   duration_ms, max_travel_pt, press_depth, release_jump_pt, feedback_photon_ms, action_photon_ms)
                IS NOT (excluded.config, excluded.counterfactual, excluded.outcome, excluded.cancel_reason,
                        excluded.action_fired, excluded.feedback_latency_ms, excluded.action_latency_ms,
                        excluded.duration_ms, excluded.max_travel_pt, excluded.press_depth, excluded.release_jump_pt,
                        excluded.feedback_photon_ms, excluded.action_photon_ms)
            """
    }

    /// Deletes the `results` rows matching `condition` (SQL over the table aliased `r`, with
    /// `values` bound to `?1`, `?2`, …), subtracting each from the maintained summary cells.
    /// The one way pressdb removes results. Outside a transaction it opens one of its own.
    /// - Returns: the number of rows deleted.
    /// - Throws: `DatabaseError`.
    @discardableResult
    public func deleteResults(where condition: String, _ values: [SQLValue]) throws -> Int {
        guard db.isInTransaction else { return try db.transaction { try deleteResults(where: condition, values) } }
        if let cells = try summaryCells() { return try cells.deleteResults(where: condition, values, in: db) }
        let delete = try db.prepare("DELETE FROM main.results AS r WHERE \(condition)")
        delete.bind(values)
        try delete.run()
        return db.changes
    }

    /// This connection's writer of the maintained summary cells; nil on a schema without them
    /// (a database built by an older migration list, in tests).
    func summaryCells() throws -> SummaryCellsWriter? {
        try db.transactionObserver(SummaryCellsWriter.self) {
            try db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'summary_cells'").scalarInt() != nil
                ? SummaryCellsWriter() : nil
        }
    }

}

/// Stored sessions read one at a time (memory stays flat however many there are).
public final class SessionCursor {
    let statement: Statement
    package init(statement: Statement) { self.statement = statement }

    /// The next session, or nil at the end.
    /// - Throws: `DatabaseError`, `SampleCodecError` for a damaged BLOB.
    public func next() throws -> StoredSession? {
        guard try statement.step() else { return nil }
        let s = statement
        let samples = try s.withBlob(2) { try SampleCodec.decode($0) }
        // `variant` as stored, and in the attributes only when given (`variant_given`).
        var values = Store.readValues(s, 4)
        let v = SessionAttribute.variant.rawValue
        var variant: String?
        if case .text(let t)? = values[v] { variant = t }
        if s.int(3) == 0, variant != nil { values[v] = nil }
        return StoredSession(id: s.int64(0), session: s.text(1), samples: samples,
                             attributes: Store.attributes(values, extra: s, 4 + Store.attributeCount - 1), variant: variant)
    }

    /// Every remaining session (for small selections and tests).
    public func all() throws -> [StoredSession] {
        var out: [StoredSession] = []
        while let s = try next() { out.append(s) }
        return out
    }
}
