// Reports cannot change the database: filters are bound parameters (a quote-laden variant name
// is data, not SQL), and user-supplied report files run on a read-only connection.
import Foundation
import PressTestSupport
import Testing

@Suite struct ReportSafetyTests {
    static let evil = #"O'Brien"; DROP TABLE sessions; --"#

    /// Five taps: three in the variant named like an injection, two in "A".
    func database() throws -> (dir: URL, db: URL) {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("p.sqlite")
        // JSON-escape the name: the quote becomes \" (RFC 8259 §7).
        let variant = Self.evil.replacingOccurrences(of: "\"", with: "\\\"")
        var log = ""
        for (k, v) in [variant, variant, variant, "A", "A"].enumerated() {
            log += #"{"session":"s\#(k)","t":\#(k).0,"phase":"began","x":100,"y":200,"config":"spring-press","variant":"\#(v)"}"# + "\n"
            log += #"{"session":"s\#(k)","t":\#(k).08,"phase":"ended","x":100,"y":200}"# + "\n"
        }
        let r = try Binary.run(["ingest", "--db", db.path, "-q"], stdin: log)
        #expect(r.status == 0, "\(r.stderr)")
        return (dir, db)
    }

    func sessionCount(_ db: URL) throws -> String { try sqlite3(db, "SELECT count(*) FROM sessions").stdout }

    @Test func filterValuesAreBoundNotPasted() throws {
        let (_, db) = try database()
        let r = try Binary.run(["report", "sessions", "--db", db.path, "--where", "variant=\(Self.evil)", "--format", "csv"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = r.stdout.split(separator: "\n")
        // A header and the three sessions of that variant, which appears in them as data.
        #expect(rows.count == 4, "\(r.stdout)")
        #expect(rows.dropFirst().allSatisfy { $0.contains("O'Brien") }, "\(r.stdout)")
        #expect(try sessionCount(db) == "5\n")
    }

    @Test func userReportsCannotWrite() throws {
        let (dir, db) = try database()
        let reports = dir.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        let attempts = [
            "drop": "DROP TABLE sessions;",
            "delete": "DELETE FROM sessions;",
            "insert": "INSERT INTO sessions(session, t0, t1, sample_count, end_phase, samples) VALUES ('x', 0, 0, 0, 'ended', x'');",
        ]
        for (name, sql) in attempts {
            try ("-- Tries to write.\n" + sql + "\n").write(to: reports.appendingPathComponent(name + ".sql"), atomically: true, encoding: .utf8)
        }
        for name in attempts.keys.sorted() {
            let r = try Binary.run(["report", name, "--db", db.path, "--reports", reports.path])
            #expect(r.status != 0, "\(name): \(r.stdout)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(name): \(r.stderr)")
            #expect(try sessionCount(db) == "5\n", "\(name)")
        }
    }
}
