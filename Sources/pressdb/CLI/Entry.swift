// Top-level dispatch: `pressdb COMMAND ...`, `--help`, `--version`.
import Foundation

var topHelp: String {
    var out = """
    OVERVIEW: pressdb records touch sessions on buttons, replays them through a model of UIKit's
    press handling and Core Animation's springs, and reports taps, cancels, scroll-aborts and
    perceived latency per animation configuration.

    USAGE: pressdb COMMAND [options]

    COMMANDS:

    """
    for c in commands {
        out += "  " + c.spec.name.padding(toLength: 12, withPad: " ", startingAt: 0) + c.spec.abstract + "\n"
    }
    out += """

    Run 'pressdb COMMAND --help' for a command's options.

    EXIT STATUS:
      0  success
      1  the command failed (the message on standard error says why)
      2  the command line is wrong
      3  finished, but some input was rejected (kept in the database's rejects table)
      4  nothing to work on (empty database, or a filter that matches nothing)

    ENVIRONMENT:
      PRESSDB_DB  the database used when --db is not given (default ./pressdb.sqlite)
      NO_COLOR    when set, no colour in terminal output

    """
    return out
}

/// Runs pressdb with `arguments` (without the program name) and returns the exit status.
func runMain(_ arguments: [String]) -> Int32 {
    var argv = arguments
    guard let first = argv.first else {
        printError(topHelp)
        return ExitCode.usage
    }
    if first == "--help" || first == "-h" || first == "help" {
        if first == "help", argv.count > 1, let c = commands.first(where: { $0.spec.name == argv[1] }) {
            print(c.spec.help, terminator: "")
        } else {
            print(topHelp, terminator: "")
        }
        return ExitCode.ok
    }
    if first == "--version" { print("pressdb 0.1.0"); return ExitCode.ok }
    guard let command = commands.first(where: { $0.spec.name == first }) else {
        printError("pressdb: unknown command '\(first)'; run 'pressdb --help' for the list")
        return ExitCode.usage
    }
    argv.removeFirst()
    do {
        let parsed = try command.spec.parse(argv)
        if parsed.wantsHelp {
            print(command.spec.help, terminator: "")
            return ExitCode.ok
        }
        // SQLite reads "" and ":memory:" as temporary databases, and "file:" as a URI: data
        // written there would vanish while the command reports success.
        if let db = parsed.string("db"), db.isEmpty || db == ":memory:" || db.hasPrefix("file:") {
            throw CLIError.usage("pressdb \(first): --db needs a file path, not '\(db)'")
        }
        var isDirectory: ObjCBool = false
        let db = CommonOptions.databasePath(parsed)
        if command.spec.options.contains(where: { $0.name == "db" }),
           FileManager.default.fileExists(atPath: db, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CLIError.usage("pressdb \(first): the database \(db) is a directory; give a file path with --db (e.g. \(db)/pressdb.sqlite)")
        }
        return try command.run(parsed)
    } catch let e as CLIError {
        printError(e.message)
        return e.status
    } catch {
        printError("pressdb \(first): \(error)")
        return ExitCode.failure
    }
}

