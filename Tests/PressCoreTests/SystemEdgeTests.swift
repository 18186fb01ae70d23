// The system edge gestures of reference §5.3 as hand-worked timelines: a touch beginning in the
// back-swipe zone (x ≤ 20 pt) is held until lift, one in the home zone (y ≥ height − 20 pt)
// until lift or 1 s after touch-down, whichever is first; a move of 10 pt away from that edge
// is the system's gesture (the app never sees the touch); the control's touchDown waits for
// both its scroll view and the edge. Default frame: 44 × 44 pt around the touch-down point,
// so every point of these touches is inside its retention area (70 pt margin).
import Testing
@testable import PressCore

/// An iPhone 14's window in points (Apple, Human Interface Guidelines, "Layout": 390 × 844).
private let phone = WindowSize(width: 390, height: 844)
/// An iPhone 8's (375 × 667), which has a home button and no home indicator.
private let phone8 = WindowSize(width: 375, height: 667)

/// A touch starting at `origin` with `steps` offset from it.
private func touch(at origin: Point, _ steps: [Step]) -> [TouchSample] {
    [TouchSample(t: 0, x: origin.x, y: origin.y, phase: .began)]
        + steps.map { TouchSample(t: $0.t, x: origin.x + $0.dx, y: origin.y + $0.dy, phase: $0.phase) }
}

/// One row of the case table: where the touch begins, the window and gestures given, the
/// container, the touch, and what the control receives.
struct EdgeCase: CustomTestStringConvertible, Sendable {
    var name: String
    var origin: Point
    var window: WindowSize?
    var gestures: SystemGestures?
    var container: Container = .none
    var steps: [Step]
    var events: [(Double, ControlEvent)]
    var ending: ControlEnding
    var testDescription: String { name }
}

