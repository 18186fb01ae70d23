// `pressdb merge`: partials → one partial (their sum).
import Foundation
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
        configurations or all replayed as the same one. Partials that hold the same sessions
        (an input with the same content hash, or a session id in both) are refused unless
        --allow-overlap: addition would count them twice.

        Example:
          pressdb merge out/partials/*.json --out week.partial.json
        """
    )

    @Argument(name: "PARTIAL", help: "Partial files ('-' reads standard input)") var files: [String]
    @Option(.out) var out: String?
    @Flag(name: "allow-overlap", help: "Merge partials with an input or a session in common anyway, counting those sessions twice")
    var allowOverlap: Bool

    func validate() throws {
        if files.isEmpty { throw CLIError.usage("give the partials to merge (files written by 'pressdb aggregate')") }
    }

    func run() throws -> Int32 {
        var merged = try PartialIO.read(files[0])
        var unidentified = merged.unidentifiedSessions > 0 ? [files[0]] : []
        for (index, path) in files.enumerated().dropFirst() {
            let next = try PartialIO.read(path)
            if next.unidentifiedSessions > 0 { unidentified.append(path) }
            if !allowOverlap, let why = Partial.overlap(merged, next) {
                let earlier = index == 1 ? files[0] : "the partials before it"
                throw CLIError.failure("\(path) overlaps \(earlier): \(why); "
                    + "merging would count those sessions twice (--allow-overlap merges anyway)")
            }
            do { merged = try Partial.merging(merged, next) } catch let e as PartialError {
                throw CLIError.failure("\(path): \(e.message)")
            }
        }
        for path in unidentified where !allowOverlap {
            printError(TerminalTable.wrap("pressdb merge: warning: \(path): \(Partial.unidentifiedNote)",
                                          width: Terminal.width(STDERR_FILENO), indent: "  "))
        }
        try PartialIO.write(merged, to: out)
        return ExitCode.ok
    }
}
