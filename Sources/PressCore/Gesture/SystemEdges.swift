// The system's screen-edge gestures around a press (reference §5.3): the session attributes
// `window` and `system_gestures`, and how a touch that begins in an edge zone reaches the app.

/// The app window's size in points (`window`: `[width, height]` in JSON, `390x844` in CSV and
/// the database). It also says the samples are in the window's points, origin top left.
public struct WindowSize: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }

    /// The CSV cell and stored text: `<width>x<height>`, shortest round-trip numbers.
    public var text: String { JSONText.number(width) + "x" + JSONText.number(height) }
    /// The JSON value: `[width,height]`.
    public var json: String { "[" + JSONText.number(width) + "," + JSONText.number(height) + "]" }

    /// A size from its text (`390x844`); nil unless two finite positive numbers.
    public init?(text: String) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]) else { return nil }
        self.init(checkedWidth: w, height: h)
    }

    /// A size of two finite positive numbers, else nil.
    public init?(checkedWidth w: Double, height h: Double) {
        guard w.isFinite, h.isFinite, w > 0, h > 0 else { return nil }
        self.init(width: w, height: h)
    }
}

/// The system gestures active at the window's edges (`system_gestures`): a list of `back` and
/// `home` in JSON (`[]` for none), the names joined by `+` in CSV and the database (`none` for
/// none).
public struct SystemGestures: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// UINavigationController's interactive pop: a pan from the left screen edge.
    public static let back = SystemGestures(rawValue: 1)
    /// The home indicator's swipe up from the bottom edge (an app that defers the bottom edge,
    /// `preferredScreenEdgesDeferringSystemGestures`, does not list it).
    public static let home = SystemGestures(rawValue: 2)

    /// Every gesture with its name, in the order the text lists them.
    public static let named: [(String, SystemGestures)] = [("back", .back), ("home", .home)]

    /// The names in order.
    public var names: [String] { Self.named.filter { contains($0.1) }.map(\.0) }
    /// The CSV cell and stored text: `back+home`, `back`, `home` or `none`.
    public var text: String { isEmpty ? "none" : names.joined(separator: "+") }
    /// The JSON value: `["back","home"]`, `[]` for none.
    public var json: String { "[" + names.map { JSONText.string($0) }.joined(separator: ",") + "]" }

    /// The gesture named `name`, or nil.
    public static func gesture(named name: Substring) -> SystemGestures? {
        named.first { $0.0 == name }?.1
    }

    /// Gestures from their text (`back+home`, `none`); nil when a name is unknown.
    public init?(text: String) {
        if text == "none" { self = []; return }
        var g: SystemGestures = []
        for name in text.split(separator: "+", omittingEmptySubsequences: false) {
            guard let one = Self.gesture(named: name) else { return nil }
            g.insert(one)
        }
        self = g
    }
}

/// How the system holds a touch that begins in one of its edge zones before the app's views
/// get it (reference §5.3). The control's `touchDown` waits for both this and its scroll view.
public struct SystemEdgeHold: Hashable, Sendable {
    /// Seconds after touch-down at which the held touch is delivered if it is still down;
    /// infinity for a hold until lift.
    public var delay: Double
    /// Which way the system gesture pulls: a move reaching `SystemEdgeHold.hysteresis` this way
    /// from the touch-down point is the system's gesture, and the app never gets the touch.
    public var takeover: Direction

    public enum Direction: Hashable, Sendable {
        /// Towards larger x: away from the left edge (the back swipe).
        case right
        /// Towards smaller y: away from the bottom edge (the home swipe).
        case up
    }

    public init(delay: Double, takeover: Direction) { self.delay = delay; self.takeover = takeover }

    /// The width of the left-edge zone of the back swipe, in points: *observed, not
    /// documented* (reference §5.3, where the sources and their disagreement are given).
    public static let backZoneWidth = 20.0
    /// The height of the bottom-edge zone of the system gesture gate, in points: *observed,
    /// not documented* (reference §5.3).
    public static let homeZoneHeight = 20.0
    /// How long the bottom-edge gate holds a touch before delivering it: *observed, not
    /// documented* ("about 1 second", reference §5.3).
    public static let homeDelay = 1.0
    /// The interactive pop gesture holds `touchesBegan` until it fails, which the reports see
    /// at lift (`delaysTouchesBegan`, reference §5.3).
    public static let backDelay = Double.infinity
    /// The movement at which an edge gesture takes the touch: UIScreenEdgePanGestureRecognizer
    /// is a UIPanGestureRecognizer, whose hysteresis is 10 pt (reference §2.1).
    public static let hysteresis = 10.0

    /// The hold of a touch beginning at `origin` in a window of `window` with `gestures`
    /// active, or nil when it begins in no zone. The back zone is checked first: a touch in
    /// the bottom-left corner waits for the pop gesture, which holds it longest.
    /// Zones include their inner boundary: x ≤ 20 is in the back zone.
    public static func hold(at origin: Point, window: WindowSize, gestures: SystemGestures) -> SystemEdgeHold? {
        if gestures.contains(.back), origin.x <= backZoneWidth + GestureConventions.distanceTolerance {
            return SystemEdgeHold(delay: backDelay, takeover: .right)
        }
        if gestures.contains(.home), origin.y >= window.height - homeZoneHeight - GestureConventions.distanceTolerance {
            return SystemEdgeHold(delay: homeDelay, takeover: .up)
        }
        return nil
    }

    /// The hold of a session by its attributes: none unless it gives both `window` and
    /// `system_gestures` (without a window the edges cannot be placed).
    public static func hold(at origin: Point, attributes: SessionAttributes) -> SystemEdgeHold? {
        guard let g = attributes.systemGestures, !g.isEmpty, let w = attributes.window else { return nil }
        return hold(at: origin, window: w, gestures: g)
    }

    /// Whether the move from `origin` to `point` is the system's gesture.
    @inline(__always)
    func takesOver(from origin: Point, to point: Point) -> Bool {
        let d = takeover == .right ? point.x - origin.x : origin.y - point.y
        return GestureConventions.reaches(d, Self.hysteresis)
    }
}
