// `pressdb sweep`'s engine: the selected sessions are read from the database once and each is
// replayed under the base configuration and every point of the sweep; nothing per session is
// stored. Each worker thread counts its share of the sessions into per-point aggregates — the
// summary report's sufficient statistics (`SessionTally`, as partials count them) and, against
// the base, the per-unit sums of the paired tests (`PairedRatioSummary`) — and the shares are
// added up: the paired sums batch by batch in the order read (`SweepPairedSums`), the rest at
// the end.
#if canImport(Glibc)
import Glibc
#endif
import PressCore
import PressFormats
import PressStats
import Synchronization
import PressSQLite
import PressStore
import PressIngest

/// One configuration a sweep replays: the configuration, container parameters replacing those
/// of every session recorded in a scroll view (nil: the recorded containers), and the display
/// profile every session is replayed on (nil: each session's own, or `SweepOptions.displayOverride`).
public struct SweepCandidate: Sendable, Hashable {
    public var configuration: PressConfiguration
    public var containerOverride: ContainerOverride?
    public var display: DisplayProfile?
    public init(configuration: PressConfiguration, containerOverride: ContainerOverride? = nil, display: DisplayProfile? = nil) {
        self.configuration = configuration; self.containerOverride = containerOverride; self.display = display
    }
}

/// How a sweep runs.
public struct SweepOptions: Sendable {
    /// Worker threads (default: the processors online).
    public var jobs: Int
    /// `--where`: equalities on `PairedComparison.filterKeys` (session attributes; `config` is the
    /// session's own configuration, the default for sessions naming none).
    public var equals: [String: String]
    /// The display of sessions that name none (60 Hz, 3 px/pt, as stored results).
    public var display = Display()
    /// The display every session is replayed on (`--display`); nil: each session's own profile.
    public var displayOverride: Display?
    /// Added display profiles sessions may name (`ConfigurationCatalog.displays`).
    public var profiles: [String: DisplayProfile] = [:]
    /// The container of sessions that name none (`Replay.defaultContainer`).
    public var defaultContainer = Replay.defaultContainer
    /// The configuration sessions naming none count as for `--where config=…`.
    public var defaultConfig = Replay.defaultConfiguration.name
    /// Sessions per hand-over to a worker (a unit's sessions are never split).
    public var batchSize = 512
    /// Called after each batch with (sessions replayed so far, sessions selected), from any thread.
    public var progress: (@Sendable (Int, Int) -> Void)?
    /// Asked before each batch is handed over; true stops the sweep (`SweepResult.stopped`).
    public var shouldStop: (@Sendable () -> Bool)?

    public init(jobs: Int = SweepOptions.processors, equals: [String: String] = [:]) {
        self.jobs = max(1, jobs); self.equals = equals
    }

    /// The processors online (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1.
    public static var processors: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}

/// Why a sweep cannot run.
public enum SweepError: Error, CustomStringConvertible, Sendable {
    /// `--where` names a key that is not a session attribute filter.
    case badFilter(String)
    /// The filter selects no stored session.
    case noSessions(filter: String)

    public var description: String {
        switch self {
        case .badFilter(let m): return m
        case .noSessions(let f): return "no stored session matches \(f.isEmpty ? "(the database holds none)" : f)"
        }
    }
}

/// One configuration's counts over the sweep's sessions, and its paired sums against the base.
public struct SweepPointAggregate: Sendable, Hashable {
    /// The summary report's sufficient statistics over the sessions replayed under it (its
    /// columns: `Partial.summaryValues`), without the frustration signals.
    public var summary = SessionTally()
    /// Every release jump (pt) of those sessions by value, for the 90th percentile the sweep
    /// shows (the summary keeps only the largest).
    public var releaseJumpPt: [Double: Int] = [:]
    /// Every feedback latency on the glass (ms) by value (docs/press-model.md §5).
    public var feedbackPhotonMs: [Double: Int] = [:]
    /// Sessions whose replay failed under it (left out of `summary` and of the pairs).
    public var failures = 0
    /// Sessions replayed under both it and the base.
    public var pairs = 0
    /// Per event of `SessionEvent.outcomeEvents`, over units (users, or sessions): X = the unit's
    /// pairs, Y_A = those with the event under the base, Y_B = under this configuration.
    public var events = [PairedRatioSummary](repeating: .zero, count: SessionEvent.outcomeEvents.count)
    /// Over units with at least one pair that has a feedback latency under both: X = those
    /// pairs, Y_A and Y_B = their latencies' sums (ms) under the base and under this configuration.
    public var feedbackLatency = PairedRatioSummary.zero
    /// The same for action latency.
    public var actionLatency = PairedRatioSummary.zero

