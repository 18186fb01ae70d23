// The option declarations against the help they generate, the errors they give and the
// documentation: every command's --help shows every option with its default, a misspelled option
// is a usage error naming the command, a bad choice or number names the option.
import Foundation
import Testing
@testable import pressdb

/// A command's `--help` OPTIONS and ARGUMENTS rows: the text at the left (`--db PATH`, `-q,
/// --quiet`) → the help at the right, continuation lines joined and whitespace collapsed.
private func helpRows(_ help: String) -> [(left: String, text: String)] {
    var rows: [(left: String, text: String)] = []
    var inRows = false
    for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
        if line == "OPTIONS:" || line == "ARGUMENTS:" { inRows = true; continue }
        guard inRows, !line.isEmpty else { inRows = inRows && !line.isEmpty; continue }
        let body = line.dropFirst(2)
        if line.hasPrefix(String(repeating: " ", count: HelpRow.indent)), let last = rows.indices.last {
            // A list broken after its `|` or `,` (TextWrap.lines) continues without a space.
            let lastWord = rows[last].text.split(separator: " ").last ?? ""
            let broken = (lastWord.hasSuffix("|") || lastWord.hasSuffix(",")) && lastWord.filter { $0 == "|" || $0 == "," }.count >= 2
            rows[last].text += (broken ? "" : " ") + line.trimmingCharacters(in: .whitespaces)
        } else if line.hasPrefix("  "), !body.hasPrefix(" ") {
            let split = body.range(of: "  ")
            let left = split.map { String(body[..<$0.lowerBound]) } ?? String(body)
            let text = split.map { String(body[$0.upperBound...]).trimmingCharacters(in: .whitespaces) } ?? ""
            rows.append((left, text))
        }
    }
    return rows.map { ($0.left, $0.text.split(separator: " ").joined(separator: " ")) }
}

@Suite struct OptionDeclarationTests {
    /// The options of each command, in help order, as the README and docs/*.md name them.
    static let documentedOptions: [String: [String]] = [
        "demo": ["db", "sessions", "seed", "html", "presets", "quiet"],
        "ingest": ["db", "format", "config", "container", "abs-range", "screen", "px-per-pt", "layout", "columns", "time-unit", "phase-names", "reorder-window", "max-line-bytes", "check", "strict", "quiet"],
        "replay": ["db", "as", "session", "missing", "config", "display", "refresh-rate", "density", "stalls", "hangs", "seed",
                   "format", "input", "input-format",
                   "container", "rejects", "max-line-bytes", "origins", "quiet", "rows", "wide", "columns", "explain"],
        "aggregate": ["db", "as", "out"],
        "merge": ["out", "allow-overlap"],
        "report": ["db", "by", "where", "since", "until", "as", "signal", "rage-count", "rage-span", "rage-radius",
                   "cancel-retry-window", "unseen-retry-window", "reports", "list", "from", "display", "stalls", "hangs", "seed",
                   "format", "out",
                   "wide", "columns", "full", "explain"],
        "compare": ["db", "by", "segment", "metric", "alpha", "correction", "split", "paired", "unit", "sequential", "tuning", "mde",
                    "from", "display", "cuped", "start", "jnd", "where", "rage-count", "rage-span", "rage-radius", "cancel-retry-window", "unseen-retry-window",
                    "format", "out", "wide", "columns", "explain"],
        "configs": ["db", "format", "wide", "columns", "explain"],
        "config": ["db", "quiet"],
        "displays": ["db", "format", "quiet", "wide", "columns", "explain"],
        "generate": ["sessions", "seed", "variants", "split", "assign", "containers", "format", "rate", "effect", "retry",
                     "cross-arm-users", "missing-user", "whale", "pre-period"],
        "completions": [],
        "spring": ["mass", "stiffness", "damping", "duration", "damping-ratio", "perceptual-duration", "bounce",
                   "response", "damping-fraction", "velocity", "at", "allow-overdamping", "format", "out"],
        "sweep": ["db", "base", "vary", "sample", "seed", "where", "objective", "display", "weights", "top", "jobs", "show",
                  "export-config", "format", "out", "wide", "columns", "explain", "quiet"],
    ]

