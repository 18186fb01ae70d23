// Session assembly: a stream of samples, keyed by session id and possibly interleaved, becomes
// complete sessions (began … ended|cancelled). Pure: no I/O; the caller stores what comes out.

/// Attributes carried by a session's records and merged as they arrive.
public protocol SessionMergeable {
    /// Adds `later`'s values to `self`. A value given again identically is fine; a different
    /// value for something already given is a conflict: `self` is left unchanged and the reason
    /// is returned (one sentence).
    mutating func merge(_ later: Self) -> String?
}

/// A session being assembled: its samples so far, merged attributes, and where its first and
/// latest records came from (`Location` is the caller's, e.g. a file id and line).
public struct OpenSession<Meta, Location> {
    public var id: String
    public var samples: [TouchSample]
    public var meta: Meta
    public var first: Location
    public var last: Location
    @inlinable
    public init(id: String, samples: [TouchSample], meta: Meta, first: Location, last: Location) {
        self.id = id; self.samples = samples; self.meta = meta; self.first = first; self.last = last
    }
}

/// Why a sample cannot join its session. The sample is dropped (the caller rejects its line)
/// and the session goes on without it.
public enum AssemblyProblem: Hashable, Sendable {
    /// A sample (not `began`) for a session that is not open here. The caller decides between
    /// "does not start with began", "after the end" (the session is already stored) or resuming
    /// a pending session (then it calls `resume` and `add` again).
    case notOpen(TouchPhase)
    /// A `began` while the session is still open.
    case secondBegan
    /// `t` is smaller than the previous sample's (equal times are fine).
    case timeGoesBackwards(t: Double, previous: Double)
    /// The record's attributes contradict the session's (the reason from `SessionMergeable`).
    case attributeConflict(String)

    /// One sentence for the reject message.
    public func reason(session: String) -> String {
        let s = "session \"\(session)\""
        switch self {
        case .notOpen(let phase):
            return "\(s) does not start with \"began\" (this \"\(phase.rawValue)\" sample has no open session)"
        case .secondBegan:
            return "second \"began\" in \(s), which is still open"
        case let .timeGoesBackwards(t, previous):
            return "time goes backwards in \(s): t \(t) is before the previous sample's \(previous)"
        case .attributeConflict(let r):
            return "\(r) in \(s)"
        }
    }
}

/// What `add` did with a sample.
public enum AssemblyEvent<Meta, Location> {
    /// The sample joined an open session (or began a new one).
    case accepted
    /// The sample was `ended` or `cancelled`: the session is complete and no longer open.
    case completed(OpenSession<Meta, Location>)
    /// The sample was not added.
    case rejected(AssemblyProblem)
}

/// Assembles interleaved samples into sessions. A session is complete when it starts with
/// `began`, its times never decrease, and it ends with exactly one `ended` or `cancelled`.
/// Only open sessions are held, so memory is bounded by the number of fingers down at once, not
/// by the input's length.
///
///     var a = SessionAssembler<MyMeta, Int>()
///     switch a.add(session: "s1", sample: began, meta: m, at: 1) { … }
///
/// A caller adding many samples of one session (ingest, a chunk of records at a time) looks its
/// open session up once (`handle(of:)`) and adds the rest through the handle
/// (`add(_:to:at:)`): no lookup by id per sample.
///
/// The methods are `@inlinable` so callers in other modules get code specialised for their
/// `Meta` and `Location` (ingest calls `add` once per record).
public struct SessionAssembler<Meta: SessionMergeable, Location> {
    /// Open sessions in slots that stay put while the session is open (freed slots are reused).
    @usableFromInline var slots: [OpenSession<Meta, Location>?] = []
    /// Per slot, the serial number of the session in it: a handle names a slot and a serial, so
    /// a handle kept after its session completed never reaches the session reusing the slot.
    @usableFromInline var serials: [Int] = []
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var slotByID: [String: Int] = [:]
    @usableFromInline var nextSerial = 0

    /// An open session, as `handle(of:)` found it; valid until that session completes or is
    /// drained (then `add(_:to:at:)` says so).
    public struct Handle: Hashable, Sendable {
        @usableFromInline let slot: Int
        @usableFromInline let serial: Int
        @inlinable init(slot: Int, serial: Int) { self.slot = slot; self.serial = serial }
    }

    /// The open sessions by id.
    public var open: [String: OpenSession<Meta, Location>] {
        slotByID.mapValues { slots[$0]! }
    }

    @inlinable public init() {}

    /// Samples a new session's array has room for before it grows: most sessions have fewer,
    /// so most never reallocate. 16 samples are 512 bytes, held only while the session is open.
    @inlinable static var samplesReserved: Int { 16 }

    @inlinable public func isOpen(_ id: String) -> Bool { slotByID[id] != nil }

    /// The open session `id`, nil when it is not open.
    @inlinable public func handle(of id: String) -> Handle? {
        guard let slot = slotByID[id] else { return nil }
        return Handle(slot: slot, serial: serials[slot])
    }

    @inlinable mutating func insert(_ session: OpenSession<Meta, Location>) {
        nextSerial += 1
        let slot: Int
        if let reused = freeSlots.popLast() {
            slot = reused
            slots[slot] = session
            serials[slot] = nextSerial
        } else {
            slot = slots.count
            slots.append(session)
            serials.append(nextSerial)
        }
        slotByID[session.id] = slot
    }

