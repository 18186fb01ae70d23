// What a press's feedback changes on screen — the control's scale, its content's opacity, or a
// colour — and when a change is visible (docs/press-model.md, "Feedback other than scale").

/// An opaque 8-bit sRGB colour, as the display's frame buffer holds it.
public struct RGB8: Hashable, Sendable {
    public var red: UInt8, green: UInt8, blue: UInt8
    public init(red: UInt8, green: UInt8, blue: UInt8) { self.red = red; self.green = green; self.blue = blue }

    /// `#RRGGBB` (or `RRGGBB`), case-insensitive; nil for anything else.
    public init?(hex: String) {
        var s = Substring(hex)
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.utf8.count == 6, s.utf8.allSatisfy({ $0 < 0x80 }), let v = UInt32(s, radix: 16) else { return nil }
        self.init(red: UInt8(v >> 16), green: UInt8((v >> 8) & 0xff), blue: UInt8(v & 0xff))
    }

    /// `#rrggbb`.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = [UInt8(ascii: "#")]
        for c in [red, green, blue] { out.append(digits[Int(c >> 4)]); out.append(digits[Int(c & 0xf)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Apple's `systemBlue` (light appearance): (0, 122, 255), the default tint.
    public static let systemBlue = RGB8(red: 0, green: 122, blue: 255)
    /// Apple's `systemBackground` (light appearance): white.
    public static let white = RGB8(red: 255, green: 255, blue: 255)
    /// Apple's `systemGray4` (light appearance): (209, 209, 214).
    public static let systemGray4 = RGB8(red: 209, green: 209, blue: 214)
}

/// What the animated value of a configuration moves on screen. The value is 1 at rest and the
/// configuration's pressed value (`PressAnimation.pressedScale`) while pressed, whatever it means:
///
/// - `scale`: the control's scale; seen when its edge moves one device pixel (reference §4).
/// - `opacity`: the alpha of content of colour `content` drawn over `background`; the frame shows
///   alpha·content + (1 − alpha)·background per channel (Porter–Duff source-over on
///   gamma-encoded values, as Core Animation composites by default).
/// - `color`: the content's colour, `from` at rest (value 1) and `to` at value 0; the frame shows
///   value·from + (1 − value)·to per channel (a linear interpolation of the encoded components,
///   as a `UIView` animation of `backgroundColor` interpolates them).
///
/// Opacity and colour are the same blend of two colours by the value, so one rule finds the first
/// visible frame of both: the frame whose composited colour, rounded to 8-bit code values, differs
/// from the colour at rest in some channel — the composite has moved at least half a code value
/// from the rest colour, which is itself an exact code value.
public enum PressFeedback: Hashable, Sendable {
    case scale
    case opacity(content: RGB8, background: RGB8)
    case color(from: RGB8, to: RGB8)

    /// `scale`, `opacity` or `color`, as configuration JSON names it.
    public var name: String {
        switch self {
        case .scale: return "scale"
        case .opacity: return "opacity"
        case .color: return "color"
        }
    }

    /// The colour at value 1 (rest) and at value 0 of a blend; nil for `scale`.
    public var blendEnds: (atOne: RGB8, atZero: RGB8)? {
        switch self {
        case .scale: return nil
        case let .opacity(content, background): return (content, background)
        case let .color(from, to): return (from, to)
        }
    }

    /// The largest difference of a channel between the blend's two ends, in 8-bit code values:
    /// a value change of Δ moves that channel by |Δ| times it. 0 for `scale`.
    public var codeRange: Double {
        guard let (a, b) = blendEnds else { return 0 }
        return Double(max(absDiff(a.red, b.red), absDiff(a.green, b.green), absDiff(a.blue, b.blue)))
    }

    private func absDiff(_ x: UInt8, _ y: UInt8) -> Int { abs(Int(x) - Int(y)) }

    /// The composited colour at `value`, each channel rounded to the nearest code value (halves
    /// away from zero): what the frame buffer holds. Nil for `scale`. Values outside [0, 1]
    /// (a spring's overshoot) are clamped, as a colour component is.
    public func composited(at value: Double) -> RGB8? {
        guard let (a, b) = blendEnds else { return nil }
        let v = min(max(value, 0), 1)
        func mix(_ x: UInt8, _ y: UInt8) -> UInt8 {
            UInt8(min(max((v * Double(x) + (1 - v) * Double(y)).rounded(), 0), 255))
        }
        return RGB8(red: mix(a.red, b.red), green: mix(a.green, b.green), blue: mix(a.blue, b.blue))
    }
}

/// The visibility rule of one feedback on one control: a frame is visible when
/// |value − 1| × `first` × `second` ≥ `threshold`. For `scale` that is reference §4's
/// |scale − 1| × max(w, h) / 2 × density ≥ 1 device pixel, with the factors in the same order so
/// the same bits come out; for a blend, |value − 1| × codeRange ≥ ½ code value.
struct FeedbackVisibility {
    let first: Double, second: Double, threshold: Double
    /// Multiplies an instantaneous jump of the value into `releaseJump`'s points: the half size
    /// for `scale`, 0 for a blend (a jump of opacity or colour moves no edge; docs/press-model.md).
    let jumpUnit: Double

    /// Half a code value: the composite rounds to another code than the rest colour's.
    static let blendThreshold = 0.5

    init(_ feedback: PressFeedback, halfSize: Double, density: Double) {
        switch feedback {
        case .scale:
            (first, second, threshold, jumpUnit) = (halfSize, density, VisualMetrics.feedbackPixelThreshold, halfSize)
        case .opacity, .color:
            (first, second, threshold, jumpUnit) = (feedback.codeRange, 1, FeedbackVisibility.blendThreshold, 0)
        }
    }

    /// Whether a change of the value from rest of `distance` (≥ 0) is visible.
    @inline(__always)
    func isVisible(_ distance: Double) -> Bool { distance * first * second >= threshold }
}
