import Foundation
import PressTestSupport
import Testing
@testable import PressCharts

@Suite("PressCharts in a browser", .serialized)
struct BrowserTests {
    // Skipped, with this reason, where no headless Chromium is installed; CI installs Debian's
    // `chromium` package so it runs there.
    @Test(.enabled(if: HeadlessBrowser.path != nil, Comment(rawValue: HeadlessBrowser.unavailable)))
    func samplePageRendersInChromium() throws {
        let (scratch, cleanUp) = try HeadlessBrowser.scratch(keptIn: "PRESSCHARTS_ARTIFACTS")
        defer { cleanUp() }
        let pageURL = scratch.appendingPathComponent("sample.html")
        try SampleReport.page().render().write(to: pageURL, atomically: true, encoding: .utf8)

        let shots = try HeadlessBrowser.screenshots(of: pageURL, width: 1200, height: 1600, scratch: scratch)
        #expect(shots.blankRun.status == 0, "blank page: \(shots.blankRun.stderr.suffix(2000))")
        #expect(shots.pageRun.status == 0, "sample page: \(shots.pageRun.stderr.suffix(2000))")
        let pageData = shots.page
        let dimensions = try #require(HeadlessBrowser.pngSize(pageData), "screenshot is not a PNG")
        #expect(dimensions.width == 1200 && dimensions.height == 1600)
        // Charts, text and lines compress far worse than a uniform page: at least 5× the blank
        // screenshot (measured here: blank ≈ 9 KB, sample ≈ 200 KB).
        #expect(pageData.count > 5 * shots.blank.count, "sample \(pageData.count) B vs blank \(shots.blank.count) B")

        // The DOM Chromium built holds the four accessible SVGs, and the console stayed silent
        // (no script errors, no blocked or failed loads).
        let dom = try HeadlessBrowser.run(["--dump-dom", "--enable-logging=stderr", "--v=0"], url: pageURL, scratch: scratch)
        #expect(dom.status == 0)
        #expect(dom.stdout.components(separatedBy: "<svg ").count - 1 == 4)
        #expect(dom.stdout.components(separatedBy: "role=\"img\"").count - 1 == 4)
        #expect(dom.stdout.contains("touch-down"))
        #expect(!dom.stdout.lowercased().contains("<script"))
        let consoleLines = dom.stderr.split(separator: "\n").filter { $0.contains("CONSOLE") || $0.contains("Uncaught") }
        #expect(consoleLines.isEmpty, "console output: \(consoleLines.joined(separator: "\n"))")

        // Dark mode changes the rendering (the custom properties switch).
        let darkPNG = scratch.appendingPathComponent("sample-dark.png")
        let darkRun = try HeadlessBrowser.run(["--screenshot=\(darkPNG.path)", "--window-size=1200,1600", "--force-dark-mode"],
                                             url: pageURL, scratch: scratch)
        #expect(darkRun.status == 0)
        #expect(try Data(contentsOf: darkPNG) != pageData)
    }
}
