// Option, flag and positional-argument declarations in the shape of swift-argument-parser (which
// cannot be fetched here): each is a property wrapper on a command's property, so the one
// declaration gives the name, the value's type, its default, its choices and rules and its help
// row, and the command reads the parsed value as a typed property. An option the command did not
// declare cannot be read: there is no property to read.
//
//     struct CompareCommand: ParsableCommand {
//         @Option(value: "A", help: "Significance level; intervals are 1 − A",
//                 rule: .between(0, 1, "must lie between 0 and 1"))
//         var alpha = StatsConfiguration.defaultAlpha
//         ...
//         func run() throws -> Int32 { configuration.alpha = alpha ... }
//     }
import Foundation

/// A condition a parsed value must meet, with the words for when it does not: `--NAME <failure>,
/// not TEXT` (e.g. "must be positive").
struct Rule<Value> {
    var failure: String
    var holds: (Value) -> Bool

    init(_ failure: String, _ holds: @escaping (Value) -> Bool) {
        self.failure = failure
        self.holds = holds
    }
}

extension Rule where Value == Double {
    /// x > 0.
    static var positive: Rule { Rule("must be positive") { $0 > 0 } }
    /// x ≥ 0.
    static var nonNegative: Rule { Rule("must be zero or positive") { $0 >= 0 } }
    /// lower < x < upper.
    static func between(_ lower: Double, _ upper: Double, _ failure: String) -> Rule {
        Rule(failure) { $0 > lower && $0 < upper }
    }
}

extension Rule where Value: Comparable {
    /// x in `range`.
    static func within(_ range: ClosedRange<Value>, _ failure: String) -> Rule { Rule(failure) { range.contains($0) } }
}

/// What the parser and the help know of one declaration, whatever its value's type. Created by
/// the property wrappers; the parser fills in the name from the property when none was given.
final class Declaration {
    enum Kind { case option, flag, positional }

    let kind: Kind
    /// The long name without dashes (`refresh-rate`) or a positional's display name (`FILE|-`);
    /// nil until the parser names it after its property.
    var name: String?
    let short: Character?
    /// The value's placeholder in help (`PATH`, `N`); nil for flags and positionals.
    let placeholder: String?
    /// The first sentence of the help, without its full stop; choices and the default follow it.
    let help: String
    /// More sentences after the default.
    let discussion: String?
    /// The default as help shows it ("default 0.05"); nil when there is none to show.
    let defaultDescription: String?
    /// The accepted values when there are few (help lists them joined by "|").
    let choices: [String]?
    /// Options: may be given more than once, and a comma-separated value splits. Positionals:
    /// takes every remaining argument.
    let repeatable: Bool
    /// A repeatable option whose values keep their commas (each given once per occurrence).
    var keepsCommas = false
    /// Positionals: may be left out.
    let optional: Bool
    /// Stores the value from the texts given (none: the default), or throws a usage error.
    let bind: (Declaration, [String]) throws -> Void
    /// Set by the parser: the command line gave this option (`$name.wasGiven` in a command).
    var wasGiven = false

    init(kind: Kind, name: String?, short: Character? = nil, placeholder: String? = nil, help: String,
         discussion: String? = nil, defaultDescription: String? = nil, choices: [String]? = nil,
         repeatable: Bool = false, optional: Bool = false, bind: @escaping (Declaration, [String]) throws -> Void) {
        self.kind = kind
        self.name = name
        self.short = short
        self.placeholder = placeholder
        self.help = help
        self.discussion = discussion
        self.defaultDescription = defaultDescription
        self.choices = choices
        self.repeatable = repeatable
        self.optional = optional
        self.bind = bind
    }

    /// How errors name it: `--alpha`, or a positional's name.
    var displayName: String {
        let n = name ?? "?"
        return kind == .positional ? n : "--" + n
    }

    /// The help text: the help, the choices, whether it repeats, the default and the discussion,
    /// e.g. "Output: table|csv|json (default table)."
    var helpText: String {
        var text = help
        if let choices { text += ": " + choices.joined(separator: "|") }
        var notes: [String] = []
        if kind == .option && repeatable { notes.append(keepsCommas ? "repeatable" : "repeatable, or comma-separated") }
        if let defaultDescription { notes.append("default \(defaultDescription)") }
        if !notes.isEmpty { text += " (" + notes.joined(separator: "; ") + ")" }
        if !text.hasSuffix(".") { text += "." }
        if let discussion { text += " " + discussion }
        return text
    }

    /// Parses `text` as one `T`, checking `choices` first (so an error lists only the values
    /// this option accepts), then `rule`. `requirement` replaces the type's words for a bad value.
    func parse<T: ExpressibleByArgument>(_ text: String, choices: [String]? = nil, rule: Rule<T>? = nil,
                                         requirement: String? = nil) throws -> T {
        if let choices, !choices.contains(text) {
            throw CLIError.usage("\(displayName) must be one of \(choices.joined(separator: ", ")), not '\(text)'")
        }
        let value: T
        do { value = try T(argument: text) } catch {
            if let requirement { throw CLIError.usage("\(displayName) \(requirement), not '\(text)'") }
            throw CLIError.usage(error.message(for: displayName, text: text))
        }
        if let rule, !rule.holds(value) {
            throw CLIError.usage("\(displayName) \(requirement ?? rule.failure), not \(text)")
        }
        return value
    }

