// The store when things fail: a database whose creation failed is removed, one holding
// anything is kept; a stalled pipe; a writer waiting for a lock.
import Foundation
import Testing
import PressFormats
@testable import PressStore
@testable import PressSQLite
@testable import PressIngest

@Suite struct StoreFailureTests {
    /// Nothing committed — an empty file, or one SQLite created and switched to WAL with no
    /// schema — is removed with its -wal and -shm; a database with a schema, or with frames in
    /// its WAL, is kept.
    @Test func onlyADatabaseWithNothingCommittedIsRemoved() throws {
        let fm = FileManager.default
        let empty = try temporaryDatabasePath()
        #expect(fm.createFile(atPath: empty, contents: Data()))
        #expect(Schema.removeIfNothingCommitted(path: empty))
        #expect(!fm.fileExists(atPath: empty))

        let walOnly = try temporaryDatabasePath()
        do {
            let db = try Database(path: walOnly)
            try Schema.enableWAL(db)
        }
        #expect(fm.fileExists(atPath: walOnly))
        #expect(Schema.removeIfNothingCommitted(path: walOnly))
        #expect(Schema.files(of: walOnly).allSatisfy { !fm.fileExists(atPath: $0) })

        // Migrated, the connection still open (its commits are in the WAL), then closed
        // (checkpointed into the file): kept both times.
        let migrated = try temporaryDatabasePath()
        do {
            let db = try Schema.open(path: migrated)
            #expect(!Schema.removeIfNothingCommitted(path: migrated))
            _ = db
        }
        #expect(!Schema.removeIfNothingCommitted(path: migrated))
        #expect(try Schema.openReadOnly(path: migrated).userVersion == Schema.currentVersion)
        #expect(!Schema.removeIfNothingCommitted(path: migrated + ".missing"))
    }

    /// At the feed: records written to a pipe that then stalls are handed over
    /// at once (before: held until 2,048 items or the end), the next batch is `.idle` after the
    /// timeout, and more input then resumes the stream to its end. Stopped during a stall,
    /// `finish` does not wait for the reader blocked on the pipe.
    @Test func aStalledPipeIsHandedOverThenIdle() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        func send(_ sessions: ClosedRange<Int>) {
            let text = sessions.map { #"{"session":"s\#($0)","t":\#($0),"phase":"began","x":1,"y":1}"# + "\n" }.joined()
            _ = text.withCString { write(fds[1], $0, strlen($0)) }
        }
        let input = ByteInput(fileDescriptor: fds[0], name: "-")
        let feed = ReadAheadFeed(NDJSONReader(input), input: input, idleTimeout: .milliseconds(50))
        var read: [String] = []
        func next() throws -> FeedBatch {
            try feed.nextBatch { chunk in chunk.forEachItem { item, _ in if case .touch(let r) = item { read.append(r.session) } } }
        }
        send(1...3)
        var batch = try next()
        #expect(batch == .more && read == ["s1", "s2", "s3"])
        #expect(try next() == .idle)
        send(4...5)
        close(fds[1])
        repeat { batch = try next() } while batch != .end
        #expect(read == ["s1", "s2", "s3", "s4", "s5"])
        #expect(feed.finish() != nil)

        // Stopped early while the pipe stalls: finish returns (nil) instead of waiting.
        var stalled: [Int32] = [0, 0]
        #expect(pipe(&stalled) == 0)
        let stalledInput = ByteInput(fileDescriptor: stalled[0], name: "-")
        let early = ReadAheadFeed(NDJSONReader(stalledInput), input: stalledInput, idleTimeout: .milliseconds(50))
        #expect(try early.nextBatch { _ in } == .idle)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(early.finish() == nil)
        #expect(clock.now - start < .seconds(5))
        close(stalled[1])  // the reader sees the end and finishes on its own
        usleep(200_000)
        close(stalled[0])
    }

    /// At the connection: a writer waiting for the lock gave up after 5 s
    /// ("locked by another process for longer than 5 s") even while the lock kept changing
    /// hands — eight ingests, each holding it for batches of 0.5 s, starved one of them. Here
    /// another connection holds the lock for 7 s, committing a row every second and taking the
    /// lock again at once (no hand-off pause, so the waiter gets no gap to slip in). The
    /// waiter keeps waiting while those commits show progress (`PRAGMA data_version` changes),
    /// and gets the lock when the holder stops, after more than the 5 s an idle holder allows.
    // Disabled: the waiter often takes the lock in the holder's COMMIT–BEGIN gap (seen at load 2
    // and under AddressSanitizer), and then the run proves nothing. The guarantee is covered end
    // to end by IngestFailureTests.manyWritersAndAReaderShareOneDatabase; a holder that commits
    // without ever releasing the lock needs a second process with a lock of its own.
    @Test(.disabled("the waiter slips through the holder's COMMIT–BEGIN gap too often to prove anything"))
    func aWaitingWriterWaitsAsLongAsTheHolderCommits() throws {
        let path = try temporaryDatabasePath()
        _ = try Schema.open(path: path)
        let locked = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let holding = Thread {
            guard let holder = try? Database(path: path), (try? holder.begin()) != nil else { locked.signal(); done.signal(); return }
            locked.signal()
            for k in 0..<7 {
                usleep(1_000_000)
                try? holder.execute("INSERT INTO sources(name) VALUES ('holder \(k)'); COMMIT; BEGIN IMMEDIATE")
            }
            try? holder.commit()
            done.signal()
        }
        let waiter = try Database(path: path)
        let clock = ContinuousClock()
        holding.start()
        locked.wait()
        let start = clock.now
        let waited: Duration
        do {
            try waiter.begin()
            waited = clock.now - start
            try waiter.commit()
        } catch {
            Issue.record("the waiting writer gave up after \(clock.now - start): \(error)")
            done.wait()
            return
        }
        done.wait()
        #expect(waited > .seconds(5), "it got the lock after \(waited): through a gap, so this run proves nothing")
        #expect(try waiter.prepare("SELECT count(*) FROM sources").scalarInt() == 7)
    }
}
