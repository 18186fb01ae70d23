// A session's attributes from the control its touch-down point hits.
import PressCore

extension Layout {
    /// The attributes for a session whose touch-down point is `touchDown` (points): `defaults`
    /// (from the command line) with, when a control is hit (`hitTest`: top-most, edges included),
    /// its id and frame, and its container, scroll axis and config where it gives them. On a miss,
    /// `defaults` unchanged: control and frame stay as given (nil frame means the reference's
    /// default, a 44 × 44 pt control centred on the touch-down).
    public func sessionAttributes(touchDown: Point, defaults: SessionAttributes) -> SessionAttributes {
        guard let hit = hitTest(touchDown) else { return defaults }
        var a = defaults
        a.control = hit.id
        a.frame = hit.frame
        if let c = hit.container { a.container = c }
        if let s = hit.scrollAxis { a.scrollAxis = s }
        if let c = hit.config { a.config = c }
        return a
    }
}
