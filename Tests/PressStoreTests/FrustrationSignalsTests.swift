// The frustration signals (docs/frustration.md) on small hand-built press sequences. Each case
// gives its presses and the flags worked out on paper from the definitions: touch-down times and
// points, outcomes, the gaps from one press's end to the next press's touch-down.
import Foundation
import Testing
import PressCore
@testable import PressStore
@testable import PressIngest
@testable import PressAnalysis

/// One stored press with its result under `config` (the session's own unless `counterfactual`).
struct Press {
    var session: String
    var user: String? = "u"
    var device: String? = nil
    var control: String? = "buy"
    var screen: String? = "home"
    var t0: Double
    var t1: Double? = nil
    var x0: Double = 100
    var y0: Double = 100
    var frame: (x: Double, y: Double, w: Double, h: Double)? = nil
    var outcome = "tap"
    var cancelReason: String? = nil
    var actionFired: Bool? = nil
    /// nil: an unseen press.
    var feedbackMs: Double? = 33.3
    var travelPt: Double = 0
}

/// Writes `presses` as sessions with their results under the preset `config` at its current
/// version (`counterfactual` results for `replayedAs`), straight into the tables.
func storePresses(_ presses: [Press], config: String = "spring-press", path: String? = nil,
                  replayedAs: [String: (outcome: String, reason: String?)] = [:], asConfig: String = "longpress-safe-area") throws -> String {
    let path = try path ?? temporaryDatabasePath()
    let db = try Schema.open(path: path)
    let version = { (name: String) in PressConfiguration.preset(named: name)!.version }
    let session = try db.prepare("""
        INSERT INTO sessions(session, t0, t1, sample_count, end_phase, samples, config, variant, control, screen, user, device,
                             x0, y0, frame_x, frame_y, frame_w, frame_h)
        VALUES (?1, ?2, ?3, 2, ?4, x'', ?5, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
        """)
    let result = try db.prepare("""
        INSERT INTO results(session_id, config, config_version, counterfactual, outcome, cancel_reason, action_fired,
                            feedback_latency_ms, action_latency_ms, duration_ms, max_travel_pt, press_depth, release_jump_pt)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, NULL, 100, ?9, 0, 0)
        """)
    for p in presses {
        session.reset()
        session.bind(1, p.session); session.bind(2, p.t0); session.bind(3, p.t1 ?? p.t0 + 0.1)
        session.bind(4, p.cancelReason == "system" ? "cancelled" : "ended")
        session.bind(5, config); session.bind(6, p.control); session.bind(7, p.screen)
        session.bind(8, p.user); session.bind(9, p.device); session.bind(10, p.x0); session.bind(11, p.y0)
        session.bind(12, p.frame?.x); session.bind(13, p.frame?.y); session.bind(14, p.frame?.w); session.bind(15, p.frame?.h)
        try session.run()
        let id = db.lastInsertRowID
        func put(_ name: String, counterfactual: Int, outcome: String, reason: String?) throws {
            result.reset()
            result.bind(1, id); result.bind(2, name); result.bind(3, version(name)); result.bind(4, counterfactual)
            result.bind(5, outcome); result.bind(6, reason)
            result.bind(7, (p.actionFired ?? (outcome == "tap")) ? 1 : 0)
            result.bind(8, p.feedbackMs); result.bind(9, p.travelPt)
            try result.run()
        }
        try put(config, counterfactual: 0, outcome: p.outcome, reason: p.cancelReason)
        if let other = replayedAs[p.session] { try put(asConfig, counterfactual: 1, outcome: other.outcome, reason: other.reason) }
    }
    return path
}

/// The signal flags per session: rage press, rage episode, retry after cancel, retry after
/// unseen, dead press, as "RrCUD" letters (a dot where the flag is 0).
func signalFlags(_ path: String, _ filter: ReportFilter = ReportFilter()) throws -> [String: String] {
    let runner = try ReportRunner(path: path, filter: filter)
    let s = try runner.db.prepare("""
        SELECT session, is_rage_press, is_rage_episode, is_retry_after_cancel, is_retry_after_unseen, is_dead_press
        FROM temp.report_input
        """)
    var out: [String: String] = [:]
    while try s.step() {
        out[s.text(0)] = zip("RrCUD", 1...5).map { s.int(Int32($0.1)) == 1 ? String($0.0) : "." }.joined()
    }
    return out
}

