// Partial aggregates: the mergeable sufficient statistics of replayed sessions, from which
// `pressdb report --from` and `pressdb compare --from` print what they print from a database
// holding the same sessions. `pressdb aggregate` makes one (from result lines or a database),
// `pressdb merge` adds them up. The file format is versioned and documented field by field in
// docs/scale-out.md ("The partial format").
import PressCore
import PressFormats
import PressStats
import PressSQLite
import PressStore
import PressIngest

/// Why a partial cannot be read, made or merged.
public struct PartialError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// One replayed session as an aggregate sees it: the values of its report keys, its user, its
/// per-session events and the figures the statistics read.
public struct AggregatedSession: Sendable {
    /// `Partial.groupKeys`' values, in that order (`config` is the configuration replayed,
    /// `variant` the arm as stored, as in `session_results`).
    public var group: [String?]
    public var user: String?
    /// Per `SessionEvent.allCases`: whether it occurred.
    public var events: [Bool]
    public var feedbackLatencyMs: Double?
    public var actionLatencyMs: Double?
    public var feedbackPhotonMs: Double?
    public var releaseJumpPt: Double
    public init(group: [String?], user: String?, events: [Bool], feedbackLatencyMs: Double?,
                actionLatencyMs: Double?, feedbackPhotonMs: Double? = nil, releaseJumpPt: Double) {
        self.group = group; self.user = user; self.events = events
        self.feedbackLatencyMs = feedbackLatencyMs; self.actionLatencyMs = actionLatencyMs
        self.feedbackPhotonMs = feedbackPhotonMs; self.releaseJumpPt = releaseJumpPt
    }
}

extension SessionTally {
    public mutating func add(_ s: AggregatedSession) {
        for (i, e) in s.events.enumerated() where e { events[i] += 1 }
        addFigures(s.feedbackLatencyMs, s.actionLatencyMs, s.releaseJumpPt)
        if let p = s.feedbackPhotonMs { feedbackPhotonMs[p == 0 ? 0 : p, default: 0] += 1 }
    }

    /// Adds `b` as `+=` does, every count with checked arithmetic.
    /// - Throws: `PartialError` when a count would pass `Partial.maxSessions`.
    public mutating func add(checked b: SessionTally) throws {
        func sum(_ x: Int, _ y: Int) throws -> Int {
            let (s, overflow) = x.addingReportingOverflow(y)
            guard !overflow, s <= Partial.maxSessions else { throw Partial.tooMany(x, y) }
            return s
        }
        sessions = try sum(sessions, b.sessions)
        for i in events.indices { events[i] = try sum(events[i], b.events[i]) }
        for (v, c) in b.feedbackLatencyMs { feedbackLatencyMs[v] = try sum(feedbackLatencyMs[v] ?? 0, c) }
        for (v, c) in b.actionLatencyMs { actionLatencyMs[v] = try sum(actionLatencyMs[v] ?? 0, c) }
        for (v, c) in b.feedbackPhotonMs { feedbackPhotonMs[v] = try sum(feedbackPhotonMs[v] ?? 0, c) }
        releaseJumpPtMax = max(releaseJumpPtMax, b.releaseJumpPtMax)
    }

    /// Why these counts cannot be one set of sessions, or nil when they can: no event is counted
    /// in more sessions than there are, no histogram holds more latencies than sessions (each
    /// session has at most one of each), and every latency is a finite time from touch-down, so
    /// not negative.
    public var inconsistency: String? {
        for (name, n) in zip(Partial.eventNames, events) where n > sessions {
            return "\(n) sessions with \(name) among \(sessions) sessions"
        }
        for (name, h) in [("feedback_latency_ms", feedbackLatencyMs), ("action_latency_ms", actionLatencyMs),
                          ("feedback_photon_ms", feedbackPhotonMs)] {
            if let bad = h.keys.first(where: { !($0.isFinite && $0 >= 0) }) {
                return "a \(name) of \(bad), but a latency is a finite time after touch-down (0 or more)"
            }
            var total = 0
            for c in h.values {
                let (t, overflow) = total.addingReportingOverflow(c)
                guard !overflow, t <= sessions else { return "more \(name) values than its \(sessions) sessions" }
                total = t
            }
        }
        return nil
    }

}

