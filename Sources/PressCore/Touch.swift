// Touches as pressdb records them: one finger's samples from touch-down to lift.

/// The phase of a touch sample, named after `UITouch.Phase`.
public enum TouchPhase: String, CaseIterable, Sendable, Hashable {
    case began, moved, stationary, ended, cancelled

    /// `moved` and `stationary` samples are moves: only they feed the scroll hysteresis, a
    /// table's cancel and the long-press safe area (reference §2.1, conventions).
    public var isMove: Bool { self == .moved || self == .stationary }

    /// `ended` and `cancelled` end a touch.
    public var isTerminal: Bool { self == .ended || self == .cancelled }
}

/// A point in the view's coordinate space, in points.
public struct Point: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// A rectangle in points: origin (`x`, `y`) and size (`width`, `height`), as `CGRect`.
public struct Rect: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The side of Apple's minimum hit target: 44 pt (Human Interface Guidelines, "Buttons":
    /// a hit region of at least 44 × 44 pt).
    public static let minimumHitTargetSide = 44.0

    /// Apple's minimum hit target, 44 × 44 pt, centred on `center`. Used when a session gives
    /// no frame (reference §2, "The frame").
    public static func minimumHitTarget(centeredOn center: Point) -> Rect {
        let side = minimumHitTargetSide
        return Rect(x: center.x - side / 2, y: center.y - side / 2, width: side, height: side)
    }

    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
}

/// One recorded sample of a touch: time `t` in seconds (any epoch; only differences matter),
/// position (`x`, `y`) in points, and its phase.
public struct TouchSample: Hashable, Sendable {
    public var t: Double
    public var x: Double
    public var y: Double
    public var phase: TouchPhase
    public init(t: Double, x: Double, y: Double, phase: TouchPhase) {
        self.t = t; self.x = x; self.y = y; self.phase = phase
    }
    public var point: Point { Point(x: x, y: y) }
}

/// The axis along which a container scrolls.
public enum ScrollAxis: String, CaseIterable, Sendable, Hashable {
    case vertical, horizontal, both
}