    public init() {}

    /// The paired sums of `event`.
    public func paired(_ event: SessionEvent) -> PairedRatioSummary { events[SessionEvent.outcomeEvents.firstIndex(of: event)!] }

    public static func + (a: SweepPointAggregate, b: SweepPointAggregate) -> SweepPointAggregate {
        var out = a
        out.summary += b.summary
        out.releaseJumpPt.merge(b.releaseJumpPt, uniquingKeysWith: +)
        out.feedbackPhotonMs.merge(b.feedbackPhotonMs, uniquingKeysWith: +)
        out.failures += b.failures
        out.pairs += b.pairs
        for i in out.events.indices { out.events[i] += b.events[i] }
        out.feedbackLatency += b.feedbackLatency
        out.actionLatency += b.actionLatency
        return out
    }
}

/// What a sweep counted.
public struct SweepResult: Sendable {
    /// Users when every selected session names one, else sessions: the clusters of the paired sums.
    public var unit: AnalysisUnit
    /// Sessions the filter selected, and units among them.
    public var sessions: Int
    public var units: Int
    /// The base configuration's aggregate (its paired sums are against itself).
    public var base: SweepPointAggregate
    /// One aggregate per candidate, in the order given.
    public var points: [SweepPointAggregate]
    /// The median duration of the base's taps (ms), for a typical tap; nil without taps.
    public var medianTapDurationMs: Double?
    /// Some sessions that could not be replayed, with the reason (at most 20).
    public var failures: [(session: String, reason: String)]
    /// The sweep stopped early (`SweepOptions.shouldStop`); the aggregates are partial.
    public var stopped: Bool
}

/// Replays the selected sessions under a base configuration and a list of candidates.
///
///     let runner = try SweepRunner(store: store, base: .springPress, candidates: points,
///                                  options: SweepOptions(equals: ["variant": "A"]))
///     let result = try runner.run()
///     result.points[0].summary.columns   // the summary report's row for the first point
///
/// The events of each result are the `result_events` view's (`ResultEventTable`); the sessions
/// are read in one pass (ordered by user when the unit is users, so that each user's sessions
/// reach one worker together), handed to `options.jobs` threads in batches, and every session
/// is classified once per distinct gesture model, action rule, action delay and container
/// override among the configurations (`Replay.trace(_:resolved:display:)` then runs each
/// configuration's animations, resolved once per sweep), which gives the same results as
/// replaying each configuration on its own.
public final class SweepRunner {
    public let store: Store
    public let base: PressConfiguration
    public let candidates: [SweepCandidate]
    public let options: SweepOptions
    let events: ResultEventTable
    /// The WHERE clause selecting sessions `s` by `options.equals`, and its values.
    let selection: (sql: String, values: [SQLValue])

    /// - Throws: `SweepError.badFilter`, `ResultEventTableError`, `DatabaseError`.
    public init(store: Store, base: PressConfiguration, candidates: [SweepCandidate], options: SweepOptions) throws {
        self.store = store; self.base = base; self.candidates = candidates; self.options = options
        self.events = try ResultEventTable()
        for key in options.equals.keys.sorted() where !PairedComparison.filterKeys.contains(key) {
            throw SweepError.badFilter("--where: '\(key)' is not one of \(PairedComparison.filterKeys.joined(separator: ", ")) "
                                       + "(a sweep selects sessions by what was recorded; outcomes differ from point to point)")
        }
        var replayOptions = ReplayOptions()
        replayOptions.defaultConfig = options.defaultConfig
        do {
            self.selection = try PairedComparison(store: store, options: replayOptions).selection(options.equals, first: 1)
        } catch let e as ComparisonError {
            throw SweepError.badFilter(e.description)
        }
    }

    /// The number of selected sessions, and of those naming a user.
    public func selectedSessions() throws -> (sessions: Int, withUser: Int) {
        let s = try store.db.prepare("SELECT count(*), count(s.user) FROM sessions AS s WHERE \(selection.sql)")
        s.bind(selection.values)
        _ = try s.step()
        return (s.int(0), s.int(1))
    }

