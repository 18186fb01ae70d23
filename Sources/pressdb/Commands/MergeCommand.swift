// `pressdb merge`: partials → one partial (their sum).
import PressStore
import PressAnalysis

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "merge",
        abstract: "Add partials up into one ('pressdb aggregate' makes them).",
        discussion: """
        Every cell is added: sessions, event counts, latency histograms; the largest release
        jump is the largest of all. A user's cells in two partials are added into one user, so
        comparisons by user stay exact however the sessions were split. The partials must hold
        results under the same version of each configuration, and all under their own
        configurations or all replayed as the same one.

        Example:
          pressdb merge out/partials/*.json --out week.partial.json
        """
    )

    @Argument(name: "PARTIAL", help: "Partial files ('-' reads standard input)") var files: [String]
    @Option(.out) var out: String?

    func validate() throws {
        if files.isEmpty { throw CLIError.usage("give the partials to merge (files written by 'pressdb aggregate')") }
    }

    func run() throws -> Int32 {
        var merged = try PartialIO.read(files[0])
        for path in files.dropFirst() {
            do { merged = try Partial.merging(merged, try PartialIO.read(path)) } catch let e as PartialError {
                throw CLIError.failure("\(path): \(e.message)")
            }
        }
        try PartialIO.write(merged, to: out)
        return ExitCode.ok
    }
}
