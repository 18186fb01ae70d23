import Foundation
import PressCore
import PressTestSupport
import Testing

/// Exports as research studies and event pipelines write them: no header, their own phase names,
/// milliseconds, rows out of time order, typos.
@Suite struct RealExportTests {
    /// One touch of an iPad-study-shaped export: its rows `(touch, phase name, x, y, epoch ms)` in time order.
    typealias Row = (touch: Int, phase: String, x: Double, y: Double, ms: Int)

    /// `count` touches, one after another (some overlapping, as two fingers do), each a
    /// touchdown, 1-6 touchmoves 1-9 ms apart and a touchend, from a seeded generator.
    static func touches(_ count: Int, seed: UInt64) -> [[Row]] {
        var rng = SplitMix64(seed: seed)
        var start = 1_700_000_000_000
        return (0..<count).map { k in
            var t = start
            var x = Double(rng.integer(100...900)), y = Double(rng.integer(100...700))
            var rows: [Row] = [(k, "touchdown", x, y, t)]
            for _ in 0..<rng.integer(1...6) {
                t += rng.integer(1...9)
                x += Double(rng.integer(-3...3)); y += Double(rng.integer(-3...3))
                rows.append((k, "touchmove", x, y, t))
            }
            t += rng.integer(20...120)
            rows.append((k, "touchend", x, y, t))
            start += rng.integer(10...400)   // the next touch may begin before this one ends
            return rows
        }
    }

    /// The rows of all touches in time order (ties: touch order), as a pipeline writes them.
    static func inTimeOrder(_ touches: [[Row]]) -> [Row] {
        touches.flatMap { $0 }.enumerated().sorted { ($0.element.ms, $0.offset) < ($1.element.ms, $1.offset) }.map(\.element)
    }

    static func csv(_ rows: [Row]) -> String {
        rows.map { "\($0.touch),\($0.phase),\(Int($0.x)),\(Int($0.y)),\($0.ms)\n" }.joined()
    }

    /// The same rows as pressdb NDJSON in seconds (the study's converted file).
    static func ndjson(_ rows: [Row]) -> String {
        let phases = ["touchdown": "began", "touchmove": "moved", "touchend": "ended"]
        return rows.map { r in
            let t = JSONText.number(Double(r.ms) / 1000)
            return #"{"session":"\#(r.touch)","t":\#(t),"phase":"\#(phases[r.phase]!)","x":\#(Int(r.x)),"y":\#(Int(r.y))}"# + "\n"
        }.joined()
    }

    /// 141 touches; in 4 of them the touchend row is moved to just before the touchdown row.
    static func endsBeforeBegins() -> (shuffled: [Row], ordered: [Row], moved: Int) {
        let all = touches(141, seed: 141)
        let ordered = inTimeOrder(all)
        var rows = ordered
        for touch in [10, 47, 88, 130] {
            let end = rows.firstIndex { $0.touch == touch && $0.phase == "touchend" }!
            let row = rows.remove(at: end)
            rows.insert(row, at: rows.firstIndex { $0.touch == touch && $0.phase == "touchdown" }!)
        }
        return (rows, ordered, 4)
    }

    /// 130 touches; 35 pairs of adjacent rows of one touch's moves swapped, so the second is
    /// 1-9 ms earlier than the row before it.
    static func movesOutOfOrder() -> (shuffled: [Row], ordered: [Row], moved: Int) {
        let all = touches(130, seed: 130)
        let ordered = inTimeOrder(all)
        var rows = ordered
        var swapped = 0, k = 0
        while swapped < 35, k + 1 < rows.count {
            let a = rows[k], b = rows[k + 1]
            if a.touch == b.touch, a.phase == "touchmove", b.phase == "touchmove", a.ms < b.ms, k % 3 == 0 {
                rows.swapAt(k, k + 1)
                swapped += 1
                k += 2
            } else {
                k += 1
            }
        }
        precondition(swapped == 35)
        return (rows, ordered, 35)
    }

    let rawFlags = ["--columns", "session,phase,x,y,t", "--time-unit", "ms",
                    "--phase-names", "began=touchdown,moved=touchmove,ended=touchend"]
    let sessionsSQL = "SELECT session, t0, t1, sample_count, hex(samples) FROM sessions ORDER BY session"

    func ingest(_ text: String, name: String, _ flags: [String], db: String, in dir: URL) throws -> ProcessResult {
        try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        return try Binary.run(["ingest", "--db", db] + flags + [name], directory: dir)
    }

