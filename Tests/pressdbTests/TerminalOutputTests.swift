// Output people can read. In a 100-column terminal (a pseudo-terminal here) no table
// of demo, report (every built-in report), compare (observed and paired), configs, replay or
// report rejects is wider than 100 columns, and each says what it left out; long work shows its
// progress on standard error.
import Foundation
import Testing
import PressTestSupport
@testable import pressdb

/// The lines a terminal shows for `text`, and the widest of them (each character one column:
/// pressdb's tables hold no wide characters here).
private func widest(_ text: String) -> (width: Int, line: String) {
    PseudoTerminal.screenLines(text).map { ($0.count, $0) }.max { $0.0 < $1.0 } ?? (0, "")
}

/// A rejected line of more than 6,000 bytes (an object never closed).
private let longLine = "{\"session\":\"x\",\"t\":0,\"phase\":\"began\",\"x\":1,\"y\":1,\"pad\":\"\(String(repeating: "y", count: 6000))\""

/// A demo database of 3,000 sessions, made once for the suite, with rejected lines added: the
/// long line, a wrongly typed field, and text that is no JSON.
private let shared: Result<String, Error> = Result {
    let dir = try Binary.temporaryDirectory()
    let db = dir.appendingPathComponent("demo.sqlite").path
    let demo = try Binary.run(["demo", "--sessions", "3000", "--db", db, "--quiet"])
    guard demo.status == 0 else { throw CLIError.failure(demo.stderr) }
    let junk = longLine + "\n{\"session\":\"y\",\"t\":\"soon\"}\n{not json at all\n"
    _ = try Binary.run(["ingest", "-", "--db", db, "--quiet"], stdin: junk)
    return db
}

@Suite(.serialized) struct TerminalWidthTests {
    static let commands: [[String]] = [
        ["report"], ["report", "latency"], ["report", "cancellations"], ["report", "sessions"], ["report", "rejects"],
        ["report", "--list"], ["compare", "A", "B"], ["compare", "spring-press", "longpress-safe-area", "--paired"],
        ["configs"], ["replay", "--session", "s1-u1-0001,s1-u2-0001,s1-u3-0001"], ["replay", "--as", "expand-delayed-click", "--rows"],
        // Chosen columns are never left out: the test's name wraps within its row instead.
        ["compare", "A", "B", "--columns", "metric,diff,verdict,test"],
    ]

    @Test(arguments: commands)
    func fitsA100ColumnTerminal(_ command: [String]) throws {
        let db = try shared.get()
        let r = try PseudoTerminal.run(Binary.url, command + ["--db", db], columns: 100, environment: ["NO_COLOR": "1"])
        #expect(r.status == 0, "\(r.piped)")
        let (width, line) = widest(r.terminal)
        #expect(width <= 100, "\(command): a line of \(width) columns: \(line)")
        #expect(r.terminal.contains("──"), "\(command) printed a table")
    }

