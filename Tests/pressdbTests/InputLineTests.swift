// Lines as ingest and replay --input read them, end to end through the `pressdb` binary: logs
// whose lines end in a lone CR (old Mac style), and a line longer than --max-line-bytes (a
// file without line ends), which is one reject read past in bounded memory. The expected counts
// are the sessions written into the inputs here.
import Foundation
import PressTestSupport
import Testing

@Suite struct InputLineTests {
    /// The reported reproduction: a 50-session log with CR-only line ends was one line, every
    /// session lost. Now the 50 sessions are stored, as from the same log with LF ends; the
    /// same for a CSV, and for replay --input.
    @Test func carriageReturnOnlyLogsKeepEverySession() throws {
        let dir = try Binary.temporaryDirectory()
        let generated = try Binary.run(["generate", "--sessions", "50", "--seed", "7"])
        let mac = generated.stdout.replacingOccurrences(of: "\n", with: "\r")
        #expect(!mac.contains("\n"))
        try mac.write(to: dir.appendingPathComponent("mac.ndjson"), atomically: true, encoding: .utf8)
        var csv = "session,t,phase,x,y\r"
        for k in 1...50 { csv += "c\(k),\(k),began,10,10\rc\(k),\(k).1,ended,10,10\r" }
        try csv.write(to: dir.appendingPathComponent("mac.csv"), atomically: true, encoding: .utf8)

        let r = try Binary.run(["ingest", "mac.ndjson", "mac.csv", "--db", "m.sqlite"], directory: dir)
        #expect(r.status == 0, "\(r.stderr.prefix(500))")
        #expect(try rows(dir.appendingPathComponent("m.sqlite"), "SELECT count(*) FROM sessions") == [["100"]])
        #expect(try rows(dir.appendingPathComponent("m.sqlite"), "SELECT count(*) FROM rejects") == [["0"]])

        let stream = try Binary.run(["replay", "--input", "mac.csv"], directory: dir)
        #expect(stream.status == 0, "\(stream.stderr.prefix(500))")
        #expect(stream.stdout.split(separator: "\n").count == 50)
    }

    /// A CR-only log's bad line is named by its own line number (line 4 of the CSV: header,
    /// two rows, then the bad one).
    @Test func carriageReturnOnlyLogsNameTheirLines() throws {
        let dir = try Binary.temporaryDirectory()
        try "session,t,phase,x,y\ra,0,began,1,1\ra,0.1,ended,1,1\rb,zero,began,1,1\r"
            .write(to: dir.appendingPathComponent("bad.csv"), atomically: true, encoding: .utf8)
        let r = try Binary.run(["ingest", "bad.csv", "--db", "b.sqlite"], directory: dir)
        #expect(r.status == 3)
        #expect(r.stderr.contains("bad.csv:4: "), "\(r.stderr)")
        #expect(try rows(dir.appendingPathComponent("b.sqlite"), "SELECT line FROM rejects") == [["4"]])
    }