@Suite struct FrustrationSignalsTests {
    // Three presses in 1.0 s (touch-downs 0, 0.5, 1.0: span 1.0 ≤ 1.0) whose points lie 0, 29 and
    // 29 pt from the first (√(29²) = 29 ≤ 30): all three are rage presses, one episode, on the
    // first. Moved to 31 pt (31 > 30) the window fails and no press is a rage press.
    @Test func threePressesInOneSecondAt29PointsRageAt31DoNot() throws {
        let near = try signalFlags(storePresses([
            Press(session: "a1", t0: 0), Press(session: "a2", t0: 0.5, x0: 129), Press(session: "a3", t0: 1.0, y0: 129),
        ]))
        #expect(near == ["a1": "Rr...", "a2": "R....", "a3": "R...."])
        let far = try signalFlags(storePresses([
            Press(session: "a1", t0: 0), Press(session: "a2", t0: 0.5, x0: 131), Press(session: "a3", t0: 1.0, y0: 129),
        ]))
        #expect(far == ["a1": ".....", "a2": ".....", "a3": "....."])
        // 1.01 s from the first to the third: beyond the span.
        let slow = try signalFlags(storePresses([
            Press(session: "a1", t0: 0), Press(session: "a2", t0: 0.5), Press(session: "a3", t0: 1.01),
        ]))
        #expect(slow.values.allSatisfy { $0 == "....." })
    }

    // Five presses 0.2 s apart at one point: windows open at the 1st, 2nd and 3rd press (each
    // with the next two within 0.4 s), so all five are rage presses — one maximal run, one
    // episode. A sixth press 5 s later starts nothing. With --rage-count 6 no window of six fits.
    @Test func aMaximalRunIsOneEpisodeAndTheCountIsAParameter() throws {
        let presses = (0..<5).map { Press(session: "p\($0)", t0: Double($0) * 0.2) } + [Press(session: "p5", t0: 5.8)]
        let path = try storePresses(presses)
        let flags = try signalFlags(path)
        #expect(flags == ["p0": "Rr...", "p1": "R....", "p2": "R....", "p3": "R....", "p4": "R....", "p5": "....."])
        var filter = ReportFilter()
        filter.signals.rageCount = 6
        #expect(try signalFlags(path, filter).values.allSatisfy { $0 == "....." })
    }

    // A cancel ending at 10.1 s, then a tap touching down 1.9 s later (12.0 s): a retry. Another
    // user's cancel ending at 20.1 s and a tap 2.1 s later (22.2 s): none, until the window is
    // raised to 2.5 s. A cancel followed by a scroll-abort is no retry (the next press must tap).
    @Test func aRetryWithinTwoSecondsOfTheCancelsEnd() throws {
        let path = try storePresses([
            Press(session: "c1", t0: 10, t1: 10.1, outcome: "cancel", cancelReason: "drag_exit", travelPt: 80),
            Press(session: "c2", t0: 12.0),
            Press(session: "d1", user: "v", t0: 20, t1: 20.1, outcome: "scroll_abort", feedbackMs: nil, travelPt: 30),
            Press(session: "d2", user: "v", t0: 22.2),
            Press(session: "e1", user: "w", t0: 30, t1: 30.1, outcome: "cancel", cancelReason: "drag_exit", travelPt: 80),
            Press(session: "e2", user: "w", t0: 31, outcome: "scroll_abort", feedbackMs: nil, travelPt: 30),
        ])
        let flags = try signalFlags(path)
        #expect(flags["c1"] == "..C..")
        #expect(flags["d1"] == ".....")
        #expect(flags["e1"] == ".....")
        var wider = ReportFilter()
        wider.signals.cancelRetryWindow = 2.5
        #expect(try signalFlags(path, wider)["d1"] == "..C..")
    }

    // Two users press the same control interleaved in time: u cancels (0–0.1 s), v taps at 0.5 s,
    // u taps at 1.0 s. u's retry is u's own next press (gap 0.9 s), whatever v did between;
    // v's tap follows no press of v's. A press by a device without a user is its device's.
    @Test func sequencesBelongToOneActor() throws {
        let flags = try signalFlags(storePresses([
            Press(session: "u1", t0: 0, t1: 0.1, outcome: "cancel", cancelReason: "drag_exit", travelPt: 80),
            Press(session: "v1", user: "v", t0: 0.5),
            Press(session: "u2", t0: 1.0),
            Press(session: "k1", user: nil, device: "d", t0: 0, t1: 0.1, outcome: "cancel", cancelReason: "drag_exit", travelPt: 80),
            Press(session: "k2", user: nil, device: "d", t0: 1.0),
            // the same control name on another screen is another control
            Press(session: "s1", screen: "cart", t0: 0, t1: 0.1, outcome: "cancel", cancelReason: "drag_exit", travelPt: 80),
        ]))
        #expect(flags["u1"] == "..C..")
        #expect(flags["v1"] == ".....")
        #expect(flags["k1"] == "..C..")
        #expect(flags["s1"] == ".....")
    }

