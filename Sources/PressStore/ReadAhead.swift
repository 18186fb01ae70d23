// Reading ahead: a record source parses on its own thread while ingest stores what it has read,
// so parsing (one core) overlaps SQLite and replay (the other). Only the reader thread touches
// the source and its input until the reader has finished; only the ingesting thread touches the
// database. Items arrive in order, in chunks, with the raw bytes of each touch record's line so
// that a reject found later (by session assembly) still stores the line exactly.
import Dispatch
import PressCore
import PressFormats
#if canImport(Glibc)
import Glibc
#endif

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

/// A bounded first-in first-out queue between one producer and one consumer thread (POSIX
/// mutex and condition variables). `push` waits while it is full unless the queue is closed.
final class BlockingQueue<Element>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var elements: [Element] = []
    private var head = 0
    private let capacity: Int
    private var closed = false

    init(capacity: Int) {
        self.capacity = capacity
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        changed.deallocate()
    }

    /// Appends `e`, waiting for room; returns false (without waiting) once the queue is closed.
    /// `force` appends even when it is full or closed (the producer's last element).
    @discardableResult
    func push(_ e: Element, force: Bool = false) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !force && !closed && elements.count - head >= capacity { pthread_cond_wait(changed, mutex) }
        if closed && !force { return false }
        elements.append(e)
        pthread_cond_broadcast(changed)
        return true
    }

    /// The first element, waiting for one.
    func pop() -> Element {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while elements.count == head { pthread_cond_wait(changed, mutex) }
        let e = elements[head]
        head += 1
        // Drop what was taken (it would stay referenced), without shifting on every pop.
        if head == elements.count { elements.removeAll(keepingCapacity: true); head = 0 } else if head >= capacity {
            elements.removeFirst(head)
            head = 0
        }
        pthread_cond_broadcast(changed)
        return e
    }

    /// Tells the producer to stop: `push` no longer waits or appends (except `force`).
    func close() {
        pthread_mutex_lock(mutex)
        closed = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    var isClosed: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return closed
    }
}

/// A closure run on a thread of its own. The work it captures is only ever touched by that
/// thread until it signals that it has finished (the callers' contract above).
///
/// A POSIX thread rather than a Dispatch queue: both workers block in `pthread_cond_wait`, and a
/// global Dispatch queue runs at most one work item per core at once, so on a one-core machine
/// the second worker would never start while the first waits for the ingesting thread, which
/// waits for the second.
struct ThreadWork: @unchecked Sendable {
    let run: () -> Void

    /// Starts `run` on a new detached thread.
    func start() {
        let context = Unmanaged.passRetained(Box(self)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.work.run()
            return nil
        }, context)
        precondition(rc == 0, "pthread_create failed (\(rc))")
        pthread_detach(thread)
    }

    private final class Box {
        let work: ThreadWork
        init(_ work: ThreadWork) { self.work = work }
    }
}

/// Runs `source.next()` on a thread of its own, handing items over in chunks.
///
///     let ahead = ReadAhead(source, input: input)
///     while true { let c = ahead.next(); …; if c.isLast { break } }
///     source = ahead.finish()
final class ReadAhead<Source: RawLineSource>: @unchecked Sendable {
    /// Items per chunk: small enough that the consumer starts at once, large enough that the
    /// hand-over (a lock and a wake-up) costs nothing per item.
    static var chunkItems: Int { 2_048 }
    /// Chunks read ahead at most (memory stays flat: a few MB).
    static var chunksAhead: Int { 8 }

    /// Touched by the reader thread only, until `finished` is signalled.
    private var source: Source
    private let input: ByteInput
    private let queue = BlockingQueue<ReadChunk>(capacity: ReadAhead.chunksAhead)
    private let finished = DispatchSemaphore(value: 0)
    private var sawLast = false

    init(_ source: Source, input: ByteInput) {
        self.source = source
        self.input = input
        ThreadWork { self.read() }.start()
    }

