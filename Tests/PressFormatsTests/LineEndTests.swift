// Where ByteInput ends a line: LF, CR LF, and a lone CR in files that end their lines so (old Mac
// style); and a line longer than `maxLineBytes`, read past in bounded memory and returned as one
// empty line whose reject `takeLongLine()` gives. The expected lines are the inputs written here
// split by hand.
import Foundation
import Testing
import PressCore
@testable import PressFormats

@Suite struct LineEndTests {
    /// Every line `input` returns, with its number.
    static func lines(_ input: ByteInput) throws -> [(String, Int)] {
        var out: [(String, Int)] = []
        while let line = try input.nextLine() { out.append((String(decoding: line, as: UTF8.self), input.lineNumber)) }
        return out
    }

    /// A file holding `bytes`, for reads through `read(2)` in 1 MiB chunks.
    static func file(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("line-ends-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aLoneCarriageReturnEndsALine() throws {
        // "a", "b", an empty line, "c" (the last without an end).
        let got = try Self.lines(ByteInput(text: "a\rb\r\rc", name: "m"))
        #expect(got.map(\.0) == ["a", "b", "", "c"])
        #expect(got.map(\.1) == [1, 2, 3, 4])
    }

    @Test func carriageReturnLineFeedStaysOneLineEndOnceCarriageReturnsEndLines() throws {
        // A CR-only file with a final CR LF: the first LF ends the input, so CRs end lines, and
        // CR LF is still one end.
        let got = try Self.lines(ByteInput(text: "a\rb\rc\r\n", name: "m"))
        #expect(got.map(\.0) == ["a", "b", "c"])
        #expect(got.map(\.1) == [1, 2, 3])
    }

    @Test func aCarriageReturnInsideTheFirstLineOfALineFeedFileStaysInIt() throws {
        // A CR as JSON whitespace in line 1, LF lines after it: the CR is the line's own byte.
        let got = try Self.lines(ByteInput(text: "{\"a\":\r1}\n{\"b\":2}\n", name: "m"))
        #expect(got.map(\.0) == ["{\"a\":\r1}", "{\"b\":2}"])
        #expect(got.map(\.1) == [1, 2])
    }

    /// An LF file with a CR inside the line a 1 MiB read cuts: once an LF has ended a line, a
    /// CR no longer switches the line ends, so no line is split and every number holds.
    @Test func aCarriageReturnInALineCutByAReadOfALineFeedFileStaysInIt() throws {
        var bytes: [UInt8] = []
        var k = 0
        while bytes.count < (1 << 20) - 8 { k += 1; bytes += Array("line \(k)\n".utf8) }
        bytes += Array("cut\rthrough the read's end\n".utf8)   // spans byte 1,048,576
        bytes += Array("last\n".utf8)
        let path = try Self.file(bytes)
        defer { unlink(path) }
        let got = try Self.lines(ByteInput(path: path))
        #expect(got.count == k + 2)
        #expect(got.dropLast().last?.0 == "cut\rthrough the read's end" && got.dropLast().last?.1 == k + 1)
        #expect(got.last?.0 == "last" && got.last?.1 == k + 2)
    }

    @Test func lineFeedFilesKeepACarriageReturnInsideNoLine() throws {
        // Without a lone CR in line 1 or at a read's end, CR LF and LF files read as before.
        let got = try Self.lines(ByteInput(text: "a\r\nb\nc\r\n", name: "m"))
        #expect(got.map(\.0) == ["a", "b", "c"])
    }

    @Test func aByteOrderMarkBeforeCarriageReturnLinesIsDropped() throws {
        let got = try Self.lines(ByteInput(bytes: [0xEF, 0xBB, 0xBF] + Array("x\ry\r".utf8), name: "m"))
        #expect(got.map(\.0) == ["x", "y"])
    }

    /// 300,000 lines of "line N" ended by CR only, 3.2 MB: several 1 MiB reads, so lines fall
    /// across the reads' ends.
    @Test func carriageReturnLinesAcrossReadsKeepTheirNumbers() throws {
        var bytes: [UInt8] = []
        var expected: [String] = []
        for k in 1...300_000 {
            expected.append("line \(k)")
            bytes += Array("line \(k)\r".utf8)
        }
        let path = try Self.file(bytes)
        defer { unlink(path) }
        let got = try Self.lines(ByteInput(path: path))
        #expect(got.count == 300_000)
        let wrong = zip(got, expected).enumerated().first { $0.element.0.0 != $0.element.1 || $0.element.0.1 != $0.offset + 1 }
        #expect(wrong == nil, "line \(wrong.map { $0.offset + 1 } ?? 0): \(wrong.map { "\($0.element.0)" } ?? "")")
    }

    /// A CR last in what one read gave, its LF in the next (a pipe written in two parts): one
    /// line end, not an empty line between.
    @Test func carriageReturnLineFeedSplitBetweenReadsIsOneLineEnd() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let writeEnd = fds[1]
        let writer = Thread {
            _ = "x\ra\r".withCString { write(writeEnd, $0, 4) }
            usleep(100_000)
            _ = "\nb\r".withCString { write(writeEnd, $0, 3) }
            close(writeEnd)
        }
        writer.start()
        let input = ByteInput(fileDescriptor: fds[0], name: "p")
        let got = try Self.lines(input)
        close(fds[0])
        #expect(got.map(\.0) == ["x", "a", "b"])
        #expect(got.map(\.1) == [1, 2, 3])
    }

