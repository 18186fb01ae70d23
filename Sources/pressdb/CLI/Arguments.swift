// What a command-line value is: exit statuses, the error that ends a command, and the values an
// option or argument can hold, each parsing its own text. The declarations that use them are in
// Declarations.swift, the commands' shape and the parser in Command.swift.
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

/// An error that ends a command with a one-line message and an exit status. The message does not
/// name the command: `runMain` prints it after `pressdb COMMAND: `, so every error names the
/// command that is running.
struct CLIError: Error, CustomStringConvertible {
    var message: String
    var status: Int32
    var description: String { message }

    /// A command-line mistake (status 2).
    static func usage(_ message: String) -> CLIError { CLIError(message: message, status: ExitCode.usage) }
    /// A failure while running (status 1).
    static func failure(_ message: String) -> CLIError { CLIError(message: message, status: ExitCode.failure) }
    /// Nothing to work on (status 4).
    static func empty(_ message: String) -> CLIError { CLIError(message: message, status: ExitCode.empty) }
}

/// Why a command-line text is not a valid value. The parser turns it into a usage error that
/// names the option: `--NAME <requirement>, not 'TEXT'`, `--NAME: <problem>`, or `message` alone.
struct InvalidArgument: Error {
    enum Form {
        /// What a valid value is, after the option's name: "needs a finite number".
        case requirement(String)
        /// What is wrong with this text, after "--NAME: ".
        case problem(String)
        /// The whole message (it names the option itself).
        case message(String)
    }
    var form: Form

    static func requirement(_ s: String) -> InvalidArgument { InvalidArgument(form: .requirement(s)) }
    static func problem(_ s: String) -> InvalidArgument { InvalidArgument(form: .problem(s)) }
    static func message(_ s: String) -> InvalidArgument { InvalidArgument(form: .message(s)) }

    /// The usage message for `text` given to the option or argument shown as `name` ("--alpha", "A").
    func message(for name: String, text: String) -> String {
        switch form {
        case .requirement(let r): return "\(name) \(r), not '\(text)'"
        case .problem(let p): return "\(name): \(p)"
        case .message(let m): return m
        }
    }
}

/// A value an option or positional argument can hold, parsed from its command-line text (the
/// shape of swift-argument-parser's protocol of the same name).
protocol ExpressibleByArgument {
    /// Parses one value (one comma-separated item of a repeatable option).
    /// - Throws: `InvalidArgument` saying what a valid value is.
    init(argument: String) throws(InvalidArgument)
    /// The value written as the command line would give it; help shows defaults this way.
    var argumentDescription: String { get }
    /// Every valid text, when there are few (help lists them, an error names them); nil otherwise.
    static var allValueStrings: [String]? { get }
    /// A check of the value the command will use — given or the default — that needs more than
    /// its text (e.g. that a database path is not a directory). Throws `InvalidArgument`.
    func checkUsable() throws(InvalidArgument)
}

extension ExpressibleByArgument {
    static var allValueStrings: [String]? { nil }
    func checkUsable() throws(InvalidArgument) {}
}

extension String: ExpressibleByArgument {
    init(argument: String) { self = argument }
    var argumentDescription: String { self }
}

extension Int: ExpressibleByArgument {
    init(argument: String) throws(InvalidArgument) {
        guard let n = Int(argument) else { throw .requirement("needs a whole number") }
        self = n
    }
    var argumentDescription: String { String(self) }
}

extension UInt64: ExpressibleByArgument {
    init(argument: String) throws(InvalidArgument) {
        guard let n = UInt64(argument) else { throw .requirement("needs a whole number from 0 to 2^64-1") }
        self = n
    }
    var argumentDescription: String { String(self) }
}

extension Double: ExpressibleByArgument {
    /// A finite number (`nan` and `inf` are refused).
    init(argument: String) throws(InvalidArgument) {
        guard let d = Double(argument), d.isFinite else {
            // "5s", "300ms", "44pt": a number with a unit; the option's unit is fixed (its help says it).
            if let unit = argument.firstRange(of: /[A-Za-z%]+$/), argument[unit] != argument[...],
               let d = Double(argument[..<unit.lowerBound]), d.isFinite {
                throw .problem("give the number without a unit ('\(argument[..<unit.lowerBound])', not '\(argument)'); --help names the unit")
            }
            throw .requirement("needs a finite number")
        }
        self = d
    }
    var argumentDescription: String { Render.full(self) }
}

/// A value that is one of a few names: an enum whose raw values are the command-line words.
protocol ChoiceArgument: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension ChoiceArgument {
    init(argument: String) throws(InvalidArgument) {
        guard let v = Self(rawValue: argument) else {
            throw .requirement("must be one of \(Self.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self = v
    }
    var argumentDescription: String { rawValue }
    static var allValueStrings: [String]? { allCases.map(\.rawValue) }
}
