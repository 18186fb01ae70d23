import Foundation
import Testing
@testable import PressCharts

/// A headless Chromium found on PATH (Debian's package is `chromium`).
enum HeadlessBrowser {
    static let candidates = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]

    static let path: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in candidates {
            for directory in directories {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the browser headless on `url` with `arguments`, under coreutils' `timeout` (120 s)
    /// when present so a hung browser cannot hang the suite. Output goes through files, not pipes.
    static func run(_ arguments: [String], url: URL, scratch: URL) throws -> Run {
        let browser = try #require(path)
        let outURL = scratch.appendingPathComponent("out-\(UUID().uuidString).txt")
        let errURL = scratch.appendingPathComponent("err-\(UUID().uuidString).txt")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        let process = Process()
        let common = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                      "--user-data-dir=\(scratch.appendingPathComponent("profile").path)"]
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/timeout") {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
            process.arguments = ["120", browser] + common + arguments + [url.absoluteString]
        } else {
            process.executableURL = URL(fileURLWithPath: browser)
            process.arguments = common + arguments + [url.absoluteString]
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Run(status: process.terminationStatus,
                   stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                   stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }

    /// Width and height from a PNG's IHDR chunk (bytes 16–23, big-endian; PNG spec §11.2.2),
    /// after checking the 8-byte signature.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
              bytes[12..<16] == [0x49, 0x48, 0x44, 0x52] else { return nil }  // "IHDR"
        func u32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (u32(16), u32(20))
    }
}

@Suite("PressCharts in a browser", .serialized)
struct BrowserTests {
    // Skipped, with this reason, where no headless Chromium is installed; CI installs Debian's
    // `chromium` package so it runs there.
    @Test(.enabled(if: HeadlessBrowser.path != nil,
                   "no headless Chromium on PATH (chromium, chromium-browser, google-chrome): apt-get install -y chromium"))
    func samplePageRendersInChromium() throws {
        let keep = ProcessInfo.processInfo.environment["PRESSCHARTS_ARTIFACTS"]
        let scratch = keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("presscharts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { if keep == nil { try? FileManager.default.removeItem(at: scratch) } }

        // A blank page rendered the same way gives the size of an empty screenshot.
        let blankURL = scratch.appendingPathComponent("blank.html")
        try "<!DOCTYPE html><html><head><meta charset=\"utf-8\"/><title>blank</title></head><body></body></html>"
            .write(to: blankURL, atomically: true, encoding: .utf8)
        let pageURL = scratch.appendingPathComponent("sample.html")
        try SampleReport.page().render().write(to: pageURL, atomically: true, encoding: .utf8)

        let size = "--window-size=1200,1600"
        let blankPNG = scratch.appendingPathComponent("blank.png")
        let blankRun = try HeadlessBrowser.run(["--screenshot=\(blankPNG.path)", size], url: blankURL, scratch: scratch)
        #expect(blankRun.status == 0, "blank page: \(blankRun.stderr.suffix(2000))")

        let pagePNG = scratch.appendingPathComponent("sample.png")
        let pageRun = try HeadlessBrowser.run(["--screenshot=\(pagePNG.path)", size], url: pageURL, scratch: scratch)
        #expect(pageRun.status == 0, "sample page: \(pageRun.stderr.suffix(2000))")

        let blankData = try Data(contentsOf: blankPNG)
        let pageData = try Data(contentsOf: pagePNG)
        let dimensions = try #require(HeadlessBrowser.pngSize(pageData), "screenshot is not a PNG")
        #expect(dimensions.width == 1200 && dimensions.height == 1600)
        // Charts, text and lines compress far worse than a uniform page: at least 5× the blank
        // screenshot (measured here: blank ≈ 9 KB, sample ≈ 200 KB).
        #expect(pageData.count > 5 * blankData.count, "sample \(pageData.count) B vs blank \(blankData.count) B")

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
        let darkRun = try HeadlessBrowser.run(["--screenshot=\(darkPNG.path)", size, "--force-dark-mode"], url: pageURL, scratch: scratch)
        #expect(darkRun.status == 0)
        #expect(try Data(contentsOf: darkPNG) != pageData)
    }
}
