// Whether a log's times are seconds: a log written in milliseconds reads as presses lasting
// minutes with samples seconds apart, which no finger makes.

/// Counts the sessions whose times only make sense in a smaller unit: longer than
/// `suspectDuration` with samples on average `suspectGap` or more apart. UIKit delivers touches
/// at about 60 Hz and some devices record them at up to 240 Hz (Apple, "Getting high-fidelity
/// input with coalesced touches"), and a press lasts well under a second (the model's
/// long-press threshold is 0.5 s), so in seconds such sessions are all but absent (they are
/// the *observed, not documented* bounds of this check: 10 s, 1 s); in
/// milliseconds a 16 ms gap reads as 16 s and an 81 ms tap as 81 s.
public struct TimeUnitCheck: Hashable, Sendable {
    public static let suspectDuration = 10.0
    public static let suspectGap = 1.0
    /// Sessions of two or more samples looked at, and the suspect ones.
    public private(set) var sessions = 0
    public private(set) var suspect = 0
    /// The suspect sessions' mean gaps (the first `keptGaps`), for the median.
    private var gaps: [Double] = []
    static let keptGaps = 1001

    public init() {}

    /// Looks at one stored session's samples.
    public mutating func observe(_ samples: [TouchSample]) {
        guard let first = samples.first, let last = samples.last else { return }
        observe(first: first.t, last: last.t, count: samples.count)
    }

    /// Looks at one stored session: the times of its first and last samples, and how many it has.
    public mutating func observe(first: Double, last: Double, count: Int) {
        guard count > 1 else { return }
        sessions += 1
        let duration = last - first
        let gap = duration / Double(count - 1)
        if duration >= Self.suspectDuration, gap >= Self.suspectGap { noteSuspect(gap) }
    }

    private mutating func noteSuspect(_ gap: Double) {
        suspect += 1
        if gaps.count < Self.keptGaps { gaps.append(gap) }
    }

    /// The median mean gap between samples of the suspect sessions, seconds.
    public var medianSuspectGap: Double? {
        guard !gaps.isEmpty else { return nil }
        let sorted = gaps.sorted()
        let n = sorted.count
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }

    /// The unit the times look like when half or more of the sessions are suspect: by the
    /// median gap, `ms` (gaps of 1 to 1,000 "seconds"), `us` (to 10⁶) or `ns`; nil otherwise.
    public var likelyUnit: String? {
        guard sessions > 0, suspect * 2 >= sessions, let gap = medianSuspectGap else { return nil }
        return gap < 1e3 ? "ms" : gap < 1e6 ? "us" : "ns"
    }

    /// The warning to print, or nil, for times read in seconds.
    public var warning: String? { warning(timeUnitGiven: nil) }

    /// The warning to print, or nil; `timeUnitGiven`, the `--time-unit` the times were read in
    /// (nil or "s": seconds). With a unit given, no other unit is suggested: the times are wrong
    /// in a way no unit of ours explains, so the message says to check the unit of t.
    public func warning(timeUnitGiven: String?) -> String? {
        guard let unit = likelyUnit, let gap = medianSuspectGap else { return nil }
        let evidence = "\(suspect) of \(sessions) sessions last \(Int(Self.suspectDuration)) s or more with samples "
            + "\(Int(Self.suspectGap)) s or more apart (median \(JSONText.number((gap * 1000).rounded() / 1000)) s, "
            + "a finger is sampled 60-240 times a second)"
        if let given = timeUnitGiven, given != "s" {
            return "warning: read with --time-unit \(given), the times are still too far apart: \(evidence); "
                + "check the unit of t"
        }
        let name = ["ms": "milliseconds", "us": "microseconds", "ns": "nanoseconds"][unit]!
        return "warning: the times look like \(name), not seconds: \(evidence); "
            + "if t is in \(name), ingest again with --time-unit \(unit)"
    }
}
