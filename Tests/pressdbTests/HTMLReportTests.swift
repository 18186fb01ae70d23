// End to end: `pressdb report --format html`, `pressdb demo --html` in headless Chromium, and
// `pressdb spring --format svg`, checked by parsing what the binary writes.
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import PressCore
import PressCharts
import PressTestSupport
@testable import pressdb

/// A parsed XML element: name, attributes, children and its own text (children's text excluded).
private final class ParsedElement {
    let name: String
    let attributes: [String: String]
    var children: [ParsedElement] = []
    var ownText = ""
    init(name: String, attributes: [String: String]) { self.name = name; self.attributes = attributes }

    /// Text of this element and every descendant, in document order.
    var text: String { ownText + children.map(\.text).joined() }
    /// Every descendant (depth first) named `name`.
    func all(_ name: String) -> [ParsedElement] {
        children.flatMap { ($0.name == name ? [$0] : []) + $0.all(name) }
    }
    func first(_ name: String) -> ParsedElement? { all(name).first }
}

/// Builds an `ParsedElement` tree with Foundation's XMLParser; nil root plus the error when the text is
/// not well-formed XML.
private final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [ParsedElement] = [ParsedElement(name: "#document", attributes: [:])]
    var error: Error?

    static func parse(_ text: String) -> (root: ParsedElement?, error: Error?) {
        let builder = XMLTreeBuilder()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = builder
        let ok = parser.parse()
        let error = builder.error ?? (ok ? nil : parser.parserError)
        return (error == nil ? builder.stack.first : nil, error)
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        let node = ParsedElement(name: elementName, attributes: attributeDict)
        stack.last?.children.append(node)
        stack.append(node)
    }
    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        if stack.count > 1 { stack.removeLast() }
    }
    func parser(_ parser: XMLParser, foundCharacters string: String) { stack.last?.ownText += string }
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { error = parseError }
}

/// The first number before " ms" after `prefix` in `text` ("lift 96.9 ms" → 96.9).
private func milliseconds(after prefix: String, in text: String) -> Double? {
    guard let range = text.range(of: prefix) else { return nil }
    let rest = text[range.upperBound...].drop { $0 == " " }
    return Double(String(rest.prefix { $0.isNumber || $0 == "." }))
}

/// Type-7 median computed here, independently of the SQL function (Hyndman & Fan 1996).
private func median(_ values: [Double]) -> Double {
    let v = values.sorted()
    let h = Double(v.count - 1) * 0.5
    let lo = Int(h), hi = min(lo + 1, v.count - 1)
    return v[lo] + (h - Double(lo)) * (v[hi] - v[lo])
}

/// Markup that would fetch or run something: none may appear in a self-contained page.
private let forbiddenMarkup = ["<script", "http://", "https://", "src=", "href=", "url(", "@import", "<link"]

