/// Text legends drawn below a plot: one row per series with a line sample in the series' style
/// and its name and key numbers as text (so the legend reads without colour).
enum Legend {
    /// The height the legend needs for `rows` one-line entries.
    static func height(rows: Int) -> Double { Double(rows) * Metrics.legendRowHeight }

    /// The height the legend needs for `texts` drawn `maxWidth` wide (long ones take two lines or
    /// more, see `lines`).
    static func height(_ texts: [String], maxWidth: Double) -> Double {
        Double(texts.reduce(0) { $0 + lines($1, width: maxWidth - textIndent).count }) * Metrics.legendRowHeight
    }

    /// Where an entry's text starts, right of its line sample.
    static let textIndent = 36.0

    /// Draws `entries` (series index, text) from `top`, starting at `left`, each text in lines of
    /// at most `maxWidth` (estimated; `lines`), the series' line sample beside its first line.
    static func draw(_ svg: inout SVGWriter, entries: [(series: Int, text: String)], left: Double, top: Double, maxWidth: Double) {
        svg.openGroup(cssClass: "pc-legend")
        var row = 0
        for entry in entries {
            let midY = top + Double(row) * Metrics.legendRowHeight + Metrics.legendRowHeight / 2
            svg.line(x1: left, y1: midY, x2: left + 28, y2: midY, cssClass: "pc-line " + ChartTheme.seriesClass(entry.series))
            for line in lines(entry.text, width: maxWidth - textIndent) {
                let y = top + Double(row) * Metrics.legendRowHeight + Metrics.legendRowHeight / 2
                svg.text(line, x: left + textIndent, y: y, cssClass: "pc-legend-text", centredVertically: true)
                row += 1
            }
        }
        svg.closeGroup()
    }

    /// `text` in lines whose estimated width is at most `width`, broken after ", " (the parts of a
    /// summary: "n = 919, p50 183.3 ms, …"); a part longer than a line is cut with "…" (the
    /// chart's `<desc>` keeps the full text).
    static func lines(_ text: String, width: Double) -> [String] {
        let parts = text.split(separator: ", ", omittingEmptySubsequences: false).map(String.init)
        var out: [String] = []
        var line = ""
        for (i, part) in parts.enumerated() {
            let piece = part + (i < parts.count - 1 ? "," : "")
            let candidate = line.isEmpty ? piece : line + " " + piece
            if line.isEmpty || fitted(candidate, width: width) == candidate {
                line = candidate
            } else {
                out.append(fitted(line, width: width))
                line = piece
            }
        }
        out.append(fitted(line, width: width))
        return out
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
