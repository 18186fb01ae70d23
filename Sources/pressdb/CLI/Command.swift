// The shape every subcommand has.
import Foundation

/// A `pressdb` subcommand: its declaration and what it does. `run` returns the exit status or
/// throws a `CLIError` (a one-line message and a status).
protocol PressCommand {
    static var spec: CommandSpec { get }
    static func run(_ args: ParsedArguments) throws -> Int32
}

/// Options several commands share, declared once so their help reads the same everywhere.
enum CommonOptions {
    static let db = OptionSpec.option("db", "PATH",
        help: "The database file. Default: $PRESSDB_DB, else ./pressdb.sqlite.")
    static func format(_ formats: [OutputFormat], default def: OutputFormat = .table) -> OptionSpec {
        .option("format", "FORMAT", help: "Output: \(formats.map(\.rawValue).joined(separator: "|")) (default \(def.rawValue)).")
    }
    static let out = OptionSpec.option("out", "FILE", help: "Write the output to FILE instead of standard output.")
    static let quiet = OptionSpec.flag("quiet", short: "q", help: "Print no summary or progress on standard error.")

    /// The database path: `--db`, else `$PRESSDB_DB`, else `./pressdb.sqlite`.
    static func databasePath(_ args: ParsedArguments) -> String {
        if let p = args.string("db") { return p }
        if let p = ProcessInfo.processInfo.environment["PRESSDB_DB"], !p.isEmpty { return p }
        return "pressdb.sqlite"
    }

    /// The `--format` value among `allowed`, or `def`.
    static func outputFormat(_ args: ParsedArguments, _ allowed: [OutputFormat],
                             default def: OutputFormat = .table) throws -> OutputFormat {
        guard let s = try args.choice("format", allowed.map(\.rawValue)) else { return def }
        return OutputFormat(rawValue: s)!
    }
}