@Suite(.serialized) struct HTMLReportTests {
    // The summary page for a generated log: one scale chart per configuration, the ECDF, the
    // rates, the table equal to the JSON report's numbers, and nothing fetched or run.
    @Test func summaryPageMatchesJSONReport() throws {
        let dir = try Binary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("h.sqlite").path
        let log = try Binary.run(["generate", "--sessions", "2000", "--seed", "3"])
        #expect(log.status == 0)
        let ingest = try Binary.run(["ingest", "--db", db, "--quiet"], stdin: log.stdout)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let pagePath = dir.appendingPathComponent("page.html").path
        let run = try Binary.run(["report", "--db", db, "--format", "html", "--out", pagePath])
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOfFile: pagePath, encoding: .utf8)
        for forbidden in forbiddenMarkup { #expect(!html.lowercased().contains(forbidden), "page contains \(forbidden)") }

        let parsed = XMLTreeBuilder.parse(html)
        #expect(parsed.error == nil, "\(String(describing: parsed.error))")
        let root = try #require(parsed.root)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(
            try Binary.run(["report", "--db", db, "--format", "json"]).stdout.utf8)) as? [[String: Any]])
        let configs = Set(summary.compactMap { $0["config"] as? String })
        #expect(configs == ["spring-press", "expand-delayed-click"])

        // Charts: every SVG is accessible (role img, title and desc).
        let svgs = root.all("svg")
        #expect(svgs.count == configs.count + 2)
        for svg in svgs {
            #expect(svg.attributes["role"] == "img")
            #expect(svg.first("title") != nil && svg.first("desc") != nil)
        }
        let titles = svgs.map { $0.first("title")?.text ?? "" }
        #expect(Set(titles.filter { $0.hasPrefix("Scale during a typical tap: ") }.map { String($0.dropFirst(28)) }) == configs)
        #expect(titles.contains("Feedback latency per config"))
        #expect(titles.contains("Outcome rates per config"))
        #expect(root.all("figcaption").count == svgs.count)

        // The typical tap lasts each configuration's median tap duration, recomputed here from
        // the per-session rows; the frames at which the press shows are computed independently:
        // spring-press (UIView spring 0.4 s, ζ 0.5, v 3 → k 942.806 by a numeric-derivative
        // Newton solve in python, the same that reproduces Framer's k 54.8336 for 3 s, ζ 0.25)
        // moves the edge ≥ 1 px (Δscale ≥ 1/66) first at frame 2: 0.05·p(1/60) = 0.0073,
        // 0.05·p(2/60) = 0.0203. expand (CASpring m 1, k 100, c 1, v 0.8 → 1.3): 0.3·p(1/60) =
        // 0.0081, 0.3·p(2/60) = 0.0241, so also 33.3 ms without a scroll view. In a scroll view a
        // tap shorter than 150 ms is delivered at lift with press and release together: the
        // UIView spring's two additive animations cancel (never seen), while the expand pattern
        // jumps to 1.3 (seen on the first frame at or after the lift).
        let sessions = try #require(try JSONSerialization.jsonObject(with: Data(
            try Binary.run(["report", "sessions", "--db", db, "--format", "json"]).stdout.utf8)) as? [[String: Any]])
        for svg in svgs {
            let title = svg.first("title")?.text ?? ""
            guard title.hasPrefix("Scale during a typical tap: ") else { continue }
            let config = String(title.dropFirst(28))
            let desc = svg.first("desc")?.text ?? ""
            let taps = sessions.filter { $0["config"] as? String == config && $0["outcome"] as? String == "tap" }
                .compactMap { $0["duration_ms"] as? Double }
            let lift = median(taps)
            #expect(lift < 150, "the generator's median tap is about 90 ms")
            let shown = try #require(milliseconds(after: "lift", in: desc), "\(desc)")
            #expect(abs(shown - lift) <= 0.05, "\(config): lift \(shown) vs median tap \(lift)")
            #expect(desc.contains("none: ") && desc.contains("press first shows at 33.3 ms"), "\(desc)")
            if config == "spring-press" {
                #expect(desc.contains("scroll, table: ") && desc.contains("the press never shows (unseen)"), "\(desc)")
            } else {
                let firstFrame = (lift / (1000.0 / 60)).rounded(.up) * (1000.0 / 60)
                let scroll = try #require(desc.range(of: "scroll, table: "))
                let seen = try #require(milliseconds(after: "press first shows at", in: String(desc[scroll.upperBound...])))
                #expect(abs(seen - firstFrame) <= 0.05, "expand in scroll: \(seen) vs \(firstFrame)")
            }
            // The one-pixel band: 1 ± 1/66 (44 pt at 3 px/pt).
            #expect(desc.contains("between 0.9848 and 1.0152"))
        }

        // The ECDF counts unseen presses in its denominator: n = presses with feedback + unseen.
        let ecdf = try #require(svgs.first { $0.first("title")?.text == "Feedback latency per config" })
        let ecdfDesc = ecdf.first("desc")?.text ?? ""
        for group in summary {
            let config = group["config"] as? String ?? ""
            let mine = sessions.filter { $0["config"] as? String == config }
            let withFeedback = mine.filter { $0["feedback_latency_ms"] is Double }.count
            #expect(ecdfDesc.contains("\(config) (variant \(group["variant"] as? String ?? "")): n = \((group["unseen_presses"] as? Int ?? 0) + withFeedback)"),
                    "\(ecdfDesc)")
        }

        // The table: one column per group, one row per figure, formatted as the terminal does
        // (Output.swift: rates "%.1f%" with the Wilson interval in parentheses, ms "%.1f", pt "%.2f").
        let table = try #require(root.all("table").first { $0.first("caption")?.text == "Summary per config" })
        let headers = try #require(table.first("thead")).all("th").map(\.text)
        let rows = try #require(table.first("tbody")).all("tr").map { tr in tr.children.map(\.text) }
        func cell(_ figure: String, _ column: Int) -> String? { rows.first { $0.first == figure }?[column] }
        func pct(_ x: Any?) -> String { String(format: "%.1f", (x as? Double ?? .nan) * 100) }
        for group in summary {
            let header = "\(group["config"] as? String ?? "") (variant \(group["variant"] as? String ?? ""))"
            let column = try #require(headers.firstIndex(of: header), "\(headers)")
            for name in ["sessions", "taps", "cancels", "scroll_aborts", "false_actions", "unseen_presses"] {
                #expect(cell(name, column) == "\(group[name] as? Int ?? -1)", "\(name)")
            }
            for rate in ["tap_rate", "cancel_rate", "scroll_abort_rate"] {
                let expected = "\(pct(group[rate]))% (\(pct(group[rate + "_low"]))–\(pct(group[rate + "_high"])))"
                #expect(cell("\(rate) (95% CI)", column) == expected)
            }
            for name in ["feedback_p50_ms", "feedback_p90_ms", "feedback_p99_ms", "action_p50_ms", "action_p90_ms"] {
                #expect(cell(name, column) == String(format: "%.1f", group[name] as? Double ?? .nan), "\(name)")
            }
            #expect(cell("share_over_100ms", column) == pct(group["share_over_100ms"]) + "%")
            #expect(cell("release_jump_pt_max", column) == String(format: "%.2f", group["release_jump_pt_max"] as? Double ?? .nan))
        }
        // Where the numbers come from.
        #expect(html.contains(db))
        #expect(html.contains("Kaaresoja") && html.contains("30–85 ms"))
    }

    // --by and --where reach the page; another report is a table of its rows.
    @Test func filtersAndOtherReports() throws {
        let dir = try Binary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("f.sqlite").path
        let log = try Binary.run(["generate", "--sessions", "400", "--seed", "5"])
        #expect(try Binary.run(["ingest", "--db", db, "--quiet"], stdin: log.stdout).status == 0)
        let byScreen = try Binary.run(["report", "--db", db, "--format", "html", "--by", "screen", "--where", "variant=A"])
        #expect(byScreen.status == 0, "\(byScreen.stderr)")
        let parsed = XMLTreeBuilder.parse(byScreen.stdout)
        #expect(parsed.error == nil)
        let root = try #require(parsed.root)
        // Only variant A (spring-press) sessions: one scale chart.
        #expect(root.all("svg").filter { $0.first("title")?.text.hasPrefix("Scale during") == true }.count == 1)
        #expect(byScreen.stdout.contains("variant = A"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try Binary.run(
            ["report", "--db", db, "--format", "json", "--by", "screen", "--where", "variant=A"]).stdout.utf8)) as? [[String: Any]])
        // One column per screen (over several tables when there are many), plus the figure names.
        let groupColumns = root.all("table").map { ($0.first("thead")?.all("th").count ?? 0) - 1 }.reduce(0, +)
        #expect(groupColumns == json.count)

        let sessions = try Binary.run(["report", "sessions", "--db", db, "--format", "html"])
        #expect(sessions.status == 0)
        let sessionsRoot = try #require(XMLTreeBuilder.parse(sessions.stdout).root)
        #expect(sessionsRoot.all("svg").isEmpty)
        #expect(try #require(sessionsRoot.first("tbody")).all("tr").count == 400)
        for forbidden in forbiddenMarkup { #expect(!sessions.stdout.lowercased().contains(forbidden)) }
    }

    // The frustration report's page: well-formed, self-contained, one chart of the four signals
    // per configuration whose description gives each count of presses as the JSON report does.
    @Test func frustrationPageChartsTheSignals() throws {
        let dir = try Binary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("f.sqlite").path
        #expect(try Binary.run(["demo", "--db", db, "--sessions", "1500", "--quiet"]).status == 0)
        let html = try Binary.run(["report", "frustration", "--db", db, "--format", "html"])
        #expect(html.status == 0, "\(html.stderr)")
        let root = try #require(XMLTreeBuilder.parse(html.stdout).root)
        for forbidden in forbiddenMarkup { #expect(!html.stdout.lowercased().contains(forbidden)) }
        let charts = root.all("svg").filter { $0.first("title")?.text == "Frustration signals per config" }
        let desc = try #require(charts.first?.first("desc")?.text)
        #expect(charts.count == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try Binary.run(
            ["report", "frustration", "--db", db, "--format", "json"]).stdout.utf8)) as? [[String: Any]])
        #expect(json.count == 3)
        #expect(json.contains { ($0["retries_after_cancel"] as? Int ?? 0) > 0 }, "the demo's retries give counts above 0")
        for row in json {
            let config = try #require(row["config"] as? String), presses = try #require(row["presses"] as? Int)
            let part = try #require(desc.components(separatedBy: config).dropFirst().first, "\(config) in \(desc)")
            for (label, column) in [("rage episode", "rage_episodes"), ("retry after cancel", "retries_after_cancel"),
                                    ("retry after unseen", "retries_after_unseen"), ("dead press", "dead_presses")] {
                let k = try #require(row[column] as? Int)
                #expect(part.range(of: "\(label) [^;]* \(k) of \(presses)[;.]", options: .regularExpression) != nil,
                        "\(config) \(label): \(k) of \(presses) in \(part)")
            }
        }
        #expect(html.stdout.contains("Frustration signals per config") && html.stdout.contains("docs/frustration.md"))
    }

    // The demo's page shows what the demo prints: the summary, arm B against arm A (a forest plot
    // per unit whose every difference is compare's, as its JSON gives it) and the frustration
    // signals (each count of presses as `report frustration --format json` gives it).
    @Test func demoPageShowsTheComparisonAndTheSignals() throws {
        let dir = try Binary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("d.sqlite").path, page = dir.appendingPathComponent("demo.html")
        let demo = try Binary.run(["demo", "--db", db, "--sessions", "1500", "--html", page.path, "--quiet"])
        #expect(demo.status == 0, "\(demo.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        let root = try #require(XMLTreeBuilder.parse(html).root)
        for forbidden in forbiddenMarkup { #expect(!html.lowercased().contains(forbidden)) }
        let headings = root.all("h2").map(\.text)
        for h in ["Press feedback during a typical tap", "Outcomes", "Arm B against arm A", "Frustration signals"] {
            #expect(headings.contains(h), "\(h) in \(headings)")
        }
        let titles = root.all("svg").compactMap { $0.first("title")?.text }
        let rates = try #require(root.all("svg").first { $0.first("title")?.text == "Rates: B − A" }?.first("desc")?.text,
                                 "\(titles)")
        let latency = try #require(root.all("svg").first { $0.first("title")?.text == "Latency: B − A" }?.first("desc")?.text)
        #expect(titles.contains("Frustration signals per config") && titles.contains("Outcome rates per config"))

        let compare = try Binary.run(["compare", "A", "B", "--db", db, "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(compare.stdout.utf8)) as? [[String: Any]])
        #expect(!rows.isEmpty)
        // The plot writes B − A with one decimal, rates in percentage points, a sign on non-zero values.
        func signed(_ x: Double) -> String {
            let t = String(format: "%.1f", x).replacingOccurrences(of: "-", with: "−")
            return t == "−0.0" ? "0.0" : (x > 0 && t != "0.0" ? "+" + t : t)
        }
        for row in rows {
            let metric = try #require(row["metric"] as? String)
            guard let d = row["diff"] as? Double, let lo = row["diff_low"] as? Double, let hi = row["diff_high"] as? Double else { continue }
            let isRate = metric.hasSuffix("_rate")
            let scale = isRate ? 100.0 : 1.0, unit = isRate ? "pp" : "ms"
            let text = "\(metric) (", value = "\(signed(d * scale)) \(unit) (\(signed(lo * scale)), \(signed(hi * scale)))"
            let desc = isRate ? rates : latency
            let part = try #require(desc.components(separatedBy: text).dropFirst().first, "\(metric) in \(desc)")
            #expect(part.contains("): " + value), "\(metric): \(value) in \(part.prefix(120))")
        }

        let signals = try #require(try JSONSerialization.jsonObject(with: Data(try Binary.run(
            ["report", "frustration", "--db", db, "--format", "json"]).stdout.utf8)) as? [[String: Any]])
        let desc = try #require(root.all("svg").first { $0.first("title")?.text == "Frustration signals per config" }?.first("desc")?.text)
        for row in signals {
            let config = try #require(row["config"] as? String), presses = try #require(row["presses"] as? Int)
            let part = try #require(desc.components(separatedBy: config).dropFirst().first)
            let k = try #require(row["retries_after_cancel"] as? Int)
            #expect(part.range(of: "retry after cancel [^;]* \(k) of \(presses)[;.]", options: .regularExpression) != nil)
        }

        // The typical-tap charts share one scale: the same tick labels on both axes of each (the
        // expand pattern's 1.3 sets the top of spring-press's too).
        let taps = root.all("svg").filter { $0.first("title")?.text.hasPrefix("Scale during a typical tap: ") == true }
        let ticks = taps.map { $0.all("text").filter { $0.attributes["class"] == "pc-tick-label" }.map(\.text) }
        #expect(taps.count == 3 && Set(ticks).count == 1, "\(ticks)")
        // The ECDF's quantiles over every press say so where presses went unseen (spring-press,
        // 'unseen_presses' > 0 in the JSON report), unlike the table's feedback_p50_ms.
        let ecdf = try #require(root.all("svg").first { $0.first("title")?.text == "Feedback latency per config" }?.first("desc")?.text)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(try Binary.run(
            ["report", "--db", db, "--format", "json"]).stdout.utf8)) as? [[String: Any]])
        for row in summary {
            let config = try #require(row["config"] as? String), unseen = try #require(row["unseen_presses"] as? Int)
            let part = try #require(ecdf.components(separatedBy: config + " (variant").dropFirst().first?.components(separatedBy: ".").first)
            #expect(part.contains("p50 of all") == (unseen > 0), "\(config), \(unseen) unseen: \(part)")
        }
    }

    // The spring's progress as a standalone SVG: well-formed, and the curve ends at progress ≈ 1
    // at the settling duration. Independent figures (python, damped oscillator closed form with
    // k from the numeric-derivative Newton solve): ω₀ = √942.806, B = (ζω₀ − v)/ω_d, settling
    // ln((1 + |B|)/0.001)/(ζω₀) = 474.79 ms, p(474.79 ms) = 0.99930.
    @Test func springSVGReachesOne() throws {
        let run = try Binary.run(["spring", "--duration", "0.4", "--damping-ratio", "0.5", "--velocity", "3", "--format", "svg"])
        #expect(run.status == 0, "\(run.stderr)")
        let parsed = XMLTreeBuilder.parse(run.stdout)
        #expect(parsed.error == nil, "\(String(describing: parsed.error))")
        let svg = try #require(parsed.root?.first("svg"))
        #expect(svg.attributes["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(svg.first("style") != nil && svg.first("title") != nil)
        let desc = svg.first("desc")?.text ?? ""
        #expect(desc.contains("settled 474.8 ms"), "\(desc)")
        #expect(desc.contains("ends at 0.999"), "\(desc)")
        // The drawn curve: its last vertex lies on the line at 1 (within a pixel) and at the
        // settling marker's x.
        let path = try #require(svg.all("path").first { $0.attributes["class"]?.contains("pc-line") == true })
        let numbers = (path.attributes["d"] ?? "").split { $0 == "M" || $0 == "L" || $0 == " " }.compactMap { Double($0) }
        let (lastX, lastY) = (numbers[numbers.count - 2], numbers[numbers.count - 1])
        let target = try #require(svg.all("line").first { $0.attributes["class"] == "pc-threshold" })
        #expect(abs(lastY - (Double(target.attributes["y1"] ?? "") ?? .nan)) < 1)
        let markers = svg.all("line").filter { $0.attributes["class"] == "pc-marker" }.compactMap { Double($0.attributes["x1"] ?? "") }
        #expect(markers.contains { abs($0 - lastX) < 0.01 })
        // The first point is the start: progress 0 at t = 0, well below the line at 1.
        #expect(numbers[1] > lastY + 100)
    }
}

