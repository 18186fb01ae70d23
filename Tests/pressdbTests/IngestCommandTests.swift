import Foundation
import PressTestSupport
import Testing

@Suite struct IngestCommandTests {
    let ndjson = """
        {"session":"tap","t":10.0,"phase":"began","x":100,"y":200,"config":"spring-press","user":"u1"}
        {"session":"drag","t":10.01,"phase":"began","x":50,"y":60,"config":"spring-press"}
        {"session":"tap","t":10.08,"phase":"ended","x":100.5,"y":200}
        {"session":"drag","t":10.2,"phase":"moved","x":50,"y":160}
        {"session":"drag","t":10.3,"phase":"ended","x":50,"y":190}

        """
    let csv = """
        session,t,phase,x,y,config,user
        tap,10.0,began,100,200,spring-press,u1
        drag,10.01,began,50,60,spring-press,
        tap,10.08,ended,100.5,200,,
        drag,10.2,moved,50,160,,
        drag,10.3,ended,50,190,,

        """

    func query(_ db: URL, _ sql: String) throws -> String { try sqlite3(db, sql).stdout }

    let sessionsSQL = "SELECT session, t0, t1, sample_count, hex(samples), config, variant, user FROM sessions ORDER BY session"

    @Test func readsStandardInputForDashAndNoFile() throws {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("a.sqlite")
        let dash = try Binary.run(["ingest", "-", "--db", db.path], stdin: ndjson)
        #expect(dash.status == 0)
        #expect(dash.stderr.contains("sessions: 2 new, 0 duplicate, 0 conflict, 0 pending"))
        // No FILE, database from $PRESSDB_DB; the same data again adds nothing.
        let none = try Binary.run(["ingest"], stdin: ndjson, environment: ["PRESSDB_DB": db.path])
        #expect(none.status == 0)
        #expect(none.stderr.contains("sessions: 0 new, 2 duplicate"))
        #expect(try query(db, "SELECT count(*) FROM sessions") == "2\n")
    }

    @Test func csvAndNDJSONStoreTheSameSessions() throws {
        let dir = try Binary.temporaryDirectory()
        try ndjson.write(to: dir.appendingPathComponent("e.ndjson"), atomically: true, encoding: .utf8)
        try csv.write(to: dir.appendingPathComponent("e.csv"), atomically: true, encoding: .utf8)
        let a = try Binary.run(["ingest", "e.ndjson", "--db", "a.sqlite"], directory: dir)
        let b = try Binary.run(["ingest", "e.csv", "--db", "b.sqlite", "-q"], directory: dir)
        #expect(a.status == 0 && b.status == 0)
        #expect(b.stderr.isEmpty)
        let fromNDJSON = try query(dir.appendingPathComponent("a.sqlite"), sessionsSQL)
        #expect(fromNDJSON == (try query(dir.appendingPathComponent("b.sqlite"), sessionsSQL)))
        // Default ./pressdb.sqlite in the working directory; hex of 10.0 = 0000000000002440 (Python struct.pack('<d', 10.0)).
        #expect(fromNDJSON.contains("tap|10.0|10.08|2|00000000000024400000000000005940"))
        let c = try Binary.run(["ingest", "--format", "csv", "e.csv"], directory: dir)
        #expect(c.status == 0)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("pressdb.sqlite").path))
    }

    @Test func rejectsGiveStatus3MessagesAndRows() throws {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("a.sqlite").path
        var text = ndjson + #"{"session":"x","t":1,"phase":"tapped","x":1,"y":2}"# + "\n"
        for i in 0..<25 { text += "garbage \(i)\n" }
        try text.write(to: dir.appendingPathComponent("events.ndjson"), atomically: true, encoding: .utf8)
        let r = try Binary.run(["ingest", "events.ndjson", "--db", db], directory: dir)
        #expect(r.status == 3)
        #expect(r.stderr.contains(#"events.ndjson:6: phase "tapped" is not one of began, moved, stationary, ended, cancelled"#))
        #expect(r.stderr.contains("… and 6 more (see the rejects table)"))
        #expect(r.stderr.contains("26 rejected"))
        #expect(try query(URL(fileURLWithPath: db), "SELECT count(*) FROM rejects") == "26\n")
        #expect(try query(URL(fileURLWithPath: db), "SELECT count(*) FROM sessions") == "2\n")
    }

