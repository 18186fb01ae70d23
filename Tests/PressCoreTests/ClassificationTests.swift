// Whole-session classification: hand-worked cases and reference §2 / §4's rules.
// Default frame 44 × 44 pt centred on the touch-down point (edges 22 pt away; retention area
// 22 + 70 = 92 pt away).
import Testing
@testable import PressCore

@Suite struct ClassificationTests {
    // A 100 ms stationary tap on a 44 pt control, no container, spring-press: touchDown at 0,
    // touchUpInside at 0.1; press at 0, release at 0.1; action on touchUpInside, no delay.
    @Test func quickTapWithoutContainer() {
        let r = classify(session([Step(0.1, 0, 0, .ended)]), container: .none)
        #expect(r.outcome == .tap && r.cancelReason == nil)
        #expect(r.controlEvents == events([(0, .touchDown), (0.1, .touchUpInside)]))
        #expect(r.scaleEvents == scale([(0, .press), (0.1, .release)]))
        #expect(r.actionFired && r.actionTime == 0.1 && r.actionLatency == 0)
        #expect(r.duration == 0.1 && r.maxTravel == 0 && r.deliveryTime == 0)
        #expect(r.frame == Rect(x: 78, y: 178, width: 44, height: 44))  // 100 − 22, 200 − 22
        #expect(r.longPressStates.isEmpty)
    }

    // The same tap in `scroll`: held back, delivered at lift (0.1 < 0.15): touchDown and
    // touchUpInside both at 0.1, press and release at the same instant, press first.
    @Test func quickTapInScrollIsDeliveredAtLift() {
        let r = classify(session([Step(0.1, 0, 0, .ended)]), container: .scroll)
        #expect(r.outcome == .tap)
        #expect(r.controlEvents == events([(0.1, .touchDown), (0.1, .touchUpInside)]))
        #expect(r.scaleEvents == scale([(0.1, .press), (0.1, .release)]))
        #expect(r.deliveryTime == 0.1)
    }

    // A 20 pt vertical move within 100 ms in `scroll`: 20 ≥ 10 before 0.15 s, the pan wins, no
    // touchDown and no scale events. maxTravel: the farthest sample is 40 pt away.
    @Test func earlyScrollIsAScrollAbort() {
        let r = classify(session([Step(0.05, 0, 20, .moved), Step(0.08, 0, 40, .moved), Step(0.1, 0, 40, .ended)]),
                         container: .scroll)
        #expect(r.outcome == .scrollAbort && r.cancelReason == nil)
        #expect(r.controlEvents.isEmpty && r.scaleEvents.isEmpty && r.deliveryTime == nil)
        #expect(!r.actionFired && r.actionLatency == nil && r.actionTime == nil)
        #expect(r.maxTravel == 40)
    }

    // The same move after 200 ms: in `scroll` the control keeps tracking (tap); in `table` the
    // 20 pt move at 0.25 s sends touchCancel (scroll-abort), which spring-press releases on.
    @Test func lateScrollDependsOnTheContainer() {
        let s = session([Step(0.2, 0, 0, .stationary), Step(0.25, 0, 20, .moved), Step(0.3, 0, 20, .ended)])
        let scroll = classify(s, container: .scroll)
        #expect(scroll.outcome == .tap && scroll.actionFired)
        let table = classify(s, container: .table)
        #expect(table.outcome == .scrollAbort && table.cancelReason == nil && !table.actionFired)
        #expect(table.controlEvents.last == TimedControlEvent(time: 0.25, event: .touchCancel))
        #expect(table.scaleEvents == scale([(0.15, .press), (0.25, .release)]))
    }

    // Drag 80 pt outside the frame (22 + 80 = 102 pt) and back, then lift inside: a tap, with one
    // touchDragExit and one touchDragEnter; spring-press releases at the exit, presses again at the
    // entry (its two press events).
    @Test func dragOutAndBackIsATap() {
        let r = classify(session([Step(0.1, 0, 102, .moved), Step(0.2, 0, 110, .moved), Step(0.3, 0, 10, .moved),
                                  Step(0.4, 0, 10, .ended)]))
        #expect(r.outcome == .tap)
        #expect(r.controlEvents.filter { $0.event == .touchDragExit }.count == 1)
        #expect(r.controlEvents.filter { $0.event == .touchDragEnter }.count == 1)
        #expect(r.scaleEvents == scale([(0, .press), (0.1, .release), (0.3, .press), (0.4, .release)]))
        #expect(r.maxTravel == 110)
    }

