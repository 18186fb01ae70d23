// The summary cells maintained as results are written (migrations/0006_summary_cells.sql,
// PressStore/SummaryCells.swift): after every kind of write, `pressdb report` from the cells
// prints exactly what the report's SQL prints over the rows; writes from outside pressdb are
// detected, never shown, and the next writing pressdb rebuilds the cells.
import Foundation
import Testing
import PressCore
import PressTestSupport
@testable import PressStore
@testable import PressSQLite

/// The report argument lists compared: every `--by`, filters on report keys, `--as`.
private let reportArguments: [[String]] = [
    [], ["--by", "variant"], ["--by", "control"], ["--by", "screen", "--where", "config=spring-press"],
    ["--by", "app_version", "--where", "control=buy"], ["--format", "csv", "--by", "control"],
]

/// Whether `db`'s cells match its tables (what makes `pressdb report` read them).
private func cellsAreCurrent(_ db: URL) throws -> Bool {
    try SummaryCells.areCurrent(try Database(path: db.path, readOnly: true))
}

/// `pressdb report --format json ARGS` on `db` from the cells, then from the SQL (a write the
/// cells did not count, as sqlite3 makes, sends the report to the rows; it is undone after):
/// both outputs, which must be equal.
private func expectBothPathsEqual(_ db: URL, _ step: String, extra: [[String]] = [],
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(try cellsAreCurrent(db), "\(step): the cells should match the tables", sourceLocation: sourceLocation)
    for args in reportArguments + extra {
        let argv = ["report", "--db", db.path] + (args.contains("--format") ? args : ["--format", "json"] + args)
        let cells = try Binary.run(argv)
        #expect(try sqlite3(db, "UPDATE summary_state SET outside_writes = outside_writes + 1").status == 0)
        #expect(try !cellsAreCurrent(db))
        let raw = try Binary.run(argv)
        #expect(try sqlite3(db, "UPDATE summary_state SET outside_writes = outside_writes - 1").status == 0)
        #expect(cells.status == 0 && raw.status == 0, "\(step) \(args): \(cells.stderr) \(raw.stderr)", sourceLocation: sourceLocation)
        #expect(!cells.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(cells.stdout == raw.stdout, "\(step) \(args): the cells' report differs from the rows'", sourceLocation: sourceLocation)
        #expect(cells.stderr == raw.stderr, "\(step) \(args)", sourceLocation: sourceLocation)
    }
}

/// A generated log (seed `seed`) written to `dir/name`, with `transform` applied to its text.
private func log(_ dir: URL, _ name: String, sessions: Int, seed: Int, _ transform: (String) -> String = { $0 }) throws -> URL {
    let text = try Binary.run(["generate", "--sessions", "\(sessions)", "--seed", "\(seed)"]).stdout
    let url = dir.appendingPathComponent(name)
    try transform(text).write(to: url, atomically: true, encoding: .utf8)
    return url
}

@Suite(.serialized) struct SummaryCellsTests {
    /// Ingest, the same log again, another log, `replay`, `replay --as` (both worlds), and a
    /// configuration defined and then changed (its sessions' results re-versioned by `config
    /// add`): after each, the cells' report equals the rows'.
    @Test func cellsReportWhatTheRowsReportAfterEveryWriter() throws {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("p.sqlite")
        let a = try log(dir, "a.ndjson", sessions: 1500, seed: 31)
        // Half of the second log's sessions name a configuration not defined yet ("soft").
        let b = try log(dir, "b.ndjson", sessions: 1500, seed: 32) {
            $0.replacingOccurrences(of: #""config":"expand-delayed-click""#, with: #""config":"soft""#)
        }
        #expect(try Binary.run(["ingest", a.path, "--db", db.path, "-q"]).status == 0)
        try expectBothPathsEqual(db, "ingest")
        let cellsAfterOne = try sqlite3(db, "SELECT * FROM summary_cells ORDER BY id; SELECT * FROM summary_latencies").stdout
        #expect(try Binary.run(["ingest", a.path, "--db", db.path, "-q"]).status == 0)
        #expect(try sqlite3(db, "SELECT * FROM summary_cells ORDER BY id; SELECT * FROM summary_latencies").stdout == cellsAfterOne,
                "re-ingesting the same log changes no cell")
        try expectBothPathsEqual(db, "re-ingest")
        #expect(try Binary.run(["ingest", b.path, "--db", db.path, "-q"]).status == 0)
        try expectBothPathsEqual(db, "second log, a configuration unknown")
        let soft = dir.appendingPathComponent("soft.json")
        try #"{"name":"soft","base":"spring-press","pressed_scale":0.9}"#.write(to: soft, atomically: true, encoding: .utf8)
        #expect(try Binary.run(["config", "add", soft.path, "--db", db.path, "-q"]).status == 0)
        try expectBothPathsEqual(db, "config add")
        try #"{"name":"soft","base":"spring-press","pressed_scale":0.8,"action_delay":0.05}"#.write(to: soft, atomically: true, encoding: .utf8)
        #expect(try Binary.run(["config", "add", soft.path, "--db", db.path, "-q"]).status == 0)
        try expectBothPathsEqual(db, "config re-versioned", extra: [["--where", "config=soft"]])
        #expect(try Binary.run(["replay", "--db", db.path, "-q"]).status == 0)
        try expectBothPathsEqual(db, "replay")
        for target in ["spring-press", "longpress-safe-area"] {
            #expect(try Binary.run(["replay", "--as", target, "--db", db.path, "-q"]).status == 0)
            try expectBothPathsEqual(db, "replay --as \(target)", extra: [["--as", target], ["--as", target, "--by", "control"]])
        }
    }

