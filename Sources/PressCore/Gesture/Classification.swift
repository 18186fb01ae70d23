// One session → outcome, cancel reason, action and the press/release events for the animation.

/// How a press ended, as the `results.outcome` column names it.
public enum PressOutcome: String, Hashable, Sendable, CaseIterable {
    case tap
    case cancel
    case scrollAbort = "scroll_abort"
}

/// Why a press was cancelled (`results.cancel_reason`); only for the `cancel` outcome.
public enum CancelReason: String, Hashable, Sendable, CaseIterable {
    /// The finger lifted outside the retention area (`touchUpOutside`).
    case dragExit = "drag_exit"
    /// The system cancelled the touch (a `cancelled` sample).
    case system
    /// The long press was cancelled by leaving its safe area, or failed by moving beyond
    /// `allowableMovement`, outside a scroll view.
    case safeArea = "safe_area"
}

/// The classification of one session under one configuration. Times are in seconds since the
/// touch-down sample (add `touchDownTime` for the samples' clock); distances in points.
///
/// Outcomes, control model (`controlEvents`):
///
/// | how the touch ended | outcome | reason |
/// |---|---|---|
/// | `touchUpInside` | `tap` | – |
/// | `touchUpOutside` | `cancel` | `drag_exit` |
/// | `touchCancel` from a `cancelled` sample | `cancel` | `system` |
/// | `touchCancel` from a cancelling container's scroll (`table`, `scroll-immediate`) | `scroll_abort` | – |
/// | pan while the container held the touch back (no events at all) | `scroll_abort` | – |
/// | `cancelled` sample while held back (no events at all) | `cancel` | `system` |
/// | a system edge gesture took the touch while held back (no events at all) | `cancel` | `system` |
///
/// Long-press model (`longPressStates`):
///
/// | how the recognizer ended | outcome | reason |
/// |---|---|---|
/// | `.ended` from an `ended` sample | `tap` | – |
/// | safe area left while pressed | `scroll_abort` in a scroll view, else `cancel` | `safe_area` outside a scroll view |
/// | `.cancelled` from a `cancelled` sample | `cancel` | `system` |
/// | `.failed`: moved beyond `allowableMovement` before the press began | `scroll_abort` in a scroll view, else `cancel` | `safe_area` outside a scroll view |
/// | `.failed`: lifted or cancelled before `minimumPressDuration` | `cancel` | `system` |
public struct PressClassification: Hashable, Sendable {
    public var outcome: PressOutcome
    /// Nil for taps and scroll-aborts.
    public var cancelReason: CancelReason?
    /// Whether the configuration's action ran. With `any_release` it also runs for a touch that
    /// is not a tap — a false action.
    public var actionFired: Bool
    /// When the action ran, in seconds since touch-down; nil when it did not.
    public var actionTime: Double?
    /// Seconds from the touch event that triggered the action (the lift, or the cancel — a
    /// table's scroll cancel included) to the action: 0 for `touchUpInside` without a delay,
    /// the configured delay otherwise (reference §4); nil when no action ran.
    public var actionLatency: Double?
    /// The touch-down sample's time on the samples' clock, in seconds.
    public var touchDownTime: Double
    /// Seconds from touch-down to the terminal sample.
    public var duration: Double
    /// The largest Euclidean distance of any sample from the touch-down point, in points.
    public var maxTravel: Double
    /// The frame used: the session's, or Apple's 44 × 44 pt minimum hit target centred on the
    /// touch-down point.
    public var frame: Rect
    /// When the control received the touch (`touchDown`) or the long press began; nil if never.
    public var deliveryTime: Double?
    /// The control events (control model); empty for a long press.
    public var controlEvents: [TimedControlEvent]
    /// The recognizer's states (long-press model); empty for a control.
    public var longPressStates: [TimedLongPressState]
    /// Press and release animation starts, in time order (a press before a release at the same
    /// instant). Control: one per control event in the configuration's press or release set, as
    /// its targets would be called (not deduplicated). Long press: press at `.began`, release at
    /// `.ended` (the safe-area exit included), none after `.cancelled`.
    public var scaleEvents: [TimedScaleEvent]

