/// One configuration's sample for an ECDF: observed values plus how many sessions had none.
public struct ECDFSeries: Sendable, Equatable {
    public var name: String
    /// Observed values in the x axis's unit (feedback latency in milliseconds).
    public var values: [Double]
    /// Sessions without a value (e.g. an unseen press has no feedback latency). They count in the
    /// denominator, so the curve levels off at values.count / (values.count + unobserved) < 1.
    public var unobserved: Int

    public init(name: String, values: [Double], unobserved: Int = 0) {
        self.name = name
        self.values = values
        self.unobserved = max(0, unobserved)
    }

    /// The denominator n of the step heights k / n.
    public var total: Int { values.filter(\.isFinite).count + unobserved }

    /// The ECDF's jumps: each distinct value with the cumulative fraction F(x) = #{vᵢ ≤ x} / n.
    /// Ties make one jump of (count / n).
    public var steps: [(value: Double, fraction: Double)] {
        let sorted = values.filter(\.isFinite).sorted()
        let n = Double(total)
        var steps: [(value: Double, fraction: Double)] = []
        for (index, value) in sorted.enumerated() {
            let fraction = Double(index + 1) / n
            if let last = steps.last, last.value == value {
                steps[steps.count - 1].fraction = fraction
            } else {
                steps.append((value, fraction))
            }
        }
        return steps
    }

    /// The p-quantile as the ECDF's inverse (Hyndman & Fan 1996, definition 1): the smallest
    /// observed x with F(x) ≥ p, so the marker sits on the drawn step. nil when the curve never
    /// reaches p (too many unobserved) or there are no values. p in (0, 1].
    public func quantile(_ p: Double) -> Double? {
        let sorted = values.filter(\.isFinite).sorted()
        guard !sorted.isEmpty, p > 0, p <= 1 else { return nil }
        // k = ⌈p·n⌉; the 1e-9 keeps 0.9 × 10 = 9.000000000000002 from rounding up to 10.
        let k = Int((p * Double(total) - 1e-9).rounded(.up))
        guard k >= 1, k <= sorted.count else { return nil }
        return sorted[k - 1]
    }

    /// F(x): the fraction of the n sessions with a value ≤ x.
    public func fraction(atMost x: Double) -> Double {
        guard total > 0 else { return 0 }
        return Double(values.filter { $0.isFinite && $0 <= x }.count) / Double(total)
    }
}

/// A vertical reference line at a data value, labelled (e.g. a perception threshold).
public struct ReferenceLine: Sendable, Equatable {
    public var value: Double
    public var label: String
    public init(value: Double, label: String) {
        self.value = value
        self.label = label
    }

    /// Press feedback is judged to degrade beyond 100 ms (Kaaresoja et al., "Feedback is… late",
    /// ACM TAP 2014: good within 30–85 ms, degrading between 100 and 150 ms; press-model §4).
    public static let feedbackDegradesMilliseconds = 100.0
    /// The 100 ms line with its label.
    public static let feedbackDegrades = ReferenceLine(
        value: feedbackDegradesMilliseconds, label: "100 ms: press feedback degrades beyond (Kaaresoja et al. 2014)")
}

/// Empirical cumulative distribution functions of feedback latency, one step line per
/// configuration on a shared axis, with p50 (circle) and p90 (diamond) markers per series and a
/// labelled vertical reference line (default: 100 ms).
///
/// x: the value (ms by default); y: share of sessions with a value ≤ x, in percent.
public struct ECDFChart: Chart {
    public var title: String
    public var series: [ECDFSeries]
    public var reference: ReferenceLine?
    /// The x axis title, unit in parentheses.
    public var xTitle: String
    /// Unit appended to values in the legend and text alternative.
    public var unit: String
    public var size: ChartSize
    /// What the legend calls the sessions without a value ("3007 without a value").
    public var unobservedName: String

    /// The quantiles marked on each curve: p50 (circle) and p90 (diamond).
    public static let markedQuantiles = [0.5, 0.9]
    public static let yTitle = "Share of presses at or below (%)"

    public init(title: String, series: [ECDFSeries], reference: ReferenceLine? = .feedbackDegrades,
                xTitle: String = "Feedback latency (ms)", unit: String = "ms", size: ChartSize = .standard,
                unobservedName: String = "without a value") {
        self.title = title
        self.unobservedName = unobservedName
        self.series = series
        self.reference = reference
        self.xTitle = xTitle
        self.unit = unit
        self.size = size
    }

    public struct Layout: Sendable {
        /// The plot area and axes: x value → pixel, y percent (0–100) → pixel.
        public var frame: CartesianFrame
        /// Per series, the step path's vertices in pixels (from (axis start, 0) through each jump).
        public var paths: [[Point]]
        /// Per series, the marked quantiles: p, value, and the marker's centre (on the step).
        public var quantileMarkers: [[(p: Double, value: Double, point: Point)]]
        /// The reference line's x pixel and label.
        public var reference: (x: Double, label: String, labelX: Double)?
    }

