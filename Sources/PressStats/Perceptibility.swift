// Whether a latency difference can be perceived: the thresholds the perception literature gives
// for touch screens, and the classification of a difference's interval against one of them
// (docs/press-model.md §7, docs/compare.md).

/// A published perception threshold for touch latency.
public struct PerceptionThreshold: Sendable, Hashable {
    /// Its name in tables and on the command line (`tap_jnd`).
    public var name: String
    /// Milliseconds.
    public var ms: Double
    /// What it is, in a phrase.
    public var meaning: String
    /// Where it comes from.
    public var source: String
}

/// Whether a latency difference can be seen: `yes` when its whole interval lies beyond the
/// threshold, `no` when it lies within it, `unclear` when it straddles the threshold.
public enum Perceptibility: String, Sendable, Hashable {
    case yes, no, unclear

    /// Classifies the interval of a difference B − A (ms) against `threshold` ms: `yes` when
    /// the interval lies entirely above `threshold` or entirely below −`threshold`, `no` when it
    /// lies strictly between −`threshold` and `threshold`, `unclear` otherwise (it reaches a
    /// threshold, or is not finite).
    public init(difference interval: ConfidenceInterval, threshold: Double) {
        let t = abs(threshold)
        guard interval.lower.isFinite, interval.upper.isFinite else { self = .unclear; return }
        if interval.lower > t || interval.upper < -t { self = .yes }
        else if interval.lower > -t && interval.upper < t { self = .no }
        else { self = .unclear }
    }
}

/// The thresholds table (docs/press-model.md §7), and the one compare uses by default.
public enum PerceptionThresholds {
    /// Just-noticeable difference of tapping latency on a direct-touch screen: 69 ms, the mean
    /// over participants against a ~1 ms reference (indirect touch: 96 ms; docs/press-model.md §7).
    public static let tapJND = PerceptionThreshold(
        name: "tap_jnd", ms: 69, meaning: "just-noticeable difference of latency when tapping (direct touch, against ~1 ms)",
        source: "Deber, Jota, Forlines & Wigdor, CHI 2015")
    /// Just-noticeable difference of dragging latency on a direct-touch screen: 11 ms, the mean
    /// over participants against a ~1 ms reference (indirect touch: 55 ms).
    public static let dragJND = PerceptionThreshold(
        name: "drag_jnd", ms: 11, meaning: "just-noticeable difference of latency when dragging (direct touch, against ~1 ms)",
        source: "Deber, Jota, Forlines & Wigdor, CHI 2015")
    /// Tapping latency people detect against a 1 ms reference: about 24 ms (land-on).
    public static let tapDetection = PerceptionThreshold(
        name: "tap_detection", ms: 24, meaning: "latency detected when tapping (land-on), against ~1 ms",
        source: "Jota, Ng, Dietz & Wigdor, CHI 2013")
    /// Dragging latency people detect against a 1 ms reference: about 6 ms.
    public static let dragDetection = PerceptionThreshold(
        name: "drag_detection", ms: 6, meaning: "latency detected when dragging, against ~1 ms",
        source: "Ng, Lepinski, Wigdor, Sanders & Dietz, UIST 2012")
    /// Visual press feedback judged good up to 85 ms (recommended 30–85 ms).
    public static let visualFeedbackGood = PerceptionThreshold(
        name: "visual_feedback_good", ms: 85, meaning: "upper end of the recommended 30–85 ms for a button's visual feedback",
        source: "Kaaresoja, Brewster & Lantz, ACM TAP 2014")
    /// The 100 ms within which a response feels instantaneous.
    public static let instant = PerceptionThreshold(
        name: "instant", ms: 100, meaning: "a response within it feels instantaneous",
        source: "Nielsen, Usability Engineering 1993 (after Miller 1968 and Card et al. 1991)")

    /// Every threshold, smallest first.
    public static let all: [PerceptionThreshold] = [dragDetection, dragJND, tapDetection, tapJND, visualFeedbackGood, instant]

    /// The threshold compare classifies latency differences against: the tap JND (a press is a tap).
    public static let `default` = tapJND
}

extension ExperimentReport {
    /// The report with every latency row's `perceptible` set against `threshold` ms
    /// (`Perceptibility(difference:threshold:)` on the row's interval of B − A); rate rows and
    /// rows without an interval keep nil.
    public func classifyingPerceptibility(threshold: Double) -> ExperimentReport {
        var r = self
        for i in r.rows.indices where !r.rows[i].metric.isRate {
            r.rows[i].perceptible = r.rows[i].differenceInterval.map { Perceptibility(difference: $0, threshold: threshold) }
        }
        r.perceptionThreshold = threshold
        return r
    }
}

extension ExperimentRow {
    /// The verdict in words for people: `Verdict`'s own, except that a latency difference
    /// detected but below the threshold reads "later, not perceptible"
    /// (or "sooner, …"): as short as "no detectable difference", so the verdict column keeps its width.
    public var verdictText: String {
        guard perceptible == .no, verdict == .better || verdict == .worse else { return verdict.rawValue }
        return (difference > 0 ? "later" : "sooner") + ", not perceptible"
    }
}
