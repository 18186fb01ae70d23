// Partials and result lines below the command line: the Swift events against the database's
// view, the stream replay's lines, and the partial's file, merge and summary.
import Foundation
import Testing
import PressCore
import PressFormats
import PressStats
@testable import PressStore
@testable import PressIngest
@testable import PressAnalysis

/// Runs `text` (NDJSON) through a stream replay; returns the lines by type and the rejects.
private func streamReplay(_ text: String, name: String = "s.ndjson", target: PressConfiguration? = nil,
                          options: IngestOptions = IngestOptions()) throws -> (lines: [[String: Any]], rejects: [Reject], summary: StreamReplaySummary) {
    var out: [UInt8] = [], rejects: [Reject] = []
    let stream = StreamReplay(target: target, write: { out += $0 }, onReject: { rejects.append($0) })
    let ingester = Ingester(streamingTo: stream, options: options)
    let input = ByteInput(text: text, name: name)
    var r = NDJSONReader(input)
    try ingester.ingest(&r, input: input)
    _ = try ingester.finish()
    let lines = try String(decoding: out, as: UTF8.self).split(separator: "\n").map {
        try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    return (lines, rejects, stream.summary)
}

private func record(_ session: String, _ t: Double, _ phase: String, _ x: Double = 10, _ extra: String = "") -> String {
    "{\"session\":\"\(session)\",\"t\":\(t),\"phase\":\"\(phase)\",\"x\":\(x),\"y\":10\(extra)}"
}

@Suite struct ResultEventsTests {
    /// Every combination of what the events read — outcome (3) × action fired (2) × feedback
    /// latency given or not (2) — stored as `results` rows and read back through the
    /// `result_events` view, against `SessionEvent.occurs(in:)`.
    @Test func swiftEventsAgreeWithTheView() throws {
        let store = try Store.open(path: try temporaryDatabasePath())
        var combos: [SessionResult] = []
        for outcome in PressOutcome.allCases {
            for fired in [false, true] {
                for feedback in [nil, 33.3] as [Double?] {
                    combos.append(SessionResult(outcome: outcome, cancelReason: outcome == .cancel ? .dragExit : nil,
                                                actionFired: fired, feedbackLatencyMs: feedback, actionLatencyMs: fired ? 0 : nil,
                                                durationMs: 100, maxTravelPt: 0, pressDepth: 0, releaseJumpPt: 0))
                }
            }
        }
        #expect(combos.count == 12)
        let text = combos.indices.map { record("s\($0)", 0, "began") + "\n" + record("s\($0)", 0.1, "ended") }.joined(separator: "\n")
        try ingestNDJSON(store, text)
        let ids = try store.sessions().all().map(\.id)
        #expect(ids.count == 12)
        try store.writeResults(zip(ids, combos).map { ResultRow(sessionID: $0, config: "x", configVersion: "v", counterfactual: false, result: $1) })
        // The events of one result (the press sequences' signals are report_input's, not the view's).
        let events = SessionEvent.allCases.filter { ![.rageEpisode, .retryAfterCancel, .retryAfterUnseen].contains($0) }
        let s = try store.db.prepare("SELECT \(events.map(\.column).joined(separator: ", ")) FROM result_events ORDER BY session_id")
        var k = 0
        while try s.step() {
            for (i, e) in events.enumerated() {
                #expect((s.int(Int32(i)) == 1) == e.occurs(in: combos[k]), "\(e) in \(combos[k])")
            }
            k += 1
        }
        #expect(k == 12)
    }
}

@Suite struct StreamReplayTests {
    /// Interleaved sessions complete in the order their last records come; a session still open
    /// at the end is a pending line with its samples; a bad record is a reject naming file and
    /// line, and its session goes on without it.
    @Test func interleavedPendingAndRejects() throws {
        let text = [
            record("a", 0.0, "began", 10, ",\"user\":\"u1\",\"variant\":\"A\""),
            record("b", 0.01, "began", 10, ",\"config\":\"expand-delayed-click\""),
            record("a", 0.05, "moved", 11),
            record("b", 0.04, "moved"),
            record("b", 0.03, "moved"),          // line 5: time goes backwards, rejected
            record("b", 0.09, "ended"),
            record("c", 0.2, "began"),
            record("a", 0.12, "ended", 11),
        ].joined(separator: "\n")
        let (lines, rejects, summary) = try streamReplay(text)
        #expect(lines.map { $0["type"] as? String } == ["result", "result", "pending"])
        #expect(lines.map { $0["session"] as? String } == ["b", "a", "c"])
        #expect(lines[0]["config"] as? String == "expand-delayed-click")
        #expect(lines[0]["variant"] as? String == "expand-delayed-click")   // no variant given: the config name
        #expect(lines[1]["config"] as? String == "spring-press")            // no config: the default
        #expect(lines[1]["variant"] as? String == "A")
        #expect((lines[1]["attributes"] as? [String: Any])?["user"] as? String == "u1")
        #expect(lines[1]["counterfactual"] as? Bool == false)
        #expect(lines[2]["sample_count"] as? Int == 1 && lines[2]["file"] as? String == "s.ndjson" && lines[2]["line"] as? Int == 7)
        #expect(rejects.count == 1 && rejects[0].source == SourceLocation(file: "s.ndjson", line: 5))
        #expect(rejects[0].reason.contains("time goes backwards"))
        #expect(summary.results == 2 && summary.pending == 1)
    }

    /// A configuration record defines a configuration for the sessions after it; a session
    /// naming one that is never defined is written as unreplayed; `--as` replays every session
    /// under the target, counterfactual unless it is the session's own.
    @Test func configurationRecordsUnknownConfigurationsAndAs() throws {
        let soft = #"{"type":"config","name":"soft","base":"spring-press","pressed_scale":0.97}"#
        let text = [
            record("a", 0, "began", 10, ",\"config\":\"soft\""), record("a", 0.1, "ended"),
            soft,
            record("b", 0, "began", 10, ",\"config\":\"soft\""), record("b", 0.1, "ended"),
            record("c", 0, "began", 10, ",\"config\":\"nowhere\""), record("c", 0.1, "ended"),
        ].joined(separator: "\n")
        let (lines, rejects, summary) = try streamReplay(text)
        #expect(rejects.isEmpty, "\(rejects)")
        // a completed before "soft" was defined: held, then replayed at the end under it.
        #expect(lines.map { "\($0["type"]!) \($0["session"]!)" } == ["result b", "result a", "unreplayed c"])
        #expect(lines[0]["config"] as? String == "soft" && lines[1]["config_version"] as? String == lines[0]["config_version"] as? String)
        #expect(summary.unknownConfigs == ["nowhere": 1])

        let (asLines, _, _) = try streamReplay(text, target: .springPress)
        #expect(asLines.filter { $0["type"] as? String == "result" }.count == 3)
        #expect(asLines.allSatisfy { $0["config"] as? String == "spring-press" && $0["counterfactual"] as? Bool == true })
    }
}

@Suite struct PartialTests {
    /// A partial of the lines of a small stream: its file reads back equal; split in two by user
    /// and merged it is the whole again; split within a user, merging matches the user up.
    @Test func fileRoundTripAndMerges() throws {
        var text: [String] = []
        for i in 0..<40 {
            let user = "u\(i % 7)", variant = i % 3 == 0 ? "B" : "A"
            text.append(record("s\(i)", Double(i), "began", 10, ",\"user\":\"\(user)\",\"variant\":\"\(variant)\",\"screen\":\"feed\""))
            text.append(record("s\(i)", Double(i) + 0.03 + Double(i % 5) * 0.04, i % 9 == 0 ? "cancelled" : "ended", i % 4 == 0 ? 60 : 10))
        }
        let (lines, _, _) = try streamReplay(text.joined(separator: "\n"))
        let resultLines = try lines.map { try JSONSerialization.data(withJSONObject: $0) }
        func partial(_ keep: (Int) -> Bool) throws -> Partial {
            var p = Partial()
            for (i, l) in resultLines.enumerated() where keep(i) {
                _ = try l.withUnsafeBytes { try p.addResultLine($0.bindMemory(to: UInt8.self)) }
            }
            return p
        }
        let whole = try partial { _ in true }
        #expect(whole.sessions == 40 && whole.userCount == 7)
        #expect(try Partial(json: whole.json, name: "w") == whole)
        let users = { (i: Int) in (lines[i]["attributes"] as! [String: Any])["user"] as! String }
        let byUser = try Partial.merging(try partial { users($0) < "u3" }, try partial { users($0) >= "u3" })
        #expect(byUser == whole)
        let bySession = try Partial.merging(try partial { $0 % 2 == 0 }, try partial { $0 % 2 == 1 })
        #expect(bySession == whole)
        #expect(bySession.json == whole.json)
    }

    /// An arm by user from a partial is PressStats' `UserArm` of the same users' sessions (built
    /// from the raw result lines by `UserArm(name:users:)`, users by id, latencies ascending), and
    /// `Experiment.observed` reads it.
    @Test func userArmsAreTheArmsOfTheUsersSessions() throws {
        var text: [String] = []
        for i in 0..<120 {
            let user = "u\(i % 23)", variant = (i / 3) % 2 == 0 ? "A" : "B"
            text.append(record("s\(i)", Double(i), "began", 10, ",\"user\":\"\(user)\",\"variant\":\"\(variant)\",\"container\":\"scroll\""))
            text.append(record("s\(i)", Double(i) + 0.02 + Double(i % 7) * 0.03, "ended", i % 5 == 0 ? 40 : 10))
        }
        let (lines, _, _) = try streamReplay(text.joined(separator: "\n"))
        var partial = Partial()
        for l in lines {
            let data = try JSONSerialization.data(withJSONObject: l)
            _ = try data.withUnsafeBytes { try partial.addResultLine($0.bindMemory(to: UInt8.self)) }
        }
        // The same lines, read back as JSONSerialization reads them (as the partial was fed).
        let read = try lines.map { try JSONSerialization.jsonObject(with: JSONSerialization.data(withJSONObject: $0)) as! [String: Any] }
        for variant in ["A", "B"] {
            var users: [String: UserSessions] = [:]
            for l in read where l["variant"] as? String == variant {
                let user = (l["attributes"] as! [String: Any])["user"] as! String
                var u = users[user] ?? UserSessions(sessions: 0, events: [:], feedbackLatencies: [], actionLatencies: [])
                u.sessions += 1
                for e in SessionEvent.allCases where l[e.column] as? Bool == true { u.events[e, default: 0] += 1 }
                if let f = l["feedback_latency_ms"] as? Double { u.feedbackLatencies.append(f) }
                if let a = l["action_latency_ms"] as? Double { u.actionLatencies.append(a) }
                if let p = l["feedback_photon_ms"] as? Double { u.feedbackPhotonLatencies.append(p) }
                users[user] = u
            }
            let ordered = users.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map {
                UserSessions(sessions: $0.value.sessions, events: $0.value.events,
                             feedbackLatencies: $0.value.feedbackLatencies.sorted(), actionLatencies: $0.value.actionLatencies.sorted(),
                             feedbackPhotonLatencies: $0.value.feedbackPhotonLatencies.sorted())
            }
            let expected = try UserArm(name: variant, users: ordered)
            #expect(try partial.userArm(variant, by: "variant") == expected)
        }
        // 23 users, each with sessions in both arms (u(i mod 23) meets both variants), none without a user.
        #expect(try partial.userCoverage("A", "B", by: "variant")
            == UserCoverage(sessionsWithoutUser: 0, usersInBothArms: 23, users: 23, sessionsOfUsersInBothArms: 120))
        // Left out as multiple exposures, those users leave the arm empty.
        #expect(try partial.userArm("A", other: "B", by: "variant").users == 0)
        let report = try Experiment.observed(control: try partial.userArm("A", by: "variant"),
                                             treatment: try partial.userArm("B", by: "variant"))
        #expect(report.controlSessions + report.treatmentSessions == 120)
        #expect(throws: ComparisonError.self) { try partial.userArm("C", by: "variant") }
        #expect(throws: ComparisonError.self) { try partial.userArm("A", by: "variant", equals: ["screen": "x"]) }
    }

    @Test func refusesWhatItCannotMerge() throws {
        var a = Partial(), b = Partial()
        let s = AggregatedSession(group: ["spring-press", "A", nil, nil, nil], user: "u", events: [true, false, false, false, false],
                                  feedbackLatencyMs: 33, actionLatencyMs: 0, releaseJumpPt: 0)
        try a.add(s, version: "v1")
        try b.add(s, version: "v2")
        #expect(throws: PartialError.self) { try Partial.merging(a, b) }
        #expect(throws: PartialError.self) { try a.add(s, version: "v2") }
        #expect(throws: PartialError.self) { try Partial.merging(a, Partial(replayedAs: "spring-press")) }
        var future = String(decoding: a.json, as: UTF8.self)
        future = future.replacingOccurrences(of: "\"version\":2", with: "\"version\":3")
        #expect { try Partial(json: Array(future.utf8), name: "f.json") } throws: {
            "\($0)".contains("f.json: partial format version 3 is not one this pressdb reads")
        }
        #expect(throws: PartialError.self) { try Partial(json: Array("{\"format\":\"other\"}".utf8), name: "x") }
    }

    /// The summary of a hand-made partial: counts, Wilson intervals (`wilsonInterval`), type-7
    /// percentiles of the merged histograms, the share over 100 ms, the largest jump.
    @Test func summaryFromHandCountedCells() throws {
        var p = Partial()
        func add(_ variant: String, _ tap: Bool, _ feedback: Double?, _ jump: Double) throws {
            try p.add(AggregatedSession(group: ["spring-press", variant, "buy", nil, nil], user: nil,
                                        events: [tap, !tap, false, false, feedback == nil],
                                        feedbackLatencyMs: feedback, actionLatencyMs: nil, releaseJumpPt: jump), version: "v")
        }
        try add("A", true, 16.666666666666668, 0.5)
        try add("A", true, 116.66666666666667, 0.25)
        try add("B", false, nil, 2)
        try add("B", true, 50, 0)
        let r = try p.summary(by: "config")
        #expect(r.columns == Partial.summaryColumns)
        // variant A and B differ from the config: one row per arm, ordered by arm.
        #expect(r.rows.map { $0[1] } == [.text("A"), .text("B")])
        #expect(r.rows[0][2] == .integer(2) && r.rows[0][3] == .integer(2) && r.rows[0][6] == .real(1))
        // p50 of {16.67, 116.67}: h = 0.5 → 16.67 + 0.5·100 = 66.67; share over 100 ms: 1 of 2.
        #expect(r.rows[0][17] == .real(16.666666666666668 + 0.5 * (116.66666666666667 - 16.666666666666668)))
        #expect(r.rows[0][20] == .real(0.5))
        #expect(r.rows[0][23] == .real(0.5))
        // B: one tap of two, Wilson 95 % for 1/2 (statsmodels proportion_confint(1, 2, method='wilson')):
        // (0.09453120573423068, 0.9054687942657693).
        guard case .real(let low) = r.rows[1][7], case .real(let high) = r.rows[1][8] else { Issue.record("no interval"); return }
        #expect(abs(low - 0.09453120573423068) < 1e-12 && abs(high - 0.9054687942657693) < 1e-12)
        #expect(r.rows[1][22] == .null)   // no action latency
        let byControl = try p.summary(by: "control", equals: ["variant": "B"])
        #expect(byControl.rows.count == 1 && byControl.rows[0][0] == .text("buy") && byControl.rows[0][1] == .null)
        #expect(throws: ReportError.self) { try p.summary(by: "user") }
        #expect(throws: ReportError.self) { try p.summary(equals: ["device": "x"]) }
    }
}