    @inlinable mutating func remove(slot: Int) -> OpenSession<Meta, Location> {
        let s = slots[slot].take()!
        slotByID[s.id] = nil
        serials[slot] = 0
        freeSlots.append(slot)
        return s
    }

    /// Re-opens a session stored as pending by an earlier run, so later samples complete it.
    @inlinable public mutating func resume(_ session: OpenSession<Meta, Location>) {
        if let slot = slotByID[session.id] { _ = remove(slot: slot) }
        insert(session)
    }

    /// Adds one sample of session `id`.
    @inlinable public mutating func add(session id: String, sample: TouchSample, meta: Meta, at location: Location)
        -> AssemblyEvent<Meta, Location>
    {
        add(session: id, sample: sample, meta: .some(meta), empty: meta, at: location)
    }

    /// Adds one sample of session `id` whose record may carry no attributes (`meta` nil: nothing
    /// to merge, and a session it begins starts with `empty`). Most records carry none, so this
    /// saves building and merging an empty value per record.
    @inlinable public mutating func add(session id: String, sample: TouchSample, meta: Meta?,
                                        empty: @autoclosure () -> Meta, at location: Location)
        -> AssemblyEvent<Meta, Location>
    {
        guard let slot = slotByID[id] else {
            guard sample.phase == .began else { return .rejected(.notOpen(sample.phase)) }
            var samples: [TouchSample] = []
            samples.reserveCapacity(Self.samplesReserved)
            samples.append(sample)
            insert(OpenSession(id: id, samples: samples, meta: meta ?? empty(), first: location, last: location))
            return .accepted
        }
        return add(sample, meta: meta, slot: slot, at: location)
    }

    /// Adds a sample without attributes to the open session `handle` names; nil (nothing done)
    /// when that session is no longer open: look it up again by id.
    @inlinable public mutating func add(_ sample: TouchSample, to handle: Handle, at location: Location)
        -> AssemblyEvent<Meta, Location>?
    {
        guard handle.slot < serials.count, serials[handle.slot] == handle.serial else { return nil }
        return add(sample, meta: nil, slot: handle.slot, at: location)
    }

    @inlinable mutating func add(_ sample: TouchSample, meta: Meta?, slot: Int, at location: Location)
        -> AssemblyEvent<Meta, Location>
    {
        // Mutate in place through the slot (no copy of the samples).
        var problem: AssemblyProblem?
        var done = false
        slots[slot]!.withMutable { s in
            if sample.phase == .began { problem = .secondBegan; return }
            let previous = s.samples[s.samples.count - 1].t
            if sample.t < previous { problem = .timeGoesBackwards(t: sample.t, previous: previous); return }
            if let meta, let conflict = s.meta.merge(meta) { problem = .attributeConflict(conflict); return }
            s.samples.append(sample)
            s.last = location
            done = sample.phase.isTerminal
        }
        if let problem { return .rejected(problem) }
        if done { return .completed(remove(slot: slot)) }
        return .accepted
    }

    /// Puts a sample that came after later ones of its open session (a row out of time order)
    /// at its place in time: after every sample not later than it. Nil when done; else why not,
    /// and nothing changes: the session is not open, the sample is a `began` (a second one), an
    /// `ended`/`cancelled` earlier than samples already there (the end would not be last), or
    /// earlier than the session's `began`, or its attributes conflict.
    @inlinable public mutating func insertLate(session id: String, sample: TouchSample, meta: Meta?, at location: Location)
        -> AssemblyProblem?
    {
        guard let slot = slotByID[id] else { return .notOpen(sample.phase) }
        var problem: AssemblyProblem?
        slots[slot]!.withMutable { s in
            if sample.phase == .began { problem = .secondBegan; return }
            var k = s.samples.count
            while k > 0, s.samples[k - 1].t > sample.t { k -= 1 }
            if k == 0 || (sample.phase.isTerminal && k < s.samples.count) {
                problem = .timeGoesBackwards(t: sample.t, previous: s.samples[s.samples.count - 1].t)
                return
            }
            if let meta, let conflict = s.meta.merge(meta) { problem = .attributeConflict(conflict); return }
            s.samples.insert(sample, at: k)
            s.last = location
        }
        return problem
    }

    /// The samples of the open session `id`, nil when it is not open.
    @inlinable public func samples(of id: String) -> [TouchSample]? {
        slotByID[id].map { slots[$0]!.samples }
    }

    /// Lets `body` change every open session in place (e.g. to renumber locations).
    @inlinable public mutating func updateOpenSessions(_ body: (inout OpenSession<Meta, Location>) -> Void) {
        for slot in slots.indices where slots[slot] != nil { slots[slot]!.withMutable(body) }
    }

    /// Removes and returns every open session, ordered by id (for the end of an input: the
    /// caller keeps them as pending).
    @inlinable public mutating func drain() -> [OpenSession<Meta, Location>] {
        let all = slots.compactMap { $0 }.sorted { $0.id < $1.id }
        slots.removeAll()
        serials.removeAll()
        freeSlots.removeAll()
        slotByID.removeAll()
        return all
    }
}

extension OpenSession {
    @inlinable mutating func withMutable(_ body: (inout OpenSession) -> Void) { body(&self) }
}
