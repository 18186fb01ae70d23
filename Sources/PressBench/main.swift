// pressdb-bench: micro-benchmarks of the core. `swift run -c release pressdb-bench [NAME...]`
// runs the named benchmarks (all without a name) and prints one line each: the median time per
// operation over several rounds. Whole-program benchmarks against sqlite3 are in scripts/bench.
import Foundation

exit(runBenchmarks(Array(CommandLine.arguments.dropFirst())))
