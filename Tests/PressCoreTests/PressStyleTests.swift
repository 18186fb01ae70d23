import Testing
@testable import PressCore

// The five press styles apps ship today (docs/press-model.md, "The press styles apps ship
// today"), as hand-worked timelines from the documented rules: the gesture rules give the
// press/release instants, the style's animations the value on screen, and the feedback's
// visibility rule the first visible 60 Hz frame (touch-down + k/60 s; a frame at an event's
// instant shows the state after it). Default frame: 44 × 44 pt around the touch-down point.

private func replay(_ steps: [Step], _ configuration: PressConfiguration,
                    container: Container = .none) throws -> SessionResult {
    try Replay.session(session(steps), frame: nil, container: container, scrollAxis: .vertical,
                       configuration: configuration)
}

private func ms(_ r: SessionResult) -> Double? { r.feedbackLatencyMs }

/// Milliseconds of frame k at 60 Hz, as stored (6 decimals).
private func frameMs(_ k: Int) -> Double { Replay.stored(Double(k) / 60 * 1000, decimals: 6) }

@Suite struct PressStyleTests {
    // MARK: The composited colour and the visibility rule, by hand

    // systemBlue (0, 122, 255) at alpha a over white: a·C + (1 − a)·255 per channel, rounded.
    // a = 0.2: red 0.8·255 = 204, green 0.2·122 + 204 = 228.4 → 228, blue 255.
    @Test func opacityCompositeByHand() {
        let f = PressFeedback.opacity(content: .systemBlue, background: .white)
        #expect(f.composited(at: 1) == .systemBlue)
        #expect(f.composited(at: 0.2) == RGB8(red: 204, green: 228, blue: 255))
        #expect(f.composited(at: 0) == .white)
        // The largest channel difference is red's, 255 − 0 = 255 code values.
        #expect(f.codeRange == 255)
    }

    // At alpha 0.998 red is 0.002·255 = 0.51 → code 1 (changed); at 0.999 it is 0.255 → 0, and
    // green 0.999·122 + 0.001·255 = 122.133 → 122, blue 255: no channel changed.
    @Test func firstChangedCodeValueByHand() {
        let f = PressFeedback.opacity(content: .systemBlue, background: .white)
        #expect(f.composited(at: 0.998) == RGB8(red: 1, green: 122, blue: 255))
        #expect(f.composited(at: 0.999) == .systemBlue)
        let v = FeedbackVisibility(f, halfSize: 22, density: 3)
        #expect(v.isVisible(1 - 0.998))
        #expect(!v.isVisible(1 - 0.999))
    }

    // White → systemGray4 (209, 209, 214): channel differences 46, 46, 41; at weight 0.99 the
    // red channel is 0.99·255 + 0.01·209 = 254.54 → 255 (unchanged), at 0.989 it is
    // 254.494 → 254 (changed) while blue, 41 codes apart, is 0.989·255 + 0.011·214 = 254.549 → 255:
    // the threshold is 0.5 / 46 ≈ 0.01087 of the way.
    @Test func colourCompositeByHand() {
        let f = PressFeedback.color(from: .white, to: .systemGray4)
        #expect(f.codeRange == 46)
        #expect(f.composited(at: 0.99) == .white)
        #expect(f.composited(at: 0.989) == RGB8(red: 254, green: 254, blue: 255))
        #expect(f.composited(at: 0) == .systemGray4)
        let v = FeedbackVisibility(f, halfSize: 22, density: 3)
        #expect(!v.isVisible(0.01))
        #expect(v.isVisible(0.011))
    }

    // MARK: uibutton-system

    // No scroll view: touchDown at 0 sets alpha 0.2 at once, visible on frame 1; lift at 0.1 fades
    // back. A tap, action at once; depth 1 (the frames at alpha 0.2); an opacity moves no edge.
    @Test func systemButtonStillTap() throws {
        let r = try replay([Step(0.1, 0, 0, .ended)], .uiButtonSystem)
        #expect(r.outcome == .tap && r.actionFired && r.actionLatencyMs == 0)
        #expect(ms(r) == frameMs(1))
        #expect(r.pressDepth == 1)
        #expect(r.releaseJumpPt == 0)
    }