/// The mergeable aggregate of a set of replayed sessions (docs/scale-out.md, "The partial
/// format"):
///
/// - `groups`: per combination of the report keys (`groupKeys`: config, variant, control,
///   screen, app_version) a `SessionTally` — what the summary report needs for any `--by` and
///   any `--where` on those keys: counts, event counts, latency histograms, the largest jump.
/// - `users`: per arm and user (`userKeys`: config, variant, user) a tally without the jump —
///   what a comparison by user needs: the per-user counts and sums of the delta method and the
///   per-user histograms of the cluster bootstrap. Keyed by user id, so a user whose sessions
///   are in two partials is one user again after `merge`.
///
/// `+` merges two partials of the same configurations' versions.
public struct Partial: Sendable, Equatable {
    /// The file's `format` and `version`.
    public static let format = "pressdb-partial"
    public static let version = 2
    /// The versions this pressdb reads: 1 (no `sources`: their sessions are unidentified) and 2.
    public static let readableVersions = [1, 2]
    /// The report keys a group is keyed by: the field table's report groupings.
    public static let groupKeys = SessionAttribute.reportGroupings.map(\.key)
    /// What a user cell is keyed by.
    public static let userKeys = ["config", "variant", "user"]
    /// The events counted, in `SessionEvent.allCases` order (their `result_events` names without `is_`).
    public static let eventNames = SessionEvent.allCases.map(\.rawValue)

    /// Nil: each session's result under its own configuration (what `pressdb report` reads);
    /// a name: every session replayed as that configuration (`pressdb report --as NAME`).
    public var replayedAs: String?
    /// The version of every configuration the results are under, by name.
    public var configurations: [String: String] = [:]
    public var groups: [[String?]: SessionTally] = [:]
    public var users: [[String?]: SessionTally] = [:]
    /// What it summarises: its inputs' hashes and session-id ranges (PartialSource.swift).
    public var sources: [PartialSource] = []
    /// Sessions of no known source: those of version-1 partials merged in, of a database's log
    /// still being ingested, or added without a source recorded.
    public var unidentifiedSessions: Int { max(0, sessions - sources.reduce(0) { $0 + $1.sessions }) }

    public init(replayedAs: String? = nil) { self.replayedAs = replayedAs }

    static let configIndex = groupKeys.firstIndex(of: "config")!
    static let variantIndex = groupKeys.firstIndex(of: "variant")!

    /// Adds one session replayed under `config` version `version`.
    /// - Throws: `PartialError` when `config` already appears under another version.
    public mutating func add(_ s: AggregatedSession, version: String) throws {
        let config = s.group[Self.configIndex] ?? ""
        if let known = configurations[config] {
            guard known == version else { throw Self.twoVersions(config, known, version) }
        } else {
            configurations[config] = version
        }
        groups[s.group, default: SessionTally()].add(s)
        if let user = s.user {
            var tally = SessionTally()
            tally.add(s)
            tally.releaseJumpPtMax = -.infinity
            users[[config, s.group[Self.variantIndex], user], default: SessionTally()] += tally
        }
    }

    static func twoVersions(_ name: String, _ a: String, _ b: String) -> PartialError {
        PartialError("configuration '\(name)' appears under two versions, \(a) and \(b): a partial holds one version "
            + "of each configuration (replay every session under the same definitions)")
    }

    /// The most sessions a partial holds: every count then adds up without overflow, and is
    /// exact as a Double (2^53), which the rates and the statistics divide with.
    public static let maxSessions = 1 << 53

    static func tooMany(_ a: Int, _ b: Int) -> PartialError {
        PartialError("counts \(a) and \(b) add up to more than a partial holds (\(maxSessions) sessions); "
            + "the partial is not one 'pressdb aggregate' wrote")
    }

    /// The merge of two partials: every cell added, users matched by id.
    /// - Throws: `PartialError` when they differ in `replayedAs` or in a configuration's version,
    ///   or together hold more than `maxSessions`.
    public static func merging(_ a: Partial, _ b: Partial) throws -> Partial {
        guard a.replayedAs == b.replayedAs else {
            throw PartialError("cannot merge a partial of sessions replayed \(describe(a.replayedAs)) with one replayed \(describe(b.replayedAs))")
        }
        var out = a
        for (name, version) in b.configurations {
            if let known = out.configurations[name], known != version { throw twoVersions(name, known, version) }
            out.configurations[name] = version
        }
        let (total, overflow) = a.sessions.addingReportingOverflow(b.sessions)
        guard !overflow, total <= maxSessions else { throw tooMany(a.sessions, b.sessions) }
        for (k, t) in b.groups { try out.groups[k, default: SessionTally()].add(checked: t) }
        for (k, t) in b.users { try out.users[k, default: SessionTally()].add(checked: t) }
        out.sources = (a.sources + b.sources).sorted(by: PartialSource.precedes)
        return out
    }

