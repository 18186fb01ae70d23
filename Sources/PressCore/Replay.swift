// Replay: one recorded touch through a configuration's gesture model and animation, to the
// figures pressdb stores per session (reference §2 and §4). This is where the gesture core and
// the animation core meet: classification gives the press/release instants, the timeline turns
// them into the scale on screen, the visual metrics read it frame by frame.

/// The display a replay samples: refresh rate (Hz) and pixel density (device pixels per point)
/// for the frames, and the touch path and pipeline for the photon latencies. Defaults: the
/// `iphone-60hz` profile — 60 Hz, 3 px/pt (reference §4), touches sampled at 120 Hz and delivered
/// per frame, one pipeline frame (docs/press-model.md §6).
public struct Display: Hashable, Sendable {
    public var refreshRate: Double
    public var density: Double
    /// Touch sampling rate (Hz).
    public var touchSamplingRate: Double
    /// How sampled touches reach the app.
    public var delivery: TouchDelivery
    /// Frames from the frame the model samples to the glass.
    public var pipelineFrames: Int

    /// `iphone-60hz`'s touch sampling rate: 120 Hz (docs/press-model.md §6).
    public static let defaultTouchSamplingRate = 120.0
    /// `iphone-60hz`'s pipeline: 1 frame (docs/press-model.md §6).
    public static let defaultPipelineFrames = 1

    public init(refreshRate: Double = VisualMetrics.defaultRefreshRate,
                density: Double = VisualMetrics.defaultDensity,
                touchSamplingRate: Double = Display.defaultTouchSamplingRate,
                delivery: TouchDelivery = .perFrame,
                pipelineFrames: Int = Display.defaultPipelineFrames) {
        self.refreshRate = refreshRate; self.density = density
        self.touchSamplingRate = touchSamplingRate; self.delivery = delivery; self.pipelineFrames = pipelineFrames
    }
}

/// What a touch session amounts to under one configuration: the `results` row of the database.
/// Times in milliseconds, distances in points.
public struct SessionResult: Hashable, Sendable {
    public var outcome: PressOutcome
    /// Nil for taps and scroll-aborts.
    public var cancelReason: CancelReason?
    /// The action ran (with `any_release`, also for a press that was not a tap: a false action).
    public var actionFired: Bool
    /// Touch-down to the first frame where the control's edge moved one device pixel; nil for an
    /// unseen press.
    public var feedbackLatencyMs: Double?
    /// The triggering touch event to the action; nil without an action.
    public var actionLatencyMs: Double?
    /// Touch-down to the terminal sample.
    public var durationMs: Double
    /// Largest distance of any sample from the touch-down point.
    public var maxTravelPt: Double
    /// Largest fraction of the pressed-scale change shown on a frame.
    public var pressDepth: Double
    /// Largest instantaneous jump of the edge caused by an animation starting, ending or being cut.
    public var releaseJumpPt: Double
    /// Contact to the feedback on the glass: the touch's sampling and delivery delay, the model's
    /// frames and the pipeline (`PhotonLatency.feedback`); nil for an unseen press.
    public var feedbackPhotonMs: Double?
    /// The triggering contact to the action's effect on the glass (`PhotonLatency.action`); nil
    /// without an action.
    public var actionPhotonMs: Double?

    public init(outcome: PressOutcome, cancelReason: CancelReason?, actionFired: Bool,
                feedbackLatencyMs: Double?, actionLatencyMs: Double?, durationMs: Double,
                maxTravelPt: Double, pressDepth: Double, releaseJumpPt: Double,
                feedbackPhotonMs: Double? = nil, actionPhotonMs: Double? = nil) {
        self.outcome = outcome; self.cancelReason = cancelReason; self.actionFired = actionFired
        self.feedbackLatencyMs = feedbackLatencyMs; self.actionLatencyMs = actionLatencyMs
        self.durationMs = durationMs; self.maxTravelPt = maxTravelPt; self.pressDepth = pressDepth
        self.releaseJumpPt = releaseJumpPt
        self.feedbackPhotonMs = feedbackPhotonMs; self.actionPhotonMs = actionPhotonMs
    }
}

/// Everything one replay computes: the classification (the gesture model's events and the
/// outcome), the scale on screen over time, and what the display shows of it. The stored
/// result (`result`) and the HTML report's typical-tap chart (`frames`) are both read from it.
public struct ReplayTrace: Sendable {
    /// The gesture model's verdict, times in seconds since touch-down.
    public var classification: PressClassification
    /// The displayed scale over time, seconds since touch-down (touch-down at 0).
    public var timeline: ScaleTimeline
    /// The first visible frame, press depth and largest jump, on `display`.
    public var visual: VisualMetrics
    /// The display the frames are sampled on.
    public var display: Display

    /// The `results` row's figures, in milliseconds and points.
    public var result: SessionResult { Replay.result(classification, visual, display) }

    /// The displayed scale on every display frame from touch-down (k / refresh rate, k = 0, 1, …)
    /// to `end` seconds: what the screen shows, frame by frame.
    public func frames(until end: Double) -> [ScaleSample] {
        timeline.samples(from: 0, to: end, step: 1 / display.refreshRate)
    }
}