/// The demo's page shows the comparison per screen (issue 36): a section per screen and Cochran's Q
/// per metric, whose Q and p are recomputed here from `compare A B --segment screen --format json`
/// (each segment's diff and se): w = 1/se², d̄ = Σwd/Σw, Q = Σw(d − d̄)².
@Suite(.serialized) struct HTMLDemoSegmentsTests {
    @Test func demoPageShowsTheSegmentsOfTheComparison() throws {
        let dir = try Binary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 12000 sessions: each screen has more than the 100 users per arm a verdict needs (users
        // press on most of the six screens).
        let db = dir.appendingPathComponent("d.sqlite").path, page = dir.appendingPathComponent("demo.html")
        let demo = try Binary.run(["demo", "--db", db, "--sessions", "12000", "--html", page.path, "--quiet"])
        #expect(demo.status == 0, "\(demo.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        let root = try #require(XMLTreeBuilder.parse(html).root)
        #expect(root.all("h2").map(\.text).contains("Arm B against arm A per screen"))
        let h3 = root.all("h3").map(\.text)
        #expect(h3.contains("Heterogeneity across screen"), "\(h3)")
        for screen in ["cart", "feed", "product", "profile", "search", "settings"] { #expect(h3.contains("screen \(screen)"), "\(h3)") }

        let compare = try Binary.run(["compare", "A", "B", "--db", db, "--segment", "screen",
                                      "--metric", "tap_rate,cancel_rate,feedback_latency_ms", "--format", "json"])
        #expect(compare.status == 0, "\(compare.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(compare.stdout.utf8)) as? [[String: Any]])
        #expect(Set(rows.compactMap { $0["segment"] as? String }).count == 6)
        let table = try #require(root.all("table").first { $0.first("caption")?.text == "Cochran's Q per metric across screen" })
        let cells = table.all("tr").map { $0.all("th").map(\.text) + $0.all("td").map(\.text) }.filter { $0.count == 7 && $0[0] != "metric" }
        #expect(cells.count == 3, "\(cells)")
        for metric in ["tap_rate", "cancel_rate", "feedback_latency_ms"] {
            let used = rows.filter { $0["metric"] as? String == metric && $0["p_value"] is Double }
            let d = used.map { $0["diff"] as! Double }, w = used.map { 1 / pow($0["se"] as! Double, 2) }
            let pooled = zip(w, d).map { $0 * $1 }.reduce(0, +) / w.reduce(0, +)
            let q = zip(w, d).map { $0 * ($1 - pooled) * ($1 - pooled) }.reduce(0, +)
            let row = try #require(cells.first { $0.first == metric }, "\(metric) in \(cells)")
            #expect(row[1] == "\(used.count)" && row[4] == "\(used.count - 1)", "\(row)")
            let shown = try #require(Double(row[3]), "\(row)")
            #expect(abs(shown - q) <= 0.005 + 1e-9, "\(metric): Q \(shown) against \(q)")
        }
    }
}

@Suite(.serialized) struct HTMLDemoBrowserTests {
    // The demo's page in headless Chromium: it renders (exit 0, a screenshot far from blank), the
    // console stays silent, and the DOM holds the five charts. PRESSDB_HTML_ARTIFACTS=DIR keeps
    // the page and screenshots.
    @Test(.enabled(if: HeadlessBrowser.path != nil, Comment(rawValue: HeadlessBrowser.unavailable)))
    func demoPageRendersInChromium() throws {
        let (scratch, cleanUp) = try HeadlessBrowser.scratch(keptIn: "PRESSDB_HTML_ARTIFACTS")
        defer { cleanUp() }
        let page = scratch.appendingPathComponent("demo.html")
        let db = scratch.appendingPathComponent("demo-\(UUID().uuidString).sqlite")
        let demo = try Binary.run(["demo", "--db", db.path, "--sessions", "3000", "--html", page.path, "--quiet"])
        #expect(demo.status == 0, "\(demo.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        for forbidden in forbiddenMarkup { #expect(!html.lowercased().contains(forbidden)) }

        let shots = try HeadlessBrowser.screenshots(of: page, width: 1200, height: 1000, scratch: scratch,
                                                    arguments: ["--hide-scrollbars"])
        #expect(shots.blankRun.status == 0)
        #expect(shots.pageRun.status == 0, "\(shots.pageRun.stderr.suffix(2000))")
        let dimensions = try #require(HeadlessBrowser.pngSize(shots.page))
        #expect(dimensions.width == 1200 && dimensions.height == 1000)
        // Text, a chart and lines compress far worse than an empty page (blank ≈ 9 KB here).
        #expect(shots.page.count > 5 * shots.blank.count, "page \(shots.page.count) B vs blank \(shots.blank.count) B")

        let dom = try HeadlessBrowser.run(["--hide-scrollbars", "--dump-dom", "--enable-logging=stderr", "--v=0"], url: page, scratch: scratch)
        #expect(dom.status == 0)
        // Three configurations' scale charts, the ECDF, the rates, two forest plots, the signals.
        #expect(dom.stdout.components(separatedBy: "<svg ").count - 1 == 8)
        // longpress-safe-area's press (ease-in-ease-out 0.2 s to 0.95, Δscale ≥ 1/66 needs the
        // curve at ≥ 0.303: python's bisection gives 0.232 at 66.7 ms and 0.359 at 83.3 ms) shows
        // at 83.3 ms in every container (the long press is never held back).
        #expect(dom.stdout.contains("none, scroll, table: press first shows at 83.3 ms"))
        let console = dom.stderr.split(separator: "\n").filter { $0.contains("CONSOLE") || $0.contains("Uncaught") }
        #expect(console.isEmpty, "console: \(console.joined(separator: "\n"))")
    }
}

@Suite(.serialized) struct HTMLCompareBrowserTests {
    /// The page with a measuring script added (the test's own copy: pressdb's pages have no
    /// scripts): after layout it writes, as JSON in a <pre id="measure">, the page's width against
    /// the window's, each table's against its box's, and how many numeric cells wrapped (more line
    /// boxes than the lines they hold).
    static func measured(_ page: String) -> String {
        let script = """
            <script>
            addEventListener('load', () => {
              const doc = document.documentElement;
              const tables = [...document.querySelectorAll('.table-wrap')].map(t => [t.scrollWidth, t.clientWidth]);
              let wrapped = 0;
              for (const td of document.querySelectorAll('td.num')) {
                const range = document.createRange(); range.selectNodeContents(td);
                const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
                if (lines > td.textContent.split('\\n').length) wrapped += 1;
              }
              const out = document.createElement('pre'); out.id = 'measure';
              out.textContent = JSON.stringify({page: doc.scrollWidth, window: innerWidth, tables, wrapped});
              document.body.appendChild(out);
            });
            </script>
            """
        return page.replacingOccurrences(of: "</body>", with: script + "</body>")
    }

    // The compare page in a 1280 px window: nothing is cut off — the "All metrics" table fits its
    // box, no number wraps ("1.1e-" / "45") — and in a 100-column-wide one (800 px, 8 px a
    // column) the page still does not run off the side. PRESSDB_HTML_ARTIFACTS=DIR keeps the
    // pages and screenshots.
    @Test(.enabled(if: HeadlessBrowser.path != nil, Comment(rawValue: HeadlessBrowser.unavailable)))
    func comparePageFitsInChromium() throws {
        let (scratch, cleanUp) = try HeadlessBrowser.scratch(keptIn: "PRESSDB_HTML_ARTIFACTS")
        defer { cleanUp() }
        let db = scratch.appendingPathComponent("compare-\(UUID().uuidString).sqlite")
        #expect(try Binary.run(["demo", "--db", db.path, "--sessions", "3000", "--quiet"]).status == 0)
        for (name, args) in [("observed", ["A", "B"]), ("paired", ["spring-press", "longpress-safe-area", "--paired"])] {
            let page = scratch.appendingPathComponent("compare-\(name).html")
            #expect(try Binary.run(["compare"] + args + ["--db", db.path, "--format", "html", "--out", page.path]).status == 0)
            let html = try String(contentsOf: page, encoding: .utf8)
            #expect(html.contains("<p class=\"figure-title\" aria-hidden=\"true\">Rates: "))
            let probe = scratch.appendingPathComponent("measure-\(name).html")
            try Self.measured(html).write(to: probe, atomically: true, encoding: .utf8)
            for width in [1280, 800] {
                let shots = try HeadlessBrowser.screenshots(of: page, width: width, height: 2400, scratch: scratch,
                                                            arguments: ["--hide-scrollbars"])
                #expect(shots.pageRun.status == 0 && HeadlessBrowser.pngSize(shots.page)?.width == width)
                try? shots.page.write(to: scratch.appendingPathComponent("compare-\(name)-\(width).png"))
                let dom = try HeadlessBrowser.run(["--hide-scrollbars", "--window-size=\(width),2400", "--dump-dom"],
                                                  url: probe, scratch: scratch)
                let json = try #require(dom.stdout.components(separatedBy: "<pre id=\"measure\">").last?
                    .components(separatedBy: "</pre>").first, "\(dom.stderr.suffix(500))")
                let m = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
                let page = try #require(m["page"] as? Int), window = try #require(m["window"] as? Int)
                #expect(page <= window, "\(name) at \(width) px: the page is \(page) px wide")
                if width == 1280 {
                    let tables = try #require(m["tables"] as? [[Int]])
                    #expect(!tables.isEmpty && tables.allSatisfy { $0[0] <= $0[1] }, "\(name): tables \(tables)")
                    #expect(m["wrapped"] as? Int == 0, "\(name): numeric cells wrapped")
                }
            }
        }
    }
}

@Suite struct TypicalTapContainerTests {
    // The data's containers join `none` and `scroll` (always shown), in UIKit's usual order;
    // a JSON container with a named container's parameters is that container; text that does
    // not parse is left out; a session without a container is replayed in `none`.
    @Test func containersFromStoredTexts() {
        let custom = "{\"delays_content_touches\": false, \"cancels_control_touches\": false}"
        let shown = TypicalTap.containers(from: [
            "table", nil, "bogus", custom,
            "{\"delays_content_touches\": true, \"cancels_control_touches\": false}",  // = scroll
        ])
        #expect(shown.map(\.container.name) == ["none", "scroll", "table", nil])
        #expect(shown.last?.label.hasPrefix("custom scroll view (delays off, cancels off, 150 ms, 10 pt)") == true)
    }

