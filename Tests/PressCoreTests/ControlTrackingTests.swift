// The control model against reference §2.1's rules, with hand-worked cases.
// Default frame: Apple's 44 × 44 pt target centred on the touch-down point, so its edges are
// 22 pt from it and the retention area (70 pt margin) reaches 22 + 70 = 92 pt from it.
import Testing
@testable import PressCore

@Suite struct ControlTrackingTests {
    let frame = Rect.minimumHitTarget(centeredOn: testOrigin)

    func trace(_ s: [TouchSample], _ container: Container, axis: ScrollAxis = .vertical,
               frame: Rect? = nil, margin: Double = 70) -> ControlTrace {
        ControlTracking.trace(s, frame: frame ?? self.frame, container: container, scrollAxis: axis,
                              retentionMargin: margin)
    }

    // Rule 1: no scroll view, the control gets the touch at touch-down.
    @Test func noContainerDeliversAtTouchDown() {
        let t = trace(session([Step(0.1, 0, 0, .ended)]), .none)
        #expect(t.events == events([(0, .touchDown), (0.1, .touchUpInside)]))
        #expect(t.ending == .touchUpInside)
    }

    // Rule 2: held 0.150 s; a lift at 0.1 s < 0.15 s delivers touchDown with the touch-up.
    @Test func liftBeforeTheDelayDeliversBothAtLift() {
        let t = trace(session([Step(0.1, 0, 0, .ended)]), .scroll)
        #expect(t.events == events([(0.1, .touchDown), (0.1, .touchUpInside)]))
    }

    // Rule 2: a stationary sample at 0.2 s: the timer fired at 0.15 s first.
    @Test func timerDeliversAtTheDelay() {
        let t = trace(session([Step(0.2, 0, 0, .stationary), Step(0.3, 0, 0, .ended)]), .table)
        #expect(t.events == events([(0.15, .touchDown), (0.2, .touchDragInside), (0.3, .touchUpInside)]))
    }

    // Hysteresis boundary: |dy| = 10 pt along a vertical axis at 0.05 s < 0.15 s: 10 ≥ 10, the pan
    // begins and the control never sees the touch; 9.999 pt does not.
    @Test func tenPointsAlongTheAxisStartsThePan() {
        let at10 = trace(session([Step(0.05, 0, 10, .moved), Step(0.1, 0, 10, .ended)]), .scroll)
        #expect(at10.events.isEmpty && at10.ending == .panBeforeDelivery)
        #expect(abs(at10.endTime - 0.05) < 1e-12)
        let below = trace(session([Step(0.05, 0, -9.999, .moved), Step(0.1, 0, -9.999, .ended)]), .scroll)
        #expect(below.ending == .touchUpInside)
        #expect(below.events.first == TimedControlEvent(time: 0.1, event: .touchDown))
    }

    // Timer boundary with a real clock: t0 = 12.345 s, a 20 pt move at 12.495 s. 12.495 − 12.345 is
    // 0.14999999999999858 in doubles (python3), within 1e-9 of 0.15, so the times are equal and the
    // timer fires first: touchDown at 0.15, then the move is tracked. In `scroll` it keeps tracking;
    // in `table` the move (20 ≥ 10 along) cancels it. At 0.149 s the pan would have won.
    @Test func timerFiresBeforeASampleWithTheSameTimestamp() {
        let s = [TouchSample(t: 12.345, x: 100, y: 200, phase: .began),
                 TouchSample(t: 12.495, x: 100, y: 220, phase: .moved),
                 TouchSample(t: 12.645, x: 100, y: 220, phase: .ended)]
        #expect(s[1].t - s[0].t < 0.15)  // the rounding this test is about
        let scroll = trace(s, .scroll)
        #expect(scroll.ending == .touchUpInside)
        #expect(scroll.events.map(\.event) == [.touchDown, .touchDragInside, .touchUpInside])
        #expect(scroll.events[0].time == 0.15)
        let table = trace(s, .table)
        #expect(table.ending == .scrollCancel)
        #expect(table.events.map(\.event) == [.touchDown, .touchCancel])
        let early = trace(session(t0: 12.345, [Step(0.149, 0, 20, .moved), Step(0.3, 0, 20, .ended)]), .table)
        #expect(early.ending == .panBeforeDelivery && early.events.isEmpty)
    }

