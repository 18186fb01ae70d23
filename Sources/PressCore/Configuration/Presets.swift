// The three built-in configurations: the press patterns of seeds/*.txt, exactly as the table in
// reference §1 gives them.

extension PressConfiguration {
    /// `spring-press` (seeds/spring-press-uibutton.txt): UIControl target-action, press on
    /// `touchDown` and `touchDragEnter`, release on `touchDragExit`, `touchCancel`,
    /// `touchUpInside`, `touchUpOutside`; both animations
    /// `UIView.animate(withDuration: 0.4, usingSpringWithDamping: 0.5, initialSpringVelocity: 3)`,
    /// pressed scale 0.95; action on `touchUpInside`, no delay.
    public static let springPress: PressConfiguration = {
        let spring = AnimationSpec.uiViewSpring(duration: 0.4, dampingRatio: 0.5, initialSpringVelocity: 3)
        return PressConfiguration(
            name: "spring-press",
            gesture: .control(ControlGesture(
                retentionMargin: ControlGesture.iPhoneRetentionMargin,
                pressEvents: [.touchDown, .touchDragEnter],
                releaseEvents: [.touchDragExit, .touchCancel, .touchUpInside, .touchUpOutside])),
            animation: PressAnimation(press: spring, release: spring, pressedScale: 0.95),
            actionRule: .upInside, actionDelay: 0)
    }()

    /// `expand-delayed-click` (seeds/expand-press-delayed-click.txt): press on `touchDown`
    /// only with a `CASpringAnimation` key "expand" from 1 to 1.3 (mass 1, stiffness 100,
    /// damping 1.0, initialVelocity 0.8, duration 0.2, fill forwards, not removed); release on
    /// `touchUpInside`, `touchUpOutside`, `touchCancel` with a `CABasicAnimation` key "shrink"
    /// from 1.3 to 1 (duration 0.2, linear, fill forwards, not removed); the action runs on any
    /// release, 0.3 s after it.
    public static let expandDelayedClick = PressConfiguration(
        name: "expand-delayed-click",
        gesture: .control(ControlGesture(
            retentionMargin: ControlGesture.iPhoneRetentionMargin,
            pressEvents: [.touchDown],
            releaseEvents: [.touchUpInside, .touchUpOutside, .touchCancel])),
        animation: PressAnimation(
            press: .caSpring(mass: 1, stiffness: 100, damping: 1.0, initialVelocity: 0.8, duration: 0.2,
                             options: LayerAnimationOptions(key: "expand", fromValue: 1, fillMode: .forwards,
                                                            isRemovedOnCompletion: false)),
            release: .caBasic(duration: 0.2, curve: .linear,
                              options: LayerAnimationOptions(key: "shrink", fromValue: 1.3, fillMode: .forwards,
                                                             isRemovedOnCompletion: false)),
            pressedScale: 1.3),
        actionRule: .anyRelease, actionDelay: 0.3)

    /// `longpress-safe-area` (seeds/longpress-safe-area.txt): `UILongPressGestureRecognizer`
    /// with `minimumPressDuration` 0 and `allowableMovement` 10 (UIKit's default), a 5 pt safe
    /// area; press `UIView.animate(withDuration: 0.2)` (ease-in-ease-out) to 0.95, release
    /// `UIView.animate(withDuration: 0.3)` (ease-in-ease-out); action on `.ended` unless
    /// cancelled, no delay.
    public static let longPressSafeArea = PressConfiguration(
        name: "longpress-safe-area",
        gesture: .longPress(LongPressGesture(minimumPressDuration: 0,
                                             allowableMovement: LongPressGesture.defaultAllowableMovement,
                                             safeArea: LongPressGesture.articleSafeArea)),
        animation: PressAnimation(press: .uiViewCurve(duration: 0.2, curve: .easeInEaseOut),
                                  release: .uiViewCurve(duration: 0.3, curve: .easeInEaseOut),
                                  pressedScale: 0.95),
        actionRule: .upInside, actionDelay: 0)

    /// The built-in configurations: the reference's three, then the five styles apps ship today
    /// (PressStyles.swift). The replay digest replays the first three only.
    public static let presets: [PressConfiguration] = [
        .springPress, .expandDelayedClick, .longPressSafeArea,
        .uiButtonSystem, .uiButtonConfiguration, .swiftUIButton, .swiftUIScaleStyle, .cellHighlight,
    ]

    /// The built-in configuration with this name, or nil.
    public static func preset(named name: String) -> PressConfiguration? {
        presets.first { $0.name == name }
    }
}
