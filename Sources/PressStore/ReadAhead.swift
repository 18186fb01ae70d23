// Where the ingest loop's items come from: a record source read on the ingesting thread, or on
// a thread of its own so that parsing (one core) overlaps SQLite and replay (the other). Either
// way the loop gets the same items in the same order, in batches, each with the raw text of its
// line for a reject found later (by session assembly).
import Dispatch
import PressCore
import Synchronization
import PressFormats

/// How a batch of items ended.
enum FeedBatch {
    /// More items may follow (the loop may commit and check for a stop here).
    case more
    /// Nothing arrived within the feed's idle timeout: a batch of no items, more may follow.
    case idle
    /// No item follows: the input is read to its end.
    case end
}

/// Items to ingest, in input order, a batch at a time.
protocol RecordFeed {
    /// Calls `body` with each item of the next batch and a function giving its line's raw text;
    /// says whether more follow. `bytesRead` is the input's byte count after the batch.
    /// - Throws: what `body` throws, and `InputError` when the input cannot be read (after the
    ///   items read before the failure).
    mutating func nextBatch(_ body: (RecordItem, () -> String) throws -> Void) throws -> FeedBatch
    /// `ByteInput.bytesRead` after the last batch (for progress).
    var bytesRead: Int { get }
}

/// Reads the source on the calling thread: a batch is the next `batchItems` items, each handed
/// on as soon as it is read (its raw text, when asked for, is the source's `lastRaw`).
struct InlineFeed<Source: RecordSource>: RecordFeed {
    /// Items per batch: 4,096 (how often the loop checks for a stop and a due commit).
    static var batchItems: Int { 4_096 }

    var source: Source
    let input: ByteInput
    var bytesRead: Int { input.bytesRead }

    mutating func nextBatch(_ body: (RecordItem, () -> String) throws -> Void) throws -> FeedBatch {
        for _ in 0..<Self.batchItems {
            guard let item = try source.next() else { return .end }
            try body(item, { source.lastRaw })
        }
        return .more
    }
}

/// Items read ahead, in input order, and what the reader knew when it handed them over.
struct ReadChunk: @unchecked Sendable {
    var items: [RecordItem] = []
    /// Raw bytes of the touch records' lines, back to back; `rawEnds[i]` ends item `i`'s.
    var raw: [UInt8] = []
    var rawEnds: [Int] = []
    /// `ByteInput.bytesRead` after the last item (for progress).
    var bytesRead = 0
    /// The error `next()` threw after the last item (an `InputError`); the chunk is the last.
    var error: (any Error)?
    /// No item follows.
    var isLast = false

    init(capacity: Int) {
        items.reserveCapacity(capacity)
        rawEnds.reserveCapacity(capacity)
        raw.reserveCapacity(capacity * 128)
    }

    /// Item `i`'s line as the source's `lastRaw` gives it.
    func rawText(_ i: Int) -> String {
        let start = i == 0 ? 0 : rawEnds[i - 1]
        return raw.withUnsafeBufferPointer { b in
            String(decoding: UnsafeBufferPointer(rebasing: b[start..<rawEnds[i]]), as: UTF8.self)
        }
    }
}

/// Runs `source.next()` on a thread of its own, handing items over in chunks through a
/// `BlockingQueue`. Only the reader thread touches the source and its input until it has
/// finished; a batch is one chunk. A chunk is handed over when it is full, at the end, and
/// when the input is about to make the reader wait (`ByteInput.beforeWaiting`: a stalled pipe),
/// so what was read is ingested — and committed — while the writer stalls.
///
///     var feed = ReadAheadFeed(source, input: input, idleTimeout: .milliseconds(100))
///     while try feed.nextBatch({ item, raw in … }) != .end {}
///     source = feed.finish() ?? source
final class ReadAheadFeed<Source: RawLineSource>: RecordFeed, @unchecked Sendable {
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
    /// Set by the reader just before a read that will wait for input, cleared when an item is
    /// read after it.
    private let readerWaits = Atomic<Bool>(false)
    /// Touched by the reader thread only, until `finished` is signalled.
    private var source: Source
    private let input: ByteInput
    /// The chunk being filled; touched by the reader thread only.
    private var chunk = ReadChunk(capacity: 0)
    private let queue = BlockingQueue<ReadChunk>(capacity: ReadAheadFeed.chunksAhead)
    private let finished = DispatchSemaphore(value: 0)
    private var sawLast = false
    private(set) var bytesRead = 0

    init(_ source: Source, input: ByteInput, idleTimeout: Duration? = nil) {
        self.source = source
        self.input = input
        self.idleTimeout = idleTimeout
        ThreadWork { self.read() }.start()
    }

    /// Hands over the chunk being filled, if it holds anything (false: the queue is closed).
    @discardableResult
    private func handOver() -> Bool {
        guard !chunk.items.isEmpty else { return true }
        chunk.bytesRead = input.bytesRead
        let accepted = queue.push(chunk)
        chunk = ReadChunk(capacity: Self.chunkItems)
        return accepted
    }

    private func read() {
        chunk = ReadChunk(capacity: Self.chunkItems)
        input.beforeWaiting = { [unowned self] in
            self.handOver()
            self.readerWaits.store(true, ordering: .releasing)
        }
        while true {
            do {
                let next = try source.next()
                readerWaits.store(false, ordering: .releasing)
                guard let item = next else { chunk.isLast = true; break }
                if case .touch = item { source.withLastRawBytes { chunk.raw.append(contentsOf: $0) } }
                chunk.rawEnds.append(chunk.raw.count)
                chunk.items.append(item)
                if chunk.items.count == Self.chunkItems {
                    guard handOver() else { chunk = ReadChunk(capacity: 0); chunk.isLast = true; break }
                }
            } catch {
                chunk.error = error
                chunk.isLast = true
                break
            }
        }
        // Before the last chunk goes: once it is taken the ingesting thread reads the input.
        input.beforeWaiting = nil
        chunk.bytesRead = input.bytesRead
        queue.push(chunk, force: true)
        finished.signal()
    }

    func nextBatch(_ body: (RecordItem, () -> String) throws -> Void) throws -> FeedBatch {
        var next = queue.pop(timeout: idleTimeout)
        while next == nil, idleTimeout != nil, !readerWaits.load(ordering: .acquiring) { next = queue.pop(timeout: idleTimeout) }
        guard let chunk = next else { return .idle }
        if chunk.isLast { sawLast = true }
        for i in chunk.items.indices { try body(chunk.items[i], { chunk.rawText(i) }) }
        bytesRead = chunk.bytesRead
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