    @Test(arguments: ["ends before begins", "moves out of order"])
    func rowsOutOfOrderIngestWholeAsTheOrderedFileDoes(_ shape: String) throws {
        let (shuffled, ordered, _) = shape == "ends before begins" ? Self.endsBeforeBegins() : Self.movesOutOfOrder()
        let touches = Set(ordered.map(\.touch)).count
        #expect(Self.csv(shuffled) != Self.csv(ordered))
        let dir = try Binary.temporaryDirectory()
        // The raw export, read with one command.
        let raw = try ingest(Self.csv(shuffled), name: "raw.csv", rawFlags, db: "raw.sqlite", in: dir)
        #expect(raw.status == 0, "\(raw.stderr)")
        #expect(raw.stderr.contains("sessions: \(touches) new, 0 duplicate, 0 conflict, 0 pending"), "\(raw.stderr)")
        #expect(raw.stderr.contains("0 rejected"))
        // The converted NDJSON (seconds).
        let converted = try ingest(Self.ndjson(shuffled), name: "study.ndjson", [], db: "nd.sqlite", in: dir)
        #expect(converted.stderr.contains("sessions: \(touches) new, 0 duplicate, 0 conflict, 0 pending; "), "\(converted.stderr)")
        #expect(converted.status == 0)
        // The same rows in time order (sorted here, not by pressdb) store the same sessions.
        let sorted = try ingest(Self.ndjson(ordered), name: "sorted.ndjson", [], db: "sorted.sqlite", in: dir)
        #expect(sorted.status == 0)
        #expect(!sorted.stderr.contains("put in time order"))
        let reference = try sqlite3(dir.appendingPathComponent("sorted.sqlite"), sessionsSQL).stdout
        #expect(reference.split(separator: "\n").count == touches)
        #expect(try sqlite3(dir.appendingPathComponent("nd.sqlite"), sessionsSQL).stdout == reference)
        #expect(try sqlite3(dir.appendingPathComponent("raw.sqlite"), sessionsSQL).stdout == reference)
    }

    @Test func withoutTheWindowTheRowsOutOfOrderAreLostAsBefore() throws {
        let dir = try Binary.temporaryDirectory()
        let ends = try ingest(Self.ndjson(Self.endsBeforeBegins().shuffled), name: "a.ndjson", ["--reorder-window", "0"],
                              db: "a.sqlite", in: dir)
        #expect(ends.status == 3)
        #expect(ends.stderr.contains("137 new, 0 duplicate, 0 conflict, 4 pending"), "\(ends.stderr)")
        #expect(ends.stderr.contains("4 rejected"))
        let moves = try ingest(Self.ndjson(Self.movesOutOfOrder().shuffled), name: "b.ndjson", ["--reorder-window", "0"],
                               db: "b.sqlite", in: dir)
        #expect(moves.stderr.contains("130 new, 0 duplicate, 0 conflict, 0 pending"), "\(moves.stderr)")
        #expect(moves.stderr.contains("35 rejected"))
    }

    @Test func aRowLaterThanTheWindowIsRejectedAsBefore() throws {
        // A move 30 ms out of order with a 0.02 s window: rejected; with 0.05 s: put in order.
        let log = """
            {"session":"a","t":1.000,"phase":"began","x":1,"y":1}
            {"session":"a","t":1.040,"phase":"moved","x":2,"y":1}
            {"session":"a","t":1.010,"phase":"moved","x":3,"y":1}
            {"session":"a","t":1.100,"phase":"ended","x":3,"y":1}

            """
        let dir = try Binary.temporaryDirectory()
        let narrow = try ingest(log, name: "a.ndjson", ["--reorder-window", "0.02"], db: "a.sqlite", in: dir)
        #expect(narrow.status == 3)
        #expect(narrow.stderr.contains("time goes backwards in session \"a\""))
        let wide = try ingest(log, name: "b.ndjson", ["--reorder-window", "0.05"], db: "b.sqlite", in: dir)
        #expect(wide.status == 0)
        #expect(wide.stderr.contains("1 rows put in time order"))
        // Samples in time order: t = 1.0, 1.01, 1.04, 1.1.
        #expect(try sqlite3(dir.appendingPathComponent("b.sqlite"), "SELECT sample_count, t0, t1 FROM sessions").stdout == "4|1.0|1.1\n")
    }

