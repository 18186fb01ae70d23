// Running report definitions: plain SQL files over a filtered temporary view, on a read-only
// connection that also refuses ATTACH, PRAGMA and anything that writes.
import CSQLite
import PressCore
import PressStats
import PressSQLite
import PressStore
import PressIngest

/// A report definition: a name and one SQL SELECT whose first line is `-- description`.
public struct ReportDefinition: Sendable, Hashable {
    public var name: String
    public var sql: String
    /// Whether it came from the user's `--reports DIR` (run under the same restrictions).
    public var isUserDefined: Bool
    public init(name: String, sql: String, isUserDefined: Bool = false) {
        self.name = name; self.sql = sql; self.isUserDefined = isUserDefined
    }
    /// The file's first comment line, without `--`.
    public var summary: String {
        for line in sql.split(separator: "\n") {
            let t = line.drop(while: { $0 == " " })
            if t.hasPrefix("--") { return String(t.dropFirst(2).drop(while: { $0 == " " })) }
            if !t.isEmpty { break }
        }
        return ""
    }
    /// Whether the SQL reads a column that comes from the press sequences (`actor`,
    /// `press_index`, `is_rage_*`, `is_retry_after_*`): only then does `report_input` compute
    /// them (`ReportFilter.pressSequences`), which takes a sort of every stored session and
    /// bounded memory more.
    public var readsPressSequences: Bool {
        ReportFilter.sequenceColumns.contains { sql.contains($0) }
    }
    /// The built-in reports (`reports/*.sql`), by name without `.sql`.
    public static var builtIn: [ReportDefinition] {
        SQLFiles.reports.map { ReportDefinition(name: String($0.name.dropLast(4)), sql: $0.sql) }
    }
}

/// What the command line asks a report to look at. Every value is bound as a parameter.
public struct ReportFilter: Sendable, Hashable {
    /// Grouping column: one of `groupings` (config, variant, control, screen or app_version).
    public var by: String = "config"
    /// Equality filters on session_results columns: keys from `filterKeys` (config, variant,
    /// control, screen, app_version, user, device, outcome).
    public var equals: [String: String] = [:]
    /// Touch-down time bounds, in the log's seconds.
    public var since: Double?
    public var until: Double?
    /// Report the results of every session replayed as this configuration (its own or
    /// counterfactual) instead of each session's own configuration.
    public var replayedAs: String?
    /// The frustration signals' parameters (docs/frustration.md).
    public var signals = FrustrationParameters()
    /// Only sessions with this signal (`SessionSignal`: its `report_input` column is 1).
    public var signal: SessionSignal?
    /// Whether `report_input` computes the columns of the press sequences (`sequenceColumns`);
    /// when false (a report that reads none of them, `ReportDefinition.readsPressSequences`;
    /// a comparison without a frustration metric), they are NULL. Forced on by `signal`.
    public var pressSequences = true
    /// The columns of `report_input` that come from the press sequences.
    public static let sequenceColumns = ["actor", "press_index", "is_rage_press", "is_rage_episode",
                                         "is_retry_after_cancel", "is_retry_after_unseen"]
    public init() {}

    /// The `--by` keys: every attribute a report can filter by (`user` and `device` too; the
    /// maintained cells and partials are keyed by the field table's groupings only, so those two
    /// are answered from the rows).
    public static let groupings = SessionAttribute.reportFilters.map(\.key)
    /// More groups than this gets a warning: a table of so many rows is rarely what was meant.
    public static let manyGroups = 200
    /// The `--where` keys: the attributes the field table makes report filters, and `outcome`.
    public static let filterKeys = SessionAttribute.reportFilters.map(\.key) + ["outcome"]
}

/// Errors a report reports.
public enum ReportError: Error, CustomStringConvertible, Sendable {
    case badFilter(String)
    case sql(report: String, message: String)
    public var description: String {
        switch self {
        case .badFilter(let m): return m
        case .sql(let r, let m): return "report \(r): \(m)"
        }
    }
}

