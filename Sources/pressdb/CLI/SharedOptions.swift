// Options several commands share, declared once so they parse, check and read the same
// everywhere: --db, --format, --out, --quiet, --where and --by. A command declares one with
// `@Option(.database) var database: DatabasePath`; what varies between commands (the formats
// offered, the groupings) is a parameter.
import Foundation
import PressCore
import PressFormats
import PressStats
import PressStore
import PressSQLite
import PressAnalysis

// MARK: - --db

/// The database file: `--db PATH`, else `$PRESSDB_DB`, else `./pressdb.sqlite`. Never a
/// temporary or URI database (SQLite reads "", ":memory:" and "file:…" so, and data written there
/// would vanish while the command reports success), never a directory.
struct DatabasePath: ExpressibleByArgument, Equatable {
    var path: String

    init(_ path: String) { self.path = path }

    init(argument: String) throws(InvalidArgument) {
        guard !argument.isEmpty, argument != ":memory:", !argument.hasPrefix("file:") else {
            throw .requirement("needs a file path")
        }
        path = argument
    }

    /// `$PRESSDB_DB` when set and not empty, else `pressdb.sqlite`.
    static var environmentDefault: DatabasePath {
        if let p = ProcessInfo.processInfo.environment["PRESSDB_DB"], !p.isEmpty { return DatabasePath(p) }
        return DatabasePath("pressdb.sqlite")
    }

    var argumentDescription: String { path }

    func checkUsable() throws(InvalidArgument) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .message("the database \(path) is a directory; give a file path with --db (e.g. \(path)/pressdb.sqlite)")
        }
    }

    var exists: Bool { FileManager.default.fileExists(atPath: path) }

    /// The error of a command that reads a database there is none of (exit 4), saying how to
    /// make one and where the demo's is (a temporary folder, not the default path).
    var missing: CLIError {
        .empty("no database at \(path); ingest a log first ('pressdb ingest FILE'), or point --db or PRESSDB_DB "
               + "at the one 'pressdb demo' printed")
    }

    /// Opens the database for writing (creating it when missing). A database this call created
    /// and could not set up (a full disk) is removed again: nothing is left when nothing could
    /// be stored.
    /// - Throws: `CLIError.failure` with `DatabaseProblem`'s one-line reason.
    func openStore() throws -> Store {
        let existed = exists
        do { return try Store.open(path: path) } catch {
            if !existed { Schema.removeIfNothingCommitted(path: path) }
            throw CLIError.failure(DatabaseProblem.describe(error, path: path))
        }
    }
}

extension DatabasePath {
    /// Runs `body`, which writes the database, turning a database failure (a full disk, a
    /// read-only file, a lock held too long) into `CLIError.failure` with `DatabaseProblem`'s
    /// one line naming the database and what to do.
    func writing<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as DatabaseError {
            throw CLIError.failure(DatabaseProblem.describe(e, path: path))
        }
    }
}

extension Option where Value == DatabasePath {
    /// `--db PATH`: the database the command reads or writes.
    static var database: Option {
        Option(wrappedValue: .environmentDefault, name: "db", value: "PATH", help: "The database file",
               defaultDescription: "$PRESSDB_DB, else ./pressdb.sqlite")
    }
}

// MARK: - --format

extension Option where Value: ExpressibleByArgument {
    /// `--format FORMAT`: the output format among `choices` (in the order help lists them).
    static func format(_ choices: [Value], default value: Value? = nil) -> Option {
        Option(wrappedValue: value ?? choices[0], name: "format", value: "FORMAT", help: "Output", choices: choices)
    }
}

extension OutputFormat: ChoiceArgument {}

/// The formats of a report-like command: the tabular ones and a self-contained HTML page.
enum DocumentFormat: String, ChoiceArgument {
    case table, csv, json, ndjson, markdown, html

    /// The `OutputFormat` that renders it; nil for HTML.
    var tabular: OutputFormat? { OutputFormat(rawValue: rawValue) }
}

// MARK: - --out

