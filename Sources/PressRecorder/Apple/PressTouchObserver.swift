// The UIKit side of the recorder: a gesture recognizer on the window that sees every touch and
// never takes part in handling it, and the description of the control under a touch. Compiled
// only where UIKit is; every API it uses is listed, with Apple's documentation, in
// docs/recording.md ("The UIKit layer, line by line").
#if canImport(UIKit)
import UIKit
import UIKit.UIGestureRecognizerSubclass
import PressCore

/// Sees the window's touches and hands those on controls to a `PressRecorder`. Add it to the
/// window: `window.addGestureRecognizer(PressTouchObserver(recorder: recorder))`.
///
/// It never recognizes, so it never cancels or delays a touch: `cancelsTouchesInView`,
/// `delaysTouchesBegan` and `delaysTouchesEnded` are false, it prevents no other recognizer
/// and is prevented by none, and it recognizes simultaneously with every other one.
@MainActor
public final class PressTouchObserver: UIGestureRecognizer, UIGestureRecognizerDelegate {
    /// The names a control runs under: configuration, variant, control id (nil: the control's
    /// `accessibilityIdentifier`).
    public struct Naming: Sendable {
        public var configuration: String?
        public var variant: String?
        public var controlID: String?
        public init(configuration: String? = nil, variant: String? = nil, controlID: String? = nil) {
            self.configuration = configuration; self.variant = variant; self.controlID = controlID
        }
    }

    public let recorder: PressRecorder
    /// SwiftUI buttons (`pressConfiguration`), hit-tested when no `UIControl` is under the touch.
    public let targets: PressTargets
    /// The names of a control; nil leaves the control out (not recorded).
    public var naming: (UIControl) -> Naming? = { _ in Naming() }
    /// The current screen's name, the display profile and the (pseudonymous) user id.
    public var screen: () -> String? = { nil }
    public var displayProfile: String?
    public var userID: String?

    public init(recorder: PressRecorder, targets: PressTargets = PressTargets()) {
        self.recorder = recorder
        self.targets = targets
        super.init(target: nil, action: nil)
        cancelsTouchesInView = false
        delaysTouchesBegan = false
        delaysTouchesEnded = false
        delegate = self
    }

    public override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        super.touchesBegan(touches, with: event)
        for touch in touches {
            guard let control = pressedControl(touch) else { continue }
            recorder.began(recorded(touch, .began, event), on: control)
        }
    }

    public override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
        super.touchesMoved(touches, with: event)
        for touch in touches { recorder.update(recorded(touch, touch.phase == .stationary ? .stationary : .moved, event)) }
    }

    public override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
        super.touchesEnded(touches, with: event)
        for touch in touches { recorder.update(recorded(touch, .ended, event)) }
        resetWhenAllTouchesEnded(event)
    }

    public override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {
        super.touchesCancelled(touches, with: event)
        for touch in touches { recorder.update(recorded(touch, .cancelled, event)) }
        resetWhenAllTouchesEnded(event)
    }

    /// Fails once no finger is down, so UIKit resets it for the next touches; a recognizer that
    /// never recognized cancels nothing when it fails.
    private func resetWhenAllTouchesEnded(_ event: UIEvent) {
        let down = event.allTouches?.contains { $0.phase != .ended && $0.phase != .cancelled } ?? false
        if !down { state = .failed }
    }

    public override func canPrevent(_ preventedGestureRecognizer: UIGestureRecognizer) -> Bool { false }
    public override func canBePrevented(by preventingGestureRecognizer: UIGestureRecognizer) -> Bool { false }

    public func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer,
                                  shouldRecognizeSimultaneouslyWith other: UIGestureRecognizer) -> Bool { true }

    // MARK: Touches and controls as plain values

    private func recorded(_ touch: UITouch, _ phase: TouchPhase, _ event: UIEvent) -> RecordedTouch {
        let p = touch.location(in: nil)
        let coalesced = (event.coalescedTouches(for: touch) ?? []).map { c in
            let q = c.location(in: nil)
            return CoalescedSample(location: Point(x: Double(q.x), y: Double(q.y)), timestamp: c.timestamp)
        }
        return RecordedTouch(id: ObjectIdentifier(touch).hashValue, phase: phase, location: Point(x: Double(p.x), y: Double(p.y)),
                             timestamp: touch.timestamp, coalesced: coalesced)
    }

    /// The control under the touch: the nearest `UIControl` at or above the touched view, else a
    /// SwiftUI target at the touch's location; nil when neither (not recorded).
    private func pressedControl(_ touch: UITouch) -> PressedControl? {
        var view = touch.view
        while let v = view, !(v is UIControl) { view = v.superview }
        guard let control = view as? UIControl else {
            let p = touch.location(in: nil)
            guard var target = targets.target(at: Point(x: Double(p.x), y: Double(p.y))) else { return nil }
            target.screen = target.screen ?? screen()
            target.displayProfile = target.displayProfile ?? displayProfile
            target.userID = target.userID ?? userID
            return target
        }
        guard let names = naming(control) else { return nil }
        let f = control.convert(control.bounds, to: nil)
        return PressedControl(frame: Rect(x: Double(f.minX), y: Double(f.minY), width: Double(f.width), height: Double(f.height)),
                              configuration: names.configuration, variant: names.variant,
                              controlID: names.controlID ?? control.accessibilityIdentifier, screen: screen(),
                              container: container(of: control), displayProfile: displayProfile, userID: userID)
    }

    /// The nearest `UIScrollView` above the control, as pressdb's container parameters.
    private func container(of control: UIControl) -> ContainerKind {
        var view = control.superview
        while let v = view, !(v is UIScrollView) { view = v.superview }
        guard let scroll = view as? UIScrollView else { return .none }
        let horizontal = scroll.contentSize.width > scroll.bounds.width
        let vertical = scroll.contentSize.height > scroll.bounds.height
        let axis: ScrollAxis? = horizontal && vertical ? .both : horizontal ? .horizontal : vertical ? .vertical : nil
        return .scrollView(ScrollViewParameters(
            delaysContentTouches: scroll.delaysContentTouches,
            cancelsControlTouches: scroll.canCancelContentTouches && scroll.touchesShouldCancel(in: control),
            axis: axis))
    }
}
#endif