/// The rows of a report: column names and values.
public struct ReportResult: Sendable {
    public var columns: [String]
    public var rows: [[SQLValue]]
}

/// Runs reports on a read-only connection.
///
///     let runner = try ReportRunner(path: "pressdb.sqlite", filter: ReportFilter())
///     let result = try runner.run(ReportDefinition.builtIn.first { $0.name == "summary" }!)
public final class ReportRunner {
    public let db: Database
    public let filter: ReportFilter

    /// Opens `path` read-only (upgrading an older database first through a writing
    /// connection), registers the report functions and creates `temp.report_input`.
    /// - Throws: `DatabaseError`, `SchemaError`, `ReportError.badFilter`.
    public init(path: String, filter: ReportFilter) throws {
        var db: Database
        do { db = try Schema.openReadOnly(path: path) } catch SchemaError.needsUpgrade {
            _ = try Schema.open(path: path)
            db = try Schema.openReadOnly(path: path)
        }
        self.db = db
        self.filter = filter
        guard ReportFilter.groupings.contains(filter.by) else {
            throw ReportError.badFilter("--by must be one of \(ReportFilter.groupings.joined(separator: ", ")), not '\(filter.by)'")
        }
        for key in filter.equals.keys where !ReportFilter.filterKeys.contains(key) {
            throw ReportError.badFilter("--where: '\(key)' is not one of \(ReportFilter.filterKeys.joined(separator: ", "))")
        }
        if let problem = filter.signals.problem { throw ReportError.badFilter(problem) }
        var rc = registerReportFunctions(db.handle)
        if rc == SQLITE_OK { rc = registerSignalParameters(db.handle, filter.signals) }
        guard rc == SQLITE_OK else { throw DatabaseError(code: rc, message: "cannot register report functions") }
        try prepareInput()
    }

    /// The current version of every configuration (presets and stored).
    private func currentVersions() throws -> [(String, String)] {
        let catalog = try ConfigurationCatalog(store: Store(database: db))
        return catalog.current.map { ($0.key, $0.value.configuration.version) }
    }

