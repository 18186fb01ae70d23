// `pressdb replay --input`, `aggregate`, `merge`, `report --from` end to end: the stream gives the
// rows ingest stores, and partials of any split of the sessions report what the database does.
import Foundation
import Testing
import PressCore
import PressFormats
import PressTestSupport
@testable import PressStore
@testable import PressSQLite

/// The NDJSON lines of `text` as objects. Top-level numbers are read by pressdb's own scanner
/// (Foundation's JSONSerialization on Linux can miss the nearest Double by an ulp): an Int when
/// written without a fraction or exponent, else the Double; nested values by JSONSerialization.
private func objects(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
        var bytes = Array(line.utf8)
        return try bytes.withUnsafeMutableBufferPointer { mb -> [String: Any] in
            let b = UnsafeBufferPointer(mb)
            var scanner = JSONScanner(b)
            var fields: [JSONField] = []
            try scanner.scanObject(into: &fields)
            var out: [String: Any] = [:]
            for f in fields {
                let key = try JSONScanner.string(b, f.key), v = f.value
                let raw = Data(UnsafeBufferPointer(rebasing: b[v.start..<v.end]))
                switch v.kind {
                case .string: out[key] = try JSONScanner.string(b, v)
                case .number: out[key] = raw.contains(where: { $0 == 0x2E || $0 == 0x65 || $0 == 0x45 }) ? v.number : Int(v.number)
                case .bool: out[key] = v.bool
                case .null: out[key] = NSNull()
                default: out[key] = try JSONSerialization.jsonObject(with: raw)
                }
            }
            return out
        }
    }
}

/// A partial's text without what it summarises (`sources`, `unidentified_sessions`): its cells,
/// equal for partials of the same sessions from different inputs.
private func withoutSources(_ text: String) -> String {
    let pattern = try! NSRegularExpression(pattern: "\"sources\":\\[.*?\\],\"unidentified_sessions\":[0-9]+,",
                                           options: .dotMatchesLineSeparators)
    return pattern.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "")
}

/// A generated log (2,000 sessions, seed 11) in a new folder, ingested into `db.sqlite` there.
private func ingestedLog(format: String = "ndjson", sessions: Int = 2000) throws -> (dir: URL, log: String, db: String) {
    let dir = try Binary.temporaryDirectory()
    let log = try Binary.run(["generate", "--sessions", "\(sessions)", "--seed", "11", "--format", format]).stdout
    let path = dir.appendingPathComponent("log.\(format)").path
    try log.write(toFile: path, atomically: true, encoding: .utf8)
    let db = dir.appendingPathComponent("db.sqlite").path
    let ingest = try Binary.run(["ingest", "--db", db, "--quiet", path])
    #expect(ingest.status == 0, "\(ingest.stderr)")
    return (dir, path, db)
}

@Suite(.serialized) struct ScaleOutTests {
    /// Every result line holds its session's stored row: each column of `results`, the arm as
    /// stored, the touch-down time and every attribute as stored.
    @Test func resultLinesAreTheStoredRows() throws {
        let (_, log, db) = try ingestedLog()
        let replay = try Binary.run(["replay", "--input", log])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stderr.contains("2000 sessions replayed, 0 pending, 0 rejected"))
        let lines = try objects(replay.stdout)
        #expect(lines.count == 2000)
        let store = try Store.open(path: db)
        var stored: [String: StoredSession] = [:]
        for s in try store.sessions().all() { stored[s.session] = s }
        let rows = try store.db.prepare("""
            SELECT s.session, r.config, r.config_version, r.counterfactual, r.outcome, r.cancel_reason, r.action_fired,
                   r.feedback_latency_ms, r.action_latency_ms, r.duration_ms, r.max_travel_pt, r.press_depth, r.release_jump_pt,
                   s.variant, s.t0
            FROM sessions s JOIN results r ON r.session_id = s.id
            """)
        var byID: [String: [SQLValue]] = [:]
        while try rows.step() { byID[rows.text(0)] = (0..<15).map { rows.value(Int32($0)) } }
        func real(_ v: Any?) -> SQLValue { (v as? Double ?? (v as? Int).map(Double.init)).map(SQLValue.real) ?? .null }
        func text(_ v: Any?) -> SQLValue { (v as? String).map(SQLValue.text) ?? .null }
        for line in lines {
            let id = try #require(line["session"] as? String)
            let row = try #require(byID[id])
            let mine: [SQLValue] = [.text(id), text(line["config"]), text(line["config_version"]),
                                    .integer((line["counterfactual"] as? Bool) == true ? 1 : 0), text(line["outcome"]),
                                    text(line["cancel_reason"]), .integer((line["action_fired"] as? Bool) == true ? 1 : 0),
                                    real(line["feedback_latency_ms"]), real(line["action_latency_ms"]), real(line["duration_ms"]),
                                    real(line["max_travel_pt"]), real(line["press_depth"]), real(line["release_jump_pt"]),
                                    text(line["variant"]), real(line["t0"])]
            #expect(mine == row, "\(id)")
            var writer = TouchLogWriter(format: .ndjson, attributes: SessionAttribute.ordered)
            writer.appendAttributeObject(try #require(stored[id]).attributes)
            let expected = try JSONSerialization.jsonObject(with: Data(writer.buffer)) as? NSDictionary
            #expect(expected == (line["attributes"] as? NSDictionary), "\(id)")
        }
    }

