/// A table of already-formatted cells with a caption; numeric columns are right-aligned with
/// tabular figures so digits line up, and their cells never wrap (a line break in one, "\n",
/// starts its second line: a value over its interval).
public struct DataTable: Sendable, Equatable {
    public struct Column: Sendable, Equatable {
        public var title: String
        public var numeric: Bool
        /// A text column (left-aligned).
        public static func text(_ title: String) -> Column { Column(title: title, numeric: false) }
        /// A number column (right-aligned).
        public static func numeric(_ title: String) -> Column { Column(title: title, numeric: true) }
    }

    public var caption: String
    public var columns: [Column]
    /// Rows of cell texts, one per column (missing cells render empty, extra cells are dropped).
    public var rows: [[String]]
    /// When true the first cell of each row is a row header (`<th scope="row">`).
    public var firstColumnIsHeader: Bool

    public init(caption: String, columns: [Column], rows: [[String]], firstColumnIsHeader: Bool = true) {
        self.caption = caption
        self.columns = columns
        self.rows = rows
        self.firstColumnIsHeader = firstColumnIsHeader
    }
}

/// One self-contained HTML report: inline CSS and SVG only — no JavaScript, no external fonts,
/// images, style sheets or other fetches. Every text given is HTML-escaped; the markup is also
/// well-formed XML (void elements self-closed), so it can be checked with an XML parser.
/// Light and dark colours follow `prefers-color-scheme`; `@media print` prints on white without
/// page breaks inside figures and tables.
///
///     var page = HTMLPage(title: "pressdb report")
///     page.heading("Feedback latency")
///     page.banner("Only 12 sessions for config B.", kind: .warning)
///     page.figure(ECDFChart(title: "Feedback latency", series: series), caption: "…")
///     let html = page.render()
public struct HTMLPage: Sendable {
    public enum BannerKind: String, Sendable {
        /// A health check failed (sample ratio mismatch, low counts): results may mislead.
        case warning
        /// Context worth knowing.
        case info
    }

    public var title: String
    /// The page's language (`<html lang>`), "en" by default.
    public var language: String
    private var body: [String] = []
    private var figureCount = 0

    public init(title: String, language: String = "en") {
        self.title = title
        self.language = language
    }

    /// A section heading, `<h2>` by default; `level` is clamped to 2…6 (the page title is `<h1>`).
    public mutating func heading(_ text: String, level: Int = 2) {
        let level = min(max(level, 2), 6)
        body.append("<h\(level)>\(Markup.escape(text))</h\(level)>")
    }

    public mutating func paragraph(_ text: String) {
        body.append("<p>\(Markup.escape(text))</p>")
    }

    /// A definition list (`<dl>`): each term (`<dt>`) followed by its description (`<dd>`), e.g.
    /// what each table column means, or the filters a report used.
    public mutating func definitionList(_ items: [(term: String, description: String)]) {
        guard !items.isEmpty else { return }
        let rows = items.map { "<dt>\(Markup.escape($0.term))</dt><dd>\(Markup.escape($0.description))</dd>" }
        body.append("<dl>\n" + rows.joined(separator: "\n") + "\n</dl>")
    }

    /// A bulleted list (`<ul>`) of plain-text items.
    public mutating func list(_ items: [String]) {
        guard !items.isEmpty else { return }
        body.append("<ul>\n" + items.map { "<li>\(Markup.escape($0))</li>" }.joined(separator: "\n") + "\n</ul>")
    }

    /// A highlighted notice (health checks: sample ratio mismatch, low counts), prefixed with
    /// "Warning:" or "Note:" in words so it does not rely on colour; `role="note"` (not "alert":
    /// a static report should be read in order, not interrupt).
    public mutating func banner(_ text: String, kind: BannerKind = .warning) {
        let prefix = kind == .warning ? "Warning:" : "Note:"
        body.append("<div class=\"banner banner-\(kind.rawValue)\" role=\"note\"><strong>\(prefix)</strong> \(Markup.escape(text))</div>")
    }

    public mutating func table(_ table: DataTable) {
        var html = "<div class=\"table-wrap\"><table>\n<caption>\(Markup.escape(table.caption))</caption>\n<thead><tr>"
        for column in table.columns {
            html += "<th scope=\"col\"\(column.numeric ? " class=\"num\"" : "")>\(Markup.escape(column.title))</th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        for row in table.rows {
            html += "<tr>"
            for (index, column) in table.columns.enumerated() {
                let cell = index < row.count ? Markup.escape(row[index]) : ""
                let cls = column.numeric ? " class=\"num\"" : ""
                if index == 0 && table.firstColumnIsHeader {
                    html += "<th scope=\"row\"\(cls)>\(cell)</th>"
                } else {
                    html += "<td\(cls)>\(cell)</td>"
                }
            }
            html += "</tr>\n"
        }
        html += "</tbody>\n</table></div>"
        body.append(html)
    }

