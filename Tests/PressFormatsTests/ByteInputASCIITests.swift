// `ByteInput.isASCII(line:)`, which answers from the bytes scanned as they were read, against a
// check of each line's own bytes: lines of every length, non-ASCII bytes at their first, last and
// middle positions, runs of non-ASCII lines, lines across the 1 MiB reads and one longer than the
// buffer.
import Foundation
import Testing
import PressCore
@testable import PressFormats

@Suite struct ByteInputASCIITests {
    /// About 3.5 MiB of seeded lines: a fifth hold a byte of 0x80 or more (0x80, 0xC3, 0xFF) at
    /// a random place, some in runs of ten lines; line 9,000 is 1.5 MiB with one such byte
    /// 100 bytes before its end.
    static func lines() -> [[UInt8]] {
        var r = SplitMix64(seed: 20)
        var out: [[UInt8]] = []
        var run = 0, total = 0
        while total < 3_500_000 {
            let n = out.count == 9_000 ? 1_500_000 : Int(r.next() % 300)
            var line = (0..<n).map { _ in UInt8(0x20 + r.next() % 0x5F) }
            if run == 0, r.next() % 200 == 0 { run = 10 }
            if n > 0, run > 0 || r.next() % 5 == 0 {
                let at = out.count == 9_000 ? n - 100 : [0, n - 1, Int(r.next() % UInt64(n))][Int(r.next() % 3)]
                line[at] = [0x80, 0xC3, 0xFF][Int(r.next() % 3)]
            }
            if run > 0 { run -= 1 }
            out.append(line)
            total += n + 1
        }
        return out
    }

    /// Every line's answer, read through `input`, against `allSatisfy` over its bytes.
    static func check(_ input: ByteInput, _ expected: [[UInt8]]) throws {
        var i = 0
        while let line = try input.nextLine() {
            #expect(Array(line) == expected[i])
            #expect(input.isASCII(line: line) == line.allSatisfy { $0 < 0x80 }, "line \(i + 1)")
            i += 1
        }
        #expect(i == expected.count)
    }

    @Test func agreesWithEachLinesBytesFromAFileAndFromMemory() throws {
        let lines = Self.lines()
        let bytes = Array(lines.joined(separator: [0x0A]))
        #expect(lines.contains { $0.contains { $0 >= 0x80 } } && lines.contains { !$0.isEmpty && $0.allSatisfy { $0 < 0x80 } })
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pressdb-ascii-\(getpid()).txt")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        try Self.check(try ByteInput(path: url.path), lines)
        try Self.check(ByteInput(bytes: bytes, name: "m"), lines)
    }
}
