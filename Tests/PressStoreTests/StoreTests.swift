import Foundation
import Testing
import PressCore
import PressFormats
import PressStats
@testable import PressStore
@testable import PressSQLite
@testable import PressIngest

func temporaryDatabasePath() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pressdb-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent("t.sqlite").path
}

/// Inserts a `results` row whose outcome is `tapped`, which the schema's CHECK refuses.
func insertResultWithUnknownOutcome(_ db: Database, sessionID: Int64) throws {
    try db.execute("""
        INSERT INTO results(session_id, config, config_version, counterfactual, outcome, cancel_reason, action_fired,
                            feedback_latency_ms, action_latency_ms, duration_ms, max_travel_pt, press_depth, release_jump_pt)
        VALUES (\(sessionID), 'x', 'v1', 0, 'tapped', NULL, 0, NULL, NULL, 1, 0, 0, 0)
        """)
}

/// Ingests NDJSON `text` (named `name`) into `store` as one run.
@discardableResult
func ingestNDJSON(_ store: Store, _ text: String, name: String = "e.ndjson", options: IngestOptions = IngestOptions()) throws -> IngestSummary {
    let ingester = try Ingester(store: store, options: options)
    let input = ByteInput(text: text, name: name)
    var r = NDJSONReader(input)
    try ingester.ingest(&r, input: input)
    return try ingester.finish()
}

@Suite struct SampleCodecTests {
    // Bytes from Python: struct.pack('<ddd', 1.0, 10.0, 20.0).hex() + '00' (phase began = 0).
    @Test func layoutIsLittleEndianFloat64TripleAndPhaseByte() throws {
        let blob = SampleCodec.encode([TouchSample(t: 1, x: 10, y: 20, phase: .began)])
        #expect(blob.map { String(format: "%02x", $0) }.joined() == "000000000000f03f0000000000002440000000000000344000")
    }

    @Test func roundTripIsBitExact() throws {
        let samples = [TouchSample(t: 12.034, x: -0.0, y: .leastNonzeroMagnitude, phase: .began),
                       TouchSample(t: 0.30000000000000004, x: 1.7976931348623157e308, y: 402, phase: .stationary),
                       TouchSample(t: 13, x: 0.1, y: 0.2, phase: .cancelled)]
        let back = try SampleCodec.decode(SampleCodec.encode(samples))
        #expect(back.map(\.t.bitPattern) == samples.map(\.t.bitPattern))
        #expect(back.map(\.x.bitPattern) == samples.map(\.x.bitPattern))
        #expect(back.map(\.y.bitPattern) == samples.map(\.y.bitPattern))
        #expect(back.map(\.phase) == samples.map(\.phase))
        #expect(throws: SampleCodecError.self) { try SampleCodec.decode([0, 1, 2]) }
    }
}

@Suite struct SchemaTests {
    @Test func createsTheSchemaInAnEmptyFile() throws {
        let path = try temporaryDatabasePath()
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        let db = try Schema.open(path: path)
        // Version 10: migrations/0010_system_edges.sql the window and system_gestures columns.
        // Version 9: migrations/0009_display_profiles.sql the `displays` table (and the display
        // attribute and photon latencies).
        // Version 8: migrations/0008_results_without_config_index.sql drops
        // results_by_config, after 0007_sessions_without_variant_index.sql
        // sessions_by_variant, 0006_summary_cells.sql the maintained summary
        // cells, 0005_touch_down_point.sql sessions.x0 and y0 and 0004_sweeps.sql
        // the sweeps table.
        #expect(try db.userVersion == 10)
        #expect(try db.prepare("PRAGMA journal_mode").scalarText() == "wal")
        #expect(try db.prepare("PRAGMA foreign_keys").scalarInt() == 1)
        let tables = try db.prepare("SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_master WHERE type IN ('table','view') ORDER BY name)").scalarText()
        #expect(tables == "config_records,configs,displays,pending,press_sequences,rejects,result_events,results,session_results,sessions,sources,summary_cells,summary_latencies,summary_state,sweeps")
    }