    @Test func strictWritesNothing() throws {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("a.sqlite")
        let r = try Binary.run(["ingest", "--strict", "--db", db.path], stdin: ndjson + "{oops}\n")
        #expect(r.status == 3)
        #expect(r.stderr.contains("-:6: malformed JSON"))
        #expect(r.stderr.contains("nothing was written"))
        // A database the aborted run created is removed again.
        #expect(!FileManager.default.fileExists(atPath: db.path))
        // Into an existing database: nothing is added to it.
        #expect(try Binary.run(["ingest", "--db", db.path, "-q"], stdin: ndjson).status == 0)
        let before = try query(db, "SELECT (SELECT count(*) FROM sessions) || '/' || (SELECT count(*) FROM rejects)")
        let again = try Binary.run(["ingest", "--strict", "--db", db.path], stdin: "{oops}\n")
        #expect(again.status == 3)
        #expect(try query(db, "SELECT (SELECT count(*) FROM sessions) || '/' || (SELECT count(*) FROM rejects)") == before)
    }

    @Test func pendingAcrossInvocations() throws {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("a.sqlite").path
        let lines = ndjson.split(separator: "\n").map(String.init)
        let first = try Binary.run(["ingest", "--db", db], stdin: lines[0...3].joined(separator: "\n"))
        #expect(first.stderr.contains("sessions: 1 new, 0 duplicate, 0 conflict, 1 pending"))
        let second = try Binary.run(["ingest", "--db", db], stdin: lines[4] + "\n")
        #expect(second.status == 0)
        #expect(second.stderr.contains("sessions: 1 new, 0 duplicate, 0 conflict, 0 pending; 1 completed from pending"))
    }

    @Test func helpUnknownOptionsAndMissingFiles() throws {
        let help = try Binary.run(["ingest", "--help"])
        #expect(help.status == 0)
        for option in ["--db PATH", "--format FORMAT", "--config NAME", "--container NAME", "--strict", "--quiet", "FILE|-"] {
            #expect(help.stdout.contains(option), "\(option)")
        }
        let bad = try Binary.run(["ingest", "--frobnicate"])
        #expect(bad.status == 2)
        #expect(bad.stderr.split(separator: "\n").count == 1)
        let dir = try Binary.temporaryDirectory()
        let missing = try Binary.run(["ingest", "nope.ndjson", "--db", "a.sqlite"], directory: dir)
        #expect(missing.status == 1)
        #expect(missing.stderr == "pressdb ingest: cannot read nope.ndjson: No such file or directory\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("a.sqlite").path))
        let format = try Binary.run(["ingest", "--format", "xml"])
        #expect(format.status == 2)
        let undetectable = try Binary.run(["ingest", "--db", dir.appendingPathComponent("b.sqlite").path], stdin: "hello\n")
        #expect(undetectable.status == 1 && undetectable.stderr.contains("cannot tell the format"))
    }

    // A CSV that cannot give a record leaves no database, as an empty NDJSON does: a header
    // missing a required column (docs/log-format.md: session, t, phase, x, y) fails with the
    // file, the line and the column, whether the format was given or detected — a `time` column
    // in place of `t` is named as the cause, not "cannot tell the format"; a header with no rows
    // is nothing to ingest (status 4).
    @Test func csvWithoutRecordsMakesNoDatabase() throws {
        let dir = try Binary.temporaryDirectory()
        let cases: [(name: String, text: String, format: [String], status: Int32, message: String)] = [
            ("phse.csv", "session,t,phse,x,y\ns1,0,began,1,1\n", [], 1, "phse.csv:1: CSV header lacks the required column phase"),
            ("phse2.csv", "session,t,phse,x,y\ns1,0,began,1,1\n", ["--format", "csv"], 1, "phse2.csv:1: CSV header lacks the required column phase"),
            ("time.csv", "\nsession,time,phase,x,y\ns1,0,began,1,1\n", [], 1, "time.csv:2: CSV header lacks the required column t (the time column is named t, in seconds; rename 'time')"),
            ("head.csv", "session,t,phase,x,y\n\n", [], 4, "nothing to ingest: head.csv holds no records"),
            ("head2.csv", "session,t,phase,x,y", ["--format", "csv"], 4, "nothing to ingest: head2.csv holds no records"),
        ]
        for c in cases {
            try c.text.write(to: dir.appendingPathComponent(c.name), atomically: true, encoding: .utf8)
            let db = dir.appendingPathComponent(c.name + ".sqlite").path
            let r = try Binary.run(["ingest", c.name, "--db", db] + c.format, directory: dir)
            #expect(r.status == c.status && r.stderr.contains(c.message), "\(c.name): \(r.status) \(r.stderr)")
            #expect(!r.stderr.contains("cannot tell the format"), "\(c.name): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: db), "\(c.name) made a database")
        }
    }
}
