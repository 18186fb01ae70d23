// Reading the two arms of `pressdb compare` from the database. SQL computes what it can — the
// sessions per arm, the sessions with each event, and in paired
// mode the 2×2 tables of outcomes under both configurations — and the raw latencies are read for
// the rank tests and percentiles. Every value from the command line is a bound parameter.
import CSQLite
import PressCore
import PressStats
import PressSQLite
import PressStore
import PressIngest

/// Why a comparison cannot be read.
public enum ComparisonError: Error, CustomStringConvertible, Sendable {
    /// `--by` or `--where` is not one of the accepted keys.
    case badFilter(String)
    /// An arm has no sessions; `available` lists the groups that do, with their session counts.
    case emptyArm(name: String, by: String, available: [ComparisonGroup])
    /// Paired mode: the filter selects no stored session.
    case noSessions(filter: String)

    public var description: String {
        switch self {
        case .badFilter(let m):
            return m
        case let .emptyArm(name, by, available):
            let list = available.isEmpty ? "none among the replayed sessions the filters select (check --where; sessions get results when ingested)"
                : available.map { "\($0.name) (\($0.sessions))" }.joined(separator: ", ")
            return "no sessions for \(by) '\(name)'; \(by)s with sessions: \(list)"
        case .noSessions(let filter):
            return "no stored session matches \(filter.isEmpty ? "(the database holds none)" : filter)"
        }
    }
}

/// A group of sessions (a variant or a configuration) and how many sessions it has.
public struct ComparisonGroup: Sendable, Hashable {
    public var name: String
    public var sessions: Int
    public init(name: String, sessions: Int) { self.name = name; self.sessions = sessions }
}

// MARK: - Observed mode

/// Reads the arms of an observed comparison from `report_input` (the view `pressdb report` uses:
/// each session's own-configuration result under the configuration's current version, filtered
/// by `--where`), on a read-only connection.
///
///     let reader = try ObservedComparisonReader(path: "pressdb.sqlite", by: "variant")
///     let a = try reader.arm("A"), b = try reader.arm("B")
///     let report = try Experiment.observed(control: a, treatment: b)
public final class ObservedComparisonReader {
    /// The groupings an arm can be named by.
    public static let groupings = ["variant", "config"]

    let runner: ReportRunner
    /// The arms `userArm(_:other:metrics:)` read last, for the other arm's call.
    var bothArms: BothArmsByUser?

    /// - Parameters:
    ///   - by: `variant` or `config`.
    ///   - equals: `--where` equalities on `ReportFilter.filterKeys`.
    /// - Throws: `ComparisonError.badFilter`, `DatabaseError`, `SchemaError`.
    ///   - pressSequences: compute the signals of the press sequences (`rage_episode`,
    ///     `retry_after_cancel`, `retry_after_unseen`); without, their counts are 0. Only a
    ///     comparison of those metrics needs them.
    ///   - signals: the frustration signals' parameters (`ReportFilter.signals`).
    ///   - since, until: only sessions touching down at or after `since` and at or before `until`
    ///     (seconds, the log's clock), as `pressdb report --since/--until`.
    public init(path: String, by: String = "variant", equals: [String: String] = [:], pressSequences: Bool = false,
                signals: FrustrationParameters = FrustrationParameters(), since: Double? = nil, until: Double? = nil) throws {
        guard Self.groupings.contains(by) else {
            throw ComparisonError.badFilter("--by must be one of \(Self.groupings.joined(separator: ", ")), not '\(by)'")
        }
        var filter = ReportFilter()
        filter.by = by
        filter.equals = equals
        filter.pressSequences = pressSequences
        filter.signals = signals
        filter.since = since
        filter.until = until
        do { runner = try ReportRunner(path: path, filter: filter) } catch let e as ReportError {
            throw ComparisonError.badFilter(e.description)
        }
    }

    public var by: String { runner.filter.by }

    /// Every group with at least one session in the filtered input, by name.
    public func groups() throws -> [ComparisonGroup] {
        let s = try runner.db.prepare("SELECT grp, count(*) FROM temp.report_input WHERE grp IS NOT NULL GROUP BY grp ORDER BY grp")
        var out: [ComparisonGroup] = []
        while try s.step() { out.append(ComparisonGroup(name: s.text(0), sessions: s.int(1))) }
        return out
    }

    /// Number of stored sessions (to tell an empty database from an empty arm).
    public func storedSessions() throws -> Int { try runner.sessionCount() }

    /// The attributes a comparison may be split by (`compare --segment`): the report keys that
    /// describe where or on what a press happened, not the arms, the user or the outcome.
    public static let segmentAttributes = ReportFilter.filterKeys.filter { !["config", "variant", "user", "outcome"].contains($0) }