private let cases: [EdgeCase] = [
    // No attribute: today's rule 1, touchDown at touch-down.
    EdgeCase(name: "left edge, no system_gestures", origin: Point(x: 10, y: 400), window: phone, gestures: nil,
             steps: [Step(0.1, 0, 0, .ended)], events: [(0, .touchDown), (0.1, .touchUpInside)], ending: .touchUpInside),
    EdgeCase(name: "left edge, gestures without window", origin: Point(x: 10, y: 400), window: nil, gestures: .back,
             steps: [Step(0.1, 0, 0, .ended)], events: [(0, .touchDown), (0.1, .touchUpInside)], ending: .touchUpInside),
    EdgeCase(name: "left edge, home only", origin: Point(x: 10, y: 400), window: phone, gestures: .home,
             steps: [Step(0.1, 0, 0, .ended)], events: [(0, .touchDown), (0.1, .touchUpInside)], ending: .touchUpInside),
    // Back zone: quick tap, both at lift; a long hold still waits for the lift (no timer).
    EdgeCase(name: "back, quick tap", origin: Point(x: 10, y: 400), window: phone, gestures: .back,
             steps: [Step(0.1, 0, 0, .ended)], events: [(0.1, .touchDown), (0.1, .touchUpInside)], ending: .touchUpInside),
    EdgeCase(name: "back, held 2 s", origin: Point(x: 10, y: 400), window: phone, gestures: [.back, .home],
             steps: [Step(0.5, 0, 0, .stationary), Step(2, 0, 0, .ended)],
             events: [(2, .touchDown), (2, .touchUpInside)], ending: .touchUpInside),
    // The zone's inner boundary is in (x = 20), 20.5 pt is out.
    EdgeCase(name: "back, x = 20 on the boundary", origin: Point(x: 20, y: 400), window: phone, gestures: .back,
             steps: [Step(0.1, 0, 0, .ended)], events: [(0.1, .touchDown), (0.1, .touchUpInside)], ending: .touchUpInside),
    EdgeCase(name: "back, x = 20.5 just outside", origin: Point(x: 20.5, y: 400), window: phone, gestures: .back,
             steps: [Step(0.1, 0, 0, .ended)], events: [(0, .touchDown), (0.1, .touchUpInside)], ending: .touchUpInside),
    // A move of 10 pt to the right is the back swipe; 9.999 pt is not, nor is 15 pt left or down.
    EdgeCase(name: "back, 10 pt right is the swipe", origin: Point(x: 10, y: 400), window: phone, gestures: .back,
             steps: [Step(0.05, 10, 0, .moved), Step(0.2, 60, 0, .ended)], events: [], ending: .systemGestureBeforeDelivery),
    EdgeCase(name: "back, 9.999 pt right", origin: Point(x: 10, y: 400), window: phone, gestures: .back,
             steps: [Step(0.05, 9.999, 0, .moved), Step(0.2, 9.999, 0, .ended)],
             events: [(0.2, .touchDown), (0.2, .touchUpInside)], ending: .touchUpInside),
    EdgeCase(name: "back, 15 pt left and down", origin: Point(x: 18, y: 400), window: phone, gestures: .back,
             steps: [Step(0.05, -15, 15, .moved), Step(0.3, -15, 15, .ended)],
             events: [(0.3, .touchDown), (0.3, .touchUpInside)], ending: .touchUpInside),
    EdgeCase(name: "back, cancelled while held", origin: Point(x: 10, y: 400), window: phone, gestures: .back,
             steps: [Step(0.4, 0, 0, .cancelled)], events: [], ending: .cancelledWhileHeld),
    // Home zone of a 844 pt window: y ≥ 824. Held 1 s; a lift before it delivers both at lift.
    EdgeCase(name: "home, quick tap", origin: Point(x: 200, y: 830), window: phone, gestures: .home,
             steps: [Step(0.1, 0, 0, .ended)], events: [(0.1, .touchDown), (0.1, .touchUpInside)], ending: .touchUpInside),
    EdgeCase(name: "home, held 1.5 s: touchDown at 1 s", origin: Point(x: 200, y: 830), window: phone, gestures: .home,
             steps: [Step(0.5, 0, 0, .stationary), Step(1.5, 0, 0, .ended)],
             events: [(1, .touchDown), (1.5, .touchUpInside)], ending: .touchUpInside),
    EdgeCase(name: "home, y = 824 on the boundary", origin: Point(x: 200, y: 824), window: phone, gestures: .home,
             steps: [Step(0.1, 0, 0, .ended)], events: [(0.1, .touchDown), (0.1, .touchUpInside)], ending: .touchUpInside),
    EdgeCase(name: "home, y = 823.9 just outside", origin: Point(x: 200, y: 823.9), window: phone, gestures: .home,
             steps: [Step(0.1, 0, 0, .ended)], events: [(0, .touchDown), (0.1, .touchUpInside)], ending: .touchUpInside),
    // Window sizes: on a 667 pt window the zone starts at 647; y = 660 is in it, and would not be
    // in a 844 pt window's.
    EdgeCase(name: "home, 667 pt window, y = 660", origin: Point(x: 200, y: 660), window: phone8, gestures: .home,
             steps: [Step(0.1, 0, 0, .ended)], events: [(0.1, .touchDown), (0.1, .touchUpInside)], ending: .touchUpInside),
    EdgeCase(name: "home, 844 pt window, y = 660", origin: Point(x: 200, y: 660), window: phone, gestures: .home,
             steps: [Step(0.1, 0, 0, .ended)], events: [(0, .touchDown), (0.1, .touchUpInside)], ending: .touchUpInside),
    // 10 pt up is the home swipe; 10 pt down (towards the edge) is not.
    EdgeCase(name: "home, 10 pt up is the swipe", origin: Point(x: 200, y: 830), window: phone, gestures: .home,
             steps: [Step(0.05, 0, -10, .moved), Step(0.2, 0, -80, .ended)], events: [], ending: .systemGestureBeforeDelivery),
    EdgeCase(name: "home, 10 pt down", origin: Point(x: 200, y: 830), window: phone, gestures: .home,
             steps: [Step(0.05, 0, 10, .moved), Step(0.2, 0, 10, .ended)],
             events: [(0.2, .touchDown), (0.2, .touchUpInside)], ending: .touchUpInside),
    // The bottom-left corner is in both zones: the back swipe's hold (until lift) applies.
    EdgeCase(name: "corner, back and home", origin: Point(x: 10, y: 830), window: phone, gestures: [.back, .home],
             steps: [Step(1.5, 0, 0, .ended)], events: [(1.5, .touchDown), (1.5, .touchUpInside)], ending: .touchUpInside),
    // With a scroll view: its 0.150 s timer fires, the edge still holds until 1 s.
    EdgeCase(name: "home in a scroll view, held", origin: Point(x: 200, y: 830), window: phone, gestures: .home,
             container: .scroll, steps: [Step(0.2, 0, 0, .stationary), Step(1.2, 0, 0, .ended)],
             events: [(1, .touchDown), (1.2, .touchUpInside)], ending: .touchUpInside),
    // … and while the edge holds, 10 pt along the scroll axis (down, not the home swipe) is the
    // scroll view's pan, after the container's own timer.
    EdgeCase(name: "home in a scroll view, scrolled at 0.3 s", origin: Point(x: 200, y: 830), window: phone,
             gestures: .home, container: .scroll, steps: [Step(0.3, 0, 10, .moved), Step(0.5, 0, 30, .ended)],
             events: [], ending: .panBeforeDelivery),
    // A table across its axis: 10 pt left would deliver the held touch, but the back edge holds it.
    EdgeCase(name: "back in a table, moved across", origin: Point(x: 15, y: 400), window: phone, gestures: .back,
             container: .table, steps: [Step(0.05, -10, 0, .moved), Step(0.3, -10, 0, .ended)],
             events: [(0.3, .touchDown), (0.3, .touchUpInside)], ending: .touchUpInside),
]

