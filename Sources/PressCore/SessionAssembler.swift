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
/// The methods are `@inlinable` so callers in other modules get code specialised for their
/// `Meta` and `Location` (ingest calls `add` once per record).
public struct SessionAssembler<Meta: SessionMergeable, Location> {
    @usableFromInline var storage: [String: OpenSession<Meta, Location>] = [:]

    /// The open sessions by id.
    public var open: [String: OpenSession<Meta, Location>] { storage }

    @inlinable public init() {}

    @inlinable public func isOpen(_ id: String) -> Bool { storage[id] != nil }

    /// Re-opens a session stored as pending by an earlier run, so later samples complete it.
    @inlinable public mutating func resume(_ session: OpenSession<Meta, Location>) { storage[session.id] = session }

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
        guard let index = storage.index(forKey: id) else {
            guard sample.phase == .began else { return .rejected(.notOpen(sample.phase)) }
            storage[id] = OpenSession(id: id, samples: [sample], meta: meta ?? empty(), first: location, last: location)
            return .accepted
        }
        // Mutate in place through the dictionary's storage (no copy of the samples).
        var problem: AssemblyProblem?
        var done = false
        storage.values[index].withMutable { s in
            if sample.phase == .began { problem = .secondBegan; return }
            let previous = s.samples[s.samples.count - 1].t
            if sample.t < previous { problem = .timeGoesBackwards(t: sample.t, previous: previous); return }
            if let meta, let conflict = s.meta.merge(meta) { problem = .attributeConflict(conflict); return }
            s.samples.append(sample)
            s.last = location
            done = sample.phase.isTerminal
        }
        if let problem { return .rejected(problem) }
        if done { return .completed(storage.remove(at: index).value) }
        return .accepted
    }

    /// Lets `body` change every open session in place (e.g. to renumber locations).
    @inlinable public mutating func updateOpenSessions(_ body: (inout OpenSession<Meta, Location>) -> Void) {
        for index in storage.indices { storage.values[index].withMutable(body) }
    }

    /// Removes and returns every open session, ordered by id (for the end of an input: the
    /// caller keeps them as pending).
    @inlinable public mutating func drain() -> [OpenSession<Meta, Location>] {
        let all = storage.values.sorted { $0.id < $1.id }
        storage.removeAll()
        return all
    }
}

extension OpenSession {
    @inlinable mutating func withMutable(_ body: (inout OpenSession) -> Void) { body(&self) }
}
