// The rules of ingest (docs/log-format.md §3) as decisions on values: what a sample without an
// open session, a completed session and a session still open at the end of a run mean, given
// what is already stored under the same session id. Pure: no database; the ingester looks up
// what is stored and carries the decision out.
import PressCore
import PressSQLite
import PressStore

/// Ingest's decisions. Samples are compared bit for bit (every double's bits and the phase), as
/// they are stored: a session re-read from the same log is identical, `-0.0` and `0.0` differ.
public enum IngestRules {
    /// What a sample means whose session is not open in this run (a sample other than `began`;
    /// a `began` always opens a session).
    public enum OrphanSample: Hashable, Sendable {
        /// The session is pending from an earlier run and not resumed yet: resume it, then add
        /// the sample to it.
        case resumePending
        /// The session is stored complete and this sample is one of its samples (sample `index`):
        /// a re-read of a log whose records completed it, such as the second half of a rotated
        /// log ingested again. A duplicate: skipped, nothing changes.
        case repeatsStored(index: Int)
        /// The session is stored complete and has no such sample: the sample comes after its end
        /// (rejected).
        case afterEnd
        /// Neither: its session does not start with `began` (rejected).
        case notStarted
    }

    /// - Parameters:
    ///   - sample: the sample.
    ///   - pendingToResume: a pending session of this id exists that this run has not resumed.
    ///   - stored: the samples of the complete session of this id, when one is stored.
    ///   - hint: where in `stored` to look first (the index after the sample matched last, for a
    ///     re-read tail, whose samples come in order); the search wraps around from there.
    public static func orphanSample(_ sample: TouchSample, pendingToResume: Bool, stored: [TouchSample]?,
                                    hint: Int = 0) -> OrphanSample {
        if pendingToResume { return .resumePending }
        guard let stored else { return .notStarted }
        let start = stored.isEmpty ? 0 : min(max(hint, 0), stored.count - 1)
        for i in stored.indices[start...] where identical(stored[i], sample) { return .repeatsStored(index: i) }
        for i in stored.indices[..<start] where identical(stored[i], sample) { return .repeatsStored(index: i) }
        return .afterEnd
    }

    /// Whether a session this run completed may be stored.
    public enum CompletedSession: Hashable, Sendable {
        /// Store it (it may still turn out to be stored already: see `alreadyStored`).
        case store
        /// It started afresh over a pending session of the same id but does not re-read that
        /// session's samples: a conflict (rejected, the pending session kept).
        case conflictsWithPending
        /// Its duration in milliseconds, (t_last − t_first) · 1000 as replay computes it
        /// (`SessionResult.durationMs`), is not a finite number: every time is finite (the
        /// readers reject others), but their difference overflows (−1.7e308 … 1.7e308 s). No
        /// replay result could describe it: rejected.
        case durationNotFinite
    }

    /// - Parameters:
    ///   - samples: the completed session's samples (at least one).
    ///   - startedOver: when this run began the session afresh while a pending one of the same
    ///     id was stored (not resumed), that pending session's samples.
    public static func completed(_ samples: [TouchSample], startedOver pending: [TouchSample]?) -> CompletedSession {
        if let first = samples.first, let last = samples.last, !((last.t - first.t) * 1000).isFinite {
            return .durationNotFinite
        }
        guard let pending else { return .store }
        return isPrefix(pending, of: samples) ? .store : .conflictsWithPending
    }

    /// What a complete session is when its id is already stored complete.
    public enum AlreadyStored: Hashable, Sendable {
        /// The same samples: nothing to do (counted).
        case duplicate
        /// Other samples: a conflict (rejected, the stored session kept).
        case conflict
    }

    public static func alreadyStored(_ samples: [TouchSample], stored: [TouchSample]) -> AlreadyStored {
        identical(samples, stored) ? .duplicate : .conflict
    }

    /// What a session still open at the end of a run becomes.
    public enum LeftOpen: Hashable, Sendable {
        /// Kept in `pending` (new, or extending the pending session of the same id).
        case keepPending
        /// It repeats what is stored (a prefix of the stored session, or of the pending one, or
        /// the pending one exactly): nothing to do (counted).
        case duplicate
        /// It contradicts the stored complete session: rejected, the stored one kept.
        case conflictsWithStored
        /// It contradicts the pending session: rejected, the pending one kept.
        case conflictsWithPending
    }

    /// - Parameters:
    ///   - samples: the open session's samples.
    ///   - resumed: this run resumed it from `pending` (so it extends that session).
    ///   - stored: the complete session of the same id, when one is stored.
    ///   - pending: the pending session of the same id, when one is stored (and not resumed).
    public static func leftOpen(_ samples: [TouchSample], resumed: Bool, stored: [TouchSample]?,
                                pending: [TouchSample]?) -> LeftOpen {
        if resumed { return .keepPending }
        if let stored { return isPrefix(samples, of: stored) ? .duplicate : .conflictsWithStored }
        guard let pending else { return .keepPending }
        if isPrefix(pending, of: samples) { return pending.count == samples.count ? .duplicate : .keepPending }
        return isPrefix(samples, of: pending) ? .duplicate : .conflictsWithPending
    }

    // MARK: Comparing samples

    /// Bit for bit: `t`, `x`, `y` by their IEEE 754 bits, and the phase.
    public static func identical(_ a: TouchSample, _ b: TouchSample) -> Bool {
        a.t.bitPattern == b.t.bitPattern && a.x.bitPattern == b.x.bitPattern && a.y.bitPattern == b.y.bitPattern
            && a.phase == b.phase
    }

    /// The same samples, bit for bit.
    public static func identical(_ a: [TouchSample], _ b: [TouchSample]) -> Bool {
        a.count == b.count && isPrefix(a, of: b)
    }

    /// `a` is `b`'s first `a.count` samples, bit for bit.
    public static func isPrefix(_ a: [TouchSample], of b: [TouchSample]) -> Bool {
        a.count <= b.count && zip(a, b).allSatisfy { identical($0, $1) }
    }
}
