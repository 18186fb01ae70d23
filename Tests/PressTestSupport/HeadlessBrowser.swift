// A headless Chromium for the tests that render pages: found on PATH (Debian's package is
// `chromium`), run under a timeout, its screenshots checked as PNGs.
import Foundation

public enum HeadlessBrowser {
    public static let candidates = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]

    /// The first of `candidates` on PATH, or nil.
    public static let path: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in candidates {
            for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }()

    /// Why a browser test skips.
    public static let unavailable =
        "no headless Chromium on PATH (chromium, chromium-browser, google-chrome): apt-get install -y chromium"

    struct NotInstalled: Error, CustomStringConvertible {
        var description: String { HeadlessBrowser.unavailable }
    }

    /// Runs the browser headless on `url` with `arguments`, under coreutils' `timeout` (120 s)
    /// when present so a hung browser cannot hang the suite; its profile and output files live in
    /// `scratch`.
    /// - Throws: when no browser is installed, or it cannot be started.
    public static func run(_ arguments: [String], url: URL, scratch: URL) throws -> ProcessResult {
        guard let browser = path else { throw NotInstalled() }
        let common = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                      "--user-data-dir=\(scratch.appendingPathComponent("profile").path)"]
        let command = common + arguments + [url.absoluteString]
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/timeout") {
            return try RunningProcess.run(URL(fileURLWithPath: "/usr/bin/timeout"), ["120", browser] + command,
                                          outputDirectory: scratch)
        }
        return try RunningProcess.run(URL(fileURLWithPath: browser), command, outputDirectory: scratch)
    }

    /// Screenshots of `page` and of an empty page at `width` × `height`, with the runs' results.
    /// The blank one is the yardstick: a page with charts and text compresses far worse.
    public static func screenshots(of page: URL, width: Int, height: Int, scratch: URL,
                                   arguments: [String] = []) throws -> Screenshots {
        let blank = scratch.appendingPathComponent("blank.html")
        try "<!DOCTYPE html><html><head><meta charset=\"utf-8\"/><title>blank</title></head><body></body></html>"
            .write(to: blank, atomically: true, encoding: .utf8)
        let size = "--window-size=\(width),\(height)"
        let blankPNG = scratch.appendingPathComponent("blank.png")
        let pagePNG = scratch.appendingPathComponent(page.deletingPathExtension().lastPathComponent + ".png")
        let blankRun = try run(["--screenshot=\(blankPNG.path)", size] + arguments, url: blank, scratch: scratch)
        let pageRun = try run(["--screenshot=\(pagePNG.path)", size] + arguments, url: page, scratch: scratch)
        return Screenshots(page: (try? Data(contentsOf: pagePNG)) ?? Data(), blank: (try? Data(contentsOf: blankPNG)) ?? Data(),
                           pageRun: pageRun, blankRun: blankRun)
    }

    /// A page's screenshot and a blank page's, as PNG bytes (empty when the browser wrote none).
    public struct Screenshots: Sendable {
        public var page: Data
        public var blank: Data
        public var pageRun: ProcessResult
        public var blankRun: ProcessResult
    }

    /// Width and height from a PNG's IHDR chunk (PNG specification §11.2.2: bytes 16–23,
    /// big-endian), after checking the 8-byte signature and the chunk type; nil for anything else.
    public static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
              bytes[12..<16] == [0x49, 0x48, 0x44, 0x52] else { return nil }  // "IHDR"
        func u32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (u32(16), u32(20))
    }

    /// A scratch directory for one browser test: `$variable` when set (kept afterwards, to look
    /// at the pages and screenshots), else a new temporary one that `cleanUp` removes.
    public static func scratch(keptIn variable: String) throws -> (url: URL, cleanUp: @Sendable () -> Void) {
        if let keep = ProcessInfo.processInfo.environment[variable] {
            let url = URL(fileURLWithPath: keep)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return (url, {})
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("press-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return (url, { try? FileManager.default.removeItem(at: url) })
    }
}
