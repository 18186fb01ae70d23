/// Text legends drawn below a plot: one row per series with a line sample in the series' style
/// and its name and key numbers as text (so the legend reads without colour).
enum Legend {
    /// The height the legend needs for `rows` entries.
    static func height(rows: Int) -> Double { Double(rows) * Metrics.legendRowHeight }

    /// Draws `entries` (series index, text) from `top`, starting at `left`; a text wider than
    /// `maxWidth` (estimated) is cut with "…" (the chart's `<desc>` keeps the full text).
    static func draw(_ svg: inout SVGWriter, entries: [(series: Int, text: String)], left: Double, top: Double, maxWidth: Double) {
        svg.openGroup(cssClass: "pc-legend")
        for (row, entry) in entries.enumerated() {
            let midY = top + Double(row) * Metrics.legendRowHeight + Metrics.legendRowHeight / 2
            svg.line(x1: left, y1: midY, x2: left + 28, y2: midY, cssClass: "pc-line " + ChartTheme.seriesClass(entry.series))
            svg.text(fitted(entry.text, width: maxWidth - 36), x: left + 36, y: midY, cssClass: "pc-legend-text", centredVertically: true)
        }
        svg.closeGroup()
    }

    /// `text`, or its start followed by "…", so its estimated width is at most `width`.
    static func fitted(_ text: String, width: Double) -> String {
        let perCharacter = TextLayout.averageCharacterWidth * Metrics.fontSize
        let fits = max(1, Int(width / perCharacter))
        return text.count <= fits ? text : String(text.prefix(fits - 1)) + "\u{2026}"
    }
}

/// Marker shapes (centred at a point), so markers differ by shape as well as colour.
enum Shapes {
    static func diamond(at point: Point, radius r: Double) -> [Point] {
        [Point(x: point.x, y: point.y - r), Point(x: point.x + r, y: point.y),
         Point(x: point.x, y: point.y + r), Point(x: point.x - r, y: point.y)]
    }

    static func square(at point: Point, radius r: Double) -> [Point] {
        [Point(x: point.x - r, y: point.y - r), Point(x: point.x + r, y: point.y - r),
         Point(x: point.x + r, y: point.y + r), Point(x: point.x - r, y: point.y + r)]
    }
}