    /// Defaults stated outside the code: docs/compare.md "Options" (alpha 0.05, correction holm,
    /// by variant, split 50/50, tuning 5000, unit user when every session has a user), docs/generator.md (sessions 1000, seed 1, rate 60 Hz, format
    /// ndjson, assign user), docs/press-model.md "Display" (60 Hz, 3 px per pt), the Core Animation default of
    /// an initial velocity of 0 (CASpringAnimation.initialVelocity), docs/reports.md (grouping by
    /// config, the summary report), docs/device-recordings.md (1 px per pt).
    static let documentedDefaults: [(command: String, option: String, shown: String)] = [
        ("compare", "alpha", "0.05"), ("compare", "correction", "holm"), ("compare", "by", "variant"),
        ("compare", "split", "50/50"), ("compare", "format", "table"), ("compare", "metric", "all"),
        ("compare", "tuning", "5000"), ("compare", "unit", "user (observed: users in both arms and sessions without a user left out and counted)"),
        ("generate", "sessions", "1000"), ("generate", "seed", "1"), ("generate", "rate", "60"),
        ("generate", "format", "ndjson"), ("generate", "containers", "none:2,scroll:2,table:1"),
        ("generate", "variants", "A=spring-press,B=expand-delayed-click"), ("generate", "assign", "user"),
        ("replay", "refresh-rate", "60"), ("replay", "density", "3"), ("replay", "config", "spring-press"),
        ("spring", "velocity", "0"), ("report", "by", "config"), ("ingest", "px-per-pt", "1"),
        ("ingest", "format", "auto"), ("demo", "sessions", "20000"), ("demo", "seed", "1"),
        ("report", "db", "$PRESSDB_DB, else ./pressdb.sqlite"),
        ("sweep", "objective", "feedback_p90_ms,unseen_rate,release_jump_p90_pt,scroll_abort_rate,false_actions"),
        ("sweep", "jobs", "all cores"), ("sweep", "seed", "1"), ("sweep", "format", "table"),
    ]

    @Test func everyCommandDeclaresTheDocumentedOptions() {
        #expect(Set(commands.map { $0.configuration.name }) == Set(Self.documentedOptions.keys))
        for command in commands {
            let declared = command.declarations.filter { $0.kind != .positional }.map { $0.name! }
            #expect(declared == Self.documentedOptions[command.configuration.name], "\(command.configuration.name)")
        }
    }

    /// Each command's --help (from the binary) has a row for every declaration: the option with its
    /// placeholder, its choices, and "default …" whenever the declaration has a default.
    @Test func helpListsEveryDeclaredOptionWithItsDefault() throws {
        for command in commands {
            let name = command.configuration.name
            let r = try Binary.run([name, "--help"])
            #expect(r.status == 0, "\(name)")
            let rows = helpRows(r.stdout)
            for d in command.declarations {
                var left = d.kind == .positional ? d.name! : "--" + d.name!
                if let placeholder = d.placeholder { left += " " + placeholder }
                let row = rows.first { $0.left == left || $0.left.hasPrefix(left + " ") || $0.left.hasSuffix(", " + left) }
                guard let row else { Issue.record("\(name): no help row for \(left) in\n\(r.stdout)"); continue }
                if let shown = d.defaultDescription {
                    #expect(row.text.contains("default \(shown)"), "\(name) \(left): \(row.text)")
                }
                if let choices = d.choices {
                    #expect(row.text.contains(choices.joined(separator: "|")), "\(name) \(left): \(row.text)")
                }
                #expect(!row.text.isEmpty, "\(name) \(left)")
            }
            #expect(rows.contains { $0.left == "-h, --help" }, "\(name)")
        }
        for (command, option, shown) in Self.documentedDefaults {
            let help = try Binary.run([command, "--help"]).stdout
            let row = helpRows(help).first { row in
                row.left.split(separator: " ").contains { $0 == "--" + option || $0 == "--\(option)," }
            }
            #expect(row?.text.contains("default \(shown)") == true, "\(command) --\(option): \(row?.text ?? "no row")")
        }
    }