    /// The note under compare's table explains MDE only when the MDE column is shown: at 100
    /// columns it is left out (the terminal says so), with --wide it is there.
    @Test func compareExplainsMDEOnlyWhenItShowsTheColumn() throws {
        let db = try shared.get()
        let narrow = try PseudoTerminal.run(Binary.url, ["compare", "A", "B", "--db", db], columns: 100, environment: ["NO_COLOR": "1"])
        let leftOut = try #require(narrow.terminal.range(of: "Not shown, to fit 100 columns:"))
        #expect(narrow.terminal[leftOut.upperBound...].prefix(60).contains("mde"), "\(narrow.terminal)")
        #expect(!narrow.terminal.contains("MDE:"))
        let wide = try PseudoTerminal.run(Binary.url, ["compare", "A", "B", "--db", db, "--wide"], columns: 100,
                                          environment: ["NO_COLOR": "1"])
        #expect(wide.terminal.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
                .contains("MDE: the difference this comparison detects"))
    }

    @Test func theDemoFitsA100ColumnTerminal() throws {
        let db = try Binary.temporaryDirectory().appendingPathComponent("d.sqlite").path
        let r = try PseudoTerminal.run(Binary.url, ["demo", "--sessions", "2000", "--db", db], columns: 100,
                                       environment: ["NO_COLOR": "1"])
        #expect(r.status == 0)
        let (width, line) = widest(r.terminal)
        #expect(width <= 100, "a line of \(width) columns: \(line)")
    }

    // The demo's "Try:" lines run where the user is: here pressdb is started by its path, not
    // found on PATH, so they begin with an alias to it. Each must succeed, run by bash in the
    // directory the demo ran in.
    @Test func theDemoSuggestsCommandsThatRun() throws {
        let dir = try Binary.temporaryDirectory()
        let demo = try Binary.run(["demo", "--sessions", "600", "--db", dir.appendingPathComponent("t.sqlite").path, "--quiet"],
                                  directory: dir)
        #expect(demo.status == 0)
        let lines = demo.stdout.split(separator: "\n", omittingEmptySubsequences: false).drop { !$0.hasSuffix("Try:") }.dropFirst()
            .prefix { !$0.isEmpty }.map(String.init)
        #expect(lines.count == 9 && lines[1].hasPrefix("  alias pressdb="), "\(lines)")
        let script = "set -e\n" + lines.joined(separator: "\n") + "\n"
        let r = try RunningProcess.run(URL(fileURLWithPath: "/bin/bash"), ["-O", "expand_aliases", "-c", script],
                                       environment: ["NO_COLOR": "1"], directory: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("expand-delayed-click"))
        #expect(DemoCommand.binaryPath("pressdb") == nil)
        #expect(DemoCommand.binaryPath("bin/pressdb", currentDirectory: "/opt/x") == "/opt/x/bin/pressdb")
        #expect(DemoCommand.shellQuoted("/tmp/a b/it's") == "'/tmp/a b/it'\\''s'")
    }

    // The demo says where its files are and how to remove them: with --db the database and the
    // log by name; by default the temporary folder it made (under $TMPDIR), which the printed
    // command removes whole.
    @Test func theDemoSaysHowToRemoveWhatItWrote() throws {
        let dir = try Binary.temporaryDirectory()
        let named = try Binary.run(["demo", "--sessions", "300", "--db", dir.appendingPathComponent("d.sqlite").path, "--quiet"])
        #expect(named.status == 0)
        let last = try #require(named.stdout.split(separator: "\n").last)
        #expect(last.contains("when done: rm -f \(dir.path)/d.sqlite \(dir.path)/d.sqlite-wal \(dir.path)/d.sqlite-shm \(dir.path)/d-log.ndjson"), "\(last)")
        let r = try Binary.run(["demo", "--sessions", "300", "--quiet"], environment: ["TMPDIR": dir.path])
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(r.stdout.split(separator: "\n").last.map(String.init))
        let folder = try #require(line.components(separatedBy: "when done: rm -r ").last)
        #expect(line.contains("temporary folder") && line.contains(" MB") && folder.hasPrefix(dir.path + "/pressdb-demo-"), "\(line)")
        #expect(FileManager.default.fileExists(atPath: folder + "/demo.sqlite"))
        let rm = try RunningProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "rm -r " + folder])
        #expect(rm.status == 0 && !FileManager.default.fileExists(atPath: folder))
    }

    // replay in a terminal prints what it did — the sessions, their outcomes counted, where the
    // rows are — not a line per session; the counts are those of the stored rows it points to
    // (report sessions --as, counted here); a pipe gets every row.
    @Test func replayInATerminalSummarises() throws {
        let db = try shared.get()
        let r = try PseudoTerminal.run(Binary.url, ["replay", "--as", "expand-delayed-click", "--db", db], columns: 100,
                                       environment: ["NO_COLOR": "1"])
        #expect(r.status == 0, "\(r.piped)")
        let lines = PseudoTerminal.screenLines(r.terminal).filter { !$0.isEmpty }
        #expect(lines.count <= 6 && !r.terminal.contains("──"), "\(r.terminal)")
        for line in lines { #expect(line.count <= 100, "\(line)") }
        let text = lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
        let stored = try Binary.run(["report", "sessions", "--as", "expand-delayed-click", "--db", db, "--format", "csv"])
        let outcomes = stored.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false)[4] }
        let taps = outcomes.filter { $0 == "tap" }.count, sessions = outcomes.count
        #expect(text.contains("Outcomes of the \(sessions) sessions replayed as expand-delayed-click: \(taps) taps ("), "\(text)")
        #expect(text.contains("pressdb report sessions --as expand-delayed-click") && text.contains("--rows"), "\(text)")
        let piped = try Binary.run(["replay", "--as", "expand-delayed-click", "--db", db])
        #expect(piped.stdout.split(separator: "\n").filter { $0.hasPrefix("s1-") }.count == sessions, "one line per session")
    }

    // What a narrow table leaves out it names, with how to see it; --wide and --columns show it.
    @Test func leftOutColumnsAreNamedAndCanBeShown() throws {
        let db = try shared.get()
        let narrow = try PseudoTerminal.run(Binary.url, ["report", "--db", db], columns: 100, environment: ["NO_COLOR": "1"])
        #expect(narrow.terminal.contains("Not shown, to fit 100 columns: "))
        #expect(narrow.terminal.contains("release_jump_pt_max") && narrow.terminal.contains("--wide"))
        let header = try #require(PseudoTerminal.screenLines(narrow.terminal).first)
        #expect(header.hasPrefix("config") && !header.contains("release_jump"))
        let wide = try PseudoTerminal.run(Binary.url, ["report", "--db", db, "--wide"], columns: 100, environment: ["NO_COLOR": "1"])
        #expect(PseudoTerminal.screenLines(wide.terminal).first?.contains("release_jump_pt_max") == true)
        let chosen = try PseudoTerminal.run(Binary.url, ["report", "--db", db, "--columns", "config,release_jump_pt_max,tap_rate"],
                                            columns: 100, environment: ["NO_COLOR": "1"])
        let words = PseudoTerminal.screenLines(chosen.terminal).first?.split(separator: " ").map(String.init)
        #expect(words == ["config", "release_jump_pt_max", "tap_rate", "(95%", "CI)"])
        let bad = try Binary.run(["report", "--db", db, "--columns", "config,nope"])
        #expect(bad.status == ExitCode.usage && bad.stderr.contains("no column 'nope'"))
        // Not a terminal: the full table, every column.
        let piped = try Binary.run(["report", "--db", db])
        #expect(piped.stdout.split(separator: "\n").first?.contains("release_jump_pt_max") == true)
    }

    // Colour (a bold header) only on a terminal that is not TERM=dumb and without NO_COLOR.
    @Test func dumbTerminalsGetNoColour() throws {
        let db = try shared.get()
        func header(_ environment: [String: String]) throws -> String {
            try PseudoTerminal.run(Binary.url, ["configs", "--db", db], columns: 100, environment: environment).terminal
        }
        #expect(try header(["NO_COLOR": "", "TERM": "xterm"]).contains("\u{1B}[1m"))
        #expect(!(try header(["NO_COLOR": "", "TERM": "dumb"]).contains("\u{1B}")))
        #expect(!(try header(["NO_COLOR": "1", "TERM": "xterm"]).contains("\u{1B}")))
    }

    // A rejected line is cut to the width with its size in bytes; --full shows it whole.
    // A reject's reason says what to fix, so it is wrapped onto further lines of its row, never
    // cut, at 80 and 100 columns; a database without rejects says so instead of a bare header.
    @Test(arguments: [80, 100])
    func rejectReasonsWrapAndNoRejectsIsSaid(_ width: Int) throws {
        let db = try shared.get()
        let r = try PseudoTerminal.run(Binary.url, ["report", "rejects", "--db", db], columns: width, environment: ["NO_COLOR": "1"])
        let lines = PseudoTerminal.screenLines(r.terminal)
        for line in lines { #expect(line.count <= width, "\(width): \(line)") }
        // The reason the NDJSON reader gives the line that is no JSON, read back from the CSV
        // form (never cut there); every word of it is on the screen, in order.
        let csv = try Binary.run(["report", "rejects", "--db", db, "--format", "csv"])
        let reasons = csv.stdout.split(separator: "\n").dropFirst().compactMap { $0.split(separator: ",", maxSplits: 3).dropFirst(2).first }
        // The reason column read back from the screen: a row starts where the file column has
        // text, its continuation lines add their piece of the column.
        let header = try #require(lines.first)
        let from = try #require(header.range(of: "reason")).lowerBound.utf16Offset(in: header)
        let to = try #require(header.range(of: "raw")).lowerBound.utf16Offset(in: header)
        var shown: [String] = []
        for line in lines.dropFirst(2).prefix(while: { !$0.isEmpty }) {
            let chars = Array(line)
            let piece = String(chars[min(from, chars.count)..<min(to, chars.count)]).trimmingCharacters(in: .whitespaces)
            if line.first != " " { shown.append(piece) } else if !shown.isEmpty { shown[shown.count - 1] += " " + piece }
        }
        for reason in reasons where !reason.hasPrefix("\"") {
            #expect(shown.contains(String(reason)), "\(width): \(reason) in \(shown)")
        }
        #expect(!r.terminal.contains("the end of long text in reason"))
        let clean = try Binary.temporaryDirectory().appendingPathComponent("c.sqlite").path
        _ = try Binary.run(["ingest", "-", "--db", clean, "--quiet"], stdin: try Binary.run(["generate", "--sessions", "5"]).stdout)
        let none = try PseudoTerminal.run(Binary.url, ["report", "rejects", "--db", clean], columns: width, environment: ["NO_COLOR": "1"])
        #expect(none.status == 0 && PseudoTerminal.screenLines(none.terminal).filter { !$0.isEmpty } == ["no rejects"], "\(none.terminal)")
    }

    @Test func rejectedLinesAreCutWithTheirSize() throws {
        let db = try shared.get()
        let cut = try PseudoTerminal.run(Binary.url, ["report", "rejects", "--db", db], columns: 100, environment: ["NO_COLOR": "1"])
        let size = "… (\(longLine.utf8.count) B)"
        let long = try #require(PseudoTerminal.screenLines(cut.terminal).first { $0.hasSuffix(size) }, "\(cut.terminal)")
        #expect(long.contains("{\"session\":"), "\(long)")
        let full = try PseudoTerminal.run(Binary.url, ["report", "rejects", "--db", db, "--full"], columns: 100,
                                          environment: ["NO_COLOR": "1"])
        #expect(full.terminal.contains(String(repeating: "y", count: 6000)))
    }
}

