// A small declarative argument parser in the shape of swift-argument-parser (which cannot be
// fetched here): each command declares its options once, and that one declaration drives
// parsing, validation and `--help`.
import Foundation

/// Exit statuses of `pressdb`, documented in `pressdb --help` and the README.
enum ExitCode {
    /// Success.
    static let ok: Int32 = 0
    /// The command failed (unreadable file, database error, …); the message says why.
    static let failure: Int32 = 1
    /// The command line is wrong (unknown option, missing value, bad number).
    static let usage: Int32 = 2
    /// The command finished, but some input was rejected (ingest): valid records were kept, the
    /// rejected lines are in the `rejects` table.
    static let rejects: Int32 = 3
    /// The command found nothing to work on (empty database, filter matching nothing).
    static let empty: Int32 = 4
}

/// An error that ends a command with a one-line message and an exit status.
struct CLIError: Error, CustomStringConvertible {
    var message: String
    var status: Int32
    var description: String { message }

    /// A command-line mistake (status 2).
    static func usage(_ message: String) -> CLIError { CLIError(message: message, status: ExitCode.usage) }
    /// A failure while running (status 1).
    static func failure(_ message: String) -> CLIError { CLIError(message: message, status: ExitCode.failure) }
}

/// One option of a command: `--name VALUE` when `value` is set, a flag otherwise.
struct OptionSpec {
    var name: String
    var short: Character? = nil
    /// The value's placeholder in help (`PATH`, `N`); nil for a flag.
    var value: String? = nil
    var help: String
    /// May be given more than once (values accumulate); a comma-separated value also splits.
    var repeatable: Bool = false

    static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, value: nil, help: help)
    }
    static func option(_ name: String, short: Character? = nil, _ value: String, help: String,
                       repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, short: short, value: value, help: help, repeatable: repeatable)
    }
}

/// A positional argument.
struct PositionalSpec {
    var name: String
    var help: String
    var optional: Bool = false
    var variadic: Bool = false
}

/// A command's declaration: name, one-line abstract, longer discussion, arguments and options.
struct CommandSpec {
    var name: String
    var abstract: String
    var discussion: String = ""
    var positionals: [PositionalSpec] = []
    var options: [OptionSpec] = []

    /// The usage line, e.g. `pressdb ingest [FILE|-]... [--db PATH]`.
    var usage: String {
        var parts = ["pressdb", name]
        for p in positionals {
            var s = p.name + (p.variadic ? "..." : "")
            if p.optional { s = "[\(s)]" }
            parts.append(s)
        }
        if !options.isEmpty { parts.append("[options]") }
        return parts.joined(separator: " ")
    }

    /// The full `--help` text, generated from the declarations.
    var help: String {
        var out = "OVERVIEW: \(abstract)\n\nUSAGE: \(usage)\n"
        if !discussion.isEmpty { out += "\n" + discussion.trimmingCharacters(in: .newlines) + "\n" }
        if !positionals.isEmpty {
            out += "\nARGUMENTS:\n"
            for p in positionals { out += Self.row(p.name, p.help) }
        }
        out += "\nOPTIONS:\n"
        for o in options {
            var left = o.short.map { "-\($0), " } ?? ""
            left += "--\(o.name)"
            if let v = o.value { left += " \(v)" }
            if o.repeatable { left += " ..." }
            out += Self.row(left, o.help)
        }
        out += Self.row("-h, --help", "Show this help and exit.")
        return out
    }

    private static func row(_ left: String, _ help: String) -> String {
        let pad = 28
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        var out = "  " + left
        if left.count + 2 >= pad { out += "\n" + String(repeating: " ", count: pad) }
        else { out += String(repeating: " ", count: pad - left.count - 2) }
        out += lines.first.map(String.init) ?? ""
        for l in lines.dropFirst() { out += "\n" + String(repeating: " ", count: pad) + l }
        return out + "\n"
    }

