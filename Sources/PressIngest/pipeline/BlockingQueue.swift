// The hand-overs between pressdb's threads: a bounded first-in first-out queue (POSIX mutex
// and condition variable), a value behind a POSIX mutex, and a closure run on a thread of its own.
#if canImport(Glibc)
import Glibc
#endif

/// A bounded first-in first-out queue between producer and consumer threads. `push` waits
/// while the queue is full, `pop` while it is empty (for ever, or up to a timeout); `close`
/// ends the waiting on both sides.
///
///     let q = BlockingQueue<Int>(capacity: 8)
///     q.push(1)                        // producer
///     while let x = q.pop() { … }      // consumer: nil once closed and empty
package final class BlockingQueue<Element>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// The elements from `head` on; those before it were taken (nil, so nothing stays referenced).
    private var elements: [Element?] = []
    private var head = 0
    private let capacity: Int
    private var closed = false

    /// A queue holding at most `capacity` elements (`Int.max`: unbounded).
    package init(capacity: Int) {
        self.capacity = capacity
        pthread_mutex_init(mutex, nil)
        // Timed waits measure on the monotonic clock (a wall-clock change does not end them).
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(changed, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        changed.deallocate()
    }

    private var count: Int { elements.count - head }

    /// Appends `e`, waiting for room; returns false (without waiting or appending) once the
    /// queue is closed. `force` appends even when it is full or closed (a producer's last element).
    @discardableResult
    package func push(_ e: Element, force: Bool = false) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !force && !closed && count >= capacity { pthread_cond_wait(changed, mutex) }
        if closed && !force { return false }
        elements.append(e)
        pthread_cond_broadcast(changed)
        return true
    }

    /// The first element, waiting for one: for ever when `timeout` is nil, else up to `timeout`
    /// (zero: not at all). Nil when the time ran out, or when the queue is closed and empty.
    package func pop(timeout: Duration? = nil) -> Element? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if let timeout, timeout <= .zero {
            // No wait at all: `pthread_cond_timedwait` with a deadline already past still gave
            // the mutex up and slept until a timer woke the thread, often behind another thread
            // on its core. The ingesting thread looks for finished replays this way after every
            // chunk.
        } else if let timeout {
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            let (seconds, attoseconds) = timeout.components
            let nanoseconds = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
            deadline.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
            deadline.tv_nsec = nanoseconds % 1_000_000_000
            while count == 0 && !closed {
                if pthread_cond_timedwait(changed, mutex, &deadline) == ETIMEDOUT { break }
            }
        } else {
            while count == 0 && !closed { pthread_cond_wait(changed, mutex) }
        }
        guard count > 0 else { return nil }
        let e = elements[head].take()
        head += 1
        // Drop the taken slots once they outnumber the waiting elements (no shift on every pop).
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= count {
            elements.removeFirst(head)
            head = 0
        }
        pthread_cond_broadcast(changed)
        return e
    }

    /// Ends the waiting: `push` no longer waits or appends (except `force`), `pop` returns what
    /// is left, then nil.
    package func close() {
        pthread_mutex_lock(mutex)
        closed = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }
}

/// A value only touched while holding its POSIX mutex.
///
/// A POSIX mutex rather than the Synchronization module's `Mutex`: on Linux that one locks with
/// raw futex calls ThreadSanitizer cannot see, so every access made under it is reported as a
/// race (CI's `scripts/sanitize thread` failed on the sweep's sums that way), while
/// ThreadSanitizer intercepts `pthread_mutex_lock` and knows what it orders.
///
///     let n = Locked(0)
///     n.withLock { $0 += 1 }           // from any thread
public final class Locked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the value while holding the mutex; returns what `body` returns.
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

/// A closure run on a thread of its own. The work it captures is only ever touched by that
/// thread until it signals that it has finished (its callers' contract).
///
/// A POSIX thread rather than a Dispatch queue: ingest's two workers block in
/// `pthread_cond_wait`, and a global Dispatch queue runs at most one work item per core at
/// once, so on a one-core machine the second worker would never start while the first waits for
/// the ingesting thread, which waits for the second.
package struct ThreadWork: @unchecked Sendable {
    /// The thread's nice value above the process's (0: the same): a thread that feeds another
    /// gives way to it when the two share a core (Linux keeps a nice value per thread; elsewhere
    /// nothing changes).
    package var niceness: Int32 = 0
    package let run: () -> Void

    /// The niceness of ingest's reader and replay worker, which feed the ingesting thread: on
    /// two cores the three share them, and the ingesting thread's CPU time is the run's wall
    /// time, so it should not wait for a core behind them.
    package static let feederNiceness: Int32 = 5

    package init(niceness: Int32 = 0, _ run: @escaping () -> Void) {
        self.niceness = niceness
        self.run = run
    }

    /// Starts `run` on a new detached thread.
    package func start() {
        let context = Unmanaged.passRetained(Box(self)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            #if os(Linux)
            if box.work.niceness != 0 {
                // `who` 0 is the calling thread (setpriority(2), "Linux notes"); raising a nice
                // value needs no privilege. Best effort: a failure leaves it as it was.
                let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, current + box.work.niceness)
            }
            #endif
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
