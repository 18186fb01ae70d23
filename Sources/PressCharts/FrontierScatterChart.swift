/// One point of a frontier scatter: two objectives' values and its role.
public struct FrontierPoint: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// On the Pareto frontier: a filled circle, labelled.
        case frontier
        /// Dominated by another point: a hollow circle.
        case dominated
        /// The starting configuration: a square, labelled.
        case base
    }
    /// The point's label, e.g. "7" or "base".
    public var label: String
    public var x: Double
    public var y: Double
    public var kind: Kind

    public init(label: String, x: Double, y: Double, kind: Kind) {
        self.label = label
        self.x = x
        self.y = y
        self.kind = kind
    }
}

/// The points of a sweep on two of its objectives: frontier points filled and labelled,
/// dominated ones hollow, the base a square — shapes, not only colours, tell them apart. With
/// more than two objectives a frontier point may look dominated here: it is better on another
/// objective.
public struct FrontierScatterChart: Chart {
    public var title: String
    public var points: [FrontierPoint]
    /// Axis titles with units, and which way each is better (said in the title).
    public var xTitle: String
    public var yTitle: String
    /// Points left out because a value is missing, said in the text alternative.
    public var missing: Int
    public var size: ChartSize

    public init(title: String, points: [FrontierPoint], xTitle: String, yTitle: String, missing: Int = 0,
                size: ChartSize = ChartSize(width: ChartSize.standard.width, height: 340)) {
        self.title = title
        self.points = points
        self.xTitle = xTitle
        self.yTitle = yTitle
        self.missing = missing
        self.size = size
    }

    /// Every position the chart draws, in SVG user units.
    public struct Layout: Sendable {
        public var frame: CartesianFrame
        /// Per point, its centre.
        public var centres: [Point]
        /// The labels of the frontier points and the base: points drawn at one place share one
        /// ("16, 19"); each placed where it covers no other label, no mark and stays in the plot.
        var labels: [PlacedLabel]
    }

    /// A label's text, its anchor point and alignment, and the box it covers.
    struct PlacedLabel: Sendable, Equatable {
        public var text: String
        public var x: Double
        public var y: Double
        var anchor: SVGWriter.Anchor
        public var box: Box
    }

    /// An axis-aligned rectangle in SVG user units.
    struct Box: Sendable, Equatable {
        public var left, top, right, bottom: Double
        func overlap(_ o: Box) -> Double {
            max(0, min(right, o.right) - max(left, o.left)) * max(0, min(bottom, o.bottom) - max(top, o.top))
        }
    }

    /// Beside the mark first (right, left), then above and below, then diagonally and further out.
    static let labelOffsets: [(dx: Double, dy: Double, anchor: SVGWriter.Anchor)] = [
        (8, 0, .start), (-8, 0, .end), (0, -14, .middle), (0, 14, .middle),
        (8, -14, .start), (8, 14, .start), (-8, -14, .end), (-8, 14, .end), (0, -28, .middle), (0, 28, .middle),
    ]

    static func labels(centres: [Point], points: [FrontierPoint], plot: PlotRect) -> [PlacedLabel] {
        var places: [(centre: Point, labels: [String])] = []
        for i in points.indices where points[i].kind != .dominated {
            let c = centres[i]
            if let k = places.firstIndex(where: { abs($0.centre.x - c.x) < 0.5 && abs($0.centre.y - c.y) < 0.5 }) {
                places[k].labels.append(points[i].label)
            } else {
                places.append((c, [points[i].label]))
            }
        }
        let marks = centres.map { Box(left: $0.x - 5, top: $0.y - 5, right: $0.x + 5, bottom: $0.y + 5) }
        let height = Metrics.fontSize + 2
        var placed: [PlacedLabel] = []
        for place in places {
            let text = place.labels.joined(separator: ", "), c = place.centre
            let width = TextLayout.estimatedWidth(text, fontSize: Metrics.fontSize)
            let candidates = labelOffsets.map { o -> PlacedLabel in
                let x = c.x + o.dx, y = c.y + o.dy
                let left = o.anchor == .start ? x : o.anchor == .end ? x - width : x - width / 2
                return PlacedLabel(text: text, x: x, y: y, anchor: o.anchor,
                                   box: Box(left: left, top: y - height / 2, right: left + width, bottom: y + height / 2))
            }
            func cost(_ l: PlacedLabel) -> Double {
                let b = l.box
                let outside = b.left < plot.left || b.right > plot.right || b.top < plot.top - Metrics.pad || b.bottom > plot.bottom
                return (outside ? 1e9 : 0) + placed.reduce(0) { $0 + $1.box.overlap(b) } + marks.reduce(0) { $0 + $1.overlap(b) }
            }
            // The first candidate that covers nothing, else the one covering least.
            placed.append(candidates.first { cost($0) == 0 } ?? candidates.min { cost($0) < cost($1) }!)
        }
        return placed
    }

