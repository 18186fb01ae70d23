// Raw axis values → pixels → points, against hand computations of Android's formula
// px = (raw − min) · width / (max − min + 1), pt = px / pixelsPerPoint (values from python3).
import Testing
import PressCore
@testable import PressFormats

@Suite struct ContactUnitsTests {
    static let twoFingers = "evemu/Atmel-maXTouch-Touchscreen.2-fingers-touch-release.events"

    /// The first contact's touch-down point (raw (539, 167), see EvemuRecordingTests).
    func touchDown(_ options: DeviceLogOptions) throws -> Point {
        let result = DeviceLogReader.readAll(try SharedRecordings.bytes(Self.twoFingers), format: .evemu,
                                             file: Self.twoFingers, options: options)
        return try #require(result.sessions.first).first.point
    }

    func close(_ a: Point, _ b: Point) -> Bool { abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9 }

    // A: ranges 0…799 × 0…479, screen 1000 × 500 px, 2.5 px/pt:
    // x = 539 · 1000 / 800 / 2.5 = 269.5, y = 167 · 500 / 480 / 2.5 = 69.583333…
    @Test(.enabled(if: SharedRecordings.available, "the shared recordings (../shared/data beside the package) are not here"))
    func evemuRangesWithScreenAndDensity() throws {
        let p = try touchDown(DeviceLogOptions(screen: ScreenSize(width: 1000, height: 500), pixelsPerPoint: 2.5))
        #expect(close(p, Point(x: 269.5, y: 69.58333333333334)))
    }

    // --abs-range 100:899,0:479 overrides the A: lines; without a screen px = raw − min:
    // x = (539 − 100) / 2.5 = 175.6, y = 167 / 2.5 = 66.8. With 1000 × 500: x = 439 · 1000 / 800 / 2.5 = 219.5.
    @Test(.enabled(if: SharedRecordings.available, "the shared recordings (../shared/data beside the package) are not here"))
    func absRangeOverridesTheRecording() throws {
        let range = try AbsRanges(parsing: "100:899,0:479")
        #expect(close(try touchDown(DeviceLogOptions(absRange: range, pixelsPerPoint: 2.5)), Point(x: 175.6, y: 66.8)))
        let p = try touchDown(DeviceLogOptions(absRange: range, screen: ScreenSize(width: 1000, height: 500), pixelsPerPoint: 2.5))
        #expect(close(p, Point(x: 219.5, y: 69.58333333333334)))
    }

    // getevent -p ranges in the header (max 4095 on both axes), screen 1080 × 1920:
    // x = 2048 · 1080 / 4096 = 540, y = 1024 · 1920 / 4096 = 480.
    @Test func geteventPRangesInTheHeader() {
        let text = """
        add device 1: /dev/input/event2
          name:     "touch"
          events:
            ABS (0003): ABS_MT_POSITION_X     : value 0, min 0, max 4095, fuzz 0, flat 0, resolution 0
                        ABS_MT_POSITION_Y     : value 0, min 0, max 4095, fuzz 0, flat 0, resolution 0
        [ 1.000000] /dev/input/event2: EV_ABS ABS_MT_POSITION_X 00000800
        [ 1.000000] /dev/input/event2: EV_ABS ABS_MT_POSITION_Y 00000400
        [ 1.000000] /dev/input/event2: EV_SYN SYN_MT_REPORT 00000000
        [ 1.000000] /dev/input/event2: EV_SYN SYN_REPORT 00000000
        """
        let result = readRecording(text, format: .getevent, options: DeviceLogOptions(screen: ScreenSize(width: 1080, height: 1920)))
        #expect(result.rejects.isEmpty)
        #expect(result.records.first?.sample.point == Point(x: 540, y: 480))
    }

    // No range known: raw = px, whatever the screen; then points = px / pixelsPerPoint (3: 480 dpi).
    @Test func noRangeMeansRawIsPixels() {
        #expect(DeviceLogOptions.pixels(raw: 1234, range: nil, extent: 1080) == 1234)
        let o = DeviceLogOptions(screen: ScreenSize(width: 1080, height: 2340), pixelsPerPoint: 3)
        #expect(o.point(rawX: 300, rawY: 600, xRange: nil, yRange: nil) == Point(x: 100, y: 200))
    }

    @Test func optionParsing() throws {
        #expect(try AbsRanges(parsing: "0:1079,0:2339") == AbsRanges(x: AxisRange(min: 0, max: 1079), y: AxisRange(min: 0, max: 2339)))
        #expect(try ScreenSize(parsing: "1080x2340") == ScreenSize(width: 1080, height: 2340))
        for bad in ["0:1079", "0-1079,0-2339", "9:1,0:5", "a:b,c:d"] {
            #expect(throws: DeviceLogOptionError.self) { try AbsRanges(parsing: bad) }
        }
        for bad in ["1080", "0x100", "axb", "1080x2340x3"] {
            #expect(throws: DeviceLogOptionError.self) { try ScreenSize(parsing: bad) }
        }
    }
}
