// `pressdb aggregate`: replayed sessions → a partial (their mergeable sufficient statistics),
// from the result lines of 'pressdb replay --input' or from a database.
import Foundation
import PressFormats
import PressStore
import PressAnalysis

struct AggregateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "aggregate",
        abstract: "Sum replayed sessions into a partial that 'pressdb merge', 'report --from' and 'compare --from' read.",
        discussion: """
        Reads the result lines that 'pressdb replay --input' writes (FILE, or '-' for standard
        input; lines of another type are skipped), or without FILE the database, and writes one
        partial: per combination of config, variant, control, screen and app_version the
        sessions, the sessions with each event, the feedback and action latencies by exact
        value and the largest release jump; per config, variant and user the same counts and
        latencies, for comparisons by user. 'pressdb merge' adds partials up (users are matched
        by id); 'pressdb report --from' and 'pressdb compare --from' print from a partial what
        they print from a database holding the same sessions. The format is versioned JSON,
        documented in docs/scale-out.md.

        From a database, the partial holds what 'pressdb report' reads: each session's result
        under the current version of its own configuration, or with --as CONFIG the sessions
        replayed as CONFIG. From result lines, it holds the lines as they are; lines replayed
        with --as (counterfactual) make a partial of that configuration.

        Examples:
          pressdb replay --input day.ndjson | pressdb aggregate - > day.partial.json
          pressdb aggregate --db pressdb.sqlite --out all.partial.json
        """
    )

    @Argument(name: "FILE|-", help: "Result lines ('-' reads standard input); none reads the database") var files: [String]
    @Option(.database) var database: DatabasePath
    @Option(name: "as", value: "CONFIG", help: "From a database: the sessions replayed as CONFIG ('pressdb replay --as')")
    var replayedAs: String?
    @Option(.out) var out: String?

    func validate() throws {
        if !files.isEmpty {
            for option in [$database, $replayedAs] where option.wasGiven {
                throw CLIError.usage("\(option.displayName) reads a database; it does not go with result-line FILEs")
            }
        }
    }

    func run() throws -> Int32 {
        var partial: Partial
        if files.isEmpty {
            guard database.exists else {
                throw CLIError.empty("no database at \(database.path); give result lines ('pressdb aggregate FILE|-') or ingest a log first")
            }
            do { partial = try Partial(databasePath: database.path, replayedAs: replayedAs) } catch let e as PartialError {
                throw CLIError.failure(e.message)
            } catch {
                throw CLIError.failure(DatabaseProblem.describe(error, path: database.path))
            }
        } else {
            partial = Partial()
            for input in try RecordInputs.open(files) {
                // What the partial summarises: each input's hash and session-id range.
                var source = PartialSource.Reading(name: input.name)
                while let line = try input.nextLine() {
                    source.line(line)
                    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                        // An empty line may be one longer than the input holds, read past.
                        if line.isEmpty, let long = input.takeLongLine() { throw CLIError.failure(long.reject.description) }
                        continue
                    }
                    do { if let id = try partial.addResultLine(line) { source.session(id) } } catch let e as PartialError {
                        throw CLIError.failure("\(input.name):\(input.lineNumber): \(e.message)")
                    }
                }
                partial.sources.append(source.source)
            }
        }
        if partial.sessions == 0 {
            throw CLIError.empty(files.isEmpty ? "the database \(database.path) holds no replayed session to aggregate"
                                 : "no result line to aggregate in \(files.joined(separator: ", "))")
        }
        try PartialIO.write(partial, to: out, protecting: files.isEmpty ? database.path : nil)
        return ExitCode.ok
    }
}

/// Reading and writing partial files for the commands.
enum PartialIO {
    /// Reads the partial at `path` (`-`: standard input).
    /// - Throws: `CLIError.failure` naming the file and what is wrong.
    static func read(_ path: String) throws -> Partial {
        let input: ByteInput
        do { input = path == "-" ? ByteInput(fileDescriptor: STDIN_FILENO, name: "-") : try ByteInput(path: path) } catch let e as InputError {
            throw CLIError.failure("cannot read \(e.message)")
        }
        do { return try Partial(json: try input.readRemaining(), name: path) } catch let e as PartialError {
            throw CLIError.failure(e.message)
        }
    }

    /// Writes `partial` to `--out FILE` or standard output.
    static func write(_ partial: Partial, to out: String?, protecting database: String? = nil) throws {
        try emit(String(decoding: partial.json, as: UTF8.self), to: out, protecting: database)
    }
}
