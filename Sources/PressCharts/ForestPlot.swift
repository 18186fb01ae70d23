/// Which sign of a difference (B − A) is an improvement.
public enum PreferredDirection: String, Sendable, Equatable {
    /// Larger is better (e.g. tap rate).
    case higher
    /// Smaller is better (e.g. cancel rate, feedback latency).
    case lower
}

/// How a difference reads: significant in the preferred direction, against it, or neither. It
/// decides the colour and the marker; the words are the caller's (`Difference.verdictText`), so a
/// chart says what the table beside it says.
public enum Verdict: Sendable, Equatable {
    case better
    case worse
    case notSignificant
}

/// One metric's difference B − A with its interval, in the plot's shared unit.
public struct Difference: Sendable, Equatable {
    public var metric: String
    /// Point estimate of B − A.
    public var estimate: Double
    /// The interval's ends (e.g. 95 %).
    public var lower: Double
    public var upper: Double
    public var preferred: PreferredDirection
    /// The caller's significance decision (e.g. from a Mann–Whitney U test's p-value); nil means
    /// "significant when the interval excludes zero".
    public var significant: Bool?
    /// The verdict in words, written after the value: the caller's, so the chart says what its
    /// table says (pressdb passes PressStats' verdict words); nil writes none.
    public var verdictText: String?

    public init(metric: String, estimate: Double, lower: Double, upper: Double, preferred: PreferredDirection,
                significant: Bool? = nil, verdictText: String? = nil) {
        self.verdictText = verdictText
        self.metric = metric
        self.estimate = estimate
        self.lower = lower
        self.upper = upper
        self.preferred = preferred
        self.significant = significant
    }

    /// better / worse only when significant and the estimate is non-zero; which one depends on
    /// whether the estimate's sign is the preferred direction.
    public var verdict: Verdict {
        let isSignificant = significant ?? (lower > 0 || upper < 0)
        guard isSignificant, estimate != 0, estimate.isFinite else { return .notSignificant }
        return (estimate > 0) == (preferred == .higher) ? .better : .worse
    }
}

/// A difference ("forest") plot for A vs B: per metric a point estimate with interval whiskers
/// against a zero line. Rows are coloured green (better) or red (worse) only when significant in
/// that direction, grey otherwise; every row also carries a marker shape (● better, ■ worse,
/// ○ not significant) and the verdict in words, so colour is never the only cue.
///
/// All rows share one x axis, so they must share one unit (make one plot per unit: percentage
/// points for rates, milliseconds for latencies).
public struct ForestPlot: Chart {
    public var title: String
    public var rows: [Difference]
    /// The x axis title with its unit, e.g. "Difference B − A (percentage points)".
    public var xTitle: String
    /// Unit appended to values in the right-hand column, e.g. "pp", "ms".
    public var unit: String
    /// Decimals shown for values.
    public var digits: Int
    public var width: Double

    static let rowHeight = 26.0

    public init(title: String, rows: [Difference], xTitle: String, unit: String, digits: Int = 1,
                width: Double = ChartSize.standard.width) {
        self.title = title
        self.rows = rows
        self.xTitle = xTitle
        self.unit = unit
        self.digits = digits
        self.width = width
    }

    public var size: ChartSize {
        ChartSize(width: width, height: Metrics.pad * 2 + Double(max(rows.count, 1)) * Self.rowHeight + Axis.bottomHeight)
    }

    public struct Row: Sendable {
        public var difference: Difference
        public var verdict: Verdict
        /// Centre of the point marker.
        public var point: Point
        /// Whisker from x(lower) to x(upper) at the row's centre line.
        public var whisker: (x1: Double, x2: Double, y: Double)
        public var valueText: String
    }

    public struct Layout: Sendable {
        /// The plot area, one row per metric, and the x axis: difference → pixel.
        public var frame: RowFrame
        /// x pixel of the zero line.
        public var zeroX: Double
        public var rows: [Row]
        public var valueColumnX: Double
    }

    func valueText(_ row: Difference) -> String {
        let u = unit.isEmpty ? "" : " \(unit)"
        return "\(NumberText.signed(row.estimate, digits: digits))\(u) (\(NumberText.signed(row.lower, digits: digits)), "
            + "\(NumberText.signed(row.upper, digits: digits)))" + (row.verdictText.map { " " + $0 } ?? "")
    }