@Suite struct SystemEdgeTests {
    @Test(arguments: cases) func controlEventsNearTheEdges(_ c: EdgeCase) {
        var a = SessionAttributes()
        a.window = c.window
        a.systemGestures = c.gestures
        let samples = touch(at: c.origin, c.steps)
        let edge = Replay.edgeHold(samples, a)
        let t = ControlTracking.trace(samples, frame: .minimumHitTarget(centeredOn: c.origin), container: c.container,
                                      scrollAxis: .vertical, retentionMargin: 70, edge: edge)
        #expect(sameTimes(t.events, events(c.events)))
        #expect(t.ending == c.ending)
    }

    // The outcome of a touch the system took: cancel, reason system, no action, never delivered.
    @Test func aSwipeTheSystemTookIsASystemCancel() {
        let samples = touch(at: Point(x: 10, y: 400), [Step(0.05, 12, 0, .moved), Step(0.2, 80, 0, .ended)])
        let edge = SystemEdgeHold.hold(at: Point(x: 10, y: 400), window: phone, gestures: .back)
        let c = PressClassifier.classify(samples, frame: nil, container: .none, scrollAxis: .vertical,
                                         configuration: .springPress, edge: edge)
        #expect(c.outcome == .cancel && c.cancelReason == .system)
        #expect(!c.actionFired && c.deliveryTime == nil && c.scaleEvents.isEmpty)
    }

    // Feedback through replay with the attributes: a system button (alpha 0.2 at touchDown, shown
    // by the first frame at or after it) held 1.5 s in the home zone is dimmed at 1 s, seen on
    // frame 60 (60/60 s = 1000 ms, a frame at an event's instant shows the state after it);
    // without `system_gestures` on frame 1 (16.666667 ms).
    // A quick tap in the back zone sets and clears the highlight in one event: never seen.
    @Test func feedbackLatencyNearTheEdges() throws {
        let held = touch(at: Point(x: 200, y: 830), [Step(0.5, 0, 0, .stationary), Step(1.5, 0, 0, .ended)])
        var a = SessionAttributes(frame: Rect(x: 150, y: 810, width: 100, height: 34))
        a.window = phone
        let plain = try Replay.session(held, attributes: a, configuration: .uiButtonSystem)
        #expect(plain.feedbackLatencyMs == 16.666667)
        a.systemGestures = .home
        let home = try Replay.session(held, attributes: a, configuration: .uiButtonSystem)
        #expect(home.outcome == .tap && home.feedbackLatencyMs == 1000)

        let quick = touch(at: Point(x: 10, y: 400), [Step(0.1, 0, 0, .ended)])
        var b = SessionAttributes()
        b.window = phone
        b.systemGestures = .back
        let r = try Replay.session(quick, attributes: b, configuration: .uiButtonSystem)
        #expect(r.outcome == .tap && r.actionFired && r.feedbackLatencyMs == nil)
    }

    // The texts of both attributes, as CSV and the database hold them, and what is refused.
    @Test func attributeTextsRoundTrip() {
        #expect(WindowSize(width: 390, height: 844).text == "390x844")
        #expect(WindowSize(width: 390, height: 844).json == "[390,844]")
        #expect(WindowSize(text: "375.5x667") == WindowSize(width: 375.5, height: 667))
        for bad in ["390", "0x844", "-1x2", "x", "390x844x1", "nanx1", "infx1", ""] { #expect(WindowSize(text: bad) == nil) }
        #expect(SystemGestures([.home, .back]).text == "back+home" && SystemGestures().text == "none")
        #expect(SystemGestures([.back, .home]).json == #"["back","home"]"# && SystemGestures().json == "[]")
        #expect(SystemGestures(text: "home+back") == [.back, .home] && SystemGestures(text: "none") == [])
        for bad in ["Back", "back,home", "", "back+", "left"] { #expect(SystemGestures(text: bad) == nil) }
    }
}
