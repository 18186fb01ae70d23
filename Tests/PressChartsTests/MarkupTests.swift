import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import PressCharts

/// Parses markup as XML and collects element names and attributes; `error` is set when the text
/// is not well-formed.
final class XMLProbe: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []
    var text = ""
    var error: Error?

    static func parse(_ markup: String) -> XMLProbe {
        let probe = XMLProbe()
        let parser = XMLParser(data: Data(markup.utf8))
        parser.delegate = probe
        if !parser.parse() { probe.error = parser.parserError ?? CocoaError(.coderReadCorrupt) }
        return probe
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        elements.append((elementName, attributeDict))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { error = parseError }
}

@Suite("PressCharts markup")
struct MarkupTests {
    static let charts: [any Chart] = [SampleReport.scaleChart(), SampleReport.ecdfChart(), SampleReport.rateChart(),
                                      SampleReport.forestPlot()]

    @Test func escapingCoversHTMLSpecials() {
        #expect(Markup.escape("<script>alert(\"x\")</script> & 'q'")
            == "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;")
        #expect(Markup.identifier("fig 1<\"x\">") == "fig-1--x--")  // space < " > " each become "-"
        #expect(Markup.identifier("1st") == "c1st")
    }

    @Test(arguments: 0..<4)
    func chartSVGIsWellFormedAndAccessible(index: Int) throws {
        let chart = Self.charts[index]
        let probe = XMLProbe.parse(chart.svg(id: "fig \(index)"))
        #expect(probe.error == nil, "\(String(describing: probe.error))")
        let root = try #require(probe.elements.first)
        #expect(root.name == "svg")
        #expect(root.attributes["role"] == "img")
        #expect(root.attributes["width"] == "100%")
        #expect(root.attributes["viewBox"] == "0 0 \(Markup.number(chart.size.width)) \(Markup.number(chart.size.height))")
        #expect(root.attributes["aria-labelledby"] == "fig-\(index)-title fig-\(index)-desc")
        #expect(probe.elements.contains { $0.name == "title" && $0.attributes["id"] == "fig-\(index)-title" })
        #expect(probe.elements.contains { $0.name == "desc" && $0.attributes["id"] == "fig-\(index)-desc" })
        #expect(probe.elements.contains { $0.name == "text" })
        // Colours come from classes and the theme, never from fill/stroke attributes.
        #expect(!probe.elements.contains { $0.attributes["fill"] != nil || $0.attributes["stroke"] != nil })
    }

    @Test(arguments: 0..<4)
    func standaloneSVGIsWellFormedWithStyle(index: Int) throws {
        let svg = Self.charts[index].standaloneSVG()
        let probe = XMLProbe.parse(svg)
        #expect(probe.error == nil, "\(String(describing: probe.error))")
        #expect(probe.elements.first?.attributes["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(probe.elements.contains { $0.name == "style" })
        #expect(svg.contains("prefers-color-scheme: dark"))
    }

    @Test func hostileLabelsAreEscapedInCharts() {
        let hostile = "<script>alert('x')</script> \"q\" & more"
        let chart = ECDFChart(title: hostile, series: [ECDFSeries(name: hostile, values: [10, 20])],
                              reference: ReferenceLine(value: 100, label: hostile))
        let svg = chart.svg(id: hostile)
        #expect(!svg.contains("<script"))
        #expect(svg.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &quot;q&quot; &amp; more"))
        let probe = XMLProbe.parse(svg)
        #expect(probe.error == nil)
        // The parser decodes the entities back: the text alternative holds the label verbatim.
        #expect(probe.text.contains(hostile))
    }

    @Test func pageIsWellFormedEscapedAndSelfContained() throws {
        let html = SampleReport.page().render()
        let probe = XMLProbe.parse(html)
        #expect(probe.error == nil, "\(String(describing: probe.error))")
        // Four figures, each an accessible SVG with a caption.
        #expect(probe.elements.filter { $0.name == "svg" }.count == 4)
        #expect(probe.elements.filter { $0.name == "figcaption" }.count == 4)
        #expect(Set(probe.elements.filter { $0.name == "svg" }.compactMap { $0.attributes["id"] }).count == 4)
        // The hostile title and table cell are escaped, never live markup.
        #expect(!html.lowercased().contains("<script"))
        #expect(html.contains("pressdb sample report &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
        #expect(html.contains("<th scope=\"row\">spring-b &amp; &lt;i&gt;</th>"))
        #expect(html.contains("<caption>Outcomes &lt;per&gt; config</caption>"))
        // Numbers right-aligned; banners say what they are in words.
        #expect(html.contains("<td class=\"num\">500</td>"))
        #expect(html.contains("<th scope=\"col\" class=\"num\">Tap rate</th>"))
        #expect(html.contains("<strong>Warning:</strong> Sample ratio mismatch"))
        #expect(html.contains("<strong>Note:</strong> Only 12 sessions for config &quot;c&quot;."))
        // Self-contained: nothing fetched, nothing run.
        for forbidden in ["<script", "http:", "https:", "src=", "href=", "url(", "@import", "<link", "@font-face"] {
            #expect(!html.lowercased().contains(forbidden), "page contains \(forbidden)")
        }
        // Themed and printable.
        #expect(html.contains("@media (prefers-color-scheme: dark)"))
        #expect(html.contains("@media print"))
    }
}
