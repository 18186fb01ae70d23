import Foundation
import Testing
@testable import pressdb
import PressCore

/// A command declared only for these tests.
fileprivate struct ParserTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(name: "demo", abstract: "A test command.")
    @Argument(name: "FILE", help: "Input") var files: [String]
    @Option(value: "PATH", help: "Database") var db: String?
    @Option(value: "NAME", help: "Metric") var metric: [String]
    @Option(value: "N", help: "Count") var count: Double?
    @Flag(short: "q", help: "Quiet.") var quiet: Bool
    func run() throws -> Int32 { ExitCode.ok }
}

@Suite struct ArgumentParserTests {
    fileprivate func parse(_ arguments: [String]) throws -> ParserTestCommand {
        guard case .command(let c) = try ParserTestCommand.parse(arguments) else { throw CLIError.usage("help") }
        return c
    }

    @Test func parsesOptionsFlagsAndPositionals() throws {
        let p = try parse(["a.ndjson", "--db=x.sqlite", "-q", "-", "--metric", "a,b", "--metric", "c"])
        #expect(p.files == ["a.ndjson", "-"])
        #expect(p.db == "x.sqlite")
        #expect(p.quiet)
        #expect(p.metric == ["a", "b", "c"])
    }

    @Test func rejectsUnknownOptionWithUsageStatus() {
        #expect(throws: CLIError.self) { try parse(["--bogus"]) }
        do { _ = try parse(["--dbx", "1"]) } catch let e as CLIError {
            #expect(e.status == ExitCode.usage)
            #expect(e.message.contains("--dbx"))
        } catch { Issue.record("unexpected error \(error)") }
    }

    @Test func rejectsMissingValueAndBadNumber() throws {
        #expect(throws: CLIError.self) { try parse(["--db"]) }
        #expect(throws: CLIError.self) { try parse(["--count", "abc"]) }
    }

    @Test func helpListsEveryOption() {
        for name in ["--db PATH", "--metric NAME", "-q, --quiet", "--help"] {
            #expect(ParserTestCommand.help.contains(name))
        }
    }
}

@Suite struct OutputTests {
    let table = ResultTable(
        columns: [Column("name"), Column("n", .integer), Column("rate", .percent)],
        rows: [[.text("a,\"b\""), .int(3), .double(0.125)], [.text("c"), .int(12), .null]])

    @Test func csvQuotesPerRFC4180AndKeepsFullPrecision() {
        #expect(Render.csv(table) == "name,n,rate\n\"a,\"\"b\"\"\",3,0.125\nc,12,\n")
    }

    @Test func jsonUsesColumnNamesAndNull() {
        #expect(Render.json(table) == "[\n  {\"name\":\"a,\\\"b\\\"\",\"n\":3,\"rate\":0.125},\n  {\"name\":\"c\",\"n\":12,\"rate\":null}\n]\n")
    }

    @Test func terminalTableRightAlignsNumbersAndShowsPercent() {
        let lines = Render.text(table, color: false).split(separator: "\n")
        #expect(lines[2].hasSuffix(" 3  12.5%"))
        // widths: name 5 (`a,"b"`), n 2, rate 5 (`12.5%`); two spaces between columns
        #expect(lines[3] == "c      12      –")
    }
}

@Suite struct BinaryTests {
    @Test func helpAndUnknownCommand() throws {
        let help = try Binary.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: pressdb COMMAND"))
        let bad = try Binary.run(["frobnicate"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("unknown command 'frobnicate'") && !bad.stderr.contains("did you mean"))
    }

    // A typo gets the nearest names: a swap of two letters is one edit, so `--fromat` is
    // `--format` (1) before `--from` (2 deletions).
    @Test func misspellingsSuggestTheNearestName() throws {
        let format = try Binary.run(["report", "--fromat", "csv"])
        #expect(format.status == 2 && format.stderr.contains("(did you mean --format?)"), "\(format.stderr)")
        #expect(try Binary.run(["report", "--wdie"]).stderr.contains("(did you mean --wide?)"))
        let command = try Binary.run(["reprot"])
        #expect(command.status == 2 && command.stderr.contains("unknown command 'reprot' (did you mean report?)"), "\(command.stderr)")
    }

    // The optimal string alignment distance, by hand: kitten → sitting is 3 (k→s, e→i, +g; the
    // textbook Levenshtein example); fromat → format 1 (one adjacent swap); CA → ABC 3 under
    // optimal string alignment (true Damerau–Levenshtein gives 2: the swapped pair is edited
    // again, which OSA does not allow; Wikipedia, "Damerau–Levenshtein distance").
    @Test func optimalStringAlignmentDistance() {
        #expect(Suggestions.distance("kitten", "sitting") == 3)
        #expect(Suggestions.distance("fromat", "format") == 1)
        #expect(Suggestions.distance("fromat", "from") == 2)
        #expect(Suggestions.distance("CA", "ABC") == 3)
        #expect(Suggestions.distance("", "abc") == 3 && Suggestions.distance("same", "same") == 0)
        #expect(Suggestions.near("--fromat", in: ["--from", "--format", "--out"]) == ["--format"])
        #expect(Suggestions.near("frobnicate", in: ["report", "compare", "ingest"]).isEmpty)
    }
}