    /// A result replaced by different values (as a changed model replays it) is subtracted from
    /// its cell and the new one added; a removed largest release jump is recomputed from the
    /// rows in the same transaction.
    @Test func replacedRowsAreSubtractedAndTheLargestJumpRecomputed() throws {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("p.sqlite")
        #expect(try Binary.run(["ingest", try log(dir, "a.ndjson", sessions: 800, seed: 33).path, "--db", db.path, "-q"]).status == 0)
        // Through pressdb's own writer: every row of the cell holding the largest jump replaced
        // by a tap with another latency and no jump.
        let store = try Store.open(path: db.path)
        let top = try store.db.prepare("""
            SELECT r.session_id, r.config, r.config_version, r.counterfactual, r.release_jump_pt FROM results r
            ORDER BY r.release_jump_pt DESC LIMIT 20
            """)
        var rows: [ResultRow] = []
        while try top.step() {
            rows.append(ResultRow(sessionID: top.int64(0), config: top.text(1), configVersion: top.text(2), counterfactual: top.int(3) != 0,
                                  result: SessionResult(outcome: .tap, cancelReason: nil, actionFired: true, feedbackLatencyMs: 1000.5,
                                                        actionLatencyMs: 7, durationMs: 1, maxTravelPt: 0, pressDepth: 0, releaseJumpPt: 0)))
        }
        #expect(rows.count == 20)
        try store.writeResults(rows)
        try expectBothPathsEqual(db, "replaced rows")
        // Deleted through the store: subtracted.
        try store.db.transaction { _ = try store.deleteResults(where: "r.session_id % 5 = 0", []) }
        try expectBothPathsEqual(db, "deleted rows")
        // Rolled back: the cells roll back with the rows.
        let before = try sqlite3(db, "SELECT * FROM summary_cells ORDER BY id; SELECT * FROM summary_latencies").stdout
        try store.db.begin()
        try store.writeResults(rows.map { var r = $0; r.result.feedbackLatencyMs = 5; return r })
        _ = try store.deleteResults(where: "r.session_id % 3 = 0", [])
        store.db.rollback()
        #expect(try sqlite3(db, "SELECT * FROM summary_cells ORDER BY id; SELECT * FROM summary_latencies").stdout == before)
        try expectBothPathsEqual(db, "rolled back")
    }

    /// An ingest killed mid-run (SIGKILL: no handler, no rollback code runs) leaves the cells
    /// of the last commit, matching the rows committed with them.
    @Test func aKilledIngestLeavesCellsMatchingTheCommittedRows() throws {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("p.sqlite")
        #expect(try Binary.run(["ingest", try log(dir, "a.ndjson", sessions: 500, seed: 34).path, "--db", db.path, "-q"]).status == 0)
        let big = try log(dir, "b.ndjson", sessions: 20_000, seed: 35)
        var killed = 0
        for delay: UInt32 in [400_000, 900_000, 1_500_000] {
            let child = try RunningProcess(Binary.url, ["ingest", big.path, "--db", db.path, "-q"], environment: ["NO_COLOR": "1"])
            usleep(delay)
            child.signal(SIGKILL)
            let r = child.wait()
            if !r.exited { killed += 1 }
            try expectBothPathsEqual(db, "killed after \(delay) µs")
        }
        #expect(killed > 0, "no kill landed during an ingest")
    }

