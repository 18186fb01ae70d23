// The `control` model: which UIControl touch events a session produces, inside its container
// (reference §2.1, rules 1–5 for the control model, and the conventions).

/// How a control's touch ended, which decides the outcome (see `PressClassification`).
public enum ControlEnding: String, Hashable, Sendable, CaseIterable {
    /// `touchUpInside`: a tap.
    case touchUpInside
    /// `touchUpOutside`: the finger lifted beyond the retention margin (cancel, `drag_exit`).
    case touchUpOutside
    /// `touchCancel` from a `cancelled` sample while tracking (cancel, `system`).
    case systemCancel
    /// `touchCancel` from a cancelling container's scroll while tracking (scroll-abort).
    case scrollCancel
    /// The pan began while the container held the touch back: the control never saw the
    /// touch, no events at all (scroll-abort).
    case panBeforeDelivery
    /// A system edge gesture (the back swipe, the home swipe) took the touch while it held it
    /// back: the control never saw the touch, no events (cancel, `system`; reference §5.3).
    case systemGestureBeforeDelivery
    /// A `cancelled` sample while the container held the touch back: the control never saw
    /// the touch, no events (cancel, `system`).
    case cancelledWhileHeld
}

/// The control events of one session and how it ended. Times in seconds since touch-down.
public struct ControlTrace: Hashable, Sendable {
    /// Every touch event the control received, in order: at most one `touchDown` first, drag
    /// events for each move, and at most one terminal event last. Empty when the control never
    /// received the touch.
    public var events: [TimedControlEvent]
    public var ending: ControlEnding
    /// When the ending happened, in seconds since touch-down: the terminal event's time, or the
    /// sample at which the pan began or the held touch was cancelled.
    public var endTime: Double
    public init(events: [TimedControlEvent], ending: ControlEnding, endTime: Double) {
        self.events = events; self.ending = ending; self.endTime = endTime
    }
}

/// UIControl's touch tracking inside a scroll view (reference §2.1).
///
/// Usage:
///
///     let trace = ControlTracking.trace(samples, frame: frame, container: .table,
///                                       scrollAxis: .vertical, retentionMargin: 70)
///     trace.events   // [touchDown at 0.15, touchDragInside at 0.2, touchCancel at 0.25]
///
/// Rules, in the order they are applied to each sample after the touch-down:
/// 1. `none` (no scroll view) and containers that do not delay content touches deliver the
///    touch at touch-down: `touchDown` at 0.
/// 2. A delaying container (`scroll`, `table`) holds the touch back for `touchDelay`
///    (0.150 s). While held, for each sample in turn:
///    - its time reaches `touchDelay` (within 1e-9 s): the timer fires first, `touchDown` at
///      `touchDelay`, then the sample is tracked (rule 3);
///    - a move reaching `hysteresis` (10 pt) along a scrollable axis: the pan begins and the
///      control never gets the touch (`panBeforeDelivery`, no events). This wins over a move
///      that also reaches it across the axis;
///    - a move reaching `hysteresis` across the axis (never with `.both`): `touchDown` now,
///      then the sample is tracked;
///    - an `ended` sample: `touchDown` now, then the lift is tracked (touch-down and touch-up
///      together);
///    - a `cancelled` sample: `cancelledWhileHeld`, no events.
/// 2a. A touch beginning in a system edge zone (`edge`, reference §5.3) is also held: until
///    the lift (the back swipe) or `edge.delay` (the home edge's gate, 1 s). `touchDown` comes
///    when both holds are released, at the later release. While the edge holds it, a move
///    reaching 10 pt away from that edge is the system's gesture
///    (`systemGestureBeforeDelivery`, no events; checked first, the system's gestures take
///    precedence), and in a scroll view a move reaching `hysteresis` along a scrollable axis
///    is still the pan (`panBeforeDelivery`), after the container's own timer too.
/// 3. While tracking, a move (`moved` or `stationary`):
///    - in a container that cancels control touches, once it reaches `hysteresis` along a
///      scrollable axis from the touch-down point: `touchCancel` (`scrollCancel`). This is
///      checked first, as the scroll view's pan sees the touch before the control does;
///    - otherwise the inside test (rule 4) gives `touchDragInside`, `touchDragExit`,
///      `touchDragEnter` or `touchDragOutside` against the previous state (inside at
///      `touchDown`).
/// 4. Inside: within `frame` grown by `retentionMargin` on each side, edges included.
/// 5. The terminal sample: `ended` gives `touchUpInside` or `touchUpOutside` by the inside
///    test at its position; `cancelled` gives `touchCancel` (`systemCancel`). A terminal
///    sample's position never feeds the hysteresis or a table's cancel.
public enum ControlTracking {
    /// Replays `samples` (one touch, first sample the touch-down; times on any clock) through
    /// UIControl tracking in `container`.
    ///
    /// - Parameters:
    ///   - frame: the control's frame, in the samples' points.
    ///   - scrollAxis: the container's scroll axis (ignored without a scroll view).
    ///   - retentionMargin: points added on each side of `frame` for the inside test; see
    ///     `ControlGesture.iPhoneRetentionMargin` (70) and `.iPadRetentionMargin` (25).
    ///   - edge: how a system edge gesture holds the touch (reference §5.3); nil outside the
    ///     edge zones.
    /// - Returns: the events with times in seconds since the first sample. An empty `samples`
    ///   gives no events and `cancelledWhileHeld` at 0 (the control never saw a touch).
    public static func trace(_ samples: [TouchSample], frame: Rect, container: Container,
                             scrollAxis: ScrollAxis, retentionMargin: Double,
                             edge: SystemEdgeHold? = nil) -> ControlTrace {
        trace(NormalizedTouch(samples), frame: frame, container: container,
              scrollAxis: scrollAxis, retentionMargin: retentionMargin, edge: edge)
    }