    /// Replays every selected session under the base and every candidate.
    /// - Throws: `SweepError.noSessions`, `DatabaseError`, `SampleCodecError` (a damaged session).
    public func run() throws -> SweepResult {
        let (total, withUser) = try selectedSessions()
        guard total > 0 else { throw SweepError.noSessions(filter: PairedComparison.describe(options.equals)) }
        let unit: AnalysisUnit = withUser == total ? .user : .session
        var displays = ReplayOptions(display: options.display)
        displays.displayOverride = options.displayOverride
        displays.profiles = options.profiles
        let plan = SweepPlan(base: base, candidates: candidates, display: displays,
                             defaultContainer: options.defaultContainer, events: events)

        let queue = BlockingQueue<SweepBatch>(capacity: 2 * options.jobs)
        let finished = BlockingQueue<SweepWorker>(capacity: Int.max)
        let done = SweepCounter()
        let paired = SweepPairedSums(points: plan.configurations.count)
        for _ in 0..<options.jobs {
            let worker = SweepWorker(plan: plan)
            ThreadWork {
                while let batch = queue.pop() {
                    worker.process(batch)
                    paired.deliver(batch.index, worker.takePairedSums())
                    let n = done.add(batch.sessions.count)
                    self.options.progress?(n, total)
                }
                finished.push(worker)
            }.start()
        }

        var stopped = false
        var units = 0
        do {
            defer { queue.close() }
            let order = unit == .user ? "s.user, s.id" : "s.id"
            let statement = try store.db.prepare("""
                SELECT s.id, s.session, s.samples, s.variant_given, \(Store.attributeColumns)
                FROM sessions AS s WHERE \(selection.sql) ORDER BY \(order)
                """)
            statement.bind(selection.values)
            let cursor = SessionCursor(statement: statement)
            var batch = SweepBatch()
            var lastUser: String? = nil
            while let s = try cursor.next() {
                let newUnit = unit == .session || units == 0 || s.attributes[.user] != lastUser
                if newUnit {
                    if batch.sessions.count >= options.batchSize {
                        if let stop = options.shouldStop, stop() { stopped = true; break }
                        queue.push(batch)
                        batch = SweepBatch(index: batch.index + 1)
                    }
                    batch.unitStarts.append(batch.sessions.count)
                    units += 1
                    lastUser = s.attributes[.user]
                }
                batch.sessions.append(s)
            }
            if !stopped && !batch.sessions.isEmpty { queue.push(batch) }
        }
        var workers: [SweepWorker] = []
        for _ in 0..<options.jobs { workers.append(finished.pop()!) }

        var merged = workers[0].state
        for w in workers.dropFirst() { merged.merge(w.state) }
        for (i, p) in paired.total.enumerated() { merged.points[i] = merged.points[i] + p }
        return SweepResult(unit: unit, sessions: total, units: units, base: merged.points[0],
                           points: Array(merged.points.dropFirst()),
                           medianTapDurationMs: SessionTally.percentile(0.5, of: merged.baseTapDurations),
                           failures: merged.failures, stopped: stopped)
    }
}

// MARK: - Internals

/// Sessions handed to a worker: whole units (users, or single sessions).
struct SweepBatch: Sendable {
    /// Its place in the order batches are read: 0, 1, 2, …
    var index = 0
    var sessions: [StoredSession] = []
    /// The index in `sessions` where each unit starts.
    var unitStarts: [Int] = []
}

/// The sweep's floating-point sums — each point's paired sums — added up batch by batch in the
/// order the batches were read, whichever worker replayed them, so that a sweep gives the same
/// digits on every run (the addition of doubles is not associative, and which worker gets which
/// batch varies). The counts and histograms are whole numbers and add up in any order, so the
/// workers keep them until the end.
final class SweepPairedSums: Sendable {
    private struct State {
        /// Batches finished ahead of the next one in order.
        var waiting: [Int: [SweepPointAggregate]] = [:]
        var next = 0
        var total: [SweepPointAggregate]
    }
    private let state: Locked<State>

    init(points: Int) { state = Locked(State(total: Array(repeating: SweepPointAggregate(), count: points))) }