    /// Writes made with sqlite3 — a DELETE, an UPDATE of a result and of a session's report key,
    /// an INSERT — make the cells not current (the report reads the rows, and says the same as
    /// the SQL); the next writing pressdb command rebuilds them.
    @Test func writesFromOutsidePressdbAreDetectedAndRebuilt() throws {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("p.sqlite")
        let a = try log(dir, "a.ndjson", sessions: 800, seed: 36)
        #expect(try Binary.run(["ingest", a.path, "--db", db.path, "-q"]).status == 0)
        // (statement, whether it changes the summary by control: the inserted rows are of a
        // version no report reads, yet they are detected too)
        for (sql, changes) in [("DELETE FROM results WHERE session_id % 7 = 0", true),
                               ("UPDATE results SET outcome = 'tap', feedback_latency_ms = 50 WHERE session_id % 11 = 0", true),
                               ("UPDATE sessions SET control = 'other' WHERE id % 13 = 0", true),
                               ("INSERT INTO results SELECT session_id, config, 'outside', counterfactual, outcome, cancel_reason, "
                                + "action_fired, feedback_latency_ms, action_latency_ms, duration_ms, max_travel_pt, press_depth, "
                                + "release_jump_pt, feedback_photon_ms, action_photon_ms FROM results LIMIT 3", false),
                               ("DELETE FROM sessions WHERE id % 17 = 0", true)] {
            let report = ["report", "--db", db.path, "--format", "json", "--by", "control"]
            let before = try Binary.run(report)
            #expect(try sqlite3(db, sql).status == 0, "\(sql)")
            #expect(try !cellsAreCurrent(db), "\(sql): not detected")
            let after = try Binary.run(report)
            #expect(after.status == 0, "\(after.stderr)")
            #expect((after.stdout != before.stdout) == changes, "\(sql): the report shows the old numbers")
            // Any command opening the database for writing rebuilds the cells (here one that
            // writes nothing else: `replay --missing` would put the deleted results back).
            #expect(try Binary.run(["config", "show", "spring-press", "--db", db.path]).status == 0)
            try expectBothPathsEqual(db, "rebuilt after \(sql)")
            #expect(try Binary.run(report).stdout == after.stdout)
        }
    }
}

/// The cells by their keys, and their latency bins, without the cells' ids (a rebuild numbers
/// them anew): equal after the writer's counting and after a rebuild from the rows exactly when
/// the writer counted every row right.
private func cellsByKey(_ db: URL) throws -> String {
    let key = "c.config, c.config_version, c.counterfactual, c.variant, c.control, c.screen, c.app_version"
    let dump = try sqlite3(db, """
        SELECT \(key), c.sessions, c.tap, c.cancel, c.scroll_abort, c.false_action, c.unseen_press, c.dead_press,
               c.release_jump_pt_max FROM summary_cells AS c ORDER BY 1, 2, 3, 4, 5, 6, 7;
        SELECT \(key), l.metric, l.value, l.sessions FROM summary_latencies AS l JOIN summary_cells AS c ON c.id = l.cell_id
        ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9;
        """)
    #expect(dump.status == 0, "\(dump.stderr)")
    return dump.stdout
}

/// Every stored result, in session order.
private func storedResults(_ store: Store) throws -> [ResultRow] {
    let s = try store.db.prepare("""
        SELECT session_id, config, config_version, counterfactual, outcome, cancel_reason, action_fired, feedback_latency_ms,
               action_latency_ms, duration_ms, max_travel_pt, press_depth, release_jump_pt FROM results ORDER BY session_id, config_version
        """)
    var rows: [ResultRow] = []
    while try s.step() {
        rows.append(ResultRow(sessionID: s.int64(0), config: s.text(1), configVersion: s.text(2), counterfactual: s.int(3) != 0,
                              result: SessionResult(outcome: PressOutcome(rawValue: s.text(4))!,
                                                    cancelReason: s.optionalText(5).flatMap(CancelReason.init(rawValue:)),
                                                    actionFired: s.int(6) != 0, feedbackLatencyMs: s.optionalDouble(7),
                                                    actionLatencyMs: s.optionalDouble(8), durationMs: s.double(9),
                                                    maxTravelPt: s.double(10), pressDepth: s.double(11), releaseJumpPt: s.double(12))))
    }
    return rows
}

/// A database of `sessions` generated sessions (seed `seed`), ingested; its store and its results.
private func ingested(sessions: Int, seed: Int) throws -> (db: URL, store: Store, results: [ResultRow]) {
    let dir = try Binary.temporaryDirectory()
    let db = dir.appendingPathComponent("p.sqlite")
    #expect(try Binary.run(["ingest", try log(dir, "a.ndjson", sessions: sessions, seed: seed).path, "--db", db.path, "-q"]).status == 0)
    let store = try Store.open(path: db.path)
    return (db, store, try storedResults(store))
}

