// The benchmark harness: time a closure over rounds, report the median per operation.
import Foundation

/// A named micro-benchmark: `body(n)` performs `n` operations and returns a value that is
/// consumed so the optimiser cannot remove the work.
struct Benchmark {
    var name: String
    var what: String
    var body: (Int) -> Double
}

/// Every benchmark; each file in Sources/PressBench adds its own to this list.
var allBenchmarks: [Benchmark] {
    []
    + springBenchmarks
    + readerBenchmarks
    + replayBenchmarks
}

/// The calling thread's CPU time in seconds (`CLOCK_THREAD_CPUTIME_ID`): on a machine shared
/// with other work, wall time counts the time the thread waits for a core; this does not.
private func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Times `b` with enough operations per round to take about 50 ms of CPU time, over 9 rounds;
/// returns the median CPU seconds per operation.
func measure(_ b: Benchmark) -> Double {
    var n = 1
    var sink = 0.0
    while true {
        let t0 = now(); sink += b.body(n); let dt = now() - t0
        if dt > 0.05 || n > 1 << 30 { break }
        n *= 2
    }
    var times: [Double] = []
    for _ in 0..<9 {
        let t0 = now(); sink += b.body(n); times.append((now() - t0) / Double(n))
    }
    if sink.isNaN { print("") }  // consume the results
    return times.sorted()[times.count / 2]
}

/// Runs `b` once with `n` operations, untimed rounds aside: a fixed amount of work, for
/// `valgrind --tool=callgrind` (instructions per operation = the difference between two counts,
/// e.g. `--count 20000` and `--count 0`, over 20,000).
func runOnce(_ b: Benchmark, _ n: Int) {
    let sum = b.body(n)
    print("\(b.name): \(n) operations (sum \(sum))")
}

func runBenchmarks(_ arguments: [String]) -> Int32 {
    var names = arguments
    if names.first == "--digest" {
        guard names.count == 3, let n = Int(names[1]), n >= 0 else {
            FileHandle.standardError.write(Data("pressdb-bench: --digest needs a number of sessions and an output file\n".utf8))
            return 2
        }
        return replayDigest(count: n, path: names[2])
    }
    var count: Int? = nil
    if let i = names.firstIndex(of: "--count") {
        guard i + 1 < names.count, let n = Int(names[i + 1]), n >= 0 else {
            FileHandle.standardError.write(Data("pressdb-bench: --count needs a number of operations (0 or more)\n".utf8))
            return 2
        }
        count = n
        names.removeSubrange(i...(i + 1))
    }
    let chosen = names.isEmpty ? allBenchmarks : allBenchmarks.filter { names.contains($0.name) }
    if chosen.isEmpty {
        FileHandle.standardError.write(Data("pressdb-bench: no benchmark named \(names.joined(separator: ", ")); have: \(allBenchmarks.map(\.name).joined(separator: ", "))\n".utf8))
        return 2
    }
    if let count {
        for b in chosen { runOnce(b, count) }
        return 0
    }
    print("| benchmark | what | CPU time per operation |")
    print("|---|---|---:|")
    for b in chosen {
        let s = measure(b)
        let text = s < 1e-6 ? String(format: "%.1f ns", s * 1e9) : s < 1e-3 ? String(format: "%.2f µs", s * 1e6) : String(format: "%.3f ms", s * 1e3)
        print("| \(b.name) | \(b.what) | \(text) |")
    }
    return 0
}