    /// A misspelled option: exit status 2 and one line that names the command and the option.
    @Test func misspelledOptionIsAUsageErrorNamingTheCommand() throws {
        // (`completions` has no option to misspell.)
        for command in commands where command.declarations.contains(where: { $0.kind != .positional }) {
            let name = command.configuration.name
            let option = command.declarations.first { $0.kind != .positional }!.name!
            let r = try Binary.run([name, "--\(option)x", "1"])
            #expect(r.status == 2, "\(name)")
            #expect(r.stderr.hasPrefix("pressdb \(name): unknown option '--\(option)x'"), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        }
    }

    /// `compare` once borrowed report's --where parser and its "pressdb report:" prefix.
    @Test func errorsNameTheRunningCommand() throws {
        let r = try Binary.run(["compare", "A", "B", "--where", "variant"])
        #expect(r.status == 2)
        #expect(r.stderr == "pressdb compare: --where takes KEY=VALUE pairs, not 'variant'\n")
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("p.sqlite").path
        let out = try Binary.run(["spring", "--mass", "1", "--stiffness", "100", "--damping", "10",
                                  "--out", dir.appendingPathComponent("no/such/dir/s.txt").path])
        #expect(out.status == 1 && out.stderr.hasPrefix("pressdb spring: cannot write --out "), "\(out.stderr)")
        let same = try Binary.run(["report", "--list", "--db", db, "--out", db])
        #expect(same.status == 2 && same.stderr.hasPrefix("pressdb report: --out \(db) is the database itself"), "\(same.stderr)")
    }

    /// Parses `arguments` for `command` in-process; the usage error's message, or nil when it parses.
    func usageError<C: ParsableCommand>(_ command: C.Type, _ arguments: [String]) -> String? {
        do { _ = try C.parse(arguments) } catch let e as CLIError {
            #expect(e.status == ExitCode.usage, "\(arguments): \(e.message)")
            return e.message
        } catch { Issue.record("\(arguments): \(error)") }
        return nil
    }

    /// The positional arguments a command needs before its options can be checked.
    static let requiredArguments: [String: [String]] = ["compare": ["A", "B"], "config": ["show", "x"]]

    /// Every option with a list of choices refuses a value outside it, naming the option and the
    /// choices.
    @Test func invalidChoicesAreRejectedWithTheOptionNamed() {
        func check<C: ParsableCommand>(_ command: C.Type) {
            let positional = Self.requiredArguments[C.configuration.name] ?? []
            for d in C.declarations where d.kind == .option {
                guard let choices = d.choices else { continue }
                let message = usageError(C.self, positional + ["--\(d.name!)", "nonesuch"])
                #expect(message == "--\(d.name!) must be one of \(choices.joined(separator: ", ")), not 'nonesuch'",
                        "\(C.configuration.name)")
            }
        }
        for command in commands { check(command) }
    }

