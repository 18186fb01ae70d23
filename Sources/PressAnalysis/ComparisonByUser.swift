// The arms of a comparison by user (`pressdb compare --unit user`): one `GROUP BY user` gives
// each user's totals in an arm, and they are summed over the users — n, ΣX, ΣY, ΣX², ΣY², ΣXY of
// every ratio metric (docs/compare.md, "What the store computes"); observed in Swift
// (`UserArmSums.sums`, the same for a partial), paired in SQL. The per-user relation is the interface: any source of per-user totals with the
// columns below (the sessions' results here; partial aggregates elsewhere, merged by user) builds
// its arm through the same sums, so every by-user arm is built in one place.
import PressCore
import PressStats
import PressSQLite
import PressStore
import PressIngest

// MARK: - Observed arms

/// Builds an observed arm by user (`UserArm`) from a per-user relation: a SELECT (or table) with
/// one row per user of the arm and the columns `perUserColumns`.
///
///     let arm = try UserArmSums.arm("A", in: db, perUser: "SELECT … GROUP BY user", bindings: [.text("A")])
public enum UserArmSums {
    /// The per-user columns: `user`, `sessions` (the user's sessions in the arm), one per event
    /// (`tap`, `cancel`, `scroll_abort`, `false_action`, `unseen_press`: the user's sessions with
    /// it), and per latency `feedback_n`, `feedback_sum`, `action_n`, `action_sum` (the user's
    /// non-NULL latencies and their sum, ms).
    public static let perUserColumns = ["user", "sessions"] + SessionEvent.allCases.map(\.rawValue)
        + LatencyKind.all.flatMap { ["\($0.rawValue)_n", "\($0.rawValue)_sum"] }

    /// The per-user relation of the sessions `source` holds (rows with the `result_events` columns,
    /// `user` and the latencies) that satisfy `condition`.
    public static func perUserSQL(from source: String, where condition: String) -> String {
        let events = SessionEvent.allCases.map { "coalesce(sum(\($0.column)), 0) AS \($0.rawValue)" }
        let latencies = LatencyKind.all.map {
            "count(\($0.column)) AS \($0.rawValue)_n, total(\($0.column)) AS \($0.rawValue)_sum"
        }
        return "SELECT user, count(*) AS sessions, " + (events + latencies).joined(separator: ", ")
            + " FROM \(source) WHERE \(condition) GROUP BY user"
    }

    /// The sums over the users of `perUser`, one row: n, Σs, Σs²; per event Σe, Σe², Σs·e; per
    /// latency the users with a value, Σn, Σn², ΣL, ΣL², Σn·L.
    public static func sumsSQL(over perUser: String) -> String {
        var columns = ["count(*)", "total(sessions)", "total(sessions * sessions)"]
        for e in SessionEvent.allCases.map(\.rawValue) {
            columns += ["total(\(e))", "total(\(e) * \(e))", "total(sessions * \(e))"]
        }
        for l in LatencyKind.all.map(\.rawValue) {
            let n = "\(l)_n", y = "\(l)_sum"
            columns += ["coalesce(sum(\(n) > 0), 0)", "total(\(n))", "total(\(n) * \(n))", "total(\(y))",
                        "total(\(y) * \(y))", "total(\(n) * \(y))"]
        }
        return "SELECT " + columns.joined(separator: ", ") + " FROM (\(perUser))"
    }

    /// The histograms relation of one latency: `user`, `value` (ms), `count`, ordered by user.
    public static func histogramSQL(from source: String, where condition: String, latency: LatencyKind) -> String {
        let c = latency.column
        return "SELECT user, \(c) AS value, count(*) AS count FROM \(source) WHERE (\(condition)) AND \(c) IS NOT NULL "
            + "GROUP BY user, \(c) ORDER BY user, \(c)"
    }

    /// The arm whose users `perUser` lists, with `bindings` bound to both queries' parameters.
    /// - Parameters:
    ///   - histograms: per latency, its histogram relation (`histogramSQL`); nil when no percentile
    ///     row is asked (the arm's histograms are then empty).
    /// - Throws: `DatabaseError`; `StatsError` for a non-finite latency.
    public static func arm(_ name: String, in db: Database, perUser: String, bindings: [SQLValue],
                           histograms: [LatencyKind: String]? = nil) throws -> UserArm {
        var read: [LatencyKind: [UnitHistogram]] = [:]
        for (l, sql) in histograms ?? [:] { read[l] = try readHistograms(db, sql, bindings).map(\.histogram) }
        return arm(name, sums: sums(try userTotals(db, perUser, bindings).map(\.totals)), histograms: read)
    }

