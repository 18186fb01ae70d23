/// A numeric axis along the bottom or the left of a plot: the scale from data to pixels, its nice
/// ticks, which of them are labelled, and its title. Calling it maps a data value to a pixel.
public struct Axis: Sendable {
    /// The plot edge the axis runs along: the bottom (x) or the left (y).
    public enum Edge: Sendable { case bottom, left }

    public let edge: Edge
    /// Data value → pixel (x for the bottom axis, y for the left one).
    public let scale: LinearScale
    public let ticks: TickSet
    /// Every `labelStride`-th tick is labelled, so labels never collide.
    public let labelStride: Int
    public let title: String

    /// The axis over `ticks` along `edge` of `plot`: the bottom axis runs left to right, the left
    /// axis bottom to top. Tick labels are thinned by their estimated widths (bottom) or the line
    /// height (left).
    init(_ edge: Edge, ticks: TickSet, plot: PlotRect, title: String) {
        self.edge = edge
        self.ticks = ticks
        self.title = title
        switch edge {
        case .bottom:
            let scale = LinearScale(domain: (ticks.lower, ticks.upper), range: (plot.left, plot.right))
            self.scale = scale
            labelStride = TextLayout.labelStride(
                positions: ticks.values.map { scale($0) },
                extents: ticks.labels.map { TextLayout.estimatedWidth($0, fontSize: Metrics.fontSize) })
        case .left:
            let scale = LinearScale(domain: (ticks.lower, ticks.upper), range: (plot.bottom, plot.top))
            self.scale = scale
            labelStride = TextLayout.labelStride(positions: ticks.values.map { scale($0) },
                                                 extents: ticks.values.map { _ in Metrics.lineHeight })
        }
    }

    /// The pixel of a data value.
    public func callAsFunction(_ value: Double) -> Double { scale(value) }

    /// The y coordinate of a bottom axis's tick labels' baseline.
    static func labelBaseline(_ plot: PlotRect) -> Double { plot.bottom + Metrics.tickLength + 3 + Metrics.fontSize }
    /// The bottom edge of a bottom axis's title.
    static func titleBottom(_ plot: PlotRect) -> Double { labelBaseline(plot) + Metrics.pad + Metrics.lineHeight }
    /// The height a bottom axis takes below the plot: ticks, labels and title with their gaps.
    static let bottomHeight = Metrics.tickLength + 3 + Metrics.lineHeight + Metrics.pad + Metrics.lineHeight + Metrics.pad

    /// Grid lines across `plot` at every tick.
    func drawGridLines(_ svg: inout SVGWriter, _ plot: PlotRect) {
        for value in ticks.values {
            let p = scale(value)
            switch edge {
            case .bottom: svg.line(x1: p, y1: plot.top, x2: p, y2: plot.bottom, cssClass: "pc-grid")
            case .left: svg.line(x1: plot.left, y1: p, x2: plot.right, y2: p, cssClass: "pc-grid")
            }
        }
    }

    /// The axis line along its edge.
    func drawLine(_ svg: inout SVGWriter, _ plot: PlotRect) {
        switch edge {
        case .bottom: svg.line(x1: plot.left, y1: plot.bottom, x2: plot.right, y2: plot.bottom, cssClass: "pc-axis")
        case .left: svg.line(x1: plot.left, y1: plot.top, x2: plot.left, y2: plot.bottom, cssClass: "pc-axis")
        }
    }

    /// Tick marks outside the plot, with every `labelStride`-th label.
    func drawTicks(_ svg: inout SVGWriter, _ plot: PlotRect) {
        for (index, value) in ticks.values.enumerated() {
            let p = scale(value)
            let labelled = index % labelStride == 0
            switch edge {
            case .bottom:
                svg.line(x1: p, y1: plot.bottom, x2: p, y2: plot.bottom + Metrics.tickLength, cssClass: "pc-tick")
                if labelled {
                    svg.text(ticks.labels[index], x: p, y: Self.labelBaseline(plot), cssClass: "pc-tick-label", anchor: .middle)
                }
            case .left:
                svg.line(x1: plot.left - Metrics.tickLength, y1: p, x2: plot.left, y2: p, cssClass: "pc-tick")
                if labelled {
                    svg.text(ticks.labels[index], x: plot.left - Metrics.tickLength - 3, y: p, cssClass: "pc-tick-label",
                             anchor: .end, centredVertically: true)
                }
            }
        }
    }