    @Test func onceRowsWereOutOfOrderARowAfterItsSessionsEndIsPutInPlace() throws {
        // Session a's moves are swapped (rows out of order from then on); b's move comes after
        // its end row, in the same chunk: it is put before the end.
        let log = """
            {"session":"a","t":1.000,"phase":"began","x":1,"y":1}
            {"session":"a","t":1.040,"phase":"moved","x":2,"y":1}
            {"session":"a","t":1.010,"phase":"moved","x":3,"y":1}
            {"session":"a","t":1.100,"phase":"ended","x":3,"y":1}
            {"session":"b","t":2.000,"phase":"began","x":1,"y":1}
            {"session":"b","t":2.100,"phase":"ended","x":1,"y":1}
            {"session":"b","t":2.050,"phase":"moved","x":5,"y":1}

            """
        let dir = try Binary.temporaryDirectory()
        let r = try ingest(log, name: "l.ndjson", [], db: "l.sqlite", in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("2 new, 0 duplicate, 0 conflict, 0 pending"))
        // b's samples in time order: t 2.0, 2.05, 2.1 with phases began, moved, ended.
        #expect(try sqlite3(dir.appendingPathComponent("l.sqlite"),
                            "SELECT sample_count, t0, t1 FROM sessions WHERE session = 'b'").stdout == "3|2.0|2.1\n")
    }

    @Test func theRawFileWithoutTheFlagsSaysWhatToDo() throws {
        let dir = try Binary.temporaryDirectory()
        let rows = Self.csv(Self.movesOutOfOrder().ordered)
        let plain = try ingest(rows, name: "raw.csv", ["--format", "csv"], db: "a.sqlite", in: dir)
        #expect(plain.status == 1)
        #expect(plain.stderr.contains("name its columns with --columns"), "\(plain.stderr)")
        // Named columns and phases, but the unit left out: a warning naming milliseconds.
        let seconds = try ingest(rows, name: "raw2.csv", Array(rawFlags[0...1] + rawFlags[4...5]), db: "b.sqlite", in: dir)
        #expect(seconds.stderr.contains("the times look like milliseconds"), "\(seconds.stderr)")
        #expect(seconds.stderr.contains("--time-unit ms"))
        let right = try ingest(rows, name: "raw3.csv", rawFlags, db: "c.sqlite", in: dir)
        #expect(!right.stderr.contains("look like"))
    }

    @Test func headerNamesMapToFields() throws {
        let dir = try Binary.temporaryDirectory()
        let text = "touch_id,kind,px,py,epoch_ms\n" + Self.csv(Self.movesOutOfOrder().ordered)
        let r = try ingest(text, name: "h.csv", ["--columns", "session=touch_id,phase=kind,x=px,y=py,t=epoch_ms",
                                                 "--time-unit", "ms", "--phase-names", "began=touchdown,moved=touchmove,ended=touchend"],
                           db: "h.sqlite", in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("130 new"))
    }

    @Test func misspeltFieldsAndConfigurationsGetSuggestions() throws {
        let log = """
            {"sesion":"a","t":1,"phase":"began","x":1,"y":1}
            {"session":"b","t":2,"phase":"began","x":1,"y":1,"containr":"table","config":"spring-pres"}
            {"session":"b","t":2.08,"phase":"ended","x":1,"y":1}

            """
        let dir = try Binary.temporaryDirectory()
        let r = try ingest(log, name: "t.ndjson", [], db: "t.sqlite", in: dir)
        #expect(r.status == 3)
        #expect(r.stderr.contains(#"t.ndjson:1: missing field "session"; the line has "sesion": did you mean "session"?"#))
        #expect(r.stderr.contains(#"t.ndjson:2: warning: field "containr" is not one pressdb knows and is kept as an extra attribute: did you mean "container"?"#))
        #expect(r.stderr.contains("configuration 'spring-pres' (did you mean 'spring-press'?)"))
        // --check says the same before anything is stored.
        let check = try Binary.run(["ingest", "--check", "--db", "c.sqlite", "t.ndjson"], directory: dir)
        #expect(check.status == 3)
        #expect(check.stderr.contains("check: sessions name configuration 'spring-pres' (did you mean 'spring-press'?)"))
        #expect(check.stderr.contains(#"did you mean "container"?"#))
    }

    @Test func checkReadsEverythingAndWritesNothing() throws {
        let dir = try Binary.temporaryDirectory()
        let good = Self.ndjson(Self.movesOutOfOrder().ordered)
        try good.write(to: dir.appendingPathComponent("g.ndjson"), atomically: true, encoding: .utf8)
        try (good + "{\"session\":\"zz\",\"t\":1,\"phase\":\"jump\",\"x\":1,\"y\":1}\n")
            .write(to: dir.appendingPathComponent("bad.ndjson"), atomically: true, encoding: .utf8)
        // No database: none is created.
        let first = try Binary.run(["ingest", "--check", "--db", "new.sqlite", "g.ndjson"], directory: dir)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("would store 130 new sessions"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("new.sqlite").path))
        // A database: its bytes are unchanged, and what is stored counts as duplicate.
        #expect(try Binary.run(["ingest", "--db", "d.sqlite", "-q", "g.ndjson"], directory: dir).status == 0)
        let before = try Data(contentsOf: dir.appendingPathComponent("d.sqlite"))
        let second = try Binary.run(["ingest", "--check", "--db", "d.sqlite", "bad.ndjson"], directory: dir)
        #expect(second.status == 3)
        #expect(second.stderr.contains("would store 0 new sessions; 130 duplicate"), "\(second.stderr)")
        #expect(second.stderr.contains("bad.ndjson:\(Self.movesOutOfOrder().ordered.count + 1): phase \"jump\""))
        #expect(try Data(contentsOf: dir.appendingPathComponent("d.sqlite")) == before)
        #expect(try sqlite3(dir.appendingPathComponent("d.sqlite"), "SELECT count(*) FROM rejects").stdout == "0\n")
    }
}