    // An undamped spring never settles: drawn for ten periods 2π√(m/k) = 10 × 0.6283 s.
    @Test func undampedSpringSpansTenPeriods() {
        let chart = SpringProgressChart.chart(try! Spring(mass: 1, stiffness: 100, damping: 0))
        #expect(abs((chart.series[0].times.last ?? 0) - 2 * Double.pi) < 1e-9)
        #expect(chart.textAlternative.contains("never settles"))
    }
}

@Suite struct TypicalTapChartTests {
    // spring-press, a 100 ms stationary tap without a scroll view: the dot sits on the frame at
    // 2/60 s (the first with 0.05·p(t) ≥ 1/66, computed in python: 0.0073 at 1/60, 0.0203 at
    // 2/60), at that frame's value 1 − 0.0203 = 0.9797; lift marker at 100 ms.
    @Test func dotOnFirstVisibleFrame() throws {
        let tap = try TypicalTap(configuration: .springPress, duration: 0.1, containers: [("none", .none)])
        let chart = tap.chart(until: tap.settledTime)
        let layout = chart.layout()
        let dot = try #require(layout.highlights.first)
        #expect(abs(dot.point.x - layout.frame.x(2000.0 / 60)) < 1e-9)
        #expect(abs(dot.point.y - layout.frame.y(1 - 0.02026355169921759)) < 0.01)
        #expect(chart.markers.map(\.time) == [0, 0.1])
        #expect(chart.visibilityDelta == 1.0 / 66)
    }
}

@Suite(.serialized) struct HTMLPageLayoutTests {
    /// The test's own measuring script (pressdb's pages have none): after layout it reports the
    /// window's and the page's width, how far main's widest child reaches, label boxes that
    /// overlap within a chart's label group, the most line boxes of any table cell, the page's
    /// colours and whether the dark scheme is on. In a frame it posts them to the frame's parent.
    static let script = """
        <script>
        addEventListener('load', () => {
          const doc = document.documentElement, main = document.querySelector('main');
          const left = main.getBoundingClientRect().left;
          const content = Math.max(...[...main.children].map(e => e.getBoundingClientRect().right)) - left;
          const overlaps = [];
          for (const g of document.querySelectorAll('.pc-labels')) {
            const r = [...g.querySelectorAll('text')].map(t => [t.textContent, t.getBoundingClientRect()]);
            for (let i = 0; i < r.length; i++) for (let j = i + 1; j < r.length; j++) {
              const a = r[i][1], b = r[j][1];
              if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
                  && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5) overlaps.push(r[i][0] + ' / ' + r[j][0]);
            }
          }
          let cellLines = 0;
          for (const td of document.querySelectorAll('td')) {
            const range = document.createRange(); range.selectNodeContents(td);
            cellLines = Math.max(cellLines, new Set([...range.getClientRects()].map(r => Math.round(r.top))).size);
          }
          const style = getComputedStyle(doc);
          const text = JSON.stringify({window: innerWidth, page: doc.scrollWidth, content, overlaps, cellLines,
            bg: style.backgroundColor, fg: style.color, dark: matchMedia('(prefers-color-scheme: dark)').matches});
          if (parent !== window) { parent.postMessage(text, '*'); return; }
          const p = document.createElement('pre'); p.id = 'measure'; p.textContent = text; document.body.appendChild(p);
        });
        </script>
        """

