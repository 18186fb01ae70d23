// `pressdb spring --format svg`: a spring's progress from its start to its settling duration,
// as a standalone SVG file (PressCharts' theme embedded: light, dark and print).
import PressCharts
import PressCore

enum SpringProgressChart {
    /// Points drawn along the curve: 600 (steps of 1/600 of the span; at the chart's width
    /// that is under two pixels apart, so the step line reads as a smooth curve).
    static let sampleCount = 600
    /// The span when the spring never settles (no damping): 10 perceptual durations 2π√(m/k).
    static let undampedPeriods = 10.0

    /// The chart's time span, seconds: `settlingDuration`, or `undampedPeriods` periods when that
    /// is infinite.
    static func span(_ spring: Spring) -> Double {
        let settling = spring.settlingDuration
        return settling.isFinite && settling > 0 ? settling : undampedPeriods * spring.perceptualDuration
    }

    /// Progress p(t) (0 → 1, fraction of the whole distance) from t = 0 to the span inclusive,
    /// `sampleCount` + 1 points; a line at 1 (the target); markers at the start, at the first time
    /// the progress reaches 1 (when it does) and at the settling duration.
    static func chart(_ spring: Spring) -> ScaleTimelineChart {
        let end = span(spring)
        let times = (0...sampleCount).map { end * Double($0) / Double(sampleCount) }
        let settles = spring.settlingDuration.isFinite
        var markers = [TimeMarker(time: 0, label: "start")]
        if let reach = spring.timeToTarget, reach < end {
            markers.append(TimeMarker(time: reach, label: "reaches 1 at \(TypicalTap.ms(reach))"))
        }
        if settles {
            markers.append(TimeMarker(time: end, label: "settled \(TypicalTap.ms(end))"))
        }
        let figures = "mass \(text(spring.mass)), stiffness \(text(spring.stiffness)), damping \(text(spring.damping)), "
            + "initial velocity \(text(spring.initialVelocity))"
        let note = "damping ratio \(text(spring.dampingRatio)), overshoot \(NumberText.percent(spring.overshoot)), "
            + (settles ? "settles in \(TypicalTap.ms(end))"
                       : "never settles (no damping); shown for \(TypicalTap.ms(end))")
        return ScaleTimelineChart(
            title: "Spring progress: \(figures)",
            series: [ScaleSeries(name: "progress", times: times, scales: times.map { spring.progress(at: $0) }, note: note)],
            markers: markers, horizontalLines: [HorizontalLine(value: 1, label: "target 1")],
            yAxisTitle: "Progress (fraction of the distance)", xAxisTitle: "Time since the animation starts (ms)",
            quantityName: "progress")
    }

    /// A figure with up to 4 significant decimals ("157.9137", "0.5").
    static func text(_ value: Double) -> String { NumberText.compact(value, maxDigits: 4) }
}
