// Helpers for the device-recording tests: the shared recordings and per-session summaries.
import Foundation
import PressCore
import Testing
@testable import PressFormats
import PressTestSupport

/// The shared real recordings (PressTestSupport's `SharedData`: `../shared/data` beside the
/// package root, never copied into the repository).
typealias SharedRecordings = SharedData

extension SharedData {
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

/// Each session is its expected contact: begins and ends at the expected times and points, has
/// the expected number of records, and nothing but moves between touch-down and lift (no
/// invented cancel).
func expectContacts(_ sessions: [SessionSummary], _ expected: [ExpectedContact],
                    sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    try #require(sessions.count == expected.count, sourceLocation: sourceLocation)
    for (s, e) in zip(sessions, expected) {
        #expect(s.first.phase == .began && s.last.phase == .ended, sourceLocation: sourceLocation)
        #expect(sameTime(s.first.t, e.began) && sameTime(s.last.t, e.ended), "\(s.first.t) \(s.last.t)",
                sourceLocation: sourceLocation)
        #expect(s.first.x == e.start.0 && s.first.y == e.start.1, sourceLocation: sourceLocation)
        #expect(s.last.x == e.end.0 && s.last.y == e.end.1, sourceLocation: sourceLocation)
        #expect(s.records.count == e.records, sourceLocation: sourceLocation)
        #expect(s.records.dropFirst().dropLast().allSatisfy { $0.sample.phase.isMove }, sourceLocation: sourceLocation)
    }
}
