// The partial's file: one JSON object (docs/scale-out.md, "The partial format"), written
// deterministically — cells sorted by key, histograms by value, one cell per line — so equal
// partials are equal bytes and a diff reads cell by cell. Numbers are JSONText's shortest
// round-trip form: a latency read back is the same Double.
import PressCore
import PressFormats
import PressSQLite
import PressStore
import PressIngest

extension Partial {
    /// The partial as its file's bytes.
    public var json: [UInt8] {
        var out: [UInt8] = []
        func raw(_ s: String) { out.append(contentsOf: s.utf8) }
        func string(_ s: String?) { if let s { JSONText.appendString(s, to: &out) } else { raw("null") } }
        func strings(_ list: [String?]) {
            raw("[")
            for (i, s) in list.enumerated() { if i > 0 { raw(",") }; string(s) }
            raw("]")
        }
        func histogram(_ h: [Double: Int]) {
            raw("[")
            for (i, (v, c)) in h.sorted(by: { $0.key < $1.key }).enumerated() {
                if i > 0 { raw(",") }
                raw("["); JSONText.appendNumber(v, to: &out); raw(","); JSONText.appendInteger(Int64(c), to: &out); raw("]")
            }
            raw("]")
        }
        func tally(_ key: [String?], _ t: SessionTally, jump: Bool) {
            raw("{\"key\":"); strings(key)
            raw(",\"sessions\":"); JSONText.appendInteger(Int64(t.sessions), to: &out)
            raw(",\"events\":[")
            for (i, n) in t.events.enumerated() { if i > 0 { raw(",") }; JSONText.appendInteger(Int64(n), to: &out) }
            raw("],\"feedback_latency_ms\":"); histogram(t.feedbackLatencyMs)
            raw(",\"action_latency_ms\":"); histogram(t.actionLatencyMs)
            raw(",\"feedback_photon_ms\":"); histogram(t.feedbackPhotonMs)
            if jump { raw(",\"release_jump_pt_max\":"); JSONText.appendNumber(t.releaseJumpPtMax, to: &out) }
            raw("}")
        }
        raw("{\"format\":"); string(Self.format)
        raw(",\"version\":\(Self.version)")
        raw(",\"replayed_as\":"); string(replayedAs)
        raw(",\"sources\":[")
        for (i, source) in sources.sorted(by: PartialSource.precedes).enumerated() {
            raw(i > 0 ? ",\n" : "\n")
            raw("{\"name\":"); string(source.name)
            raw(",\"content_hash\":"); string(source.contentHash)
            raw(",\"sessions\":"); JSONText.appendInteger(Int64(source.sessions), to: &out)
            raw(",\"first_session\":"); string(source.firstSession)
            raw(",\"last_session\":"); string(source.lastSession)
            raw("}")
        }
        raw("],\"unidentified_sessions\":"); JSONText.appendInteger(Int64(unidentifiedSessions), to: &out)
        raw(",\"configurations\":{")
        for (i, (name, version)) in configurations.sorted(by: { Self.precedes([$0.key], [$1.key]) }).enumerated() {
            if i > 0 { raw(",") }
            string(name); raw(":"); string(version)
        }
        raw("},\"group_keys\":"); strings(Self.groupKeys)
        raw(",\"user_keys\":"); strings(Self.userKeys)
        raw(",\"events\":"); strings(Self.eventNames)
        raw(",\"groups\":[")
        for (i, (k, t)) in groups.sorted(by: { Self.precedes($0.key, $1.key) }).enumerated() {
            raw(i > 0 ? ",\n" : "\n"); tally(k, t, jump: true)
        }
        raw("],\"users\":[")
        for (i, (k, t)) in users.sorted(by: { Self.precedes($0.key, $1.key) }).enumerated() {
            raw(i > 0 ? ",\n" : "\n"); tally(k, t, jump: false)
        }
        raw("]}\n")
        return out
    }

