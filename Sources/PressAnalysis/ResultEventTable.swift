// The per-session events (`is_tap`, `is_unseen_press`, …) for results that never reach the
// database. They are defined once, as columns of the `result_events` view (migration 3); code
// that counts events over results held in memory (`pressdb sweep`) reads them from the view
// itself, through a table computed once per run: the view evaluated on one result of every kind.
import PressCore
import PressStats
import PressSQLite
import PressStore
import PressIngest

/// Why the events cannot be read from the view.
public enum ResultEventTableError: Error, CustomStringConvertible, Sendable {
    /// The view has no column for an event (`SessionEvent.column`).
    case missingColumn(String)
    /// An event column depends on more of a result than its outcome, cancel reason, whether the
    /// action fired and which latencies it has: the table cannot hold it.
    case dependsOnValues(String)

    public var description: String {
        switch self {
        case .missingColumn(let c):
            return "the result_events view has no column \(c)"
        case .dependsOnValues(let c):
            return "the result_events column \(c) depends on a result's values (a duration, a latency's size, …), "
                + "not only on its outcome, cancel reason, action and which latencies exist; "
                + "ResultEventTable.signature must then take that value into account"
        }
    }
}

/// The events of `result_events` as a lookup table over what they depend on: a result's outcome,
/// cancel reason, whether its action fired, and whether it has a feedback and an action latency
/// (3 × 4 × 2 × 2 × 2 = 96 kinds of result).
///
/// The table is computed by the view: an in-memory database with this build's schema holds one
/// result of each kind, twice, with different durations, travels, depths, jumps and latency
/// sizes, and the view's event columns are read back. If an event differs between the two copies
/// of one kind, the view uses more than the table knows and `init` throws
/// (`ResultEventTableError.dependsOnValues`), so a new event cannot be miscounted silently.
///
///     let events = try ResultEventTable()
///     events.contains(result, .unseenPress)   // what `is_unseen_press` is for this result
public struct ResultEventTable: Sendable {
    /// Per kind of result (`signature`), bit i set when the event `SessionEvent.outcomeEvents[i]` holds.
    let masks: [UInt8]

    /// The number of kinds of result.
    static let kinds = PressOutcome.allCases.count * (CancelReason.allCases.count + 1) * 2 * 2 * 2

    /// The kind of a result: its index in the table.
    @inline(__always)
    static func signature(_ r: SessionResult) -> Int {
        let outcome = r.outcome == .tap ? 0 : (r.outcome == .cancel ? 1 : 2)
        let reason: Int
        switch r.cancelReason {
        case nil: reason = 0
        case .dragExit?: reason = 1
        case .system?: reason = 2
        case .safeArea?: reason = 3
        }
        return (((outcome * 4 + reason) * 2 + (r.actionFired ? 1 : 0)) * 2 + (r.feedbackLatencyMs == nil ? 0 : 1)) * 2
            + (r.actionLatencyMs == nil ? 0 : 1)
    }

    /// One result of every kind, in signature order, with its figures taken from `values`
    /// (duration, travel, depth, jump, feedback latency, action latency).
    static func representatives(_ v: (Double, Double, Double, Double, Double, Double)) -> [SessionResult] {
        var out: [SessionResult] = []
        for outcome in [PressOutcome.tap, .cancel, .scrollAbort] {
            for reason in [nil] + CancelReason.allCases.map(Optional.some) {
                for fired in [false, true] {
                    for feedback in [false, true] {
                        for action in [false, true] {
                            out.append(SessionResult(outcome: outcome, cancelReason: reason, actionFired: fired,
                                                     feedbackLatencyMs: feedback ? v.4 : nil, actionLatencyMs: action ? v.5 : nil,
                                                     durationMs: v.0, maxTravelPt: v.1, pressDepth: v.2, releaseJumpPt: v.3))
                        }
                    }
                }
            }
        }
        return out
    }

    /// Evaluates the `result_events` view of this build's schema on every kind of result.
    /// - Throws: `ResultEventTableError`, `DatabaseError`, `SchemaError`.
    public init() throws { try self.init(migrations: try Schema.embedded()) }

    /// The table of the schema `migrations` make (tests give a changed view).
    init(migrations: [Migration]) throws {
        let db = try Database(path: ":memory:")
        try Schema.migrate(db, migrations: migrations)
        try db.execute("""
            INSERT INTO sessions(id, session, t0, t1, sample_count, end_phase, samples)
            VALUES (1, 'signature', 0, 0, 0, 'ended', x'')
            """)
        let copies = [Self.representatives((80, 2, 1, 0, 33.3, 0)),
                      Self.representatives((2_500, 90, 0.25, 18, 450, 300))]
        let rows = copies.enumerated().flatMap { copy, results in
            results.enumerated().map { i, r in
                ResultRow(sessionID: 1, config: "signature", configVersion: "\(copy)-\(i)", counterfactual: false, result: r)
            }
        }
        try Store(database: db).writeResults(rows)
        let columns = SessionEvent.outcomeEvents.map(\.column)
        let available = try db.prepare("SELECT name FROM pragma_table_info('result_events')")
        var names = Set<String>()
        while try available.step() { names.insert(available.text(0)) }
        if let missing = columns.first(where: { !names.contains($0) }) { throw ResultEventTableError.missingColumn(missing) }
        let read = try db.prepare("SELECT config_version, \(columns.joined(separator: ", ")) FROM result_events")
        var masks = [[UInt8]](repeating: [UInt8](repeating: 0, count: Self.kinds), count: 2)
        while try read.step() {
            let key = read.text(0).split(separator: "-")
            let copy = Int(key[0])!, kind = Int(key[1])!
            var mask: UInt8 = 0
            for i in columns.indices where read.int(Int32(1 + i)) != 0 { mask |= 1 << UInt8(i) }
            masks[copy][kind] = mask
        }
        for kind in 0..<Self.kinds where masks[0][kind] != masks[1][kind] {
            let differing = columns.indices.first { (masks[0][kind] ^ masks[1][kind]) & (1 << UInt8($0)) != 0 }!
            throw ResultEventTableError.dependsOnValues(columns[differing])
        }
        self.masks = masks[0]
    }

    /// The events of `r`: bit i set when `SessionEvent.outcomeEvents[i]` holds.
    @inline(__always)
    public func mask(_ r: SessionResult) -> UInt8 { masks[Self.signature(r)] }

    /// Whether `event` holds for `r`, as the view's column says.
    /// - Precondition: `event` is one of `SessionEvent.outcomeEvents`.
    public func contains(_ r: SessionResult, _ event: SessionEvent) -> Bool {
        mask(r) & (1 << UInt8(SessionEvent.outcomeEvents.firstIndex(of: event)!)) != 0
    }
}
