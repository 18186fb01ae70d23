// What a user sees of a press: when the first frame shows it, how deep it gets, and the largest
// jump an animation starting or ending makes (reference §4).

/// The visual figures of one press, measured on display frames of a `ScaleTimeline`.
///
/// Frames sample the timeline at touch-down + k / refreshRate, k = 1, 2, …, until the first frame
/// at or after `settledTime` (every animation ended, the value static) — frames after the lift
/// count. Frames that provably cannot change a figure are not evaluated (the same figures, bit
/// for bit): until the next event, when `ScaleTimeline.scaleBounds` (the springs' envelopes, the
/// curves' hulls) shows that no frame can be the first visible one or deepen the press, or when
/// the scale is exactly constant (at rest, or a press and a release cancelling at one instant).
/// The edge of a control of size w × h moves |scale − 1| × max(w, h) / 2 points.
///
/// ```swift
/// let m = try VisualMetrics(timeline: tl, touchDown: 0, width: 44, height: 44)
/// m.feedbackLatency   // 0.0333… s for a 100 ms tap with spring-press
/// ```
public struct VisualMetrics: Hashable, Sendable {
    /// Display refresh rate when none is given: 60 Hz (reference §4).
    public static let defaultRefreshRate = 60.0
    /// Device pixels per point when none is given: 3 (reference §4).
    public static let defaultDensity = 3.0
    /// The edge must move this many device pixels from rest for the press to be seen: 1 (reference §4).
    public static let feedbackPixelThreshold = 1.0
    /// Frames scanned at most: 1 000 000 (over 4.6 hours at 60 Hz); a guard, not a model constant.
    public static let maximumFrames = 1_000_000

    /// Seconds from touch-down to the first frame whose edge has moved at least one device pixel
    /// from rest, whichever animation moved it; nil when no frame does (an unseen press).
    public var feedbackLatency: Double?
    /// Points: the largest instantaneous change of the displayed scale at an instant where an
    /// animation starts, ends or is cut (simultaneous changes summed first), times max(w, h) / 2.
    /// Not caused by motion. 0 when nothing jumps.
    public var releaseJump: Double
    /// Fraction: the largest (scale − 1) / (pressedScale − 1) over the frames; above 1 for an
    /// overshooting spring, 0 for an unseen press or a pressed scale of 1.
    public var pressDepth: Double

    public init(feedbackLatency: Double?, releaseJump: Double, pressDepth: Double) {
        self.feedbackLatency = feedbackLatency; self.releaseJump = releaseJump; self.pressDepth = pressDepth
    }

    /// Measures `timeline` on a display.
    /// - Parameters:
    ///   - timeline: the scale over time.
    ///   - touchDown: the touch-down time in seconds, on the timeline's clock; frames count from it.
    ///   - width: the control's width in points.
    ///   - height: the control's height in points.
    ///   - refreshRate: frames per second (Hz), default 60.
    ///   - density: device pixels per point, default 3.
    /// - Throws: `AnimationParameterError` when touchDown is not finite or width, height, refresh
    ///   rate or density is not positive and finite.
    public init(timeline: ScaleTimeline, touchDown: Double, width: Double, height: Double,
                refreshRate: Double = VisualMetrics.defaultRefreshRate,
                density: Double = VisualMetrics.defaultDensity) throws(AnimationParameterError) {
        try AnimationParameterError.check("touchDown", touchDown, true, "finite")
        try AnimationParameterError.check("width", width, width > 0, "positive")
        try AnimationParameterError.check("height", height, height > 0, "positive")
        try AnimationParameterError.check("refreshRate", refreshRate, refreshRate > 0, "positive")
        try AnimationParameterError.check("density", density, density > 0, "positive")

        let halfSize = max(width, height) / 2
        let visibility = FeedbackVisibility(timeline.animation.feedback, halfSize: halfSize, density: density)
        let rest = ScaleTimeline.restScale
        let pressedChange = timeline.animation.pressedScale - rest

        // The largest jump, over each of timeline.changeInstants; the last of them is
        // `timeline.settledTime`, where the frame scan below ends (one walk for both).
        var jump = 0.0
        var settled = -Double.infinity
        var instant = timeline.nextChangeInstant(after: nil)
        while let t = instant {
            let scales = timeline.scalesAround(t)  // scale(justBefore: t) and scale(at: t)
            jump = max(jump, abs(scales.at - scales.justBefore))
            settled = t
            instant = timeline.nextChangeInstant(after: t)
        }

        var feedback: Double? = nil
        var depth = 0.0
        var k = 1
        var attemptIn = 0, attemptGap = 1
        var constantUntil: Double? = nil
        while true {
            let elapsed = Double(k) / refreshRate
            let frameTime = touchDown + elapsed
            let s = timeline.scale(at: frameTime)
            if feedback == nil, visibility.isVisible(abs(s - rest)) {
                feedback = elapsed
            }
            if pressedChange != 0 { depth = max(depth, (s - rest) / pressedChange) }
            if frameTime >= settled - ScaleTimeline.simultaneityTolerance || k >= VisualMetrics.maximumFrames { break }
            k += 1
            // This frame's scale holds exactly until `constantUntil`: the frames before it would
            // repeat the same comparisons with the same value, which change nothing more.
            if let until = constantUntil {
                constantUntil = nil
                if until == .infinity { break }
                k = VisualMetrics.firstFrame(notBefore: until, from: k, touchDown: touchDown, refreshRate: refreshRate)
                continue
            }
            // Until the next event the frames stay within `scaleBounds`; when no scale within
            // them can show the press for the first time or deepen it, those frames cannot change
            // either figure and are skipped — after the last event, the scan stops. (Floating-point
            // subtraction, multiplication and division by a constant are monotonic, so the bound
            // holds for the figures as computed too.) A failed try waits up to 4 frames for the next.
            attemptIn -= 1
            guard attemptIn <= 0 else { continue }
            let bounds = timeline.scaleBounds(from: touchDown + Double(k) / refreshRate)
            if let b = bounds {
                let largest = max(abs(b.lower - rest), abs(b.upper - rest))
                let feedbackDecided = feedback != nil
                    || !visibility.isVisible(largest)
                let deepest = pressedChange > 0 ? (b.upper - rest) / pressedChange : (b.lower - rest) / pressedChange
                // A depth of ±0 may still take the other zero's sign from a frame at rest.
                let depthDecided = pressedChange == 0 || deepest < depth || (depth != 0 && deepest <= depth)
                if feedbackDecided && depthDecided {
                    if b.until == .infinity { break }
                    k = VisualMetrics.firstFrame(notBefore: b.until, from: k, touchDown: touchDown, refreshRate: refreshRate)
                    attemptGap = 1
                    continue
                }
            }
            if let b = bounds, b.isConstant {
                constantUntil = b.until
                continue
            }
            attemptIn = attemptGap
            attemptGap = min(2 * attemptGap, 4)
        }

        self.init(feedbackLatency: feedback, releaseJump: jump * visibility.jumpUnit, pressDepth: depth)
    }