    /// One user's totals in an arm, a row of the per-user relation: sessions, the sessions with
    /// each event (`SessionEvent.allCases` order), and per latency (`LatencyKind.all` order) the
    /// user's values and their sum (ms).
    public struct UserTotals: Sendable, Equatable {
        public var sessions: Int
        public var events: [Int]
        public var latencies: [(n: Int, sum: Double)]

        public init(sessions: Int, events: [Int], latencies: [(n: Int, sum: Double)]) {
            self.sessions = sessions; self.events = events; self.latencies = latencies
        }

        public static func == (a: UserTotals, b: UserTotals) -> Bool {
            a.sessions == b.sessions && a.events == b.events && a.latencies.elementsEqual(b.latencies) { $0 == $1 }
        }
    }

    /// The rows of the per-user relation `perUser`, ordered by user (SQL's BINARY order: the
    /// UTF-8 bytes of the ids).
    static func userTotals(_ db: Database, _ perUser: String, _ bindings: [SQLValue]) throws -> [(user: String, totals: UserTotals)] {
        let columns = perUserColumns.joined(separator: ", ")
        let s = try db.prepare("SELECT \(columns) FROM (\(perUser)) ORDER BY user")
        s.bind(bindings)
        let events = SessionEvent.allCases.count
        var out: [(user: String, totals: UserTotals)] = []
        while try s.step() {
            out.append((s.text(0), UserTotals(sessions: s.int(1), events: (0..<events).map { s.int(Int32(2 + $0)) },
                                              latencies: LatencyKind.all.indices.map { (s.int(Int32(2 + events + 2 * $0)), s.double(Int32(3 + events + 2 * $0))) })))
        }
        return out
    }

    /// The sum of a histogram's values (ascending `values`, each `counts` times), added one value
    /// at a time in ascending order: the one way a user's latency total is computed from exact
    /// values, so a database's and a partial's agree to the last bit.
    public static func total(values: [Double], counts: [Int]) -> Double {
        var sum = 0.0
        for (v, c) in zip(values, counts) { for _ in 0..<c { sum += v } }
        return sum
    }

    /// The sums over `users`, in `sumsSQL`'s column order, added user by user in the order given
    /// (plain double addition, as SQLite's `total()` did before 3.43): in Swift rather than SQL so
    /// the arithmetic is the same whatever SQLite is linked and wherever the totals come from.
    public static func sums(_ users: [UserTotals]) -> [Double] {
        func sum(_ f: (UserTotals) -> Double) -> Double { users.reduce(0) { $0 + f($1) } }
        var v = [Double(users.count), sum { Double($0.sessions) }, sum { Double($0.sessions * $0.sessions) }]
        for e in SessionEvent.allCases.indices {
            v += [sum { Double($0.events[e]) }, sum { Double($0.events[e] * $0.events[e]) }, sum { Double($0.sessions * $0.events[e]) }]
        }
        for l in LatencyKind.all.indices {
            v += [sum { $0.latencies[l].n > 0 ? 1 : 0 }, sum { Double($0.latencies[l].n) },
                  sum { Double($0.latencies[l].n * $0.latencies[l].n) }, sum { $0.latencies[l].sum },
                  sum { $0.latencies[l].sum * $0.latencies[l].sum }, sum { Double($0.latencies[l].n) * $0.latencies[l].sum }]
        }
        return v
    }

    /// The arm from the sums `sumsSQL` computes, in its column order: n, Σs, Σs²; per event (in
    /// `SessionEvent.allCases` order) Σe, Σe², Σs·e; per latency (`LatencyKind.all` order) the users with a
    /// value, Σn, Σn², ΣL, ΣL², Σn·L. The sums of disjoint sets of users add element by element, so
    /// partial aggregates merge by adding these vectors before building the arm here.
    public static func arm(_ name: String, sums v: [Double], histograms: [LatencyKind: [UnitHistogram]] = [:]) -> UserArm {
        let users = Int(v[0].rounded())
        var next = 3
        var events: [SessionEvent: RatioSummary] = [:]
        for e in SessionEvent.allCases {
            // Σs and Σs² are columns 1 and 2 for every event; its own are Σe, Σe², Σs·e.
            events[e] = RatioSummary(units: users, denominatorSum: v[1], numeratorSum: v[next], denominatorSumOfSquares: v[2],
                                     numeratorSumOfSquares: v[next + 1], sumOfProducts: v[next + 2])
            next += 3
        }
        var latencies: [LatencyKind: UserLatencies] = [:]
        for l in LatencyKind.all {
            let summary = RatioSummary(units: Int(v[next].rounded()), denominatorSum: v[next + 1], numeratorSum: v[next + 3],
                                       denominatorSumOfSquares: v[next + 2], numeratorSumOfSquares: v[next + 4],
                                       sumOfProducts: v[next + 5])
            latencies[l] = UserLatencies(summary: summary, histograms: histograms[l] ?? [])
            next += 6
        }
        return UserArm(name: name, users: users, sessions: Int(v[1].rounded()), events: events,
                       feedbackLatency: latencies[.feedback]!, actionLatency: latencies[.action]!,
                       feedbackPhoton: latencies[.feedbackPhoton]!)
    }

