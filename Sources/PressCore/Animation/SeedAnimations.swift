// The animations of the three press patterns in ../seeds (reference §1), as `PressAnimation`s.
// Only the animations: the presets' gesture rules and actions are configurations, elsewhere.

/// The press and release animations of the three built-in patterns (reference §1).
public enum SeedAnimations {
    /// `spring-press`: `UIView.animate(withDuration: 0.4, usingSpringWithDamping: 0.5,
    /// initialSpringVelocity: 3)` to 0.95 on press and the same spring back to 1.0 on release.
    /// (The article's `.curveEaseInOut` option is ignored by UIKit for spring animations.)
    public static let springPress = PressAnimation(
        press: .uiViewSpring(duration: 0.4, dampingRatio: 0.5, initialSpringVelocity: 3),
        release: .uiViewSpring(duration: 0.4, dampingRatio: 0.5, initialSpringVelocity: 3),
        pressedScale: 0.95)

    /// `expand-delayed-click`: a `CASpringAnimation` on `transform.scale` from 1 to 1.3 (mass 1,
    /// stiffness 100, damping 1, initialVelocity 0.8, duration 0.2, key "expand"), then a
    /// linear `CABasicAnimation` from 1.3 to 1 (duration 0.2, key "shrink"); both fill forwards
    /// and are not removed on completion.
    public static let expandDelayedClick = PressAnimation(
        press: .caSpring(mass: 1, stiffness: 100, damping: 1, initialVelocity: 0.8, duration: 0.2,
                         options: LayerAnimationOptions(key: "expand", fromValue: 1, fillMode: .forwards,
                                                        isRemovedOnCompletion: false)),
        release: .caBasic(duration: 0.2, curve: .linear,
                          options: LayerAnimationOptions(key: "shrink", fromValue: 1.3, fillMode: .forwards,
                                                         isRemovedOnCompletion: false)),
        pressedScale: 1.3)

    /// `longpress-safe-area`: `UIView.animate(withDuration: 0.2)` to 0.95 and
    /// `UIView.animate(withDuration: 0.3)` back to 1.0, both with UIKit's default curve,
    /// ease-in-ease-out.
    public static let longpressSafeArea = PressAnimation(
        press: .uiViewCurve(duration: 0.2, curve: .easeInEaseOut),
        release: .uiViewCurve(duration: 0.3, curve: .easeInEaseOut),
        pressedScale: 0.95)
}