    /// Per configuration (0 = the base), the paired sums of the batches delivered in order so
    /// far; the other fields of each aggregate are empty.
    var total: [SweepPointAggregate] { state.withLock { $0.total } }

    /// Batch `index`'s paired sums (`SweepWorker.takePairedSums`).
    func deliver(_ index: Int, _ sums: [SweepPointAggregate]) {
        state.withLock { s in
            s.waiting[index] = sums
            while let next = s.waiting.removeValue(forKey: s.next) {
                for i in s.total.indices { s.total[i] = s.total[i] + next[i] }
                s.next += 1
            }
        }
    }
}

/// A thread-safe running total.
final class SweepCounter: Sendable {
    private let value = Atomic<Int>(0)
    /// Adds `n`; returns the new total.
    func add(_ n: Int) -> Int { value.add(n, ordering: .relaxed).newValue }
}

/// What every worker shares, read-only: the configurations grouped by what a classification
/// depends on, and the event table.
struct SweepPlan: @unchecked Sendable {
    /// Configurations that share a classification: the gesture model, action rule and delay, and
    /// the container override; `members` index `configurations` (0 = the base).
    struct Group {
        var representative: PressConfiguration
        var containerOverride: ContainerOverride?
        var members: [Int]
    }

    struct Key: Hashable {
        var gesture: GestureModel
        var actionRule: ActionRule
        var actionDelay: Double
        var containerOverride: ContainerOverride?
    }

    /// The base, then the candidates.
    let configurations: [PressConfiguration]
    /// Their animations, resolved once.
    let animations: [ResolvedPressAnimation]
    let groups: [Group]
    /// Resolves each session's display (`ReplayOptions.display(for:)`).
    let display: ReplayOptions
    /// Per configuration, the display a `--vary display=…` point replays every session on
    /// (nil: the session's own, from `display`).
    let displays: [Display?]
    /// Whether any configuration has its own display.
    let variesDisplay: Bool
    let defaultContainer: Container
    let events: ResultEventTable

    init(base: PressConfiguration, candidates: [SweepCandidate], display: ReplayOptions, defaultContainer: Container,
         events: ResultEventTable) {
        let all = [SweepCandidate(configuration: base)] + candidates
        configurations = all.map(\.configuration)
        animations = configurations.map { ResolvedPressAnimation($0.animation) }
        var groups: [Group] = []
        var index: [Key: Int] = [:]
        for (i, c) in all.enumerated() {
            let key = Key(gesture: c.configuration.gesture, actionRule: c.configuration.actionRule,
                          actionDelay: c.configuration.actionDelay,
                          containerOverride: c.containerOverride?.isEmpty == false ? c.containerOverride : nil)
            if let g = index[key] { groups[g].members.append(i) } else {
                index[key] = groups.count
                groups.append(Group(representative: c.configuration, containerOverride: key.containerOverride, members: [i]))
            }
        }
        self.groups = groups
        self.display = display
        displays = all.map { $0.display?.display }
        variesDisplay = displays.contains { $0 != nil }
        self.defaultContainer = defaultContainer
        self.events = events
    }
}

/// One worker's counts.
struct SweepState {
    /// Index 0: the base; then one per candidate.
    var points: [SweepPointAggregate]
    /// The base's tap durations (ms) by value.
    var baseTapDurations: [Double: Int] = [:]
    var failures: [(session: String, reason: String)] = []

    mutating func merge(_ other: SweepState) {
        for i in points.indices { points[i] = points[i] + other.points[i] }
        baseTapDurations.merge(other.baseTapDurations, uniquingKeysWith: +)
        failures += other.failures.prefix(max(0, 20 - failures.count))
    }
}

/// Replays batches on one thread and counts them into its own `SweepState`.
final class SweepWorker: @unchecked Sendable {
    let plan: SweepPlan
    var state: SweepState
    /// Per configuration, the current session's result (nil: its replay failed).
    private var results: [SessionResult?]
    private var masks: [UInt8]
    /// Per candidate (index i − 1 for configuration i), the current unit's running totals:
    /// `stride` values — pairs, events under the base (5), events under the candidate (5),
    /// feedback pairs, their sums under base and candidate, action pairs, their sums.
    private var unit: [Double]
    private static let eventCount = SessionEvent.outcomeEvents.count
    private static let stride = 1 + 2 * eventCount + 6

