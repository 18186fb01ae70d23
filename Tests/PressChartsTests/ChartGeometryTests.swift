import Testing
@testable import PressCharts

/// The pixel an independent computation expects: lower…upper mapped linearly onto start…end.
private func expectedPixel(_ value: Double, lower: Double, upper: Double, start: Double, end: Double) -> Double {
    start + (value - lower) / (upper - lower) * (end - start)
}

private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

@Suite("PressCharts chart geometry")
struct ChartGeometryTests {
    @Test func thresholdLinesSitAtOnePlusMinusDelta() {
        let chart = SampleReport.scaleChart()
        let layout = chart.layout()
        let delta = SampleReport.delta
        #expect(layout.lines.count == 2)
        // Through the chart's own scale …
        #expect(close(layout.lines[0].y, layout.frame.y(1 + delta)))
        #expect(close(layout.lines[1].y, layout.frame.y(1 - delta)))
        // … and from the plot rectangle and the axis ends directly (y grows downwards).
        let p = layout.frame.plot
        #expect(close(layout.lines[0].y, expectedPixel(1 + delta, lower: layout.frame.y.ticks.lower, upper: layout.frame.y.ticks.upper,
                                                      start: p.bottom, end: p.top)))
        #expect(layout.band.map { close($0.top, layout.lines[0].y) && close($0.bottom, layout.lines[1].y) } == true)
        // The drawn SVG carries the same coordinates (rounded to 0.01 px).
        let svg = chart.svgContent()
        #expect(svg.contains("class=\"pc-threshold\" x1=\"\(Markup.number(p.left))\" y1=\"\(Markup.number(layout.lines[0].y))\""))
    }

    @Test func scaleAxisCoversDataAndThresholds() {
        let layout = SampleReport.scaleChart().layout()
        // Data span 0.95…1.3 and the band 1 ± 1/66: span 0.35/4 = 0.0875 → step 0.1 → 0.9…1.3.
        #expect(layout.frame.y.ticks.values == [0.9, 1.0, 1.1, 1.2, 1.3])
        // Times 1/60…36/60 s = 16.7…600 ms plus the 0 ms marker: span 600/5 = 120 → step 100.
        #expect(layout.frame.x.ticks.values == [0, 100, 200, 300, 400, 500, 600])
    }

    @Test func markersAndStepsMapTimesToMilliseconds() {
        let chart = ScaleTimelineChart(
            title: "t", series: [ScaleSeries(name: "s", times: [0.1, 0.2, 0.4], scales: [1, 1.3, 1])],
            markers: [TimeMarker(time: 0.2, label: "release")])
        let layout = chart.layout()
        let p = layout.frame.plot
        // 0.2 s is 200 ms on the 0…400 ms axis (span 400/5 = 80 → step 100): halfway.
        #expect(layout.frame.x.ticks.lower == 0 && layout.frame.x.ticks.upper == 400)
        #expect(close(layout.markers[0].x, p.left + p.width / 2))
        // Step path: hold 1 until 200 ms, jump to 1.3 (the release jump), hold, drop to 1 at 400 ms.
        let y1 = layout.frame.y(1), y13 = layout.frame.y(1.3)
        let expected = [Point(x: layout.frame.x(100), y: y1), Point(x: layout.frame.x(200), y: y1), Point(x: layout.frame.x(200), y: y13),
                        Point(x: layout.frame.x(400), y: y13), Point(x: layout.frame.x(400), y: y1)]
        #expect(layout.paths[0] == expected)
    }

    @Test func ecdfStepHeightsAreKOverN() {
        // Values 30, 10, 20, 20: F jumps to 1/4 at 10, 3/4 at 20 (a tie), 4/4 at 30.
        let series = ECDFSeries(name: "a", values: [30, 10, 20, 20])
        #expect(series.steps.map(\.value) == [10, 20, 30])
        #expect(series.steps.map(\.fraction) == [0.25, 0.75, 1.0])
        // One unobserved session makes n = 5: 1/5, 3/5, 4/5 (the curve levels off at 80 %).
        let withUnseen = ECDFSeries(name: "b", values: [30, 10, 20, 20], unobserved: 1)
        #expect(withUnseen.steps.map(\.fraction) == [0.2, 0.6, 0.8])

        let chart = ECDFChart(title: "e", series: [series])
        let layout = chart.layout()
        let p = layout.frame.plot
        // The y axis is percent 0…100; the step to 3/4 sits 75 % of the way up the plot.
        let path = layout.paths[0]
        #expect(path.contains(Point(x: layout.frame.x(20), y: layout.frame.y(75))))
        #expect(close(layout.frame.y(75), p.bottom - 0.75 * p.height))
        #expect(close(layout.frame.y(25), p.bottom - 0.25 * p.height))
        // x: values and the 100 ms reference give 0…100 ms (step 20): 20 ms is a fifth of the way.
        #expect(close(layout.frame.x(20), p.left + p.width / 5))
        #expect(layout.reference.map { close($0.x, p.right) } == true)
    }

    @Test func ecdfQuantilesInvertTheECDF() {
        // numpy.quantile(..., method="inverted_cdf") (Hyndman & Fan definition 1):
        // [30, 10, 20, 20] → p50 20, p90 30; 1…10 → p50 5, p90 9.
        let a = ECDFSeries(name: "a", values: [30, 10, 20, 20])
        #expect(a.quantile(0.5) == 20)
        #expect(a.quantile(0.9) == 30)
        let b = ECDFSeries(name: "b", values: (1...10).map(Double.init))
        #expect(b.quantile(0.5) == 5)
        #expect(b.quantile(0.9) == 9)  // 0.9 × 10 = 9.000000000000002 must not round up to 10
        // 8 seen of 10: p90 is never reached.
        #expect(ECDFSeries(name: "c", values: (1...8).map(Double.init), unobserved: 2).quantile(0.9) == nil)

        let layout = ECDFChart(title: "e", series: [a]).layout()
        let markers = layout.quantileMarkers[0]
        #expect(markers.map(\.value) == [20, 30])
        // The p50 marker sits on the step: at x(20), height F(20) = 75 %.
        #expect(markers[0].point == Point(x: layout.frame.x(20), y: layout.frame.y(75)))
    }

    @Test func ecdfTextAlternativeStatesKeyNumbers() {
        let chart = ECDFChart(title: "e", series: [ECDFSeries(name: "cfg-a", values: [30, 10, 20, 20, 120])])
        // p50: ⌈0.5·5⌉ = 3rd of 10, 20, 20, 30, 120 → 20; p90: ⌈4.5⌉ = 5th → 120; 4 of 5 ≤ 100 ms = 80.0 %.
        let text = chart.textAlternative
        #expect(text.contains("cfg-a: n = 5, p50 20 ms, p90 120 ms, 80.0\u{2009}% ≤ 100 ms"))
        #expect(text.contains("100 ms: press feedback degrades beyond"))
    }

    @Test func rateWhiskersSpanTheInterval() {
        let chart = RateIntervalChart(title: "r", groups: [
            RateGroup(name: "A", rates: [RateInterval(label: "tap", estimate: 0.8, lower: 0.75, upper: 0.85)]),
        ])
        let layout = chart.layout()
        let p = layout.frame.plot
        // Highest value 85 % → span 85/5 = 17 → step 20 → axis 0…100 %.
        #expect(layout.frame.x.ticks.lower == 0 && layout.frame.x.ticks.upper == 100)
        let bar = layout.bars[0]
        #expect(close(bar.whisker.x1, p.left + 0.75 * p.width))
        #expect(close(bar.whisker.x2, p.left + 0.85 * p.width))
        #expect(close(bar.bar.x, p.left))
        #expect(close(bar.bar.width, 0.8 * p.width))
        #expect(close(bar.whisker.y, bar.bar.y + bar.bar.height / 2))
        #expect(bar.valueText == "80.0\u{2009}% (75.0\u{2013}85.0\u{2009}%)")
    }

    @Test func rateCategoriesKeepTheirColourAcrossGroups() {
        let layout = SampleReport.rateChart().layout()
        let indexByLabel = Dictionary(grouping: layout.bars, by: \.rate.label).mapValues { Set($0.map(\.categoryIndex)) }
        #expect(indexByLabel["tap"] == [0])
        #expect(indexByLabel["cancel"] == [1])
        #expect(indexByLabel["scroll-abort"] == [2])
        // Rows never overlap: each bar is below the previous one.
        for (a, b) in zip(layout.bars, layout.bars.dropFirst()) { #expect(b.bar.y >= a.bar.y + a.bar.height) }
    }

    @Test func forestVerdictsFollowPreferredDirection() {
        // Higher is better and B − A is −8 [−13, −3]: significantly lower → worse.
        #expect(Difference(metric: "tap", estimate: -8, lower: -13, upper: -3, preferred: .higher).verdict == .worse)
        // Lower is better and −4 [−6, −2] → better.
        #expect(Difference(metric: "jump", estimate: -4, lower: -6, upper: -2, preferred: .lower).verdict == .better)
        // Interval includes zero → not significant, whatever the direction.
        #expect(Difference(metric: "x", estimate: 1, lower: -1, upper: 3, preferred: .higher).verdict == .notSignificant)
        // The caller's test decides when given.
        #expect(Difference(metric: "x", estimate: 2, lower: 1, upper: 3, preferred: .higher, significant: false).verdict == .notSignificant)
        #expect(Difference(metric: "x", estimate: 2, lower: -1, upper: 5, preferred: .higher, significant: true).verdict == .better)
    }

    // A point on the axis's end reads as cut off: values −100…+50 give Heckbert ticks of 50 from
    // −100 to 50 (span 150 / 4 = 37.5 → step 50), both ends on data; half a step more each side
    // (−125…75: 200 / 4 = 50 → step 50, floor(−2.5) = −3, ceil(1.5) = 2 steps) gives −150…100.
    @Test func forestPointNotOnAxisEnd() {
        let plot = ForestPlot(title: "t", rows: [
            Difference(metric: "p90", estimate: -100, lower: -100, upper: -100, preferred: .lower),
            Difference(metric: "p50", estimate: 33.3, lower: 33.3, upper: 50, preferred: .lower),
        ], xTitle: "ms", unit: "ms")
        let ticks = plot.layout().frame.x.ticks
        #expect(ticks.lower == -150 && ticks.upper == 100)
    }

    // The sweep's crowded corner (point 9 at 41.6 %, the base at 40.7 %, a dominated point at
    // 42.5 %, all at 183.3 ms): no label covers another label or any mark, and all stay in the plot.
    @Test func frontierLabelsDoNotOverlap() {
        let points = [FrontierPoint(label: "base", x: 183.3, y: 40.7, kind: .base),
                      FrontierPoint(label: "9", x: 183.3, y: 41.6, kind: .frontier),
                      FrontierPoint(label: "3", x: 183.3, y: 42.5, kind: .dominated),
                      FrontierPoint(label: "21", x: 200, y: 4.6, kind: .frontier),
                      FrontierPoint(label: "24", x: 200, y: 6.0, kind: .frontier),
                      FrontierPoint(label: "16", x: 166.7, y: 0, kind: .frontier)]
        let layout = FrontierScatterChart(title: "t", points: points, xTitle: "x", yTitle: "y").layout()
        let labels = layout.labels, plot = layout.frame.plot
        #expect(labels.map(\.text).sorted() == ["16", "21", "24", "9", "base"].sorted())
        for (i, a) in labels.enumerated() {
            for b in labels[(i + 1)...] { #expect(a.box.overlap(b.box) == 0, "\(a.text) on \(b.text)") }
            for c in layout.centres {
                let mark = FrontierScatterChart.Box(left: c.x - 5, top: c.y - 5, right: c.x + 5, bottom: c.y + 5)
                #expect(a.box.overlap(mark) == 0, "\(a.text) on the mark at \(c)")
            }
            #expect(a.box.left >= plot.left && a.box.right <= plot.right && a.box.bottom <= plot.bottom)
        }
    }

    @Test func forestWhiskersAndZeroLine() {
        let plot = SampleReport.forestPlot()
        let layout = plot.layout()
        let p = layout.frame.plot
        // Values −13…12.5 and 0: span 25.5/4 = 6.375 → step 5 → axis −15…15.
        #expect(layout.frame.x.ticks.lower == -15 && layout.frame.x.ticks.upper == 15)
        #expect(close(layout.zeroX, p.left + p.width / 2))
        let tap = layout.rows[0]
        #expect(close(tap.whisker.x1, p.left + (-13 + 15) / 30 * p.width))
        #expect(close(tap.whisker.x2, p.left + (-3 + 15) / 30 * p.width))
        #expect(close(tap.point.x, p.left + (-8 + 15) / 30 * p.width))
        #expect(layout.rows.map(\.verdict) == [.worse, .worse, .notSignificant, .better])
        // Colour is not the only cue: the verdict is written, and shapes differ (square for worse).
        let svg = plot.svgContent()
        #expect(svg.contains("<polygon class=\"pc-point pc-worse\""))
        #expect(svg.contains("<circle class=\"pc-point pc-better\""))
        #expect(svg.contains("<circle class=\"pc-point pc-neutral\""))
        #expect(svg.contains(">\u{2212}4.0 pp (\u{2212}6.0, \u{2212}2.0) better</text>"))
        #expect(svg.contains(">+8.0 pp (+3.5, +12.5) worse</text>"))
        // The words are the caller's (SampleReport passes them), not the chart's own.
        #expect(svg.contains("no detectable difference</text>"))
    }
}