    public func layout() -> Layout {
        let font = Metrics.fontSize
        let left = Metrics.pad * 2 + (rows.map { TextLayout.estimatedWidth($0.metric, fontSize: font) }.max() ?? 0)
        let right = Metrics.pad * 2 + (rows.map { TextLayout.estimatedWidth(valueText($0), fontSize: font) }.max() ?? 0)
        let plot = PlotRect(left: left, top: Metrics.pad, width: max(60, width - left - right),
                            height: Double(max(rows.count, 1)) * Self.rowHeight)
        let data = rows.flatMap { [$0.lower, $0.upper, $0.estimate] }.filter(\.isFinite)
        let values = data + [0]
        var lo = values.min() ?? -1, hi = values.max() ?? 1
        var ticks = NiceTicks.ticks(from: lo, to: hi, count: 5)
        // A point or whisker on the axis's end reads as cut off: that end goes half a step further.
        let near = ticks.step * 0.02
        if data.contains(where: { $0 - ticks.lower < near }) { lo -= ticks.step / 2 }
        if data.contains(where: { ticks.upper - $0 < near }) { hi += ticks.step / 2 }
        if lo != values.min() || hi != values.max() { ticks = NiceTicks.ticks(from: lo, to: hi, count: 5) }
        let frame = RowFrame(plot: plot, xTicks: ticks, xTitle: xTitle)
        let x = frame.x
        let placed = rows.enumerated().map { index, row in
            let y = plot.top + (Double(index) + 0.5) * Self.rowHeight
            return Row(difference: row, verdict: row.verdict, point: Point(x: x(row.estimate), y: y),
                       whisker: (x(row.lower), x(row.upper), y), valueText: valueText(row))
        }
        return Layout(frame: frame, zeroX: x(0), rows: placed, valueColumnX: plot.right + Metrics.pad)
    }

    static func cssClass(_ verdict: Verdict) -> String {
        switch verdict {
        case .better: "pc-better"
        case .worse: "pc-worse"
        case .notSignificant: "pc-neutral"
        }
    }

    public func svgContent() -> String {
        let layout = layout()
        let plot = layout.frame.plot
        var svg = SVGWriter()
        layout.frame.drawGrid(&svg)
        svg.line(x1: layout.zeroX, y1: plot.top, x2: layout.zeroX, y2: plot.bottom, cssClass: "pc-zero")
        for row in layout.rows {
            let css = Self.cssClass(row.verdict)
            svg.openGroup(cssClass: "pc-difference", label: "\(row.difference.metric): \(row.valueText)")
            svg.text(row.difference.metric, x: plot.left - Metrics.pad, y: row.point.y, cssClass: "pc-tick-label",
                     anchor: .end, centredVertically: true)
            svg.line(x1: row.whisker.x1, y1: row.whisker.y, x2: row.whisker.x2, y2: row.whisker.y, cssClass: "pc-whisker " + css)
            for end in [row.whisker.x1, row.whisker.x2] {
                svg.line(x1: end, y1: row.whisker.y - 5, x2: end, y2: row.whisker.y + 5, cssClass: "pc-whisker " + css)
            }
            switch row.verdict {
            case .better, .notSignificant:
                svg.circle(cx: row.point.x, cy: row.point.y, r: 5, cssClass: "pc-point " + css)
            case .worse:
                svg.polygon(Shapes.square(at: row.point, radius: 4.5), cssClass: "pc-point " + css)
            }
            svg.text(row.valueText, x: layout.valueColumnX, y: row.point.y, cssClass: css, centredVertically: true)
            svg.closeGroup()
        }
        if rows.isEmpty {
            svg.text("No differences to show", x: plot.left + plot.width / 2, y: plot.top + plot.height / 2, cssClass: "pc-empty",
                     anchor: .middle)
        }
        layout.frame.drawAxes(&svg)
        return svg.markup
    }

    public var textAlternative: String {
        var parts = ["Difference plot (B minus A) for \(rows.count) metrics, with intervals; zero means no difference."]
        parts += rows.map { "\($0.metric) (\($0.preferred.rawValue) is better): \(valueText($0))." }
        return parts.joined(separator: " ")
    }
}