    // A lift 71 pt outside the frame (22 + 71 = 93 > 92) is touchUpOutside: cancel, drag_exit, no
    // action under up_inside; 70 pt (92) is on the edge, inside: a tap.
    @Test func liftBeyondTheRetentionMargin() {
        let out = classify(session([Step(0.3, 93, 0, .ended)]))
        #expect(out.outcome == .cancel && out.cancelReason == .dragExit && !out.actionFired)
        #expect(out.controlEvents.last?.event == .touchUpOutside)
        let edge = classify(session([Step(0.3, 92, 0, .ended)]))
        #expect(edge.outcome == .tap && edge.actionFired)
    }

    // expand-delayed-click, cancelled at 0.2 s: touchCancel releases and fires the action 0.3 s
    // later: 0.2 + 0.3 = 0.5 s, latency 0.3 s; outcome cancel/system (a false action).
    @Test func expandFiresItsActionAfterACancel() {
        let r = classify(session([Step(0.2, 0, 0, .cancelled)]), .expandDelayedClick)
        #expect(r.outcome == .cancel && r.cancelReason == .system)
        #expect(r.actionFired && r.actionLatency == 0.3)
        #expect(abs((r.actionTime ?? 0) - 0.5) < 1e-12)
        #expect(r.scaleEvents == scale([(0, .press), (0.2, .release)]))
    }

    // expand-delayed-click does not release on drag exit; it releases and fires at touchUpOutside.
    @Test func expandIgnoresDragExitButFiresOnUpOutside() {
        let r = classify(session([Step(0.1, 0, 100, .moved), Step(0.2, 0, 100, .ended)]), .expandDelayedClick)
        #expect(r.controlEvents.map(\.event) == [.touchDown, .touchDragExit, .touchUpOutside])
        #expect(r.scaleEvents == scale([(0, .press), (0.2, .release)]))
        #expect(r.outcome == .cancel && r.cancelReason == .dragExit && r.actionFired)
        #expect(abs((r.actionTime ?? 0) - 0.5) < 1e-12)  // 0.2 + 0.3
    }

    // A table's scroll cancel is a release for any_release: the action fires 0.3 s after it.
    @Test func expandFiresAfterATableScrollCancel() {
        let r = classify(session([Step(0.2, 0, 0, .stationary), Step(0.25, 0, 15, .moved), Step(0.4, 0, 60, .ended)]),
                         container: .table, .expandDelayedClick)
        #expect(r.outcome == .scrollAbort && r.actionFired && r.actionLatency == 0.3)
        #expect(abs((r.actionTime ?? 0) - 0.55) < 1e-12)  // 0.25 + 0.3
    }

    // A touch the control never received has no release, so no action even under any_release.
    @Test func heldTouchesNeverFireTheAction() {
        let panned = classify(session([Step(0.05, 0, 12, .moved), Step(0.1, 0, 30, .ended)]), container: .scroll,
                              .expandDelayedClick)
        #expect(panned.outcome == .scrollAbort && !panned.actionFired && panned.scaleEvents.isEmpty)
        let cancelled = classify(session([Step(0.1, 0, 0, .cancelled)]), container: .table, .expandDelayedClick)
        #expect(cancelled.outcome == .cancel && cancelled.cancelReason == .system)
        #expect(!cancelled.actionFired && cancelled.controlEvents.isEmpty && cancelled.scaleEvents.isEmpty)
    }

    // scroll-immediate: touchDown at touch-down (press at 0); a 10 pt scroll at 0.06 s cancels it.
    @Test func scrollImmediate() {
        let r = classify(session([Step(0.06, 0, 10, .moved), Step(0.2, 0, 40, .ended)]), container: .scrollImmediate)
        #expect(r.outcome == .scrollAbort && r.deliveryTime == 0)
        #expect(r.controlEvents == events([(0, .touchDown), (0.06, .touchCancel)]))
        #expect(r.scaleEvents == scale([(0, .press), (0.06, .release)]))
    }

    // longpress-safe-area in `scroll`: a 6 pt move (> 5) is a scroll-abort, released at the move
    // (the handler sets .ended); 5 pt exactly is not, the lift is a tap that fires the action.
    @Test func longPressSafeAreaInScroll() {
        let out = classify(session([Step(0.1, 0, 6, .moved), Step(0.3, 0, 6, .ended)]), container: .scroll,
                           .longPressSafeArea)
        #expect(out.outcome == .scrollAbort && out.cancelReason == nil && !out.actionFired)
        #expect(out.scaleEvents == scale([(0, .press), (0.1, .release)]))
        #expect(out.controlEvents.isEmpty && out.longPressStates.last?.state == .ended)
        let edge = classify(session([Step(0.1, 0, 5, .moved), Step(0.3, 0, 5, .ended)]), container: .scroll,
                            .longPressSafeArea)
        #expect(edge.outcome == .tap && edge.actionFired && edge.actionTime == 0.3 && edge.actionLatency == 0)
        #expect(edge.scaleEvents == scale([(0, .press), (0.3, .release)]))
    }