    private func prepareInput() throws {
        // The temp schema is writable on a read-only connection; lift query_only while the
        // parameters are written, then put it back before any report SQL runs.
        try db.execute("PRAGMA query_only = 0")
        defer { try? db.execute("PRAGMA query_only = 1") }
        try db.execute("""
            CREATE TEMP TABLE report_params(key TEXT PRIMARY KEY, value);
            CREATE TEMP TABLE current_configs(name TEXT PRIMARY KEY, version TEXT NOT NULL);
            """)
        let insert = try db.prepare("INSERT INTO temp.report_params(key, value) VALUES (?, ?)")
        func put(_ key: String, _ value: SQLValue) throws {
            insert.reset(); insert.bind(1, key); insert.bind(2, value); try insert.run()
        }
        try put("by", .text(filter.by))
        for (k, v) in filter.equals { try put(k, .text(v)) }
        if let s = filter.since { try put("since", .real(s)) }
        if let u = filter.until { try put("until", .real(u)) }
        if let a = filter.replayedAs { try put("replayed_as", .text(a)) }
        let cfg = try db.prepare("INSERT INTO temp.current_configs(name, version) VALUES (?, ?)")
        for (name, version) in try currentVersions() {
            cfg.reset(); cfg.bind(1, name); cfg.bind(2, version); try cfg.run()
        }
        let p = Self.parameter
        let sequences = filter.pressSequences || (filter.signal.map { $0.needsSequences } ?? false)
        let equalities = ReportFilter.filterKeys.map { "(\(p($0)) IS NULL OR r.\($0) = \(p($0)))" }.joined(separator: "\n      AND ")
        // report_world: the results of one world — each session under its own configuration, or
        // every session replayed as --as — at the configurations' current versions, unfiltered, so
        // that a press's next press is found whatever the filters select. report_input adds the
        // press sequences (press_sequences, migrations/0005) and the signals that read the
        // outcomes of a press and of the next one in this world (docs/frustration.md); without
        // them it reads session_results directly, in the order and with the plan it always had.
        let world = """
            JOIN temp.current_configs AS c ON c.name = r.config AND c.version = r.config_version
            WHERE (CASE WHEN \(p("replayed_as")) IS NULL THEN r.counterfactual = 0
                        ELSE r.config = \(p("replayed_as")) END)
            """
        let columns = """
            r.*,
                   CASE \(p("by")) \(ReportFilter.groupings.map { "WHEN '\($0)' THEN r.\($0)" }.joined(separator: " ")) END AS grp,
                   CASE WHEN \(p("by")) = 'config' AND r.variant IS NOT r.config THEN r.variant END AS arm
            """
        let filters = """
            (\(p("since")) IS NULL OR r.t0 >= \(p("since")))
              AND (\(p("until")) IS NULL OR r.t0 <= \(p("until")))
              AND \(equalities)
            """
        if sequences {
            try db.execute("""
                CREATE TEMP VIEW report_world AS
                SELECT r.* FROM main.session_results AS r
                \(world);
                CREATE TEMP VIEW report_input AS
                SELECT * FROM (
                    SELECT \(columns),
                           \(FrustrationSQL.sequenceColumns("r", "q", "n"))
                    FROM temp.report_world AS r
                    LEFT JOIN main.press_sequences AS q ON q.session_id = r.session_id
                    LEFT JOIN temp.report_world AS n ON n.session_id = q.next_session_id
                    WHERE \(filters))
                \(filter.signal.map { "WHERE \($0.column) = 1" } ?? "");
                """)
        } else {
            try db.execute("""
                CREATE TEMP VIEW report_input AS
                SELECT \(columns),
                       \(FrustrationSQL.absentSequenceColumns)
                FROM main.session_results AS r
                \(world)
                  AND \(filters)\(filter.signal.map { " AND r.\($0.column) = 1" } ?? "");
                """)
        }
    }

    /// Whether `report_input` holds a row: stops at the first (counting them all costs as much
    /// as a large part of the report).
    public func hasInput() throws -> Bool {
        try db.prepare("SELECT 1 FROM temp.report_input LIMIT 1").scalarInt() != nil
    }

    /// Whether any session is stored (stops at the first).
    public func hasSessions() throws -> Bool {
        try db.prepare("SELECT 1 FROM main.sessions LIMIT 1").scalarInt() != nil
    }

    /// The SQL reading the command-line value `key` from `temp.report_params` (NULL when not given).
    static func parameter(_ key: String) -> String { "(SELECT value FROM temp.report_params WHERE key = '\(key)')" }

    /// Number of rows `report_input` holds.
    public func inputCount() throws -> Int {
        Int(try db.prepare("SELECT count(*) FROM temp.report_input").scalarInt() ?? 0)
    }

    /// Configuration names that sessions give but that are neither presets nor stored, with
    /// how many sessions name each (sessions without a configuration replay as the default).
    public func unknownConfigurations() throws -> [(name: String, sessions: Int)] {
        let s = try db.prepare("""
            SELECT config, count(*) FROM main.sessions
            WHERE config IS NOT NULL AND config NOT IN (SELECT name FROM temp.current_configs)
            GROUP BY config ORDER BY config
            """)
        var out: [(String, Int)] = []
        while try s.step() { out.append((s.text(0), s.int(1))) }
        return out
    }