    private func read() {
        var chunk = ReadChunk(capacity: Self.chunkItems)
        while true {
            do {
                guard let item = try source.next() else { chunk.isLast = true; break }
                if case .touch = item { source.withLastRawBytes { chunk.raw.append(contentsOf: $0) } }
                chunk.rawEnds.append(chunk.raw.count)
                chunk.items.append(item)
                if chunk.items.count == Self.chunkItems {
                    chunk.bytesRead = input.bytesRead
                    guard queue.push(chunk) else { chunk = ReadChunk(capacity: 0); chunk.isLast = true; break }
                    chunk = ReadChunk(capacity: Self.chunkItems)
                }
            } catch {
                chunk.error = error
                chunk.isLast = true
                break
            }
        }
        chunk.bytesRead = input.bytesRead
        queue.push(chunk, force: true)
        finished.signal()
    }

    /// The next chunk, waiting for it. Do not call again after a chunk with `isLast`.
    func next() -> ReadChunk {
        let c = queue.pop()
        if c.isLast { sawLast = true }
        return c
    }

    /// Stops the reader (when the consumer gives up early), waits for its thread to end, and
    /// returns the source as the reader left it.
    func finish() -> Source {
        if !sawLast {
            queue.close()
            while !queue.pop().isLast {}
            sawLast = true
        }
        finished.wait()
        return source
    }
}

/// One stored session to replay on the worker: everything `Replayer.row` needs, by value.
struct ReplayJob: Sendable {
    var id: Int64
    var samples: [TouchSample]
    var attributes: SessionAttributes
    var configuration: PressConfiguration
}

/// Replays stored sessions on a thread of its own (pure work: no database), handing the result
/// rows back in submission order. The ingesting thread submits jobs and takes rows.
final class ReplayWorker: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs: [[ReplayJob]] = []
    /// Rows done, in submission order; nil for a session that cannot be replayed.
    private var rows: [ResultRow?] = []
    /// Jobs submitted and not yet taken back as rows.
    private var outstanding = 0
    private var stopping = false
    private let stopped = DispatchSemaphore(value: 0)
    private let options: ReplayOptions

    init(options: ReplayOptions) {
        self.options = options
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
        ThreadWork { self.work() }.start()
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        changed.deallocate()
    }

    /// Queues `batch` for replay.
    func submit(_ batch: [ReplayJob]) {
        guard !batch.isEmpty else { return }
        pthread_mutex_lock(mutex)
        jobs.append(batch)
        outstanding += batch.count
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    /// The rows finished so far (`all`: waits until every submitted job is finished), in
    /// submission order; nil marks a session that cannot be replayed.
    func take(all: Bool) -> [ResultRow?] {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while all && rows.count < outstanding { pthread_cond_wait(changed, mutex) }
        let done = rows
        rows.removeAll(keepingCapacity: true)
        outstanding -= done.count
        return done
    }

    /// Ends the worker thread (after the jobs already queued) and waits for it.
    func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
        stopped.wait()
    }

    private func work() {
        while true {
            pthread_mutex_lock(mutex)
            while jobs.isEmpty && !stopping { pthread_cond_wait(changed, mutex) }
            if jobs.isEmpty { pthread_mutex_unlock(mutex); break }
            let batch = jobs.removeFirst()
            pthread_mutex_unlock(mutex)
            var done: [ResultRow?] = []
            done.reserveCapacity(batch.count)
            for job in batch { done.append(Self.row(job, options: options)) }
            pthread_mutex_lock(mutex)
            rows.append(contentsOf: done)
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
        }
        stopped.signal()
    }

    /// The result row of one job (`Replayer.row`), nil when it cannot be replayed.
    static func row(_ j: ReplayJob, options: ReplayOptions) -> ResultRow? {
        try? Replayer.row(id: j.id, samples: j.samples, attributes: j.attributes, under: j.configuration,
                          counterfactual: false, options: options)
    }
}