    public func layout() -> Layout {
        let values = series.flatMap(\.values).filter(\.isFinite)
        let xs = values + (reference.map { [$0.value] } ?? [])
        let xDomain = (min(0, xs.min() ?? 0), xs.max() ?? 100)
        let top = Metrics.pad + (reference == nil ? 0 : Metrics.lineHeight + 4)
        // The legend's height depends on its width, which the plot's left edge sets: measure first.
        let probe = CartesianFrame(size: size, xDomain: xDomain, yDomain: (0, 100), xTitle: xTitle, yTitle: Self.yTitle,
                                   top: top, right: Metrics.pad * 3, bottomExtra: 0)
        let legend = series.isEmpty ? 0 : Legend.height(rows: 1)
            + Legend.height(series.map(seriesSummary), maxWidth: size.width - probe.plot.left - Metrics.pad)
        let frame = CartesianFrame(size: size, xDomain: xDomain, yDomain: (0, 100), xTitle: xTitle, yTitle: Self.yTitle,
                                   top: top, right: Metrics.pad * 3, bottomExtra: legend)
        var paths: [[Point]] = []
        var markers: [[(p: Double, value: Double, point: Point)]] = []
        for one in series {
            var points = [Point(x: frame.plot.left, y: frame.y(0))]
            for step in one.steps {
                let px = frame.x(step.value)
                points.append(Point(x: px, y: points[points.count - 1].y))
                points.append(Point(x: px, y: frame.y(step.fraction * 100)))
            }
            if one.total > 0 { points.append(Point(x: frame.plot.right, y: points[points.count - 1].y)) }
            paths.append(points)
            markers.append(Self.markedQuantiles.compactMap { p in
                guard let v = one.quantile(p) else { return nil }
                return (p, v, Point(x: frame.x(v), y: frame.y(one.fraction(atMost: v) * 100)))
            })
        }
        var placedReference: (x: Double, label: String, labelX: Double)?
        if let reference {
            let px = frame.x(reference.value)
            let half = TextLayout.estimatedWidth(reference.label, fontSize: Metrics.fontSize) / 2
            let labelX = min(max(px, half + Metrics.pad), size.width - half - Metrics.pad)
            placedReference = (px, reference.label, labelX)
        }
        return Layout(frame: frame, paths: paths, quantileMarkers: markers, reference: placedReference)
    }

    public func svgContent() -> String {
        let layout = layout()
        let frame = layout.frame, plot = frame.plot
        var svg = SVGWriter()
        frame.drawGrid(&svg)
        if let reference = layout.reference {
            svg.line(x1: reference.x, y1: plot.top - 4, x2: reference.x, y2: plot.bottom, cssClass: "pc-ref")
            svg.text(reference.label, x: reference.labelX, y: plot.top - 8, cssClass: "pc-ref-label", anchor: .middle)
        }
        frame.drawAxes(&svg)
        for (index, path) in layout.paths.enumerated() {
            svg.openGroup(cssClass: "pc-series", label: series[index].name)
            svg.path(path, cssClass: "pc-line " + ChartTheme.seriesClass(index))
            for marker in layout.quantileMarkers[index] {
                let cssClass = "pc-dot " + ChartTheme.seriesClass(index)
                if marker.p == 0.5 {
                    svg.circle(cx: marker.point.x, cy: marker.point.y, r: 4.5, cssClass: cssClass)
                } else {
                    svg.polygon(Shapes.diamond(at: marker.point, radius: 6), cssClass: cssClass)
                }
            }
            svg.closeGroup()
        }
        if series.isEmpty || series.allSatisfy({ $0.total == 0 }) {
            svg.text("No values to show", x: plot.left + plot.width / 2, y: plot.top + plot.height / 2,
                     cssClass: "pc-empty", anchor: .middle)
        }
        if !series.isEmpty {
            // Key to the marker shapes, then one row per series.
            let keyTop = frame.xTitleBottom + 4
            let keyY = keyTop + Metrics.legendRowHeight / 2
            let left = plot.left
            svg.openGroup(cssClass: "pc-legend")
            svg.circle(cx: left + 14, cy: keyY, r: 4.5, cssClass: "pc-dot pc-s0")
            svg.text("p50 (median)", x: left + 24, y: keyY, cssClass: "pc-legend-text", centredVertically: true)
            svg.polygon(Shapes.diamond(at: Point(x: left + 134, y: keyY), radius: 6), cssClass: "pc-dot pc-s0")
            svg.text("p90", x: left + 144, y: keyY, cssClass: "pc-legend-text", centredVertically: true)
            svg.closeGroup()
            Legend.draw(&svg, entries: series.enumerated().map { ($0.offset, seriesSummary($0.element)) },
                        left: left, top: keyTop + Metrics.legendRowHeight, maxWidth: size.width - left - Metrics.pad)
        }
        return svg.markup
    }

    /// "A: n = 120, p50 83.3 ms, p90 150 ms, 61.7 % ≤ 100 ms"; with sessions without a value,
    /// "p50 of all": a quantile over them too, unlike one over the values alone (a table's).
    func seriesSummary(_ one: ECDFSeries) -> String {
        var text = "\(one.name): n = \(one.total)"
        if one.unobserved > 0 { text += " (\(one.unobserved) \(unobservedName))" }
        for p in Self.markedQuantiles {
            let name = "p" + NumberText.compact(p * 100, maxDigits: 1) + (one.unobserved > 0 ? " of all" : "")
            if let value = one.quantile(p) {
                text += ", \(name) \(NumberText.compact(value, maxDigits: 1)) \(unit)"
            } else {
                text += ", \(name) not reached"
            }
        }
        if let reference, one.total > 0 {
            text += ", \(NumberText.percent(one.fraction(atMost: reference.value))) ≤ "
                + "\(NumberText.compact(reference.value, maxDigits: 1)) \(unit)"
        }
        return text
    }

    public var textAlternative: String {
        var parts = ["Cumulative distribution (ECDF) of \(xTitle.lowercased()) for \(series.count) series."]
        parts += series.map { seriesSummary($0) + "." }
        if let reference { parts.append("Reference line: \(reference.label).") }
        return parts.joined(separator: " ")
    }
}