    static func mixed(_ name: String) -> PartialError {
        PartialError("the lines mix sessions replayed as '\(name)' (counterfactual) with results under other configurations; "
            + "aggregate each replay on its own")
    }

    static func describe(_ replayedAs: String?) -> String {
        replayedAs.map { "as '\($0)'" } ?? "under their own configurations"
    }

    /// Sessions in the partial (at most `maxSessions`, which a partial read or merged keeps to).
    public var sessions: Int { groups.values.reduce(0) { $0 + $1.sessions } }
    /// Distinct users (over every arm).
    public var userCount: Int { Set(users.keys.map { $0[2] ?? "" }).count }
}

// MARK: - Reading result lines

extension Partial {
    /// Adds the `{"type":"result"}` line `line` (other types are skipped: pending, reject and
    /// unreplayed lines may come along in the same stream); returns its session's id, nil for a
    /// skipped line. The caller records the line's source (`PartialSource.Reading`).
    /// - Throws: `PartialError` naming what is wrong with the line.
    @discardableResult
    public mutating func addResultLine(_ line: UnsafeBufferPointer<UInt8>) throws -> String? {
        guard let r = try ResultLineReader.read(line) else { return nil }
        let config = r.session.group[Self.configIndex] ?? ""
        if r.counterfactual, replayedAs == nil {
            guard configurations.keys.allSatisfy({ $0 == config }) else { throw Self.mixed(config) }
            replayedAs = config
        }
        if let replayedAs, config != replayedAs { throw Self.mixed(replayedAs) }
        try add(r.session, version: r.configVersion)
        return r.id
    }
}

/// Reads the fields of a result line that an aggregate needs.
enum ResultLineReader {
    struct Line {
        var id: String
        var session: AggregatedSession
        var configVersion: String
        var counterfactual: Bool
    }

    /// The line's session, or nil for a line of another type.
    static func read(_ b: UnsafeBufferPointer<UInt8>) throws -> Line? {
        var scanner = JSONScanner(b)
        var fields: [JSONField] = []
        do { try scanner.scanObject(into: &fields) } catch { throw PartialError("not a result line: \(error)") }
        var top: [String: JSONToken] = [:]
        for f in fields { if let k = try? JSONScanner.string(b, f.key) { top[k] = f.value } }
        guard let type = top["type"], type.kind == .string, (try? JSONScanner.string(b, type)) == "result" else {
            if top["type"] == nil { throw PartialError("a line without \"type\" is not a result line") }
            return nil
        }
        func text(_ t: JSONToken?) throws -> String? {
            guard let t, t.kind != .null else { return nil }
            guard t.kind == .string else { throw PartialError("a text field holds a \(t.kind)") }
            do { return try JSONScanner.string(b, t) } catch { throw PartialError("\(error)") }
        }
        func required(_ key: String) throws -> JSONToken {
            guard let t = top[key] else { throw PartialError("the result line has no \"\(key)\"") }
            return t
        }
        func number(_ key: String) throws -> Double? {
            let t = try required(key)
            if t.kind == .null { return nil }
            guard t.kind == .number else { throw PartialError("\"\(key)\" must be a number or null") }
            return t.number
        }
        func flag(_ key: String) throws -> Bool {
            let t = try required(key)
            guard t.kind == .bool else { throw PartialError("\"\(key)\" must be true or false") }
            return t.bool
        }
        guard let config = try text(required("config")), let version = try text(required("config_version")) else {
            throw PartialError("the result line has no config or config_version")
        }
        guard let id = try text(required("session")) else { throw PartialError("the result line has no session id") }
        guard let outcomeText = try text(required("outcome")), let outcome = PressOutcome(rawValue: outcomeText) else {
            throw PartialError("\"outcome\" must be one of tap, cancel, scroll_abort")
        }
        var attributes: [String: String] = [:]
        if let a = top["attributes"], a.kind == .object {
            let inner: [JSONField]
            do { inner = try JSONScanner.fields(of: b, in: a) } catch { throw PartialError("\"attributes\": \(error)") }
            for f in inner where f.value.kind == .string {
                if let k = try? JSONScanner.string(b, f.key), let v = try? JSONScanner.string(b, f.value) { attributes[k] = v }
            }
        }
        let variant = try text(required("variant"))
        let group: [String?] = Partial.groupKeys.map { key in
            key == "config" ? config : key == "variant" ? variant : attributes[key]
        }
        // The dead press reads the cancel reason and the travel: a line without them is not a result line.
        let cancelReason: CancelReason?
        if let reason = try text(required("cancel_reason")) {
            guard let r = CancelReason(rawValue: reason) else { throw PartialError("\"cancel_reason\" '\(reason)' is not a cancel reason") }
            cancelReason = r
        } else {
            cancelReason = nil
        }
        guard let maxTravel = try number("max_travel_pt") else { throw PartialError("\"max_travel_pt\" must be a number") }
        let result = SessionResult(outcome: outcome, cancelReason: cancelReason, actionFired: try flag("action_fired"),
                                   feedbackLatencyMs: try number("feedback_latency_ms"),
                                   actionLatencyMs: try number("action_latency_ms"), durationMs: 0, maxTravelPt: maxTravel,
                                   pressDepth: 0, releaseJumpPt: try number("release_jump_pt") ?? 0)
        let session = AggregatedSession(group: group, user: attributes[SessionAttribute.user.key],
                                        events: SessionEvent.allCases.map { $0.occurs(in: result) },
                                        feedbackLatencyMs: result.feedbackLatencyMs, actionLatencyMs: result.actionLatencyMs,
                                        feedbackPhotonMs: top["feedback_photon_ms"] == nil ? nil : try number("feedback_photon_ms"),
                                        releaseJumpPt: result.releaseJumpPt)
        return Line(id: id, session: session, configVersion: version, counterfactual: try flag("counterfactual"))
    }
}

