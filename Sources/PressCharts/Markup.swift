/// Escaping and the small SVG writer every chart draws with.
public enum Markup {
    /// `text` safe inside HTML/XML text and double- or single-quoted attribute values:
    /// & < > " ' become entity references (&amp; &lt; &gt; &quot; &#39;).
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// `text` reduced to characters valid in an XML/HTML id (ASCII letters, digits, '-', '_'),
    /// starting with a letter; other characters become '-'.
    public static func identifier(_ text: String) -> String {
        var out = String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "-" })
        if out.first.map({ !($0.isASCII && $0.isLetter) }) ?? true { out = "c" + out }
        return out
    }

    /// A coordinate in SVG user units, rounded to 0.01 px, without exponent or float noise.
    static func number(_ value: Double) -> String {
        let magnitude = NumberText.compact(abs(value), maxDigits: 2)
        return value < 0 && magnitude != "0" ? "-" + magnitude : magnitude
    }
}

/// Accumulates SVG elements. Every attribute value and text passes through `Markup.escape`.
struct SVGWriter {
    private(set) var elements: [String] = []

    mutating func raw(_ markup: String) { elements.append(markup) }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, cssClass: String) {
        raw("<line class=\"\(Markup.escape(cssClass))\" x1=\"\(Markup.number(x1))\" y1=\"\(Markup.number(y1))\" x2=\"\(Markup.number(x2))\" y2=\"\(Markup.number(y2))\"/>")
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, cssClass: String) {
        raw("<rect class=\"\(Markup.escape(cssClass))\" x=\"\(Markup.number(x))\" y=\"\(Markup.number(y))\" width=\"\(Markup.number(max(0, width)))\" height=\"\(Markup.number(max(0, height)))\"/>")
    }

    mutating func circle(cx: Double, cy: Double, r: Double, cssClass: String) {
        raw("<circle class=\"\(Markup.escape(cssClass))\" cx=\"\(Markup.number(cx))\" cy=\"\(Markup.number(cy))\" r=\"\(Markup.number(r))\"/>")
    }

    /// A polyline through `points` (already in pixels), as an SVG path.
    mutating func path(_ points: [Point], cssClass: String) {
        guard let first = points.first else { return }
        var d = "M\(Markup.number(first.x)) \(Markup.number(first.y))"
        for point in points.dropFirst() { d += "L\(Markup.number(point.x)) \(Markup.number(point.y))" }
        raw("<path class=\"\(Markup.escape(cssClass))\" d=\"\(d)\"/>")
    }

    /// A closed polygon (marker shapes).
    mutating func polygon(_ points: [Point], cssClass: String) {
        let list = points.map { "\(Markup.number($0.x)),\(Markup.number($0.y))" }.joined(separator: " ")
        raw("<polygon class=\"\(Markup.escape(cssClass))\" points=\"\(list)\"/>")
    }

    enum Anchor: String { case start, middle, end }

    /// Real SVG text; `y` is the baseline unless `centredVertically` (then `dominant-baseline`
    /// central). `rotate` turns it about (x, y) in degrees.
    mutating func text(_ content: String, x: Double, y: Double, cssClass: String, anchor: Anchor = .start,
                       centredVertically: Bool = false, rotate: Double? = nil) {
        var attributes = "class=\"\(Markup.escape(cssClass))\" x=\"\(Markup.number(x))\" y=\"\(Markup.number(y))\""
        if anchor != .start { attributes += " text-anchor=\"\(anchor.rawValue)\"" }
        if centredVertically { attributes += " dominant-baseline=\"central\"" }
        if let rotate { attributes += " transform=\"rotate(\(Markup.number(rotate)) \(Markup.number(x)) \(Markup.number(y)))\"" }
        raw("<text \(attributes)>\(Markup.escape(content))</text>")
    }

    mutating func openGroup(cssClass: String, label: String? = nil) {
        var attributes = "class=\"\(Markup.escape(cssClass))\""
        if let label { attributes += " aria-label=\"\(Markup.escape(label))\"" }
        raw("<g \(attributes)>")
    }

    mutating func closeGroup() { raw("</g>") }

    var markup: String { elements.joined(separator: "\n") }
}

/// A point in SVG user units (pixels at 100 % zoom; y grows downwards).
public struct Point: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
