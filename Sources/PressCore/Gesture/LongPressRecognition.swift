// The `long-press` model: UILongPressGestureRecognizer's states for one session, with the
// safe-area handler of the article in seeds/longpress-safe-area.txt (reference §2.1, long-press
// rules 1–3 and conventions).

/// `UIGestureRecognizer.State`, as far as a long press goes through it.
public enum LongPressState: String, Hashable, Sendable, CaseIterable {
    case possible, began, changed, ended, cancelled, failed
}

/// A recognizer state at a time in seconds since touch-down.
public struct TimedLongPressState: Hashable, Sendable {
    public var time: Double
    public var state: LongPressState
    public init(time: Double, state: LongPressState) { self.time = time; self.state = state }
}

/// How a long press ended, which decides the outcome (see `PressClassification`).
public enum LongPressEnding: String, Hashable, Sendable, CaseIterable {
    /// `.ended` from an `ended` sample: a tap.
    case ended
    /// The handler saw the finger leave the safe-area box and set `.ended` itself (with its
    /// `isCancelled` flag): the release animation runs, no `up_inside` action.
    case leftSafeArea
    /// `.cancelled` from a `cancelled` sample after the press began. The article's handler has
    /// no `.cancelled` case: no release animation, no action, the button stays pressed.
    case cancelled
    /// `.failed`: the finger moved more than `allowableMovement` before the press began.
    case failedByMovement
    /// `.failed`: the finger lifted before `minimumPressDuration`.
    case failedByLift
    /// `.failed`: the touch was `cancelled` before the press began.
    case failedByCancel
}

/// The recognizer states of one session and how it ended. Times in seconds since touch-down.
public struct LongPressTrace: Hashable, Sendable {
    /// `possible` at 0, then `began`, `changed` for each move, and `ended` / `cancelled` /
    /// `failed` last. Leaving the safe area records `changed` then `ended` at the same time (the
    /// handler runs on `.changed` and sets `.ended`).
    public var states: [TimedLongPressState]
    public var ending: LongPressEnding
    /// The time of the last state.
    public var endTime: Double
    /// When the press began, or nil if it never did.
    public var beganTime: Double?
    public init(states: [TimedLongPressState], ending: LongPressEnding, endTime: Double, beganTime: Double?) {
        self.states = states; self.ending = ending; self.endTime = endTime; self.beganTime = beganTime
    }
}

/// UILongPressGestureRecognizer recognizing simultaneously with a scroll view's pan, so never
/// delayed or cancelled by the container (reference §2.1, long-press rules).
///
/// Usage:
///
///     let trace = LongPressRecognition.trace(samples, gesture: LongPressGesture(minimumPressDuration: 0))
///     trace.ending   // .ended, .leftSafeArea, …
///
/// 1. `possible` at touch-down. The press begins at `minimumPressDuration` (at touch-down when
///    it is 0) — the timer fires before a sample at the same time — unless before then a move
///    took the finger more than `allowableMovement` (Euclidean, strictly greater) from the
///    touch-down point (`failedByMovement`), or the touch ended (`failedByLift`,
///    `failedByCancel`). `allowableMovement` applies only before the press begins.
/// 2. While pressed, each move gives `changed`; a move with |dx| > `safeArea` or |dy| >
///    `safeArea` from where the press began (strictly, as the article's handler) gives
///    `ended` (`leftSafeArea`). No safe area (`nil`): moves never end it.
/// 3. An `ended` sample gives `ended`; a `cancelled` sample gives `cancelled`. A terminal
///    sample's position is never checked against the safe area.
public enum LongPressRecognition {
    /// Replays `samples` (one touch, first sample the touch-down; times on any clock).
    /// - Returns: states with times in seconds since the first sample. An empty `samples`
    ///   gives `[possible, failed]` at 0 and `failedByCancel`.
    public static func trace(_ samples: [TouchSample], gesture: LongPressGesture) -> LongPressTrace {
        trace(NormalizedTouch(samples), gesture: gesture)
    }

    static func trace(_ touch: NormalizedTouch, gesture: LongPressGesture) -> LongPressTrace {
        var states: [TimedLongPressState] = []
        states.reserveCapacity(touch.count + 2)  // possible, began, one per later sample, a last state
        states.append(TimedLongPressState(time: 0, state: .possible))
        guard touch.count >= 2 else {
            states.append(TimedLongPressState(time: 0, state: .failed))
            return LongPressTrace(states: states, ending: .failedByCancel, endTime: 0, beganTime: nil)
        }
        let origin = touch.origin
        let minimum = gesture.minimumPressDuration
        var beganTime: Double? = nil
        var anchor = origin       // where the press began: the article's `initialPos`
        var lastPoint = origin    // the finger's latest known position
        if minimum <= GestureConventions.timeTolerance {
            beganTime = 0
            states.append(TimedLongPressState(time: 0, state: .began))
        }

        func finish(_ state: LongPressState, _ ending: LongPressEnding, _ t: Double) -> LongPressTrace {
            states.append(TimedLongPressState(time: t, state: state))
            return LongPressTrace(states: states, ending: ending, endTime: t, beganTime: beganTime)
        }

        for s in touch.afterTouchDown {
            if beganTime == nil {
                if s.t >= minimum - GestureConventions.timeTolerance {
                    beganTime = minimum
                    anchor = lastPoint
                    states.append(TimedLongPressState(time: minimum, state: .began))
                } else {
                    switch s.phase {
                    case .moved, .stationary:
                        let dx = s.x - origin.x, dy = s.y - origin.y
                        if GestureConventions.exceeds((dx * dx + dy * dy).squareRoot(), gesture.allowableMovement) {
                            return finish(.failed, .failedByMovement, s.t)
                        }
                        lastPoint = s.point
                    case .ended: return finish(.failed, .failedByLift, s.t)
                    case .cancelled: return finish(.failed, .failedByCancel, s.t)
                    case .began: break
                    }
                    continue
                }
            }
            // A sample within the time tolerance before the press began counts as at the same
            // instant, after `.began`: it never gets an earlier time than the state before it.
            let t = max(s.t, states.last?.time ?? 0)
            switch s.phase {
            case .moved, .stationary:
                states.append(TimedLongPressState(time: t, state: .changed))
                if let box = gesture.safeArea,
                   GestureConventions.exceeds(abs(s.x - anchor.x), box)
                    || GestureConventions.exceeds(abs(s.y - anchor.y), box) {
                    return finish(.ended, .leftSafeArea, t)
                }
                lastPoint = s.point
            case .ended: return finish(.ended, .ended, t)
            case .cancelled: return finish(.cancelled, .cancelled, t)
            case .began: continue
            }
        }
        // Unreachable: a normalized touch ends with a terminal sample.
        let end = touch.duration
        return beganTime == nil ? finish(.failed, .failedByCancel, end) : finish(.cancelled, .cancelled, end)
    }
}