    init(plan: SweepPlan) {
        self.plan = plan
        let n = plan.configurations.count
        state = SweepState(points: Array(repeating: SweepPointAggregate(), count: n))
        results = Array(repeating: nil, count: n)
        masks = Array(repeating: 0, count: n)
        unit = Array(repeating: 0, count: (n - 1) * Self.stride)
    }

    func process(_ batch: SweepBatch) {
        for (u, start) in batch.unitStarts.enumerated() {
            let end = u + 1 < batch.unitStarts.count ? batch.unitStarts[u + 1] : batch.sessions.count
            for s in batch.sessions[start..<end] { replay(s) }
            endUnit()
        }
    }

    private func replay(_ s: StoredSession) {
        // The session's own display; a point of `--vary display=…` replays on its own instead, so
        // a session naming an unknown profile still counts there.
        var own: Display? = nil
        do { own = try plan.display.display(for: s.attributes) } catch {
            if state.failures.count < 20 { state.failures.append((s.session, "cannot be replayed: \(error)")) }
            guard plan.variesDisplay else {
                for m in results.indices { results[m] = nil; state.points[m].failures += 1 }
                return
            }
        }
        let recorded = s.attributes.container ?? plan.defaultContainer
        let axis = s.attributes.scrollAxis ?? Replay.defaultScrollAxis
        let edge = Replay.edgeHold(s.samples, s.attributes)
        for g in plan.groups {
            let container = g.containerOverride?.apply(to: recorded) ?? recorded
            // Only the results are kept: no array of control events (`keepingControlEvents`).
            let c = PressClassifier.classify(s.samples, frame: s.attributes.frame, container: container,
                                             scrollAxis: axis, configuration: g.representative,
                                             edge: edge, keepingControlEvents: false)
            for m in g.members {
                guard let display = plan.displays[m] ?? own else {
                    results[m] = nil
                    state.points[m].failures += 1
                    continue
                }
                do {
                    let r = try Replay.trace(c, resolved: plan.animations[m], display: display).result
                    results[m] = r
                    masks[m] = plan.events.mask(r)
                } catch {
                    results[m] = nil
                    state.points[m].failures += 1
                    if state.failures.count < 20 {
                        state.failures.append((s.session, "cannot be replayed as \(plan.configurations[m].name): \(error)"))
                    }
                }
            }
        }
        for m in results.indices {
            if let r = results[m] {
                state.points[m].summary.add(r, outcomeEvents: masks[m])
                state.points[m].releaseJumpPt[r.releaseJumpPt == 0 ? 0 : r.releaseJumpPt, default: 0] += 1
                if let f = r.feedbackPhotonMs { state.points[m].feedbackPhotonMs[f, default: 0] += 1 }
            }
        }
        guard let a = results[0] else { return }
        if a.outcome == .tap { state.baseTapDurations[a.durationMs == 0 ? 0 : a.durationMs, default: 0] += 1 }
        let ma = masks[0]
        let k = Self.eventCount
        unit.withUnsafeMutableBufferPointer { u in
            for m in 1..<results.count {
                guard let b = results[m] else { continue }
                let o = (m - 1) * Self.stride
                let mb = masks[m]
                u[o] += 1
                for e in 0..<k {
                    if ma & (1 << UInt8(e)) != 0 { u[o + 1 + e] += 1 }
                    if mb & (1 << UInt8(e)) != 0 { u[o + 1 + k + e] += 1 }
                }
                if let fa = a.feedbackLatencyMs, let fb = b.feedbackLatencyMs {
                    u[o + 1 + 2 * k] += 1; u[o + 2 + 2 * k] += fa; u[o + 3 + 2 * k] += fb
                }
                if let xa = a.actionLatencyMs, let xb = b.actionLatencyMs {
                    u[o + 4 + 2 * k] += 1; u[o + 5 + 2 * k] += xa; u[o + 6 + 2 * k] += xb
                }
            }
        }
    }

    /// The paired sums counted since the last call, each point's in an otherwise empty aggregate;
    /// they are zero in `state` afterwards.
    func takePairedSums() -> [SweepPointAggregate] {
        state.points.indices.map { i in
            var p = SweepPointAggregate()
            swap(&p.events, &state.points[i].events)
            swap(&p.feedbackLatency, &state.points[i].feedbackLatency)
            swap(&p.actionLatency, &state.points[i].actionLatency)
            return p
        }
    }