    // Presses that name no control are on the same control when their hit targets overlap:
    // frames (0,0,50,50) and (40,40,50,50) overlap; (100,100,50,50) does not touch the first.
    @Test func withoutAControlOverlappingFramesAreOneControl() throws {
        let flags = try signalFlags(storePresses([
            Press(session: "f1", control: nil, t0: 0, t1: 0.1, frame: (0, 0, 50, 50), outcome: "cancel", cancelReason: "drag_exit", travelPt: 80),
            Press(session: "f2", control: nil, t0: 1, frame: (40, 40, 50, 50)),
            Press(session: "g1", user: "v", control: nil, t0: 0, t1: 0.1, frame: (0, 0, 50, 50), outcome: "cancel", cancelReason: "drag_exit", travelPt: 80),
            Press(session: "g2", user: "v", control: nil, t0: 1, frame: (100, 100, 50, 50)),
        ]))
        #expect(flags["f1"] == "..C..")
        #expect(flags["g1"] == ".....")
    }

    // An unseen press (no feedback latency) ending at 0.1 s, another press at 1.0 s (gap 0.9 ≤ 1):
    // a retry after an unseen press; ending at 5.1 s with the next at 6.2 s (gap 1.1): none.
    @Test func aRetryWithinOneSecondOfAnUnseenPress() throws {
        let flags = try signalFlags(storePresses([
            Press(session: "n1", t0: 0, t1: 0.1, feedbackMs: nil),
            Press(session: "n2", t0: 1.0),
            Press(session: "n3", t0: 5, t1: 5.1, feedbackMs: nil),
            Press(session: "n4", t0: 6.2),
        ]))
        #expect(flags == ["n1": "...U.", "n2": ".....", "n3": ".....", "n4": "....."])
    }

    // Dead presses: lifted within 10 pt of the touch-down and the action did not run. A safe-area
    // cancel after 6 pt is one; a system cancel is not (the finger did not lift); a tap whose action
    // ran is not; a drag-exit after 80 pt is not (the finger left on purpose).
    @Test func aDeadPressIsATapSizedLiftWithoutAction() throws {
        let flags = try signalFlags(storePresses([
            Press(session: "x1", user: "a", t0: 0, outcome: "cancel", cancelReason: "safe_area", travelPt: 6),
            Press(session: "x2", user: "b", t0: 0, outcome: "cancel", cancelReason: "system", travelPt: 0),
            Press(session: "x3", user: "c", t0: 0, travelPt: 2),
            Press(session: "x4", user: "d", t0: 0, outcome: "cancel", cancelReason: "drag_exit", travelPt: 80),
        ]))
        #expect(flags == ["x1": "....D", "x2": ".....", "x3": ".....", "x4": "....."])
    }

    // Counterfactual, on paper: r1 cancelled (safe area, 12 pt) and r2 tapped 1 s later — a retry
    // in the recorded world. Replayed as longpress-safe-area, r1 is a tap: no failed press, so no
    // retry; r2's own (counterfactual) result is a tap too. The retry signal follows the outcomes.
    @Test func counterfactualRetriesFollowTheReplayedOutcomes() throws {
        let path = try storePresses([
            Press(session: "r1", t0: 0, t1: 0.1, outcome: "cancel", cancelReason: "safe_area", travelPt: 12),
            Press(session: "r2", t0: 1.1),
        ], replayedAs: ["r1": ("tap", nil), "r2": ("tap", nil)])
        #expect(try signalFlags(path)["r1"] == "..C..")
        var asB = ReportFilter()
        asB.replayedAs = "longpress-safe-area"
        #expect(try signalFlags(path, asB)["r1"] == ".....")
    }

    // Sequences cross ingests: the cancelled press comes in one file, the retry in a second ingest
    // of another file; both replayed by ingest (spring-press). The system cancel ends at 5.1 s, the
    // tap touches down at 6.9 s (gap 1.8 s).
    @Test func sequencesCrossIngests() throws {
        let path = try temporaryDatabasePath()
        let store = Store(database: try Schema.open(path: path))
        var options = IngestOptions()
        options.replayStoredSessions = true
        try ingestNDJSON(store, """
            {"session":"i1","t":5,"phase":"began","x":100,"y":100,"user":"u","control":"buy","screen":"home","frame":[60,80,80,40]}
            {"session":"i1","t":5.1,"phase":"cancelled","x":100,"y":100}
            """, name: "one.ndjson", options: options)
        try ingestNDJSON(store, """
            {"session":"i2","t":6.9,"phase":"began","x":101,"y":100,"user":"u","control":"buy","screen":"home","frame":[60,80,80,40]}
            {"session":"i2","t":7.0,"phase":"ended","x":101,"y":100}
            """, name: "two.ndjson", options: options)
        let db = try Schema.open(path: path)
        #expect(try db.prepare("SELECT count(DISTINCT source_id) FROM sessions").scalarInt() == 2)
        #expect(try db.prepare("SELECT group_concat(outcome, ',') FROM (SELECT outcome FROM session_results ORDER BY t0)").scalarText() == "cancel,tap")
        let flags = try signalFlags(path)
        #expect(flags["i1"] == "..C..")
        #expect(flags["i2"] == ".....")
    }