    /// Parses `arguments` (without the command name). `--help` is reported as `wantsHelp`.
    func parse(_ arguments: [String]) throws -> ParsedArguments {
        var parsed = ParsedArguments(command: name)
        var i = 0
        var onlyPositionals = false
        func spec(for token: String) throws -> OptionSpec {
            if token.hasPrefix("--") {
                let n = String(token.dropFirst(2))
                if let o = options.first(where: { $0.name == n }) { return o }
            } else if token.count == 2, let c = token.last, let o = options.first(where: { $0.short == c }) {
                return o
            }
            let near = options.map { "--" + $0.name }.filter { $0.hasPrefix(String(token.prefix(4))) }
            let hint = near.isEmpty ? "" : " (did you mean \(near.joined(separator: " or "))?)"
            throw CLIError.usage("pressdb \(name): unknown option '\(token)'\(hint); see 'pressdb \(name) --help'")
        }
        while i < arguments.count {
            let a = arguments[i]
            i += 1
            if onlyPositionals || a == "-" || !a.hasPrefix("-") || Double(a) != nil {
                parsed.positionals.append(a)
                continue
            }
            if a == "--" { onlyPositionals = true; continue }
            if a == "--help" || a == "-h" { parsed.wantsHelp = true; continue }
            var token = a
            var inline: String? = nil
            if a.hasPrefix("--"), let eq = a.firstIndex(of: "=") {
                token = String(a[..<eq])
                inline = String(a[a.index(after: eq)...])
            }
            let o = try spec(for: token)
            if o.value == nil {
                if inline != nil { throw CLIError.usage("pressdb \(name): --\(o.name) takes no value") }
                parsed.flags.insert(o.name)
                continue
            }
            let v: String
            if let inline { v = inline } else {
                guard i < arguments.count else {
                    throw CLIError.usage("pressdb \(name): --\(o.name) needs a value (\(o.value!))")
                }
                v = arguments[i]
                i += 1
            }
            if !o.repeatable, parsed.values[o.name] != nil {
                throw CLIError.usage("pressdb \(name): --\(o.name) given twice")
            }
            parsed.values[o.name, default: []].append(v)
        }
        if parsed.wantsHelp { return parsed }
        let maxCount = positionals.contains(where: \.variadic) ? Int.max : positionals.count
        if parsed.positionals.count > maxCount {
            let extra = parsed.positionals[positionals.count]
            throw CLIError.usage("pressdb \(name): unexpected argument '\(extra)'; see 'pressdb \(name) --help'")
        }
        let required = positionals.filter { !$0.optional }.count
        if parsed.positionals.count < required {
            let missing = positionals[parsed.positionals.count].name
            throw CLIError.usage("pressdb \(name): missing \(missing); see 'pressdb \(name) --help'")
        }
        return parsed
    }
}

/// The result of parsing: option values, flags and positionals, with typed accessors that throw
/// a usage error naming the option when a value does not parse.
struct ParsedArguments {
    var command: String
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    var wantsHelp = false

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func string(_ name: String) -> String? { values[name]?.last }
    /// All values of a repeatable option, comma-separated values split.
    func strings(_ name: String) -> [String] {
        (values[name] ?? []).flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }
            .filter { !$0.isEmpty }
    }
    func double(_ name: String) throws -> Double? {
        guard let s = string(name) else { return nil }
        guard let d = Double(s), d.isFinite else {
            throw CLIError.usage("pressdb \(command): --\(name) needs a finite number, not '\(s)'")
        }
        return d
    }
    func int(_ name: String) throws -> Int? {
        guard let s = string(name) else { return nil }
        guard let n = Int(s) else {
            throw CLIError.usage("pressdb \(command): --\(name) needs a whole number, not '\(s)'")
        }
        return n
    }
    /// The value of an option restricted to `choices`.
    func choice(_ name: String, _ choices: [String]) throws -> String? {
        guard let s = string(name) else { return nil }
        guard choices.contains(s) else {
            throw CLIError.usage("pressdb \(command): --\(name) must be one of \(choices.joined(separator: ", ")), not '\(s)'")
        }
        return s
    }
}