    /// The values of `attribute` among the sessions of arms `a` and `b`, with each arm's sessions,
    /// in the values' order; and the sessions of the two arms without a value.
    /// - Throws: `ComparisonError.badFilter` for an attribute not in `segmentAttributes`.
    public func segments(of attribute: String, _ a: String, _ b: String) throws
        -> (values: [(value: String, sessionsA: Int, sessionsB: Int)], withoutValue: Int) {
        guard Self.segmentAttributes.contains(attribute) else {
            throw ComparisonError.badFilter("--segment must be one of \(Self.segmentAttributes.joined(separator: ", ")), not '\(attribute)'")
        }
        // The attribute is one of a fixed list of column names, so it can be part of the SQL.
        let s = try runner.db.prepare("""
            SELECT \(attribute), coalesce(sum(grp = ?1), 0), coalesce(sum(grp = ?2), 0) FROM temp.report_input
            WHERE grp IN (?1, ?2) GROUP BY \(attribute) ORDER BY \(attribute)
            """)
        s.bind([.text(a), .text(b)])
        var values: [(value: String, sessionsA: Int, sessionsB: Int)] = [], without = 0
        while try s.step() {
            if let v = s.optionalText(0) { values.append((v, s.int(1), s.int(2))) } else { without = s.int(1) + s.int(2) }
        }
        return (values, without)
    }

    /// Whether `name` is a preset or a stored configuration (an arm under `--by config`), and
    /// the names of all of them.
    public func knowsConfiguration(_ name: String) -> Bool { runner.knowsConfiguration(name) }
    public func configurationNames() throws -> [String] { Array(try runner.configurations().keys) }

    /// The counts of one arm, computed in SQL: the sessions, then the sessions with each event
    /// (its `result_events` column, in `SessionEvent.allCases` order).
    static let summarySQL = """
        SELECT count(*), \(SessionEvent.allCases.map { "coalesce(sum(\($0.column)), 0)" }.joined(separator: ", "))
        FROM temp.report_input WHERE grp = ?1
        """

    /// One arm's data: counts from SQL; the latencies in ascending order, whose n, Σx and Σx²
    /// are summed in that order (`LatencySample(values:)`), so a partial's histograms, expanded
    /// in the same order, give the same sums to the last bit (`Partial.observedArm`).
    /// - Throws: `ComparisonError.emptyArm` when the arm has no session, `DatabaseError`.
    public func arm(_ name: String) throws -> ObservedArm {
        let s = try runner.db.prepare(Self.summarySQL)
        s.bind(1, name)
        guard try s.step(), s.int(0) > 0 else {
            throw ComparisonError.emptyArm(name: name, by: by, available: try groups())
        }
        var count: [SessionEvent: Int] = [:]
        for (i, e) in SessionEvent.allCases.enumerated() { count[e] = s.int(Int32(1 + i)) }
        let events = ArmEventCounts(sessions: s.int(0), taps: count[.tap]!, cancels: count[.cancel]!,
                                    scrollAborts: count[.scrollAbort]!, falseActions: count[.falseAction]!,
                                    unseenPresses: count[.unseenPress]!,
                                    signals: count.filter { [.rageEpisode, .retryAfterCancel, .retryAfterUnseen, .deadPress].contains($0.key) })
        return ObservedArm(name: name, events: events,
                           feedbackLatency: LatencySample(values: try values("feedback_latency_ms", name)),
                           actionLatency: LatencySample(values: try values("action_latency_ms", name)),
                           feedbackPhoton: LatencySample(values: try values("feedback_photon_ms", name)))
    }

    /// The non-NULL values of a latency column in one arm, ascending.
    private func values(_ column: String, _ name: String) throws -> [Double] {
        precondition(LatencyKind.all.map(\.column).contains(column))
        let s = try runner.db.prepare("SELECT \(column) FROM temp.report_input WHERE grp = ?1 AND \(column) IS NOT NULL ORDER BY \(column)")
        s.bind(1, name)
        var out: [Double] = []
        while try s.step() { out.append(s.double(0)) }
        return out
    }
}

// MARK: - Paired mode

/// What preparing a paired comparison did: sessions selected, replayed, paired, and not paired.
public struct PairingSummary: Sendable {
    /// Stored sessions the filter selects.
    public var selected = 0
    /// Sessions replayed because they lacked a result under A's / B's current version.
    public var replayedControl = 0
    public var replayedTreatment = 0
    /// Sessions with a result under both versions.
    public var paired = 0
    /// Selected sessions without both results (their replay failed), at most 20 kept, with reasons.
    public var unpaired: [(session: String, reason: String)] = []
    public var unpairedCount: Int { selected - paired }
}