    // The frustration report on three users: a presses 4 times with one retry after a cancel
    // (cancel at 0 s, tap at 1 s), b twice without, c 4 times with two. 3 retries in 10 presses:
    // rate 0.3, Wilson 95 % (0.10779, 0.60322); by user, the delta method over units
    // (X, Y) = (4, 1), (2, 0), (4, 2): Var = (s²_Y/X̄² − 2Ȳ s_XY/X̄³ + Ȳ² s²_X/X̄⁴)/n = 0.0156,
    // SE 0.124900, 0.3 ± 1.959964·SE = (0.055201, 0.544799); 2 of 3 users retried, Wilson
    // (0.207660, 0.938508). All computed in Python from the textbook formulas (math only).
    @Test func theReportGivesRatesPerPressAndByUser() throws {
        func retry(_ user: String, _ at: Double) -> [Press] {
            [Press(session: "\(user)\(at)c", user: user, t0: at, t1: at + 0.1, outcome: "cancel", cancelReason: "drag_exit", travelPt: 80),
             Press(session: "\(user)\(at)t", user: user, t0: at + 1)]
        }
        let path = try storePresses(retry("a", 0) + [Press(session: "a3", user: "a", t0: 10), Press(session: "a4", user: "a", t0: 20)]
            + [Press(session: "b1", user: "b", t0: 0), Press(session: "b2", user: "b", t0: 10)]
            + retry("c", 0) + retry("c", 10))
        let runner = try ReportRunner(path: path, filter: ReportFilter())
        let result = try runner.run(ReportDefinition.builtIn.first { $0.name == "frustration" }!)
        #expect(result.rows.count == 1)
        func value(_ name: String) -> Double? {
            guard let i = result.columns.firstIndex(of: name) else { return nil }
            switch result.rows[0][i] {
            case .integer(let n): return Double(n)
            case .real(let d): return d
            default: return nil
            }
        }
        #expect(value("presses") == 10 && value("users") == 3)
        #expect(value("retries_after_cancel") == 3)
        #expect(abs(value("retries_after_cancel_rate")! - 0.3) < 1e-12)
        #expect(abs(value("retries_after_cancel_rate_low")! - 0.10779126740630099) < 1e-9)
        #expect(abs(value("retries_after_cancel_rate_high")! - 0.6032218525388546) < 1e-9)
        #expect(abs(value("retries_after_cancel_rate_by_user_low")! - 0.055200576792288264) < 1e-9)
        #expect(abs(value("retries_after_cancel_rate_by_user_high")! - 0.5447994232077117) < 1e-9)
        #expect(value("retries_after_cancel_users") == 2)
        #expect(abs(value("retries_after_cancel_users_rate_low")! - 0.2076596008020477) < 1e-9)
        #expect(abs(value("retries_after_cancel_users_rate_high")! - 0.9385080552796037) < 1e-9)
        #expect(value("rage_episodes") == 0 && value("dead_presses") == 0 && value("retries_after_unseen") == 0)
        // Every signal has its count, rate, intervals and users.
        for signal in ["rage_episodes", "retries_after_cancel", "retries_after_unseen", "dead_presses"] {
            for suffix in ["", "_rate", "_rate_low", "_rate_high", "_rate_by_user", "_rate_by_user_low", "_rate_by_user_high",
                           "_users", "_users_rate", "_users_rate_low", "_users_rate_high"] {
                #expect(result.columns.contains(signal + suffix), "\(signal + suffix)")
            }
        }
    }

    @Test func outOfRangeParametersAreRefused() throws {
        let path = try storePresses([Press(session: "a", t0: 0)])
        var filter = ReportFilter()
        filter.signals.rageCount = 1
        #expect(throws: ReportError.self) { _ = try ReportRunner(path: path, filter: filter) }
        filter = ReportFilter()
        filter.signals.cancelRetryWindow = -1
        #expect(throws: ReportError.self) { _ = try ReportRunner(path: path, filter: filter) }
    }
}
