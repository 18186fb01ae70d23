/// One metric over a grid of two parameters: a value per cell, the text shown in it, and which
/// way is better.
public struct HeatmapPanel: Sendable, Equatable {
    /// The panel's heading, e.g. "feedback_p90_ms (lower is better)".
    public var title: String
    /// `values[row][column]`; nil: no value (drawn hatched, labelled "–").
    public var values: [[Double?]]
    /// The text in each cell, parallel to `values`.
    public var labels: [[String]]
    public var lowerIsBetter: Bool

    public init(title: String, values: [[Double?]], labels: [[String]], lowerIsBetter: Bool) {
        self.title = title
        self.values = values
        self.labels = labels
        self.lowerIsBetter = lowerIsBetter
    }

    /// Per cell, its colour step: 0 for the panel's worst value … `HeatmapChart.levels` − 1 for
    /// its best (equal steps of the value between them; every step the middle one when all
    /// values are equal); nil without a value.
    public var levels: [[Int?]] {
        let present = values.flatMap { $0 }.compactMap { $0 }.filter(\.isFinite)
        guard let low = present.min(), let high = present.max() else { return values.map { $0.map { _ in nil } } }
        let top = HeatmapChart.levels - 1
        return values.map { row in
            row.map { v in
                guard let v, v.isFinite else { return nil }
                guard high > low else { return top / 2 }
                let goodness = lowerIsBetter ? (high - v) / (high - low) : (v - low) / (high - low)
                return min(top, Int(goodness * Double(HeatmapChart.levels)))
            }
        }
    }
}

/// Heatmaps of several metrics over the same grid of two parameters, one panel per metric, in
/// rows of `panelsPerRow`: rows of the grid are the first parameter's values (top to bottom),
/// columns the second's (left to right). Each panel has its own colour scale, lighter for better
/// (seven steps of viridis, van der Walt & Smith's perceptually uniform palette for matplotlib
/// 2.0, 2015, whose lightness rises monotonically, so colour order survives greyscale and
/// colour-vision deficiencies), and the value written in each cell when it fits. Outlined cells (the Pareto
/// frontier) are drawn with a heavy border in every panel, so they read without colour.
public struct HeatmapChart: Chart {
    public var title: String
    /// The grid's row labels (first parameter) and column labels (second parameter).
    public var rowLabels: [String]
    public var columnLabels: [String]
    /// The parameters' names: the rows' (drawn left of each panel) and the columns' (below).
    public var rowTitle: String
    public var columnTitle: String
    public var panels: [HeatmapPanel]
    /// `outlined[row][column]`: cells to outline in every panel.
    public var outlined: [[Bool]]
    public var panelsPerRow: Int
    public var width: Double

    /// The number of colour steps.
    public static let levels = 7
    /// A cell's height.
    static let rowHeight = 22.0

    public init(title: String, rowLabels: [String], columnLabels: [String], rowTitle: String, columnTitle: String,
                panels: [HeatmapPanel], outlined: [[Bool]], panelsPerRow: Int = 2, width: Double = ChartSize.standard.width) {
        self.title = title
        self.rowLabels = rowLabels
        self.columnLabels = columnLabels
        self.rowTitle = rowTitle
        self.columnTitle = columnTitle
        self.panels = panels
        self.outlined = outlined
        self.panelsPerRow = max(1, panelsPerRow)
        self.width = width
    }

    /// Every position the chart draws, in SVG user units.
    public struct Layout: Sendable {
        public struct Panel: Sendable {
            /// The cells' area.
            public var plot: PlotRect
            /// `cells[row][column]`.
            public var cells: [[PlotRect]]
            /// The heading's baseline.
            public var titleBaseline: Double
        }
        public var panels: [Panel]
        /// Whether the values fit in their cells (else only the colours are drawn).
        public var showsValues: Bool
        public var size: ChartSize
        /// The key's baseline, below the panels.
        public var keyBaseline: Double
    }

    public var size: ChartSize { layout().size }

    public func layout() -> Layout {
        let rowLabelWidth = rowLabels.map { TextLayout.estimatedWidth($0, fontSize: Metrics.fontSize) }.max() ?? 0
        let panelWidth = (width - Metrics.pad) / Double(panelsPerRow)
        let left = Metrics.pad + Metrics.lineHeight + Metrics.pad + rowLabelWidth + 4
        let cellWidth = max(4, (panelWidth - left - Metrics.pad * 2) / Double(max(1, columnLabels.count)))
        let plotHeight = Self.rowHeight * Double(rowLabels.count)
        let panelHeight = Metrics.lineHeight + 6 + plotHeight + 4 + Metrics.lineHeight + Metrics.pad + Metrics.lineHeight + Metrics.pad * 2
        let widest = panels.flatMap { $0.labels.flatMap { $0 } }.map { TextLayout.estimatedWidth($0, fontSize: Metrics.fontSize) }.max() ?? 0
        var out: [Layout.Panel] = []
        for (i, _) in panels.enumerated() {
            let originX = Double(i % panelsPerRow) * panelWidth
            let originY = Double(i / panelsPerRow) * panelHeight
            let titleBaseline = originY + Metrics.pad + Metrics.fontSize
            let plot = PlotRect(left: originX + left, top: titleBaseline + 8, width: cellWidth * Double(columnLabels.count), height: plotHeight)
            let cells = rowLabels.indices.map { r in
                columnLabels.indices.map { c in
                    PlotRect(left: plot.left + Double(c) * cellWidth, top: plot.top + Double(r) * Self.rowHeight,
                             width: cellWidth, height: Self.rowHeight)
                }
            }
            out.append(Layout.Panel(plot: plot, cells: cells, titleBaseline: titleBaseline))
        }
        let panelRows = (panels.count + panelsPerRow - 1) / panelsPerRow
        let keyBaseline = Double(panelRows) * panelHeight + Metrics.fontSize
        return Layout(panels: out, showsValues: widest + 6 <= cellWidth,
                      size: ChartSize(width: width, height: keyBaseline + Metrics.legendRowHeight + Metrics.pad * 2),
                      keyBaseline: keyBaseline)
    }

