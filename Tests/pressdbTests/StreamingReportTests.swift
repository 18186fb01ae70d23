// Reports stream their rows in bounded memory. A user report with endless rows
// ends promptly and quietly under `| head` (a closed pipe is not an error) and, read to no end,
// does not grow; `report sessions` holds no more memory for ten times the sessions.
import Foundation
import Testing
import PressTestSupport

/// The tester's report: an endless recursive CTE with a 100-byte blob per row.
private func endlessReport() throws -> (dir: URL, db: String) {
    let dir = try Binary.temporaryDirectory()
    let reports = dir.appendingPathComponent("reports")
    try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
    try """
    -- Endless rows.
    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x, randomblob(100) FROM c
    """.write(to: reports.appendingPathComponent("endless.sql"), atomically: true, encoding: .utf8)
    let db = dir.appendingPathComponent("s.sqlite").path
    let log = try Binary.run(["generate", "--sessions", "20", "--seed", "3"])
    #expect(try Binary.run(["ingest", "-", "--db", db, "--quiet"], stdin: log.stdout).status == 0)
    return (dir, db)
}

/// Reads a child's standard output as it comes, counting the bytes and keeping none.
private final class CountingReader: @unchecked Sendable {
    let lock = NSLock()
    private var counted = 0
    var bytes: Int { lock.withLock { counted } }

    init(_ handle: FileHandle) {
        DispatchQueue.global().async { [self] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                lock.withLock { counted += data.count }
            }
        }
    }
}

@Suite(.serialized) struct StreamingReportTests {
    // Before streaming, nothing reached `head` until the report had collected every row, so it
    // never ended (or aborted out of memory). The child runs under `ulimit -v` so a regression
    // fails fast instead of eating the machine's memory.
    @Test(arguments: ["table", "csv", "json", "ndjson", "markdown"])
    func endlessReportEndsQuietlyUnderHead(format: String) throws {
        let (dir, db) = try endlessReport()
        let script = """
        ulimit -v 2000000
        "$PRESSDB" report endless --reports "$DIR/reports" --db "$DB" --format \(format) 2>"$DIR/err.txt" | head -n 5
        echo "status=${PIPESTATUS[0]}" >&2
        """
        let r = try RunningProcess.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script],
                                       environment: ["PRESSDB": Binary.url.path, "DIR": dir.path, "DB": db, "NO_COLOR": "1"])
        #expect(r.stdout.split(separator: "\n", omittingEmptySubsequences: false).count == 6, "\(r.stdout)")
        #expect(r.stderr.contains("status=0"), "\(r.stderr)")
        #expect(try String(contentsOf: dir.appendingPathComponent("err.txt"), encoding: .utf8).isEmpty)
    }

    // Read to no end, the report's memory stays flat: its peak resident set after 6 MB of output
    // (about 400,000 rows) is within 8 MB of the peak after the first 1 MB. Before streaming, no
    // output came at all (every row was held until the end) and memory grew by about 300 bytes a
    // row.
    @Test(arguments: ["csv", "json", "ndjson"])
    func endlessReportDoesNotGrow(format: String) throws {
        let (dir, db) = try endlessReport()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "ulimit -v 2000000; exec \"$PRESSDB\" report endless --reports \"$DIR/reports\" --db \"$DB\" --format \(format)"]
        process.environment = ProcessInfo.processInfo.environment.merging(["PRESSDB": Binary.url.path, "DIR": dir.path, "DB": db]) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        // SIGKILL: a child started from a test thread inherits its blocked signals, SIGTERM too.
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) }; process.waitUntilExit() }
        let reader = CountingReader(pipe.fileHandleForReading)
        func wait(forBytes n: Int) -> Bool {
            let deadline = Date().addingTimeInterval(120)
            while reader.bytes < n && process.isRunning && Date() < deadline { usleep(20_000) }
            return reader.bytes >= n
        }
        #expect(wait(forBytes: 1 << 20), "the report wrote \(reader.bytes) bytes and \(process.isRunning ? "is still running" : "ended")")
        let early = try #require(ProcessMemory.peakResidentKiB(pid: process.processIdentifier))
        #expect(wait(forBytes: 6 << 20))
        let late = try #require(ProcessMemory.peakResidentKiB(pid: process.processIdentifier))
        #expect(late - early < 8 * 1024, "peak resident set \(early) KiB after 1 MB, \(late) KiB after 6 MB")
    }

    // `report sessions` on 2,000 and on 20,000 sessions: the larger needs no more than 8 MB more
    // at its peak (before streaming it held every row, its cells and the whole text: about 1 KB
    // per session, 18 MB more here; 421 MB for the tester's 400,000).
    @Test(.enabled(if: ProcessMemory.python != nil, "python3 (which measures the peak memory) is not installed"))
    func sessionsReportMemoryDoesNotGrowWithTheSessions() throws {
        var peaks: [Int] = []
        for n in [2_000, 20_000] {
            let dir = try Binary.temporaryDirectory()
            let db = dir.appendingPathComponent("m.sqlite").path
            let log = dir.appendingPathComponent("log.ndjson")
            let generated = try Binary.run(["generate", "--sessions", String(n), "--seed", "5"])
            try generated.stdout.write(to: log, atomically: true, encoding: .utf8)
            #expect(try Binary.run(["ingest", log.path, "--db", db, "--quiet"]).status == 0)
            for format in ["csv", "table"] {
                let (status, peak) = try ProcessMemory.runMeasuringPeak(Binary.url, ["report", "sessions", "--db", db, "--format", format])
                #expect(status == 0)
                if format == "csv" { peaks.append(peak) } else { peaks[peaks.count - 1] = max(peaks.last!, peak) }
            }
        }
        #expect(peaks[1] - peaks[0] < 8 * 1024, "peak resident set \(peaks[0]) KiB for 2,000 sessions, \(peaks[1]) KiB for 20,000")
    }
}
