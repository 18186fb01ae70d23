// Press targets that are not UIControls (SwiftUI buttons): their frames in window coordinates
// and their descriptions, registered by the view modifier, hit-tested at touch-down.
import PressCore

/// The press targets on screen, by an id the registering view chooses. The UIKit observer asks
/// it when the touched view is not inside a `UIControl`.
public final class PressTargets {
    private var targets: [(id: String, control: PressedControl)] = []

    public init() {}

    /// Adds or moves the target `id` (the last registered is on top).
    public func register(_ id: String, _ control: PressedControl) {
        targets.removeAll { $0.id == id }
        targets.append((id, control))
    }

    public func unregister(_ id: String) { targets.removeAll { $0.id == id } }

    /// The topmost target whose frame contains `point` (edges included), or nil.
    public func target(at point: Point) -> PressedControl? {
        for t in targets.reversed() {
            let f = t.control.frame
            if point.x >= f.x, point.x <= f.x + f.width, point.y >= f.y, point.y <= f.y + f.height { return t.control }
        }
        return nil
    }

    public var count: Int { targets.count }
}
