// The shape every subcommand has, the parser that fills its declarations, and the help generated
// from them (swift-argument-parser's `ParsableCommand`, written here).
import Foundation

/// A subcommand's name, abstract and discussion, declared once.
struct CommandConfiguration: Sendable {
    /// The word after `pressdb` (`compare`).
    var name: String
    /// One line for `pressdb --help` and the top of the command's help.
    var abstract: String
    /// Paragraphs and examples after the usage line.
    var discussion: String = ""
}

/// A `pressdb` subcommand: a struct whose properties are its options, flags and arguments
/// (`@Option`, `@Flag`, `@Argument`), with `run` doing the work on the parsed values.
///
///     struct ConfigsCommand: ParsableCommand {
///         static let configuration = CommandConfiguration(name: "configs", abstract: "…")
///         @Option(.database) var database: DatabasePath
///         @Option(.format([.table, .csv, .json, .markdown])) var format: OutputFormat
///         func run() throws -> Int32 { … }
///     }
protocol ParsableCommand {
    static var configuration: CommandConfiguration { get }
    /// Every declaration at its default, before parsing (the wrappers' initialisers).
    init()
    /// Checks that concern several options at once (e.g. two that do not go together); runs
    /// after every value has parsed. Throws `CLIError.usage`.
    func validate() throws
    /// Does the work; returns the exit status or throws a `CLIError`.
    func run() throws -> Int32
}

extension ParsableCommand {
    func validate() throws {}
}

/// What parsing a command line gives: the command ready to run, or a request for its help.
enum ParseResult<Command> {
    case command(Command)
    case help
}

extension ParsableCommand {
    /// The declarations of a fresh instance in declaration order, each named (an unnamed one after
    /// its property: `refreshRate` → `refresh-rate`, a positional `name` → `NAME`).
    static func declarations(of command: Self) -> [Declaration] {
        var out: [Declaration] = []
        for child in Mirror(reflecting: command).children {
            guard let declared = child.value as? DeclaredArgument else { continue }
            let d = declared.declaration
            if d.name == nil, let label = child.label {
                let property = label.hasPrefix("_") ? String(label.dropFirst()) : label
                d.name = d.kind == .positional ? property.uppercased() : kebabCase(property)
            }
            out.append(d)
        }
        var seen = Set<String>()
        for d in out where d.kind != .positional {
            precondition(seen.insert("--" + d.name!).inserted, "\(configuration.name): --\(d.name!) declared twice")
            if let s = d.short { precondition(seen.insert("-\(s)").inserted, "\(configuration.name): -\(s) declared twice") }
        }
        return out
    }

    /// The declarations of this command.
    static var declarations: [Declaration] { declarations(of: Self()) }

    /// Parses `arguments` (without the command name) into a command ready to run, or `.help` for
    /// `--help`/`-h`. Every value parses, defaults fill what is not given, then `validate()`.
    /// - Throws: `CLIError.usage` naming the option, argument or value that is wrong.
    static func parse(_ arguments: [String]) throws -> ParseResult<Self> {
        let command = Self()
        let all = declarations(of: command)
        let options = all.filter { $0.kind != .positional }
        let positionals = all.filter { $0.kind == .positional }
        let name = configuration.name
        var given: [ObjectIdentifier: [String]] = [:]
        var texts: [String] = []
        var wantsHelp = false
        var onlyPositionals = false

        func declaration(for token: String) throws -> Declaration {
            if token.hasPrefix("--") {
                let n = String(token.dropFirst(2))
                if let d = options.first(where: { $0.name == n }) { return d }
            } else if token.count == 2, let c = token.last, let d = options.first(where: { $0.short == c }) {
                return d
            }
            let near = Suggestions.near(token, in: options.map { "--" + $0.name! })
            let hint = near.isEmpty ? "" : " (did you mean \(near.joined(separator: " or "))?)"
            throw CLIError.usage("unknown option '\(token)'\(hint); see 'pressdb \(name) --help'")
        }

        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            i += 1
            // "-" is standard input; "-0.5" a negative number.
            if onlyPositionals || a == "-" || !a.hasPrefix("-") || Double(a) != nil {
                texts.append(a)
                continue
            }
            if a == "--" { onlyPositionals = true; continue }
            if a == "--help" || a == "-h" { wantsHelp = true; continue }
            var token = a
            var inline: String? = nil
            if a.hasPrefix("--"), let eq = a.firstIndex(of: "=") {
                token = String(a[..<eq])
                inline = String(a[a.index(after: eq)...])
            }
            let d = try declaration(for: token)
            let id = ObjectIdentifier(d)
            d.wasGiven = true
            if d.kind == .flag {
                if inline != nil { throw CLIError.usage("--\(d.name!) takes no value") }
                given[id] = [""]
                continue
            }
            let value: String
            if let inline { value = inline } else {
                guard i < arguments.count else {
                    throw CLIError.usage("--\(d.name!) needs a value (\(d.placeholder ?? "VALUE"))")
                }
                value = arguments[i]
                i += 1
            }
            if !d.repeatable, given[id] != nil { throw CLIError.usage("--\(d.name!) given twice") }
            given[id, default: []].append(value)
        }
        if wantsHelp { return .help }