    public init(outcome: PressOutcome, cancelReason: CancelReason?, actionFired: Bool, actionTime: Double?,
                actionLatency: Double?, touchDownTime: Double, duration: Double, maxTravel: Double, frame: Rect,
                deliveryTime: Double?, controlEvents: [TimedControlEvent], longPressStates: [TimedLongPressState],
                scaleEvents: [TimedScaleEvent]) {
        self.outcome = outcome; self.cancelReason = cancelReason; self.actionFired = actionFired
        self.actionTime = actionTime; self.actionLatency = actionLatency; self.touchDownTime = touchDownTime
        self.duration = duration; self.maxTravel = maxTravel; self.frame = frame; self.deliveryTime = deliveryTime
        self.controlEvents = controlEvents; self.longPressStates = longPressStates; self.scaleEvents = scaleEvents
    }
}

/// Classifies sessions: runs the configuration's gesture model and applies its press, release
/// and action rules.
public enum PressClassifier {
    /// Classifies one touch session.
    ///
    /// Usage:
    ///
    ///     let r = PressClassifier.classify(samples, frame: nil, container: .scroll,
    ///                                      scrollAxis: .vertical, configuration: .springPress)
    ///     r.outcome          // .tap
    ///     r.scaleEvents      // [press at 0.15, release at 0.3]
    ///
    /// - Parameters:
    ///   - samples: one touch, touch-down first, a terminal sample last (validated upstream; a
    ///     session breaking that is read tolerantly, see `ControlTracking`, and never crashes).
    ///   - frame: the control's frame in the samples' points; nil for a 44 × 44 pt square
    ///     centred on the touch-down point (`Rect.minimumHitTarget`).
    ///   - container: the scroll view the control sits in.
    ///   - scrollAxis: the container's scroll axis.
    ///   - configuration: gesture model, press/release events and action rule.
    ///   - edge: how a system edge gesture holds the touch (`SystemEdgeHold.hold`); nil when
    ///     it begins in no edge zone. Only the control model has it (reference §5.3).
    public static func classify(_ samples: [TouchSample], frame: Rect?, container: Container,
                                scrollAxis: ScrollAxis, configuration: PressConfiguration,
                                edge: SystemEdgeHold? = nil) -> PressClassification {
        classify(samples, frame: frame, container: container, scrollAxis: scrollAxis,
                 configuration: configuration, edge: edge, keepingControlEvents: true)
    }

    /// `classify`, with `controlEvents` left empty unless `keepingControlEvents`: a replay that
    /// only needs the result (`Replay.session`, the sweep) makes the scale events as the control
    /// events happen, without an array of them.
    package static func classify(_ samples: [TouchSample], frame: Rect?, container: Container,
                                 scrollAxis: ScrollAxis, configuration: PressConfiguration,
                                 edge: SystemEdgeHold? = nil, keepingControlEvents: Bool) -> PressClassification {
        let touch = NormalizedTouch(samples)
        let frame = frame ?? Rect.minimumHitTarget(centeredOn: touch.origin)
        // The fields as locals, the value made once at the end: a `var` of the whole struct
        // filled in place was copied on return (three array retains and releases a session).
        var outcome = PressOutcome.cancel, cancelReason: CancelReason? = .system
        var deliveryTime: Double? = nil
        var controlEvents: [TimedControlEvent] = [], longPressStates: [TimedLongPressState] = []
        var scaleEvents: [TimedScaleEvent] = []
        let delay = configuration.actionDelay
        var trigger: Double? = nil  // the time of the event that triggers the action

        switch configuration.gesture {
        case .control(let control):
            var events = ScaleEventsOfControlEvents(press: configuration.pressEventMask,
                                                    release: configuration.releaseEventMask,
                                                    keepingControlEvents: keepingControlEvents,
                                                    capacity: touch.count + 1)
            let (ending, _) = ControlTracking.track(touch, frame: frame, container: container, scrollAxis: scrollAxis,
                                                    retentionMargin: control.retentionMargin, edge: edge,
                                                    into: &events)
            controlEvents = events.controlEvents
            scaleEvents = events.scaleEvents
            if control.coalescesSimultaneousUpdates { PressClassifier.coalesce(&scaleEvents) }
            deliveryTime = events.deliveryTime
            switch ending {
            case .touchUpInside: (outcome, cancelReason) = (.tap, nil)
            case .touchUpOutside: (outcome, cancelReason) = (.cancel, .dragExit)
            case .systemCancel, .cancelledWhileHeld, .systemGestureBeforeDelivery: (outcome, cancelReason) = (.cancel, .system)
            case .scrollCancel, .panBeforeDelivery: (outcome, cancelReason) = (.scrollAbort, nil)
            }
            if let last = events.last, last.event.isTerminal {
                switch configuration.actionRule {
                case .upInside: if last.event == .touchUpInside { trigger = last.time }
                case .anyRelease: trigger = last.time
                }
            }

        case .longPress(let gesture):
            let trace = LongPressRecognition.trace(touch, gesture: gesture)
            longPressStates = trace.states
            deliveryTime = trace.beganTime
            if let began = trace.beganTime {  // a release comes only after it
                scaleEvents.reserveCapacity(2)
                scaleEvents.append(TimedScaleEvent(time: began, event: .press))
            }
            let scrolls = container.isScrollView
            switch trace.ending {
            case .ended:
                (outcome, cancelReason) = (.tap, nil)
                scaleEvents.append(TimedScaleEvent(time: trace.endTime, event: .release))
                trigger = trace.endTime
            case .leftSafeArea:
                (outcome, cancelReason) = scrolls ? (.scrollAbort, nil) : (.cancel, .safeArea)
                scaleEvents.append(TimedScaleEvent(time: trace.endTime, event: .release))
                if configuration.actionRule == .anyRelease { trigger = trace.endTime }
            case .cancelled, .failedByLift, .failedByCancel:
                (outcome, cancelReason) = (.cancel, .system)
            case .failedByMovement:
                (outcome, cancelReason) = scrolls ? (.scrollAbort, nil) : (.cancel, .safeArea)
            }
        }

        return PressClassification(
            outcome: outcome, cancelReason: cancelReason, actionFired: trigger != nil,
            actionTime: trigger.map { $0 + delay }, actionLatency: trigger.map { _ in delay },
            touchDownTime: touch.touchDownTime, duration: touch.duration, maxTravel: touch.maxTravel,
            frame: frame, deliveryTime: deliveryTime, controlEvents: controlEvents,
            longPressStates: longPressStates, scaleEvents: scaleEvents)
    }
}

