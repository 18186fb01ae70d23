/// A proportion with its confidence interval, all as fractions 0…1 (drawn as percent).
public struct RateInterval: Sendable, Equatable {
    /// The category, e.g. "tap", "cancel", "scroll-abort".
    public var label: String
    /// The observed rate (fraction 0…1).
    public var estimate: Double
    /// The interval's ends (fractions 0…1), e.g. a 95 % Wilson interval.
    public var lower: Double
    public var upper: Double
    /// Optional count text shown after the interval ("412 of 500").
    public var detail: String?

    public init(label: String, estimate: Double, lower: Double, upper: Double, detail: String? = nil) {
        self.label = label
        self.estimate = estimate
        self.lower = lower
        self.upper = upper
        self.detail = detail
    }
}

/// The rates of one configuration.
public struct RateGroup: Sendable, Equatable {
    public var name: String
    public var rates: [RateInterval]
    public init(name: String, rates: [RateInterval]) {
        self.name = name
        self.rates = rates
    }
}

/// Horizontal bars with interval whiskers, grouped per configuration: each group is a heading
/// row followed by one bar per category. The category is written beside each bar and the value
/// with its interval in a column on the right, so no label can collide and colour is not needed
/// to read it. x: percent of presses, starting at 0.
public struct RateIntervalChart: Chart {
    public var title: String
    public var groups: [RateGroup]
    /// Names the interval in the text ("95 % CI").
    public var intervalName: String
    public var xTitle: String
    /// The drawing's width; the height follows from the number of rows.
    public var width: Double

    static let rowHeight = 22.0
    static let barHeight = 14.0
    static let groupHeadingHeight = 22.0

    public init(title: String, groups: [RateGroup], intervalName: String = "95\u{2009}% CI",
                xTitle: String = "Share of presses (%)", width: Double = ChartSize.standard.width) {
        self.title = title
        self.groups = groups
        self.intervalName = intervalName
        self.xTitle = xTitle
        self.width = width
    }

    public var size: ChartSize {
        let rows = groups.reduce(0.0) { $0 + Self.groupHeadingHeight + Double($1.rates.count) * Self.rowHeight }
        return ChartSize(width: width, height: Metrics.pad * 2 + max(rows, Self.rowHeight) + Axis.bottomHeight)
    }

    /// One bar: its group and category, data, and pixel geometry.
    public struct Bar: Sendable {
        public var group: String
        public var rate: RateInterval
        /// Index of the category's colour (by first appearance of its label across groups).
        public var categoryIndex: Int
        /// The bar from x(0) to x(estimate).
        public var bar: (x: Double, y: Double, width: Double, height: Double)
        /// The whisker from x(lower) to x(upper) at the bar's centre line y.
        public var whisker: (x1: Double, x2: Double, y: Double)
        public var valueText: String
    }

    public struct Layout: Sendable {
        /// The plot area, the groups' rows, and the x axis: percent → pixel.
        public var frame: RowFrame
        public var bars: [Bar]
        /// Group headings: text and baseline y.
        public var headings: [(text: String, y: Double)]
        /// The right-hand column's left edge (value texts start here).
        public var valueColumnX: Double
    }

    func valueText(_ rate: RateInterval) -> String {
        var text = "\(NumberText.percent(rate.estimate)) (\(NumberText.fixed(rate.lower * 100, digits: 1))"
            + "\u{2013}\(NumberText.percent(rate.upper)))"
        if let detail = rate.detail { text += " \(detail)" }
        return text
    }