    // A scroll view holds the touch back 150 ms; a lift at 0.1 s delivers touchDown and
    // touchUpInside together: isHighlighted set and cleared in one event is never drawn.
    @Test func systemButtonQuickTapInScrollView() throws {
        let r = try replay([Step(0.1, 0, 0, .ended)], .uiButtonSystem, container: .scroll)
        #expect(r.outcome == .tap && r.actionFired)
        #expect(ms(r) == nil)
        #expect(r.pressDepth == 0)
    }

    // Held past the delay: touchDown at 0.150 s, shown on frame 9 (9/60 = 0.150 s).
    @Test func systemButtonHeldInTable() throws {
        let r = try replay([Step(0.2, 0, 0, .stationary), Step(0.3, 0, 0, .ended)], .uiButtonSystem, container: .table)
        #expect(r.outcome == .tap)
        #expect(ms(r) == frameMs(9))
    }

    // MARK: uibutton-configuration

    // The filled background swaps to its highlighted shade at touchDown: frame 1.
    @Test func configurationButtonStillTap() throws {
        let r = try replay([Step(0.2, 0, 0, .ended)], .uiButtonConfiguration)
        #expect(r.outcome == .tap && ms(r) == frameMs(1))
        #expect(r.pressDepth == 1)
    }

    // Quick tap in a table: coalesced, unseen; a scroll in a table after delivery cancels it.
    @Test func configurationButtonInTable() throws {
        let quick = try replay([Step(0.08, 0, 0, .ended)], .uiButtonConfiguration, container: .table)
        #expect(quick.outcome == .tap && ms(quick) == nil)
        // touchDown at 0.15 (frame 9), a 12 pt move along the axis at 0.2 cancels: scroll-abort.
        let scrolled = try replay([Step(0.2, 0, 12, .moved), Step(0.3, 0, 40, .ended)], .uiButtonConfiguration,
                                  container: .table)
        #expect(scrolled.outcome == .scrollAbort && !scrolled.actionFired)
        #expect(ms(scrolled) == frameMs(9))
    }

    // MARK: swiftui-button

    @Test func swiftUIButtonStillTapAndScrollView() throws {
        let still = try replay([Step(0.1, 0, 0, .ended)], .swiftUIButton)
        #expect(still.outcome == .tap && ms(still) == frameMs(1))
        let quick = try replay([Step(0.1, 0, 0, .ended)], .swiftUIButton, container: .scroll)
        #expect(quick.outcome == .tap && quick.actionFired && ms(quick) == nil)
        let held = try replay([Step(0.25, 0, 0, .ended)], .swiftUIButton, container: .scroll)
        #expect(ms(held) == frameMs(9))
    }

    // MARK: swiftui-scale-style

    // `.spring(response: 0.5, dampingFraction: 0.825)`: k = (2π/0.5)² = 157.9137, c = 4π·0.825/0.5
    // = 20.7345 (Apple's relation, docs/press-model.md). Scale 1 − 0.05·p(t) with
    // p(t) = 1 − e^(−ζω₀t)(cos ω_d t + ζω₀/ω_d sin ω_d t), ω₀ = 4π, ω_d = ω₀√(1 − ζ²). The edge of
    // a 44 pt control moves 0.05·p·22·3 device pixels; by hand (Python's math module):
    // frame 4 (t = 1/15) p = 0.22063 → 0.728 px, frame 5 (t = 1/12) p = 0.30692 → 1.013 px.
    @Test func swiftUIScaleStyleSpring() throws {
        let s = try Spring(response: 0.5, dampingRatio: 0.825)
        #expect(abs(s.stiffness - 157.91367041742973) < 1e-9)
        #expect(abs(s.damping - 20.734511513692635) < 1e-9)
        let r = try replay([Step(0.3, 0, 0, .ended)], .swiftUIScaleStyle)
        #expect(r.outcome == .tap && ms(r) == frameMs(5))
    }

