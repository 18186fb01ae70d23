// Display profiles: the device a press is seen on — the frame grid animations are sampled on, how
// touches reach the app, and how long a rendered frame takes to reach the glass (docs/press-model.md
// §4 and §6). Replay samples frames on the profile's grid; the photon latencies add the rest.

/// How UIKit hands sampled touches to the app.
public enum TouchDelivery: String, Hashable, Sendable, CaseIterable {
    /// Once per display frame, extra samples coalesced into the delivered touch (UIKit's
    /// behaviour; Apple, "Getting high-fidelity input with coalesced touches").
    case perFrame = "per_frame"
    /// As soon as sampled (no frame wait): for hypothetical or non-UIKit pipelines.
    case immediate
}

/// A display profile: refresh rate (or ProMotion's range), touch sampling rate, delivery rule,
/// pipeline frames and pixel density. Built in: `iphone-60hz` (the default, today's model),
/// `iphone-promotion` and `ipad-promotion`; others come from JSON (`pressdb displays add`).
public struct DisplayProfile: Hashable, Sendable {
    /// The profile's name (`iphone-promotion`), what the session attribute `display` names.
    public var name: String
    /// Frames per second animations are sampled at: the display's highest rate (Hz).
    public var refreshRate: Double
    /// The lowest rate of a variable-rate (ProMotion) display, Hz; equal to `refreshRate` for a
    /// fixed one. Not used by replay (a running animation keeps the display at its highest rate).
    public var minimumRefreshRate: Double
    /// How often the touch screen samples a finger (Hz).
    public var touchSamplingRate: Double
    /// How sampled touches are delivered to the app.
    public var delivery: TouchDelivery
    /// Whole frames from the frame the model samples (the render server's frame) to the frame on
    /// the glass: 1 in Apple's double-buffered render loop.
    public var pipelineFrames: Int
    /// Device pixels per point.
    public var density: Double

    public init(name: String, refreshRate: Double, minimumRefreshRate: Double? = nil, touchSamplingRate: Double,
                delivery: TouchDelivery = .perFrame, pipelineFrames: Int, density: Double) {
        self.name = name; self.refreshRate = refreshRate; self.minimumRefreshRate = minimumRefreshRate ?? refreshRate
        self.touchSamplingRate = touchSamplingRate; self.delivery = delivery
        self.pipelineFrames = pipelineFrames; self.density = density
    }

    /// The display replay samples frames on: this profile's grid, density and touch path.
    public var display: Display {
        Display(refreshRate: refreshRate, density: density, touchSamplingRate: touchSamplingRate,
                delivery: delivery, pipelineFrames: pipelineFrames)
    }

    /// Today's model: a 60 Hz iPhone (iPhone X and later without ProMotion), touches sampled at
    /// 120 Hz and delivered once per frame, one frame from render to glass, 3 px/pt. The
    /// default of sessions naming no display (docs/press-model.md §6).
    public static let iphone60Hz = DisplayProfile(
        name: "iphone-60hz", refreshRate: 60, touchSamplingRate: 120, delivery: .perFrame,
        pipelineFrames: 1, density: 3)
    /// A ProMotion iPhone (13 Pro and later): animations on a 120 Hz grid (10–120 Hz display),
    /// touches sampled at 120 Hz and delivered once per 120 Hz frame, 3 px/pt.
    public static let iphonePromotion = DisplayProfile(
        name: "iphone-promotion", refreshRate: 120, minimumRefreshRate: 10, touchSamplingRate: 120,
        delivery: .perFrame, pipelineFrames: 1, density: 3)
    /// A ProMotion iPad Pro: 24–120 Hz, touches sampled at 120 Hz (a finger; Apple Pencil at
    /// 240 Hz), delivered once per frame, 2 px/pt.
    public static let ipadPromotion = DisplayProfile(
        name: "ipad-promotion", refreshRate: 120, minimumRefreshRate: 24, touchSamplingRate: 120,
        delivery: .perFrame, pipelineFrames: 1, density: 2)

    /// The built-in profiles, the default first.
    public static let builtIn: [DisplayProfile] = [.iphone60Hz, .iphonePromotion, .ipadPromotion]
    /// The profile of sessions that name none: `iphone-60hz`.
    public static let `default` = DisplayProfile.iphone60Hz