    /// A configuration whose results in `report_input` cover only part of the sessions the
    /// report selects: what a replay stopped half-way (a killed `pressdb config add` or ingest)
    /// leaves, and what the report's figures would otherwise hide.
    public struct PartialCoverage: Sendable, Hashable {
        /// The configuration and its current version (the one reports read).
        public var config: String
        public var version: String
        /// Sessions the command line selects (its filters on session attributes and
        /// touch-down time) that belong to `config`: those naming it (or, naming none, replayed
        /// under it as their own); with `replayedAs`, every selected session.
        public var selected: Int
        /// Of those, the ones with a result of `version` (the rows `report_input` holds).
        public var covered: Int
    }

    /// The configurations whose results cover fewer sessions than the report selects, by name.
    /// Empty when `--where outcome=…` or `--signal` is given (an outcome is a result's, so sessions without
    /// one cannot be counted), or, with `replayedAs`, `--where config=…`.
    /// - Throws: `DatabaseError`.
    public func partialCoverage() throws -> [PartialCoverage] {
        let p = Self.parameter
        guard filter.equals["outcome"] == nil, filter.signal == nil, filter.replayedAs == nil || filter.equals["config"] == nil else { return [] }
        // Without filters on the sessions, the selection reads the `sessions_by_config` index
        // only, and the covered sessions come from the summary cells when they are current
        // (`report_input` holds exactly the sessions of the world's cells).
        let unfiltered = filter.since == nil && filter.until == nil && filter.equals.keys.allSatisfy { $0 == "config" }
        let fromCells = unfiltered && cellsAnswerSummary ? try SummaryCells.areCurrent(db) : false
        let covered = fromCells
            ? """
              (SELECT coalesce(sum(k.sessions), 0) FROM main.summary_cells AS k WHERE k.config = c.name AND k.config_version = c.version
                 AND (CASE WHEN \(p("replayed_as")) IS NULL THEN k.counterfactual = 0 ELSE k.config = \(p("replayed_as")) END))
              """
            : "(SELECT count(*) FROM temp.report_input AS i WHERE i.config = c.name)"
        let attributes = unfiltered ? "1" : ReportFilter.filterKeys.filter { $0 != "outcome" && $0 != "config" }
            .map { "(\(p($0)) IS NULL OR s.\($0) = \(p($0)))" }.joined(separator: " AND ")
        let times = unfiltered ? "1" : "(\(p("since")) IS NULL OR s.t0 >= \(p("since"))) AND (\(p("until")) IS NULL OR s.t0 <= \(p("until")))"
        // A session's own configuration: the one it names, else the one its own result was
        // replayed under (the ingest's --config or spring-press).
        let own = """
            coalesce(s.config, (SELECT r.config FROM main.results AS r WHERE r.session_id = s.id AND r.counterfactual = 0
                                ORDER BY r.rowid DESC LIMIT 1))
            """
        let s = try db.prepare("""
            WITH selected AS (
                SELECT CASE WHEN \(p("replayed_as")) IS NULL THEN \(own) ELSE \(p("replayed_as")) END AS config
                FROM main.sessions AS s
                WHERE \(times) AND \(attributes)
            )
            SELECT c.name, c.version, count(*) AS selected, \(covered) AS covered
            FROM selected JOIN temp.current_configs AS c ON c.name = selected.config
            WHERE \(p("config")) IS NULL OR \(p("replayed_as")) IS NOT NULL OR selected.config = \(p("config"))
            GROUP BY c.name, c.version HAVING covered < count(*) ORDER BY c.name
            """)
        var out: [PartialCoverage] = []
        while try s.step() { out.append(PartialCoverage(config: s.text(0), version: s.text(1), selected: s.int(2), covered: s.int(3))) }
        return out
    }

    /// Whether `name` is a preset or a stored configuration.
    public func knowsConfiguration(_ name: String) -> Bool {
        (try? db.prepare("SELECT 1 FROM temp.current_configs WHERE name = ?").bound([.text(name)]).scalarInt()) != nil
    }

