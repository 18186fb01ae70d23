// Helpers for the device-recording tests: the shared recordings and per-session summaries.
import Foundation
import PressCore
@testable import PressFormats

/// The shared real recordings (/work/shared/data), found from this file's path: they live beside
/// the package root, in `../shared/data`, and are never copied into the repository.
enum SharedRecordings {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/data").standardized

    /// Whether the recordings are there. CI lays shared/ beside its clone (and `.ci/run` fails
    /// when it is missing), so these suites only skip in a standalone clone.
    static var available: Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent("README.md").path) }

    static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(relative)))
    }

    static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            .sorted().map { folder + "/" + $0 }
    }
}

/// One session's records, summarised.
struct SessionSummary {
    var session: String
    var records: [TouchRecord]
    var first: TouchSample { records.first!.sample }
    var last: TouchSample { records.last!.sample }
}

extension DeviceLogResult {
    /// Records grouped by session, in order of each session's first record.
    var sessions: [SessionSummary] {
        var order: [String] = []
        var bySession: [String: [TouchRecord]] = [:]
        for r in records {
            if bySession[r.session] == nil { order.append(r.session) }
            bySession[r.session, default: []].append(r)
        }
        return order.map { SessionSummary(session: $0, records: bySession[$0]!) }
    }
}

/// Reads text as a recording (hashing it for session ids), with `file` as its name.
func readRecording(_ text: String, format: DeviceLogFormat, file: String = "test",
                   options: DeviceLogOptions = DeviceLogOptions()) -> DeviceLogResult {
    DeviceLogReader.readAll(Array(text.utf8), format: format, file: file, options: options)
}

/// An expected contact: touch-down and lift times (s) and raw positions, and how many records.
struct ExpectedContact {
    var began: Double
    var start: (Double, Double)
    var ended: Double
    var end: (Double, Double)
    /// began + moved/stationary + ended.
    var records: Int
}

/// Two times within a microsecond (timestamps are printed to the microsecond).
func sameTime(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 5e-7 }
