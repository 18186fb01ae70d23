// How large an ingest's batches are (IngestOptions.batchSessions, .batchFraction): a batch is at
// least a tenth of the database's sessions, so a large database is not rewritten batch after
// small batch.
import Testing
import PressCore
import PressFormats
@testable import PressStore
@testable import PressIngest

@Suite struct IngestBatchSizeTests {
    /// A store whose largest `sessions.id` is `largestID` (one stored session; the batch size
    /// counts the database's sessions as its largest id).
    static func store(largestID: Int) throws -> Store {
        let store = try Store.open(path: try temporaryDatabasePath())
        try store.db.execute("""
            INSERT INTO sessions(id, session, t0, t1, sample_count, end_phase, samples)
            VALUES (\(largestID), 'stored-before', 0, 0.1, 0, 'ended', x'')
            """)
        return store
    }

    /// Ingests 3,000 generated sessions with batches of 100 sessions or `fraction` of the
    /// database's, no time bound; the batches committed before the end.
    static func batches(largestID: Int, fraction: Double) throws -> Int {
        let store = try store(largestID: largestID)
        var options = IngestOptions()
        options.batchSessions = 100
        options.batchFraction = fraction
        options.batchSeconds = 3_600
        let ingester = try Ingester(store: store, options: options)
        let input = ByteInput(text: try syntheticLog(SyntheticLogConfiguration(sessions: 3_000, seed: 5)), name: "b.ndjson")
        var reader = NDJSONReader(input)
        try ingester.ingest(&reader, input: input)
        let committed = ingester.committedBatches
        #expect(try ingester.finish().sessionsNew == 3_000)
        return committed
    }

    // By hand: with 30,000 sessions stored, a batch is due once the run's k new sessions reach
    // a tenth of 30,000 + k, truncated, i.e. k ≥ 3,333: never within a 3,000-session run, which then
    // commits once, at its end. Without the fraction, batches of 100 sessions (checked a read
    // chunk at a time) commit many times. With 200 stored, a tenth is 20 + k / 10, below 100
    // until k = 800: batches of 100 at first, as without the fraction.
    @Test func aBatchIsATenthOfTheDatabaseWhenThatIsMore() throws {
        #expect(try Self.batches(largestID: 30_000, fraction: 0.1) == 0)
        #expect(try Self.batches(largestID: 30_000, fraction: 0) > 1)
        #expect(try Self.batches(largestID: 200, fraction: 0.1) > 1)
    }
}