    /// `value.checkUsable()`, its failure as a usage error naming this declaration.
    func checkUsable<T: ExpressibleByArgument>(_ value: T) throws {
        do { try value.checkUsable() } catch {
            throw CLIError.usage(error.message(for: displayName, text: value.argumentDescription))
        }
    }
}

/// Holds a parsed value until the command reads it.
final class ParsedValue<Value> {
    var value: Value?
    weak var declaration: Declaration?

    func get() -> Value {
        guard let value else {
            preconditionFailure("\(declaration?.displayName ?? "an option") was read before the command line was parsed")
        }
        return value
    }
}

/// A property wrapper the parser finds on a command by reflection.
protocol DeclaredArgument {
    var declaration: Declaration { get }
}

/// Splits repeatable option texts at commas, trimming spaces and dropping empty items.
private func items(_ texts: [String]) -> [String] {
    texts.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
}

// MARK: - Options

/// An option with a value: `--NAME VALUE` or `--NAME=VALUE`. Its property's type says how the
/// value parses (`ExpressibleByArgument`); a default makes it optional on the command line, an
/// Optional property may be left out (nil), an array property may be repeated and split at commas.
@propertyWrapper
struct Option<Value>: DeclaredArgument {
    let declaration: Declaration
    private let parsed: ParsedValue<Value>

    /// The parsed value (or the default). Reading it before parsing is a programming error.
    var wrappedValue: Value { parsed.get() }
    /// `$name`: the declaration, e.g. `$by.wasGiven`.
    var projectedValue: Declaration { declaration }

    fileprivate init(_ parsed: ParsedValue<Value>, _ declaration: Declaration) {
        self.parsed = parsed
        self.declaration = declaration
        parsed.declaration = declaration
    }

    /// A shared declaration (`@Option(.database) var database: DatabasePath`).
    init(_ shared: Option<Value>) { self = shared }
}

extension Option where Value: ExpressibleByArgument {
    /// An option with a default (`@Option(value: "N", help: "…") var sessions = 20_000`).
    /// - Parameters:
    ///   - name: The long name; default: the property's name in kebab case (`refreshRate` →
    ///     `refresh-rate`).
    ///   - value: The placeholder in help (`N`, `PATH`).
    ///   - help: The first sentence, without its full stop: the choices and "(default …)" follow.
    ///   - discussion: Sentences after the default.
    ///   - choices: The values accepted, when fewer than the type's own.
    ///   - requirement: Replaces the type's words for a bad value ("needs times in seconds ≥ 0").
    ///   - rule: A condition on the parsed value.
    ///   - defaultDescription: How help shows the default, when not as the value itself.
    init(wrappedValue: Value, name: String? = nil, short: Character? = nil, value placeholder: String,
         help: String, discussion: String? = nil, choices: [Value]? = nil, requirement: String? = nil,
         rule: Rule<Value>? = nil, defaultDescription: String? = nil) {
        let parsed = ParsedValue<Value>()
        let names = choices?.map(\.argumentDescription) ?? Value.allValueStrings
        let declaration = Declaration(
            kind: .option, name: name, short: short, placeholder: placeholder, help: help, discussion: discussion,
            defaultDescription: defaultDescription ?? wrappedValue.argumentDescription, choices: names,
            bind: { d, texts in
                let value: Value = try texts.last.map { try d.parse($0, choices: names, rule: rule, requirement: requirement) }
                    ?? wrappedValue
                try d.checkUsable(value)
                parsed.value = value
            })
        self.init(parsed, declaration)
    }
}

extension Option {
    /// An option that may be left out: the property is nil then (`var config: String?`).
    init<T: ExpressibleByArgument>(name: String? = nil, short: Character? = nil, value placeholder: String,
                                   help: String, discussion: String? = nil, choices: [T]? = nil,
                                   requirement: String? = nil, rule: Rule<T>? = nil,
                                   defaultDescription: String? = nil) where Value == T? {
        let parsed = ParsedValue<Value>()
        let names = choices?.map(\.argumentDescription) ?? T.allValueStrings
        let declaration = Declaration(
            kind: .option, name: name, short: short, placeholder: placeholder, help: help, discussion: discussion,
            defaultDescription: defaultDescription, choices: names,
            bind: { d, texts in
                let value: T? = try texts.last.map { try d.parse($0, choices: names, rule: rule, requirement: requirement) }
                if let value { try d.checkUsable(value) }
                parsed.value = .some(value)
            })
        self.init(parsed, declaration)
    }

