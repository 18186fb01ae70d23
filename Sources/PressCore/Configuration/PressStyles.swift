// The press styles apps ship today as built-in configurations: UIKit's system button and
// UIButton.Configuration highlights, SwiftUI's automatic button style and a scaling ButtonStyle,
// and a table or collection cell's highlight. Every value and its source: docs/press-model.md,
// "The press styles apps ship today".

extension PressConfiguration {
    /// The highlight's events of a UIKit button or a SwiftUI button: pressed while the finger is
    /// down inside the retention area (`isHighlighted`, `isPressed`), released otherwise.
    static let highlightPressEvents: Set<ControlEvent> = [.touchDown, .touchDragEnter]
    static let highlightReleaseEvents: Set<ControlEvent> = [.touchDragExit, .touchCancel, .touchUpInside, .touchUpOutside]

    /// An immediate change: a UIView animation of duration 0 sets the value at once.
    static let immediate = AnimationSpec.uiViewCurve(duration: 0, curve: .easeInEaseOut)

    /// The content alpha of a highlighted system button: 0.2 (observed, not documented).
    public static let systemHighlightAlpha = 0.2
    /// The fade of a system button's content back to full alpha after release: 0.2 s
    /// ease-in-ease-out (observed, not documented).
    public static let systemHighlightFade = AnimationSpec.uiViewCurve(duration: 0.2, curve: .easeInEaseOut)
    /// `UIButton.Configuration.filled()`'s highlighted background: systemBlue darkened to
    /// (0, 98, 204), 80 % of each component (observed, not documented).
    public static let filledHighlightedBackground = RGB8(red: 0, green: 98, blue: 204)
    /// SwiftUI's automatic (borderless) style: the label's opacity while pressed, 0.2 (observed,
    /// not documented), back with a 0.2 s fade.
    public static let swiftUIPressedOpacity = 0.2
    /// SwiftUI's `.spring(response:dampingFraction:)` defaults (Apple documentation): response
    /// 0.5 s, dampingFraction 0.825.
    public static let swiftUIDefaultSpring = AnimationSpec.swiftUISpring(response: 0.5, dampingFraction: 0.825)
    /// The deselection fade of a table cell (`deselectRow(at:animated: true)` in
    /// `didSelectRowAt`): 0.25 s ease-in-ease-out (observed, not documented).
    public static let cellDeselectFade = AnimationSpec.uiViewCurve(duration: 0.25, curve: .easeInEaseOut)

    /// `uibutton-system`: a `UIButton(type: .system)`. Its content dims to alpha 0.2 at once when
    /// highlighted and fades back on release; `isHighlighted` is rendered once per event, so a
    /// quick tap a scroll view delivers at lift shows nothing. Content systemBlue over white.
    public static let uiButtonSystem = PressConfiguration(
        name: "uibutton-system",
        gesture: .control(ControlGesture(retentionMargin: ControlGesture.iPhoneRetentionMargin,
                                         pressEvents: highlightPressEvents, releaseEvents: highlightReleaseEvents,
                                         coalescesSimultaneousUpdates: true)),
        animation: PressAnimation(press: immediate, release: systemHighlightFade, pressedScale: systemHighlightAlpha,
                                  feedback: .opacity(content: .systemBlue, background: .white)),
        actionRule: .upInside, actionDelay: 0)

    /// `uibutton-configuration`: a `UIButton(configuration: .filled())`. The configuration update
    /// on `isHighlighted` swaps the background colour (systemBlue → its highlighted shade) without
    /// an animation, both ways; rendered once per event like the system button's.
    public static let uiButtonConfiguration = PressConfiguration(
        name: "uibutton-configuration",
        gesture: .control(ControlGesture(retentionMargin: ControlGesture.iPhoneRetentionMargin,
                                         pressEvents: highlightPressEvents, releaseEvents: highlightReleaseEvents,
                                         coalescesSimultaneousUpdates: true)),
        animation: PressAnimation(press: immediate, release: immediate, pressedScale: 0,
                                  feedback: .color(from: .systemBlue, to: filledHighlightedBackground)),
        actionRule: .upInside, actionDelay: 0)

    /// `swiftui-button`: a SwiftUI `Button` with the automatic style. The label's opacity drops
    /// to 0.2 while `isPressed` and fades back; inside a `ScrollView` or `List` the scroll view
    /// holds the touch back like UIKit's, and a press and release in one update are never drawn.
    public static let swiftUIButton = PressConfiguration(
        name: "swiftui-button",
        gesture: .control(ControlGesture(retentionMargin: ControlGesture.iPhoneRetentionMargin,
                                         pressEvents: highlightPressEvents, releaseEvents: highlightReleaseEvents,
                                         coalescesSimultaneousUpdates: true)),
        animation: PressAnimation(press: immediate, release: systemHighlightFade, pressedScale: swiftUIPressedOpacity,
                                  feedback: .opacity(content: .systemBlue, background: .white)),
        actionRule: .upInside, actionDelay: 0)

    /// `swiftui-scale-style`: a `ButtonStyle` with `scaleEffect(configuration.isPressed ? 0.95 : 1)`
    /// and `.animation(.spring(response: 0.5, dampingFraction: 0.825), value: isPressed)`:
    /// stiffness (2π / 0.5)² ≈ 157.91, damping 4π · 0.825 / 0.5 ≈ 20.73, mass 1.
    public static let swiftUIScaleStyle = PressConfiguration(
        name: "swiftui-scale-style",
        gesture: .control(ControlGesture(retentionMargin: ControlGesture.iPhoneRetentionMargin,
                                         pressEvents: highlightPressEvents, releaseEvents: highlightReleaseEvents,
                                         coalescesSimultaneousUpdates: true)),
        animation: PressAnimation(press: swiftUIDefaultSpring, release: swiftUIDefaultSpring, pressedScale: 0.95),
        actionRule: .upInside, actionDelay: 0)

    /// `cell-highlight`: a `UITableViewCell` / `UICollectionViewCell` highlight. The table holds
    /// the touch back (`delaysContentTouches`, 150 ms), then the cell's background turns
    /// systemGray4 at once; a quick tap is highlighted and selected at lift, and the selection
    /// fades on `deselectRow(at:animated: true)`; a scroll cancels it. The cell is its own
    /// frame: no retention margin.
    public static let cellHighlight = PressConfiguration(
        name: "cell-highlight",
        gesture: .control(ControlGesture(retentionMargin: 0, pressEvents: highlightPressEvents,
                                         releaseEvents: highlightReleaseEvents)),
        animation: PressAnimation(press: immediate, release: cellDeselectFade, pressedScale: 0,
                                  feedback: .color(from: .white, to: .systemGray4)),
        actionRule: .upInside, actionDelay: 0)
}