    /// A report file holds exactly one statement: SQLite would run only the first and ignore
    /// the rest without a word.
    private func checkSingleStatement(_ report: ReportDefinition) throws {
        var stmt: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        var rc = SQLITE_OK
        let rest: String = report.sql.withCString { sql in
            rc = sqlite3_prepare_v2(db.handle, sql, -1, &stmt, &tail)
            sqlite3_finalize(stmt)
            guard rc == SQLITE_OK, let tail else { return "" }
            return String(cString: tail)
        }
        // A statement that does not compile is reported by `run` with SQLite's own message.
        guard rc == SQLITE_OK else { return }
        if stmt == nil {
            throw ReportError.sql(report: report.name, message: "the file holds no SQL statement")
        }
        // What follows may only be blanks and comments.
        var remaining = Substring(rest)
        while true {
            remaining = remaining.drop(while: { $0.isWhitespace || $0 == ";" })
            if remaining.hasPrefix("--") {
                remaining = remaining.drop(while: { $0 != "\n" })
            } else if remaining.hasPrefix("/*"), let end = remaining.range(of: "*/") {
                remaining = remaining[end.upperBound...]
            } else { break }
        }
        if !remaining.isEmpty {
            throw ReportError.sql(report: report.name, message: "a report file holds one SQL statement, but more follows the first: \(remaining.prefix(40).split(whereSeparator: \.isNewline).joined(separator: " "))…")
        }
    }

    /// Number of stored sessions.
    public func sessionCount() throws -> Int {
        Int(try db.prepare("SELECT count(*) FROM main.sessions").scalarInt() ?? 0)
    }

    /// Runs `report` and returns its rows. The SQL is compiled under an authorizer that allows
    /// only reading (SELECT, reads, functions, recursive CTEs): ATTACH, PRAGMA and every kind
    /// of write fail with "not authorized".
    /// - Throws: `ReportError.sql` naming the report and SQLite's message.
    public func run(_ report: ReportDefinition) throws -> ReportResult {
        var result = ReportResult(columns: [], rows: [])
        try run(report, columns: { result.columns = $0 }, row: { result.rows.append($0) })
        return result
    }

    /// Runs `report` as `run(_:)` does, handing its column names to `columns` and then each row
    /// to `row` as SQLite produces it: nothing is collected, so a report of any length runs in
    /// bounded memory. An error `columns` or `row` throws ends the report and is rethrown.
    /// - Throws: `ReportError.sql` naming the report and SQLite's message.
    public func run(_ report: ReportDefinition, columns: ([String]) throws -> Void,
                    row: ([SQLValue]) throws -> Void) throws {
        sqlite3_set_authorizer(db.handle, { _, action, _, _, _, _ in
            switch action {
            case SQLITE_SELECT, SQLITE_READ, SQLITE_FUNCTION, SQLITE_RECURSIVE: return SQLITE_OK
            default: return SQLITE_DENY
            }
        }, nil)
        defer { sqlite3_set_authorizer(db.handle, nil, nil) }
        try checkSingleStatement(report)
        let statement: Statement
        do { statement = try db.prepare(report.sql) } catch let e as DatabaseError {
            throw ReportError.sql(report: report.name, message: e.message)
        }
        try columns((0..<statement.columnCount).map { statement.columnName($0) })
        while true {
            do {
                guard try statement.step() else { break }
            } catch let e as DatabaseError {
                throw ReportError.sql(report: report.name, message: e.message)
            }
            try row((0..<statement.columnCount).map { statement.value($0) })
        }
    }
}

// MARK: Read helpers for charts (HTML reports)

/// One report group's feedback latencies, for an ECDF: every non-NULL `feedback_latency_ms`
/// of the group, and its unseen presses (`is_unseen_press`: sessions the control received —
/// every outcome but a scroll-abort — whose animation never moved the edge by one device
/// pixel), as the summary report counts them (`reports/summary.sql`, `unseen_presses`).
public struct GroupFeedbackLatencies: Sendable, Equatable {
    /// The `grp` value (the `--by` column); nil when the sessions have none.
    public var group: String?
    /// The variant when grouping by config and it differs from the config (`arm`); else nil.
    public var arm: String?
    /// Feedback latencies in milliseconds, ascending.
    public var latenciesMs: [Double]
    /// Presses without feedback latency (unseen presses).
    public var unseenPresses: Int
}