/// Pairs the same sessions under two configurations: replays (counterfactually, `Replayer.replay(_:as:)`)
/// every selected session lacking a result under either configuration's current version, then
/// joins the two results by session.
///
///     let pairing = try PairedComparison(store: store)
///     let summary = try pairing.prepare(control: .springPress, treatment: .longPressSafeArea, equals: ["variant": "A"])
///     let arms = try pairing.read(control: .springPress, treatment: .longPressSafeArea, equals: ["variant": "A"])
public final class PairedComparison {
    /// Session columns `--where` may name in paired mode (`config` is the session's own
    /// configuration; outcomes differ between the two replays, so `outcome` is not a filter).
    public static let filterKeys = SessionAttribute.reportFilters.map(\.key)

    public let store: Store
    public let replayer: Replayer
    /// Whether the pairs carry the signals of the press sequences (else their counts are 0).
    public let pressSequences: Bool

    /// - Parameter signals: the frustration signals' parameters, registered on the store's
    ///   connection for the SQL of the signals (`FrustrationSQL`).
    /// - Parameter pressSequences: compute the signals of the press sequences (under each
    ///   configuration, the next press's result under the same one); only their metrics need it.
    public init(store: Store, options: ReplayOptions = ReplayOptions(), signals: FrustrationParameters = FrustrationParameters(),
                pressSequences: Bool = false) throws {
        self.pressSequences = pressSequences
        let rc = registerSignalParameters(store.db.handle, signals)
        guard rc == SQLITE_OK else { throw DatabaseError(code: rc, message: "cannot register signal_parameter()") }
        self.store = store
        self.replayer = Replayer(store: store, catalog: try ConfigurationCatalog(store: store), options: options)
    }

    /// The WHERE clause selecting sessions `s` by `equals`, with its bound values from `?first` on.
    func selection(_ equals: [String: String], first: Int) throws -> (sql: String, values: [SQLValue]) {
        var conditions: [String] = []
        var values: [SQLValue] = []
        for (key, value) in equals.sorted(by: { $0.key < $1.key }) {
            guard Self.filterKeys.contains(key) else {
                throw ComparisonError.badFilter("--where: '\(key)' is not one of \(Self.filterKeys.joined(separator: ", ")) in paired mode")
            }
            values.append(.text(value))
            let p = "?\(first + values.count - 1)"
            if key == "config" {
                values.append(.text(replayer.options.defaultConfig))
                conditions.append("coalesce(s.config, ?\(first + values.count - 1)) = \(p)")
            } else {
                conditions.append("s.\(key) = \(p)")
            }
        }
        return (conditions.isEmpty ? "1" : conditions.joined(separator: " AND "), values)
    }

    /// The `--where` pairs as text, for messages.
    public static func describe(_ equals: [String: String]) -> String {
        equals.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
    }

    /// Replays the selected sessions that lack a result under either configuration.
    /// - Throws: `ComparisonError.noSessions` when the filter selects none, `.badFilter`,
    ///   `DatabaseError`.
    public func prepare(control: PressConfiguration, treatment: PressConfiguration,
                        equals: [String: String] = [:]) throws -> PairingSummary {
        var summary = PairingSummary()
        let (where_, values) = try selection(equals, first: 1)
        let count = try store.db.prepare("SELECT count(*) FROM sessions AS s WHERE \(where_)")
        count.bind(values)
        summary.selected = Int(try count.scalarInt() ?? 0)
        guard summary.selected > 0 else { throw ComparisonError.noSessions(filter: Self.describe(equals)) }
        var failures: [String: String] = [:]
        var missingIDs: [[Int64]] = []
        for configuration in [control, treatment] {
            let missing = try store.db.prepare("""
                SELECT s.id FROM sessions AS s WHERE \(where_)
                  AND NOT EXISTS (SELECT 1 FROM results AS r WHERE r.session_id = s.id AND r.config_version = ?\(values.count + 1))
                ORDER BY s.id
                """)
            missing.bind(values + [.text(configuration.version)])
            var ids: [Int64] = []
            while try missing.step() { ids.append(missing.int64(0)) }
            missingIDs.append(ids)
        }
        // Progress over both replays: the treatment's continues where the control's ended.
        let progress = replayer.options.progress
        defer { replayer.options.progress = progress }
        let total = missingIDs[0].count + missingIDs[1].count
        for ((configuration, isControl), ids) in zip([(control, true), (treatment, false)], missingIDs) {
            guard !ids.isEmpty else { continue }
            let before = isControl ? 0 : missingIDs[0].count
            if let progress { replayer.options.progress = { done, _ in progress(before + done, total) } }
            let r = try replayer.replay(SessionFilter(ids: ids), as: configuration)
            if isControl { summary.replayedControl = r.replayed } else { summary.replayedTreatment = r.replayed }
            for f in r.failures { failures[f.session] = "cannot be replayed as \(configuration.name): \(f.reason)" }
        }
        let paired = try store.db.prepare("""
            SELECT count(*) FROM sessions AS s
            JOIN results AS ra ON ra.session_id = s.id AND ra.config_version = ?\(values.count + 1)
            JOIN results AS rb ON rb.session_id = s.id AND rb.config_version = ?\(values.count + 2)
            WHERE \(where_)
            """)
        paired.bind(values + [.text(control.version), .text(treatment.version)])
        summary.paired = Int(try paired.scalarInt() ?? 0)
        if summary.unpairedCount > 0 {
            let lacking = try store.db.prepare("""
                SELECT s.session FROM sessions AS s WHERE \(where_)
                  AND (NOT EXISTS (SELECT 1 FROM results AS r WHERE r.session_id = s.id AND r.config_version = ?\(values.count + 1))
                    OR NOT EXISTS (SELECT 1 FROM results AS r WHERE r.session_id = s.id AND r.config_version = ?\(values.count + 2)))
                ORDER BY s.id LIMIT 20
                """)
            lacking.bind(values + [.text(control.version), .text(treatment.version)])
            while try lacking.step() {
                let name = lacking.text(0)
                summary.unpaired.append((name, failures[name] ?? "no result under one of the configurations"))
            }
        }
        return summary
    }

