// pressdb-bench: micro-benchmarks of the core. `swift run -c release pressdb-bench [NAME...]`
// runs the named benchmarks (all without a name) and prints one line each: the median CPU time
// of the thread per operation over several rounds. `pressdb-bench --count N NAME...` runs each
// named benchmark once with N operations, untimed: a fixed amount of work for callgrind's
// instruction counts.
// Whole-program benchmarks against sqlite3 and DuckDB are in scripts/bench.
import Foundation

exit(runBenchmarks(Array(CommandLine.arguments.dropFirst())))
