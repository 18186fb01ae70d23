// How raw touchscreen coordinates become points, and what a device recording's sessions are
// labelled with: the options `pressdb ingest` fills from its flags for getevent and evemu input.
import PressCore

/// Options for reading a device recording (getevent, evemu, evtest, libinput record).
///
/// Units: a raw axis value becomes pixels by Android's formula (frameworks/native
/// `TouchInputMapper`, the scale is display size over axis span):
///
///     px = (raw − min) · width / (max − min + 1)
///
/// with `min`/`max` the axis range — `absRange` when given, otherwise the recording's own (evemu
/// `A:` lines, `getevent -p` axis lines, the evtest header, libinput `absinfo`), otherwise none,
/// and then px = raw — and `width` the screen's size in pixels along that axis (`screen`), or,
/// without one, the axis span max − min + 1 (so px = raw − min). Pixels become points by dividing
/// by `pixelsPerPoint`.
///
/// Without a screen, when both axes give their resolution (raw units per millimetre, e.g. a
/// touchpad's), a position is physical instead — there are no pixels to map to:
///
///     pt = (raw − min) / resolution · pointsPerMillimetre
///
/// and `pixelsPerPoint` does not apply.
public struct DeviceLogOptions: Hashable, Sendable {
    /// The touchscreen's raw ranges (`--abs-range X0:X1,Y0:Y1`), overriding the recording's own.
    public var absRange: AbsRanges?
    /// The screen size in pixels (`--screen WxH`).
    public var screen: ScreenSize?
    /// Pixels per point (`--px-per-pt`), e.g. Android density / 160 (a 480 dpi phone: 3). Default 1.
    public var pixelsPerPoint: Double
    /// Controls to hit-test each session's touch-down point against (`--layout FILE`), or nil.
    public var layout: Layout?
    /// Attributes every session starts from (container, config, user, device, … from the command
    /// line). A layout hit overrides control, frame, and, where the control gives them, container,
    /// scroll axis and config.
    public var attributes: SessionAttributes

    /// The default `pixelsPerPoint`: 1 (points are pixels).
    public static let defaultPixelsPerPoint = 1.0

    /// Points per millimetre for physical positions: 160 / 25.4 ≈ 6.299, i.e. 1 pt = 1/160 inch,
    /// Android's density-independent pixel — the same equivalence as `pixelsPerPoint` = density / 160
    /// (an iOS point is about 1/163 inch at 1×).
    public static let pointsPerMillimetre = 160 / 25.4

    public init(absRange: AbsRanges? = nil, screen: ScreenSize? = nil,
                pixelsPerPoint: Double = DeviceLogOptions.defaultPixelsPerPoint,
                layout: Layout? = nil, attributes: SessionAttributes = SessionAttributes()) {
        self.absRange = absRange; self.screen = screen; self.pixelsPerPoint = pixelsPerPoint
        self.layout = layout; self.attributes = attributes
    }

    /// A raw value along one axis → pixels: (raw − min) · extent / (max − min + 1), or raw when
    /// `range` is nil. `extent` is the screen's size along the axis in pixels (nil: the span).
    public static func pixels(raw: Int32, range: AxisRange?, extent: Double?) -> Double {
        guard let range else { return Double(raw) }
        let span = Double(range.span)
        return (Double(raw) - Double(range.min)) * (extent ?? span) / span
    }

    /// A raw position → points, given the axis ranges in force (already resolved: `absRange` or
    /// the recording's). Divides the pixels by `pixelsPerPoint`; or, with no `screen` and both
    /// resolutions known, converts millimetres at `pointsPerMillimetre`.
    public func point(rawX: Int32, rawY: Int32, xRange: AxisRange?, yRange: AxisRange?) -> Point {
        if screen == nil, let xRange, let yRange, xRange.resolution > 0, yRange.resolution > 0 {
            let mmX = (Double(rawX) - Double(xRange.min)) / Double(xRange.resolution)
            let mmY = (Double(rawY) - Double(yRange.min)) / Double(yRange.resolution)
            return Point(x: mmX * Self.pointsPerMillimetre, y: mmY * Self.pointsPerMillimetre)
        }
        let x = Self.pixels(raw: rawX, range: xRange, extent: screen.map { Double($0.width) })
        let y = Self.pixels(raw: rawY, range: yRange, extent: screen.map { Double($0.height) })
        return Point(x: x / pixelsPerPoint, y: y / pixelsPerPoint)
    }
}

/// Raw X and Y ranges of a touchscreen.
public struct AbsRanges: Hashable, Sendable {
    public var x: AxisRange
    public var y: AxisRange
    public init(x: AxisRange, y: AxisRange) { self.x = x; self.y = y }

    /// Parses `X0:X1,Y0:Y1` (integers, X0 ≤ X1, Y0 ≤ Y1), e.g. `0:1079,0:2339`, each axis
    /// optionally with its resolution in units per millimetre, `X0:X1:RX,Y0:Y1:RY`
    /// (`0:3987:32,0:1960:31`, a touchpad's).
    /// - Throws: `DeviceLogOptionError` saying what is wrong.
    public init(parsing text: String) throws(DeviceLogOptionError) {
        let axes = text.split(separator: ",", omittingEmptySubsequences: false)
        func axis(_ s: Substring) throws(DeviceLogOptionError) -> AxisRange {
            let ends = s.split(separator: ":", omittingEmptySubsequences: false)
            guard ends.count == 2 || ends.count == 3, let lo = Int(ends[0].deviceLogTrimmed()), let hi = Int(ends[1].deviceLogTrimmed()) else {
                throw DeviceLogOptionError("abs range `\(text)` is not `X0:X1,Y0:Y1` with integers")
            }
            var resolution = 0
            if ends.count == 3 {
                guard let r = Int(ends[2].deviceLogTrimmed()), r > 0, r <= Int(Int32.max) else {
                    throw DeviceLogOptionError("abs range `\(s)`: the resolution (units per mm) must be a positive integer")
                }
                resolution = r
            }
            guard lo <= hi else { throw DeviceLogOptionError("abs range `\(s)`: the minimum exceeds the maximum") }
            // The kernel's axis ranges are 32-bit (struct input_absinfo).
            guard lo >= Int(Int32.min), hi <= Int(Int32.max) else {
                throw DeviceLogOptionError("abs range `\(s)`: axis values are 32-bit integers (from \(Int32.min) to \(Int32.max))")
            }
            return AxisRange(min: lo, max: hi, resolution: resolution)
        }
        guard axes.count == 2 else { throw DeviceLogOptionError("abs range `\(text)` is not `X0:X1,Y0:Y1`") }
        self.init(x: try axis(axes[0]), y: try axis(axes[1]))
    }
}

/// A screen size in pixels.
public struct ScreenSize: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }

    /// Parses `WxH` (positive integers, `x` or `×`), e.g. `1080x2340`.
    /// - Throws: `DeviceLogOptionError` saying what is wrong.
    public init(parsing text: String) throws(DeviceLogOptionError) {
        let parts = text.split(whereSeparator: { $0 == "x" || $0 == "X" || $0 == "×" })
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= 1_000_000, h <= 1_000_000 else {
            throw DeviceLogOptionError("screen size `\(text)` is not `WxH` in pixels, e.g. 1080x2340")
        }
        self.init(width: w, height: h)
    }
}

/// A device-log option value that cannot be parsed; the message says why.
public struct DeviceLogOptionError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
