import CSQLite
import Testing
@testable import PressStore
@testable import PressAnalysis

/// Runs `sql` on a fresh in-memory connection with the report functions and returns the first
/// column of the first row (nil for NULL).
private func scalar(_ sql: String) throws -> Double? {
    var db: OpaquePointer?
    #expect(sqlite3_open(":memory:", &db) == SQLITE_OK)
    defer { sqlite3_close(db) }
    #expect(registerReportFunctions(db!) == SQLITE_OK)
    var stmt: OpaquePointer?
    #expect(sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK)
    defer { sqlite3_finalize(stmt) }
    let rc = sqlite3_step(stmt)
    if rc != SQLITE_ROW { throw SQLFunctionError(message: String(cString: sqlite3_errmsg(db))) }
    return sqlite3_column_type(stmt, 0) == SQLITE_NULL ? nil : sqlite3_column_double(stmt, 0)
}

private struct SQLFunctionError: Error { var message: String }

@Suite struct ReportFunctionsTests {
    // Published Wilson 95 % intervals (Newcombe 1998):
    // 130/1000 → 0.110564 to 0.152268; 0/20 → 0 to 0.161125.
    @Test func wilsonMatchesPublishedIntervals() throws {
        #expect(abs(try #require(try scalar("SELECT wilson_low(130, 1000)")) - 0.110564) < 1e-6)
        #expect(abs(try #require(try scalar("SELECT wilson_high(130, 1000)")) - 0.152268) < 1e-6)
        #expect(try scalar("SELECT wilson_low(0, 20)") == 0)
        #expect(abs(try #require(try scalar("SELECT wilson_high(0, 20)")) - 0.161125) < 1e-6)
        #expect(try scalar("SELECT wilson_low(0, 0)") == nil)
        #expect(throws: SQLFunctionError.self) { try scalar("SELECT wilson_low(5, 3)") }
    }

    // NumPy's default (type 7): np.percentile([1..10], 90) = 9.1, median 5.5, p0 = 1, p100 = 10.
    @Test func percentileIsType7() throws {
        let values = "(SELECT value AS v FROM json_each('[10,3,1,2,4,5,6,7,8,9]'))"
        #expect(abs(try #require(try scalar("SELECT percentile(v, 0.9) FROM \(values)")) - 9.1) < 1e-12)
        #expect(try scalar("SELECT percentile(v, 0.5) FROM \(values)") == 5.5)
        #expect(try scalar("SELECT percentile(v, 0) FROM \(values)") == 1)
        #expect(try scalar("SELECT percentile(v, 1) FROM \(values)") == 10)
        // NULLs are skipped; an empty group gives NULL.
        #expect(try scalar("SELECT percentile(v, 0.5) FROM (SELECT NULL AS v UNION ALL SELECT 4)") == 4)
        #expect(try scalar("SELECT percentile(v, 0.5) FROM (SELECT 1 AS v) WHERE v > 1") == nil)
        #expect(throws: SQLFunctionError.self) { try scalar("SELECT percentile(v, 2) FROM \(values)") }
    }

    // Values with infinities. Before, any ±inf made the result NULL (NaN from
    // inf − inf, or from 0·inf at an exact order statistic). Type 7 read as the weighted mean
    // (1 − g)·x₍ⱼ₎ + g·x₍ⱼ₊₁₎ (h = (n − 1)·f, j = ⌊h⌋, g = h − j; a term of weight 0 left out)
    // is the usual a + g·(b − a) for finite values and defined with infinities; the values
    // below follow from it by hand. (NumPy 2 is no reference here: np.percentile([1, 2, inf], 50)
    // is nan, and np.percentile([-1.7e308, 1.7e308], 50) is -inf from the overflowing b − a.)
    @Test func percentileOfValuesWithInfinities() throws {
        func p(_ values: [String], _ f: Double) throws -> Double? {
            try scalar("SELECT percentile(v, \(f)) FROM (" + values.map { "SELECT \($0) AS v" }.joined(separator: " UNION ALL ") + ")")
        }
        let inf = "9e999", minusInf = "-9e999"
        #expect(try p(["1", "2", inf], 0.5) == 2)            // h = 1, g = 0: x₍₂₎
        #expect(try p(["1", "2", inf], 0.75) == .infinity)   // h = 1.5: ½·2 + ½·∞
        #expect(try p(["1", "2", inf], 1) == .infinity)
        #expect(try p([minusInf, "1", "2"], 0) == -.infinity)
        #expect(try p([minusInf, "1", "2"], 0.25) == -.infinity)  // ½·(−∞) + ½·1
        #expect(try p([minusInf, "1", "2"], 0.5) == 1)
        #expect(try p([inf, inf], 0.5) == .infinity)
        #expect(try p([minusInf, "1", inf], 0.5) == 1)
        // −∞ and +∞ both weighted: no value (NULL, as the weighted mean is undefined).
        #expect(try p([minusInf, inf], 0.5) == nil)
        // Finite values whose difference overflows: ½·(−1.7e308) + ½·1.7e308 = 0;
        // ¾·(−1.7e308) + ¼·1.7e308 = −8.5e307.
        #expect(try p(["-1.7e308", "1.7e308"], 0.5) == 0)
        let quarter = try #require(try p(["-1.7e308", "1.7e308"], 0.25))
        #expect(abs(quarter / -8.5e307 - 1) < 1e-15)
    }
}