/// After `rows` are written through `store`: the cells current, and equal to a rebuild of them
/// from the rows.
private func expectCountedAsARebuild(_ store: Store, _ db: URL, _ rows: [ResultRow], _ step: String,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws {
    try store.writeResults(rows)
    #expect(try cellsAreCurrent(db), "\(step)", sourceLocation: sourceLocation)
    let counted = try cellsByKey(db)
    try store.db.transaction { try SummaryCells.rebuild(store.db) }
    #expect(try cellsByKey(db) == counted, "\(step): the cells differ from a rebuild", sourceLocation: sourceLocation)
}

extension SummaryCellsTests {
    /// `replay`'s writes go 32 rows to a read-back and an upsert (`SummaryCellsWriter.write(batch:)`):
    /// batches mixing rows left alone (the same values), replaced rows (another latency, no jump:
    /// the cell's largest jump may have to be recomputed) and new rows (another version), at
    /// every batch boundary (31 rows: no batch; 32; 33: a batch and one row alone; 64; 65; 100),
    /// leave the cells equal to a rebuild of them from the rows.
    @Test func batchesOfUnchangedReplacedAndNewRowsCountAsARebuild() throws {
        let (db, store, stored) = try ingested(sessions: 400, seed: 37)
        #expect(stored.count >= 100)
        for count in [31, 32, 33, 64, 65, 100] {
            let rows = stored.prefix(count).enumerated().map { n, r -> ResultRow in
                var x = r
                switch n % 3 {
                case 0: break
                case 1: x.result.feedbackLatencyMs = Double(1000 + count); x.result.releaseJumpPt = 0
                default: x.configVersion = "batch-\(count)"; x.counterfactual = true
                }
                return x
            }
            try expectCountedAsARebuild(store, db, rows, "\(count) rows")
        }
        #expect(try storedResults(store).count == stored.count + [31, 32, 33, 64, 65, 100].map { $0 / 3 }.reduce(0, +))
        try expectBothPathsEqual(db, "batches")
    }

    /// A batch holding the same session and version twice (the second value wins, as one
    /// upsert after another) and a batch in no particular session order are counted as a
    /// rebuild counts them.
    @Test func aBatchWithASessionTwiceOrOutOfOrderCountsAsARebuild() throws {
        let (db, store, stored) = try ingested(sessions: 200, seed: 38)
        var twice = Array(stored.prefix(32))
        twice[6] = twice[5]
        twice[5].result.feedbackLatencyMs = 2000
        twice[6].result.feedbackLatencyMs = 3000
        twice[6].result.outcome = .tap
        twice[6].result.cancelReason = nil
        var reversed = Array(stored.prefix(40).reversed())
        for i in reversed.indices where i % 2 == 0 { reversed[i].result.actionLatencyMs = 4000 }
        for (name, rows) in [("twice", twice), ("reversed", reversed)] {
            try expectCountedAsARebuild(store, db, rows, name)
            if name == "twice" {
                let kept = try storedResults(store).first { $0.sessionID == twice[6].sessionID && $0.configVersion == twice[6].configVersion }
                #expect(kept?.result.feedbackLatencyMs == 3000)
            }
        }
        try expectBothPathsEqual(db, "a session twice, out of order")
    }

    /// Stored rows rewritten with other values only in fields no cell counts (`duration_ms`,
    /// `press_depth`): SQLite updates them (its update trigger fires for each), and the cells
    /// stay as they were — the same configurations, outcomes, latencies and jumps — while still
    /// matching the tables (the trigger's firings counted as pressdb's own) and a rebuild.
    @Test func rowsRewrittenInUncountedFieldsLeaveTheCellsAsTheyWere() throws {
        let (db, store, stored) = try ingested(sessions: 200, seed: 39)
        let before = try cellsByKey(db)
        let rows = stored.prefix(64).map { r -> ResultRow in
            var x = r
            x.result.durationMs += 1
            x.result.pressDepth = x.result.pressDepth == 0.5 ? 0.25 : 0.5
            return x
        }
        try expectCountedAsARebuild(store, db, rows, "uncounted fields")
        #expect(Array(try storedResults(store).prefix(64)) == rows, "the rows were rewritten")
        #expect(try cellsByKey(db) == before, "no counted value changed")
        try expectBothPathsEqual(db, "uncounted fields")
    }
}
