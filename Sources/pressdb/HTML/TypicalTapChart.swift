// The press-and-release scale curve of a typical tap, per configuration and container: the
// gesture core gives the press/release instants, the animation core the scale on each display
// frame, the visual metrics the frame at which the press first shows (press-model §2–§4).
import PressCharts
import PressCore
import PressFormats

/// One container's curve for a typical tap: the replay of the tap in that container.
struct TypicalTapCurve {
    /// The container's label: its name (`none`, `scroll`, …) or its parameters.
    var container: String
    /// The replay (`Replay.trace`): what the stored result of such a session would be read from.
    var trace: ReplayTrace
    /// When the displayed scale stops changing, or the lift if later (seconds since touch-down).
    var settledTime: Double

    var classification: PressClassification { trace.classification }
    /// Seconds since touch-down to the first frame showing the press; nil: never seen.
    var feedbackLatency: Double? { trace.visual.feedbackLatency }

    /// The displayed scale on every frame from touch-down (k / refreshRate, k = 0, 1, …) to `end`.
    func frames(until end: Double) -> [ScaleSample] { trace.frames(until: end) }
}

/// A stationary tap of a given duration, replayed in several containers under one configuration.
///
///     let tap = try TypicalTap(configuration: .springPress, duration: 0.09,
///                              containers: [("none", .none), ("scroll", .scroll)])
///     tap.curves[1].feedbackLatency   // nil: press and release start together at lift
///     let chart = tap.chart(until: tap.settledTime)
struct TypicalTap {
    /// The control: Apple's minimum hit target, 44 × 44 pt (Human Interface Guidelines), the
    /// frame replay assumes when a session gives none (press-model §2, "The frame").
    static let controlSize = 44.0
    /// The containers always shown, even when the data has none of them: no scroll view and a
    /// plain scroll view, so the 150 ms `delaysContentTouches` hold is visible.
    static let alwaysShown: [Container] = [.none, .scroll]
    /// The latest end of the time axis: 2 s (a guard against a configuration whose animations
    /// run for minutes; a press's story is told well before).
    static let longestAxis = 2.0

    var configuration: PressConfiguration
    /// Touch-down to lift, seconds.
    var duration: Double
    var display: Display
    var curves: [TypicalTapCurve]

    /// Replays a stationary tap at the origin (touch-down at 0 s, lift at `duration`) on a
    /// `controlSize` square control in each of `containers`, sampling the scale on every frame
    /// of `display` from touch-down until every animation has ended (capped at `longestAxis`).
    /// - Throws: `AnimationParameterError` when the configuration's animations are invalid.
    init(configuration: PressConfiguration, duration: Double, containers: [(label: String, container: Container)],
         display: Display = Display()) throws(AnimationParameterError) {
        self.configuration = configuration
        self.duration = duration
        self.display = display
        let samples = [TouchSample(t: 0, x: 0, y: 0, phase: .began), TouchSample(t: duration, x: 0, y: 0, phase: .ended)]
        var curves: [TypicalTapCurve] = []
        for (label, container) in containers {
            let trace = try Replay.trace(samples, frame: nil, container: container, scrollAxis: Replay.defaultScrollAxis,
                                         configuration: configuration, display: display)
            curves.append(TypicalTapCurve(container: label, trace: trace,
                                          settledTime: max(trace.timeline.settledTime, duration)))
        }
        self.curves = curves
    }

    /// When every container's curve has settled (seconds since touch-down).
    var settledTime: Double { curves.map(\.settledTime).max() ?? duration }

    /// The time axis's end for curves settling at `settled`: the first frame at or after it plus
    /// two frames (so the resting value shows), capped at `longestAxis`.
    static func axisEnd(_ settled: Double, _ display: Display) -> Double {
        let frame = 1 / display.refreshRate
        return min(((settled / frame) - 1e-9).rounded(.up) * frame + 2 * frame, longestAxis)
    }

    /// δ: the scale change that moves the control's edge by one device pixel,
    /// 1 / (max(w, h) / 2 × density) (press-model §4): 1/66 for 44 pt at 3 px/pt.
    var visibilityDelta: Double { 1 / (Self.controlSize / 2 * display.density) }