    /// The one row of a sums query, every column as a Double.
    static func sumsRow(_ db: Database, _ sql: String, _ bindings: [SQLValue]) throws -> [Double] {
        let s = try db.prepare(sql)
        s.bind(bindings)
        _ = try s.step()
        return (0..<s.columnCount).map { s.double($0) }
    }

    /// Reads a histogram relation (`user`, `value`, `count`, ordered by user) into one histogram per user.
    static func readHistograms(_ db: Database, _ sql: String, _ bindings: [SQLValue]) throws -> [(user: String, histogram: UnitHistogram)] {
        let h = try db.prepare(sql)
        h.bind(bindings)
        var out: [(user: String, histogram: UnitHistogram)] = []
        var user: String? = nil, values: [Double] = [], counts: [Int] = []
        func flush() throws {
            if let user, !values.isEmpty { out.append((user, try UnitHistogram(values: values, counts: counts))) }
            values = []; counts = []
        }
        while try h.step() {
            let u = h.text(0)
            if u != user { try flush(); user = u }
            values.append(h.double(1)); counts.append(h.int(2))
        }
        try flush()
        return out
    }
}

extension LatencyKind {
    /// Every latency, feedback first.
    public static let all: [LatencyKind] = [.feedback, .action, .feedbackPhoton]

    /// The latency's column in `result_events` / `report_input` (ms, NULL when there is none).
    public var column: String { self == .feedbackPhoton ? "feedback_photon_ms" : "\(rawValue)_latency_ms" }
}

// MARK: - Paired arms

/// Builds a paired comparison by user (`PairedUserArms`) from a per-user relation of the paired
/// sessions: one row per user with the columns `perUserColumns`.
public enum PairedUserArmSums {
    /// `user`, `pairs` (the user's paired sessions); per event `<event>_a`, `<event>_b` (pairs with
    /// it under A, under B) and `<event>_both`; per latency `<latency>_n` (pairs with the latency
    /// under both), `<latency>_a`, `<latency>_b` (their sums under A and B, ms).
    public static let perUserColumns = ["user", "pairs"]
        + SessionEvent.allCases.flatMap { ["\($0.rawValue)_a", "\($0.rawValue)_b", "\($0.rawValue)_both"] }
        + LatencyKind.all.flatMap { ["\($0.rawValue)_n", "\($0.rawValue)_a", "\($0.rawValue)_b"] }

    /// The per-user relation of a join with A's results as `ra` and B's as `rb` (`result_events`
    /// rows) and the sessions as `s`; `join` is everything from FROM to the end of WHERE.
    public static func perUserSQL(join: String) -> String {
        var columns = ["s.user AS user", "count(*) AS pairs"]
        for e in SessionEvent.allCases {
            let a = "ra.\(e.column)", b = "rb.\(e.column)"
            columns += ["coalesce(sum(\(a)), 0) AS \(e.rawValue)_a", "coalesce(sum(\(b)), 0) AS \(e.rawValue)_b",
                        "coalesce(sum(\(a) AND \(b)), 0) AS \(e.rawValue)_both"]
        }
        for l in LatencyKind.all {
            let a = "ra.\(l.column)", b = "rb.\(l.column)"
            columns += ["coalesce(sum(\(a) IS NOT NULL AND \(b) IS NOT NULL), 0) AS \(l.rawValue)_n",
                        "total(CASE WHEN \(b) IS NOT NULL THEN \(a) END) AS \(l.rawValue)_a",
                        "total(CASE WHEN \(a) IS NOT NULL THEN \(b) END) AS \(l.rawValue)_b"]
        }
        return "SELECT " + columns.joined(separator: ", ") + " \(join) GROUP BY s.user"
    }