/// Layouts computed by hand: widths add up as "col  col" with two spaces between columns.
@Suite struct TerminalTableTests {
    let columns = [ShownColumn(name: "name"), ShownColumn(name: "feedback_p50_ms", shortHeader: "fb p50", alignsRight: true,
                                                          unit: "times in ms", abbreviations: [("fb", "feedback latency")]),
                   ShownColumn(name: "note")]
    let rows = [[ShownCell("spring-press"), ShownCell("33.3"), ShownCell("a long note of forty characters, exactly")]]

    @Test func fullWhenItFits() throws {
        var options = TableOptions()
        options.width = 100
        let t = try TerminalTable(columns: columns, rows: rows, options: options)
        // 12 + 2 + 15 + 2 + 40 = 71 ≤ 100: nothing changes.
        #expect(t.totalWidth == 71)
        #expect(t.headerLines().hasPrefix("name          feedback_p50_ms  note\n"))
    }

    @Test func shortensThenLeavesOutThenCuts() throws {
        var options = TableOptions()
        options.width = 60
        var p = TablePresentation(key: ["name", "feedback_p50_ms"])
        // 71 > 60: short headers give 12 + 2 + 6 + 2 + 40 = 62, still > 60, so the non-key note goes.
        var t = try TerminalTable(columns: columns, rows: rows, presentation: p, options: options)
        #expect(t.shown == [0, 1] && t.totalWidth == 20)
        #expect(t.footer().contains("fb = feedback latency; times in ms."))
        #expect(t.footer().contains("Not shown, to fit 60 columns: note."))
        // A cuttable key note is cut to 60 − 22 = 38 columns instead: 37 of its characters and "…".
        p.key.append("note")
        p.cut = ["note": 10]
        t = try TerminalTable(columns: columns, rows: rows, presentation: p, options: options)
        #expect(t.totalWidth == 60)
        #expect(t.rowLine(rows[0]) == "spring-press    33.3  a long note of forty characters, exac…\n")
    }