    /// The reported reproduction: `--format ndjson /dev/zero` grew to 2.5 GB. A file of 200 MiB
    /// of zero bytes (sparse: no disk) and no line end, then a whole session: one reject
    /// `FILE:1: line longer than 16 MiB`, the session stored, and a peak resident set far below
    /// the line (about 60 MB here; the bound is 120 MiB, where before the line alone was 200).
    @Test(.enabled(if: ProcessMemory.python != nil, "python3 (which measures the peak memory) is not installed"))
    func aLineWithoutEndIsOneRejectInBoundedMemory() throws {
        let dir = try Binary.temporaryDirectory()
        let path = dir.appendingPathComponent("zero.ndjson").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 200 << 20)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(("\n" + #"{"session":"a","t":0,"phase":"began","x":1,"y":2}"# + "\n"
            + #"{"session":"a","t":0.1,"phase":"ended","x":1,"y":2}"# + "\n").utf8))
        try handle.close()
        defer { try? FileManager.default.removeItem(at: dir) }

        let db = dir.appendingPathComponent("z.sqlite")
        let (status, peak) = try ProcessMemory.runMeasuringPeak(Binary.url, ["ingest", "--format", "ndjson", "--db", db.path, path])
        #expect(status == 3)
        #expect(peak < 120 * 1024, "peak resident set \(peak) KiB")
        #expect(try rows(db, "SELECT count(*) FROM sessions") == [["1"]])
        #expect(try rows(db, "SELECT line, reason FROM rejects") == [["1", "line longer than 16 MiB (--max-line-bytes): "
            + "read past, not stored; if it is one record, raise --max-line-bytes"]])
    }

    /// `--format ndjson /dev/zero` is one line without end: read past in constant memory, it
    /// must still let Ctrl-C stop the ingest (before, the reader never came back to the loop, and
    /// only a second Ctrl-C ended it): status 130 within 3 s of the SIGINT.
    @Test func ctrlCStopsAnIngestReadingAnEndlessLine() throws {
        let dir = try Binary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = Process()
        process.executableURL = Binary.url
        process.arguments = ["ingest", "--format", "ndjson", "--db", dir.appendingPathComponent("z.sqlite").path, "/dev/zero"]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        usleep(1_500_000)
        let peak = ProcessMemory.peakResidentKiB(pid: process.processIdentifier) ?? 0
        kill(process.processIdentifier, SIGINT)
        let deadline = ContinuousClock.now + .seconds(3)
        while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
        let stopped = !process.isRunning
        if !stopped { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stopped)
        #expect(process.terminationStatus == 130, "\(stderr)")
        #expect(stderr.contains("interrupted: 0 sessions committed"), "\(stderr)")
        #expect(peak < 120 * 1024, "peak resident set \(peak) KiB after 1.5 s")
    }

    /// aggregate reads result lines with the same bound: a 17 MiB line (sparse zero bytes) is
    /// refused with its file and line, status 1, not skipped as blank.
    @Test func aggregateRefusesAResultLineLongerThanTheBound() throws {
        let dir = try Binary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("results.ndjson").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 17 << 20)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n".utf8))
        try handle.close()
        let r = try Binary.run(["aggregate", "results.ndjson", "--out", "p.json"], directory: dir)
        #expect(r.status == 1)
        #expect(r.stderr.contains("results.ndjson:1: line longer than 16 MiB"), "\(r.stderr)")
    }

    /// --max-line-bytes sets the bound, on ingest and replay --input: with 100 bytes, the
    /// 120-byte record on line 2 is the reject, and the session of lines 1 and 3 is whole.
    @Test func maxLineBytesSetsTheLongestLine() throws {
        let dir = try Binary.temporaryDirectory()
        let long = #"{"session":"b","t":0,"phase":"began","x":1,"y":2,"screen":""# + String(repeating: "s", count: 59) + #""}"#
        #expect(long.utf8.count == 120)
        let text = [#"{"session":"a","t":0,"phase":"began","x":1,"y":2}"#, long, #"{"session":"a","t":0.1,"phase":"ended","x":1,"y":2}"#]
            .joined(separator: "\n") + "\n"
        try text.write(to: dir.appendingPathComponent("l.ndjson"), atomically: true, encoding: .utf8)
        let r = try Binary.run(["ingest", "l.ndjson", "--db", "l.sqlite", "--max-line-bytes", "100"], directory: dir)
        #expect(r.status == 3)
        #expect(r.stderr.contains("l.ndjson:2: line longer than 100 bytes (--max-line-bytes)"), "\(r.stderr)")
        #expect(try rows(dir.appendingPathComponent("l.sqlite"), "SELECT count(*) FROM sessions") == [["1"]])
        let stream = try Binary.run(["replay", "--input", "l.ndjson", "--max-line-bytes", "100"], directory: dir)
        #expect(stream.stderr.contains("l.ndjson:2: line longer than 100 bytes"), "\(stream.stderr)")
        // The default holds the line.
        let whole = try Binary.run(["ingest", "l.ndjson", "--db", "w.sqlite"], directory: dir)
        #expect(whole.status == 0, "\(whole.stderr)")
        let bad = try Binary.run(["ingest", "l.ndjson", "--db", "x.sqlite", "--max-line-bytes", "10"], directory: dir)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--max-line-bytes"), "\(bad.stderr)")
    }
}
