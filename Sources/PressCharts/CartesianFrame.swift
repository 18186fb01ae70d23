/// Two numeric axes around a plot area: scales, nice ticks, thinned labels, grid and titles.
struct CartesianFrame {
    let plot: PlotRect
    let x: LinearScale
    let y: LinearScale
    let xTicks: TickSet
    let yTicks: TickSet
    /// Every `xLabelStride`-th x tick is labelled (so labels never collide); likewise y.
    let xLabelStride: Int
    let yLabelStride: Int
    let xTitle: String
    let yTitle: String
}

extension CartesianFrame {
    /// Lays out the frame inside `size`, leaving `top`, `right` and `bottomExtra` (below the x
    /// axis title, e.g. for a legend) free. `xDomain`/`yDomain` are the data extents; the axes are
    /// widened to nice ticks.
    init(size: ChartSize, xDomain: (Double, Double), yDomain: (Double, Double), xTitle: String, yTitle: String,
         top: Double, right: Double, bottomExtra: Double, xTickCount: Int = 6, yTickCount: Int = 5) {
        xTicks = NiceTicks.ticks(from: xDomain.0, to: xDomain.1, count: xTickCount)
        yTicks = NiceTicks.ticks(from: yDomain.0, to: yDomain.1, count: yTickCount)
        let yLabelWidth = yTicks.labels.map { TextLayout.estimatedWidth($0, fontSize: Metrics.fontSize) }.max() ?? 0
        let left = Metrics.pad + Metrics.lineHeight + Metrics.pad + yLabelWidth + Metrics.tickLength + 3
        let bottom = Metrics.tickLength + 3 + Metrics.lineHeight + Metrics.pad + Metrics.lineHeight + Metrics.pad + bottomExtra
        plot = PlotRect(left: left, top: top, width: max(10, size.width - left - right),
                        height: max(10, size.height - top - bottom))
        x = LinearScale(domain: (xTicks.lower, xTicks.upper), range: (plot.left, plot.right))
        y = LinearScale(domain: (yTicks.lower, yTicks.upper), range: (plot.bottom, plot.top))
        let x = self.x, y = self.y
        xLabelStride = TextLayout.labelStride(
            positions: xTicks.values.map { x($0) },
            extents: xTicks.labels.map { TextLayout.estimatedWidth($0, fontSize: Metrics.fontSize) })
        yLabelStride = TextLayout.labelStride(
            positions: yTicks.values.map { y($0) },
            extents: yTicks.values.map { _ in Metrics.lineHeight })
        self.xTitle = xTitle
        self.yTitle = yTitle
    }
}

extension CartesianFrame {

    /// The y coordinate of the x axis's tick labels' baseline.
    var xLabelBaseline: Double { plot.bottom + Metrics.tickLength + 3 + Metrics.fontSize }
    /// The bottom edge of the x axis title.
    var xTitleBottom: Double { xLabelBaseline + Metrics.pad + Metrics.lineHeight }

    func drawGrid(_ svg: inout SVGWriter) {
        svg.openGroup(cssClass: "pc-gridlines")
        for value in yTicks.values {
            svg.line(x1: plot.left, y1: y(value), x2: plot.right, y2: y(value), cssClass: "pc-grid")
        }
        for value in xTicks.values {
            svg.line(x1: x(value), y1: plot.top, x2: x(value), y2: plot.bottom, cssClass: "pc-grid")
        }
        svg.closeGroup()
    }

    func drawAxes(_ svg: inout SVGWriter) {
        svg.openGroup(cssClass: "pc-axes")
        svg.line(x1: plot.left, y1: plot.bottom, x2: plot.right, y2: plot.bottom, cssClass: "pc-axis")
        svg.line(x1: plot.left, y1: plot.top, x2: plot.left, y2: plot.bottom, cssClass: "pc-axis")
        for (index, value) in xTicks.values.enumerated() {
            let px = x(value)
            svg.line(x1: px, y1: plot.bottom, x2: px, y2: plot.bottom + Metrics.tickLength, cssClass: "pc-tick")
            if index % xLabelStride == 0 {
                svg.text(xTicks.labels[index], x: px, y: xLabelBaseline, cssClass: "pc-tick-label", anchor: .middle)
            }
        }
        for (index, value) in yTicks.values.enumerated() {
            let py = y(value)
            svg.line(x1: plot.left - Metrics.tickLength, y1: py, x2: plot.left, y2: py, cssClass: "pc-tick")
            if index % yLabelStride == 0 {
                svg.text(yTicks.labels[index], x: plot.left - Metrics.tickLength - 3, y: py, cssClass: "pc-tick-label",
                         anchor: .end, centredVertically: true)
            }
        }
        svg.text(xTitle, x: plot.left + plot.width / 2, y: xTitleBottom - 4, cssClass: "pc-axis-title", anchor: .middle)
        let titleX = Metrics.pad + Metrics.titleFontSize
        svg.text(yTitle, x: titleX, y: plot.top + plot.height / 2, cssClass: "pc-axis-title", anchor: .middle, rotate: -90)
        svg.closeGroup()
    }
}