    /// CSV records give the same lines as the same log in NDJSON.
    @Test func csvGivesTheSameLines() throws {
        let dir = try Binary.temporaryDirectory()
        var out: [String: Set<String>] = [:]
        for format in ["ndjson", "csv"] {
            let path = dir.appendingPathComponent("log.\(format)").path
            try Binary.run(["generate", "--sessions", "300", "--seed", "5", "--format", format]).stdout
                .write(toFile: path, atomically: true, encoding: .utf8)
            let r = try Binary.run(["replay", "--input", path])
            #expect(r.status == 0, "\(r.stderr)")
            out[format] = Set(r.stdout.split(separator: "\n").map(String.init))
        }
        #expect(out["ndjson"]!.count == 300)
        #expect(out["ndjson"] == out["csv"])
    }

    /// The log split by user into three streams, each replayed and aggregated on its own, then
    /// merged: `report --from` prints byte for byte what `report` prints from the database, for
    /// every grouping and a filter; `aggregate` of the database is the same partial.
    @Test func mergedPartialsReportWhatTheDatabaseReports() throws {
        let (dir, log, db) = try ingestedLog()
        var parts = [[String]](repeating: [], count: 3)
        for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") {
            // Session ids are s<seed>-u<user>-<nnnn>: the user's number picks the part.
            let id = line.split(separator: "\"")[3]
            let user = Int(id.split(separator: "-")[1].dropFirst())!
            parts[user % 3].append(String(line))
        }
        var partials: [String] = []
        for (i, part) in parts.enumerated() {
            let lines = try Binary.run(["replay", "--input", "-", "--quiet"], stdin: part.joined(separator: "\n") + "\n")
            #expect(lines.status == 0, "\(lines.stderr)")
            let path = dir.appendingPathComponent("p\(i).json").path
            let aggregate = try Binary.run(["aggregate", "-", "--out", path], stdin: lines.stdout)
            #expect(aggregate.status == 0, "\(aggregate.stderr)")
            partials.append(path)
        }
        let merged = dir.appendingPathComponent("merged.json").path
        let merge = try Binary.run(["merge"] + partials + ["--out", merged])
        #expect(merge.status == 0, "\(merge.stderr)")
        let fromDB = try Binary.run(["aggregate", "--db", db])
        // The same cells; only what each summarises differs: the log in the database, three
        // streams of result lines here (split by user, their session ids interleave, yet they
        // share no session: merged without a word about overlap).
        let mergedText = try String(contentsOfFile: merged, encoding: .utf8)
        #expect(withoutSources(fromDB.stdout) == withoutSources(mergedText) && withoutSources(mergedText) != mergedText)
        #expect(merge.stderr.isEmpty, "\(merge.stderr)")
        for args in [[], ["--by", "variant"], ["--by", "control"], ["--by", "screen"], ["--by", "app_version"],
                     ["--where", "variant=B"], ["--by", "screen", "--where", "control=buy,config=spring-press"]] {
            for format in ["json", "csv", "table"] {
                let a = try Binary.run(["report", "--from", merged, "--format", format] + args)
                let b = try Binary.run(["report", "--db", db, "--format", format] + args)
                #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
                #expect(a.stdout == b.stdout, "\(args) \(format)")
            }
        }
    }

    /// FNV-1a 64 of `bytes` (offset basis 0xcbf29ce484222325, prime 0x100000001b3: the FNV
    /// reference, isthe.com/chongo/tech/comp/fnv), written here, independently of PressCore's.
    static func fnv1a64(_ bytes: some Sequence<UInt8>) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// A partial says what it summarises — per input the content hash of its bytes, its sessions
    /// and the first and last session id — and `merge` refuses partials holding the same sessions
    /// (the same input twice, a week with one of its days, a database's partial with its result
    /// lines') unless --allow-overlap; halves of one file merge. A version-1 partial (no sources)
    /// is still read, and merging it says what it lacks.
    @Test func mergeRefusesOverlappingPartials() throws {
        let (dir, log, db) = try ingestedLog(sessions: 600)
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        let lines = try Binary.run(["replay", "--input", log, "--quiet"])
        #expect(lines.status == 0, "\(lines.stderr)")
        let all = lines.stdout.split(separator: "\n").map(String.init)
        let half = all.count / 2
        try (all[..<half].joined(separator: "\n") + "\n").write(toFile: path("mon.ndjson"), atomically: true, encoding: .utf8)
        try (all[half...].joined(separator: "\n") + "\n").write(toFile: path("tue.ndjson"), atomically: true, encoding: .utf8)
        for day in ["mon", "tue"] {
            let r = try Binary.run(["aggregate", path("\(day).ndjson"), "--out", path("\(day).json")])
            #expect(r.status == 0, "\(r.stderr)")
        }
        // mon.json's source: the file's hash, its result lines' sessions and their extreme ids.
        let monBytes = try Data(contentsOf: URL(fileURLWithPath: path("mon.ndjson")))
        let ids = try objects(String(decoding: monBytes, as: UTF8.self)).filter { $0["type"] as? String == "result" }
            .map { $0["session"] as! String }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let mon = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("mon.json")))) as? [String: Any])
        #expect(mon["version"] as? Int == 2 && mon["unidentified_sessions"] as? Int == 0)
        let source = try #require((mon["sources"] as? [[String: Any]])?.first)
        #expect(source["name"] as? String == path("mon.ndjson") && source["content_hash"] as? String == Self.fnv1a64(monBytes))
        #expect(source["sessions"] as? Int == ids.count && source["first_session"] as? String == ids.first
                && source["last_session"] as? String == ids.last, "\(source)")

        let twice = try Binary.run(["merge", path("mon.json"), path("mon.json"), "--out", path("x.json")])
        #expect(twice.status == 1 && twice.stderr.contains("overlaps \(path("mon.json"))")
                && twice.stderr.contains("content hash \(Self.fnv1a64(monBytes))") && twice.stderr.contains("--allow-overlap"), "\(twice.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("x.json")))
        let allowed = try Binary.run(["merge", path("mon.json"), path("mon.json"), "--allow-overlap"])
        #expect(allowed.status == 0 && allowed.stdout.contains("\"unidentified_sessions\":0"))
        #expect(try Binary.run(["merge", path("mon.json"), path("tue.json"), "--out", path("week.json")]).status == 0)
        let again = try Binary.run(["merge", path("week.json"), path("tue.json")])
        #expect(again.status == 1 && again.stderr.contains("overlaps"), "\(again.stderr)")
        // The database's partial names the log, not these files: the shared sessions give it away.
        #expect(try Binary.run(["aggregate", "--db", db, "--out", path("db.json")]).status == 0)
        let mixed = try Binary.run(["merge", path("db.json"), path("mon.json")])
        #expect(mixed.status == 1 && mixed.stderr.contains("is in both"), "\(mixed.stderr)")

        // Version 1, as it was written before sources: still read, and merging it says what it lacks.
        let monText = try String(contentsOfFile: path("mon.json"), encoding: .utf8)
        let v1 = withoutSources(monText).replacingOccurrences(of: "\"version\":2,", with: "\"version\":1,")
        try v1.write(toFile: path("old.json"), atomically: true, encoding: .utf8)
        let fromOld = try Binary.run(["report", "--from", path("old.json"), "--format", "json"])
        let fromNew = try Binary.run(["report", "--from", path("mon.json"), "--format", "json"])
        #expect(fromOld.status == 0 && fromOld.stdout == fromNew.stdout, "\(fromOld.stderr)")
        let oldMerge = try Binary.run(["merge", path("old.json"), path("tue.json")])
        #expect(oldMerge.status == 0 && oldMerge.stderr.contains("no recorded source") && oldMerge.stderr.contains("old.json"), "\(oldMerge.stderr)")
        #expect(oldMerge.stdout.contains("\"unidentified_sessions\":\(ids.count)"))
    }

    /// `compare --from` prints what `compare` prints from the database — every row, note and
    /// warning — by variant, by config, by user (the default here) and by session, and with a filter.
    @Test func compareFromAPartialIsTheDatabaseCompare() throws {
        let (dir, _, db) = try ingestedLog()
        let partial = dir.appendingPathComponent("all.json").path
        #expect(try Binary.run(["aggregate", "--db", db, "--out", partial]).status == 0)
        for args in [["A", "B"], ["spring-press", "expand-delayed-click", "--by", "config"], ["A", "B", "--where", "screen=feed", "--unit", "session"],
                     ["A", "B", "--unit", "session"], ["A", "B", "--metric", "feedback_latency", "--alpha", "0.01"]] {
            for format in ["json", "csv", "table"] {
                let a = try Binary.run(["compare", "--from", partial, "--format", format] + args)
                let b = try Binary.run(["compare", "--db", db, "--format", format] + args)
                #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
                #expect(a.stdout == b.stdout && a.stderr == b.stderr, "\(args) \(format)")
            }
        }
        let empty = try Binary.run(["compare", "A", "C", "--from", partial])
        #expect(empty.status == 4 && empty.stderr.contains("no sessions for variant 'C'; variants with sessions: A ("))
        #expect(empty.stderr == (try Binary.run(["compare", "A", "C", "--db", db])).stderr)
        #expect(try Binary.run(["compare", "A", "B", "--from", partial, "--where", "user=u1"]).status == 2)
        // A partial's users are keyed by config and variant: by user, no --where on the other keys.
        let byScreen = try Binary.run(["compare", "A", "B", "--from", partial, "--where", "screen=feed"])
        #expect(byScreen.status == 2 && byScreen.stderr.contains("compare with --unit session"))
        #expect(try Binary.run(["compare", "A", "B", "--from", partial, "--paired"]).status == 2)
    }

    /// `--as`: the stream replayed as another configuration reports as the database does after
    /// `pressdb replay --as`.
    @Test func replayedAsAnotherConfiguration() throws {
        let (dir, log, db) = try ingestedLog(sessions: 500)
        #expect(try Binary.run(["replay", "--db", db, "--as", "longpress-safe-area", "--quiet"]).status == 0)
        let lines = try Binary.run(["replay", "--input", log, "--as", "longpress-safe-area", "--quiet"])
        let path = dir.appendingPathComponent("as.json").path
        #expect(try Binary.run(["aggregate", "-", "--out", path], stdin: lines.stdout).status == 0)
        let a = try Binary.run(["report", "--from", path, "--as", "longpress-safe-area", "--format", "json"])
        let b = try Binary.run(["report", "--db", db, "--as", "longpress-safe-area", "--format", "json"])
        #expect(a.status == 0 && a.stdout == b.stdout, "\(a.stderr)")
        let without = try Binary.run(["report", "--from", path])
        #expect(without.status == 2 && without.stderr.contains("add --as longpress-safe-area"))
        let fromDB = try Binary.run(["aggregate", "--db", db, "--as", "longpress-safe-area"])
        #expect(withoutSources(fromDB.stdout) == withoutSources(try String(contentsOfFile: path, encoding: .utf8)))
    }

    /// Rejects: `file:line: reason` on standard error, every one as NDJSON in --rejects FILE
    /// (or among the lines with --rejects -), exit status 3; with --origins the messages name
    /// each line's own origin.
    @Test func rejectsAndOrigins() throws {
        let dir = try Binary.temporaryDirectory()
        let log = [#"{"session":"a","t":0,"phase":"began","x":1,"y":1}"#, "not json",
                   #"{"session":"a","t":0.1,"phase":"ended","x":1,"y":1}"#, #"{"session":"b","t":0,"phase":"moved","x":1,"y":1}"#]
        let path = dir.appendingPathComponent("bad.ndjson").path
        try log.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let rejectsPath = dir.appendingPathComponent("rejects.ndjson").path
        let r = try Binary.run(["replay", "--input", path, "--rejects", rejectsPath])
        #expect(r.status == 3)
        #expect(r.stderr.contains("\(path):2: malformed JSON"))
        #expect(r.stderr.contains("\(path):4: session \"b\" does not start with \"began\""))
        let rejects = try objects(try String(contentsOfFile: rejectsPath, encoding: .utf8))
        #expect(rejects.map { $0["line"] as? Int } == [2, 4] && rejects[0]["raw"] as? String == "not json")
        #expect(try objects(r.stdout).map { $0["type"] as? String } == ["result"])

        let inline = try Binary.run(["replay", "--input", path, "--rejects", "-", "--quiet"])
        #expect(try objects(inline.stdout).map { $0["type"] as? String } == ["reject", "result", "reject"])

        let framed = log.enumerated().map { "logs/day-\($0.offset % 2).ndjson:\(100 + $0.offset)\t\($0.element)" }.joined(separator: "\n")
        let f = try Binary.run(["replay", "--input", "-", "--origins", "--input-format", "ndjson"], stdin: framed)
        #expect(f.status == 3)
        #expect(f.stderr.contains("logs/day-1.ndjson:101: malformed JSON"))
        #expect(f.stderr.contains("logs/day-1.ndjson:103: session \"b\""))
        // A session left open names the file of its first and of its latest record.
        let open = framed + "\nlogs/day-0.ndjson:7\t" + #"{"session":"c","t":0,"phase":"began","x":1,"y":1}"#
            + "\nlogs/day-1.ndjson:9\t" + #"{"session":"c","t":0.1,"phase":"moved","x":1,"y":1}"#
        let p = try objects(try Binary.run(["replay", "--input", "-", "--origins", "--input-format", "ndjson", "--quiet"], stdin: open).stdout)
            .filter { $0["type"] as? String == "pending" }
        #expect(p.count == 1 && p[0]["file"] as? String == "logs/day-0.ndjson" && p[0]["line"] as? Int == 7)
        #expect(p.first?["last_file"] as? String == "logs/day-1.ndjson" && p.first?["last_line"] as? Int == 9)
        let unframed = try Binary.run(["replay", "--input", "-", "--origins", "--input-format", "ndjson"], stdin: log[0])
        #expect(unframed.status == 1 && unframed.stderr.contains("does not start with its origin"))
        #expect(try Binary.run(["replay", "--input", "-", "--origins"], stdin: "").status == 2)
        #expect(try Binary.run(["replay", "--input", dir.appendingPathComponent("none").path]).status == 1)
        #expect(try Binary.run(["replay", "--input", path, "--session", "a"]).status == 2)
        let badLine = try Binary.run(["aggregate", "-"], stdin: "{\"type\":\"result\"}\n")
        #expect(badLine.status == 1 && badLine.stderr.contains("-:1: the result line has no \"config\""))
        #expect(try Binary.run(["aggregate", "-"], stdin: "").status == 4)
    }
}

@Suite struct SparkScriptTests {
    // Without PySpark the job says how to install it (the pinned requirements, Java 17) instead
    // of Python's bare "No module named 'pyspark'". `python3 -S` leaves site-packages out, so
    // pyspark cannot be imported even where it is installed.
    @Test func saysHowToInstallPySpark() throws {
        guard let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile) else {
            print("SparkScriptTests skipped: no python3")
            return
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let r = try RunningProcess.run(URL(fileURLWithPath: python),
                                       ["-S", root.appendingPathComponent("spark/pressdb_spark.py").path,
                                        "--input", "/nonexistent", "--output", "/nonexistent-out", "--pressdb", "/bin/false"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("PySpark is not installed") && r.stderr.contains("pip install -r spark/requirements.txt")
                && r.stderr.contains("openjdk-17-jre-headless"), "\(r.stderr)")
        #expect(!r.stderr.contains("Traceback"))
    }
}
