// The database's own `Partial`: the summary report's cells (migrations/0006_summary_cells.sql),
// kept up to date by the code that writes results. `Store.writeResults` and
// `Store.deleteResults` add and subtract each row they write or remove in memory
// (`SummaryCellsWriter`, one per connection); `Database.commit` writes the touched cells and
// histogram bins (an upsert each) before COMMIT, in the same transaction, and `rollback` drops
// them with the rows. `pressdb report` reads the cells (`ReportRunner.maintainedSummary`) when
// `summary_state` shows they match the tables, and computes the rows with `Partial.summary`.
import CSQLite
import PressCore
import PressStats
import PressSQLite

/// A session's report keys (`SummaryCells.keys(of:)`) with their hash, computed once: a cell's
/// key is looked up in a dictionary for every result counted, and an ingest makes its sessions'
/// keys on the replay worker's thread (`ReplayWorker`), not on the ingesting one.
package struct SessionKeys: Hashable, Sendable {
    /// `SummaryCells.sessionAttributes`' values, in that order.
    let values: [String?]
    /// `values.hashValue`.
    let hash: Int

    init(_ values: [String?]) {
        self.values = values
        hash = values.hashValue
    }

    /// The keys of a session with attributes `a`, as `sessions` stores them.
    package init(of a: SessionAttributes) { self.init(SummaryCells.keys(of: a)) }

    package static func == (a: SessionKeys, b: SessionKeys) -> Bool { a.hash == b.hash && a.values == b.values }
    package func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

/// What a maintained cell is keyed by: the result's configuration, version and counterfactual
/// flag, and its session's report keys other than `config` (`SummaryCells.sessionAttributes`).
struct SummaryCellKey: Hashable {
    let config: String
    let configVersion: String
    let counterfactual: Bool
    let keys: SessionKeys
    /// `SummaryCells.sessionAttributes`' values, in that order.
    var attributes: [String?] { keys.values }

    init(config: String, configVersion: String, counterfactual: Bool, keys: SessionKeys) {
        self.config = config; self.configVersion = configVersion; self.counterfactual = counterfactual
        self.keys = keys
    }

    init(config: String, configVersion: String, counterfactual: Bool, attributes: [String?]) {
        self.init(config: config, configVersion: configVersion, counterfactual: counterfactual,
                  keys: SessionKeys(attributes))
    }

    /// Hashes the flag and the session's keys (their hash, made once), not the configuration
    /// and version: the rows of one transaction are under one or a few of those (told apart by
    /// `==` within a bucket, cheap for the same strings), and hashing the version's text for
    /// every row written was most of the key's cost.
    func hash(into hasher: inout Hasher) {
        hasher.combine(counterfactual)
        hasher.combine(keys.hash)
    }
}

/// The maintained cells: their schema's names and the reads and rebuild over them.
public enum SummaryCells {
    /// The session attributes a cell is keyed by: the report groupings but `config` (a cell's
    /// configuration is the result's, as in `session_results`).
    package static let sessionAttributes = SessionAttribute.reportGroupings.filter { $0 != .config }
    /// The events a cell counts, in its columns' order: those one result decides
    /// (`SessionEvent.occurs(in:)`); the press-sequence signals are 0 in every partial.
    package static let events: [SessionEvent] = SessionEvent.allCases.filter {
        ![.rageEpisode, .retryAfterCancel, .retryAfterUnseen].contains($0)
    }
    /// Each of `events`' position in `SessionEvent.allCases` (a tally's `events` index).
    package static let eventIndices = events.map { SessionEvent.allCases.firstIndex(of: $0)! }
    /// The two latency histograms, by `summary_latencies.metric`.
    package static let feedbackMetric = "feedback_latency_ms", actionMetric = "action_latency_ms"

    /// The report keys of a session as `sessions` stores them (`variant`: the given one, else
    /// the config name).
    static func keys(of a: SessionAttributes) -> [String?] {
        sessionAttributes.map { attribute in
            if attribute == .variant { return Store.storedVariant(a) }
            if case .text(let t)? = a[value: attribute] { return t }
            return nil
        }
    }

    /// Whether the cells count exactly the rows of `results` and `sessions`: built, no write
    /// from outside pressdb since (`summary_state`), as many `results` rows and the same
    /// largest rowid as the last commit recorded. Reads an index of `results` once (the count).
    /// False on a database without the cells.
    public static func areCurrent(_ db: Database) throws -> Bool {
        guard try db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'summary_state'").scalarInt() != nil else { return false }
        return try db.prepare("""
            SELECT results = (SELECT count(*) FROM main.results) AND max_rowid IS (SELECT max(rowid) FROM main.results)
                   AND outside_writes = 0
            FROM main.summary_state
            """).scalarInt() == 1
    }

    /// Builds the cells again from `results` and `sessions` when they do not match them (a new
    /// migration, writes from outside pressdb), in a transaction of their own. A read-only
    /// connection leaves them as they are (reports then read the rows).
    /// - Throws: `DatabaseError`.
    public static func ensureCurrent(_ db: Database) throws {
        guard !db.isReadOnly, try !areCurrent(db) else { return }
        try db.transaction {
            guard try !areCurrent(db) else { return }
            try rebuild(db)
        }
    }

    /// Replaces every cell by the sum of the stored rows, through the writer's own code (one
    /// `SummaryCellsWriter` over every row, flushed onto empty tables). Call in a transaction.
    static func rebuild(_ db: Database) throws {
        try db.execute("DELETE FROM summary_latencies; DELETE FROM summary_cells")
        let writer = SummaryCellsWriter()
        let s = try db.prepare("""
            SELECT r.config, r.config_version, r.counterfactual, \(sessionAttributes.map { "s.\($0.key)" }.joined(separator: ", ")),
                   \(SummaryCellsWriter.resultColumns)
            FROM main.results AS r JOIN main.sessions AS s ON s.id = r.session_id
            """)
        let k = Int32(3 + sessionAttributes.count)
        while try s.step() {
            let key = SummaryCellKey(config: s.text(0), configVersion: s.text(1), counterfactual: s.int(2) != 0,
                                     attributes: (3..<k).map { s.optionalText($0) })
            writer.add(key, SummaryCellsWriter.result(s, from: k))
        }
        try writer.flush(db, recordingState: false)
        try db.execute("""
            UPDATE summary_state SET results = (SELECT count(*) FROM main.results),
                   max_rowid = (SELECT max(rowid) FROM main.results), outside_writes = 0
            """)
    }
}

/// One connection's changes to the maintained cells in the open transaction: the rows added
/// and removed per cell, as `SessionTally`s. `flush` writes them (`Database.commit` calls it),
/// `discard` drops them (`Database.rollback`).
///
/// The largest release jump cannot be subtracted: when a removed row's jump is at least the
/// cell's stored maximum, `flush` recomputes that cell's maximum from its rows (after the
/// transaction's writes, so it sees them); otherwise the maximum is the larger of the stored one
/// and the added rows'.
final class SummaryCellsWriter: TransactionObserver {
    private var added: [SummaryCellKey: SessionTally] = [:]
    private var removed: [SummaryCellKey: SessionTally] = [:]
    /// Rows inserted into and deleted from `results` by this connection in the transaction.
    private var insertedRows = 0, deletedRows = 0
    /// Firings of the `summary_*` triggers caused by this connection's own updates and deletes.
    private var ownTriggerFirings = 0
    private var statements: [String: Statement] = [:]
    /// `readBackSQL`, prepared once: `write` runs it for every row that may already be stored,
    /// so neither its text nor a lookup by it is made per row.
    private var readBack: Statement?

    /// A session's report keys and its stored result under a version (`?1` session id, `?2` version).
    static let readBackSQL = """
        SELECT \(SummaryCells.sessionAttributes.map { "s.\($0.key)" }.joined(separator: ", ")), r.rowid, r.config,
            r.counterfactual, \(resultColumns)
        FROM main.sessions AS s LEFT JOIN main.results AS r ON r.session_id = s.id AND r.config_version = ?2
        WHERE s.id = ?1
        """

    var isEmpty: Bool { added.isEmpty && removed.isEmpty && insertedRows == 0 && deletedRows == 0 && ownTriggerFirings == 0 }

    /// The columns of `results` a cell needs, as `result(_:from:)` reads them.
    static let resultColumns = "r.outcome, r.cancel_reason, r.action_fired, r.feedback_latency_ms, r.action_latency_ms, "
        + "r.max_travel_pt, r.release_jump_pt"

    /// The result read from `resultColumns` at `first` (the fields a cell does not count are 0).
    static func result(_ s: Statement, from first: Int32) -> SessionResult {
        SessionResult(outcome: PressOutcome(rawValue: s.text(first)) ?? .tap,
                      cancelReason: s.optionalText(first + 1).flatMap(CancelReason.init(rawValue:)),
                      actionFired: s.int(first + 2) != 0, feedbackLatencyMs: s.optionalDouble(first + 3),
                      actionLatencyMs: s.optionalDouble(first + 4), durationMs: 0, maxTravelPt: s.double(first + 5),
                      pressDepth: 0, releaseJumpPt: s.double(first + 6))
    }

    func add(_ key: SummaryCellKey, _ r: SessionResult) { added[key, default: SessionTally()].add(r) }
    func remove(_ key: SummaryCellKey, _ r: SessionResult) { removed[key, default: SessionTally()].add(r) }

    /// Whether no two rows of `rows` are the same session and version. Checked without hashing
    /// when the session ids rise strictly (replay and ingest write in `sessions.id` order).
    static func areDistinct(_ rows: ArraySlice<ResultRow>) -> Bool {
        if idsRise(rows) { return true }
        var seen = Set<RowKey>()
        return rows.allSatisfy { seen.insert(RowKey(sessionID: $0.sessionID, configVersion: $0.configVersion)).inserted }
    }

    /// A `results` row's key.
    struct RowKey: Hashable { var sessionID: Int64; var configVersion: String }

    /// Counts `r`, just inserted as a new row by `Store.writeResults(_:newSessionKeys:)` (its
    /// session's keys `keys`), without looking anything up.
    func countInserted(_ r: ResultRow, keys: SessionKeys) {
        insertedRows += 1
        add(SummaryCellKey(config: r.config, configVersion: r.configVersion, counterfactual: r.counterfactual, keys: keys),
            r.result)
    }

    private func cached(_ db: Database, _ sql: String) throws -> Statement {
        if let s = statements[sql] { s.reset(); return s }
        let s = try db.prepare(sql)
        statements[sql] = s
        return s
    }

    /// Writes the result row `r` with `write` (the upsert), counting it. The stored row is read
    /// back first (with its session's keys), so that a replaced row is subtracted and a row left
    /// alone is not counted twice.
    func write(_ r: ResultRow, in db: Database, _ write: () throws -> Void) throws {
        let k = Int32(SummaryCells.sessionAttributes.count)
        let old: Statement
        if let s = readBack { s.reset(); old = s } else { old = try db.prepare(Self.readBackSQL); readBack = old }
        old.bind(1, r.sessionID)
        old.bind(2, r.configVersion)
        var keys: [String?]?
        var previous: (config: String, counterfactual: Bool, result: SessionResult)?
        if try old.step() {
            keys = (0..<k).map { old.optionalText($0) }
            if !old.isNull(k) { previous = (old.text(k + 1), old.int(k + 2) != 0, Self.result(old, from: k + 3)) }
        }
        old.reset()
        try write()
        guard db.changes == 1 else { return }  // the stored row was the same: nothing changed
        if let previous {
            ownTriggerFirings += 1
            if let keys {
                remove(SummaryCellKey(config: previous.config, configVersion: r.configVersion,
                                      counterfactual: previous.counterfactual, attributes: keys), previous.result)
            }
        } else {
            insertedRows += 1
        }
        // A result of no stored session is in no report (session_results joins them).
        if let keys {
            add(SummaryCellKey(config: r.config, configVersion: r.configVersion, counterfactual: r.counterfactual,
                               attributes: keys), r.result)
        }
    }

    /// A batch's read-back: for each of `rows` rows (`?(2j+1)` session id, `?(2j+2)` version, the
    /// row's position `j` in column 0), whether its session is stored (column 1), the session's
    /// report keys, and the stored result under that version if any (`r.rowid` NULL when none),
    /// in the columns a cell counts (`resultColumns`). One statement for the batch where
    /// `readBackSQL` took one per row, each paying SQLite's statement start and end.
    static func readBackSQL(rows: Int) -> String {
        let keys = (0..<rows).map { "(\($0), ?\(2 * $0 + 1), ?\(2 * $0 + 2))" }.joined(separator: ", ")
        return """
            WITH k(j, id, version) AS (VALUES \(keys))
            SELECT k.j, s.id IS NOT NULL, \(SummaryCells.sessionAttributes.map { "s.\($0.key)" }.joined(separator: ", ")),
                r.rowid, r.config, r.counterfactual, \(resultColumns)
            FROM k LEFT JOIN main.sessions AS s ON s.id = k.id
                LEFT JOIN main.results AS r ON r.session_id = k.id AND r.config_version = k.version
            """
    }

    /// `readBackSQL(rows: Store.resultsPerStatement)`, prepared once.
    private var batchReadBack: Statement?

    /// Writes the result rows `rows` with `upsert` (one statement writing them all, in order),
    /// counting them as `write(_:in:_:)` counts each. The stored rows are read back in one
    /// statement first (`readBackSQL(rows:)`): a replaced row's old values are gone once the
    /// upsert has run. Then, from what is known for certain rather than from a guess at which
    /// rows the upsert's `WHERE … IS NOT` leaves alone:
    /// - a row with none stored is inserted (no two rows of the batch share a key): counted;
    /// - a stored row whose cell and counted values (`countsAsStored`) are the new row's leaves
    ///   every cell as it is, whether SQLite rewrote it or left it alone: nothing to count;
    /// - any other stored row is replaced: its old values subtracted, the new ones added;
    /// - the rows updated, whose trigger firings are pressdb's own, are `sqlite3_changes` (the
    ///   rows inserted or updated) less those inserted.
    ///
    /// Asking SQLite which rows it wrote (`RETURNING session_id, config_version`) is costly and
    /// not needed: a row's cells do not depend on whether it was rewritten with the same values.
    /// - Precondition: no two rows are the same session and version (`areDistinct`), and
    ///   `rows.count == Store.resultsPerStatement`.
    /// - Throws: `DatabaseError`.
    func write(batch rows: ArraySlice<ResultRow>, in db: Database, _ upsert: () throws -> Void) throws {
        let n = rows.count
        let old: Statement
        if let s = batchReadBack { s.reset(); old = s } else {
            old = try db.prepareBindingInPlace(Self.readBackSQL(rows: n))
            batchReadBack = old
        }
        let first = rows.startIndex
        for (j, r) in rows.enumerated() {
            old.bind(Int32(2 * j + 1), r.sessionID)
            old.bind(Int32(2 * j + 2), r.configVersion)
        }
        let k = Int32(SummaryCells.sessionAttributes.count)
        // Per row: the session's keys (nil: no such session, in no report), whether a row is
        // stored under its version, and the stored row's configuration, flag and result when
        // they count otherwise than the new row's (nil: none stored, or counted the same).
        var keys = [[String?]?](repeating: nil, count: n)
        var isStored = [Bool](repeating: false, count: n)
        var replaced = [(config: String, counterfactual: Bool, result: SessionResult)?](repeating: nil, count: n)
        var inserted = 0
        while try old.step() {
            let j = old.int(0)
            if old.int(1) != 0 { keys[j] = (0..<k).map { old.optionalText(2 + $0) } }
            let row = 2 + k
            if old.isNull(row) {
                inserted += 1
            } else {
                isStored[j] = true
                let r = rows[first + j]
                if !Self.countsAsStored(old, from: row + 1, r) {
                    replaced[j] = (old.text(row + 1), old.int(row + 2) != 0, Self.result(old, from: row + 3))
                }
            }
        }
        old.reset()
        try upsert()
        insertedRows += inserted
        ownTriggerFirings += db.changes - inserted
        for (j, r) in rows.enumerated() {
            guard let keys = keys[j] else { continue }  // a result of no stored session is in no report
            if isStored[j] {
                guard let previous = replaced[j] else { continue }
                remove(SummaryCellKey(config: previous.config, configVersion: r.configVersion,
                                      counterfactual: previous.counterfactual, attributes: keys), previous.result)
            }
            add(SummaryCellKey(config: r.config, configVersion: r.configVersion, counterfactual: r.counterfactual,
                               attributes: keys), r.result)
        }
    }

    /// Whether the stored row (`r.config`, `r.counterfactual`, then `resultColumns`, from
    /// column `first` of `readBackSQL(rows:)`) is in the cell `r` is in and counts there as `r`
    /// does: the same configuration and flag, and the same values of every field a cell counts
    /// (`result(_:from:)`: what a rebuild reads; a NaN, stored as NULL, never counts as the same).
    /// The fields a cell does not count are left out of the comparison, as `result(_:from:)`
    /// leaves them out of what it reads: otherwise every row with a photon latency would look
    /// replaced, and each of its cells be rewritten and its largest jump read again.
    static func countsAsStored(_ s: Statement, from first: Int32, _ r: ResultRow) -> Bool {
        guard text(of: s, first, equals: r.config), (s.int(first + 1) != 0) == r.counterfactual else { return false }
        var counted = r.result
        counted.durationMs = 0
        counted.pressDepth = 0
        counted.feedbackPhotonMs = nil
        counted.actionPhotonMs = nil
        return result(s, from: first + 2) == counted
    }

    /// Whether the session ids of `rows` rise strictly (then no two are the same).
    static func idsRise(_ rows: ArraySlice<ResultRow>) -> Bool {
        var last = Int64.min
        for r in rows {
            guard r.sessionID > last else { return false }
            last = r.sessionID
        }
        return true
    }

    /// Whether column `i` of `s` is the text `text`, byte for byte (no `String` made).
    static func text(of s: Statement, _ i: Int32, equals text: String) -> Bool {
        guard let p = sqlite3_column_text(s.handle, i) else { return false }
        let bytes = UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(s.handle, i)))
        return bytes.elementsEqual(text.utf8)
    }

    /// Deletes the `results` rows matching `condition` (SQL over `r`, with `values` bound),
    /// subtracting each from its cell.
    func deleteResults(where condition: String, _ values: [SQLValue], in db: Database) throws -> Int {
        let attributes = SummaryCells.sessionAttributes.map { "s.\($0.key)" }.joined(separator: ", ")
        let k = Int32(3 + SummaryCells.sessionAttributes.count)
        let rows = try db.prepare("""
            SELECT r.config, r.config_version, r.counterfactual, \(attributes), \(Self.resultColumns)
            FROM main.results AS r JOIN main.sessions AS s ON s.id = r.session_id WHERE \(condition)
            """)
        rows.bind(values)
        while try rows.step() {
            remove(SummaryCellKey(config: rows.text(0), configVersion: rows.text(1), counterfactual: rows.int(2) != 0,
                                  attributes: (3..<k).map { rows.optionalText($0) }), Self.result(rows, from: k))
        }
        let delete = try db.prepare("DELETE FROM main.results AS r WHERE \(condition)")
        delete.bind(values)
        try delete.run()
        let n = db.changes
        deletedRows += n
        ownTriggerFirings += n
        return n
    }

    /// Drops the transaction's changes (it was rolled back).
    func discard() {
        added.removeAll(); removed.removeAll()
        insertedRows = 0; deletedRows = 0; ownTriggerFirings = 0
    }

    /// Writes the changes to the cells, bins and `summary_state` (with `recordingState`), then
    /// forgets them. Call inside the transaction, after its last write.
    /// - Throws: `DatabaseError`.
    func flush(_ db: Database, recordingState: Bool = true) throws {
        defer { discard() }
        guard !isEmpty else { return }
        let n = SummaryCells.sessionAttributes.count
        let keyColumns = ["config", "config_version", "counterfactual"] + SummaryCells.sessionAttributes.map(\.key)
        let eventColumns = SummaryCells.events.map(\.rawValue)
        let find = try cached(db, """
            SELECT id, sessions, release_jump_pt_max FROM main.summary_cells
            WHERE config = ?1 AND config_version = ?2 AND counterfactual = ?3 AND \
            \((0..<n).map { "\(keyColumns[3 + $0]) IS ?\(4 + $0)" }.joined(separator: " AND "))
            """)
        let insert = try cached(db, """
            INSERT INTO main.summary_cells(\((keyColumns + ["sessions"] + eventColumns + ["release_jump_pt_max"]).joined(separator: ", ")))
            VALUES (\(Store.parameters(1...Int32(keyColumns.count + 2 + eventColumns.count))))
            """)
        let update = try cached(db, """
            UPDATE main.summary_cells SET sessions = ?2, \
            \(eventColumns.enumerated().map { "\($1) = \($1) + ?\(3 + $0)" }.joined(separator: ", ")), \
            release_jump_pt_max = ?\(3 + eventColumns.count) WHERE id = ?1
            """)
        let largestJump = try cached(db, """
            SELECT max(r.release_jump_pt) FROM main.results AS r JOIN main.sessions AS s ON s.id = r.session_id
            WHERE r.config = ?1 AND r.config_version = ?2 AND r.counterfactual = ?3 AND \
            \((0..<n).map { "s.\(keyColumns[3 + $0]) IS ?\(4 + $0)" }.joined(separator: " AND "))
            """)
        let bin = try cached(db, """
            INSERT INTO main.summary_latencies(cell_id, metric, value, sessions) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT(cell_id, metric, value) DO UPDATE SET sessions = sessions + excluded.sessions
            """)
        let emptyBin = try cached(db, "DELETE FROM main.summary_latencies WHERE cell_id = ?1 AND metric = ?2 AND value = ?3 AND sessions = 0")
        let dropBins = try cached(db, "DELETE FROM main.summary_latencies WHERE cell_id = ?1")
        let dropCell = try cached(db, "DELETE FROM main.summary_cells WHERE id = ?1")

        func bindKey(_ s: Statement, _ key: SummaryCellKey) {
            s.bind(1, key.config); s.bind(2, key.configVersion); s.bind(3, key.counterfactual)
            for (i, v) in key.attributes.enumerated() { s.bind(Int32(4 + i), v) }
        }
        for key in Set(added.keys).union(removed.keys) {
            let plus = added[key] ?? SessionTally(), minus = removed[key] ?? SessionTally()
            bindKey(find, key)
            let stored: (id: Int64, sessions: Int, jump: Double)? = try find.step()
                ? (find.int64(0), find.int(1), find.double(2)) : nil
            find.reset()
            let sessions = (stored?.sessions ?? 0) + plus.sessions - minus.sessions
            let id: Int64
            if let stored {
                id = stored.id
                if sessions <= 0 {
                    dropBins.reset(); dropBins.bind(1, id); try dropBins.run()
                    dropCell.reset(); dropCell.bind(1, id); try dropCell.run()
                    continue
                }
                var jump = max(stored.jump, plus.releaseJumpPtMax)
                if minus.sessions > 0, minus.releaseJumpPtMax >= stored.jump {
                    largestJump.reset()
                    bindKey(largestJump, key)
                    jump = try largestJump.step() && !largestJump.isNull(0) ? largestJump.double(0) : jump
                    largestJump.reset()
                }
                update.reset()
                update.bind(1, id); update.bind(2, sessions)
                for (i, e) in SummaryCells.eventIndices.enumerated() {
                    update.bind(Int32(3 + i), plus.events[e] - minus.events[e])
                }
                update.bind(Int32(3 + eventColumns.count), jump)
                try update.run()
            } else {
                guard sessions > 0 else { continue }
                insert.reset()
                bindKey(insert, key)
                let first = Int32(keyColumns.count + 1)
                insert.bind(first, sessions)
                for (i, e) in SummaryCells.eventIndices.enumerated() {
                    insert.bind(first + 1 + Int32(i), plus.events[e] - minus.events[e])
                }
                insert.bind(first + 1 + Int32(eventColumns.count), plus.releaseJumpPtMax)
                try insert.run()
                id = db.lastInsertRowID
            }
            for (metric, plusBins, minusBins) in [(SummaryCells.feedbackMetric, plus.feedbackLatencyMs, minus.feedbackLatencyMs),
                                                  (SummaryCells.actionMetric, plus.actionLatencyMs, minus.actionLatencyMs)] {
                for value in Set(plusBins.keys).union(minusBins.keys) {
                    let delta = (plusBins[value] ?? 0) - (minusBins[value] ?? 0)
                    guard delta != 0 else { continue }
                    bin.reset(); bin.bind(1, id); bin.bind(2, metric); bin.bind(3, value); bin.bind(4, delta)
                    try bin.run()
                    if delta < 0 {
                        emptyBin.reset(); emptyBin.bind(1, id); emptyBin.bind(2, metric); emptyBin.bind(3, value)
                        try emptyBin.run()
                    }
                }
            }
        }
        if recordingState {
            let state = try cached(db, """
                UPDATE main.summary_state SET results = results + ?1, max_rowid = (SELECT max(rowid) FROM main.results),
                       outside_writes = outside_writes - ?2
                WHERE results >= 0
                """)
            state.bind(1, insertedRows - deletedRows)
            state.bind(2, ownTriggerFirings)
            try state.run()
        }
    }
}

extension SummaryCellsWriter {
    /// Writes the transaction's changes to the cells before it commits (`flush`).
    func databaseWillCommit(_ database: Database) throws { try flush(database) }
    /// Drops the transaction's changes (`discard`).
    func databaseDidRollback() { discard() }
}

extension Database {
    /// This connection's writer of the maintained cells, if `Store` made one (it does at the
    /// first result write on a schema with the cells).
    var summaryCells: SummaryCellsWriter? { transactionObserver(SummaryCellsWriter.self) }
}