    @Test func footnotePatternsMatchAnyRunOfCharacters() {
        // The patterns the reports use (reports/*.sql): a trailing, a leading and an inner `*`.
        #expect(Footnote(["feedback_*"], "").applies(to: "feedback_p50_ms"))
        #expect(!Footnote(["feedback_*"], "").applies(to: "action_p50_ms"))
        #expect(Footnote(["*_rate"], "").applies(to: "rage_episodes_rate"))
        #expect(!Footnote(["*_rate"], "").applies(to: "rage_presses"))
        #expect(Footnote(["share_*_ms"], "").applies(to: "share_over_100_ms"))
        #expect(!Footnote(["share_*_ms"], "").applies(to: "share_over_100ms"))
        // Prefix and suffix may not overlap: "ab*ba" does not match "aba".
        #expect(!Footnote(["ab*ba"], "").applies(to: "aba"))
        #expect(Footnote(["ab*ba"], "").applies(to: "abba"))
        #expect(Footnote(["a*b*c"], "").applies(to: "a-b-c") && !Footnote(["a*b*c"], "").applies(to: "a-c-b"))
        #expect(Footnote(["sessions"], "").applies(to: "sessions") && !Footnote(["sessions"], "").applies(to: "sessions2"))
    }
    @Test func wrapBreaksAtSpaces() {
        #expect(TerminalTable.wrap("aaa bbb ccc", width: 7) == "aaa bbb\nccc\n")
        #expect(TerminalTable.wrap("  aaa bbb", width: 6, indent: "    ") == "  aaa\n    bbb\n")
    }
    /// Worked by hand. Continuation lines have 12 − 4 = 8 columns: "alpha|beta|gamma" (16) is cut
    /// into "alpha|" (6; "alpha|bet" would be 9), "beta|" (5) and "gamma"; the first piece joins
    /// "  x" (3 + 1 + 6 = 10 ≤ 12), "beta|gamma" (10) would not fit 8. Widths are columns on
    /// screen: 日本 takes 4, so 語 goes on the next line.
    @Test func wrapMeasuresColumnsAndBreaksLongListsUnderTheIndent() {
        #expect(TextWrap.lines("x alpha|beta|gamma", width: 12, lead: "  ", indent: "    ")
                == ["  x alpha|", "    beta|", "    gamma"])
        #expect(TerminalTable.wrap("  x alpha|beta|gamma", width: 12, indent: "    ") == "  x alpha|\n    beta|\n    gamma\n")
        #expect(TextWrap.lines("日本 語", width: 4) == ["日本", "語"])
        #expect(TextWrap.lines("", width: 10, lead: "> ") == ["> "])
    }
}