/// How one configuration is used in the report's input: its sessions per container, and the
/// median duration of its taps.
public struct ConfigurationUsage: Sendable, Equatable {
    /// The configuration's name (`report_input.config`).
    public var config: String
    /// Distinct `sessions.container` texts (a name, canonical JSON, or nil for none given) with
    /// their session counts, most sessions first.
    public var containers: [(container: String?, sessions: Int)]
    /// Median `duration_ms` of the configuration's taps (Hyndman & Fan type 7, as the report
    /// function `percentile`); nil without taps.
    public var medianTapDurationMs: Double?
    /// Median `duration_ms` of all its sessions.
    public var medianDurationMs: Double?

    public static func == (a: ConfigurationUsage, b: ConfigurationUsage) -> Bool {
        a.config == b.config && a.medianTapDurationMs == b.medianTapDurationMs && a.medianDurationMs == b.medianDurationMs
            && a.containers.map(\.container) == b.containers.map(\.container)
            && a.containers.map(\.sessions) == b.containers.map(\.sessions)
    }
}

extension ReportRunner {
    /// The feedback latencies of every group of `report_input`, ordered by group then arm (the
    /// summary report's order).
    /// - Throws: `DatabaseError`.
    public func feedbackLatencies() throws -> [GroupFeedbackLatencies] {
        let s = try db.prepare("""
            SELECT grp, arm, feedback_latency_ms, \(SessionEvent.unseenPress.column)
            FROM temp.report_input ORDER BY grp, arm, feedback_latency_ms
            """)
        var out: [GroupFeedbackLatencies] = []
        while try s.step() {
            let group = s.isNull(0) ? nil : s.text(0), arm = s.isNull(1) ? nil : s.text(1)
            if out.last.map({ $0.group != group || $0.arm != arm }) ?? true {
                out.append(GroupFeedbackLatencies(group: group, arm: arm, latenciesMs: [], unseenPresses: 0))
            }
            if let v = s.optionalDouble(2) { out[out.count - 1].latenciesMs.append(v) }
            if s.int(3) == 1 { out[out.count - 1].unseenPresses += 1 }
        }
        return out
    }

    /// Per configuration in `report_input` (by name): containers and median tap duration.
    /// - Throws: `DatabaseError`.
    public func configurationUsage() throws -> [ConfigurationUsage] {
        var out: [ConfigurationUsage] = []
        let medians = try db.prepare("""
            SELECT config, percentile(CASE WHEN \(SessionEvent.tap.column) THEN duration_ms END, 0.5), percentile(duration_ms, 0.5)
            FROM temp.report_input GROUP BY config ORDER BY config
            """)
        while try medians.step() {
            out.append(ConfigurationUsage(config: medians.text(0), containers: [],
                                          medianTapDurationMs: medians.optionalDouble(1),
                                          medianDurationMs: medians.optionalDouble(2)))
        }
        let containers = try db.prepare("""
            SELECT config, container, count(*) FROM temp.report_input
            GROUP BY config, container ORDER BY config, count(*) DESC, container
            """)
        while try containers.step() {
            guard let i = out.firstIndex(where: { $0.config == containers.text(0) }) else { continue }
            out[i].containers.append((containers.optionalText(1), containers.int(2)))
        }
        return out
    }

    /// The current definition of every configuration (presets and stored), by name.
    /// - Throws: `DatabaseError`.
    public func configurations() throws -> [String: PressConfiguration] {
        try ConfigurationCatalog(store: Store(database: db)).current.mapValues(\.configuration)
    }
}
