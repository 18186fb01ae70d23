// Runs the built `pressdb` binary as a user would, for end-to-end tests.
import Foundation
import PressTestSupport

enum Binary {
    /// The `pressdb` executable next to the test bundle (SwiftPM puts both in the products
    /// directory).
    static var url: URL {
        var dir = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("pressdb")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("pressdb")
    }

    /// Runs `pressdb args…` with `stdin` as standard input and extra environment variables
    /// (always `NO_COLOR=1`).
    @discardableResult
    static func run(_ args: [String], stdin: String? = nil, environment: [String: String] = [:],
                    directory: URL? = nil) throws -> ProcessResult {
        try RunningProcess.run(url, args, environment: ["NO_COLOR": "1"].merging(environment) { $1 }, directory: directory,
                               stdin: stdin ?? "")
    }

    /// A fresh temporary directory for one test.
    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pressdb-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