extension Option where Value == String? {
    /// `--out FILE`: where `emit` writes the output instead of standard output.
    static var out: Option {
        Option(name: "out", value: "FILE", help: "Write the output to FILE instead of standard output")
    }
}

// MARK: - --quiet

extension Flag {
    /// `-q, --quiet`.
    static var quiet: Flag { quiet(help: "Print no summary or progress on standard error.") }
    /// `-q, --quiet` with the command's own words for what it leaves out.
    static func quiet(help: String) -> Flag { Flag(name: "quiet", short: "q", help: help) }
}

// MARK: - --wide, --columns, --explain (terminal tables)

extension Flag {
    /// `--wide`: a terminal table with every column in full, however wide.
    static var wide: Flag {
        Flag(name: "wide", help: "Terminal table: every column in full, however wide (default: fitted to the terminal's width).")
    }
    /// `--explain`: a line per column under a terminal table.
    static var explain: Flag {
        Flag(name: "explain", help: "Terminal table: explain each column shown (its full name, abbreviations and unit) under it.")
    }
}

extension Option where Value == [String] {
    /// `--columns NAME,...`: the terminal table's columns, by their CSV names, in this order.
    static var columns: Option {
        Option(name: "columns", value: "NAME", help: "Terminal table: only these columns, in this order (names as in the CSV header)")
    }
}

// MARK: - --where

/// One `KEY=VALUE` pair of `--where`.
struct Equality: ExpressibleByArgument, Equatable {
    var key: String
    var value: String

    init(argument: String) throws(InvalidArgument) {
        guard let eq = argument.firstIndex(of: "=") else { throw .requirement("takes KEY=VALUE pairs") }
        key = String(argument[..<eq])
        value = String(argument[argument.index(after: eq)...])
    }

    var argumentDescription: String { "\(key)=\(value)" }

    /// The pairs as a dictionary.
    /// - Throws: `CLIError.usage` when one key is given two values: a session has one, so the
    ///   filter would match nothing (a later pair used to win without a word).
    static func dictionary(_ pairs: [Equality]) throws -> [String: String] {
        var out: [String: String] = [:]
        for p in pairs {
            if let earlier = out[p.key], earlier != p.value {
                throw CLIError.usage("--where gives \(p.key) two values ('\(earlier)' and "
                    + "'\(p.value)'); a session has one: give one, or see each with --by \(p.key)")
            }
            out[p.key] = p.value
        }
        return out
    }
}

extension Option where Value == [Equality] {
    /// `--where KEY=VALUE ...`: only sessions with these values; `keys` are the store's filter
    /// keys (`ReportFilter.filterKeys`), `note` anything the command adds.
    static func `where`(keys: [String], note: String? = nil) -> Option {
        Option(name: "where", value: "KEY=VALUE", help: "Only sessions with these values",
               discussion: "Keys: \(keys.joined(separator: ", "))" + (note.map { "; \($0)" } ?? "") + ".")
    }
}

// MARK: - --by

extension Option where Value == String {
    /// `--by COLUMN`: the grouping, one of `groupings` (the store's list).
    static func by(_ groupings: [String], default value: String, value placeholder: String = "COLUMN",
                   help: String, discussion: String? = nil) -> Option {
        Option(wrappedValue: value, name: "by", value: placeholder, help: help, discussion: discussion, choices: groupings)
    }
}

// MARK: - The longest input line (ingest, replay --input)

extension Option where Value == Int {
    /// `--max-line-bytes N`: a longer input line is one reject, read past without holding it.
    static var maxLineBytes: Option {
        Option(wrappedValue: ByteInput.defaultMaxLineBytes, name: "max-line-bytes", value: "N",
               help: "The longest input line held, in bytes; a longer one is rejected as 'line longer than …' and read past",
               rule: .within(64...(1 << 30), "must be 64 to 1073741824 bytes"), defaultDescription: "16777216 (16 MiB)")
    }
}

// MARK: - The frustration signals' parameters (report, compare)