    /// The sums over users: n, Σp, Σp²; per event ΣY_A, ΣY_A², Σp·Y_A, ΣY_B, ΣY_B², Σp·Y_B, ΣY_A·Y_B,
    /// Σboth; per latency the users with a pair, Σn, Σn², ΣL_A, ΣL_A², Σn·L_A, ΣL_B, ΣL_B², Σn·L_B, ΣL_A·L_B.
    public static func sumsSQL(over perUser: String) -> String {
        func ratio(_ x: String, _ a: String, _ b: String) -> [String] {
            ["total(\(a))", "total(\(a) * \(a))", "total(\(x) * \(a))",
             "total(\(b))", "total(\(b) * \(b))", "total(\(x) * \(b))", "total(\(a) * \(b))"]
        }
        var columns = ["count(*)", "total(pairs)", "total(pairs * pairs)"]
        for e in SessionEvent.allCases.map(\.rawValue) {
            columns += ratio("pairs", "\(e)_a", "\(e)_b") + ["total(\(e)_both)"]
        }
        for l in LatencyKind.all.map(\.rawValue) {
            columns += ["coalesce(sum(\(l)_n > 0), 0)", "total(\(l)_n)", "total(\(l)_n * \(l)_n)"]
                + ratio("\(l)_n", "\(l)_a", "\(l)_b")
        }
        return "SELECT " + columns.joined(separator: ", ") + " FROM (\(perUser))"
    }

    /// The paired arms whose users `perUser` lists.
    /// - Parameters:
    ///   - histograms: per latency, the relations of its values under A and under B (`user`,
    ///     `value`, `count`, ordered by user, over the pairs with the latency under both); nil
    ///     when no percentile row is asked.
    /// - Throws: `DatabaseError`; `StatsError` for a non-finite latency.
    public static func arms(control: String, treatment: String, in db: Database, perUser: String, bindings: [SQLValue],
                            histograms: [LatencyKind: (control: String, treatment: String)]? = nil) throws -> PairedUserArms {
        var read: [LatencyKind: [PairedUnitHistogram]] = [:]
        for (l, sql) in histograms ?? [:] {
            let a = try UserArmSums.readHistograms(db, sql.control, bindings)
            let b = Dictionary(try UserArmSums.readHistograms(db, sql.treatment, bindings), uniquingKeysWith: { x, _ in x })
            read[l] = a.compactMap { u in b[u.user].map { PairedUnitHistogram(control: u.histogram, treatment: $0) } }
        }
        return arms(control: control, treatment: treatment, sums: try UserArmSums.sumsRow(db, sumsSQL(over: perUser), bindings),
                    histograms: read)
    }

    /// The paired arms from the sums `sumsSQL` computes, in its column order (which see); like
    /// `UserArmSums.arm(_:sums:histograms:)`, the vectors of disjoint users add.
    public static func arms(control: String, treatment: String, sums v: [Double],
                            histograms: [LatencyKind: [PairedUnitHistogram]] = [:]) -> PairedUserArms {
        let users = Int(v[0].rounded()), pairs = Int(v[1].rounded())
        var next = 3
        /// Seven sums from `next` on (A, then B, then the cross product) over the X sums at x and x + 1.
        func paired(units: Int, x: Int) -> PairedRatioSummary {
            defer { next += 7 }
            return PairedRatioSummary(units: units, denominatorSum: v[x], denominatorSumOfSquares: v[x + 1],
                                      controlSum: v[next], controlSumOfSquares: v[next + 1], controlSumOfProducts: v[next + 2],
                                      treatmentSum: v[next + 3], treatmentSumOfSquares: v[next + 4],
                                      treatmentSumOfProducts: v[next + 5], crossSumOfProducts: v[next + 6])
        }
        var events: [SessionEvent: PairedRatioSummary] = [:], tables: [SessionEvent: PairedCounts] = [:]
        for e in SessionEvent.allCases {
            let summary = paired(units: users, x: 1)
            let both = Int(v[next].rounded())
            next += 1
            let a = Int(summary.controlSum.rounded()), b = Int(summary.treatmentSum.rounded())
            events[e] = summary
            tables[e] = PairedCounts(both: both, controlOnly: a - both, treatmentOnly: b - both, neither: pairs - a - b + both)
        }
        var latencies: [LatencyKind: PairedUserLatencies] = [:]
        for l in LatencyKind.all {
            let units = Int(v[next].rounded()), x = next + 1
            next += 3
            latencies[l] = PairedUserLatencies(summary: paired(units: units, x: x), histograms: histograms[l] ?? [])
        }
        return PairedUserArms(controlName: control, treatmentName: treatment, users: users, pairs: pairs,
                              events: events, tables: tables,
                              feedbackLatency: latencies[.feedback]!, actionLatency: latencies[.action]!,
                       feedbackPhoton: latencies[.feedbackPhoton]!)
    }
}