        // Positionals in order; a repeatable one takes the rest.
        var rest = texts[...]
        for p in positionals {
            if p.repeatable {
                try p.bind(p, Array(rest))
                rest = []
            } else if let text = rest.popFirst() {
                try p.bind(p, [text])
            } else if p.optional {
                try p.bind(p, [])
            } else {
                throw CLIError.usage("missing \(p.name!); see 'pressdb \(name) --help'")
            }
        }
        if let extra = rest.first {
            throw CLIError.usage("unexpected argument '\(extra)'; see 'pressdb \(name) --help'")
        }
        for d in options { try d.bind(d, given[ObjectIdentifier(d)] ?? []) }
        try command.validate()
        return .command(command)
    }

    /// Parses `arguments` for a command run from another command (`pressdb demo` runs ingest,
    /// report and compare); `--help` there is a programming error.
    static func parsed(_ arguments: [String]) throws -> Self {
        guard case .command(let c) = try parse(arguments) else { preconditionFailure("--help in \(arguments)") }
        return c
    }

    /// The usage line, e.g. `pressdb compare A B [options]`.
    static var usage: String {
        var parts = ["pressdb", configuration.name]
        let all = declarations
        for p in all where p.kind == .positional {
            var s = p.name! + (p.repeatable ? "..." : "")
            if p.optional { s = "[\(s)]" }
            parts.append(s)
        }
        if all.contains(where: { $0.kind != .positional }) { parts.append("[options]") }
        return parts.joined(separator: " ")
    }

    /// The full `--help` text, generated from the declarations.
    static var help: String {
        let all = declarations
        var out = HelpRow.wrap("OVERVIEW: \(configuration.abstract)", width: HelpRow.width).joined(separator: "\n")
            + "\n\nUSAGE: \(usage)\n"
        let discussion = configuration.discussion.trimmingCharacters(in: .newlines)
        if !discussion.isEmpty { out += "\n" + discussion + "\n" }
        let positionals = all.filter { $0.kind == .positional }
        if !positionals.isEmpty {
            out += "\nARGUMENTS:\n"
            for p in positionals { out += HelpRow.render(p.name!, p.helpText) }
        }
        out += "\nOPTIONS:\n"
        for o in all where o.kind != .positional {
            var left = o.short.map { "-\($0), " } ?? ""
            left += "--\(o.name!)"
            if let v = o.placeholder { left += " \(v)" }
            if o.repeatable { left += " ..." }
            out += HelpRow.render(left, o.helpText)
        }
        out += HelpRow.render("-h, --help", "Show this help and exit.")
        return out
    }
}

/// `refreshRate` → `refresh-rate`.
func kebabCase(_ name: String) -> String {
    var out = ""
    for c in name {
        if c.isUppercase { out += "-" + c.lowercased() } else { out.append(c) }
    }
    return out
}

/// One row of help: the option at the left, its help wrapped in a column at the right.
enum HelpRow {
    /// Where the help column starts.
    static let indent = 28
    /// The widest line of help (the terminal's 100 columns).
    static let width = 100

    static func render(_ left: String, _ help: String) -> String {
        let lines = wrap(help, width: width - indent)
        var out = "  " + left
        if left.count + 2 >= indent { out += "\n" + String(repeating: " ", count: indent) }
        else { out += String(repeating: " ", count: indent - left.count - 2) }
        out += lines.first ?? ""
        for l in lines.dropFirst() { out += "\n" + String(repeating: " ", count: indent) + l }
        return out + "\n"
    }

    /// Words of `text` in lines of at most `width` characters (a longer word stands alone).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty { line = String(word) }
            else if line.count + 1 + word.count <= width { line += " " + word }
            else { lines.append(line); line = String(word) }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
