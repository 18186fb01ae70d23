/// One animated scale sampled per display frame: `times[i]` (seconds since touch-down) shows
/// `scales[i]` (the layer's scale factor, 1 = rest).
public struct ScaleSeries: Sendable, Equatable {
    public var name: String
    /// Frame times in seconds since touch-down, ascending.
    public var times: [Double]
    /// The displayed scale factor at each frame (dimensionless, 1 = at rest).
    public var scales: [Double]
    /// A frame time (seconds) to mark with a dot on the curve, e.g. the first frame at which the
    /// press shows; the dot sits on the frame nearest to it. Nil: no dot.
    public var highlightedTime: Double?
    /// The legend's text after the name; nil: the lowest and highest values with their times.
    public var note: String?

    /// A series; `times` and `scales` must have the same count (a precondition).
    public init(name: String, times: [Double], scales: [Double], highlightedTime: Double? = nil, note: String? = nil) {
        precondition(times.count == scales.count, "one scale per frame time")
        self.name = name
        self.times = times
        self.scales = scales
        self.highlightedTime = highlightedTime
        self.note = note
    }
}

/// A labelled instant drawn as a vertical line: touch-down, release, "feedback first shows".
public struct TimeMarker: Sendable, Equatable {
    /// Seconds since touch-down.
    public var time: Double
    public var label: String
    public init(time: Double, label: String) {
        self.time = time
        self.label = label
    }
}

/// A labelled horizontal line at a data value (in the chart's y unit).
public struct HorizontalLine: Sendable, Equatable {
    public var value: Double
    public var label: String
    public init(value: Double, label: String) {
        self.value = value
        self.label = label
    }
}

/// Scale over time: one step line per series (a frame holds its value until the next frame),
/// the one-pixel visibility band (lines at 1 ± δ), extra horizontal lines, and labelled vertical
/// markers — so a release jump (a vertical step) and a 150 ms delivery delay (the gap between the
/// touch-down marker and the first step away from 1) are visible at a glance.
///
/// x: time in milliseconds (data in seconds × 1000); y: scale factor.
public struct ScaleTimelineChart: Chart {
    public var title: String
    public var series: [ScaleSeries]
    public var markers: [TimeMarker]
    /// δ, the scale change that moves the control's edge by one device pixel:
    /// δ = 1 / (max(width, height) / 2 × density) (press-model §4, "Feedback latency"). nil: no band.
    public var visibilityDelta: Double?
    public var horizontalLines: [HorizontalLine]
    public var size: ChartSize
    /// The y axis title (unit in parentheses); `yTitle` by default. Another quantity over time
    /// (e.g. a spring's progress, `pressdb spring --format svg`) names itself here.
    public var yAxisTitle: String
    /// The x axis title; `xTitle` by default (the axis is always in milliseconds).
    public var xAxisTitle: String
    /// What the y values are, for the text alternative ("scale", "progress").
    public var quantityName: String
    /// Values the y axis covers besides the data: charts meant to be compared side by side get
    /// the same ones (their extremes), so they share one y scale.
    public var yIncludes: [Double] = []

    /// The x axis title (unit in parentheses).
    public static let xTitle = "Time since touch-down (ms)"
    /// The y axis title (unit in parentheses).
    public static let yTitle = "Scale (× rest size)"
    /// Milliseconds per second (the x axis shows milliseconds).
    static let millisecondsPerSecond = 1000.0

    public init(title: String, series: [ScaleSeries], markers: [TimeMarker] = [], visibilityDelta: Double? = nil,
                horizontalLines: [HorizontalLine] = [], size: ChartSize = .standard,
                yAxisTitle: String = ScaleTimelineChart.yTitle, xAxisTitle: String = ScaleTimelineChart.xTitle,
                quantityName: String = "scale") {
        self.title = title
        self.xAxisTitle = xAxisTitle
        self.yAxisTitle = yAxisTitle
        self.quantityName = quantityName
        self.series = series
        self.markers = markers
        self.visibilityDelta = visibilityDelta
        self.horizontalLines = horizontalLines
        self.size = size
    }

    /// Every position the chart draws, in SVG user units.
    public struct Layout: Sendable {
        /// The plot area and axes: x milliseconds → pixel, y scale factor → pixel.
        public var frame: CartesianFrame
        /// Per series, the step path's vertices in pixels.
        public var paths: [[Point]]
        /// Horizontal lines (the visibility band first, as 1 + δ then 1 − δ): line y, label, label centre y.
        public var lines: [(y: Double, label: String, labelY: Double)]
        /// The visibility band's top and bottom pixel rows, when δ is given.
        public var band: (top: Double, bottom: Double)?
        /// Vertical markers: line x, label, label row (0 nearest the plot), the label's centre x
        /// (the line's x, moved inwards if the label would leave the drawing) and baseline y.
        public var markers: [(x: Double, label: String, row: Int, labelX: Double, labelBaseline: Double)]
        /// Dots on the curves at each series' `highlightedTime`: the series index and the dot's
        /// centre (the nearest frame's time and value).
        public var highlights: [(series: Int, point: Point)] = []
    }