// MARK: - Reading the arms by user

/// How the users of the compared sessions cover them. Observed, the analysis by user keeps only
/// the users who were randomized cleanly: a user seen in both arms (GrowthBook's "multiple
/// exposures") and a session without a user are left out and counted (docs/compare.md, "Users in
/// both arms, sessions without a user").
public struct UserCoverage: Sendable, Hashable {
    /// Compared sessions without a `user`.
    public var sessionsWithoutUser: Int
    /// Users with sessions in both arms (observed mode; 0 in paired mode, where every user is in both).
    public var usersInBothArms: Int
    /// Users with sessions in either arm.
    public var users: Int
    /// The sessions of the users in both arms.
    public var sessionsOfUsersInBothArms: Int
    /// Whether the sessions are paired (each replayed under A and B): users in both arms are then
    /// the design, and a session without a user cannot be left out of its pair's cluster.
    public var paired: Bool

    public init(sessionsWithoutUser: Int, usersInBothArms: Int, users: Int, sessionsOfUsersInBothArms: Int = 0,
                paired: Bool = false) {
        self.sessionsWithoutUser = sessionsWithoutUser
        self.usersInBothArms = usersInBothArms
        self.users = users
        self.sessionsOfUsersInBothArms = sessionsOfUsersInBothArms
        self.paired = paired
    }

    /// The unit to analyse by and the notes that say what it assumes and what it left out.
    /// Observed: users unless sessions are asked for — users in both arms and sessions without a
    /// user are left out of the analysis by user, never a reason to analyse sessions, which were
    /// not what was randomized. Paired: users when every session has one, else sessions.
    /// - Throws: `AnalysisUnitError` for users asked, paired, when some sessions have no user.
    public func unit(asked: AnalysisUnit?) throws(AnalysisUnitError) -> (AnalysisUnit, [String]) {
        let missing = sessionsWithoutUser
        if asked == .session {
            return (.session, paired ? [] : ["--unit session assumes the variants were drawn per session; "
                + "if users were assigned, their sessions are not independent and p-values come out too small"])
        }
        if paired {
            if missing == 0 { return (.user, []) }
            if asked == .user {
                throw AnalysisUnitError(description: "--unit user: \(missing) of the paired sessions have no user; analyse them with --unit session")
            }
            return (.session, ["unit: sessions, because \(missing) of the paired sessions have no user (every pair counts as independent)"])
        }
        var notes: [String] = []
        if usersInBothArms > 0 {
            notes.append("left out: \(usersInBothArms) of \(counted(users, "user")) seen in both arms (multiple exposures), "
                + "with their \(counted(sessionsOfUsersInBothArms, "session")); the users left are compared and counted "
                + "by the sample ratio check (--unit session if the variants were drawn per session)")
        }
        if missing > 0 {
            notes.append("left out: \(counted(missing, "session")) without a user; counting each as a user of its own "
                + "understates the variance when they are a user's logged-out sessions (docs/compare.md)")
        }
        return (.user, notes)
    }
}

/// Why the compared sessions cannot be analysed by the unit asked for.
public struct AnalysisUnitError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

extension ObservedComparisonReader {
    /// Checks, in one pass over the input, that every arm named has a session.
    /// - Throws: `ComparisonError.emptyArm` for the first that has none, listing those that do.
    public func requireSessions(_ names: String...) throws {
        try requireSessions(names)
    }

    /// Checks that every arm of `names` has a session (more than two arms).
    public func requireSessions(_ names: [String]) throws {
        let available = try groups()
        for name in names where !available.contains(where: { $0.name == name }) {
            throw ComparisonError.emptyArm(name: name, by: by, available: available)
        }
    }

    /// How the users of arms `a` and `b` cover their sessions (`report_input`, with `--where`).
    public func userCoverage(_ a: String, _ b: String) throws -> UserCoverage {
        try userCoverage([a, b])
    }

    /// How the users of `arms` cover their sessions: a user with sessions in two or more of them
    /// is in "both arms" (a multiple exposure), left out of every arm.
    public func userCoverage(_ arms: [String]) throws -> UserCoverage {
        let list = Self.placeholders(arms.count, from: 1)
        let s = try runner.db.prepare("""
            WITH per_user AS (SELECT count(DISTINCT grp) AS arms, count(*) AS sessions FROM temp.report_input
                              WHERE grp IN (\(list)) AND user IS NOT NULL GROUP BY user)
            SELECT (SELECT count(*) FROM temp.report_input WHERE grp IN (\(list)) AND user IS NULL),
                   count(*), coalesce(sum(arms >= 2), 0), coalesce(sum(CASE WHEN arms >= 2 THEN sessions END), 0)
            FROM per_user
            """)
        s.bind(arms.map { .text($0) })
        _ = try s.step()
        return UserCoverage(sessionsWithoutUser: s.int(0), usersInBothArms: s.int(2), users: s.int(1),
                            sessionsOfUsersInBothArms: s.int(3))
    }