    @Test func ndjsonWithCarriageReturnLineEndsKeepsEverySessionAndLineNumber() throws {
        let text = [#"{"session":"a","t":0,"phase":"began","x":1,"y":2}"#,
                    #"{"session":"a","t":0.1,"phase":"ended","x":1,"y":2}"#,
                    #"{"session":"b","t":1,"phase":"tapped","x":1,"y":2}"#,
                    #"{"session":"c","t":2,"phase":"began","x":1,"y":2}"#].joined(separator: "\r") + "\r"
        var r = NDJSONReader(ByteInput(text: text, name: "mac.ndjson"))
        var touches = 0
        var rejects: [String] = []
        while let item = try r.next() {
            if case .touch = item { touches += 1 }
            if case .reject(let j) = item { rejects.append(j.description) }
        }
        #expect(touches == 3)
        #expect(rejects == [#"mac.ndjson:3: phase "tapped" is not one of began, moved, stationary, ended, cancelled"#])
    }

    @Test func csvWithCarriageReturnLineEndsKeepsEveryRowAndLineNumber() throws {
        let text = "session,t,phase,x,y\ra,0,began,1,2\ra,0.1,ended,1,2\rb,x,began,1,2\r"
        var r = CSVReader(ByteInput(text: text, name: "mac.csv"))
        var touches = 0
        var rejectLines: [Int] = []
        while let item = try r.next() {
            if case .touch = item { touches += 1 }
            if case .reject(let j) = item { rejectLines.append(j.source.line) }
        }
        #expect(touches == 2)
        #expect(rejectLines == [4])
    }

    // MARK: - The longest line

    @Test func aLineLongerThanTheLimitIsOneEmptyLineWithItsReject() throws {
        let long = String(repeating: "x", count: 1000)
        let input = ByteInput(text: "short\n\(long)\nnext\n", name: "f")
        input.maxLineBytes = 64
        var got: [(String, Int)] = []
        var longReject: Reject?
        while let line = try input.nextLine() {
            got.append((String(decoding: line, as: UTF8.self), input.lineNumber))
            if line.isEmpty { longReject = input.takeLongLine()?.reject }
        }
        #expect(got.map(\.0) == ["short", "", "next"])
        #expect(got.map(\.1) == [1, 2, 3])
        #expect(longReject?.description == "f:2: line longer than 64 bytes (--max-line-bytes): read past, not stored; "
            + "if it is one record, raise --max-line-bytes")
        // Its raw text is the line's first 200 bytes.
        #expect(longReject?.raw == String(repeating: "x", count: 200))
        // Taken once: a later empty line has none.
        #expect(input.takeLongLine() == nil)
    }

    /// A 5 MiB line (five reads and more) with a 1 MiB limit, then a CR-ended tail: the buffer
    /// never grows past 2 MiB, the line after it is read, and one at the end without a newline
    /// is one reject too.
    @Test func aLongLineIsReadPastInBoundedMemoryAcrossReads() throws {
        let bytes = Array("first\n".utf8) + [UInt8](repeating: 0x30, count: 5 << 20) + Array("\nafter\n".utf8)
            + [UInt8](repeating: 0x31, count: 3 << 20)
        let path = try Self.file(bytes)
        defer { unlink(path) }
        let input = try ByteInput(path: path)
        input.maxLineBytes = 1 << 20
        var got: [(String, Int, Bool)] = []
        while let line = try input.nextLine() {
            got.append((String(decoding: line, as: UTF8.self), input.lineNumber, line.isEmpty && input.takeLongLine() != nil))
        }
        #expect(got.map(\.0) == ["first", "", "after", ""])
        #expect(got.map(\.1) == [1, 2, 3, 4])
        #expect(got.map(\.2) == [false, true, false, true])
        #expect(input.bytesRead == bytes.count)
        // Every byte read past is hashed too: the hash is the whole file's.
        var whole = FNV1a64()
        whole.update(bytes)
        #expect(input.contentHash == whole.hex)
    }

    @Test func aLongLineEndedByACarriageReturnIsReadPastToo() throws {
        let input = ByteInput(text: "a\r" + String(repeating: "y", count: 500) + "\rb\r", name: "f")
        input.maxLineBytes = 100
        var got: [String] = []
        while let line = try input.nextLine() { got.append(line.isEmpty && input.takeLongLine() != nil ? "<long \(input.lineNumber)>" : String(decoding: line, as: UTF8.self)) }
        #expect(got == ["a", "<long 2>", "b"])
    }

    @Test func ndjsonAndCSVRejectTheLongLineAndGoOn() throws {
        let long = #"{"session":"a","t":0,"phase":"began","x":1,"y":2,"note":""# + String(repeating: "z", count: 300) + #""}"#
        let ndjson = ByteInput(text: long + "\n" + #"{"session":"a","t":0,"phase":"began","x":1,"y":2}"# + "\n", name: "n")
        ndjson.maxLineBytes = 128
        var r = NDJSONReader(ndjson)
        let items = try [r.next(), r.next(), r.next()]
        #expect(rejectReason(items[0]) == "n:1: line longer than 128 bytes (--max-line-bytes): read past, not stored; "
            + "if it is one record, raise --max-line-bytes")
        if case .touch(let t)? = items[1] { #expect(t.source.line == 2) } else { Issue.record("no touch: \(String(describing: items[1]))") }
        #expect(items[2] == nil)

        let csv = ByteInput(text: "session,t,phase,x,y\n" + String(repeating: "q", count: 300) + "\na,0,began,1,2\n", name: "c")
        csv.maxLineBytes = 128
        var c = CSVReader(csv)
        let rows = try [c.next(), c.next(), c.next()]
        #expect(rejectReason(rows[0])?.hasPrefix("c:2: line longer than 128 bytes") == true)
        if case .touch(let t)? = rows[1] { #expect(t.source.line == 3) } else { Issue.record("no touch: \(String(describing: rows[1]))") }
        #expect(rows[2] == nil)
    }
}