extension PressClassifier {
    /// Drops each press immediately followed by a release at the same instant (within the time
    /// tolerance): a state set and cleared while handling one event is never rendered
    /// (`ControlGesture.coalescesSimultaneousUpdates`).
    static func coalesce(_ events: inout [TimedScaleEvent]) {
        var i = 0
        while i + 1 < events.count {
            if events[i].event == .press, events[i + 1].event == .release,
               abs(events[i + 1].time - events[i].time) <= GestureConventions.timeTolerance {
                events.removeSubrange(i...(i + 1))
                if i > 0 { i -= 1 }
            } else {
                i += 1
            }
        }
    }
}

/// The control events' consequences as `ControlTracking.track` emits them: a press animation for
/// each event in the configuration's press set, a release for each in its release set (both, in
/// that order, for an event in both), the first `touchDown`'s time, and the last event.
struct ScaleEventsOfControlEvents: ControlEventSink {
    /// The sets as bits, made once per configuration.
    let press: ControlEventMask, release: ControlEventMask
    let keepingControlEvents: Bool
    /// Every event, when `keepingControlEvents`; else empty.
    private(set) var controlEvents: [TimedControlEvent] = []
    private(set) var scaleEvents: [TimedScaleEvent] = []
    /// When the control received the touch (its `touchDown`); nil if it never did.
    private(set) var deliveryTime: Double? = nil
    private(set) var last: TimedControlEvent? = nil

    /// `capacity`: the most events there can be (one per sample, and a delayed `touchDown`).
    init(press: ControlEventMask, release: ControlEventMask, keepingControlEvents: Bool, capacity: Int) {
        self.press = press; self.release = release; self.keepingControlEvents = keepingControlEvents
        if keepingControlEvents { controlEvents.reserveCapacity(capacity) }
        // A press and a release are the common case; a drag out and back in adds a pair.
        scaleEvents.reserveCapacity(4)
    }

    var lastTime: Double { last?.time ?? 0 }

    @inline(__always)
    mutating func append(_ e: TimedControlEvent) {
        if keepingControlEvents { controlEvents.append(e) }
        if deliveryTime == nil && e.event == .touchDown { deliveryTime = e.time }
        if press.contains(e.event) { scaleEvents.append(TimedScaleEvent(time: e.time, event: .press)) }
        if release.contains(e.event) { scaleEvents.append(TimedScaleEvent(time: e.time, event: .release)) }
        last = e
    }
}