    /// `requireSessions(arms)` and `userCoverage(arms)` from one scan of `report_input` (each
    /// scans the view, whose cost dominates a compare), with the same results and errors.
    /// - Throws: `ComparisonError.emptyArm` for the first arm without a session, `DatabaseError`.
    public func coverage(requiring arms: [String]) throws -> UserCoverage {
        let s = try runner.db.prepare("SELECT grp, user, count(*) FROM temp.report_input WHERE grp IS NOT NULL GROUP BY grp, user")
        // Keyed by bytes, as SQL's BINARY collation compares them (Swift's == folds Unicode).
        let asked = Set(arms.map { Array($0.utf8) })
        var groups: [[UInt8]: ComparisonGroup] = [:]
        var users: [[UInt8]: (arms: Int, sessions: Int)] = [:]
        var withoutUser = 0
        while try s.step() {
            let name = s.text(0), key = Array(name.utf8), n = s.int(2)
            groups[key, default: ComparisonGroup(name: name, sessions: 0)].sessions += n
            guard asked.contains(key) else { continue }
            if s.isNull(1) { withoutUser += n; continue }
            // Rows are distinct (grp, user) pairs: each is one more arm of its user.
            let user = Array(s.text(1).utf8)
            users[user, default: (0, 0)].arms += 1
            users[user, default: (0, 0)].sessions += n
        }
        for name in arms where groups[Array(name.utf8)] == nil {
            let available = groups.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.value)
            throw ComparisonError.emptyArm(name: name, by: by, available: available)
        }
        let several = users.values.filter { $0.arms >= 2 }
        return UserCoverage(sessionsWithoutUser: withoutUser, usersInBothArms: several.count, users: users.count,
                            sessionsOfUsersInBothArms: several.reduce(0) { $0 + $1.sessions })
    }

    /// "?1, ?2, …": `count` numbered parameters starting at `first`.
    static func placeholders(_ count: Int, from first: Int) -> String {
        (first..<(first + count)).map { "?\($0)" }.joined(separator: ", ")
    }

    /// One arm by user: its users' totals summed in SQL (`UserArmSums`), and per-user latency
    /// histograms when `percentiles` (a p50 or p90 row is asked). Only the users seen in this arm
    /// alone: sessions without a user and users with sessions in arm `other` too are left out
    /// (`UserCoverage` counts them). An arm whose users are all left out has 0 users.
    /// - Throws: `DatabaseError`, `StatsError`.
    public func userArm(_ name: String, other: String, percentiles: Bool) throws -> UserArm {
        try userArm(name, others: [other], percentiles: percentiles)
    }

    /// One arm by user, leaving out the users seen in any arm of `others` (more than two arms).
    public func userArm(_ name: String, others: [String], percentiles: Bool) throws -> UserArm {
        let source = "temp.report_input"
        let condition = "grp = ?1 AND user IS NOT NULL AND user NOT IN "
            + "(SELECT user FROM temp.report_input WHERE grp IN (\(Self.placeholders(others.count, from: 2))) AND user IS NOT NULL)"
        let bindings: [SQLValue] = [.text(name)] + others.map { .text($0) }
        let rows = try UserArmSums.userTotals(runner.db, UserArmSums.perUserSQL(from: source, where: condition), bindings)
        var users = rows.map(\.totals)
        // Each user's latency total from its exact-value histogram, ascending (`UserArmSums.total`),
        // as a partial computes it: SQL's total() adds in row order, and its algorithm changed in 3.43.
        var histograms: [LatencyKind: [UnitHistogram]] = [:]
        for (l, latency) in LatencyKind.all.enumerated() {
            let read = try UserArmSums.readHistograms(runner.db, UserArmSums.histogramSQL(from: source, where: condition, latency: latency),
                                                      bindings)
            let totals = Dictionary(read.map { ($0.user, UserArmSums.total(values: $0.histogram.values, counts: $0.histogram.counts)) },
                                    uniquingKeysWith: { a, _ in a })
            for (i, row) in rows.enumerated() where users[i].latencies[l].n > 0 { users[i].latencies[l].sum = totals[row.user] ?? 0 }
            if percentiles { histograms[latency] = read.map(\.histogram) }
        }
        return UserArmSums.arm(name, sums: UserArmSums.sums(users), histograms: histograms)
    }
}