/// A 20,000-session database, made once: long enough that ingest, replay and paired compare run
/// past the quarter second before progress is drawn, in a debug build.
private let large: Result<(log: URL, db: String), Error> = Result {
    let dir = try Binary.temporaryDirectory()
    let log = dir.appendingPathComponent("large.ndjson")
    let generated = try Binary.run(["generate", "--sessions", "20000", "--seed", "9",
                                    "--variants", "A=spring-press,B=longpress-safe-area"])
    try generated.stdout.write(to: log, atomically: true, encoding: .utf8)
    let db = dir.appendingPathComponent("large.sqlite").path
    guard try Binary.run(["ingest", log.path, "--db", db, "--quiet"]).status == 0 else { throw CLIError.failure("ingest") }
    return (log, db)
}

@Suite(.serialized) struct ProgressTests {
    /// The progress lines drawn on the terminal: every redraw after a carriage return.
    func draws(_ terminal: String) -> [String] {
        PseudoTerminal.withoutEscapes(terminal).split(whereSeparator: { $0 == "\r" || $0 == "\n" })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test func ingestShowsBytesOfTheFileSize() throws {
        let (log, _) = try large.get()
        let db = try Binary.temporaryDirectory().appendingPathComponent("i.sqlite").path
        let size = try #require(try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int)
        let r = try PseudoTerminal.run(Binary.url, ["ingest", log.path, "--db", db], columns: 100, streams: .standardError)
        #expect(r.status == 0)
        let line = try #require(draws(r.terminal).first { $0.hasPrefix("ingest ") && $0.contains("%") }, "\(r.terminal)")
        let total = String(format: "%.1f MiB", Double(size) / 1_048_576)
        #expect(line.contains("of \(total)") && line.contains("records"), "\(line)")
        // The summary follows on a clean line, and nothing reached standard output.
        #expect(draws(r.terminal).last?.hasPrefix("replay: ") == true)
        #expect(r.piped.isEmpty)
    }

    @Test func replayShowsSessionsOfTheTotal() throws {
        let (_, db) = try large.get()
        let r = try PseudoTerminal.run(Binary.url, ["replay", "--as", "expand-delayed-click", "--db", db, "--format", "csv"],
                                       columns: 100, streams: .standardError)
        #expect(r.status == 0)
        let line = try #require(draws(r.terminal).first { $0.hasPrefix("replay ") && $0.contains("%") }, "\(r.terminal)")
        #expect(line.contains("of 20,000 sessions"), "\(line)")
        #expect(r.piped.split(separator: "\n").count == 20_001)  // the rows, on standard output only
        let quiet = try PseudoTerminal.run(Binary.url, ["replay", "--db", db, "--quiet"], columns: 100, streams: .standardError)
        #expect(quiet.terminal.isEmpty)
    }

    @Test func pairedCompareShowsSessionsOfTheTotal() throws {
        let (_, db) = try large.get()
        // Neither configuration has been replayed for the other arm's sessions: 20,000 replays.
        let r = try PseudoTerminal.run(Binary.url, ["compare", "spring-press", "longpress-safe-area", "--paired", "--db", db],
                                       columns: 100, streams: .standardError)
        #expect(r.status == 0)
        let line = try #require(draws(r.terminal).first { $0.hasPrefix("compare ") && $0.contains("%") }, "\(r.terminal)")
        #expect(line.contains("of 20,000 sessions"), "\(line)")
    }

    // The frustration signals read the press sequences of every stored session in one statement
    // (nothing counted until it ends): compare --metric frustration (seconds on 20,000 sessions)
    // says what it is doing and for how long; its output stays on standard output. (report
    // frustration draws the same line, from the same Progress.whileWorking, but its first row
    // comes within the quarter second before any line is drawn on this database.)
    @Test(arguments: [["compare", "A", "B", "--metric", "frustration"]])
    func frustrationShowsWhatItIsDoing(_ command: [String]) throws {
        let (_, db) = try large.get()
        let r = try PseudoTerminal.run(Binary.url, command + ["--db", db], columns: 100, streams: .standardError,
                                       environment: ["NO_COLOR": "1"])
        #expect(r.status == 0, "\(r.terminal)")
        let line = try #require(draws(r.terminal).first { $0.contains("press sequences of every stored session") }, "\(r.terminal)")
        #expect(line.hasPrefix(command[0] + " ") && line.hasSuffix(" s"), "\(line)")
        #expect(r.piped.contains("spring-press") || r.piped.contains("rage_episode_rate"), "\(r.piped)")
    }

    // Hand-made lines: 45 of 150 at 10 s elapsed is 30 %, 4.5 a second, 105 left: 23.3 s → 24 s.
    @Test func lineShowsPercentCountsRateAndETA() {
        let p = Progress("replay", unit: .sessions, total: 150, enabled: true)
        let line = p.line(done: 45, detail: nil, elapsed: 10, width: 100)
        #expect(line.hasPrefix("replay  30% "))
        #expect(line.hasSuffix(" 45 of 150 sessions · 4/s · ETA 24 s"), "\(line)")
        // sweep draws the same line, its grid's size after the counts.
        let sweep = Progress("sweep", unit: .sessions, total: 150, enabled: true)
        #expect(sweep.line(done: 45, detail: "× 4 configurations", elapsed: 10, width: 100)
                .hasSuffix(" 45 of 150 sessions · 4/s · ETA 24 s · × 4 configurations"))
        let working = Progress("report", unit: .time, enabled: true)
        #expect(working.line(done: 0, detail: "press sequences", elapsed: 2.4, width: 100) == "report press sequences · 3 s")
        let bytes = Progress("ingest", unit: .bytes, total: nil, enabled: true)
        #expect(bytes.line(done: 3 << 20, detail: "7 records", elapsed: 2, width: 100)
                == "ingest 3.0 MiB read · 1.5 MiB/s · 7 records")
    }
}