    /// The title, centred along the axis (the left one rotated to read upwards).
    func drawTitle(_ svg: inout SVGWriter, _ plot: PlotRect) {
        switch edge {
        case .bottom:
            svg.text(title, x: plot.left + plot.width / 2, y: Self.titleBottom(plot) - 4, cssClass: "pc-axis-title", anchor: .middle)
        case .left:
            svg.text(title, x: Metrics.pad + Metrics.titleFontSize, y: plot.top + plot.height / 2, cssClass: "pc-axis-title",
                     anchor: .middle, rotate: -90)
        }
    }
}

/// Two numeric axes around a plot area (ECDFChart, ScaleTimelineChart): the layout every such
/// chart's `Layout` carries, and the grid and axes it draws.
public struct CartesianFrame: Frame, Sendable {
    public let plot: PlotRect
    /// The bottom axis.
    public let x: Axis
    /// The left axis.
    public let y: Axis

    /// Lays out the frame inside `size`, leaving `top`, `right` and `bottomExtra` (below the x
    /// axis title, e.g. for a legend) free. `xDomain`/`yDomain` are the data extents; the axes are
    /// widened to nice ticks, and the left margin fits the widest y label.
    init(size: ChartSize, xDomain: (Double, Double), yDomain: (Double, Double), xTitle: String, yTitle: String,
         top: Double, right: Double, bottomExtra: Double, xTickCount: Int = 6, yTickCount: Int = 5) {
        let xTicks = NiceTicks.ticks(from: xDomain.0, to: xDomain.1, count: xTickCount)
        let yTicks = NiceTicks.ticks(from: yDomain.0, to: yDomain.1, count: yTickCount)
        let yLabelWidth = yTicks.labels.map { TextLayout.estimatedWidth($0, fontSize: Metrics.fontSize) }.max() ?? 0
        let left = Metrics.pad + Metrics.lineHeight + Metrics.pad + yLabelWidth + Metrics.tickLength + 3
        let bottom = Axis.bottomHeight + bottomExtra
        plot = PlotRect(left: left, top: top, width: max(10, size.width - left - right),
                        height: max(10, size.height - top - bottom))
        x = Axis(.bottom, ticks: xTicks, plot: plot, title: xTitle)
        y = Axis(.left, ticks: yTicks, plot: plot, title: yTitle)
    }

    /// The bottom edge of the x axis title (a legend goes below).
    var xTitleBottom: Double { Axis.titleBottom(plot) }

    var axes: [Axis] { [x, y] }
}

/// A plot area of category rows over one numeric x axis (ForestPlot, RateIntervalChart): the
/// rows are the chart's own, the grid and the axis are drawn here.
public struct RowFrame: Frame, Sendable {
    public let plot: PlotRect
    /// The bottom axis.
    public let x: Axis

    init(plot: PlotRect, xTicks: TickSet, xTitle: String) {
        self.plot = plot
        x = Axis(.bottom, ticks: xTicks, plot: plot, title: xTitle)
    }

    var axes: [Axis] { [x] }
}

/// A plot area with its axes, which draw the grid and themselves the same for every chart.
protocol Frame {
    var plot: PlotRect { get }
    /// The bottom axis first.
    var axes: [Axis] { get }
}

extension Frame {
    /// The grid lines of every axis (the bottom axis's vertical lines last, over the others).
    func drawGrid(_ svg: inout SVGWriter) {
        svg.openGroup(cssClass: "pc-gridlines")
        for axis in axes.reversed() { axis.drawGridLines(&svg, plot) }
        svg.closeGroup()
    }

    /// The axis lines, then every axis's ticks and labels, then the titles.
    func drawAxes(_ svg: inout SVGWriter) {
        svg.openGroup(cssClass: "pc-axes")
        for axis in axes { axis.drawLine(&svg, plot) }
        for axis in axes { axis.drawTicks(&svg, plot) }
        for axis in axes { axis.drawTitle(&svg, plot) }
        svg.closeGroup()
    }
}