    public var textAlternative: String {
        var text = "Heatmaps over \(rowTitle) (rows: \(rowLabels.joined(separator: ", "))) and \(columnTitle) "
            + "(columns: \(columnLabels.joined(separator: ", "))), one per metric, lighter is better."
        let frontier = rowLabels.indices.flatMap { r in
            columnLabels.indices.compactMap { c in outlined[safe: r]?[safe: c] == true ? "(\(rowLabels[r]), \(columnLabels[c]))" : nil }
        }
        if !frontier.isEmpty { text += " Outlined, on the frontier: " + frontier.joined(separator: ", ") + "." }
        for p in panels {
            let cells = rowLabels.indices.map { r in
                "\(rowLabels[r]): " + columnLabels.indices.map { c in p.labels[safe: r]?[safe: c] ?? "–" }.joined(separator: ", ")
            }
            text += " \(p.title): " + cells.joined(separator: "; ") + "."
        }
        return text
    }

    public func svgContent() -> String {
        let layout = layout()
        var svg = SVGWriter()
        for (index, panel) in panels.enumerated() {
            let place = layout.panels[index], plot = place.plot
            let levels = panel.levels
            svg.openGroup(cssClass: "pc-heat-panel", label: panel.title)
            svg.text(panel.title, x: plot.left, y: place.titleBaseline, cssClass: "pc-axis-title")
            for r in rowLabels.indices {
                for c in columnLabels.indices {
                    let cell = place.cells[r][c]
                    let level = levels[safe: r]?[safe: c] ?? nil
                    svg.rect(x: cell.left, y: cell.top, width: cell.width, height: cell.height,
                             cssClass: level.map { "pc-heat pc-heat\($0)" } ?? "pc-heat pc-heat-none")
                    if layout.showsValues, let label = panel.labels[safe: r]?[safe: c] {
                        let dark = (level ?? 0) >= 4
                        svg.text(label, x: cell.left + cell.width / 2, y: cell.top + cell.height / 2,
                                 cssClass: dark ? "pc-heat-label pc-heat-on-light" : "pc-heat-label pc-heat-on-dark",
                                 anchor: .middle, centredVertically: true)
                    }
                }
            }
            for r in rowLabels.indices {
                for c in columnLabels.indices where outlined[safe: r]?[safe: c] == true {
                    let cell = place.cells[r][c]
                    svg.rect(x: cell.left + 1.5, y: cell.top + 1.5, width: cell.width - 3, height: cell.height - 3,
                             cssClass: "pc-heat-frontier")
                }
            }
            for (r, label) in rowLabels.enumerated() {
                svg.text(label, x: plot.left - 4, y: place.cells[r][0].top + Self.rowHeight / 2, cssClass: "pc-tick-label",
                         anchor: .end, centredVertically: true)
            }
            for (c, label) in columnLabels.enumerated() where layout.showsValues || c % max(1, columnLabels.count / 6) == 0 {
                let cell = place.cells[0][c]
                svg.text(label, x: cell.left + cell.width / 2, y: plot.bottom + 4 + Metrics.fontSize, cssClass: "pc-tick-label",
                         anchor: .middle)
            }
            svg.text(columnTitle, x: plot.left + plot.width / 2, y: plot.bottom + 4 + Metrics.lineHeight + Metrics.pad + Metrics.fontSize,
                     cssClass: "pc-note", anchor: .middle)
            svg.text(rowTitle, x: plot.left - 4 - (rowLabels.map { TextLayout.estimatedWidth($0, fontSize: Metrics.fontSize) }.max() ?? 0)
                        - Metrics.pad - 4, y: plot.top + plot.height / 2, cssClass: "pc-note", anchor: .middle, rotate: -90)
            svg.closeGroup()
        }
        // The key: the palette from worst to best, and the outline.
        var x = Metrics.pad
        let y = layout.keyBaseline
        svg.openGroup(cssClass: "pc-legend")
        svg.text("worse", x: x, y: y, cssClass: "pc-legend-text", centredVertically: true)
        x += TextLayout.estimatedWidth("worse", fontSize: Metrics.fontSize) + 6
        for level in 0..<Self.levels {
            svg.rect(x: x, y: y - 7, width: 18, height: 14, cssClass: "pc-heat pc-heat\(level)")
            x += 18
        }
        svg.text("better (each panel from its worst to its best value)", x: x + 6, y: y, cssClass: "pc-legend-text",
                 centredVertically: true)
        // The outline's key on a second row.
        x = Metrics.pad
        let y2 = y + Metrics.legendRowHeight
        svg.rect(x: x, y: y2 - 7, width: 24, height: 14, cssClass: "pc-heat pc-heat-none")
        svg.rect(x: x + 1.5, y: y2 - 5.5, width: 21, height: 11, cssClass: "pc-heat-frontier")
        svg.text("outlined: on the Pareto frontier of all the objectives together", x: x + 30, y: y2, cssClass: "pc-legend-text",
                 centredVertically: true)
        svg.closeGroup()
        return svg.markup
    }
}

extension Array {
    /// The element at `i`, or nil outside the array.
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
