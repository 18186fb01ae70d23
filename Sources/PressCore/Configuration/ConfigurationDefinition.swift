// A configuration's definition as canonical JSON, and its content version.
// The schema is documented in docs/configurations.md; PressFormats' ConfigurationJSON reads it.

extension PressConfiguration {
    /// The full definition as a JSON object (schema: docs/configurations.md): every field
    /// written out, never `base`; control events in `UIControl.Event` order.
    public var definition: CanonicalJSON {
        var o: [String: CanonicalJSON] = [
            "type": .string("config"),
            "name": .string(name),
            "gesture": .string(gesture.name),
            "pressed_scale": .number(animation.pressedScale),
            "press_animation": animation.press.definition,
            "release_animation": animation.release.definition,
            "action": .string(actionRule.rawValue),
            "action_delay": .number(actionDelay),
        ]
        switch gesture {
        case .control(let c):
            o["retention_margin"] = .number(c.retentionMargin)
            o["press_events"] = .array(c.pressEvents.sorted().map { .string($0.rawValue) })
            o["release_events"] = .array(c.releaseEvents.sorted().map { .string($0.rawValue) })
            // Written only when set, so the definitions (and versions) made before it stay the same.
            if c.coalescesSimultaneousUpdates { o["coalesces_simultaneous_updates"] = .bool(true) }
        case .longPress(let l):
            o["minimum_press_duration"] = .number(l.minimumPressDuration)
            o["allowable_movement"] = .number(l.allowableMovement)
            o["safe_area"] = l.safeArea.map { .number($0) } ?? .null
        }
        // `scale` is the default and not written, for the same reason.
        if animation.feedback != .scale { o["feedback"] = animation.feedback.definition }
        return .object(o)
    }

    /// The definition's canonical JSON text (sorted keys, shortest round-trip numbers): what the
    /// `configs` table stores as `definition`.
    public var definitionJSON: String { definition.text }
}

extension AnimationSpec {
    /// The animation as a JSON object with a `kind` (schema: docs/configurations.md).
    public var definition: CanonicalJSON {
        switch self {
        case let .uiViewSpring(duration, dampingRatio, velocity):
            return .object(["kind": .string("uiview-spring"), "duration": .number(duration),
                            "damping_ratio": .number(dampingRatio), "velocity": .number(velocity)])
        case let .uiViewCurve(duration, curve):
            return .object(["kind": .string("uiview-curve"), "duration": .number(duration),
                            "curve": curve.definition])
        case let .caSpring(mass, stiffness, damping, initialVelocity, duration, options):
            var o = options.definitionMembers
            o["kind"] = .string("ca-spring")
            o["mass"] = .number(mass)
            o["stiffness"] = .number(stiffness)
            o["damping"] = .number(damping)
            o["initial_velocity"] = .number(initialVelocity)
            o["duration"] = .number(duration)
            return .object(o)
        case let .caBasic(duration, curve, options):
            var o = options.definitionMembers
            o["kind"] = .string("ca-basic")
            o["duration"] = .number(duration)
            o["curve"] = curve.definition
            return .object(o)
        case let .swiftUISpring(response, dampingFraction):
            return .object(["kind": .string("swiftui-spring"), "response": .number(response),
                            "damping_fraction": .number(dampingFraction)])
        }
    }
}

extension TimingCurve {
    /// The name configuration JSON uses for a named curve (`ease-in-ease-out`), nil for
    /// `cubicBezier`.
    public var jsonName: String? {
        switch self {
        case .linear: return "linear"
        case .easeIn: return "ease-in"
        case .easeOut: return "ease-out"
        case .easeInEaseOut: return "ease-in-ease-out"
        case .default: return "default"
        case .cubicBezier: return nil
        }
    }

    /// The named curves, by their JSON names.
    public static let jsonNamed: [(name: String, curve: TimingCurve)] = [
        ("linear", .linear), ("ease-in", .easeIn), ("ease-out", .easeOut),
        ("ease-in-ease-out", .easeInEaseOut), ("default", .default),
    ]

    /// A named curve as its name, a cubic Bézier as `[x1, y1, x2, y2]`.
    public var definition: CanonicalJSON {
        if case let .cubicBezier(x1, y1, x2, y2) = self {
            return .array([.number(x1), .number(y1), .number(x2), .number(y2)])
        }
        return .string(jsonName ?? "linear")
    }
}

extension LayerAnimationOptions {
    var definitionMembers: [String: CanonicalJSON] {
        ["key": .string(key), "from_value": fromValue.map { .number($0) } ?? .null,
         "fill_mode": .string(fillMode.rawValue), "removed_on_completion": .bool(isRemovedOnCompletion)]
    }
}

extension PressFeedback {
    /// The feedback as a JSON object with a `kind` (schema: docs/configurations.md): `scale`,
    /// `opacity` with `content` and `background`, `color` with `from` and `to`, colours `#rrggbb`.
    public var definition: CanonicalJSON {
        switch self {
        case .scale: return .object(["kind": .string("scale")])
        case let .opacity(content, background):
            return .object(["kind": .string("opacity"), "content": .string(content.hex),
                            "background": .string(background.hex)])
        case let .color(from, to):
            return .object(["kind": .string("color"), "from": .string(from.hex), "to": .string(to.hex)])
        }
    }
}
