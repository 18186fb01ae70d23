// The conventions both gesture models share (reference §2.1, "Conventions"): time measured from
// the touch-down sample, equal times, distances from the touch-down point, and a tolerant reading
// of a session that breaks the upstream validation.

/// Shared constants and geometry of the gesture models.
public enum GestureConventions {
    /// Two times closer than this are equal, in seconds (reference §2.1: "two times within 1e-9 s
    /// are equal"). A timer therefore fires before a sample whose time is within this of it.
    public static let timeTolerance = 1e-9

    /// Slack on distance comparisons, in points: thresholds (the 10 pt hysteresis, the retention
    /// area's edges, `allowableMovement`, the safe area) are met by values within this of them,
    /// so that a boundary case (a lift exactly 70 pt outside the frame) is not decided by the
    /// rounding of `frame.x + width + margin`. Far below any touch sensor's resolution.
    public static let distanceTolerance = 1e-9

    /// Whether `point` is inside the retention area: `frame` grown by `margin` points on each
    /// side, edges included (reference §2.1 rule 4). A frame with negative size is read as
    /// `CGRect` standardizes it.
    public static func isInside(_ point: Point, frame: Rect, margin: Double) -> Bool {
        let minX = min(frame.x, frame.x + frame.width) - margin - distanceTolerance
        let maxX = max(frame.x, frame.x + frame.width) + margin + distanceTolerance
        let minY = min(frame.y, frame.y + frame.height) - margin - distanceTolerance
        let maxY = max(frame.y, frame.y + frame.height) + margin + distanceTolerance
        return point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }

    /// Movement from `origin` to `point`, in points, split by a scroll axis: `along` the axis
    /// (for `both`, the larger of the two, since either axis scrolls) and `across` it (0 for
    /// `both`: there is no direction the container cannot scroll). Per-axis distances, not
    /// Euclidean (reference §2.1 rule 4).
    public static func axisDistances(from origin: Point, to point: Point,
                                     axis: ScrollAxis) -> (along: Double, across: Double) {
        let dx = abs(point.x - origin.x), dy = abs(point.y - origin.y)
        switch axis {
        case .vertical: return (dy, dx)
        case .horizontal: return (dx, dy)
        case .both: return (max(dx, dy), 0)
        }
    }

    /// Whether `distance` meets a threshold that counts when reached (`≥`, as the hysteresis).
    @inline(__always)
    static func reaches(_ distance: Double, _ threshold: Double) -> Bool {
        distance >= threshold - distanceTolerance
    }

    /// Whether `distance` exceeds a threshold that counts only when passed (`>`, as the safe
    /// area and `allowableMovement`).
    @inline(__always)
    static func exceeds(_ distance: Double, _ threshold: Double) -> Bool {
        distance > threshold + distanceTolerance
    }
}

/// A session's samples as the gesture models read them: times in seconds since the touch-down
/// sample, never decreasing, ending with exactly one terminal sample.
///
/// Upstream validation guarantees one `began` first, non-decreasing times and exactly one
/// terminal sample last. Should a session break that anyway, it is read tolerantly rather than
/// rejected: the first sample is the touch-down whatever its phase; a time earlier than its
/// predecessor is raised to it; samples after the first terminal one are ignored; a stray
/// `began` later on is neither a move nor an end; and a session without a terminal sample ends
/// as if `cancelled` at its last sample (the touch was lost).
///
/// A session that keeps those conventions (the usual case) is read in place: its own array, each
/// time less the touch-down's (which is what raising and the cap below would give it, since
/// subtracting a constant keeps the order), so replaying it copies no sample. Any other is
/// copied once with the repairs made.
struct NormalizedTouch {
    /// The touch-down sample's time on the samples' clock, in seconds.
    var touchDownTime: Double
    /// The touch-down point.
    var origin: Point
    /// The samples, touch-down first and terminal last; `t − timeOffset` is seconds since
    /// touch-down. Empty only when the session had no samples.
    private var storage: [TouchSample]
    /// The touch-down time for samples read in place, 0 for a repaired copy.
    private var timeOffset: Double
    /// Seconds from touch-down to the terminal sample.
    private(set) var duration: Double

    init(_ raw: [TouchSample]) {
        guard let first = raw.first else {
            touchDownTime = 0; origin = Point(x: 0, y: 0); storage = []; timeOffset = 0; duration = 0
            return
        }
        touchDownTime = first.t
        origin = first.point
        if let end = NormalizedTouch.inPlaceDuration(raw) {
            storage = raw; timeOffset = first.t; duration = end
            return
        }
        var out: [TouchSample] = []
        out.reserveCapacity(raw.count)
        var last = 0.0
        for (i, s) in raw.enumerated() {
            var r = s
            r.t = i == 0 ? 0 : max(last, s.t - first.t)
            if !r.t.isFinite { r.t = last }
            last = r.t
            if i == 0 { r.phase = .began }
            out.append(r)
            if i > 0 && s.phase.isTerminal { break }
        }
        if let end = out.last, !(out.count > 1 && end.phase.isTerminal) {
            out.append(TouchSample(t: end.t, x: end.x, y: end.y, phase: .cancelled))
        }
        storage = out; timeOffset = 0; duration = out.last?.t ?? 0
    }

    /// The duration when `raw` needs no repair (the touch-down's phase aside, which is never
    /// read): at least two samples, times since touch-down finite and never decreasing, the last
    /// sample the only terminal one after the touch-down. Nil otherwise.
    private static func inPlaceDuration(_ raw: [TouchSample]) -> Double? {
        guard raw.count >= 2 else { return nil }
        let t0 = raw[0].t
        var last = 0.0
        for i in 1..<raw.count {
            let s = raw[i]
            let t = s.t - t0
            guard t.isFinite, t >= last, s.phase.isTerminal == (i == raw.count - 1) else { return nil }
            last = t
        }
        return last
    }

    /// The number of samples, the touch-down and the terminal one included.
    var count: Int { storage.count }

    /// The samples after the touch-down, in order, with times in seconds since touch-down.
    var afterTouchDown: AfterTouchDown { AfterTouchDown(storage: storage, timeOffset: timeOffset) }

    /// `afterTouchDown`'s sequence.
    struct AfterTouchDown: Sequence, IteratorProtocol {
        fileprivate let storage: [TouchSample]
        fileprivate let timeOffset: Double
        private var index = 1
        fileprivate init(storage: [TouchSample], timeOffset: Double) {
            self.storage = storage; self.timeOffset = timeOffset
        }
        mutating func next() -> TouchSample? {
            guard index < storage.count else { return nil }
            var s = storage[index]
            index += 1
            s.t -= timeOffset
            return s
        }
    }

    /// The largest Euclidean distance of any sample from the touch-down point, in points.
    var maxTravel: Double {
        var m = 0.0
        for s in storage {
            let d = ((s.x - origin.x) * (s.x - origin.x) + (s.y - origin.y) * (s.y - origin.y)).squareRoot()
            if d > m { m = d }
        }
        return m
    }
}