    /// Folds the unit's totals into each candidate's paired sums, and starts the next unit.
    private func endUnit() {
        let k = Self.eventCount
        for m in 1..<plan.configurations.count {
            let o = (m - 1) * Self.stride
            let pairs = unit[o]
            guard pairs > 0 else { continue }
            state.points[m].pairs += Int(pairs)
            for e in 0..<k {
                state.points[m].events[e].add(denominator: pairs, control: unit[o + 1 + e], treatment: unit[o + 1 + k + e])
            }
            if unit[o + 1 + 2 * k] > 0 {
                state.points[m].feedbackLatency.add(denominator: unit[o + 1 + 2 * k], control: unit[o + 2 + 2 * k],
                                                    treatment: unit[o + 3 + 2 * k])
            }
            if unit[o + 4 + 2 * k] > 0 {
                state.points[m].actionLatency.add(denominator: unit[o + 4 + 2 * k], control: unit[o + 5 + 2 * k],
                                                  treatment: unit[o + 6 + 2 * k])
            }
            for i in o..<(o + Self.stride) { unit[i] = 0 }
        }
    }
}

// MARK: - From a definition to the configurations

extension SweepDefinition {
    /// Checks every parameter against `base` — its path, then each of its values alone — and
    /// builds the configuration of every point (named `SweepDefinition.pointName`), before
    /// anything is replayed. `display` values are names among `displays` (the built-in and added
    /// profiles, `ConfigurationCatalog.allDisplays`).
    /// - Throws: `SweepDefinitionError` naming the `--vary` text and the value (or the point's
    ///   values) at fault, with ConfigurationJSON's reason.
    public func candidates(base: PressConfiguration, sweepID: Int64? = nil,
                           displays: [DisplayProfile] = DisplayProfile.builtIn) throws(SweepDefinitionError)
        -> (points: [SweepPoint], candidates: [SweepCandidate]) {
        func profile(_ v: CanonicalJSON) throws(SweepDefinitionError) -> DisplayProfile {
            let known = displays.map(\.name).joined(separator: ", ")
            guard case .string(let name) = v else {
                throw SweepDefinitionError(part: "", message: "expected a display profile's name (\(known)), got \(v.text)")
            }
            guard let p = displays.first(where: { $0.name == name }) else {
                throw SweepDefinitionError(part: "", message: "no display profile named '\(name)' (known: \(known)); "
                                           + "add one with 'pressdb displays add FILE.json'")
            }
            return p
        }
        for p in parameters {
            guard let first = p.values.first else { throw SweepDefinitionError(part: p.text, message: "no values") }
            do { try SweepPath.check(p.path, on: base, trying: first) } catch {
                throw SweepDefinitionError(part: p.text, message: error.description)
            }
            for v in p.values {
                do {
                    if SweepPath.isContainer(p.path) {
                        _ = try SweepPath.containerOverride([(p.path, v)])
                    } else if SweepPath.isDisplay(p.path) {
                        _ = try profile(v)
                    } else {
                        _ = try SweepPath.configuration(base, setting: [(p.path, v)], name: base.name)
                    }
                } catch {
                    throw SweepDefinitionError(part: p.text, message: "the value \(v.text) is refused: \(error.description)")
                }
            }
        }
        let points = try self.points()
        var candidates: [SweepCandidate] = []
        candidates.reserveCapacity(points.count)
        for point in points {
            let values = self.values(of: point)
            do {
                let c = try SweepPath.configuration(base, setting: values,
                                                    name: Self.pointName(base: base.name, sweep: sweepID, point: point.number))
                var display: DisplayProfile? = nil
                if let v = values.first(where: { SweepPath.isDisplay($0.path) }) { display = try profile(v.value) }
                candidates.append(SweepCandidate(configuration: c, containerOverride: try SweepPath.containerOverride(values),
                                                 display: display))
            } catch {
                let shown = values.map { "\($0.path)=\($0.value.text)" }.joined(separator: ", ")
                throw SweepDefinitionError(part: "point \(point.number) (\(shown))", message: error.description)
            }
        }
        return (points, candidates)
    }
}
