// The shape every subcommand has, the parser that fills its declarations, and the help generated
// from them (swift-argument-parser's `ParsableCommand`, written here).
import Foundation
import PressCore

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
    /// An option group's (`@OptionGroup`) declarations stand where the group is declared.
    static func declarations(of command: Self) -> [Declaration] {
        var out: [Declaration] = []
        func collect(_ value: Any) {
            for child in Mirror(reflecting: value).children {
                if let group = child.value as? DeclaredGroup {
                    collect(group.members)
                    continue
                }
                guard let declared = child.value as? DeclaredArgument else { continue }
                let d = declared.declaration
                if d.name == nil, let label = child.label {
                    let property = label.hasPrefix("_") ? String(label.dropFirst()) : label
                    d.name = d.kind == .positional ? property.uppercased() : kebabCase(property)
                }
                out.append(d)
            }
        }
        collect(command)
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

    /// The full `--help` text, generated from the declarations, at most `width` columns wide
    /// where words allow (indented examples are kept whole, to copy).
    static func help(width: Int = HelpRow.width) -> String {
        let all = declarations
        var out = TextWrap.lines("OVERVIEW: \(configuration.abstract)", width: width).joined(separator: "\n")
            + "\n\nUSAGE: \(usage)\n"
        let discussion = configuration.discussion.trimmingCharacters(in: .newlines)
        if !discussion.isEmpty { out += "\n" + HelpRow.fit(discussion, width: width) + "\n" }
        let positionals = all.filter { $0.kind == .positional }
        if !positionals.isEmpty {
            out += "\nARGUMENTS:\n"
            for p in positionals { out += HelpRow.render(p.name!, p.helpText, width: width) }
        }
        out += "\nOPTIONS:\n"
        for o in all where o.kind != .positional {
            var left = o.short.map { "-\($0), " } ?? ""
            left += "--\(o.name!)"
            if let v = o.placeholder { left += " \(v)" }
            if o.repeatable { left += " ..." }
            out += HelpRow.render(left, o.helpText, width: width)
        }
        out += HelpRow.render("-h, --help", "Show this help and exit.", width: width)
        return out
    }

    /// The help at its full width (`HelpRow.width`), as a pipe gets it.
    static var help: String { help(width: HelpRow.width) }
}

/// `refreshRate` → `refresh-rate`.
func kebabCase(_ name: String) -> String {
    var out = ""
    for c in name {
        if c.isUppercase { out += "-" + c.lowercased() } else { out.append(c) }
    }
    return out
}

/// One row of help: the option at the left, its help wrapped in a column at the right; and the
/// wrapping of help's prose.
enum HelpRow {
    /// Where the help column starts.
    static let indent = 28
    /// The widest line of help when standard output is not a terminal (a pipe, a file, a test).
    static let width = 100
    /// The narrowest width help is wrapped to: below it the option column leaves too little room.
    static let narrowest = 60

    /// The width help written to `fd` gets: the terminal's columns (`Terminal.width`) between
    /// `narrowest` and `width`, or `width` when `fd` is not a terminal.
    static func terminalWidth(_ fd: Int32 = STDOUT_FILENO) -> Int {
        Terminal.width(fd).map { min(max($0, narrowest), width) } ?? width
    }

    static func render(_ left: String, _ help: String, width: Int = width) -> String {
        let lines = TextWrap.lines(help, width: width - indent)
        var out = "  " + left
        if left.count + 2 >= indent { out += "\n" + String(repeating: " ", count: indent) }
        else { out += String(repeating: " ", count: indent - left.count - 2) }
        out += lines.first ?? ""
        for l in lines.dropFirst() { out += "\n" + String(repeating: " ", count: indent) + l }
        return out + "\n"
    }

    /// `text` (a help's discussion) fitted to `width` columns where words allow. Three kinds of
    /// block, each wrapped again only when one of its lines is wider than `width`:
    /// - prose: a run of lines that begin with no space, wrapped as one paragraph;
    /// - a table row: an indented line whose text column starts after its last gap of two spaces
    ///   (`  130  interrupted …`), with the lines indented to that column that follow it, wrapped
    ///   in that column;
    /// - a command example (`  pressdb …` without a two-space gap, and the lines after one ending
    ///   in `\`): kept whole, to copy.
    /// Blank lines stay.
    static func fit(_ text: String, width: Int) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [String] = []
        var k = 0
        func leading(_ line: Substring) -> Int { line.prefix { $0 == " " }.count }
        while k < lines.count {
            let line = lines[k]
            if line.isEmpty { out.append(""); k += 1; continue }
            var block = [line]
            k += 1
            let indent = leading(line)
            if indent == 0 {
                while k < lines.count, !lines[k].isEmpty, leading(lines[k]) == 0 { block.append(lines[k]); k += 1 }
                out += block.contains { $0.count > width } ? TextWrap.lines(block.joined(separator: " "), width: width) : block.map(String.init)
                continue
            }
            if line.dropFirst(indent).hasPrefix("pressdb "), !line.dropFirst(indent).contains("  ") {
                var last = line
                while last.hasSuffix("\\"), k < lines.count { last = lines[k]; block.append(last); k += 1 }
                out += block.map(String.init)
                continue
            }
            // The text column: after the last run of two or more spaces past the indentation.
            var column = indent
            var i = line.index(line.startIndex, offsetBy: indent), spaces = 0, offset = indent
            while i < line.endIndex {
                if line[i] == " " { spaces += 1 } else { if spaces >= 2 { column = offset }; spaces = 0 }
                offset += 1
                i = line.index(after: i)
            }
            while k < lines.count, !lines[k].isEmpty, leading(lines[k]) == column, column > indent { block.append(lines[k]); k += 1 }
            guard block.contains(where: { $0.count > width }), width - column >= 20 else { out += block.map(String.init); continue }
            let body = ([line.dropFirst(column)] + block.dropFirst().map { $0.dropFirst(column) }).joined(separator: " ")
            out += TextWrap.lines(body, width: width, lead: String(line.prefix(column)),
                                  indent: String(repeating: " ", count: column))
        }
        return out.joined(separator: "\n")
    }
}