    /// Curves with identical frames, merged ("none, table"), in first-appearance order.
    var distinctCurves: [(labels: [String], curve: TypicalTapCurve)] {
        let end = Self.axisEnd(settledTime, display)
        var out: [(labels: [String], curve: TypicalTapCurve, frames: [ScaleSample])] = []
        for c in curves {
            let frames = c.frames(until: end)
            if let i = out.firstIndex(where: { $0.frames == frames && $0.curve.feedbackLatency == c.feedbackLatency }) {
                out[i].labels.append(c.container)
            } else {
                out.append(([c.container], c, frames))
            }
        }
        return out.map { ($0.labels, $0.curve) }
    }

    /// The chart: one step line per distinct curve, sampled per frame up to `end` seconds (shared
    /// by every configuration's chart so their time axes match), the one-pixel band, and markers
    /// for touch-down, release and the frames at which the press first shows.
    func chart(until end: Double) -> ScaleTimelineChart {
        let series = distinctCurves.map { entry in
            let frames = entry.curve.frames(until: end)
            let note = entry.curve.feedbackLatency.map { "press first shows at \(Self.ms($0)) (dot)" }
                ?? "the press never shows (unseen)"
            return ScaleSeries(name: entry.labels.joined(separator: ", "), times: frames.map(\.t), scales: frames.map(\.scale),
                               highlightedTime: entry.curve.feedbackLatency, note: note)
        }
        var markers = [TimeMarker(time: 0, label: "touch-down"),
                       TimeMarker(time: duration, label: "lift \(Self.ms(duration))")]
        // A touch a scroll view held back and delivered before the lift (a tap longer than its delay).
        var deliveries: [(time: Double, labels: [String])] = []
        for c in curves {
            guard let t = c.classification.deliveryTime, t > 1e-9, abs(t - duration) > 1e-9 else { continue }
            if let i = deliveries.firstIndex(where: { abs($0.time - t) < 1e-9 }) { deliveries[i].labels.append(c.container) }
            else { deliveries.append((t, [c.container])) }
        }
        for d in deliveries {
            markers.append(TimeMarker(time: d.time, label: "\(d.labels.joined(separator: ", ")) delivers \(Self.ms(d.time))"))
        }
        return ScaleTimelineChart(title: "Scale during a typical tap: \(configuration.name)", series: series,
                                  markers: markers, visibilityDelta: visibilityDelta,
                                  size: ChartSize(width: ChartSize.standard.width, height: 360))
    }

    /// One sentence per distinct curve: when the control got the touch and when the press showed.
    var explanation: [String] {
        distinctCurves.map { entry in
            let c = entry.curve
            var text = entry.labels.joined(separator: ", ") + ": "
            if let delivered = c.classification.deliveryTime, delivered > 1e-9 {
                text += abs(delivered - duration) < 1e-9
                    ? "the touch is held back and delivered only at lift (\(Self.ms(delivered))), press and release together; "
                    : "the touch is delivered at \(Self.ms(delivered)); "
            } else if c.classification.deliveryTime == nil {
                text += "the control never receives the touch; "
            }
            if let seen = c.feedbackLatency {
                text += "the press first shows on the frame at \(Self.ms(seen))"
            } else {
                text += "the press never moves the edge by a pixel (an unseen press)"
            }
            return text + "."
        }
    }

    /// "90 ms", "16.7 ms".
    static func ms(_ seconds: Double) -> String { NumberText.compact(seconds * 1000, maxDigits: 1) + " ms" }

    /// The containers to show for a configuration: `alwaysShown`, then the data's containers in
    /// order of their session counts. `containers` are `sessions.container` texts (nil: none
    /// given, replayed as `none`); one that does not parse is left out.
    static func containers(from stored: [String?]) -> [(label: String, container: Container)] {
        var out: [(label: String, container: Container)] = alwaysShown.map { ($0.name ?? "none", $0) }
        for text in stored {
            let parsed: Container? = text.map { try? ConfigurationJSON.container(fromText: $0) } ?? Container.none
            guard let c = parsed else { continue }
            if out.contains(where: { $0.container == c }) { continue }
            let label = c.name ?? "custom scroll view (delays \(c.delaysContentTouches ? "on" : "off"), "
                + "cancels \(c.cancelsControlTouches ? "on" : "off"), \(ms(c.touchDelay)), \(NumberText.compact(c.hysteresis, maxDigits: 1)) pt)"
            out.append((label, c))
        }
        // Named containers in their usual order (none, scroll, table, scroll-immediate), custom last.
        let order = Container.named
        return out.sorted { a, b in
            (order.firstIndex(of: a.container) ?? order.count) < (order.firstIndex(of: b.container) ?? order.count)
        }
    }
}
