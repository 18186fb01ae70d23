// A sample report exercising every chart type, shared by the well-formedness and browser tests.
import Foundation
@testable import PressCharts

enum SampleReport {
    /// δ for a 44 pt control at 3 px/pt: 1 / (44 / 2 × 3) = 1/66 (press-model §4).
    static let delta = 1.0 / 66.0

    /// Frames at 60 Hz (k / 60 s). "plain": a press spring toward 0.95 from touch-down, release
    /// at 0.3 s jumping to 1.3 (the expand pattern) then settling; "scroll": the same, delayed by
    /// the 150 ms delaysContentTouches timer. Shapes only need to look plausible here.
    static func scaleSeries() -> [ScaleSeries] {
        func curve(delay: Double) -> ScaleSeries {
            let times = (1...36).map { Double($0) / 60 }
            let scales = times.map { t -> Double in
                if t < delay { return 1 }
                if t < 0.3 { return 1 - 0.05 * (1 - exp(-(t - delay) / 0.04)) }
                return 1 + 0.3 * exp(-(t - 0.3) / 0.08)
            }
            return ScaleSeries(name: delay > 0 ? "scroll (150 ms delay)" : "plain", times: times, scales: scales)
        }
        return [curve(delay: 0), curve(delay: 0.15)]
    }

    static func scaleChart() -> ScaleTimelineChart {
        ScaleTimelineChart(
            title: "Scale over time, expand pattern", series: scaleSeries(),
            markers: [TimeMarker(time: 0, label: "touch-down"), TimeMarker(time: 0.3, label: "release"),
                      TimeMarker(time: 10.0 / 60, label: "feedback first shows (scroll)")],
            visibilityDelta: delta)
    }

    static func ecdfChart() -> ECDFChart {
        ECDFChart(title: "Feedback latency per configuration", series: [
            ECDFSeries(name: "spring-a", values: (1...40).map { 16.7 * Double(1 + $0 % 6) }),
            ECDFSeries(name: "scroll <b>\"x\"</b>", values: (1...30).map { 150 + 16.7 * Double(1 + $0 % 4) }, unobserved: 3),
        ])
    }

    static func rateChart() -> RateIntervalChart {
        RateIntervalChart(title: "Outcomes per configuration", groups: [
            RateGroup(name: "spring-a", rates: [
                RateInterval(label: "tap", estimate: 0.82, lower: 0.78, upper: 0.855, detail: "410 of 500"),
                RateInterval(label: "cancel", estimate: 0.12, lower: 0.095, upper: 0.15),
                RateInterval(label: "scroll-abort", estimate: 0.06, lower: 0.043, upper: 0.083),
            ]),
            RateGroup(name: "spring-b", rates: [
                RateInterval(label: "tap", estimate: 0.74, lower: 0.70, upper: 0.78),
                RateInterval(label: "cancel", estimate: 0.2, lower: 0.166, upper: 0.238),
                RateInterval(label: "scroll-abort", estimate: 0.06, lower: 0.042, upper: 0.085),
            ]),
        ])
    }

    static func forestPlot() -> ForestPlot {
        ForestPlot(title: "B vs A", rows: [
            Difference(metric: "tap rate", estimate: -8, lower: -13, upper: -3, preferred: .higher, verdictText: "worse"),
            Difference(metric: "cancel rate", estimate: 8, lower: 3.5, upper: 12.5, preferred: .lower, verdictText: "worse"),
            Difference(metric: "scroll-abort rate", estimate: 0, lower: -2.9, upper: 2.9, preferred: .lower,
                       verdictText: "no detectable difference"),
            Difference(metric: "release-jump rate", estimate: -4, lower: -6, upper: -2, preferred: .lower, verdictText: "better"),
        ], xTitle: "Difference B \u{2212} A (percentage points)", unit: "pp")
    }

    static func page() -> HTMLPage {
        var page = HTMLPage(title: "pressdb sample report <script>alert('x')</script>")
        page.banner("Sample ratio mismatch: 480 vs 520 sessions (p = 0.0002).", kind: .warning)
        page.banner("Only 12 sessions for config \"c\".", kind: .info)
        page.heading("Scale over time")
        page.paragraph("A release jump shows as a vertical step; the scroll container delays the press by 150 ms.")
        page.figure(scaleChart(), caption: "Scale per frame, with the one-pixel visibility band.")
        page.heading("Feedback latency")
        page.figure(ecdfChart(), caption: "ECDF of feedback latency; circles p50, diamonds p90.")
        page.heading("Outcomes")
        page.figure(rateChart(), caption: "Rates with 95 % Wilson intervals.")
        page.table(DataTable(caption: "Outcomes <per> config", columns: [.text("Config"), .numeric("Sessions"), .numeric("Tap rate")],
                             rows: [["spring-a", "500", "82.0 %"], ["spring-b & <i>", "500", "74.0 %"]]))
        page.heading("A vs B")
        page.figure(forestPlot(), caption: "Differences B − A with 95 % intervals.")
        return page
    }
}