    /// The lines drawn: the visibility band's two lines, then `horizontalLines`.
    var allLines: [HorizontalLine] {
        var lines: [HorizontalLine] = []
        if let delta = visibilityDelta {
            lines.append(HorizontalLine(value: 1 + delta, label: "+1 px"))
            lines.append(HorizontalLine(value: 1 - delta, label: "\(NumberText.minus)1 px"))
        }
        return lines + horizontalLines
    }

    public func layout() -> Layout {
        let ms = Self.millisecondsPerSecond
        let lines = allLines
        let times = series.flatMap(\.times).filter(\.isFinite).map { $0 * ms } + markers.map { $0.time * ms }
        let scales = series.flatMap(\.scales).filter(\.isFinite) + lines.map(\.value) + [1] + yIncludes.filter(\.isFinite)
        let xDomain = (min(0, times.min() ?? 0), times.max() ?? 100)
        let yDomain = (scales.min() ?? 0.9, scales.max() ?? 1.1)

        // Marker labels above the plot, in as many rows as needed to keep them apart. Their x
        // positions depend only on the horizontal layout, which the rows do not change.
        let lineLabelWidth = lines.map { TextLayout.estimatedWidth($0.label, fontSize: Metrics.fontSize) }.max() ?? 0
        let right = Metrics.pad + (lines.isEmpty ? 8 : lineLabelWidth + 6)
        let probe = CartesianFrame(size: size, xDomain: xDomain, yDomain: yDomain, xTitle: xAxisTitle, yTitle: yAxisTitle,
                                   top: 0, right: right, bottomExtra: 0)
        let markerXs = markers.map { probe.x($0.time * ms) }
        let markerWidths = markers.map { TextLayout.estimatedWidth($0.label, fontSize: Metrics.fontSize) }
        // Label centres stay over the plot: a label for 0 ms would otherwise hang off the left, over
        // the y axis's top tick label.
        let labelXs = markers.indices.map { i in
            min(max(markerXs[i], probe.plot.left + markerWidths[i] / 2), size.width - markerWidths[i] / 2 - Metrics.pad)
        }
        let markerRows = TextLayout.rows(centres: labelXs, widths: markerWidths)
        let rowCount = (markerRows.max() ?? -1) + 1
        let top = Metrics.pad + Double(rowCount) * Metrics.lineHeight + 4

        let legend = Legend.height(series.map(legendText), maxWidth: size.width - probe.plot.left - Metrics.pad)
        let frame = CartesianFrame(size: size, xDomain: xDomain, yDomain: yDomain, xTitle: xAxisTitle, yTitle: yAxisTitle,
                                   top: top, right: right, bottomExtra: legend)
        let paths = series.map { one -> [Point] in
            let samples = zip(one.times, one.scales).filter { $0.0.isFinite && $0.1.isFinite }.sorted { $0.0 < $1.0 }
            var points: [Point] = []
            for (index, sample) in samples.enumerated() {
                let px = frame.x(sample.0 * ms), py = frame.y(sample.1)
                if index > 0 { points.append(Point(x: px, y: points[points.count - 1].y)) }
                points.append(Point(x: px, y: py))
            }
            return points
        }
        let lineYs = lines.map { frame.y($0.value) }
        let labelYs = TextLayout.spread(desired: lineYs, extents: lines.map { _ in Metrics.lineHeight - 2 }, gap: 1,
                                        limit: frame.plot.bottom + Metrics.lineHeight)
        let placedMarkers = markers.indices.map { i in
            (x: markerXs[i], label: markers[i].label, row: markerRows[i], labelX: labelXs[i],
             labelBaseline: top - 6 - Double(markerRows[i]) * Metrics.lineHeight)
        }
        var band: (top: Double, bottom: Double)?
        if let delta = visibilityDelta { band = (frame.y(1 + delta), frame.y(1 - delta)) }
        let highlights = series.enumerated().compactMap { index, one -> (series: Int, point: Point)? in
            guard let t = one.highlightedTime, t.isFinite else { return nil }
            let nearest = zip(one.times, one.scales).filter { $0.0.isFinite && $0.1.isFinite }
                .min { abs($0.0 - t) < abs($1.0 - t) }
            return nearest.map { (index, Point(x: frame.x($0.0 * ms), y: frame.y($0.1))) }
        }
        return Layout(frame: frame, paths: paths,
                      lines: lines.indices.map { (y: lineYs[$0], label: lines[$0].label, labelY: labelYs[$0]) },
                      band: band, markers: placedMarkers, highlights: highlights)
    }