    // Across-axis delivery: |dx| = 10 across a vertical axis at 0.05 s delivers the touch then, and
    // the move is tracked (10 pt from the centre is inside the 44 pt frame).
    @Test func acrossAxisMoveDeliversTheHeldTouch() {
        let t = trace(session([Step(0.05, 10, 0, .moved), Step(0.1, 10, 0, .ended)]), .scroll)
        #expect(t.events == events([(0.05, .touchDown), (0.05, .touchDragInside), (0.1, .touchUpInside)]))
        // Horizontal axis: the roles swap.
        let h = trace(session([Step(0.05, 0, 12, .moved), Step(0.1, 0, 12, .ended)]), .scroll, axis: .horizontal)
        #expect(h.events.first == TimedControlEvent(time: 0.05, event: .touchDown))
        let hPan = trace(session([Step(0.05, -12, 0, .moved), Step(0.1, -12, 0, .ended)]), .scroll, axis: .horizontal)
        #expect(hPan.ending == .panBeforeDelivery)
    }

    // One sample reaching 10 pt both along and across while held: the pan wins.
    @Test func panWinsOverAcrossAxisDelivery() {
        let t = trace(session([Step(0.05, 10, 10, .moved), Step(0.1, 10, 10, .ended)]), .table)
        #expect(t.ending == .panBeforeDelivery && t.events.isEmpty)
    }

    // Axis `both`: a horizontal move is along a scrollable axis, so it starts the pan.
    @Test func bothAxesScroll() {
        let t = trace(session([Step(0.05, 10, 0, .moved), Step(0.1, 10, 0, .ended)]), .scroll, axis: .both)
        #expect(t.ending == .panBeforeDelivery)
    }

    // A `cancelled` sample while held: the control never sees the touch.
    @Test func cancelWhileHeldHasNoEvents() {
        let t = trace(session([Step(0.1, 0, 0, .cancelled)]), .scroll)
        #expect(t.events.isEmpty && t.ending == .cancelledWhileHeld)
    }

    // Rule 3, `scroll`: after delivery a 50 pt scroll does not cancel the control.
    // Rule 3, `table`: it does, at the first move ≥ 10 pt along the axis (0.25 s, 12 pt).
    @Test func trackingControlAfterDelivery() {
        let s = session([Step(0.2, 0, 5, .moved), Step(0.25, 0, 12, .moved), Step(0.3, 0, 50, .moved),
                         Step(0.4, 0, 50, .ended)])
        let scroll = trace(s, .scroll)
        #expect(scroll.ending == .touchUpInside)  // 50 ≤ 92: inside at lift
        #expect(!scroll.events.contains { $0.event == .touchCancel })
        let table = trace(s, .table)
        #expect(table.events == events([(0.15, .touchDown), (0.2, .touchDragInside), (0.25, .touchCancel)]))
        #expect(table.ending == .scrollCancel)
    }

    // scroll-immediate: no delay, touchDown at 0; a 10 pt scroll cancels the control.
    @Test func scrollImmediateDeliversAtOnceAndCancelsOnScroll() {
        let t = trace(session([Step(0.03, 0, 4, .moved), Step(0.06, 0, 10, .moved), Step(0.1, 0, 10, .ended)]),
                      .scrollImmediate)
        #expect(t.events == events([(0, .touchDown), (0.03, .touchDragInside), (0.06, .touchCancel)]))
        #expect(t.ending == .scrollCancel)
    }