    /// The paired sessions' SQL join, FROM to WHERE; `ra` is A's result with its events
    /// (`result_events`), `rb` B's, their versions the two parameters after `values`.
    func pairsJoin(_ where_: String, _ values: [SQLValue], extra: String = "") -> String {
        """
        FROM sessions AS s
        JOIN \(FrustrationSQL.resultsWithSignals(version: "?\(values.count + 1)", sequences: pressSequences)) AS ra ON ra.session_id = s.id
        JOIN \(FrustrationSQL.resultsWithSignals(version: "?\(values.count + 2)", sequences: pressSequences)) AS rb ON rb.session_id = s.id
        WHERE \(where_)\(extra)
        """
    }

    private func pairsSQL(_ where_: String, _ values: [SQLValue], select: String, extra: String = "") -> String {
        "SELECT \(select) " + pairsJoin(where_, values, extra: extra)
    }

    /// Reads the paired data: the McNemar table of every event (computed in SQL) and the latency
    /// pairs (sessions with the latency under both), in session order. Call `prepare` first.
    public func read(control: PressConfiguration, treatment: PressConfiguration,
                     equals: [String: String] = [:]) throws -> PairedArms {
        let (where_, values) = try selection(equals, first: 1)
        let versions: [SQLValue] = [.text(control.version), .text(treatment.version)]
        var columns = ["count(*)"]
        for e in SessionEvent.allCases {
            let a = "ra.\(e.column)", b = "rb.\(e.column)"
            columns += ["coalesce(sum(\(a) AND \(b)), 0)", "coalesce(sum(\(a) AND NOT \(b)), 0)",
                        "coalesce(sum(NOT \(a) AND \(b)), 0)"]
        }
        let tables = try store.db.prepare(pairsSQL(where_, values, select: columns.joined(separator: ", ")))
        tables.bind(values + versions)
        _ = try tables.step()
        let pairs = tables.int(0)
        var events: [SessionEvent: PairedCounts] = [:]
        for (i, e) in SessionEvent.allCases.enumerated() {
            let both = tables.int(Int32(1 + 3 * i)), aOnly = tables.int(Int32(2 + 3 * i)), bOnly = tables.int(Int32(3 + 3 * i))
            events[e] = PairedCounts(both: both, controlOnly: aOnly, treatmentOnly: bOnly, neither: pairs - both - aOnly - bOnly)
        }
        func latencies(_ column: String) throws -> PairedLatencies {
            let s = try store.db.prepare(pairsSQL(where_, values, select: "ra.\(column), rb.\(column)",
                extra: " AND ra.\(column) IS NOT NULL AND rb.\(column) IS NOT NULL ORDER BY s.id"))
            s.bind(values + versions)
            var a: [Double] = [], b: [Double] = []
            while try s.step() { a.append(s.double(0)); b.append(s.double(1)) }
            return PairedLatencies(control: a, treatment: b)
        }
        return PairedArms(controlName: control.name, treatmentName: treatment.name, pairs: pairs, events: events,
                          feedbackLatency: try latencies("feedback_latency_ms"),
                          actionLatency: try latencies("action_latency_ms"),
                          feedbackPhoton: try latencies("feedback_photon_ms"))
    }
}
