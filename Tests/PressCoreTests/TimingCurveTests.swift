import Testing
import PressCore

// Reference values computed with python3, independently of the Swift solver: 200 bisection steps
// on the Bernstein form x(t) = 3(1−t)²t·x1 + 3(1−t)t²·x2 + t³, then y at that t.

@Suite struct TimingCurveTests {
    // By symmetry of (0.42, 0, 0.58, 1) about (0.5, 0.5), easeInEaseOut(0.5) = 0.5.
    @Test func easeInEaseOutIsSymmetric() throws {
        let b = try TimingCurve.easeInEaseOut.unitBezier()
        #expect(abs(b.value(at: 0.5) - 0.5) < 1e-12)
        for x in [0.1, 0.3, 0.45] { #expect(abs(b.value(at: x) + b.value(at: 1 - x) - 1) < 1e-10) }
    }

    @Test(arguments: [
        (TimingCurve.easeIn, 0.25, 0.09346465071882484),
        (.easeIn, 0.9, 0.8394278457624664),
        (.easeOut, 0.1, 0.16057215423753346),
        (.easeOut, 0.75, 0.9065353492811752),
        (.easeInEaseOut, 0.1, 0.019722453548311196),
        (.easeInEaseOut, 0.25, 0.1291619310473198),
        (.default, 0.25, 0.40851059135539586),
        (.default, 0.5, 0.802403387584857),
        // "easeInOutBack": y outside [0, 1]
        (.cubicBezier(x1: 0.68, y1: -0.55, x2: 0.265, y2: 1.55), 0.25, -0.08280710882832257),
        (.cubicBezier(x1: 0.68, y1: -0.55, x2: 0.265, y2: 1.55), 0.75, 1.0891657748134211),
    ])
    func matchesBisectionInPython(_ curve: TimingCurve, _ x: Double, _ y: Double) throws {
        #expect(abs(try curve.unitBezier().value(at: x) - y) < 1e-9)
    }

    // The solved parameter reproduces x to 1e-7 or better over a fine grid, for every named curve.
    @Test(arguments: [TimingCurve.linear, .easeIn, .easeOut, .easeInEaseOut, .default])
    func solvesXToTolerance(_ curve: TimingCurve) throws {
        let b = try curve.unitBezier()
        for i in 0...1000 {
            let x = Double(i) / 1000
            #expect(abs(b.x(atParameter: b.parameter(forX: x)) - x) < 1e-10)
        }
        #expect(b.value(at: 0) == 0)
        #expect(b.value(at: 1) == 1)
    }

    @Test func linearIsIdentity() throws {
        let b = try TimingCurve.linear.unitBezier()
        for x in [0.0, 0.123, 0.5, 0.999, 1] { #expect(b.value(at: x) == x) }
    }

    @Test func rejectsControlPointsOutsideTheUnitInterval() {
        #expect(throws: AnimationParameterError.self) {
            try TimingCurve.cubicBezier(x1: 1.2, y1: 0, x2: 0.5, y2: 1).unitBezier()
        }
        #expect(throws: AnimationParameterError.self) {
            try UnitBezier(x1: 0.2, y1: .nan, x2: 0.5, y2: 1)
        }
    }
}