extension Replay {
    /// The `results` row of a classification and what the display showed of it
    /// (`ReplayTrace.result`).
    static func result(_ c: PressClassification, _ visual: VisualMetrics, _ display: Display) -> SessionResult {
        let ms = { (seconds: Double) in Replay.stored(seconds * 1000, decimals: Replay.StoredResolution.milliseconds) }
        return SessionResult(
            outcome: c.outcome, cancelReason: c.cancelReason, actionFired: c.actionFired,
            feedbackLatencyMs: visual.feedbackLatency.map(ms),
            actionLatencyMs: c.actionLatency.map(ms),
            durationMs: ms(c.duration),
            maxTravelPt: Replay.stored(c.maxTravel, decimals: Replay.StoredResolution.points),
            pressDepth: Replay.stored(visual.pressDepth, decimals: Replay.StoredResolution.pressDepth),
            releaseJumpPt: Replay.stored(visual.releaseJump, decimals: Replay.StoredResolution.points),
            feedbackPhotonMs: visual.feedbackLatency.map { ms(PhotonLatency.feedback($0, on: display)) },
            actionPhotonMs: c.actionLatency.map { ms(PhotonLatency.action($0, on: display)) })
    }
}

/// Replays touch sessions.
public enum Replay {
    /// The container of a session that names none: no scroll view (reference §2).
    public static let defaultContainer = Container.none
    /// The scroll axis of a session that names none: vertical (the common case of a scroll view
    /// around a button; docs/log-format.md, `scroll_axis`).
    public static let defaultScrollAxis = ScrollAxis.vertical
    /// The configuration of a session that names none (`--config` changes it): `spring-press`.
    public static let defaultConfiguration = PressConfiguration.springPress

    /// Replays one session under `configuration`, keeping every intermediate figure.
    ///
    ///     let t = try Replay.trace(samples, frame: nil, container: .none, scrollAxis: .vertical,
    ///                              configuration: .springPress)
    ///     t.result.outcome               // .tap
    ///     t.frames(until: 0.5)           // the scale on each 60 Hz frame
    ///
    /// - Parameters:
    ///   - samples: one touch, touch-down first and a terminal sample last (times in seconds,
    ///     positions in points).
    ///   - frame: the control's frame in points, or nil for a 44 × 44 pt square centred on the
    ///     touch-down point.
    ///   - container: the scroll view around the control.
    ///   - scrollAxis: its scroll axis.
    ///   - configuration: gesture rules, animations and action rule.
    ///   - display: refresh rate and density used to find the first visible frame.
    /// - Throws: `AnimationParameterError` when the configuration's animations or the display
    ///   have invalid parameters (a configuration parsed by `ConfigurationJSON` never does).
    public static func trace(_ samples: [TouchSample], frame: Rect?, container: Container,
                             scrollAxis: ScrollAxis, configuration: PressConfiguration,
                             display: Display = Display()) throws(AnimationParameterError) -> ReplayTrace {
        let c = PressClassifier.classify(samples, frame: frame, container: container,
                                         scrollAxis: scrollAxis, configuration: configuration)
        return try trace(c, resolved: configuration.resolvedAnimation, display: display)
    }

    /// The second half of a replay: a classification's press and release instants through
    /// `animation`, to the scale on screen and what `display` shows of it. `trace(_:frame:…)` is
    /// `PressClassifier.classify` followed by this. A classification depends on the gesture
    /// model, action rule and action delay only, so configurations that differ in their
    /// animations alone can share one (what `pressdb sweep` does).
    /// - Throws: `AnimationParameterError` (see `trace(_:frame:…)`).
    public static func trace(_ classification: PressClassification, animation: PressAnimation,
                             display: Display = Display()) throws(AnimationParameterError) -> ReplayTrace {
        try trace(classification, resolved: ResolvedPressAnimation(animation), display: display)
    }

    /// `trace(_:animation:display:)` with the animations resolved once for many sessions.
    /// - Throws: `AnimationParameterError` (see `trace(_:frame:…)`).
    public static func trace(_ classification: PressClassification, resolved: ResolvedPressAnimation,
                             display: Display = Display()) throws(AnimationParameterError) -> ReplayTrace {
        let (timeline, visual) = try shown(classification, resolved: resolved, display: display)
        return ReplayTrace(classification: classification, timeline: timeline, visual: visual, display: display)
    }

    /// The scale on screen for a classification's press and release instants through `resolved`,
    /// and what `display` shows of it: the second half of `trace` and `session`.
    /// - Throws: `AnimationParameterError` (see `trace(_:frame:…)`).
    private static func shown(_ c: PressClassification, resolved: ResolvedPressAnimation,
                              display: Display) throws(AnimationParameterError) -> (ScaleTimeline, VisualMetrics) {
        // Classification times are seconds since touch-down, so the timeline starts at 0.
        let timeline = try ScaleTimeline(resolved: resolved, events: c.scaleEvents)
        let visual = try VisualMetrics(timeline: timeline, touchDown: 0, width: c.frame.width,
                                       height: c.frame.height, refreshRate: display.refreshRate,
                                       density: display.density)
        return (timeline, visual)
    }