    public func svgContent() -> String {
        let layout = layout()
        let frame = layout.frame, plot = frame.plot
        var svg = SVGWriter()
        frame.drawGrid(&svg)
        if let band = layout.band {
            svg.rect(x: plot.left, y: band.top, width: plot.width, height: band.bottom - band.top, cssClass: "pc-band")
        }
        svg.openGroup(cssClass: "pc-thresholds")
        for line in layout.lines {
            svg.line(x1: plot.left, y1: line.y, x2: plot.right, y2: line.y, cssClass: "pc-threshold")
            svg.text(line.label, x: plot.right + 6, y: line.labelY, cssClass: "pc-note", centredVertically: true)
        }
        svg.closeGroup()
        svg.openGroup(cssClass: "pc-markers")
        for marker in layout.markers {
            svg.line(x1: marker.x, y1: plot.top - 4 - Double(marker.row) * Metrics.lineHeight, x2: marker.x,
                     y2: plot.bottom, cssClass: "pc-marker")
            svg.text(marker.label, x: marker.labelX, y: marker.labelBaseline, cssClass: "pc-marker-label", anchor: .middle)
        }
        svg.closeGroup()
        frame.drawAxes(&svg)
        svg.openGroup(cssClass: "pc-series")
        for (index, path) in layout.paths.enumerated() {
            svg.path(path, cssClass: "pc-line " + ChartTheme.seriesClass(index))
        }
        for highlight in layout.highlights {
            svg.circle(cx: highlight.point.x, cy: highlight.point.y, r: 5, cssClass: "pc-dot " + ChartTheme.seriesClass(highlight.series))
        }
        svg.closeGroup()
        if series.isEmpty {
            svg.text("No frames to show", x: plot.left + plot.width / 2, y: plot.top + plot.height / 2,
                     cssClass: "pc-empty", anchor: .middle)
        }
        Legend.draw(&svg, entries: series.enumerated().map { ($0.offset, legendText($0.element)) },
                    left: plot.left, top: frame.xTitleBottom + 4, maxWidth: size.width - plot.left - Metrics.pad)
        return svg.markup
    }

    /// "name: lowest 0.950 at 283.3 ms, highest 1.300 at 300 ms" (the legend row).
    func legendText(_ one: ScaleSeries) -> String {
        if let note = one.note { return "\(one.name): \(note)" }
        let samples = zip(one.times, one.scales).filter { $0.0.isFinite && $0.1.isFinite }
        guard let low = samples.min(by: { $0.1 < $1.1 }), let high = samples.max(by: { $0.1 < $1.1 }) else {
            return "\(one.name): no frames"
        }
        func t(_ s: Double) -> String { NumberText.compact(s * Self.millisecondsPerSecond, maxDigits: 1) + " ms" }
        return "\(one.name): lowest \(NumberText.fixed(low.1, digits: 3)) at \(t(low.0)), "
            + "highest \(NumberText.fixed(high.1, digits: 3)) at \(t(high.0))"
    }

    /// "name: n frames over 0–500 ms; lowest 0.95 at 120 ms; highest 1.30 at 250 ms; ends at 1.00".
    func seriesSummary(_ one: ScaleSeries) -> String {
        let samples = zip(one.times, one.scales).filter { $0.0.isFinite && $0.1.isFinite }
        guard let first = samples.first, let last = samples.last,
              let low = samples.min(by: { $0.1 < $1.1 }), let high = samples.max(by: { $0.1 < $1.1 }) else {
            return "\(one.name): no frames"
        }
        let ms = Self.millisecondsPerSecond
        func t(_ s: Double) -> String { NumberText.compact(s * ms, maxDigits: 1) + " ms" }
        return "\(one.name): \(samples.count) frames from \(t(first.0)) to \(t(last.0)); lowest "
            + "\(NumberText.fixed(low.1, digits: 3)) at \(t(low.0)); highest \(NumberText.fixed(high.1, digits: 3)) at "
            + "\(t(high.0)); ends at \(NumberText.fixed(last.1, digits: 3))"
            + (one.highlightedTime.map { "; dot at \(t($0))" } ?? "") + (one.note.map { "; \($0)" } ?? "")
    }

    public var textAlternative: String {
        var parts = ["Line chart of \(quantityName) against \(xAxisTitle.lowercased()), \(series.count) series."]
        parts += series.map { seriesSummary($0) + "." }
        if !markers.isEmpty {
            parts.append("Markers: " + markers.map {
                "\($0.label) at \(NumberText.compact($0.time * Self.millisecondsPerSecond, maxDigits: 1)) ms"
            }.joined(separator: "; ") + ".")
        }
        if let delta = visibilityDelta {
            parts.append("One-pixel visibility band between \(NumberText.fixed(1 - delta, digits: 4)) and "
                + "\(NumberText.fixed(1 + delta, digits: 4)) (1 ± δ, δ = \(NumberText.fixed(delta, digits: 4))).")
        }
        for line in horizontalLines {
            parts.append("Line \(line.label) at \(NumberText.compact(line.value, maxDigits: 4)).")
        }
        return parts.joined(separator: " ")
    }
}