    /// A chart in a `<figure>`: its title shown above it (what it shows, and of which
    /// configuration), then the drawing and a `<figcaption>`; its SVG ids are unique within the page.
    public mutating func figure(_ chart: some Chart, caption: String) {
        figureCount += 1
        appendFigure(svg: chart.svg(id: "figure-\(figureCount)"), title: chart.title, caption: caption)
    }

    /// Figures meant to be compared side by side (e.g. one chart per configuration on shared
    /// axes): in columns as wide as the window allows, one under another on a narrow screen.
    public mutating func figureGrid(_ content: (inout HTMLPage) throws -> Void) rethrows {
        body.append("<div class=\"figure-grid\">")
        try content(&self)
        body.append("</div>")
    }

    /// Trusted SVG markup (not escaped) in a `<figure>` with an escaped title and `<figcaption>`.
    public mutating func figure(svg: String, title: String? = nil, caption: String) {
        figureCount += 1
        appendFigure(svg: svg, title: title, caption: caption)
    }

    private mutating func appendFigure(svg: String, title: String?, caption: String) {
        // The title is drawn for the eye; the SVG's own <title> names it for screen readers.
        let heading = title.map { "<p class=\"figure-title\" aria-hidden=\"true\">\(Markup.escape($0))</p>\n" } ?? ""
        body.append("<figure>\n\(heading)\(svg)\n<figcaption>\(Markup.escape(caption))</figcaption>\n</figure>")
    }

    /// The page's style sheet: `ChartTheme.chartCSS` plus the page's own rules.
    public static let css = ChartTheme.chartCSS + "\n" + """
    html { background: var(--pc-bg); color: var(--pc-fg); }
    body { font-family: \(ChartTheme.fontStack); line-height: 1.5; max-width: 80rem; margin: 0 auto; padding: 1.5rem; }
    main > :not(.table-wrap):not(.figure-grid) { max-width: 62rem; }
    .figure-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 36rem), 1fr)); gap: 0 2rem; }
    .figure-grid > figure { min-width: 0; }
    .figure-title { font-weight: 600; margin: 0 0 0.4rem; }
    h1, h2, h3 { line-height: 1.25; }
    figure { margin: 1.5rem 0; break-inside: avoid; page-break-inside: avoid; }
    figcaption { color: var(--pc-muted); font-size: 0.95rem; margin-top: 0.4rem; }
    svg.pc-chart { display: block; width: 100%; height: auto; }
    .table-wrap { overflow-x: auto; }
    table { border-collapse: collapse; margin: 1rem 0; font-variant-numeric: tabular-nums; break-inside: avoid; font-size: 0.95rem; }
    caption { text-align: left; font-weight: 600; padding-bottom: 0.4rem; }
    th, td { border-bottom: 1px solid var(--pc-grid); padding: 0.3rem 0.7rem; text-align: left; vertical-align: top; }
    thead th { border-bottom: 2px solid var(--pc-axis); }
    .num { text-align: right; }
    td.num { white-space: pre; }
    dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 1rem 0; }
    dt { font-weight: 600; font-variant-numeric: tabular-nums; }
    dd { margin: 0; }
    @media (max-width: 40rem) { dl { grid-template-columns: 1fr; } dd { margin-left: 1rem; } }
    @media (max-width: 40rem) { figure { overflow-x: auto; } svg.pc-chart { min-width: 34rem; } }
    .banner { border-left: 0.35rem solid var(--pc-threshold); background: var(--pc-band); padding: 0.6rem 0.9rem; margin: 1rem 0; }
    .banner-warning { border-left-color: var(--pc-worse); }
    @media print {
      body { max-width: none; padding: 0; }
      .banner { border: 1px solid var(--pc-fg); }
      .table-wrap { overflow: visible; }
    }
    """

    /// The complete document.
    public func render() -> String {
        """
        <!DOCTYPE html>
        <html lang="\(Markup.escape(language))">
        <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <meta name="color-scheme" content="light dark"/>
        <title>\(Markup.escape(title))</title>
        <style>
        \(Self.css)
        </style>
        </head>
        <body>
        <main>
        <h1>\(Markup.escape(title))</h1>
        \(body.joined(separator: "\n"))
        </main>
        </body>
        </html>

        """
    }
}
