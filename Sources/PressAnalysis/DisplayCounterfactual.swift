// The counterfactual display of `report --display` and `compare --display`: every stored session
// replayed on another display profile, aggregated into a partial. Results on another display are
// not stored (`replay --display` prints them), so the summary and the comparison are read from
// this partial through the path `--from` takes.
import PressCore
import PressStats
import PressStore
import PressIngest

extension Partial {
    /// The partial of every stored session replayed on `display`: under its own configuration
    /// (what `pressdb report` reads), or under `replayedAs` (what `report --as` reads). Sessions
    /// naming a configuration that is not defined are left out, as their results are from a
    /// database report.
    /// - Throws: `DatabaseError`, `PartialError`.
    public init(store: Store, catalog: ConfigurationCatalog, display: Display, replayedAs: PressConfiguration? = nil,
                progress: (@Sendable (Int, Int) -> Void)? = nil) throws {
        self = try Partial.replayed(store: store, catalog: catalog, display: display, replayedAs: replayedAs, progress: progress).partial
    }

    /// The partial of every stored session replayed now: on `display` (nil: each on its own),
    /// with the main-thread stalls of `stalls` when given (`report --stalls`), and what the
    /// stalls did to the presses' feedback. Sessions and errors as `init(store:catalog:display:…)`.
    public static func replayed(store: Store, catalog: ConfigurationCatalog, display: Display?, stalls: StallProfile? = nil,
                                replayedAs: PressConfiguration? = nil,
                                progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> (partial: Partial, stalls: StallTally) {
        var options = ReplayOptions()
        options.displayOverride = display
        options.stalls = stalls
        options.storesResults = false
        options.progress = progress
        let replayer = Replayer(store: store, catalog: catalog, options: options)
        var partial = Partial(replayedAs: replayedAs?.name)
        let keys = SessionAttribute.reportGroupings
        var failure: Error?
        var tally = StallTally()
        try replayer.replay(SessionFilter(), as: replayedAs) { session, row in
            guard failure == nil else { return }
            // The keys as session_results gives them: the configuration replayed, the arm as stored.
            let group: [String?] = keys.map {
                switch $0.key {
                case "config": row.config
                case "variant": session.variant
                default: session.attributes[$0]
                }
            }
            let r = row.result
            tally.add(r, row.stallEffect)
            let s = AggregatedSession(group: group, user: session.attributes[.user],
                                      events: SessionEvent.allCases.map { $0.occurs(in: r) },
                                      feedbackLatencyMs: r.feedbackLatencyMs, actionLatencyMs: r.actionLatencyMs,
                                      feedbackPhotonMs: r.feedbackPhotonMs, releaseJumpPt: r.releaseJumpPt)
            do { try partial.add(s, version: row.configVersion) } catch { failure = error }
        }
        if let failure { throw failure }
        return (partial, tally)
    }
}

/// What sampled stalls did to the presses of a replay (`report --stalls`): the unseen presses
/// (not scroll-aborts, no feedback frame: the `result_events` definition, docs/reports.md) and
/// those of them a stall hid, seen without stalls; the presses a stall made later.
public struct StallTally: Hashable, Sendable {
    public var presses = 0, unseen = 0, hidden = 0, delayed = 0
    public init() {}

    public mutating func add(_ r: SessionResult, _ effect: StallEffect?) {
        guard r.outcome != .scrollAbort else { return }
        presses += 1
        if r.feedbackLatencyMs == nil { unseen += 1 }
        if effect == .hidden { hidden += 1 }
        if effect == .delayed { delayed += 1 }
    }

    /// Unseen presses that are unseen without stalls too: the configuration's.
    public var unseenByConfiguration: Int { unseen - hidden }
}