    /// The built-in profile named `name`, or nil.
    public static func builtIn(named name: String) -> DisplayProfile? { builtIn.first { $0.name == name } }

    /// The profile as a JSON object (docs/press-model.md §6): every field written out.
    public var definition: CanonicalJSON {
        .object([
            "name": .string(name),
            "refresh_rate": minimumRefreshRate == refreshRate
                ? .number(refreshRate) : .array([.number(minimumRefreshRate), .number(refreshRate)]),
            "touch_sampling_rate": .number(touchSamplingRate),
            "delivery": .string(delivery.rawValue),
            "pipeline_frames": .number(Double(pipelineFrames)),
            "density": .number(density),
        ])
    }

    /// Checks every field, throwing for the first one out of range: rates 1…1000 Hz (the range
    /// `--refresh-rate` accepts), the minimum not above the maximum, 0…10 pipeline frames,
    /// density 0.5…10 px/pt.
    public func validate() throws(AnimationParameterError) {
        try AnimationParameterError.check("refresh_rate", refreshRate, (1...1000).contains(refreshRate), "from 1 to 1000 Hz")
        try AnimationParameterError.check("minimum refresh_rate", minimumRefreshRate,
                                          (1...refreshRate).contains(minimumRefreshRate), "from 1 Hz to the refresh rate")
        try AnimationParameterError.check("touch_sampling_rate", touchSamplingRate,
                                          (1...1000).contains(touchSamplingRate), "from 1 to 1000 Hz")
        try AnimationParameterError.check("pipeline_frames", Double(pipelineFrames), (0...10).contains(pipelineFrames), "from 0 to 10")
        try AnimationParameterError.check("density", density, (0.5...10).contains(density), "from 0.5 to 10 px per pt")
    }
}

/// Touch-to-photon latency: what a press's figures amount to on the glass of a display
/// (docs/press-model.md §6). Every component is an expectation over where the touch falls
/// between samples and frames (uniformly), so it is one number per display.
public enum PhotonLatency {
    /// Seconds from the finger's contact to the app receiving the touch: half a sampling period
    /// (the mean wait for the next scan) plus, for per-frame delivery, half a frame (the mean
    /// wait for the next frame's event phase).
    @inlinable public static func inputDelay(_ d: Display) -> Double {
        0.5 / d.touchSamplingRate + (d.delivery == .perFrame ? 0.5 / d.refreshRate : 0)
    }

    /// Seconds from a frame the model samples to its photons: `pipelineFrames` frames.
    @inlinable public static func pipelineDelay(_ d: Display) -> Double {
        Double(d.pipelineFrames) / d.refreshRate
    }

    /// Feedback on the glass, seconds from contact: the input delay, the model's feedback latency
    /// (whole frames on the grid, already counted from the touch-down) and the pipeline.
    @inlinable public static func feedback(_ modelLatency: Double, on d: Display) -> Double {
        inputDelay(d) + modelLatency + pipelineDelay(d)
    }

    /// The action's effect on the glass, seconds from the contact that triggered it: the input
    /// delay, then the first frame k ≥ 1 of the grid at or after the action (`actionLatency`
    /// seconds after the triggering event; a frame at the same instant shows it, as in §4), then
    /// the pipeline.
    public static func action(_ actionLatency: Double, on d: Display) -> Double {
        // Beyond a day the grid's whole frames are meaningless (and would not fit an Int).
        guard actionLatency.isFinite, actionLatency < 86_400 else { return actionLatency + inputDelay(d) + pipelineDelay(d) }
        let tol = ScaleTimeline.simultaneityTolerance, rate = d.refreshRate, due = actionLatency - tol
        // A guess from the product, then the division's own verdict at most one frame either way.
        let x = due * rate
        var k = x <= 1 ? 1 : Int(x.rounded(.up))
        if Double(k) / rate < due { k += 1 } else if k > 1 && Double(k - 1) / rate >= due { k -= 1 }
        return inputDelay(d) + Double(k) / d.refreshRate + pipelineDelay(d)
    }
}
