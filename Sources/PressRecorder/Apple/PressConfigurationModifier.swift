// SwiftUI: a button names its press configuration, and its frame in window coordinates is kept
// in `PressTargets` for the observer to hit-test. Compiled only where SwiftUI and UIKit are.
#if canImport(SwiftUI) && canImport(UIKit)
import SwiftUI
import PressCore

@available(iOS 16.0, *)
struct PressConfigurationModifier: ViewModifier {
    let targets: PressTargets
    let id: String
    let control: PressedControl

    func body(content: Content) -> some View {
        content
            .onGeometryChange(for: CGRect.self, of: { $0.frame(in: .global) }) { frame in
                var c = control
                c.frame = Rect(x: Double(frame.minX), y: Double(frame.minY), width: Double(frame.width), height: Double(frame.height))
                targets.register(id, c)
            }
            .onDisappear { targets.unregister(id) }
    }
}

@available(iOS 16.0, *)
extension View {
    /// Names this button's press configuration (and variant) for the recorder: its frame, in
    /// the window's coordinates when the SwiftUI hierarchy fills the window, is registered in
    /// `targets` under `control` while it is on screen.
    public func pressConfiguration(_ configuration: String, variant: String? = nil, control: String,
                                   in targets: PressTargets) -> some View {
        modifier(PressConfigurationModifier(targets: targets, id: control, control: PressedControl(
            frame: Rect(x: 0, y: 0, width: 0, height: 0), configuration: configuration, variant: variant, controlID: control)))
    }
}
#endif
