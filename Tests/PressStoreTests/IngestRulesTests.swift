// The ingest rules of docs/log-format.md §3 on values alone, without a database.
import Testing
import Glibc
import PressCore
@testable import PressStore
@testable import PressIngest

private func samples(_ ts: [Double], x: Double = 1, last: TouchPhase = .ended) -> [TouchSample] {
    ts.enumerated().map { i, t in
        TouchSample(t: t, x: x, y: 2, phase: i == 0 ? .began : i == ts.count - 1 ? last : .moved)
    }
}

@Suite struct IngestRulesTests {
    @Test func aSampleWithoutItsSessionResumesPendingElseIsRejected() {
        let late = TouchSample(t: 9, x: 1, y: 2, phase: .moved)
        #expect(IngestRules.orphanSample(late, pendingToResume: true, stored: nil) == .resumePending)
        #expect(IngestRules.orphanSample(late, pendingToResume: false, stored: samples([1, 2, 3])) == .afterEnd)
        #expect(IngestRules.orphanSample(late, pendingToResume: false, stored: nil) == .notStarted)
    }

    // The samples of a stored session read again (a rotated log's second half
    // ingested twice) repeat it, bit for bit, wherever the search starts; another sample, or the
    // same one with another bit (−0.0 for 0.0), comes after its end.
    @Test func aSampleOfAStoredSessionReadAgainIsADuplicate() {
        let stored = samples([1, 2, 3, 4], x: 0)
        for hint in [0, 2, 3, 7, -1] {
            #expect(IngestRules.orphanSample(stored[2], pendingToResume: false, stored: stored, hint: hint) == .repeatsStored(index: 2))
            #expect(IngestRules.orphanSample(stored[3], pendingToResume: false, stored: stored, hint: hint) == .repeatsStored(index: 3))
        }
        let negativeZero = TouchSample(t: 2, x: -0.0, y: 2, phase: .moved)
        #expect(IngestRules.orphanSample(negativeZero, pendingToResume: false, stored: stored) == .afterEnd)
        #expect(IngestRules.orphanSample(TouchSample(t: 2, x: 0, y: 2, phase: .stationary), pendingToResume: false,
                                         stored: stored) == .afterEnd)
        #expect(IngestRules.orphanSample(stored[1], pendingToResume: true, stored: stored) == .resumePending)
    }

    // A session whose duration in milliseconds overflows (each time finite).
    @Test func aCompletedSessionWithoutAFiniteDurationIsRejected() {
        #expect(IngestRules.completed(samples([-1.7e308, 1.7e308]), startedOver: nil) == .durationNotFinite)
        #expect(IngestRules.completed(samples([0, 1e306]), startedOver: nil) == .durationNotFinite)  // 1e309 ms
        #expect(IngestRules.completed(samples([0, 1e305]), startedOver: nil) == .store)             // 1e308 ms
        #expect(IngestRules.completed(samples([5]), startedOver: nil) == .store)
    }

    @Test func aCompletedSessionStartedOverAPendingOneMustRereadIt() {
        let whole = samples([1, 2, 3])
        #expect(IngestRules.completed(whole, startedOver: nil) == .store)
        #expect(IngestRules.completed(whole, startedOver: Array(whole.prefix(2))) == .store)
        #expect(IngestRules.completed(whole, startedOver: samples([1, 2.5], last: .moved)) == .conflictsWithPending)
    }

    // Bit for bit, as the BLOB stores them: −0.0 and 0.0 differ although they compare equal.
    @Test func alreadyStoredIsADuplicateOnlyWhenEveryBitIsTheSame() {
        let a = samples([1, 2, 3])
        #expect(IngestRules.alreadyStored(a, stored: a) == .duplicate)
        #expect(IngestRules.alreadyStored(a, stored: samples([1, 2, 3.0000000000000004])) == .conflict)
        #expect(IngestRules.alreadyStored(samples([1, 2], x: 0), stored: samples([1, 2], x: -0.0)) == .conflict)
        #expect(samples([1, 2], x: 0) == samples([1, 2], x: -0.0))  // what `==` alone would miss
        #expect(IngestRules.alreadyStored(a, stored: samples([1, 2, 3], last: .cancelled)) == .conflict)
        #expect(IngestRules.alreadyStored(a, stored: Array(a.prefix(2))) == .conflict)
    }

    @Test func aSessionLeftOpenIsKeptUnlessItRepeatsOrContradicts() {
        let open = samples([1, 2], last: .moved)
        let longer = samples([1, 2, 3], last: .moved)
        // Resumed from pending: it extends that session.
        #expect(IngestRules.leftOpen(open, resumed: true, stored: nil, pending: nil) == .keepPending)
        // New.
        #expect(IngestRules.leftOpen(open, resumed: false, stored: nil, pending: nil) == .keepPending)
        // A stored complete session: a prefix of it is a re-read, anything else a conflict.
        #expect(IngestRules.leftOpen(open, resumed: false, stored: samples([1, 2, 3]), pending: nil) == .duplicate)
        #expect(IngestRules.leftOpen(open, resumed: false, stored: samples([1, 5, 6]), pending: nil) == .conflictsWithStored)
        // A pending session: extending it is kept, repeating it (whole or a prefix) a duplicate.
        #expect(IngestRules.leftOpen(longer, resumed: false, stored: nil, pending: open) == .keepPending)
        #expect(IngestRules.leftOpen(open, resumed: false, stored: nil, pending: open) == .duplicate)
        #expect(IngestRules.leftOpen(open, resumed: false, stored: nil, pending: longer) == .duplicate)
        #expect(IngestRules.leftOpen(samples([1, 4], last: .moved), resumed: false, stored: nil, pending: longer)
                == .conflictsWithPending)
    }
}