// MARK: - Reading a database

extension Partial {
    /// The partial of a database's replayed sessions: what `pressdb report` reads (each
    /// session's result under the current version of its own configuration), or with
    /// `replayedAs` what `pressdb report --as NAME` reads. The events come from the database's
    /// `result_events` view.
    /// - Throws: `DatabaseError`, `SchemaError`, `PartialError`.
    public init(databasePath path: String, replayedAs: String? = nil) throws {
        var filter = ReportFilter()
        filter.replayedAs = replayedAs
        // A partial holds no press sequences (its sessions may come from result lines): from the
        // database too, their signals are left out (0), so partials of either origin merge alike.
        filter.pressSequences = false
        let runner = try ReportRunner(path: path, filter: filter)
        self.init(replayedAs: replayedAs)
        let columns = Self.groupKeys + [SessionAttribute.user.key] + SessionEvent.allCases.map(\.column)
            + ["feedback_latency_ms", "action_latency_ms", "release_jump_pt", "config_version", "feedback_photon_ms"]
        // Each session's source: the log it was ingested from (the file of its began record).
        let s = try runner.db.prepare("SELECT \(columns.map { "r." + $0 }.joined(separator: ", ")), r.session, src.name, src.content_hash "
            + "FROM temp.report_input AS r LEFT JOIN main.sessions AS t ON t.session = r.session "
            + "LEFT JOIN main.sources AS src ON src.id = t.source_id")
        var readings: [[String]: PartialSource.Reading] = [:]
        let k = Int32(Self.groupKeys.count), e = Int32(SessionEvent.allCases.count)
        while try s.step() {
            let group = (0..<k).map { s.optionalText($0) }
            let session = AggregatedSession(group: group, user: s.optionalText(k),
                                            events: (0..<e).map { s.int(k + 1 + $0) == 1 },
                                            feedbackLatencyMs: s.optionalDouble(k + 1 + e),
                                            actionLatencyMs: s.optionalDouble(k + 2 + e),
                                            feedbackPhotonMs: s.optionalDouble(k + 5 + e), releaseJumpPt: s.double(k + 3 + e))
            try add(session, version: s.text(k + 4 + e))
            // A log still being ingested has no hash yet: its sessions stay unidentified.
            if let name = s.optionalText(k + 7 + e), let hash = s.optionalText(k + 8 + e) {
                readings[[name, hash], default: PartialSource.Reading(name: name)].session(s.text(k + 6 + e))
            }
        }
        sources = readings.map { key, reading in
            var source = reading.source
            source.contentHash = key[1]
            return source
        }.sorted(by: PartialSource.precedes)
    }
}