    static func trace(_ touch: NormalizedTouch, frame: Rect, container: Container,
                      scrollAxis: ScrollAxis, retentionMargin: Double, edge: SystemEdgeHold? = nil) -> ControlTrace {
        var events: [TimedControlEvent] = []
        events.reserveCapacity(touch.count + 1)  // at most one per sample, and the delayed touchDown
        let (ending, endTime) = track(touch, frame: frame, container: container, scrollAxis: scrollAxis,
                                      retentionMargin: retentionMargin, edge: edge, into: &events)
        return ControlTrace(events: events, ending: ending, endTime: endTime)
    }

    /// The rules above, the events appended to `events` as they happen (none when the control
    /// never received the touch: `panBeforeDelivery` and `cancelledWhileHeld` end before the
    /// first). Returns how the touch ended and when, in seconds since touch-down.
    static func track<Events: ControlEventSink>(_ touch: NormalizedTouch, frame: Rect, container: Container,
                                                scrollAxis: ScrollAxis, retentionMargin: Double,
                                                edge: SystemEdgeHold? = nil,
                                                into events: inout Events) -> (ControlEnding, Double) {
        guard touch.count >= 2 else { return (.cancelledWhileHeld, 0) }
        let origin = touch.origin
        let scrolls = container.isScrollView
        let cancelsOnScroll = scrolls && container.cancelsControlTouches
        let hysteresis = container.hysteresis
        // Two holds, each released on its own; `touchDown` comes when both are (reference §5.3).
        var held = scrolls && container.delaysContentTouches
        var edgeHeld = edge != nil
        let edgeDelay = edge?.delay ?? 0
        var inside = true
        if !held && !edgeHeld { events.append(TimedControlEvent(time: 0, event: .touchDown)) }

        for s in touch.afterTouchDown {
            if held || edgeHeld {
                // Timers fire before a sample at (or after) their time; delivery is at the later.
                var released = 0.0
                if held && s.t >= container.touchDelay - GestureConventions.timeTolerance {
                    held = false; released = container.touchDelay
                }
                if edgeHeld && s.t >= edgeDelay - GestureConventions.timeTolerance {
                    edgeHeld = false; released = max(released, edgeDelay)
                }
                if held || edgeHeld {
                    if s.phase.isMove {
                        // The system's gestures take precedence over the app's (reference §5.3).
                        if edgeHeld, let edge, edge.takesOver(from: origin, to: s.point) {
                            return (.systemGestureBeforeDelivery, s.t)
                        }
                        let d = GestureConventions.axisDistances(from: origin, to: s.point, axis: scrollAxis)
                        if scrolls && GestureConventions.reaches(d.along, hysteresis) {
                            return (.panBeforeDelivery, s.t)
                        }
                        if held && GestureConventions.reaches(d.across, hysteresis) { held = false }
                        if held || edgeHeld { continue }
                    } else if s.phase == .ended {
                        held = false; edgeHeld = false
                    } else if s.phase == .cancelled {
                        return (.cancelledWhileHeld, s.t)
                    } else {
                        continue  // a stray `began`
                    }
                    released = s.t
                }
                events.append(TimedControlEvent(time: released, event: .touchDown))
            }

            // Tracking: the sample that delivered the touch is tracked like any other. A sample
            // within the time tolerance before the delay timer counts as at the same instant, after
            // the timer's touchDown: it never gets an earlier time than the event before it.
            let t = max(s.t, events.lastTime)
            switch s.phase {
            case .moved, .stationary:
                if cancelsOnScroll {
                    let d = GestureConventions.axisDistances(from: origin, to: s.point, axis: scrollAxis)
                    if GestureConventions.reaches(d.along, hysteresis) {
                        events.append(TimedControlEvent(time: t, event: .touchCancel))
                        return (.scrollCancel, t)
                    }
                }
                let now = GestureConventions.isInside(s.point, frame: frame, margin: retentionMargin)
                let event: ControlEvent = now
                    ? (inside ? .touchDragInside : .touchDragEnter)
                    : (inside ? .touchDragExit : .touchDragOutside)
                events.append(TimedControlEvent(time: t, event: event))
                inside = now
            case .ended:
                let up = GestureConventions.isInside(s.point, frame: frame, margin: retentionMargin)
                events.append(TimedControlEvent(time: t, event: up ? .touchUpInside : .touchUpOutside))
                return (up ? .touchUpInside : .touchUpOutside, t)
            case .cancelled:
                events.append(TimedControlEvent(time: t, event: .touchCancel))
                return (.systemCancel, t)
            case .began:
                continue
            }
        }
        // Unreachable: a normalized touch ends with a terminal sample.
        let end = touch.duration
        if held || edgeHeld { return (.cancelledWhileHeld, end) }
        events.append(TimedControlEvent(time: end, event: .touchCancel))
        return (.systemCancel, end)
    }
}

/// Where `ControlTracking.track` puts the events it emits, in order.
protocol ControlEventSink {
    /// The last event's time, in seconds since touch-down; 0 before the first.
    var lastTime: Double { get }
    mutating func append(_ e: TimedControlEvent)
}

extension Array: ControlEventSink where Element == TimedControlEvent {
    var lastTime: Double { last?.time ?? 0 }
}