    /// Replays one session under `configuration`: `trace(…).result`.
    ///
    ///     let r = try Replay.session(samples, frame: nil, container: .none, scrollAxis: .vertical,
    ///                                configuration: .springPress)
    ///     r.outcome             // .tap
    ///     r.feedbackLatencyMs   // 33.33… for a 100 ms stationary tap at 60 Hz
    ///
    /// - Throws: `AnimationParameterError` (see `trace`).
    public static func session(_ samples: [TouchSample], frame: Rect?, container: Container,
                               scrollAxis: ScrollAxis, configuration: PressConfiguration,
                               display: Display = Display(),
                               edge: SystemEdgeHold? = nil) throws(AnimationParameterError) -> SessionResult {
        // `trace(…).result` without keeping the trace: nothing is copied into one.
        let c = PressClassifier.classify(samples, frame: frame, container: container, scrollAxis: scrollAxis,
                                         configuration: configuration, edge: edge, keepingControlEvents: false)
        let (_, visual) = try shown(c, resolved: configuration.resolvedAnimation, display: display)
        return result(c, visual, display)
    }

    /// Replays a session with the attributes it was stored with: its frame, its container (else
    /// `defaultContainer`) and scroll axis (else `defaultScrollAxis`), and the system edge zone
    /// its touch-down is in (`window` and `system_gestures`). Its `config` plays no part: the
    /// caller chose `configuration`.
    /// - Throws: `AnimationParameterError` (see `trace`).
    public static func session(_ samples: [TouchSample], attributes: SessionAttributes,
                               defaultContainer: Container = Replay.defaultContainer,
                               configuration: PressConfiguration,
                               display: Display = Display()) throws(AnimationParameterError) -> SessionResult {
        try session(samples, frame: attributes.frame, container: attributes.container ?? defaultContainer,
                    scrollAxis: attributes.scrollAxis ?? defaultScrollAxis, configuration: configuration,
                    display: display, edge: edgeHold(samples, attributes))
    }

    /// The system edge hold of a session's touch-down (nil without `window` and
    /// `system_gestures`, or outside their zones).
    @inline(__always)
    public static func edgeHold(_ samples: [TouchSample], _ attributes: SessionAttributes) -> SystemEdgeHold? {
        guard attributes.has(.systemGestures), let first = samples.first else { return nil }
        return SystemEdgeHold.hold(at: first.point, attributes: attributes)
    }

    /// Replays a session as `session(_:attributes:…)` does, with the main-thread stalls
    /// `stalls` draws (docs/press-model.md §8): the result without stalls and the one with them.
    /// - Throws: `AnimationParameterError` (see `trace`).
    public static func session(_ samples: [TouchSample], attributes: SessionAttributes,
                               defaultContainer: Container = Replay.defaultContainer,
                               configuration: PressConfiguration, display: Display,
                               stalls: inout StallSampler) throws(AnimationParameterError)
        -> (baseline: SessionResult, stalled: SessionResult) {
        let c = PressClassifier.classify(samples, frame: attributes.frame, container: attributes.container ?? defaultContainer,
                                         scrollAxis: attributes.scrollAxis ?? defaultScrollAxis,
                                         configuration: configuration, keepingControlEvents: false)
        let (timeline, visual) = try shown(c, resolved: configuration.resolvedAnimation, display: display)
        let stalled = try VisualMetrics(timeline: timeline, touchDown: 0, width: c.frame.width, height: c.frame.height,
                                        refreshRate: display.refreshRate, density: display.density, stalls: &stalls)
        return (result(c, visual, display), result(c, stalled, display))
    }

    /// The decimal places each derived figure is kept with (docs/log-format.md, "results"): far
    /// below anything measured — a microsecond of log time is 0.001 ms, a device pixel a third of
    /// a point — and far above binary floating-point noise, so a computed 18 pt is 18, not
    /// 18.000000000000004, and 2/60 s is 33.333333 ms.
    public enum StoredResolution {
        /// Milliseconds: 6 decimals (1 ns).
        public static let milliseconds = 6
        /// Points: 6 decimals.
        public static let points = 6
        /// Press depth, a fraction of the pressed-scale change: 6 decimals.
        public static let pressDepth = 6
    }

    /// `value` rounded half away from zero to `decimals` decimal places (0 ≤ decimals ≤ 15): the
    /// double nearest to the decimal number, whose shortest text is that number. Not finite
    /// values are returned as they are.
    public static func stored(_ value: Double, decimals: Int) -> Double {
        guard value.isFinite else { return value }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }  // exact: every power of ten up to 1e22 is a double
        let scaled = value * scale
        guard abs(scaled) < 9.0e15 else { return value }  // beyond 2^53 there is no fraction left
        return scaled.rounded() / scale + 0  // + 0 turns −0 into 0
    }
}