    /// Numbers that do not parse, and numbers outside an option's range, are usage errors naming
    /// the option (the ranges as docs/compare.md, docs/generator.md and `pressdb spring --help`
    /// give them).
    @Test(arguments: [
        ("compare", ["A", "B", "--alpha", "x"], "--alpha needs a finite number, not 'x'"),
        ("compare", ["A", "B", "--alpha", "1"], "--alpha must lie between 0 and 1, not 1"),
        ("compare", ["A", "B", "--alpha", "0"], "--alpha must lie between 0 and 1, not 0"),
        ("compare", ["A", "B", "--split", "50"], "--split needs two positive shares P/Q (e.g. 50/50 or 90/10), not '50'"),
        ("compare", ["A", "B", "--sequential", "--tuning", "0"], "--tuning must be positive, not 0"),
        ("compare", ["A", "B", "--mde", "0%"], "--mde needs a non-zero effect: a number (0.01 = 1 point of a rate, or ms of latency) or a percentage of A (5%), not '0%'"),
        ("replay", ["--refresh-rate", "0.5"], "--refresh-rate must be from 1 to 1000 Hz, not 0.5"),
        ("replay", ["--density", "nan"], "--density needs a finite number, not 'nan'"),
        ("replay", ["--density", "11"], "--density must be from 0.5 to 10 px per pt, not 11"),
        ("report", ["--since", "yesterday"], "--since needs a finite number, not 'yesterday'"),
        ("report", ["frustration", "--cancel-retry-window", "5s"], "--cancel-retry-window: give the number without a unit ('5', not '5s'); --help names the unit"),
        ("replay", ["--refresh-rate", "120Hz"], "--refresh-rate: give the number without a unit ('120', not '120Hz'); --help names the unit"),
        ("generate", ["--sessions", "2.5"], "--sessions needs a whole number, not '2.5'"),
        ("generate", ["-n", "100000001"], "--sessions must be from 0 to 100000000, not 100000001"),
        ("generate", ["--seed", "-1"], "--seed needs a whole number from 0 to 2^64-1, not '-1'"),
        ("generate", ["--rate", "inf"], "--rate needs a finite number, not 'inf'"),
        ("demo", ["--sessions", "0"], "--sessions must be positive, not 0"),
        ("ingest", ["--px-per-pt", "-2"], "--px-per-pt needs a positive number of pixels per point (e.g. 2, Android density / 160), not -2"),
        ("spring", ["--velocity", "fast"], "--velocity needs a finite number, not 'fast'"),
        ("spring", ["--response", "0", "--damping-fraction", "1"], "--response must be positive, not 0"),
        ("spring", ["--mass", "1", "--stiffness", "1", "--damping", "-1"], "--damping must be zero or positive, not -1"),
        ("spring", ["--duration", "0.001", "--damping-ratio", "1"], "--duration must be in [0.01, 10] s (UIKit clamps it there), not 0.001"),
        ("spring", ["--at", "1,x"], "--at needs times in seconds ≥ 0, not 'x'"),
        ("sweep", ["--base", "spring-press", "--vary", "pressed_scale=0.9", "--jobs", "0"], "--jobs must be from 1 to 256, not 0"),
        ("sweep", ["--base", "spring-press", "--vary", "pressed_scale=0.9", "--sample", "0"], "--sample must be from 1 to 10000, not 0"),
        ("sweep", ["--base", "spring-press", "--vary", "pressed_scale=0.9", "--top", "0"], "--top must be at least 1, not 0"),
    ])
    func invalidNumbersAreRejectedWithTheOptionNamed(_ command: String, _ arguments: [String], _ expected: String) throws {
        let r = try Binary.run([command] + arguments)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr == "pressdb \(command): \(expected)\n")
    }

    /// Flags take no value, options need one, and a single-valued option is given once.
    @Test func flagsAndOptionsAreGivenTheWayTheyAreDeclared() {
        #expect(usageError(ReplayCommand.self, ["--missing=yes"]) == "--missing takes no value")
        #expect(usageError(ReplayCommand.self, ["--density"]) == "--density needs a value (PX)")
        #expect(usageError(ReplayCommand.self, ["--density", "2", "--density", "3"]) == "--density given twice")
        #expect(usageError(ReplayCommand.self, ["--session", "a", "--session", "b"]) == nil)
        #expect(usageError(ConfigCommand.self, ["show"]) == "missing FILE|NAME; see 'pressdb config --help'")
        #expect(usageError(ReportCommand.self, ["summary", "latency"]) == "unexpected argument 'latency'; see 'pressdb report --help'")
    }

    /// The typed values commands read: defaults when not given, parsed values when given.
    @Test func commandsReadTypedValues() throws {
        guard case .command(let compare) = try CompareCommand.parse(["A", "B"]) else { throw CLIError.usage("help") }
        #expect(compare.alpha == 0.05 && compare.correction == .holm && compare.by == "variant")
        #expect(compare.format == .table && compare.metrics.isEmpty && compare.split == nil && !compare.paired)
        #expect(!compare.$by.wasGiven)
        guard case .command(let given) = try CompareCommand.parse(
            ["A", "B", "--alpha=0.1", "--correction", "bh", "--metric", "tap_rate,cancel_rate", "--split", "90/10",
             "--where", "variant=A,screen=feed", "--by", "config"]) else { throw CLIError.usage("help") }
        #expect(given.alpha == 0.1 && given.correction == .benjaminiHochberg && given.by == "config" && given.$by.wasGiven)
        #expect(given.metrics == ["tap_rate", "cancel_rate"])
        #expect(given.split?.shares == [0.9, 0.1])
        #expect(try Equality.dictionary(given.filter) == ["variant": "A", "screen": "feed"])
        guard case .command(let replay) = try ReplayCommand.parse(["--refresh-rate", "120"]) else { throw CLIError.usage("help") }
        #expect(replay.refreshRate == 120 && replay.density == 3)
    }

    @Test func helpIsRequestedBeforeValuesAreChecked() throws {
        guard case .help = try CompareCommand.parse(["--alpha", "7", "--help"]) else {
            Issue.record("--help with a bad value should still give help"); return
        }
    }

    /// Reading an option's value before the command line was parsed is a programming error.
    @Test func readingBeforeParsingTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = CompareCommand().alpha
        }
    }
}