    // Not delayed by the container: the long press begins at touch-down even in `table`.
    // Outside a scroll view, leaving the safe area is cancel/safe_area.
    @Test func longPressIgnoresTheContainerDelay() {
        let r = classify(session([Step(0.1, 0, 0, .ended)]), container: .table, .longPressSafeArea)
        #expect(r.outcome == .tap && r.deliveryTime == 0 && r.scaleEvents.first == TimedScaleEvent(time: 0, event: .press))
        let none = classify(session([Step(0.1, -6, 0, .moved), Step(0.2, -6, 0, .ended)]), .longPressSafeArea)
        #expect(none.outcome == .cancel && none.cancelReason == .safeArea)
    }

    // A system cancel under longpress-safe-area: cancel/system, no release (the button stays at
    // 0.95, the article's flaw), no action.
    @Test func longPressSystemCancelLeavesTheButtonPressed() {
        let r = classify(session([Step(0.2, 0, 0, .cancelled)]), container: .scroll, .longPressSafeArea)
        #expect(r.outcome == .cancel && r.cancelReason == .system && !r.actionFired)
        #expect(r.scaleEvents == scale([(0, .press)]))
    }

    // A long press that fails by moving beyond allowableMovement before it begins: scroll-abort in
    // a scroll view, cancel/safe_area outside one; no press at all. 12 pt > 10.
    @Test func longPressFailureBeforeTheBegin() {
        var slow = PressConfiguration.longPressSafeArea
        slow.gesture = .longPress(LongPressGesture(minimumPressDuration: 0.5, allowableMovement: 10, safeArea: 5))
        let s = session([Step(0.1, 0, 12, .moved), Step(0.6, 0, 12, .ended)])
        let scroll = classify(s, container: .scroll, slow)
        #expect(scroll.outcome == .scrollAbort && scroll.scaleEvents.isEmpty && !scroll.actionFired)
        let none = classify(s, container: .none, slow)
        #expect(none.outcome == .cancel && none.cancelReason == .safeArea)
    }

    // any_release on a long press fires on the safe-area exit too, after the configured delay.
    @Test func longPressAnyReleaseFiresOnSafeAreaExit() {
        var c = PressConfiguration.longPressSafeArea
        c.actionRule = .anyRelease
        c.actionDelay = 0.25
        let r = classify(session([Step(0.1, 7, 0, .moved), Step(0.3, 7, 0, .ended)]), container: .scroll, c)
        #expect(r.outcome == .scrollAbort && r.actionFired && r.actionLatency == 0.25)
        #expect(abs((r.actionTime ?? 0) - 0.35) < 1e-12)  // 0.1 + 0.25
    }

    // Times are measured from the touch-down sample; touchDownTime keeps the samples' clock.
    @Test func timesAreRelativeToTouchDown() {
        let r = classify(session(t0: 1000, [Step(0.5, 0, 0, .ended)]), container: .scroll)
        #expect(r.touchDownTime == 1000)
        #expect(r.controlEvents.map(\.time) == [0.15, 0.5])
        #expect(r.duration == 0.5)
    }

    // A given frame is used as is: the touch-down at its corner, a lift 60 pt right of the frame.
    @Test func givenFrameIsUsed() {
        let frame = Rect(x: 100, y: 200, width: 200, height: 50)
        let r = classify(session([Step(0.1, 260, 0, .ended)]), frame: frame)
        #expect(r.outcome == .tap && r.frame == frame)  // 100 + 260 = 360 ≤ 100 + 200 + 70 = 370
    }

    // Sessions breaking the upstream validation degrade instead of crashing.
    @Test func malformedSessionsDegrade() {
        let empty = classify([])
        #expect(empty.outcome == .cancel && empty.cancelReason == .system && empty.duration == 0)
        #expect(!empty.actionFired && empty.scaleEvents.isEmpty)
        // No terminal sample: read as cancelled at the last sample.
        let open = classify(session([Step(0.2, 0, 0, .moved)]))
        #expect(open.outcome == .cancel && open.cancelReason == .system && open.duration == 0.2)
        // Time going backwards is raised to the previous time; samples after the end are ignored.
        let messy = classify(session([Step(0.2, 0, 0, .moved), Step(0.1, 0, 0, .ended), Step(0.5, 0, 300, .moved)]))
        #expect(messy.outcome == .tap && messy.duration == 0.2 && messy.maxTravel == 0)
        #expect(classify([TouchSample(t: 0, x: 0, y: 0, phase: .ended)], .longPressSafeArea).outcome == .cancel)
        let nan = classify(session([Step(.nan, .nan, 0, .moved), Step(0.1, 0, 0, .ended)]), container: .table)
        #expect(nan.outcome == .tap)
    }
}
