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
        var options = ReplayOptions()
        options.displayOverride = display
        options.storesResults = false
        options.progress = progress
        let replayer = Replayer(store: store, catalog: catalog, options: options)
        var partial = Partial(replayedAs: replayedAs?.name)
        let keys = SessionAttribute.reportGroupings
        var failure: Error?
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
            let s = AggregatedSession(group: group, user: session.attributes[.user],
                                      events: SessionEvent.allCases.map { $0.occurs(in: r) },
                                      feedbackLatencyMs: r.feedbackLatencyMs, actionLatencyMs: r.actionLatencyMs,
                                      feedbackPhotonMs: r.feedbackPhotonMs, releaseJumpPt: r.releaseJumpPt)
            do { try partial.add(s, version: row.configVersion) } catch { failure = error }
        }
        if let failure { throw failure }
        self = partial
    }
}