    // Version 9 gives results stored before it the default profile's photon latencies, from
    // their stored milliseconds (docs/press-model.md §6), by hand: feedback on frame 2 at 60 Hz,
    // 33.333333 ms → 1/240 s (half a 120 Hz sampling period) + 1/120 s (half a 60 Hz frame) +
    // 2/60 s + 1/60 s (one pipeline frame) = 62.5 ms; an action 300 ms after the lift lands on
    // frame 18 (0.3 s): 12.5 + 300 + 16.666667 = 329.166667 ms; a press never seen stays NULL.
    @Test func version9GivesOldResultsTheirPhotonLatencies() throws {
        let path = try temporaryDatabasePath()
        do {
            let db = try Schema.open(path: path, migrations: Array(try Schema.embedded().prefix(8)))
            try db.execute("""
                INSERT INTO sessions(session, t0, t1, sample_count, end_phase, samples, variant) VALUES ('a', 1, 2, 0, 'ended', x'', 'A');
                INSERT INTO sessions(session, t0, t1, sample_count, end_phase, samples, variant) VALUES ('b', 3, 4, 0, 'ended', x'', 'A');
                INSERT INTO results(session_id, config, config_version, counterfactual, outcome, action_fired, feedback_latency_ms,
                                    action_latency_ms, duration_ms, max_travel_pt, press_depth, release_jump_pt)
                VALUES (1, 'expand-delayed-click', 'v1', 0, 'tap', 1, 33.333333, 300, 120, 2.5, 0.75, 0.5),
                       (2, 'spring-press', 'v1', 0, 'cancel', 0, NULL, NULL, 120, 2.5, 0, 0)
                """)
        }
        let db = try Schema.open(path: path)
        #expect(try db.userVersion == 10)
        let s = try db.prepare("SELECT feedback_photon_ms, action_photon_ms FROM results ORDER BY session_id")
        #expect(try s.step())
        #expect(s.double(0) == 62.5 && s.double(1) == 329.166667)
        #expect(try s.step())
        #expect(s.optionalDouble(0) == nil && s.optionalDouble(1) == nil)
        // The migration's update is pressdb's own: the cells are not marked as outside-written.
        #expect(try db.prepare("SELECT outside_writes FROM summary_state").scalarInt() == 0)
        #expect(try db.prepare("SELECT display FROM session_results LIMIT 1").scalarText() == nil)
    }

