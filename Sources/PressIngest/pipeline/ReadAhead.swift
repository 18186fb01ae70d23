// Where the ingest loop's items come from: a record source read on the ingesting thread, or on
// a thread of its own so that parsing (one core) overlaps SQLite and replay (the other). Either
// way the loop gets the same items in the same order, in chunks (`RecordChunk`: columns, the
// raw text of each touch record's line kept for a reject found later by session assembly).
import Dispatch
import PressCore
import Synchronization
import PressFormats
import PressSQLite
import PressStore

/// How a batch of items ended.
enum FeedBatch {
    /// More items may follow (the loop may commit and check for a stop here).
    case more
    /// Nothing arrived within the feed's idle timeout: a batch of no items, more may follow.
    case idle
    /// No item follows: the input is read to its end.
    case end
}

/// Items to ingest, in input order, a chunk at a time.
protocol RecordFeed {
    /// Calls `body` with the next batch's items, a `RecordChunk`; says whether more follow.
    /// `bytesRead` is the input's byte count after the batch.
    /// - Throws: what `body` throws, and `InputError` when the input cannot be read (after the
    ///   items read before the failure).
    mutating func nextBatch(_ body: (RecordChunk) throws -> Void) throws -> FeedBatch
    /// `ByteInput.bytesRead` after the last batch (for progress).
    var bytesRead: Int { get }
}

/// Reads the source on the calling thread: a batch is the next `batchItems` items.
struct InlineFeed<Source: ChunkedRecordSource>: RecordFeed {
    /// Items per batch: 4,096 (how often the loop checks for a stop and a due commit).
    static var batchItems: Int { 4_096 }

    var source: Source
    let input: ByteInput
    private var chunk = RecordChunk(capacity: 0)
    var bytesRead: Int { input.bytesRead }

    init(source: Source, input: ByteInput) {
        self.source = source
        self.input = input
    }

    mutating func nextBatch(_ body: (RecordChunk) throws -> Void) throws -> FeedBatch {
        chunk.removeAll()
        let read: ChunkRead
        do { read = try source.read(into: &chunk, limit: Self.batchItems, yieldingBeforeWait: false) } catch {
            try body(chunk)
            throw error
        }
        try body(chunk)
        return read == .end ? .end : .more
    }
}

/// Items read ahead, in input order, and what the reader knew when it handed them over.
struct ReadChunk: @unchecked Sendable {
    var records: RecordChunk
    /// The error `read` threw after the last item (an `InputError`); the chunk is the last.
    var error: (any Error)?
    /// No item follows.
    var isLast = false

    init(capacity: Int) { records = RecordChunk(capacity: capacity) }
}

/// Runs the source's `read(into:…)` on a thread of its own, handing chunks over through a
/// `BlockingQueue`. Only the reader thread touches the source and its input until it has
/// finished; a batch is one chunk. A chunk is handed over when it is full, at the end, and
/// when the input is about to make the reader wait (`ByteInput.nextLine(yieldingBeforeWait:)`:
/// a stalled pipe), so what was read is ingested — and committed — while the writer stalls.
///
///     var feed = ReadAheadFeed(source, input: input, idleTimeout: .milliseconds(100))
///     while try feed.nextBatch({ chunk in … }) != .end {}
///     source = feed.finish() ?? source
final class ReadAheadFeed<Source: ChunkedRecordSource>: RecordFeed, @unchecked Sendable {
    /// Items per chunk: small enough that the consumer starts at once, large enough that the
    /// hand-over (a lock and a wake-up) costs nothing per item.
    static var chunkItems: Int { 2_048 }
    /// Chunks read ahead at most (memory stays flat: a few MB).
    static var chunksAhead: Int { 8 }
    /// How long `finish` waits for a reader that was stopped early to end: a reader blocked in
    /// `read(2)` on a stalled pipe is left to end when its input does.
    static var stopWait: DispatchTimeInterval { .milliseconds(100) }

    /// How long `nextBatch` waits for a chunk before it returns `.idle` — when the reader waits
    /// for input — nil: for ever. (A stalled pipe then still gives the loop its batch
    /// boundaries: commits on time, a stop request. A reader that is only slow gives none: the
    /// batches stay what they are without a stall.)
    let idleTimeout: Duration?
    /// Set by the reader when it is about to wait for input, cleared when a read returns after it.
    private let readerWaits = Atomic<Bool>(false)
    /// Touched by the reader thread only, until `finished` is signalled.
    private var source: Source
    private let input: ByteInput
    private let queue = BlockingQueue<ReadChunk>(capacity: ReadAheadFeed.chunksAhead)
    private let finished = DispatchSemaphore(value: 0)
    private var sawLast = false
    private(set) var bytesRead = 0

    init(_ source: Source, input: ByteInput, idleTimeout: Duration? = nil) {
        self.source = source
        self.input = input
        self.idleTimeout = idleTimeout
        ThreadWork(niceness: ThreadWork.feederNiceness) { self.read() }.start()
    }

    private func read() {
        // A local copy, put back before `finished` is signalled: calling a method on the stored
        // property copied the whole reader for every item.
        var source = self.source
        var chunk = ReadChunk(capacity: Self.chunkItems)
        while true {
            do {
                let read = try source.read(into: &chunk.records, limit: Self.chunkItems, yieldingBeforeWait: true)
                if read == .end { chunk.isLast = true; break }
                let waits = read == .wouldWait
                if !chunk.records.isEmpty {
                    chunk.records.bytesRead = input.bytesRead
                    guard queue.push(chunk) else { chunk = ReadChunk(capacity: 0); chunk.isLast = true; break }
                    chunk = ReadChunk(capacity: Self.chunkItems)
                }
                readerWaits.store(waits, ordering: .releasing)
            } catch {
                chunk.error = error
                chunk.isLast = true
                break
            }
        }
        // Before the last chunk goes: once it is taken the ingesting thread reads the input.
        chunk.records.bytesRead = input.bytesRead
        self.source = source
        queue.push(chunk, force: true)
        finished.signal()
    }

    func nextBatch(_ body: (RecordChunk) throws -> Void) throws -> FeedBatch {
        var next = queue.pop(timeout: idleTimeout)
        while next == nil, idleTimeout != nil, !readerWaits.load(ordering: .acquiring) { next = queue.pop(timeout: idleTimeout) }
        guard let chunk = next else { return .idle }
        if chunk.isLast { sawLast = true }
        try body(chunk.records)
        bytesRead = chunk.records.bytesRead
        if let error = chunk.error { throw error }
        return chunk.isLast ? .end : .more
    }

    /// Stops the reader (when the consumer gives up early), waits for its thread to end, and
    /// returns the source as the reader left it. A reader stopped early that does not end within
    /// `stopWait` — it waits for a stalled pipe — is left to end when its input does (it holds
    /// its own references, and pushes nothing more): nil, and the source must not be used again.
    func finish() -> Source? {
        if !sawLast {
            queue.close()
            while let c = queue.pop(timeout: .zero), !c.isLast {}
            sawLast = true
            return finished.wait(timeout: .now() + Self.stopWait) == .success ? source : nil
        }
        finished.wait()
        return source
    }
}