    /// WCAG 2.1's contrast ratio (L1 + 0.05) / (L2 + 0.05) of two "rgb(r, g, b)" colours, with
    /// the relative luminance of sRGB (success criterion 1.4.3's definitions).
    static func contrast(_ a: String, _ b: String) -> Double? {
        func luminance(_ css: String) -> Double? {
            let parts = css.drop { !$0.isNumber }.split { !$0.isNumber && $0 != "." }.compactMap { Double($0) }
            guard parts.count >= 3 else { return nil }
            let c = parts.prefix(3).map { v -> Double in
                let s = v / 255
                return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
        }
        guard let x = luminance(a), let y = luminance(b) else { return nil }
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    /// The measurements of `page` at `width` px (390 px inside a frame: a headless window is at
    /// least 500 px wide), light or dark.
    static func measure(_ page: URL, width: Int, dark: Bool, scratch: URL) throws -> [String: Any] {
        let probe = scratch.appendingPathComponent("probe-" + page.lastPathComponent)
        try String(contentsOf: page, encoding: .utf8).replacingOccurrences(of: "</body>", with: script + "</body>")
            .write(to: probe, atomically: true, encoding: .utf8)
        var url = probe
        if width < 500 {
            url = scratch.appendingPathComponent("frame-" + page.lastPathComponent)
            try """
                <!DOCTYPE html><html><head><meta charset="utf-8"/><title>frame</title><style>body{margin:0}
                iframe{border:0;width:\(width)px;height:3000px;display:block}</style></head><body>
                <iframe src="\(probe.lastPathComponent)"></iframe><script>addEventListener('message', e => {
                const p = document.createElement('pre'); p.id = 'measure'; p.textContent = e.data; document.body.appendChild(p); });
                </script></body></html>
                """.write(to: url, atomically: true, encoding: .utf8)
        }
        let scheme = dark ? ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"] : []
        let dom = try HeadlessBrowser.run(["--hide-scrollbars", "--window-size=\(max(width, 500)),2000",
                                           "--virtual-time-budget=10000", "--dump-dom"] + scheme, url: url, scratch: scratch)
        let json = try #require(dom.stdout.components(separatedBy: "<pre id=\"measure\">").dropFirst().first?
            .components(separatedBy: "</pre>").first, "\(page.lastPathComponent): \(dom.stderr.suffix(500))")
        let unescaped = json.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
        return try #require(try JSONSerialization.jsonObject(with: Data(unescaped.utf8)) as? [String: Any])
    }

    // Every kind of page (the demo's, the summary, frustration, another report, the list, an
    // observed and a paired comparison, a sweep) at 1,280 and 390 px, light and dark: the page
    // never scrolls sideways, no chart label covers another, the text keeps WCAG AA contrast
    // (4.5:1) in both schemes and the dark one is in effect; at 1,280 px the demo's page uses
    // the window (its widest part beyond 1,100 px) and no table cell runs past three lines (the
    // compare table's test column took four or five). PRESSDB_HTML_ARTIFACTS=DIR keeps the
    // pages and the demo's screenshots.
    @Test(.enabled(if: HeadlessBrowser.path != nil, Comment(rawValue: HeadlessBrowser.unavailable)))
    func everyPageFitsAt1280And390LightAndDark() throws {
        let (scratch, cleanUp) = try HeadlessBrowser.scratch(keptIn: "PRESSDB_HTML_ARTIFACTS")
        defer { cleanUp() }
        let db = scratch.appendingPathComponent("layout-\(UUID().uuidString).sqlite").path
        func page(_ name: String) -> URL { scratch.appendingPathComponent(name + ".html") }
        #expect(try Binary.run(["demo", "--db", db, "--sessions", "3000", "--html", page("demo").path, "--quiet"]).status == 0)
        let commands: [(String, [String])] = [
            ("summary", ["report"]), ("frustration", ["report", "frustration"]), ("latency", ["report", "latency"]),
            ("list", ["report", "--list"]), ("compare", ["compare", "A", "B"]),
            ("paired", ["compare", "spring-press", "longpress-safe-area", "--paired", "--where", "variant=A"]),
            ("sweep", ["sweep", "--base", "spring-press", "--vary", "press_animation.damping_ratio=0.3,0.6,0.9",
                       "--vary", "pressed_scale=0.9,0.97", "--quiet"]),
        ]
        for (name, args) in commands {
            let r = try Binary.run(args + ["--db", db, "--format", "html", "--out", page(name).path])
            #expect(r.status == 0, "\(name): \(r.stderr)")
        }
        for name in ["demo"] + commands.map(\.0) {
            for width in [1280, 390] {
                for dark in [false, true] {
                    let m = try Self.measure(page(name), width: width, dark: dark, scratch: scratch)
                    let at = "\(name) at \(width) px, \(dark ? "dark" : "light")"
                    #expect(m["window"] as? Int == width, "\(at): \(m)")
                    #expect((m["page"] as? Int ?? .max) <= width, "\(at): the page is \(m["page"] ?? "?") px wide")
                    #expect((m["overlaps"] as? [String])?.isEmpty == true, "\(at): labels overlap: \(m["overlaps"] ?? "?")")
                    #expect(m["dark"] as? Bool == dark, "\(at)")
                    let ratio = Self.contrast(m["fg"] as? String ?? "", m["bg"] as? String ?? "")
                    #expect((ratio ?? 0) >= 4.5, "\(at): contrast \(ratio ?? 0) of \(m["fg"] ?? "?") on \(m["bg"] ?? "?")")
                    if width == 1280 && !dark {
                        #expect((m["cellLines"] as? Int ?? 99) <= 3, "\(at): a table cell of \(m["cellLines"] ?? "?") lines")
                        if name == "demo" { #expect((m["content"] as? Double ?? 0) > 1100, "\(at): content \(m["content"] ?? "?") px") }
                    }
                }
            }
        }
        for (width, dark) in [(1280, false), (1280, true), (500, false), (500, true)] {
            let scheme = dark ? ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"] : []
            let shots = try HeadlessBrowser.screenshots(of: page("demo"), width: width, height: 3000, scratch: scratch,
                                                        arguments: ["--hide-scrollbars"] + scheme)
            #expect(shots.pageRun.status == 0 && HeadlessBrowser.pngSize(shots.page)?.width == width)
            try? shots.page.write(to: scratch.appendingPathComponent("demo-\(width)-\(dark ? "dark" : "light").png"))
        }
    }
}
