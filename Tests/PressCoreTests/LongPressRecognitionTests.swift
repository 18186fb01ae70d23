// The long-press model against reference §2.1's long-press rules and seeds/longpress-safe-area.txt.
import Testing
@testable import PressCore

@Suite struct LongPressRecognitionTests {
    let article = LongPressGesture(minimumPressDuration: 0, allowableMovement: 10, safeArea: 5)

    // minimumPressDuration 0: began at touch-down; moves inside the 5 pt box give changed.
    @Test func beginsAtTouchDownAndEndsAtLift() {
        let t = LongPressRecognition.trace(session([Step(0.05, 3, -4, .moved), Step(0.1, 3, -4, .ended)]),
                                           gesture: article)
        #expect(t.states == states([(0, .possible), (0, .began), (0.05, .changed), (0.1, .ended)]))
        #expect(t.ending == .ended && t.beganTime == 0)
    }

    // Safe area, strictly greater: |dx| = 5 stays, |dx| = 6 (> 5) ends it; the handler runs on
    // .changed and sets .ended at the same instant.
    @Test func safeAreaIsStrict() {
        let edge = LongPressRecognition.trace(session([Step(0.05, 5, 0, .moved), Step(0.08, 5, -5, .moved),
                                                       Step(0.1, 5, -5, .ended)]), gesture: article)
        #expect(edge.ending == .ended)
        let out = LongPressRecognition.trace(session([Step(0.05, 6, 0, .moved), Step(0.1, 6, 0, .ended)]),
                                             gesture: article)
        #expect(out.states == states([(0, .possible), (0, .began), (0.05, .changed), (0.05, .ended)]))
        #expect(out.ending == .leftSafeArea)
    }

    // The box is per axis (|dx| > 5 or |dy| > 5): (4, 4) is 5.66 pt away (Euclidean) but inside.
    @Test func safeAreaIsABoxNotACircle() {
        let t = LongPressRecognition.trace(session([Step(0.05, 4, 4, .moved), Step(0.1, 4, 4, .ended)]),
                                           gesture: article)
        #expect(t.ending == .ended)
    }

    // A terminal sample's position is not checked against the safe area.
    @Test func liftOutsideTheBoxIsStillAnEnd() {
        let t = LongPressRecognition.trace(session([Step(0.1, 30, 0, .ended)]), gesture: article)
        #expect(t.ending == .ended)
    }

    // A cancelled sample after the press began: .cancelled.
    @Test func systemCancel() {
        let t = LongPressRecognition.trace(session([Step(0.1, 0, 0, .cancelled)]), gesture: article)
        #expect(t.states.last == TimedLongPressState(time: 0.1, state: .cancelled))
        #expect(t.ending == .cancelled)
    }

    // minimumPressDuration 0.5 s: allowableMovement (10 pt, Euclidean, strictly greater) before
    // the press begins. (8, 7.5) is √(64 + 56.25) = 10.966 pt > 10 although both axes are < 10: fails.
    // (6, 8) is √(36 + 64) = 10 pt exactly: not more than 10, the press begins at 0.5 s.
    @Test func allowableMovementBeforeTheBegin() {
        let g = LongPressGesture(minimumPressDuration: 0.5, allowableMovement: 10, safeArea: 5)
        let fails = LongPressRecognition.trace(session([Step(0.2, 8, 7.5, .moved), Step(0.6, 8, 7.5, .ended)]), gesture: g)
        #expect(fails.states == states([(0, .possible), (0.2, .failed)]))
        #expect(fails.ending == .failedByMovement && fails.beganTime == nil)
        let edge = LongPressRecognition.trace(session([Step(0.2, 6, 8, .moved), Step(0.6, 6, 8, .moved),
                                                       Step(0.7, 6, 8, .ended)]), gesture: g)
        // Began at 0.5 where the finger was (6, 8); the move at 0.6 to the same point stays in the box.
        #expect(edge.states == states([(0, .possible), (0.5, .began), (0.6, .changed), (0.7, .ended)]))
    }

    // allowableMovement no longer applies once pressed; the safe area is measured from where the
    // press began: began at 0.5 s with the finger at (4, 0); a move to (9, 0) is 5 pt from there.
    @Test func safeAreaCountsFromWhereThePressBegan() {
        let g = LongPressGesture(minimumPressDuration: 0.5, allowableMovement: 10, safeArea: 5)
        let t = LongPressRecognition.trace(session([Step(0.2, 4, 0, .moved), Step(0.6, 9, 0, .moved),
                                                    Step(0.7, 9, 0, .ended)]), gesture: g)
        #expect(t.ending == .ended)
        let noBox = LongPressGesture(minimumPressDuration: 0, allowableMovement: 10, safeArea: nil)
        let far = LongPressRecognition.trace(session([Step(0.2, 0, 80, .moved), Step(0.3, 0, 80, .ended)]), gesture: noBox)
        #expect(far.ending == .ended)
    }

    // The press timer fires before a sample at the same time: a lift at exactly 0.5 s.
    @Test func timerFiresBeforeALiftAtTheSameTime() {
        let g = LongPressGesture(minimumPressDuration: 0.5)
        let t = LongPressRecognition.trace(session([Step(0.5, 0, 0, .ended)]), gesture: g)
        #expect(t.states == states([(0, .possible), (0.5, .began), (0.5, .ended)]))
        let early = LongPressRecognition.trace(session([Step(0.3, 0, 0, .ended)]), gesture: g)
        #expect(early.ending == .failedByLift)
        let cancelled = LongPressRecognition.trace(session([Step(0.3, 0, 0, .cancelled)]), gesture: g)
        #expect(cancelled.ending == .failedByCancel)
    }
}