/// `--help` fits the terminal it is shown in: the 100 columns of a pipe, and an 80-column
/// terminal's window (prose, option rows and table rows wrapped again; examples written to fit).
@Suite struct HelpWidthTests {
    static let commands: [[String]] = [["--help"]] + pressdb.commands.map { [$0.configuration.name, "--help"] }

    @Test(arguments: commands)
    func helpFitsThePipeAndAnEightyColumnTerminal(_ command: [String]) throws {
        let piped = try Binary.run(command)
        #expect(piped.status == 0)
        let wide = piped.stdout.split(separator: "\n").filter { $0.count > 100 }
        #expect(wide.isEmpty, "\(command) piped: \(wide)")

        let r = try PseudoTerminal.run(Binary.url, command, columns: 80, environment: ["NO_COLOR": "1"])
        #expect(r.status == 0)
        let over = PseudoTerminal.screenLines(r.terminal).filter { $0.count > 80 }
        #expect(over.isEmpty, "\(command) at 80 columns: \(over)")
        // The same words, only wrapped differently (a list broken after `|`, `,` or `:` joins up).
        let words = { (s: String) in s.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" }).joined() }
        #expect(words(r.terminal) == words(piped.stdout))
    }

    /// Worked by hand: "Pick:" and "alpha|beta|gamma|" (17 characters) fit 20, the rest goes on;
    /// a word with nothing to break at stands alone.
    @Test func aLongListBreaksAfterABar() {
        #expect(TextWrap.lines("Pick: alpha|beta|gamma|delta|epsilon.", width: 20)
                == ["Pick:", "alpha|beta|gamma|", "delta|epsilon."])
        #expect(TextWrap.lines("one two three", width: 7) == ["one two", "three"])
        #expect(TextWrap.lines("abcdefghijkl", width: 5) == ["abcdefghijkl"])
        // A bar just past the width stays with the next piece: "ab|cd|" would be 6 of 5.
        #expect(TextWrap.lines("ab|cd|ef", width: 5) == ["ab|", "cd|ef"])
    }