    public func layout() -> Layout {
        let font = Metrics.fontSize
        let categoryWidth = groups.flatMap(\.rates).map { TextLayout.estimatedWidth($0.label, fontSize: font) }.max() ?? 0
        let headingWidth = groups.map { TextLayout.estimatedWidth($0.name, fontSize: font) }.max() ?? 0
        let left = Metrics.pad + max(categoryWidth + Metrics.pad, headingWidth * 0.5)
        let valueWidth = groups.flatMap(\.rates).map { TextLayout.estimatedWidth(valueText($0), fontSize: font) }.max() ?? 0
        let right = valueWidth + Metrics.pad * 2
        let top = Metrics.pad
        let height = size.height - top - Axis.bottomHeight - Metrics.pad
        let plot = PlotRect(left: left, top: top, width: max(40, width - left - right), height: height)
        let upper = max(groups.flatMap(\.rates).flatMap { [$0.upper, $0.estimate] }.filter(\.isFinite).max() ?? 1, 0.01)
        let frame = RowFrame(plot: plot, xTicks: NiceTicks.ticks(from: 0, to: upper * 100, count: 6), xTitle: xTitle)
        let x = frame.x
        var categories: [String] = []
        var bars: [Bar] = []
        var headings: [(text: String, y: Double)] = []
        var rowTop = top
        for group in groups {
            headings.append((group.name, rowTop + Self.groupHeadingHeight - 6))
            rowTop += Self.groupHeadingHeight
            for rate in group.rates {
                if !categories.contains(rate.label) { categories.append(rate.label) }
                let centre = rowTop + Self.rowHeight / 2
                let x0 = x(0), xe = x(rate.estimate * 100)
                bars.append(Bar(group: group.name, rate: rate, categoryIndex: categories.firstIndex(of: rate.label) ?? 0,
                                bar: (x0, centre - Self.barHeight / 2, xe - x0, Self.barHeight),
                                whisker: (x(rate.lower * 100), x(rate.upper * 100), centre),
                                valueText: valueText(rate)))
                rowTop += Self.rowHeight
            }
        }
        return Layout(frame: frame, bars: bars, headings: headings, valueColumnX: plot.right + Metrics.pad)
    }

    public func svgContent() -> String {
        let layout = layout()
        let plot = layout.frame.plot
        var svg = SVGWriter()
        layout.frame.drawGrid(&svg)
        for heading in layout.headings {
            svg.text(heading.text, x: Metrics.pad, y: heading.y, cssClass: "pc-axis-title")
        }
        for bar in layout.bars {
            svg.openGroup(cssClass: "pc-rate", label: "\(bar.group), \(bar.rate.label): \(bar.valueText)")
            svg.text(bar.rate.label, x: plot.left - Metrics.pad, y: bar.whisker.y, cssClass: "pc-tick-label", anchor: .end,
                     centredVertically: true)
            svg.rect(x: bar.bar.x, y: bar.bar.y, width: bar.bar.width, height: bar.bar.height,
                     cssClass: "pc-bar " + ChartTheme.seriesClass(bar.categoryIndex))
            let capHalf = Self.barHeight / 2 - 2
            svg.line(x1: bar.whisker.x1, y1: bar.whisker.y, x2: bar.whisker.x2, y2: bar.whisker.y, cssClass: "pc-whisker")
            svg.line(x1: bar.whisker.x1, y1: bar.whisker.y - capHalf, x2: bar.whisker.x1, y2: bar.whisker.y + capHalf,
                     cssClass: "pc-whisker")
            svg.line(x1: bar.whisker.x2, y1: bar.whisker.y - capHalf, x2: bar.whisker.x2, y2: bar.whisker.y + capHalf,
                     cssClass: "pc-whisker")
            svg.text(bar.valueText, x: layout.valueColumnX, y: bar.whisker.y, cssClass: "pc-note", centredVertically: true)
            svg.closeGroup()
        }
        if layout.bars.isEmpty {
            svg.text("No rates to show", x: plot.left + plot.width / 2, y: plot.top + plot.height / 2, cssClass: "pc-empty",
                     anchor: .middle)
        }
        layout.frame.drawAxes(&svg)
        return svg.markup
    }

    public var textAlternative: String {
        var parts = ["Bar chart of rates with \(intervalName) whiskers for \(groups.count) configurations."]
        for group in groups {
            parts.append("\(group.name): " + group.rates.map { "\($0.label) \(valueText($0))" }.joined(separator: "; ") + ".")
        }
        return parts.joined(separator: " ")
    }
}
