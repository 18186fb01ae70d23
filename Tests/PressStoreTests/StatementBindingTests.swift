import Testing
import CSQLite
import PressSQLite

/// Binds are checked: a bind SQLite refuses fails the statement's next step with SQLite's code,
/// and nothing runs with the parameter unbound.
@Suite struct StatementBindingTests {
    // SQLite: "If the parameter number is out of range, then SQLITE_RANGE is returned"
    // (sqlite.org/c3ref/bind_blob.html); SQLITE_RANGE is 25 (sqlite.org/rescode.html#range).
    @Test func aParameterTheSQLDoesNotHaveFailsTheStep() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(x)")
        let insert = try db.prepare("INSERT INTO t(x) VALUES (?1)")
        insert.bind(1, 7)
        insert.bind(2, "no such parameter")
        var failure: DatabaseError?
        do { try insert.run() } catch let e as DatabaseError { failure = e }
        #expect(failure?.code == 25)
        #expect(failure?.sql == "INSERT INTO t(x) VALUES (?1)")
        #expect(try db.prepare("SELECT count(*) FROM t").scalarInt() == 0)
    }

    // Each kind of bind is checked, not only integers: index 0 is out of range too (parameters
    // count from 1, sqlite.org/c3ref/bind_blob.html).
    @Test func everyKindOfBindIsChecked() throws {
        let db = try Database(path: ":memory:")
        let select = try db.prepare("SELECT ?1")
        let binds: [(Statement) -> Void] = [
            { $0.bindNull(0) }, { $0.bind(0, Int64(1)) }, { $0.bind(0, 1) }, { $0.bind(0, true) },
            { $0.bind(0, 1.5) }, { $0.bind(0, "text") }, { $0.bind(0, blob: [1, 2]) }, { $0.bind(0, blob: []) },
            { $0.bindBlob(0, count: 3) { $0.initializeMemory(as: UInt8.self, repeating: 9) } },
        ]
        for bind in binds {
            select.bind(1, 1)
            bind(select)
            #expect(throws: DatabaseError.self) { try select.step() }
        }
    }

    // After the failed step the statement is usable again: binding every parameter anew runs it.
    @Test func aStatementRunsAgainAfterAFailedBind() throws {
        let db = try Database(path: ":memory:")
        let select = try db.prepare("SELECT ?1")
        select.bind(3, 1)
        #expect(throws: DatabaseError.self) { try select.step() }
        select.bind(1, 42)
        #expect(try select.scalarInt() == 42)
    }
}