    // The terminal sample's position is used only for the inside test: a lift 30 pt along the
    // axis neither starts the pan nor cancels a table's control.
    @Test func terminalPositionNeverScrolls() {
        let held = trace(session([Step(0.1, 0, 30, .ended)]), .table)
        #expect(held.events == events([(0.1, .touchDown), (0.1, .touchUpInside)]))
        let tracking = trace(session([Step(0.2, 0, 0, .stationary), Step(0.3, 0, 30, .ended)]), .table)
        #expect(tracking.ending == .touchUpInside)
    }

    // Drag 80 pt beyond the frame's bottom edge (22 + 80 = 102 > 92: outside) and back to 30 pt
    // (inside): exactly one touchDragExit and one touchDragEnter, touchDragOutside in between.
    @Test func dragOutAndBack() {
        let t = trace(session([Step(0.1, 0, 50, .moved), Step(0.2, 0, 102, .moved), Step(0.3, 0, 110, .moved),
                               Step(0.4, 0, 30, .moved), Step(0.5, 0, 30, .ended)]), .none)
        #expect(t.events == events([(0, .touchDown), (0.1, .touchDragInside), (0.2, .touchDragExit),
                                    (0.3, .touchDragOutside), (0.4, .touchDragEnter), (0.5, .touchUpInside)]))
    }

    // Retention boundary: lifting 70 pt beyond the frame's edge (22 + 70 = 92) is inside, edges
    // included; 71 pt (93) is outside. With the iPad margin (25 pt) 70 pt beyond is outside.
    @Test func retentionMarginEdgeIsInside() {
        #expect(trace(session([Step(0.2, 0, 92, .ended)]), .none).ending == .touchUpInside)
        #expect(trace(session([Step(0.2, -92, 0, .ended)]), .none).ending == .touchUpInside)
        #expect(trace(session([Step(0.2, 0, 93, .ended)]), .none).ending == .touchUpOutside)
        #expect(trace(session([Step(0.2, 0, 92, .ended)]), .none,
                      margin: ControlGesture.iPadRetentionMargin).ending == .touchUpOutside)
        // 22 + 25 = 47: the iPad retention area's edge.
        #expect(trace(session([Step(0.2, 47, 0, .ended)]), .none,
                      margin: ControlGesture.iPadRetentionMargin).ending == .touchUpInside)
    }

    // A frame whose right edge plus margin rounds down: 304.9 + 20.2 + 70 evaluates to
    // 395.09999999999997 in doubles (python3), yet a lift at x = 395.1 is exactly 70 pt beyond the
    // edge (decimal arithmetic) and must count as inside.
    @Test func retentionEdgeSurvivesRounding() {
        let frame = Rect(x: 304.9, y: 150, width: 20.2, height: 100)
        let s = [TouchSample(t: 0, x: 315, y: 200, phase: .began), TouchSample(t: 0.1, x: 395.1, y: 200, phase: .ended)]
        #expect(trace(s, .none, frame: frame).ending == .touchUpInside)
        let beyond = [s[0], TouchSample(t: 0.1, x: 395.2, y: 200, phase: .ended)]
        #expect(trace(beyond, .none, frame: frame).ending == .touchUpOutside)
    }

    // A `cancelled` terminal sample while tracking gives touchCancel.
    @Test func systemCancelWhileTracking() {
        let t = trace(session([Step(0.2, 0, 0, .cancelled)]), .scroll)
        #expect(t.events == events([(0.15, .touchDown), (0.2, .touchCancel)]))
        #expect(t.ending == .systemCancel)
    }

    // Custom container parameters: a 0.3 s delay and 20 pt hysteresis.
    @Test func customContainerParameters() {
        let slow = Container(delaysContentTouches: true, cancelsControlTouches: true, touchDelay: 0.3, hysteresis: 20)
        let t = trace(session([Step(0.2, 0, 15, .moved), Step(0.35, 0, 19, .moved), Step(0.4, 0, 20, .moved),
                               Step(0.5, 0, 20, .ended)]), slow)
        #expect(t.events == events([(0.3, .touchDown), (0.35, .touchDragInside), (0.4, .touchCancel)]))
    }
}
