// Axis resolutions (struct input_absinfo.resolution, raw units per millimetre) → physical points
// when no screen is given: pt = (raw − min) / resolution · 160 / 25.4 (1 pt = 1/160 inch). Expected
// values are hand computations (python3), one per source of resolutions.
import Testing
import PressCore
@testable import PressFormats

@Suite struct ResolutionUnitsTests {
    private func close(_ a: Point?, _ x: Double, _ y: Double) -> Bool {
        guard let a else { return false }
        return abs(a.x - x) < 1e-9 && abs(a.y - y) < 1e-9
    }

    /// evemu `A: code min max fuzz flat resolution`: (1100, 520) on 100…3999 at 40 and 0…1999 at
    /// 20 units/mm is (25 mm, 26 mm) = (157.480…, 163.779…) pt (25 * 160 / 25.4, 26 * 160 / 25.4).
    @Test func evemuAxisLines() {
        let text = """
            A: 35 100 3999 0 0 40
            A: 36 0 1999 0 0 20
            E: 0.000000 0003 0039 0001
            E: 0.000000 0003 0035 1100
            E: 0.000000 0003 0036 0520
            E: 0.000000 0000 0000 0000
            """
        let result = readRecording(text, format: .evemu)
        #expect(close(result.records.first?.sample.point, 157.48031496062993, 163.77952755905514))
        // evemu before 2.0 wrote five fields: no resolution, raw pixels (px = raw − min).
        let old = readRecording(text.replacingOccurrences(of: " 0 0 40", with: " 0 0").replacingOccurrences(of: " 0 0 20", with: " 0 0"),
                                format: .evemu)
        #expect(old.records.first?.sample.point == Point(x: 1000, y: 520))
    }

    /// `getevent -p`'s `resolution R`: (640, 310) at 32 and 31 units/mm is (20 mm, 10 mm) =
    /// (125.984…, 62.992…) pt.
    @Test func geteventPLines() {
        let text = """
            add device 1: /dev/input/event3
              events:
                ABS (0003): ABS_MT_POSITION_X     : value 0, min 0, max 3987, fuzz 0, flat 0, resolution 32
                            ABS_MT_POSITION_Y     : value 0, min 0, max 1960, fuzz 0, flat 0, resolution 31
            [ 1.000000] /dev/input/event3: EV_ABS ABS_MT_TRACKING_ID 00000001
            [ 1.000000] /dev/input/event3: EV_ABS ABS_MT_POSITION_X 00000280
            [ 1.000000] /dev/input/event3: EV_ABS ABS_MT_POSITION_Y 00000136
            [ 1.000000] /dev/input/event3: EV_SYN SYN_REPORT 00000000
            """
        let result = readRecording(text, format: .getevent)
        #expect(result.rejects.isEmpty)
        #expect(close(result.records.first?.sample.point, 125.98425196850394, 62.99212598425197))
    }

    /// `--abs-range X0:X1:RX,Y0:Y1:RY` gives resolutions to a dump without a header; a resolution
    /// on one axis only is not enough (pixels then, px = raw − min).
    @Test func absRangeWithResolutions() throws {
        let r = try AbsRanges(parsing: "0:3987:32,0:1960:31")
        #expect(r == AbsRanges(x: AxisRange(min: 0, max: 3987, resolution: 32), y: AxisRange(min: 0, max: 1960, resolution: 31)))
        let o = DeviceLogOptions(absRange: r)
        #expect(close(o.point(rawX: 640, rawY: 310, xRange: r.x, yRange: r.y), 125.98425196850394, 62.99212598425197))
        let half = try AbsRanges(parsing: "0:3987:32,0:1960")
        #expect(DeviceLogOptions().point(rawX: 640, rawY: 310, xRange: half.x, yRange: half.y) == Point(x: 640, y: 310))
        for bad in ["0:3987:0,0:1960:31", "0:3987:x,0:1960:31", "0:3987:32:1,0:1960"] {
            #expect(throws: DeviceLogOptionError.self) { try AbsRanges(parsing: bad) }
        }
    }
}
