import Foundation
@testable import PressRecorder
import Testing

/// A clock the test moves.
final class TestClock: @unchecked Sendable {
    var now = 100.0
}

@Suite struct PressLogFilesTests {
    func directory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("press-recorder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.path
    }

    func contents(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test func rotatesBySize() throws {
        let dir = try directory()
        var o = PressLogFiles.Options(directory: dir)
        o.maximumBytes = 10
        let files = try PressLogFiles(options: o)
        try files.write(Array("aaaaaa\n".utf8))   // 7 bytes: not yet due
        try files.write(Array("bbbbbb\n".utf8))   // 14 after it
        try files.write(Array("cccccc\n".utf8))   // due: rotated before this write
        #expect(files.finishedFiles() == ["\(dir)/presses-00000001.ndjson"])
        #expect(try contents("\(dir)/presses-00000001.ndjson") == "aaaaaa\nbbbbbb\n")
        #expect(try contents(files.activePath) == "cccccc\n")
    }

    @Test func rotatesByAgeAndNumbersInOrder() throws {
        let dir = try directory()
        let clock = TestClock()
        var o = PressLogFiles.Options(directory: dir)
        o.maximumAge = 60
        let files = try PressLogFiles(options: o, now: { clock.now })
        try files.write(Array("1\n".utf8))
        clock.now += 59
        try files.write(Array("2\n".utf8))
        clock.now += 1
        try files.write(Array("3\n".utf8))
        clock.now += 60
        try files.write(Array("4\n".utf8))
        #expect(files.finishedFiles().map { ($0 as NSString).lastPathComponent } == ["presses-00000001.ndjson", "presses-00000002.ndjson"])
        #expect(try contents(files.finishedFiles()[0]) == "1\n2\n")
        #expect(try contents(files.finishedFiles()[1]) == "3\n")
        // An empty active file is not rotated.
        let before = files.finishedFiles().count
        try files.rotate(); try files.rotate()
        #expect(files.finishedFiles().count == before + 1)
    }

    /// docs/recording.md: the app deletes each file once shipped. The next rotation must not
    /// use a name again (a server storing uploads by name would replace the first upload).
    @Test func namesAreNotReusedAfterShippedFilesAreDeleted() throws {
        let dir = try directory()
        var o = PressLogFiles.Options(directory: dir)
        o.maximumBytes = 1
        let files = try PressLogFiles(options: o)
        try files.write(Array("1\n".utf8)); try files.write(Array("2\n".utf8))   // rotates 1
        for f in files.finishedFiles() { try FileManager.default.removeItem(atPath: f) }
        try files.write(Array("3\n".utf8))                                         // rotates 2
        #expect(files.finishedFiles().map { ($0 as NSString).lastPathComponent } == ["presses-00000002.ndjson"])
        for f in files.finishedFiles() { try FileManager.default.removeItem(atPath: f) }
        // A new process (the app restarted) goes on from the number kept, not from 1.
        let again = try PressLogFiles(options: o)
        try again.write(Array("4\n".utf8))                                          // rotates 3
        #expect(again.finishedFiles().map { ($0 as NSString).lastPathComponent } == ["presses-00000003.ndjson"])
        #expect(try contents(again.finishedFiles()[0]) == "3\n")
    }

    /// A write that fails part-way (a full disk) leaves half a line; the next write ends it
    /// first, so the torn line stays one line and the next is whole.
    @Test func aWriteThatFailsPartWayLeavesOneTornLine() throws {
        let dir = try directory()
        let files = try PressLogFiles(options: PressLogFiles.Options(directory: dir))
        try files.write(Array("{\"session\":\"a\"}\n".utf8))
        var calls = 0
        files.systemWrite = { fd, p, n in
            calls += 1
            if calls == 1 { return write(fd, p, min(n, 5)) }   // 5 bytes, then the disk is full
            errno = ENOSPC
            return -1
        }
        #expect(throws: PressLogError.self) { try files.write(Array("{\"session\":\"b\"}\n".utf8)) }
        files.systemWrite = { fd, p, n in write(fd, p, n) }
        try files.write(Array("{\"session\":\"c\"}\n".utf8))
        let lines = try contents(files.activePath).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines == [#"{"session":"a"}"#, #"{"ses"#, #"{"session":"c"}"#, ""])   // the first 5 bytes of b's line
    }

    @Test func aTornLastLineStaysOneLine() throws {
        let dir = try directory()
        let path = "\(dir)/presses.ndjson"
        // A crash left half a line at the end.
        try "{\"session\":\"a\",\"t\":1,\"phase\":\"began\",\"x\":1,\"y\":1}\n{\"session\":\"a\",\"t\":2,\"ph"
            .write(toFile: path, atomically: false, encoding: .utf8)
        let files = try PressLogFiles(options: PressLogFiles.Options(directory: dir))
        try files.write(Array("{\"session\":\"b\"}\n".utf8))
        let lines = try contents(path).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines == [#"{"session":"a","t":1,"phase":"began","x":1,"y":1}"#, #"{"session":"a","t":2,"ph"#,
                          #"{"session":"b"}"#, ""])
    }

    @Test func aFileThatCannotBeOpenedSaysWhich() throws {
        #expect(throws: PressLogError.self) {
            _ = try PressLogFiles(options: PressLogFiles.Options(directory: "/nonexistent-\(UUID().uuidString)"))
        }
    }

    @Test func theRecorderWritesThroughTheFiles() throws {
        let dir = try directory()
        var o = PressLogFiles.Options(directory: dir)
        o.maximumBytes = 200
        let files = try PressLogFiles(options: o)
        var ro = PressRecorder.Options()
        ro.bufferBytes = 1
        ro.sessionPrefix = "s"
        let r = PressRecorder(options: ro, output: files)
        for k in 0..<10 {
            r.began(RecordedTouch(id: 1, phase: .began, location: .init(x: 1, y: 1), timestamp: Double(k)),
                    on: PressedControl(frame: .init(x: 0, y: 0, width: 10, height: 10)))
            r.update(RecordedTouch(id: 1, phase: .ended, location: .init(x: 1, y: 1), timestamp: Double(k) + 0.1))
        }
        let all = try (files.finishedFiles() + [files.activePath]).map(contents).joined()
        #expect(files.finishedFiles().count >= 2)
        #expect(all.split(separator: "\n").count == 20)
        #expect(all.split(separator: "\n").allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") })
    }
}