@Suite struct BlockingQueueTests {
    @Test func firstInFirstOutAcrossThreadsThenClosed() {
        let q = BlockingQueue<Int>(capacity: 2)
        // A thread of its own (not a task): push blocks while the queue is full.
        ThreadWork { for i in 0..<100 { q.push(i) }; q.close() }.start()
        var got: [Int] = []
        while let x = q.pop() { got.append(x) }
        #expect(got == Array(0..<100))
        #expect(!q.push(7) && q.pop() == nil)
        #expect(q.push(8, force: true) && q.pop() == 8)
    }

    // A taken element is not kept alive by the queue (a chunk read ahead is megabytes: keeping
    // the taken ones raised ingest's peak memory from 49 to 89 MB before this was caught).
    @Test func takenElementsAreReleased() {
        final class Box {}
        let q = BlockingQueue<Box>(capacity: 8)
        weak var first: Box?
        do {
            let b = Box()
            first = b
            q.push(b)
            q.push(Box()); q.push(Box())
        }
        _ = q.pop()
        #expect(first == nil)
    }

    // The idle wait an ingest of a stalled pipe needs: a pop that gives up after its timeout.
    @Test func popGivesUpAfterItsTimeout() {
        let q = BlockingQueue<Int>(capacity: 1)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(q.pop(timeout: .milliseconds(50)) == nil)
        #expect(clock.now - start >= .milliseconds(50))
        #expect(q.pop(timeout: .zero) == nil)
        #expect(q.pop(timeout: .milliseconds(-5)) == nil)  // a deadline already past: no wait either
        q.push(3)
        #expect(q.pop(timeout: .zero) == 3)
    }

    // The ingesting thread looks for finished replays after every chunk with a zero timeout;
    // each such look used to sleep until a timer woke the thread (`pthread_cond_timedwait` with
    // a deadline already past), about 48 ms of a 1.2 s ingest. A voluntary context switch is
    // the kernel's count of such sleeps (getrusage(2), RUSAGE_THREAD, `ru_nvcsw`): 200 looks at
    // an empty queue made about one each before, none now (a few allowed for the test runner).
    @Test func zeroTimeoutPopDoesNotSleep() {
        let q = BlockingQueue<Int>(capacity: 1)
        func voluntarySwitches() -> Int {
            var usage = rusage()
            getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD (1 in <bits/resource.h>; GNU-only, not imported)
            return usage.ru_nvcsw
        }
        let before = voluntarySwitches()
        for _ in 0..<200 { #expect(q.pop(timeout: .zero) == nil) }
        #expect(voluntarySwitches() - before < 10)
    }
}