extension ObservedComparisonReader {
    /// Whether `userArm(_:other:metrics:)` reads `metrics` by `BothArmsByUser`: rates of the
    /// outcome events and the feedback and action mean latencies. Percentile rows need every user's histogram and the
    /// frustration signals the press sequences, so they keep `userArm(_:other:percentiles:)`.
    public static func readsNarrowly(_ metrics: [ExperimentMetric]) -> Bool {
        metrics.allSatisfy { metric in
            switch metric.kind {
            case .rate(let e): SessionEvent.outcomeEvents.contains(e)
            // Photon latency keeps the per-arm path: the one-scan reader is checked for feedback and action only.
            case .mean(let l): l != .feedbackPhoton
            default: false
            }
        }
    }

    /// One arm by user for `metrics`: the same users and totals as
    /// `userArm(_:other:percentiles:)` (users seen in arm `other` too and sessions without a
    /// user left out), the events and latencies no metric reads left 0. Rates and means come
    /// from one scan of both arms (`BothArmsByUser`, kept for the other arm's call); the rest
    /// from the per-arm path.
    /// - Throws: `DatabaseError`, `StatsError`.
    public func userArm(_ name: String, other: String, metrics: [ExperimentMetric]) throws -> UserArm {
        guard Self.readsNarrowly(metrics) else {
            let percentiles = metrics.contains { if case .percentile = $0.kind { true } else { false } }
            return try userArm(name, other: other, percentiles: percentiles)
        }
        let arms: BothArmsByUser
        if let kept = bothArms, kept.covers(name, other, metrics) { arms = kept } else {
            arms = try BothArmsByUser(db: runner.db, name, other, metrics: metrics)
            bothArms = arms
        }
        return try arms.arm(name)
    }
}

/// The per-user totals of two arms from one `GROUP BY user, grp` over `report_input` (and one
/// per latency a mean is asked of): what `userArm(_:other:percentiles:)` reads with a scan per
/// column group and a `NOT IN` scan each, in one pass. A user with rows in both arms is left out
/// of both, as there.
final class BothArmsByUser {
    let names: (String, String)
    let events: [SessionEvent]
    let latencies: [LatencyKind]
    /// Per arm (`names` order), its users' totals in the order of their ids' bytes.
    private var totals: [[UserArmSums.UserTotals]] = [[], []]

    init(db: Database, _ a: String, _ b: String, metrics: [ExperimentMetric]) throws {
        names = (a, b)
        events = SessionEvent.allCases.filter { e in metrics.contains { $0.kind == .rate(e) } }
        latencies = LatencyKind.all.filter { l in metrics.contains { $0.kind == .mean(l) } }
        // Per (user, arm): sessions and the events asked; rows ordered by user, then arm.
        let columns = ["user", "grp = ?1", "count(*)"] + events.map { "coalesce(sum(\($0.column)), 0)" }
        let rows = try Self.read(db, "SELECT \(columns.joined(separator: ", ")) FROM temp.report_input "
            + "WHERE grp IN (?1, ?2) AND user IS NOT NULL GROUP BY user, grp ORDER BY user, grp", a, b) { s in
            SessionEvent.allCases.map { e in events.firstIndex(of: e).map { s.int(Int32(3 + $0)) } ?? 0 }
                .withSessions(s.int(2))
        }
        var kept = rows.map { $0.value }
        struct Key: Hashable { var user: [UInt8]; var arm: Int }
        let position = Dictionary(rows.indices.map { (Key(user: Array(rows[$0].user.utf8), arm: rows[$0].arm), $0) },
                                  uniquingKeysWith: { x, _ in x })
        // Each user's latency n and total from its exact-value histogram, ascending, as the
        // per-arm path computes them (`UserArmSums.total`).
        for l in latencies {
            let c = l.column
            let s = try db.prepare("SELECT user, grp = ?1, \(c), count(*) FROM temp.report_input "
                + "WHERE grp IN (?1, ?2) AND user IS NOT NULL AND \(c) IS NOT NULL GROUP BY user, grp, \(c) ORDER BY user, grp, \(c)")
            s.bind([.text(a), .text(b)])
            var values: [Double] = [], counts: [Int] = [], current: Key? = nil
            func flush() {
                if let current, let row = position[current] {
                    kept[row].latencies[LatencyKind.all.firstIndex(of: l)!] = (counts.reduce(0, +), UserArmSums.total(values: values, counts: counts))
                }
                values = []; counts = []
            }
            while try s.step() {
                let key = Key(user: Array(s.text(0).utf8), arm: s.int(1) == 1 ? 0 : 1)
                if key != current { flush(); current = key }
                values.append(s.double(2)); counts.append(s.int(3))
            }
            flush()
        }
        var i = 0
        while i < rows.count {
            var j = i + 1
            while j < rows.count, rows[j].user.utf8.elementsEqual(rows[i].user.utf8) { j += 1 }
            // One row: a user of one arm alone; two: seen in both, left out (A against A: all are).
            if j - i == 1, a != b { totals[rows[i].arm].append(kept[i]) }
            i = j
        }
    }