    /// SQLite's order of keys (`ORDER BY` with the BINARY collation): NULL first, then text by
    /// its UTF-8 bytes, key by key.
    static func precedes(_ a: [String?], _ b: [String?]) -> Bool {
        for (x, y) in zip(a, b) where x != y {
            guard let x else { return true }
            guard let y else { return false }
            return x.utf8.lexicographicallyPrecedes(y.utf8)
        }
        return a.count < b.count
    }

    /// Reads a partial's file.
    /// - Throws: `PartialError` saying what is wrong (`name` names the file).
    public init(json bytes: [UInt8], name: String) throws {
        var bytes = bytes
        self = try bytes.withUnsafeMutableBufferPointer { mb in
            let b = UnsafeBufferPointer(mb)
            func fail(_ m: String) -> PartialError { PartialError("\(name): \(m)") }
            func fields(_ t: JSONToken) throws -> [String: JSONToken] {
                guard t.kind == .object else { throw fail("expected an object") }
                var out: [String: JSONToken] = [:]
                do {
                    for f in try JSONScanner.fields(of: b, in: t) { out[try JSONScanner.string(b, f.key)] = f.value }
                } catch { throw fail("\(error)") }
                return out
            }
            func elements(_ t: JSONToken?, _ what: String) throws -> [JSONToken] {
                guard let t, t.kind == .array else { throw fail("\(what) must be an array") }
                do { return try JSONScanner.elements(of: b, in: t) } catch { throw fail("\(error)") }
            }
            func text(_ t: JSONToken?) throws -> String? {
                guard let t, t.kind != .null else { return nil }
                guard t.kind == .string else { throw fail("expected a string or null") }
                do { return try JSONScanner.string(b, t) } catch { throw fail("\(error)") }
            }
            func integer(_ t: JSONToken?, _ what: String) throws -> Int {
                guard let t, t.kind == .number, let n = Int(exactly: t.number), n >= 0 else {
                    throw fail("\(what) must be a whole number ≥ 0")
                }
                return n
            }
            func texts(_ t: JSONToken?, _ what: String) throws -> [String?] { try elements(t, what).map(text) }
            func histogram(_ t: JSONToken?, _ what: String) throws -> [Double: Int] {
                var out: [Double: Int] = [:]
                for pair in try elements(t, what) {
                    let vc = try elements(pair, what)
                    guard vc.count == 2, vc[0].kind == .number, vc[0].number.isFinite else {
                        throw fail("\(what) holds [value, count] pairs of a finite number and a count")
                    }
                    let (sum, overflow) = (out[vc[0].number] ?? 0).addingReportingOverflow(try integer(vc[1], what))
                    guard !overflow, sum <= Self.maxSessions else { throw fail("\(what) counts more than a partial holds (\(Self.maxSessions) sessions)") }
                    out[vc[0].number] = sum
                }
                return out
            }
            func tally(_ t: JSONToken, keys: Int, jump: Bool) throws -> ([String?], SessionTally) {
                let f = try fields(t)
                let key = try texts(f["key"], "key")
                guard key.count == keys else { throw fail("a key has \(key.count) values, not \(keys)") }
                var tally = SessionTally()
                tally.sessions = try integer(f["sessions"], "sessions")
                tally.events = try elements(f["events"], "events").map { try integer($0, "events") }
                guard tally.events.count == Self.eventNames.count else { throw fail("events has \(tally.events.count) counts, not \(Self.eventNames.count)") }
                tally.feedbackLatencyMs = try histogram(f["feedback_latency_ms"], "feedback_latency_ms")
                tally.actionLatencyMs = try histogram(f["action_latency_ms"], "action_latency_ms")
                // Partials written before photon latencies have none: their photon rows are empty.
                if f["feedback_photon_ms"] != nil { tally.feedbackPhotonMs = try histogram(f["feedback_photon_ms"], "feedback_photon_ms") }
                if jump {
                    guard let j = f["release_jump_pt_max"], j.kind == .number else { throw fail("release_jump_pt_max must be a number") }
                    tally.releaseJumpPtMax = j.number
                }
                if let problem = tally.inconsistency { throw fail("a cell holds \(problem)") }
                return (key, tally)
            }

            var scanner = JSONScanner(b)
            var topFields: [JSONField] = []
            do { try scanner.scanObject(into: &topFields) } catch {
                throw fail("not a partial (a JSON object written by 'pressdb aggregate'): \(error)")
            }
            var top: [String: JSONToken] = [:]
            for f in topFields { if let k = try? JSONScanner.string(b, f.key) { top[k] = f.value } }
            guard try text(top["format"]) == Self.format else {
                throw fail("not a partial: its \"format\" is not \"\(Self.format)\" (write one with 'pressdb aggregate')")
            }
            guard let v = top["version"], v.kind == .number, let version = Self.readableVersions.first(where: { Double($0) == v.number }) else {
                throw fail("partial format version \(top["version"].map { $0.kind == .number ? JSONText.number($0.number) : "?" } ?? "?") "
                    + "is not one this pressdb reads (versions \(Self.readableVersions.map(String.init).joined(separator: " and "))); "
                    + "aggregate the results again with this pressdb")
            }
            guard try texts(top["group_keys"], "group_keys") == Self.groupKeys,
                  try texts(top["user_keys"], "user_keys") == Self.userKeys,
                  try texts(top["events"], "events") == Self.eventNames else {
                throw fail("its group_keys, user_keys or events differ from this pressdb's (\(Self.groupKeys.joined(separator: ",")); "
                    + "\(Self.userKeys.joined(separator: ",")); \(Self.eventNames.joined(separator: ","))): aggregate again with this pressdb")
            }
            var p = Partial(replayedAs: try text(top["replayed_as"]))
            guard let configurations = top["configurations"] else { throw fail("it has no \"configurations\"") }
            for (name, version) in try fields(configurations) {
                guard let v = try text(version) else { throw fail("configuration \(name) has no version") }
                p.configurations[name] = v
            }
            // Counts are added with checked arithmetic, and the sessions of all cells together
            // kept to `maxSessions`: every sum a report or comparison makes of them then fits.
            func add(_ t: SessionTally, to total: inout Int) throws {
                let (sum, overflow) = total.addingReportingOverflow(t.sessions)
                guard !overflow, sum <= Self.maxSessions else { throw fail("its cells hold more sessions than a partial holds (\(Self.maxSessions))") }
                total = sum
            }
            var groupSessions = 0, userSessions = 0
            do {
                for g in try elements(top["groups"], "groups") {
                    let (k, t) = try tally(g, keys: Self.groupKeys.count, jump: true)
                    try add(t, to: &groupSessions)
                    try p.groups[k, default: SessionTally()].add(checked: t)
                }
                for u in try elements(top["users"], "users") {
                    let (k, t) = try tally(u, keys: Self.userKeys.count, jump: false)
                    try add(t, to: &userSessions)
                    try p.users[k, default: SessionTally()].add(checked: t)
                }
            } catch let e as PartialError where !e.message.hasPrefix(name) {
                throw fail(e.message)
            }
            guard userSessions <= groupSessions else {
                throw fail("its users hold \(userSessions) sessions, more than its \(groupSessions) sessions")
            }
            // Version 1 recorded no sources: all its sessions are unidentified.
            guard version >= 2 else { return p }
            for t in try elements(top["sources"], "sources") {
                let f = try fields(t)
                guard let name = try text(f["name"]), let hash = try text(f["content_hash"]) else {
                    throw fail("a source needs a \"name\" and a \"content_hash\"")
                }
                p.sources.append(PartialSource(name: name, contentHash: hash, sessions: try integer(f["sessions"], "a source's sessions"),
                                               firstSession: try text(f["first_session"]), lastSession: try text(f["last_session"])))
            }
            // Checked arithmetic: the counts come from the file.
            let identified = try p.sources.reduce(0) { total, source in
                let (sum, overflow) = total.addingReportingOverflow(source.sessions)
                guard !overflow, sum <= groupSessions else { throw fail("its sources hold more sessions than its \(groupSessions)") }
                return sum
            }
            guard try integer(top["unidentified_sessions"], "unidentified_sessions") == groupSessions - identified else {
                throw fail("its sources (\(identified) sessions) and unidentified_sessions do not add up to its \(groupSessions) sessions")
            }
            return p
        }
    }
}
