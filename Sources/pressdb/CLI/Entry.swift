// Top-level dispatch: `pressdb COMMAND ...`, `--help`, `--version`.
import Foundation
import PressCore

/// `pressdb --help`, at most `width` columns wide where words allow.
func topHelp(width: Int = HelpRow.width) -> String {
    var out = """
    OVERVIEW: pressdb records touch sessions on buttons, replays them through a model of UIKit's
    press handling and Core Animation's springs, and reports taps, cancels, scroll-aborts and
    perceived latency per animation configuration.

    USAGE: pressdb COMMAND [options]

    COMMANDS:

    """
    for c in commands {
        // Wrapped to the width of every help text, continuing under the abstract.
        let lines = TextWrap.lines(c.configuration.abstract, width: width - 14)
        out += "  " + c.configuration.name.padding(toLength: 12, withPad: " ", startingAt: 0)
            + lines.joined(separator: "\n" + String(repeating: " ", count: 14)) + "\n"
    }
    out += """

    Run 'pressdb COMMAND --help' for a command's options.

    EXIT STATUS:
        0  success
        1  the command failed (the message on standard error says why)
        2  the command line is wrong
        3  finished, but some input was rejected (kept in the database's rejects table)
        4  nothing to work on (empty database, or a filter that matches nothing)
      130  interrupted by Ctrl-C after committing what was whole (re-run the same command to finish)
      143  ended by SIGTERM, as by Ctrl-C
    A reader that stops early (pressdb report sessions | head) ends a command quietly, with status 0.

    ENVIRONMENT:
      PRESSDB_DB  the database used when --db is not given (default ./pressdb.sqlite)
      NO_COLOR    when set, no colour in terminal output; TERM=dumb too
      COLUMNS     the width tables and help fit when the terminal does not report one (else 100)
      PRESSDB_BATCH_SECONDS
                  the longest an ingest batch lasts before it commits (default 0.5); batches
                  then depend on size alone, as scripts/check-instructions needs

    """
    return HelpRow.fit(out, width: width)
}

/// Runs pressdb with `arguments` (without the program name) and returns the exit status. Every
/// error is printed as `pressdb COMMAND: message`.
func runMain(_ arguments: [String]) -> Int32 {
    var argv = arguments
    guard let first = argv.first else {
        printError(topHelp(width: HelpRow.terminalWidth(STDERR_FILENO)))
        return ExitCode.usage
    }
    if first == "--help" || first == "-h" || first == "help" {
        if first == "help", argv.count > 1, let c = commands.first(where: { $0.configuration.name == argv[1] }) {
            print(c.help(width: HelpRow.terminalWidth()), terminator: "")
        } else {
            print(topHelp(width: HelpRow.terminalWidth()), terminator: "")
        }
        return ExitCode.ok
    }
    if first == "--version" { print("pressdb 0.1.0"); return ExitCode.ok }
    guard let command = commands.first(where: { $0.configuration.name == first }) else {
        let near = Suggestions.near(first, in: commands.map { $0.configuration.name })
        let hint = near.isEmpty ? "" : " (did you mean \(near.joined(separator: " or "))?)"
        printError("pressdb: unknown command '\(first)'\(hint); run 'pressdb --help' for the list")
        return ExitCode.usage
    }
    argv.removeFirst()
    do {
        return try run(command, argv)
    } catch is StandardOutput.Closed {
        // The reader of standard output has gone (`| head`): done, quietly.
        return ExitCode.ok
    } catch let e as CLIError {
        printError("pressdb \(first): \(e.message)")
        return e.status
    } catch {
        printError("pressdb \(first): \(error)")
        return ExitCode.failure
    }
}

/// Parses and runs one command, or prints its help.
private func run<C: ParsableCommand>(_ command: C.Type, _ arguments: [String]) throws -> Int32 {
    switch try C.parse(arguments) {
    case .help:
        print(C.help(width: HelpRow.terminalWidth()), terminator: "")
        return ExitCode.ok
    case .command(let c):
        return try c.run()
    }
}