    /// A table row is wrapped in its text column, a command example is kept whole, prose is
    /// wrapped as one paragraph, and nothing changes when every line fits.
    @Test func fitWrapsProseAndTableRowsAndKeepsExamples() {
        let text = """
        one two three four
        five
          130  interrupted after committing
               what was whole
          pressdb ingest --format getevent --abs-range 0:1079 \\
              --screen 1080x2340
        """
        #expect(HelpRow.fit(text, width: 100) == text)
        #expect(HelpRow.fit(text, width: 30) == """
        one two three four
        five
          130  interrupted after
               committing what was
               whole
          pressdb ingest --format getevent --abs-range 0:1079 \\
              --screen 1080x2340
        """)
        #expect(HelpRow.fit("one two three four five six", width: 10) == "one two\nthree four\nfive six")
    }
}

@Suite struct TerminalMessageTests {
    // `pressdb ingest` with no file reads standard input; when that is a terminal it says so
    // instead of waiting in silence, and Ctrl-D at once ends it with nothing to store (status 4).
    @Test func ingestSaysItReadsStandardInput() throws {
        let db = try Binary.temporaryDirectory().appendingPathComponent("t.sqlite").path
        let r = try PseudoTerminal.run(Binary.url, ["ingest", "--db", db], columns: 100, streams: .both,
                                       environment: ["NO_COLOR": "1"], typed: "\u{4}")
        #expect(r.terminal.contains("reading touch records from standard input"), "\(r.terminal)")
        #expect(r.status == ExitCode.empty, "\(r.terminal)")
        #expect(!FileManager.default.fileExists(atPath: db))
        for line in PseudoTerminal.screenLines(r.terminal) { #expect(line.count <= 100, "\(line)") }
    }

    // Messages on standard error fit the terminal too: "no database at …" (150 columns before),
    // the demo's "generated … → path" and ingest's summary (123–126) are wrapped at spaces.
    @Test func messagesFitA100ColumnTerminal() throws {
        let dir = try Binary.temporaryDirectory()
        let deep = dir.appendingPathComponent(String(repeating: "long-folder-name/", count: 4))
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        let missing = try PseudoTerminal.run(Binary.url, ["report"], columns: 100, streams: .both,
                                             environment: ["NO_COLOR": "1", "PRESSDB_DB": ""], directory: dir)
        #expect(missing.terminal.contains("no database at"), "\(missing.terminal)")
        let demo = try PseudoTerminal.run(Binary.url, ["demo", "--sessions", "300", "--db", deep.appendingPathComponent("d.sqlite").path],
                                          columns: 100, streams: .both, environment: ["NO_COLOR": "1"])
        #expect(demo.status == 0)
        let ingest = try PseudoTerminal.run(Binary.url, ["ingest", deep.appendingPathComponent("d-log.ndjson").path, "--db",
                                                         deep.appendingPathComponent("e.sqlite").path],
                                            columns: 100, streams: .both, environment: ["NO_COLOR": "1"])
        #expect(ingest.status == 0 && ingest.terminal.contains("ingest: 1 file;"), "\(ingest.terminal)")
        for r in [missing, demo, ingest] {
            // The demo's commands to paste stay whole, however long the path in them.
            for line in PseudoTerminal.screenLines(r.terminal) where !line.hasPrefix("  export ") {
                #expect(line.count <= 100, "\(line)")
            }
        }
    }
}