// The five `FrustrationParameters` as options, declared once and grouped in `FrustrationOptions`;
// their defaults and sources are `FrustrationParameters`' (docs/frustration.md).
extension Option where Value == Int {
    /// `--rage-count N`: presses in a row on one control that make a rage episode.
    static var rageCount: Option {
        Option(wrappedValue: FrustrationParameters().rageCount, name: "rage-count", value: "N",
               help: "Rage press: presses in a row on one control (PostHog's click_count)",
               rule: .within(2...1000, "must be at least 2"))
    }
}

extension Option where Value == Double {
    /// `--rage-span S`: the most seconds from a rage episode's first touch-down to its last.
    static var rageSpan: Option {
        signalParameter("rage-span", \.rageSpan, value: "S", upTo: 3600,
                        help: "Rage press: the most seconds from the first touch-down to the last (PostHog's timeout_ms)")
    }
    /// `--rage-radius PT`: the most points a rage episode's touch-downs lie from its first.
    static var rageRadius: Option {
        signalParameter("rage-radius", \.rageRadius, value: "PT", upTo: 10000,
                        help: "Rage press: the most points from the first touch-down (PostHog's threshold_px)")
    }
    /// `--cancel-retry-window S`: seconds from a cancel's end within which a tap is a retry.
    static var cancelRetryWindow: Option {
        signalParameter("cancel-retry-window", \.cancelRetryWindow, value: "S", upTo: 3600,
                        help: "Retry after cancel: the most seconds from the failed press's end to the tap")
    }
    /// `--unseen-retry-window S`: seconds from an unseen press's end within which a press is a retry.
    static var unseenRetryWindow: Option {
        signalParameter("unseen-retry-window", \.unseenRetryWindow, value: "S", upTo: 3600,
                        help: "Retry after unseen: the most seconds from the unseen press's end to the next press")
    }

    /// A parameter from 0 to `limit` whose default is `FrustrationParameters`' value at `keyPath`.
    private static func signalParameter(_ name: String, _ keyPath: KeyPath<FrustrationParameters, Double>, value: String,
                                        upTo limit: Double, help: String) -> Option {
        Option(wrappedValue: FrustrationParameters()[keyPath: keyPath], name: name, value: value, help: help,
               rule: .between(0, limit, "must lie between 0 and \(Int(limit))"))
    }
}

/// The five options as one group, for every command that computes the signals
/// (`@OptionGroup var signals: FrustrationOptions`), and the `FrustrationParameters` they give.
struct FrustrationOptions: ParsableArguments {
    @Option(.rageCount) var rageCount: Int
    @Option(.rageSpan) var rageSpan: Double
    @Option(.rageRadius) var rageRadius: Double
    @Option(.cancelRetryWindow) var cancelRetryWindow: Double
    @Option(.unseenRetryWindow) var unseenRetryWindow: Double

    /// The parameters the options give (`FrustrationParameters`' defaults where not given).
    var parameters: FrustrationParameters {
        var p = FrustrationParameters()
        p.rageCount = rageCount; p.rageSpan = rageSpan; p.rageRadius = rageRadius
        p.cancelRetryWindow = cancelRetryWindow; p.unseenRetryWindow = unseenRetryWindow
        return p
    }

    /// The five declarations (for "does not apply with" checks).
    var declarations: [Declaration] { [$rageCount, $rageSpan, $rageRadius, $cancelRetryWindow, $unseenRetryWindow] }
}

// MARK: - Values from the other modules

extension TouchLogFormat: ChoiceArgument {}
extension MultipleComparisonCorrection: ChoiceArgument {}
extension SessionSignal: ChoiceArgument {}

extension Container: ExpressibleByArgument {
    init(argument: String) throws(InvalidArgument) {
        guard let c = Container(named: argument) else {
            throw .requirement("must be one of \(Self.allValueStrings!.joined(separator: ", "))")
        }
        self = c
    }
    var argumentDescription: String { name ?? "custom" }
    static var allValueStrings: [String]? { Container.named.compactMap(\.name) }
}