    public func layout() -> Layout {
        let xs = points.map(\.x).filter(\.isFinite), ys = points.map(\.y).filter(\.isFinite)
        func domain(_ v: [Double]) -> (Double, Double) {
            guard let low = v.min(), let high = v.max() else { return (0, 1) }
            if high > low { return (low, high) }
            let pad = low == 0 ? 1 : abs(low) * 0.1
            return (low - pad, high + pad)
        }
        let frame = CartesianFrame(size: size, xDomain: domain(xs), yDomain: domain(ys), xTitle: xTitle, yTitle: yTitle,
                                   top: Metrics.pad * 2, right: Metrics.pad * 3, bottomExtra: Legend.height(rows: 1))
        let centres = points.map { Point(x: frame.x($0.x), y: frame.y($0.y)) }
        return Layout(frame: frame, centres: centres, labels: Self.labels(centres: centres, points: points, plot: frame.plot))
    }

    public var textAlternative: String {
        let frontier = points.filter { $0.kind == .frontier }
        var text = "\(points.count) points on \(xTitle) and \(yTitle); \(frontier.count) on the frontier: "
            + frontier.map { "\($0.label) (\(NumberText.compact($0.x, maxDigits: 3)), \(NumberText.compact($0.y, maxDigits: 3)))" }
                .joined(separator: ", ")
        if let base = points.first(where: { $0.kind == .base }) {
            text += "; base (\(NumberText.compact(base.x, maxDigits: 3)), \(NumberText.compact(base.y, maxDigits: 3)))"
        }
        if missing > 0 { text += "; \(missing) without a value left out" }
        return text + "."
    }

    public func svgContent() -> String {
        let layout = layout()
        let frame = layout.frame, plot = frame.plot
        var svg = SVGWriter()
        frame.drawGrid(&svg)
        frame.drawAxes(&svg)
        // Dominated points first, so the frontier and the base are drawn over them.
        let order = points.indices.sorted { (points[$0].kind == .dominated ? 0 : 1) < (points[$1].kind == .dominated ? 0 : 1) }
        svg.openGroup(cssClass: "pc-series")
        for i in order {
            let p = points[i], c = layout.centres[i]
            switch p.kind {
            case .dominated: svg.circle(cx: c.x, cy: c.y, r: 4, cssClass: "pc-neutral")
            case .frontier: svg.circle(cx: c.x, cy: c.y, r: 5, cssClass: "pc-dot pc-s0")
            case .base: svg.polygon(Shapes.square(at: c, radius: 5), cssClass: "pc-dot pc-s1")
            }
        }
        svg.closeGroup()
        svg.openGroup(cssClass: "pc-labels")
        for label in layout.labels {
            svg.text(label.text, x: label.x, y: label.y, cssClass: "pc-note", anchor: label.anchor, centredVertically: true)
        }
        svg.closeGroup()
        let keyY = frame.xTitleBottom + 4 + Metrics.legendRowHeight / 2
        var x = plot.left
        svg.openGroup(cssClass: "pc-legend")
        svg.circle(cx: x + 5, cy: keyY, r: 5, cssClass: "pc-dot pc-s0")
        svg.text("on the Pareto frontier (point number)", x: x + 14, y: keyY, cssClass: "pc-legend-text", centredVertically: true)
        x += 14 + TextLayout.estimatedWidth("on the Pareto frontier (point number)", fontSize: Metrics.fontSize) + 16
        svg.circle(cx: x + 5, cy: keyY, r: 4, cssClass: "pc-neutral")
        svg.text("dominated", x: x + 14, y: keyY, cssClass: "pc-legend-text", centredVertically: true)
        x += 14 + TextLayout.estimatedWidth("dominated", fontSize: Metrics.fontSize) + 16
        svg.polygon(Shapes.square(at: Point(x: x + 5, y: keyY), radius: 5), cssClass: "pc-dot pc-s1")
        svg.text("base", x: x + 14, y: keyY, cssClass: "pc-legend-text", centredVertically: true)
        svg.closeGroup()
        return svg.markup
    }
}
