/// A chart that can draw itself as SVG with a text alternative.
///
/// Conformers compute their geometry in a `layout()` method (testable without SVG) and draw it
/// in `svgContent()`. The extension wraps that in an accessible root element.
public protocol Chart: Sendable {
    /// A short name, used as the SVG's `<title>` (also shown by browsers as a tooltip).
    var title: String { get }
    /// The text alternative in `<desc>`: what the chart shows, stating its key numbers.
    var textAlternative: String { get }
    /// The drawing's size in SVG user units (its viewBox); it scales to the container's width.
    var size: ChartSize { get }
    /// The SVG elements of the drawing, without the root `<svg>`; elements carry classes only,
    /// styled by `ChartTheme.chartCSS`.
    func svgContent() -> String
}

extension Chart {
    /// The chart as an inline `<svg>` element for an HTML page whose CSS includes
    /// `ChartTheme.chartCSS` (as `HTMLPage` does): `role="img"`, `<title>` and `<desc>` referenced
    /// by `aria-labelledby`, a viewBox and `width="100%"` so it scales with the page and zoom.
    /// `id` (made a valid identifier) must be unique in the page; it prefixes the title/desc ids.
    public func svg(id: String) -> String {
        rootElement(id: Markup.identifier(id), namespace: false, style: nil)
    }

    /// The chart as a standalone SVG file (`pressdb spring --format svg`): XML declaration,
    /// SVG namespace and the theme's style sheet embedded, so it renders alone in a browser,
    /// follows the reader's light/dark preference and prints.
    public func standaloneSVG(id: String = "chart") -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + rootElement(id: Markup.identifier(id), namespace: true, style: ChartTheme.chartCSS) + "\n"
    }

    private func rootElement(id: String, namespace: Bool, style: String?) -> String {
        let xmlns = namespace ? " xmlns=\"http://www.w3.org/2000/svg\"" : ""
        var out = "<svg\(xmlns) class=\"pc-chart\" id=\"\(id)\" viewBox=\"0 0 \(Markup.number(size.width)) \(Markup.number(size.height))\""
        out += " width=\"100%\" preserveAspectRatio=\"xMidYMid meet\" role=\"img\" aria-labelledby=\"\(id)-title \(id)-desc\">\n"
        out += "<title id=\"\(id)-title\">\(Markup.escape(title))</title>\n"
        out += "<desc id=\"\(id)-desc\">\(Markup.escape(textAlternative))</desc>\n"
        if let style { out += "<style>\n\(style)\n</style>\n" }
        out += svgContent()
        out += "\n</svg>"
        return out
    }
}

/// A drawing's size in SVG user units (pixels at 100 % zoom before scaling to the page).
public struct ChartSize: Sendable, Equatable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    /// 720 × 400, a comfortable width for a report column.
    public static let standard = ChartSize(width: 720, height: 400)
}

/// The plotting area inside a chart's margins, in SVG user units.
public struct PlotRect: Sendable, Equatable {
    public var left: Double
    public var top: Double
    public var width: Double
    public var height: Double
    public var right: Double { left + width }
    public var bottom: Double { top + height }
}

/// Font sizes and spacings shared by the charts (pixels), matching `ChartTheme.chartCSS`.
enum Metrics {
    static let fontSize = 12.0
    static let titleFontSize = 13.0
    static let lineHeight = 16.0
    static let tickLength = 5.0
    static let pad = 8.0
    static let legendRowHeight = 18.0
}
