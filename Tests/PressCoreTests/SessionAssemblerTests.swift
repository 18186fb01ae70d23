import Testing
import PressCore

/// A test attribute: one optional label, conflicting when given twice differently.
struct Label: SessionMergeable, Equatable {
    var value: String?
    mutating func merge(_ later: Label) -> String? {
        guard let v = later.value else { return nil }
        if let old = value, old != v { return "label \(v) differs from \(old)" }
        value = v
        return nil
    }
}

@Suite struct SessionAssemblerTests {
    typealias A = SessionAssembler<Label, Int>
    func s(_ t: Double, _ phase: TouchPhase, x: Double = 0) -> TouchSample { TouchSample(t: t, x: x, y: 0, phase: phase) }

    @Test func interleavedSessionsCompleteIndependently() {
        var a = A()
        #expect(isAccepted(a.add(session: "1", sample: s(0, .began), meta: Label(value: "L"), at: 1)))
        #expect(isAccepted(a.add(session: "2", sample: s(0.01, .began), meta: Label(), at: 2)))
        #expect(isAccepted(a.add(session: "1", sample: s(0.02, .moved, x: 3), meta: Label(), at: 3)))
        guard case .completed(let two) = a.add(session: "2", sample: s(0.03, .cancelled), meta: Label(), at: 4) else {
            Issue.record("2 should complete"); return
        }
        #expect(two.samples.map(\.phase) == [.began, .cancelled] && two.first == 2 && two.last == 4)
        // Equal times are allowed (non-decreasing).
        guard case .completed(let one) = a.add(session: "1", sample: s(0.02, .ended, x: 3), meta: Label(value: "L"), at: 5) else {
            Issue.record("1 should complete"); return
        }
        #expect(one.samples.count == 3 && one.meta == Label(value: "L") && one.first == 1 && one.last == 5)
        #expect(a.open.isEmpty)
    }

    @Test func problemsRejectTheSampleAndTheSessionContinues() {
        var a = A()
        #expect(problem(a.add(session: "x", sample: s(0, .moved), meta: Label(), at: 1)) == .notOpen(.moved))
        _ = a.add(session: "x", sample: s(1, .began), meta: Label(value: "a"), at: 2)
        #expect(problem(a.add(session: "x", sample: s(1.5, .began), meta: Label(), at: 3)) == .secondBegan)
        #expect(problem(a.add(session: "x", sample: s(0.5, .moved), meta: Label(), at: 4))
                == .timeGoesBackwards(t: 0.5, previous: 1))
        #expect(problem(a.add(session: "x", sample: s(2, .moved), meta: Label(value: "b"), at: 5))
                == .attributeConflict("label b differs from a"))
        guard case .completed(let x) = a.add(session: "x", sample: s(3, .ended), meta: Label(), at: 6) else {
            Issue.record("should complete"); return
        }
        #expect(x.samples.map(\.t) == [1, 3])
        #expect(AssemblyProblem.timeGoesBackwards(t: 0.5, previous: 1).reason(session: "x")
                == "time goes backwards in session \"x\": t 0.5 is before the previous sample's 1.0")
    }

    @Test func resumeAndDrain() {
        var a = A()
        a.resume(OpenSession(id: "p", samples: [s(0, .began)], meta: Label(), first: 1, last: 1))
        _ = a.add(session: "q", sample: s(0, .began), meta: Label(), at: 2)
        #expect(isAccepted(a.add(session: "p", sample: s(1, .moved), meta: Label(), at: 3)))
        let open = a.drain()
        #expect(open.map(\.id) == ["p", "q"] && open[0].samples.count == 2)
        #expect(a.open.isEmpty)
    }

    func isAccepted(_ e: AssemblyEvent<Label, Int>) -> Bool { if case .accepted = e { return true }; return false }
    func problem(_ e: AssemblyEvent<Label, Int>) -> AssemblyProblem? { if case .rejected(let p) = e { return p }; return nil }
}

@Suite struct SessionAssemblerLateSampleTests {
    struct NoMeta: SessionMergeable { mutating func merge(_ later: NoMeta) -> String? { nil } }

    func sample(_ t: Double, _ phase: TouchPhase = .moved) -> TouchSample { TouchSample(t: t, x: t, y: 0, phase: phase) }

    @Test func aLateSampleGoesAfterEverySampleNotLaterThanIt() {
        var a = SessionAssembler<NoMeta, Int>()
        _ = a.add(session: "s", sample: sample(1, .began), meta: NoMeta(), at: 1)
        _ = a.add(session: "s", sample: sample(3), meta: NoMeta(), at: 2)
        _ = a.add(session: "s", sample: sample(5), meta: NoMeta(), at: 3)
        #expect(a.insertLate(session: "s", sample: sample(2), meta: nil, at: 4) == nil)
        #expect(a.insertLate(session: "s", sample: sample(3, .stationary), meta: nil, at: 5) == nil)
        #expect(a.samples(of: "s")?.map(\.t) == [1, 2, 3, 3, 5])
        #expect(a.samples(of: "s")?[3].phase == .stationary)   // after the equal time already there
        // Not before the began; an end that would not be last; a second began; no such session.
        #expect(a.insertLate(session: "s", sample: sample(0.5), meta: nil, at: 6) == .timeGoesBackwards(t: 0.5, previous: 5))
        #expect(a.insertLate(session: "s", sample: sample(4, .ended), meta: nil, at: 6) == .timeGoesBackwards(t: 4, previous: 5))
        #expect(a.insertLate(session: "s", sample: sample(4, .began), meta: nil, at: 6) == .secondBegan)
        #expect(a.insertLate(session: "x", sample: sample(4), meta: nil, at: 6) == .notOpen(.moved))
        #expect(a.samples(of: "s")?.count == 5)
        // An end at the last time is last: it completes through `add`.
        if case .completed(let s) = a.add(session: "s", sample: sample(5, .ended), meta: nil, empty: NoMeta(), at: 7) {
            #expect(s.samples.map(\.t) == [1, 2, 3, 3, 5, 5])
        } else { Issue.record("not completed") }
    }
}
