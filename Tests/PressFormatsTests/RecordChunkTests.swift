// `RecordChunk`'s touch records, one `ChunkTouch` each in storage the chunk owns: what is read
// back is what was appended, past the storage's first capacity, and a copy keeps its records
// when the original is appended to or emptied (copy on write).
import Testing
import PressCore
@testable import PressFormats

@Suite struct RecordChunkTests {
    /// Touch record `i` of the tests: session "s\(i % 3)", t = i / 4 s, x = i pt, y = -i pt,
    /// line 10 + i, its raw line "line \(i)" repeated `i % 50` times (0 to 245 bytes).
    static func record(_ i: Int) -> (RecordItem, String) {
        let phases: [TouchPhase] = [.began, .moved, .stationary, .ended, .cancelled]
        let r = TouchRecord(session: "s\(i % 3)", sample: TouchSample(t: Double(i) / 4, x: Double(i), y: -Double(i), phase: phases[i % 5]),
                            source: SourceLocation(file: "c.csv", line: 10 + i))
        return (.touch(r), String(repeating: "line \(i)", count: i % 50))
    }

    static func expectRecords(_ chunk: RecordChunk, _ range: Range<Int>) {
        #expect(chunk.touchCount == range.count)
        for (k, i) in range.enumerated() {
            let t = chunk.touch(k)
            #expect(t.sample == TouchSample(t: Double(i) / 4, x: Double(i), y: -Double(i), phase: [.began, .moved, .stationary, .ended, .cancelled][i % 5]))
            #expect(t.line == 10 + i)
            #expect(chunk.sessionIDs[Int(t.session)] == "s\(i % 3)")
            #expect(chunk.rawText(ofTouch: k) == String(repeating: "line \(i)", count: i % 50))
            #expect(chunk.fileName(ofTouch: k) == "c.csv")
        }
    }

    @Test func readsBackWhatWasAppendedPastItsCapacity() {
        var chunk = RecordChunk(capacity: 4)
        for i in 0..<300 { let (item, raw) = Self.record(i); chunk.append(item, rawText: raw) }
        Self.expectRecords(chunk, 0..<300)
        chunk.removeAll()
        #expect(chunk.touchCount == 0 && chunk.isEmpty)
        for i in 300..<310 { let (item, raw) = Self.record(i); chunk.append(item, rawText: raw) }
        Self.expectRecords(chunk, 300..<310)
    }

    @Test func aCopyKeepsItsRecordsWhenTheOriginalChanges() {
        var chunk = RecordChunk(capacity: 64)
        for i in 0..<20 { let (item, raw) = Self.record(i); chunk.append(item, rawText: raw) }
        let copy = chunk
        for i in 20..<40 { let (item, raw) = Self.record(i); chunk.append(item, rawText: raw) }
        Self.expectRecords(copy, 0..<20)
        Self.expectRecords(chunk, 0..<40)
        let second = chunk
        chunk.removeAll()
        for i in 100..<105 { let (item, raw) = Self.record(i); chunk.append(item, rawText: raw) }
        Self.expectRecords(second, 0..<40)
        Self.expectRecords(chunk, 100..<105)
    }
}
