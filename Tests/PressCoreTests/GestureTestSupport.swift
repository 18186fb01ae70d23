// Builds touch sessions for the gesture tests: steps relative to a touch-down point and time.
@testable import PressCore

/// One step of a test touch: time since touch-down (s), offset from the touch-down point (pt).
struct Step {
    var t: Double
    var dx: Double
    var dy: Double
    var phase: TouchPhase
    init(_ t: Double, _ dx: Double, _ dy: Double, _ phase: TouchPhase) {
        self.t = t; self.dx = dx; self.dy = dy; self.phase = phase
    }
}

/// The touch-down point every test session starts from.
let testOrigin = Point(x: 100, y: 200)

/// A session: a `began` sample at `t0` on `testOrigin`, then `steps`.
func session(t0: Double = 0, _ steps: [Step]) -> [TouchSample] {
    [TouchSample(t: t0, x: testOrigin.x, y: testOrigin.y, phase: .began)]
        + steps.map { TouchSample(t: t0 + $0.t, x: testOrigin.x + $0.dx, y: testOrigin.y + $0.dy, phase: $0.phase) }
}

func events(_ list: [(Double, ControlEvent)]) -> [TimedControlEvent] {
    list.map { TimedControlEvent(time: $0.0, event: $0.1) }
}

func scale(_ list: [(Double, ScaleEvent)]) -> [TimedScaleEvent] {
    list.map { TimedScaleEvent(time: $0.0, event: $0.1) }
}

func states(_ list: [(Double, LongPressState)]) -> [TimedLongPressState] {
    list.map { TimedLongPressState(time: $0.0, state: $0.1) }
}

/// Event lists compared with times equal within 1e-9 s (the reference's time equality).
func sameTimes(_ a: [TimedControlEvent], _ b: [TimedControlEvent]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.event == $1.event && abs($0.time - $1.time) <= 1e-9 }
}

func sameTimes(_ a: [TimedScaleEvent], _ b: [TimedScaleEvent]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.event == $1.event && abs($0.time - $1.time) <= 1e-9 }
}

func classify(_ samples: [TouchSample], frame: Rect? = nil, container: Container = .none,
              axis: ScrollAxis = .vertical, _ configuration: PressConfiguration = .springPress) -> PressClassification {
    PressClassifier.classify(samples, frame: frame, container: container, scrollAxis: axis,
                             configuration: configuration)
}