    /// A repeatable option (`--metric a,b --metric c` gives ["a", "b", "c"]); `wrappedValue` is
    /// the default when the option is not given (`var metrics: [String] = []`). `keepsCommas`:
    /// each occurrence is one value, commas and all (`--vary pressed_scale=0.9,0.95`).
    init<T: ExpressibleByArgument>(wrappedValue: [T] = [], name: String? = nil, short: Character? = nil,
                                   value placeholder: String, help: String, discussion: String? = nil,
                                   requirement: String? = nil, rule: Rule<T>? = nil,
                                   defaultDescription: String? = nil, keepsCommas: Bool = false) where Value == [T] {
        let parsed = ParsedValue<Value>()
        let shownDefault = defaultDescription
            ?? (wrappedValue.isEmpty ? nil : wrappedValue.map(\.argumentDescription).joined(separator: ","))
        let declaration = Declaration(
            kind: .option, name: name, short: short, placeholder: placeholder, help: help, discussion: discussion,
            defaultDescription: shownDefault, choices: T.allValueStrings, repeatable: true,
            bind: { d, texts in
                let given: [T] = try (keepsCommas ? texts : items(texts)).map {
                    try d.parse($0, choices: T.allValueStrings, rule: rule, requirement: requirement)
                }
                let value = texts.isEmpty ? wrappedValue : given
                for v in value { try d.checkUsable(v) }
                parsed.value = value
            })
        declaration.keepsCommas = keepsCommas
        self.init(parsed, declaration)
    }
}

// MARK: - Option groups

/// Options several commands share, declared together once as one type whose properties are
/// `@Option`s and `@Flag`s (swift-argument-parser's `ParsableArguments`).
protocol ParsableArguments {
    /// Every declaration at its default, before parsing.
    init()
}

/// What the parser finds on a command for an `@OptionGroup`: the group, whose declarations it
/// reads as the command's own.
protocol DeclaredGroup {
    var members: Any { get }
}

/// A group of shared options (`@OptionGroup var signals: FrustrationOptions`): its options parse,
/// check and show in help as if declared on the command, where the group stands.
@propertyWrapper
struct OptionGroup<Value: ParsableArguments>: DeclaredGroup {
    let wrappedValue: Value
    init() { wrappedValue = Value() }
    var members: Any { wrappedValue }
}

// MARK: - Flags

/// A flag: `--NAME` (or `-S`) sets it; false when not given.
@propertyWrapper
struct Flag: DeclaredArgument {
    let declaration: Declaration
    private let parsed: ParsedValue<Bool>

    var wrappedValue: Bool { parsed.get() }
    /// `$name`: the declaration, e.g. `$by.wasGiven`.
    var projectedValue: Declaration { declaration }

    init(name: String? = nil, short: Character? = nil, help: String) {
        let parsed = ParsedValue<Bool>()
        self.parsed = parsed
        declaration = Declaration(kind: .flag, name: name, short: short, help: help, bind: { _, texts in
            parsed.value = !texts.isEmpty
        })
        parsed.declaration = declaration
    }

    /// A shared declaration (`@Flag(.quiet) var quiet`).
    init(_ shared: Flag) { self = shared }
}

// MARK: - Positional arguments

/// A positional argument. A `String` property is required, an Optional one may be left out, an
/// array takes every remaining argument.
@propertyWrapper
struct Argument<Value>: DeclaredArgument {
    let declaration: Declaration
    private let parsed: ParsedValue<Value>

    var wrappedValue: Value { parsed.get() }

    fileprivate init(_ parsed: ParsedValue<Value>, _ declaration: Declaration) {
        self.parsed = parsed
        self.declaration = declaration
        parsed.declaration = declaration
    }
}

extension Argument where Value: ExpressibleByArgument {
    /// A required positional argument, shown as `name` (`A`, `FILE|NAME`; default: the
    /// property's name in capitals).
    init(name: String? = nil, help: String) {
        let parsed = ParsedValue<Value>()
        self.init(parsed, Declaration(kind: .positional, name: name, help: help, bind: { d, texts in
            guard let text = texts.first else { preconditionFailure("the parser checks required arguments") }
            parsed.value = try d.parse(text)
        }))
    }
}

extension Argument {
    /// A positional argument that may be left out.
    init<T: ExpressibleByArgument>(name: String? = nil, help: String) where Value == T? {
        let parsed = ParsedValue<Value>()
        self.init(parsed, Declaration(kind: .positional, name: name, help: help, optional: true, bind: { d, texts in
            parsed.value = .some(try texts.first.map { try d.parse($0) as T })
        }))
    }

    /// Every remaining positional argument (none is allowed).
    init<T: ExpressibleByArgument>(name: String? = nil, help: String) where Value == [T] {
        let parsed = ParsedValue<Value>()
        self.init(parsed, Declaration(kind: .positional, name: name, help: help, repeatable: true, optional: true,
                                      bind: { d, texts in
            parsed.value = try texts.map { try d.parse($0) as T }
        }))
    }
}
