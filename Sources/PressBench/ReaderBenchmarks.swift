// Benchmarks of the log readers: one record read from a generated log held in memory (bytes to
// `RecordItem`, or a chunk at a time into a `RecordChunk` as ingest reads; no database), and
// session assembly of the records read.
import PressCore
import PressFormats
import PressStore

/// The bytes of a generated log of `sessions` sessions (seed 1), header included for CSV.
private func generatedLog(_ format: TouchLogFormat, sessions: Int) -> (bytes: [UInt8], records: Int) {
    var c = SyntheticLogConfiguration()
    c.sessions = sessions
    let log = try! SyntheticLog(c)
    var writer = TouchLogWriter(format: format, capacity: 1 << 24)
    writer.writeHeader()
    var records = 0
    log.forEachRecord { session, index in
        writer.append(session, sample: index)
        records += 1
    }
    return (writer.buffer, records)
}

/// Reads `n` records from `log`, starting over at its end; returns a sum of what was read.
private func read<R: RecordSource>(_ n: Int, _ log: [UInt8], _ make: (ByteInput) -> R) -> Double {
    var sum = 0.0
    var left = n
    while left > 0 {
        var r = make(ByteInput(bytes: log, name: "bench"))
        while left > 0, let item = try! r.next() {
            if case .touch(let t) = item { sum += t.sample.x }
            left -= 1
        }
    }
    return sum
}

/// Reads `n` items a chunk (2,048 items) at a time, as ingest's reader thread does, starting over
/// at the log's end; returns a sum of what was read.
private func readChunks<R: ChunkedRecordSource>(_ n: Int, _ log: [UInt8], _ make: (ByteInput) -> R) -> Double {
    var sum = 0.0
    var left = n
    var chunk = RecordChunk(capacity: 2_048)
    while left > 0 {
        var r = make(ByteInput(bytes: log, name: "bench"))
        while left > 0 {
            chunk.removeAll()
            let read = try! r.read(into: &chunk, limit: min(2_048, left), yieldingBeforeWait: false)
            for i in 0..<chunk.touchCount { sum += chunk.touch(i).sample.x }
            left -= chunk.count
            if read == .end { break }
        }
    }
    return sum
}

/// Reads `n` records and assembles them into sessions, as ingest does before storing.
private func assemble<R: RecordSource>(_ n: Int, _ log: [UInt8], _ make: (ByteInput) -> R) -> Double {
    var sum = 0.0
    var left = n
    while left > 0 {
        var r = make(ByteInput(bytes: log, name: "bench"))
        var a = SessionAssembler<SessionAttributes, Origin>()
        while left > 0, let item = try! r.next() {
            if case .touch(let t) = item,
               case .completed(let s) = a.add(session: t.session, sample: t.sample, meta: t.attributes,
                                             at: Origin(sourceID: 1, line: t.source.line)) {
                sum += Double(s.samples.count)
            }
            left -= 1
        }
    }
    return sum
}

private let csvLog = generatedLog(.csv, sessions: 5_000).bytes
private let ndjsonLog = generatedLog(.ndjson, sessions: 5_000).bytes

/// The readers' benchmarks (generated logs of 5,000 sessions, about 52,000 records).
var readerBenchmarks: [Benchmark] { [
    Benchmark(name: "csv-read", what: "CSVReader.next(), one generated record") { n in read(n, csvLog, CSVReader.init) },
    Benchmark(name: "ndjson-read", what: "NDJSONReader.next(), one generated record") { n in read(n, ndjsonLog, NDJSONReader.init) },
    Benchmark(name: "csv-chunks", what: "CSVReader.read(into:), one generated record") { n in readChunks(n, csvLog, CSVReader.init) },
    Benchmark(name: "ndjson-chunks", what: "NDJSONReader.read(into:), one generated record") { n in
        readChunks(n, ndjsonLog, NDJSONReader.init)
    },
    Benchmark(name: "csv-assemble", what: "CSVReader.next() and SessionAssembler.add, one record") { n in
        assemble(n, csvLog, CSVReader.init)
    },
] }
