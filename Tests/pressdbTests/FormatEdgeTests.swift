// Issue 15's format edges, end to end through the `pressdb` binary: what a user sees and what the
// database keeps.
import Foundation
import PressStore
import Testing

/// Every column of a query's rows as text ("NULL" for null), from the database at `db`.
func databaseRows(_ db: URL, _ sql: String) throws -> [[String]] {
    let database = try Database(path: db.path, readOnly: true)
    let statement = try database.prepare(sql)
    var out: [[String]] = []
    while try statement.step() {
        out.append((0..<statement.columnCount).map { statement.isNull($0) ? "NULL" : statement.text($0) })
    }
    return out
}

@Suite struct FormatEdgeTests {
    /// Item 1, the reproduction: header `session,t,phase,x,y,control`, row 2
    /// `c0,0,began,1,1,"oops`, then 1,000 valid sessions (two rows each). Before: exit 3, 0 sessions,
    /// one reject holding all 2,001 rows. Now: exit 3, the 1,000 sessions stored, one reject (line 2).
    @Test func anUnterminatedCSVQuoteRejectsOnlyItsRow() throws {
        let dir = try Binary.temporaryDirectory()
        var text = "session,t,phase,x,y,control\nc0,0,began,1,1,\"oops\n"
        for k in 1...1000 { text += "s\(k),\(k),began,1,1,\ns\(k),\(k).5,ended,1,1,\n" }
        try text.write(to: dir.appendingPathComponent("quote.csv"), atomically: true, encoding: .utf8)
        let r = try Binary.run(["ingest", "quote.csv", "--db", "q.sqlite"], directory: dir)
        #expect(r.status == 3, "\(r.stderr)")
        #expect(r.stderr.contains("quote.csv:2: malformed CSV: a quoted field opened on this line is not closed"), "\(r.stderr)")
        let db = dir.appendingPathComponent("q.sqlite")
        #expect(try databaseRows(db, "SELECT count(*) FROM sessions") == [["1000"]])
        #expect(try databaseRows(db, "SELECT line, raw FROM rejects") == [["2", "c0,0,began,1,1,\"oops"]])
    }
}
