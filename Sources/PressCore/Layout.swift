// Screen layouts: where the controls are, so a recorded touch can be given the control it landed on.
// Device recordings carry no buttons; a layout names them.

/// One control of a layout: its id, frame, and optionally the container it sits in, the scroll
/// axis and the press configuration it uses.
public struct LayoutControl: Hashable, Sendable {
    /// The control's name, stored as the session's `control`.
    public var id: String
    /// The control's frame in points, in the same space as the touches.
    public var frame: Rect
    /// The scroll view the control sits in, or nil to keep the session's default.
    public var container: Container?
    /// The container's scroll axis, or nil to keep the session's default.
    public var scrollAxis: ScrollAxis?
    /// The press configuration's name, or nil to keep the session's default.
    public var config: String?

    public init(id: String, frame: Rect, container: Container? = nil, scrollAxis: ScrollAxis? = nil,
                config: String? = nil) {
        self.id = id; self.frame = frame; self.container = container; self.scrollAxis = scrollAxis
        self.config = config
    }

    /// True when `point` lies in the frame, edges included:
    /// x ≤ point.x ≤ x + width and y ≤ point.y ≤ y + height.
    public func contains(_ point: Point) -> Bool {
        point.x >= frame.x && point.x <= frame.x + frame.width
            && point.y >= frame.y && point.y <= frame.y + frame.height
    }
}

/// A screen's controls in drawing order: later controls lie on top of earlier ones, as subviews
/// listed later do in UIKit.
public struct Layout: Hashable, Sendable {
    public var controls: [LayoutControl]
    public init(controls: [LayoutControl] = []) { self.controls = controls }

    /// The top-most (last listed) control whose frame contains `point`, edges included, or nil
    /// when the point hits no control (the session then keeps its default: a 44 × 44 pt control
    /// centred on the touch-down, reference §2 "The frame").
    public func hitTest(_ point: Point) -> LayoutControl? {
        controls.last { $0.contains(point) }
    }
}