    /// Measures `timeline` on a display whose app does not commit the frames `stalls` draws
    /// (docs/press-model.md §8): a stalled frame shows the last committed one, so it neither
    /// shows the press nor deepens it; the next committed frame shows the scale at its own
    /// time. Every frame is evaluated (a draw per frame keeps the sequence reproducible); the
    /// scan ends at the first committed frame at or after the timeline settles. The jump does not
    /// depend on frames. Parameters and errors as `init(timeline:touchDown:…)`.
    public init(timeline: ScaleTimeline, touchDown: Double, width: Double, height: Double,
                refreshRate: Double, density: Double, stalls: inout StallSampler) throws(AnimationParameterError) {
        let plain = try VisualMetrics(timeline: timeline, touchDown: touchDown, width: width, height: height,
                                      refreshRate: refreshRate, density: density)
        let visibility = FeedbackVisibility(timeline.animation.feedback, halfSize: max(width, height) / 2, density: density)
        let rest = ScaleTimeline.restScale
        let pressedChange = timeline.animation.pressedScale - rest
        var settled = -Double.infinity
        var instant = timeline.nextChangeInstant(after: nil)
        while let t = instant { settled = t; instant = timeline.nextChangeInstant(after: t) }
        var feedback: Double? = nil
        var depth = 0.0
        var k = 1
        while true {
            let elapsed = Double(k) / refreshRate
            let frameTime = touchDown + elapsed
            if !stalls.nextFrameStalled() {
                let s = timeline.scale(at: frameTime)
                if feedback == nil, visibility.isVisible(abs(s - rest)) { feedback = elapsed }
                if pressedChange != 0 { depth = max(depth, (s - rest) / pressedChange) }
                if frameTime >= settled - ScaleTimeline.simultaneityTolerance { break }
            }
            if k >= VisualMetrics.maximumFrames { break }
            k += 1
        }
        self.init(feedbackLatency: feedback, releaseJump: plain.releaseJump, pressDepth: depth)
    }

    /// The first frame k ≥ `k` (capped at `maximumFrames`) at which an event at `time` has
    /// happened (touchDown + k / refreshRate + tolerance ≥ time): a guess from the division, then
    /// the loop's own comparison, so that the frame is the one the scan would reach.
    static func firstFrame(notBefore time: Double, from k: Int, touchDown: Double, refreshRate: Double) -> Int {
        let tol = ScaleTimeline.simultaneityTolerance
        let guess = ((time - tol - touchDown) * refreshRate).rounded(.down) - 1
        let first = k
        var k = guess.isFinite && guess > Double(first) ? Int(min(guess, Double(maximumFrames))) : first
        while k > first, time <= touchDown + Double(k - 1) / refreshRate + tol { k -= 1 }
        while k < maximumFrames, time > touchDown + Double(k) / refreshRate + tol { k += 1 }
        return k
    }
}