    // docs/log-format.md states the schema version a new database gets; it must be the number of
    // migration files in migrations/ (counted here from the folder, not from the code), which is
    // also the version the code applies.
    @Test func documentedSchemaVersionIsTheLastMigration() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let files = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("migrations").path)
            .filter { $0.hasSuffix(".sql") }
        let doc = try String(contentsOf: root.appendingPathComponent("docs/log-format.md"), encoding: .utf8)
        let stated = doc.firstMatch(of: /PRAGMA user_version` \(currently (\d+)\)/).flatMap { Int($0.1) }
        #expect(stated == files.count, "docs/log-format.md §4 says the schema is at version \(stated.map(String.init) ?? "?"), migrations/ has \(files.count) files")
        #expect(Schema.currentVersion == files.count)
    }

    // Version 7 drops sessions_by_variant and keeps every row; a database made with SQLite's
    // default 4,096-byte pages (an older pressdb's) keeps them, a new one gets Schema.pageSize.
    @Test func version7DropsTheVariantIndexAndKeepsAnOldDatabasesPageSize() throws {
        let path = try temporaryDatabasePath()
        do {
            // Pages written at 4,096 bytes, as an older pressdb wrote them (no table left).
            let db = try Database(path: path)
            try db.execute("PRAGMA page_size = 4096; CREATE TABLE t(a); DROP TABLE t")
        }
        do {
            let db = try Schema.open(path: path, migrations: Array(try Schema.embedded().prefix(6)))
            #expect(try db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'sessions_by_variant'").scalarInt() == 1)
            try db.execute("INSERT INTO sessions(session, t0, t1, sample_count, end_phase, samples, variant) VALUES ('old', 1, 2, 0, 'ended', x'', 'B')")
        }
        let db = try Schema.open(path: path)
        #expect(try db.userVersion == 10)
        #expect(try db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'sessions_by_variant'").scalarInt() == 0)
        #expect(try db.prepare("SELECT session || ':' || variant FROM sessions WHERE variant = 'B'").scalarText() == "old:B")
        #expect(try db.prepare("PRAGMA page_size").scalarInt() == 4096)
        let fresh = try Schema.open(path: try temporaryDatabasePath())
        #expect(try fresh.prepare("PRAGMA page_size").scalarInt() == 16_384)
    }

    // Version 8 drops results_by_config and keeps every row of `results`.
    @Test func version8DropsTheResultsConfigIndexAndKeepsTheRows() throws {
        let path = try temporaryDatabasePath()
        do {
            let db = try Schema.open(path: path, migrations: Array(try Schema.embedded().prefix(7)))
            #expect(try db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'results_by_config'").scalarInt() == 1)
            try db.execute("""
                INSERT INTO sessions(session, t0, t1, sample_count, end_phase, samples, variant) VALUES ('old', 1, 2, 0, 'ended', x'', 'B');
                INSERT INTO results(session_id, config, config_version, counterfactual, outcome, action_fired, duration_ms,
                                    max_travel_pt, press_depth, release_jump_pt)
                VALUES (1, 'spring-press', 'v1', 0, 'tap', 1, 120, 2.5, 0.75, 0.5)
                """)
        }
        let db = try Schema.open(path: path)
        #expect(try db.userVersion == 10)
        #expect(try db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'results_by_config'").scalarInt() == 0)
        #expect(try db.prepare("SELECT config || ':' || config_version || ':' || outcome || ':' || duration_ms FROM results WHERE session_id = 1")
            .scalarText() == "spring-press:v1:tap:120.0")
    }

    @Test func upgradesAVersion1Database() throws {
        let path = try temporaryDatabasePath()
        let v1 = Array(try Schema.embedded().prefix(1))
        do {
            let db = try Schema.open(path: path, migrations: v1)
            #expect(try db.userVersion == 1)
            try db.execute("INSERT INTO sessions(session, t0, t1, sample_count, end_phase, samples) VALUES ('old', 1, 2, 0, 'ended', x'')")
            #expect(throws: DatabaseError.self) { try db.execute("SELECT * FROM results") }
        }
        let db = try Schema.open(path: path)
        #expect(try db.userVersion == 10)
        #expect(try db.prepare("SELECT session FROM sessions").scalarText() == "old")
        // Its samples BLOB is empty: no touch-down point to fill in.
        #expect(try db.prepare("SELECT x0 IS NULL AND y0 IS NULL FROM sessions").scalarInt() == 1)
        #expect(try db.prepare("SELECT count(*) FROM results").scalarInt() == 0)
    }

    // Version 4 fills x0, y0 of sessions stored before it from their BLOBs: the bits of the
    // first sample's x and y (the bytes written here by hand, Python
    // struct.pack('<ddd', 12.5, 187.5, 0.1) + b'\\x00', then a terminal sample), and NULL for a BLOB
    // too short to hold a sample.
    @Test func version5FillsTheTouchDownPointOfStoredSessions() throws {
        let path = try temporaryDatabasePath()
        do {
            let db = try Schema.open(path: path, migrations: Array(try Schema.embedded().prefix(4)))
            let first = "0000000000002940" + "0000000000706740" + "9a9999999999b93f" + "00"
            let last = "0000000000002a40" + "0000000000706740" + "9a9999999999b93f" + "03"
            try db.execute("""
                INSERT INTO sessions(session, t0, t1, sample_count, end_phase, samples) VALUES
                    ('a', 12.5, 13, 2, 'ended', x'\(first)\(last)'),
                    ('short', 1, 2, 0, 'ended', x'00112233')
                """)
        }
        let db = try Schema.open(path: path)
        let s = try db.prepare("SELECT x0, y0 FROM sessions WHERE session = 'a'")
        #expect(try s.step())
        #expect(s.double(0) == 187.5)
        #expect(s.double(1).bitPattern == (0.1).bitPattern)
        #expect(try db.prepare("SELECT x0 IS NULL AND y0 IS NULL FROM sessions WHERE session = 'short'").scalarInt() == 1)
        // Ingest writes them from the samples it holds: the same values for a new session.
        let store = Store(database: db)
        _ = try ingestNDJSON(store, """
            {"session":"new","t":20,"phase":"began","x":-3.25,"y":844}
            {"session":"new","t":20.1,"phase":"ended","x":0,"y":0}
            """)
        let n = try db.prepare("SELECT x0, y0 FROM sessions WHERE session = 'new'")
        #expect(try n.step())
        #expect(n.double(0) == -3.25 && n.double(1) == 844)
    }

    @Test func refusesANewerDatabaseAndLeavesItUntouched() throws {
        let path = try temporaryDatabasePath()
        do {
            let db = try Database(path: path)
            // A newer pressdb marks its files as every pressdb does (an unmarked one is foreign).
            try db.execute("CREATE TABLE future(x); PRAGMA user_version = 99; PRAGMA application_id = \(Schema.applicationID)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            _ = try Schema.open(path: path)
        } throws: { error in
            guard case SchemaError.newerDatabase(_, 99, 10) = error else { return false }
            return "\(error)".contains("newer pressdb")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func readOnlyConnectionCannotWrite() throws {
        let path = try temporaryDatabasePath()
        _ = try Schema.open(path: path)
        let ro = try Schema.openReadOnly(path: path)
        #expect(ro.isReadOnly)
        #expect {
            try ro.execute("INSERT INTO sources(name) VALUES ('x')")
        } throws: { error in
            guard let e = error as? DatabaseError else { return false }
            // SQLITE_READONLY = 8 (query_only reports it too); the SQL is carried.
            return e.primaryCode == 8 && e.sql.contains("INSERT INTO sources")
        }
        #expect(throws: DatabaseError.self) { try Schema.openReadOnly(path: path + ".missing") }
    }

    @Test func errorsCarryCodeMessageAndSQL() throws {
        let db = try Database(path: ":memory:")
        #expect {
            _ = try db.prepare("SELEC 1")
        } throws: { error in
            guard let e = error as? DatabaseError else { return false }
            return e.code == 1 && e.message.contains("syntax error") && e.sql == "SELEC 1"
        }
    }
}

@Suite struct IngestStoreTests {
    let tap = """
        {"session":"tap","t":10.0,"phase":"began","x":100,"y":200,"config":"spring-press","control":"buy","frame":[80,180,40,40],"container":"table","app_version":"1.0","screen":"cart","custom":7}
        {"session":"tap","t":10.05,"phase":"moved","x":101,"y":201}
        {"session":"tap","t":10.1,"phase":"ended","x":101,"y":201}
        """

    // `window` and `system_gestures` are stored as their documented texts (docs/log-format.md
    // §4) and read back as given; a session without them stores NULL.
    @Test func storesWindowAndSystemGestures() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        _ = try ingestNDJSON(store, """
            {"session":"e","t":0,"phase":"began","x":10,"y":400,"window":[390,844],"system_gestures":["back"]}
            {"session":"e","t":0.1,"phase":"ended","x":10,"y":400}
            {"session":"n","t":0,"phase":"began","x":10,"y":400,"window":[375.5,667],"system_gestures":[]}
            {"session":"n","t":0.1,"phase":"ended","x":10,"y":400}
            {"session":"p","t":0,"phase":"began","x":10,"y":400}
            {"session":"p","t":0.1,"phase":"ended","x":10,"y":400}
            """)
        let rows = try store.db.prepare("SELECT session, window, system_gestures FROM sessions ORDER BY session").all()
        #expect(rows == [[.text("e"), .text("390x844"), .text("back")], [.text("n"), .text("375.5x667"), .text("none")],
                         [.text("p"), .null, .null]])
        let all = try store.sessions().all().sorted { $0.session < $1.session }
        #expect(all[0].attributes.window == WindowSize(width: 390, height: 844) && all[0].attributes.systemGestures == .back)
        #expect(all[1].attributes.systemGestures == [] && all[2].attributes.window == nil)
    }

    @Test func storesSessionsLosslesslyAndReadsThemBack() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        let summary = try ingestNDJSON(store, tap)
        #expect(summary.sessionsNew == 1 && summary.rejects == 0 && summary.records == 3)
        let all = try store.sessions().all()
        #expect(all.count == 1)
        let s = all[0]
        #expect(summary.newSessionIDs == [s.id])
        #expect(s.session == "tap")
        #expect(s.samples == [TouchSample(t: 10, x: 100, y: 200, phase: .began),
                              TouchSample(t: 10.05, x: 101, y: 201, phase: .moved),
                              TouchSample(t: 10.1, x: 101, y: 201, phase: .ended)])
        #expect(s.attributes.config == "spring-press" && s.attributes.variant == nil && s.variant == "spring-press")
        #expect(s.attributes.frame == Rect(x: 80, y: 180, width: 40, height: 40) && s.attributes.container == .table)
        #expect(s.attributes.extra == #"{"custom":7}"#)
        let row = try store.db.prepare("SELECT t0, t1, sample_count, end_phase, first_line, last_line, variant_given FROM sessions").all()
        #expect(row == [[.real(10), .real(10.1), .integer(3), .text("ended"), .integer(1), .integer(3), .integer(0)]])
        // FNV-1a 64 of the text (the text has no trailing newline).
        #expect(try store.db.prepare("SELECT content_hash FROM sources").scalarText() == FNV1a64.hex(tap))
    }

    @Test func pendingSessionIsCompletedByALaterIngest() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        let first = try ingestNDJSON(store, """
            {"session":"r","t":1,"phase":"began","x":0,"y":0,"user":"u1"}
            {"session":"r","t":1.1,"phase":"moved","x":1,"y":0}
            """, name: "a.log")
        #expect(first.pending == 1 && first.sessionsNew == 0)
        #expect(try store.pendingIDs() == ["r"])
        // Re-ingesting the same start adds nothing.
        let again = try ingestNDJSON(store, """
            {"session":"r","t":1,"phase":"began","x":0,"y":0,"user":"u1"}
            {"session":"r","t":1.1,"phase":"moved","x":1,"y":0}
            """, name: "a.log")
        #expect(again.pending == 0 && again.duplicates == 1 && again.rejects == 0)
        let second = try ingestNDJSON(store, """
            {"session":"r","t":1.2,"phase":"ended","x":1,"y":0}
            """, name: "b.log")
        #expect(second.sessionsNew == 1 && second.sessionsCompletedFromPending == 1 && second.pending == 0)
        #expect(try store.pendingIDs().isEmpty)
        let s = try store.sessions().all()
        #expect(s.count == 1 && s[0].samples.map(\.t) == [1, 1.1, 1.2] && s[0].attributes[.user] == "u1")
        let lines = try store.db.prepare("""
            SELECT a.name, first_line, b.name, last_line FROM sessions
            JOIN sources a ON a.id = source_id JOIN sources b ON b.id = last_source_id
            """).all()
        #expect(lines == [[.text("a.log"), .integer(1), .text("b.log"), .integer(1)]])
    }

    @Test func duplicatesAreSkippedAndConflictsRejectedWithStoredDataKept() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        try ingestNDJSON(store, tap)
        let dup = try ingestNDJSON(store, tap, name: "copy.ndjson")
        #expect(dup.duplicates == 1 && dup.sessionsNew == 0 && dup.rejects == 0)
        let changed = tap.replacingOccurrences(of: #""t":10.1,"#, with: #""t":10.2,"#)
        let conflict = try ingestNDJSON(store, changed, name: "changed.ndjson")
        #expect(conflict.conflicts == 1 && conflict.rejects == 1)
        #expect(conflict.firstRejects.first?.description.hasPrefix("changed.ndjson:3: session \"tap\" conflicts") == true)
        #expect(try store.sessions().all()[0].samples.last?.t == 10.1)
        #expect(try store.sessionCount() == 1)
        // The reject's raw text is the record that completed the conflicting session, as read
        // (it was the whole session written back as NDJSON at first).
        let raw = try store.db.prepare("SELECT raw FROM rejects").scalarText() ?? ""
        #expect(raw == #"{"session":"tap","t":10.2,"phase":"ended","x":101,"y":201}"#)
        #expect(conflict.firstRejects.first?.reason.contains("session \"tap\" conflicts with a stored session") == true)
        // Same content twice: one sources row, counted twice.
        #expect(try store.db.prepare("SELECT group_concat(ingest_count) FROM sources").scalarText() == "2,1")
    }

    // A session left open at the end that contradicts the stored one: no record completed it,
    // so the reject is at its last record (file and line), with no raw text, naming the session.
    @Test func anOpenSessionContradictingTheStoredOneIsRejectedAtItsLastRecord() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        try ingestNDJSON(store, tap)
        let open = """
            {"session":"tap","t":10.0,"phase":"began","x":100,"y":200}
            {"session":"tap","t":10.05,"phase":"moved","x":999,"y":201}
            """
        let r = try ingestNDJSON(store, open, name: "open.ndjson")
        #expect(r.conflicts == 1 && r.pending == 0 && r.sessionsNew == 0)
        let reject = try store.db.prepare("SELECT source_file, line, raw FROM rejects").all()
        #expect(reject == [[.text("open.ndjson"), .integer(2), .text("")]])
        #expect(r.firstRejects.first?.reason.hasPrefix("session \"tap\" conflicts with a stored session") == true)
        // Its prefix re-read is a duplicate, not a conflict.
        let prefix = try ingestNDJSON(store, String(open.split(separator: "\n")[0]), name: "prefix.ndjson")
        #expect(prefix.duplicates == 1 && prefix.conflicts == 0)
    }

    @Test func sessionErrorsAreRejectedAndTheSessionContinues() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        let summary = try ingestNDJSON(store, """
            {"session":"a","t":1,"phase":"moved","x":0,"y":0}
            {"session":"a","t":1,"phase":"began","x":0,"y":0}
            {"session":"a","t":2,"phase":"began","x":0,"y":0}
            {"session":"a","t":0.5,"phase":"moved","x":0,"y":0}
            {"session":"a","t":3,"phase":"ended","x":0,"y":0}
            {"session":"a","t":4,"phase":"moved","x":0,"y":0}
            """)
        #expect(summary.firstRejects.map(\.description) == [
            #"e.ndjson:1: session "a" does not start with "began" (this "moved" sample has no open session)"#,
            #"e.ndjson:3: second "began" in session "a", which is still open"#,
            #"e.ndjson:4: time goes backwards in session "a": t 0.5 is before the previous sample's 1.0"#,
            #"e.ndjson:6: sample after the end of session "a" (it already ended with "ended" or "cancelled")"#,
        ])
        #expect(try store.sessions().all().map { $0.samples.map(\.t) } == [[1, 3]])
        let raws = try store.db.prepare("SELECT line, raw FROM rejects ORDER BY line").all()
        #expect(raws[1] == [.integer(3), .text(#"{"session":"a","t":2,"phase":"began","x":0,"y":0}"#)])
    }

    @Test func strictAbortsWithNothingWritten() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        var options = IngestOptions()
        options.strict = true
        #expect(throws: StrictRejectError.self) {
            try ingestNDJSON(store, tap + "\n{\"session\":\"z\",\"t\":1,\"phase\":\"nope\",\"x\":0,\"y\":0}", options: options)
        }
        for table in ["sessions", "sources", "rejects", "pending"] {
            #expect(try store.db.prepare("SELECT count(*) FROM \(table)").scalarInt() == 0)
        }
    }

    @Test func defaultsVariantsAndFilters() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        var options = IngestOptions()
        options.defaultConfig = "expand-delayed-click"
        options.defaultContainer = .scroll
        try ingestNDJSON(store, tap + """

            {"session":"b","t":1,"phase":"began","x":0,"y":0,"variant":"B"}
            {"session":"b","t":2,"phase":"cancelled","x":0,"y":0}
            """, options: options)
        let all = try store.sessions().all()
        #expect(all.map(\.variant) == ["spring-press", "B"])
        #expect(all[1].attributes.config == "expand-delayed-click" && all[1].attributes.container == .scroll)
        #expect(try store.sessions(SessionFilter(config: "spring-press")).all().map(\.session) == ["tap"])
        #expect(try store.sessions(SessionFilter(ids: [all[1].id])).all().map(\.session) == ["b"])
        #expect(try store.sessions(SessionFilter(sessions: ["tap", "b"])).all().count == 2)

        try store.writeResults([ResultRow(sessionID: all[0].id, config: "spring-press", configVersion: "v1", counterfactual: false,
                                           result: SessionResult(outcome: .tap, cancelReason: nil, actionFired: true,
                                                                 feedbackLatencyMs: 16.7, actionLatencyMs: 0, durationMs: 100,
                                                                 maxTravelPt: 1.4, pressDepth: 0.05, releaseJumpPt: 0))])
        #expect(try store.sessions(SessionFilter(withoutResultForConfigVersion: "v1")).all().map(\.session) == ["b"])
        let view = try store.db.prepare("SELECT session, variant, outcome, feedback_latency_ms FROM session_results").all()
        #expect(view == [[.text("tap"), .text("spring-press"), .text("tap"), .real(16.7)]])
        // The results contract's CHECK rejects unknown outcomes (a ResultRow cannot hold one: SQL).
        #expect(throws: DatabaseError.self) { try insertResultWithUnknownOutcome(store.db, sessionID: all[1].id) }
    }
}

extension Statement {
    /// Every row as values (test helper).
    func all() throws -> [[SQLValue]] {
        var out: [[SQLValue]] = []
        while try step() { out.append((0..<columnCount).map(value)) }
        reset()
        return out
    }
}

@Suite struct TextBindingTests {
    /// What SQLite stores for each bound string, as `hex(x)` and `typeof(x)`. The expected hex is
    /// the UTF-8 of each literal written out by hand (e.g. "é" is U+00E9, UTF-8 C3 A9); a string
    /// with a NUL byte is stored up to it, as binding it as a C string did.
    @Test func bindsEveryUTF8ByteIncludingNUL() throws {
        let db = try Database(path: ":memory:")
        let cases: [(String, String, String)] = [
            ("", "", "text"),                                   // empty text, not NULL
            ("u1-0001", "75312D30303031", "text"),              // small (inline) string
            ("é", "C3A9", "text"),
            ("a\u{0}b", "610062", "text"),                      // the NUL and what follows it
            (String(repeating: "x", count: 40), String(repeating: "78", count: 40), "text"), // heap string
        ]
        for (value, hex, type) in cases {
            let s = try db.prepare("SELECT hex(?1), typeof(?1)")
            s.bind(1, value)
            #expect(try s.step())
            #expect(s.text(0) == hex && s.text(1) == type, "\(value.debugDescription)")
        }
        // Read back by length: the same string, NUL and all.
        let back = try db.prepare("SELECT ?1")
        back.bind(1, "z\u{0}a")
        #expect(try back.step())
        #expect(back.text(0) == "z\u{0}a")
    }
}

/// The field table and the migrations must agree: no compiler links them.
@Suite struct AttributeColumnsTests {
    func columns(_ db: Database, _ table: String) throws -> Set<String> {
        let s = try db.prepare("SELECT name FROM pragma_table_info(?)")
        s.bind(1, table)
        var out: Set<String> = []
        while try s.step() { out.insert(s.text(0)) }
        return out
    }

    @Test func everyAttributeHasItsColumnsInSessionsPendingAndTheReportView() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        let sessions = try columns(store.db, "sessions"), pending = try columns(store.db, "pending")
        let view = try columns(store.db, "session_results")
        for attribute in SessionAttribute.allCases {
            for c in attribute.field.columns {
                #expect(sessions.contains(c), "sessions has no column \(c) for attribute \(attribute.key): add it in a migration")
                #expect(pending.contains(c), "pending has no column \(c) for attribute \(attribute.key): add it in a migration")
            }
            if attribute.field.report >= .filter {
                #expect(view.contains(attribute.key), "session_results has no column \(attribute.key), a report key")
            }
        }
    }
}

/// The per-session events are defined once, as columns of `result_events`, and reach every
/// reader through it.
@Suite struct ResultEventTests {
    // One session per case, each result written here with the values docs/compare.md's event
    // definitions turn on; the expected 0/1 per event worked out by hand from those definitions.
    @Test func eachEventColumnFollowsItsDefinition() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        var lines: [String] = []
        for k in 0..<5 {
            lines.append(#"{"session":"s\#(k)","t":0,"phase":"began","x":0,"y":0}"#)
            lines.append(#"{"session":"s\#(k)","t":0.1,"phase":"ended","x":0,"y":0}"#)
        }
        try ingestNDJSON(store, lines.joined(separator: "\n"))
        let ids = try store.sessions().all().map(\.id)
        func result(_ o: PressOutcome, _ reason: CancelReason?, fired: Bool, feedback: Double?) -> SessionResult {
            SessionResult(outcome: o, cancelReason: reason, actionFired: fired, feedbackLatencyMs: feedback,
                          actionLatencyMs: fired ? 0 : nil, durationMs: 100, maxTravelPt: 0, pressDepth: 0, releaseJumpPt: 0)
        }
        let cases: [(SessionResult, [SessionEvent: Int], seen: Int)] = [
            (result(.tap, nil, fired: true, feedback: 33.3), [.tap: 1], 1),
            (result(.cancel, .dragExit, fired: true, feedback: 16.7), [.cancel: 1, .falseAction: 1], 1),
            (result(.cancel, .system, fired: false, feedback: nil), [.cancel: 1, .unseenPress: 1], 0),
            // no action, no system cancel, 0 pt of travel: also a dead press (docs/frustration.md)
            (result(.scrollAbort, nil, fired: false, feedback: nil), [.scrollAbort: 1, .deadPress: 1], 0),
            (result(.tap, nil, fired: true, feedback: nil), [.tap: 1, .unseenPress: 1], 0),
        ]
        try store.writeResults(zip(ids, cases).map {
            ResultRow(sessionID: $0.0, config: "c", configVersion: "v", counterfactual: false, result: $0.1.0)
        })
        // The events of one result; the sequence signals (rage, retries) are report_input's
        // (FrustrationSignalsTests).
        let events: [SessionEvent] = [.tap, .cancel, .scrollAbort, .falseAction, .unseenPress, .deadPress]
        let columns = events.map(\.column) + ["is_seen"]
        #expect(columns == ["is_tap", "is_cancel", "is_scroll_abort", "is_false_action", "is_unseen_press", "is_dead_press", "is_seen"])
        for view in ["result_events", "session_results"] {
            let s = try store.db.prepare("SELECT \(columns.joined(separator: ", ")) FROM \(view) ORDER BY session_id")
            var k = 0
            while try s.step() {
                let expected = events.map { cases[k].1[$0] ?? 0 } + [cases[k].seen]
                #expect((0..<Int32(columns.count)).map { s.int($0) } == expected, "\(view) row \(k)")
                k += 1
            }
            #expect(k == cases.count)
        }
    }
}