    /// Rows of a per-(user, arm) query whose first two columns are `user` and `grp = ?1`, ordered by user,
    /// with the arm as 0 (`a`) or 1 (`b`) and `value` the rest of the row.
    private static func read(_ db: Database, _ sql: String, _ a: String, _ b: String,
                             value: (Statement) -> UserArmSums.UserTotals) throws -> [(user: String, arm: Int, value: UserArmSums.UserTotals)] {
        let s = try db.prepare(sql)
        s.bind([.text(a), .text(b)])
        var out: [(user: String, arm: Int, value: UserArmSums.UserTotals)] = []
        while try s.step() { out.append((s.text(0), s.int(1) == 1 ? 0 : 1, value(s))) }
        return out
    }

    /// Whether it holds arms `a` and `b` (either order) with every event and latency `metrics` read.
    func covers(_ a: String, _ b: String, _ metrics: [ExperimentMetric]) -> Bool {
        guard (names.0, names.1) == (a, b) || (names.0, names.1) == (b, a) else { return false }
        return metrics.allSatisfy {
            switch $0.kind {
            case .rate(let e): events.contains(e)
            case .mean(let l): latencies.contains(l)
            default: false
            }
        }
    }

    /// Arm `name`'s users, summed (`UserArmSums.sums`) into its arm; no histograms.
    func arm(_ name: String) throws -> UserArm {
        UserArmSums.arm(name, sums: UserArmSums.sums(totals[name == names.0 ? 0 : 1]))
    }
}

private extension Array where Element == Int {
    /// A user's totals: these event counts (`SessionEvent.allCases` order), `sessions`, no latency yet.
    func withSessions(_ sessions: Int) -> UserArmSums.UserTotals {
        UserArmSums.UserTotals(sessions: sessions, events: self, latencies: LatencyKind.all.map { _ in (0, 0) })
    }
}

extension PairedComparison {
    /// The selected sessions without a `user` (call `prepare` first for the pairs to exist).
    public func userCoverage(equals: [String: String] = [:]) throws -> UserCoverage {
        let (where_, values) = try selection(equals, first: 1)
        let s = try store.db.prepare("SELECT coalesce(sum(s.user IS NULL), 0), count(DISTINCT s.user) FROM sessions AS s WHERE \(where_)")
        s.bind(values)
        _ = try s.step()
        return UserCoverage(sessionsWithoutUser: s.int(0), usersInBothArms: 0, users: s.int(1), paired: true)
    }

    /// The paired data by user: each user's pairs summed in SQL (`PairedUserArmSums`), and per-user
    /// histograms of the paired latencies when `percentiles`. Call `prepare` first.
    /// - Throws: `ComparisonError.badFilter`, `DatabaseError`, `StatsError`.
    public func readByUser(control: PressConfiguration, treatment: PressConfiguration, equals: [String: String] = [:],
                           percentiles: Bool) throws -> PairedUserArms {
        let (where_, values) = try selection(equals, first: 1)
        let bindings = values + [.text(control.version), .text(treatment.version)]
        var histograms: [LatencyKind: (control: String, treatment: String)]? = nil
        if percentiles {
            histograms = [:]
            for l in LatencyKind.all {
                let both = " AND ra.\(l.column) IS NOT NULL AND rb.\(l.column) IS NOT NULL"
                func side(_ r: String) -> String {
                    "SELECT s.user AS user, \(r).\(l.column) AS value, count(*) AS count "
                        + pairsJoin(where_, values, extra: both) + " GROUP BY s.user, value ORDER BY s.user, value"
                }
                histograms?[l] = (side("ra"), side("rb"))
            }
        }
        return try PairedUserArmSums.arms(control: control.name, treatment: treatment.name, in: store.db,
                                          perUser: PairedUserArmSums.perUserSQL(join: pairsJoin(where_, values)),
                                          bindings: bindings, histograms: histograms)
    }
}