    // Drag out and back (none): out at 0.2 s beyond the 70 pt margin (22 + 70 = 92 pt < 110 pt)
    // releases, back at 0.4 s presses again, lift inside at 0.6 s: a tap, first seen on frame 5.
    @Test func swiftUIScaleStyleDragOutAndBack() throws {
        let steps = [Step(0.2, 110, 0, .moved), Step(0.4, 0, 0, .moved), Step(0.6, 0, 0, .ended)]
        let c = classify(session(steps), .swiftUIScaleStyle)
        #expect(sameTimes(c.scaleEvents, scale([(0, .press), (0.2, .release), (0.4, .press), (0.6, .release)])))
        let r = try replay(steps, .swiftUIScaleStyle)
        #expect(r.outcome == .tap && ms(r) == frameMs(5))
        // A press and release at one instant draw nothing: quick tap in a scroll view.
        let quick = try replay([Step(0.1, 0, 0, .ended)], .swiftUIScaleStyle, container: .scroll)
        #expect(ms(quick) == nil && quick.pressDepth == 0)
    }

    // MARK: cell-highlight

    // A quick tap in a table: touchDown and touchUpInside at the lift (0.1 s); the cell turns
    // systemGray4 at once and the deselection fades over 0.25 s, so frame 6 (0.1 s) shows it.
    @Test func cellQuickTapInTable() throws {
        let c = classify(session([Step(0.1, 0, 0, .ended)]), container: .table, .cellHighlight)
        #expect(sameTimes(c.scaleEvents, scale([(0.1, .press), (0.1, .release)])))
        let r = try replay([Step(0.1, 0, 0, .ended)], .cellHighlight, container: .table)
        #expect(r.outcome == .tap && ms(r) == frameMs(6))
        #expect(r.pressDepth == 1)
    }

    // Held: highlighted at 0.150 s (frame 9). Scrolled: a 12 pt move at 0.05 s starts the pan
    // before delivery, the cell never highlights (scroll-abort, unseen).
    @Test func cellHeldAndScrolled() throws {
        let held = try replay([Step(0.3, 0, 0, .ended)], .cellHighlight, container: .table)
        #expect(ms(held) == frameMs(9))
        let scrolled = try replay([Step(0.05, 0, 12, .moved), Step(0.2, 0, 60, .ended)], .cellHighlight,
                                  container: .table)
        #expect(scrolled.outcome == .scrollAbort && ms(scrolled) == nil && !scrolled.actionFired)
    }

    // The cell has no retention margin: a lift 23 pt right of the centre is outside its 44 pt
    // frame (half width 22), a cancel by drag exit; the spring-press control keeps it (70 pt).
    @Test func cellHasNoRetentionMargin() throws {
        let r = try replay([Step(0.2, 23, 0, .ended)], .cellHighlight)
        #expect(r.outcome == .cancel && r.cancelReason == .dragExit)
        let control = try replay([Step(0.2, 23, 0, .ended)], .springPress)
        #expect(control.outcome == .tap)
    }

    // MARK: The presets as a set

    @Test func presetNamesAndDefinitionsRoundTrip() {
        #expect(PressConfiguration.presets.map(\.name) == [
            "spring-press", "expand-delayed-click", "longpress-safe-area", "uibutton-system",
            "uibutton-configuration", "swiftui-button", "swiftui-scale-style", "cell-highlight"])
        // The new fields are written only when they differ from the default: the three original
        // definitions carry neither.
        for p in PressConfiguration.presets.prefix(3) {
            #expect(!p.definitionJSON.contains("feedback") && !p.definitionJSON.contains("coalesces"))
        }
        #expect(PressConfiguration.uiButtonSystem.definitionJSON.contains(
            ##""feedback":{"background":"#ffffff","content":"#007aff","kind":"opacity"}"##))
    }
}
