// Which columns a terminal table keeps as it narrows: the summary report fitted at 80, 100 and 120
// columns on the demo's rows at 20,000 and 100,000 generated sessions (the counts widen with
// the data), through the same fitting code and the presentation the built-in report declares;
// report and compare run in a pseudo-terminal at the same widths on demo databases of both sizes.
import Foundation
import Testing
import PressStore
import PressAnalysis
import PressTestSupport
@testable import pressdb

/// `pressdb report --format csv` of two demo databases, recorded from real runs: `pressdb demo`
/// (seed 1, 20,000 sessions + 2,831 retries) and `pressdb demo --sessions 100000` (114,131
/// sessions). The rows are the input of the layout; nothing below compares against them.
private let summaryHeader = "config,variant,sessions,taps,cancels,scroll_aborts,tap_rate,tap_rate_low,tap_rate_high,cancel_rate,cancel_rate_low,cancel_rate_high,scroll_abort_rate,scroll_abort_rate_low,scroll_abort_rate_high,false_actions,unseen_presses,feedback_p50_ms,feedback_p90_ms,feedback_p99_ms,share_over_100ms,action_p50_ms,action_p90_ms,release_jump_pt_max"
private let summaryRows: [(sessions: String, rows: [String])] = [
    ("20k", [
        "expand-delayed-click,C,7451,6437,280,734,0.8639108844450409,0.8559376013767043,0.8715091230044582,0.037578848476714534,0.0334935501235021,0.042140715465546395,0.09851026707824453,0.09194926760319752,0.1054850396119058,454,1,66.666667,166.666667,183.333333,0.29632854447830503,300,300,18",
        "longpress-safe-area,B,7896,6366,295,1235,0.8062310030395137,0.7973649489467263,0.8147992350066475,0.03736068895643364,0.033397666764359075,0.041773646725436465,0.1564083080040527,0.14856359907931513,0.16458717384644875,0,0,66.666667,83.333333,83.333333,0,0,0,0",
        "spring-press,A,7484,6474,270,740,0.8650454302512026,0.8571169191509603,0.8725993856144666,0.03607696419027258,0.0320844433559966,0.04054549436524718,0.09887760555852486,0.0923192655139208,0.10584751819551866,0,3007,33.333333,183.333333,183.333333,0.24026639344262296,0,0,0.005078",
    ]),
    ("114k", [
        "expand-delayed-click,C,36597,31807,1301,3489,0.869114954777714,0.8656206936198084,0.872531734662383,0.03554936196956034,0.033700521116853906,0.03749569609996895,0.09533568325272564,0.09236918888451992,0.09838712109474398,2116,8,66.666667,166.666667,183.333333,0.2884178875689061,300,300,18",
        "longpress-safe-area,B,37941,30532,1315,6094,0.8047231227432066,0.8007035549410197,0.8086809914430793,0.034659075933686515,0.03286514789893503,0.03654722431189757,0.16061780132310693,0.1569575614772036,0.16434675790048534,0,0,66.666667,83.333333,83.333333,0,0,0,0",
        "spring-press,A,39593,34598,1359,3636,0.8738413355896244,0.8705345284584723,0.8770756068293651,0.03432424923597606,0.0325756356596096,0.036163217201957955,0.09183441517439951,0.08902925623360862,0.09471876989083138,0,16103,33.333333,183.333333,183.333333,0.23952993519682755,0,0,0.005078",
    ]),
]

/// The recorded rows as the report command holds them: counts whole, measures as doubles.
private func summaryTable(_ rows: [String]) -> ResultTable {
    let names = summaryHeader.split(separator: ",").map(String.init)
    let counts: Set<String> = ["sessions", "taps", "cancels", "scroll_aborts", "false_actions", "unseen_presses"]
    let cells: [[Cell]] = rows.map { line in
        zip(names, line.split(separator: ",", omittingEmptySubsequences: false)).map { name, text -> Cell in
            if counts.contains(name) { return .int(Int(text)!) }
            return Double(text).map(Cell.double) ?? .text(String(text))
        }
    }
    let columns = names.enumerated().map { i, name in Column(name, ColumnStyle.named(name, sample: cells[0][i])) }
    return ResultTable(columns: columns, rows: cells)
}

@Suite struct TableFittingTests {
    static let widths = [80, 100, 120]

    // At every width and size: no line wider than the terminal; the key columns shown are the
    // most important ones, without a gap (a less important column never stands in for a more
    // important one); false_actions — 2,116 actions on non-taps in arm C — always stays.
    @Test(arguments: summaryRows.map(\.sessions), widths)
    func summaryKeepsItsKeyColumnsInOrder(_ size: String, _ width: Int) throws {
        let table = summaryTable(try #require(summaryRows.first { $0.sessions == size }).rows)
        let summary = try #require(ReportDefinition.builtIn.first { $0.name == "summary" })
        let presentation = try ReportPresentation.parse(summary, groupName: "config")
        let (columns, cells) = TerminalTable.shownColumns(table.columns)
        let rows = table.rows.map(cells)
        let layout = try TerminalTable(columns: columns, rows: rows, presentation: presentation,
                                       options: TableOptions(width: width))
        let text = layout.render(rows)
        for line in text.split(separator: "\n") {
            #expect(Terminal.columns(String(line)) <= width, "\(size) at \(width): \(line)")
        }
        let shownNames = layout.shown.map { columns[$0].name }
        let keyShown = presentation.key.map { shownNames.contains($0) }
        #expect(keyShown == keyShown.sorted { $0 && !$1 }, "\(size) at \(width): \(shownNames) against the key \(presentation.key)")
        #expect(shownNames.contains("false_actions"), "\(size) at \(width): \(shownNames)")
        #expect(shownNames.contains("unseen_presses"), "\(size) at \(width): \(shownNames)")
        if width >= 100 { #expect(shownNames.contains("feedback_p90_ms"), "\(size) at \(width): \(shownNames)") }
        // Intervals too go in order: a rate's interval only with those of the rates before it.
        let full = ["tap_rate", "cancel_rate", "scroll_abort_rate"].map { name in
            layout.shown.contains { columns[$0].name == name && layout.form[$0] != .compact }
        }
        #expect(full == full.sorted { $0 && !$1 }, "\(size) at \(width): \(full)")
    }
}

/// The demo's database at its default size (20,000 sessions and their retries), made once.
private let demo20k: Result<String, Error> = Result {
    let db = try Binary.temporaryDirectory().appendingPathComponent("demo.sqlite").path
    let r = try Binary.run(["demo", "--db", db, "--quiet"])
    guard r.status == 0 else { throw CLIError.failure(r.stderr) }
    return db
}

/// `pressdb demo --sessions 100000` (114,131 sessions with the retries), made once for the
/// suites below; its 120 MB log is removed at once (the tables read the database).
private let demo114k: Result<String, Error> = Result {
    let dir = try Binary.temporaryDirectory()
    let db = dir.appendingPathComponent("demo.sqlite").path
    let r = try Binary.run(["demo", "--db", db, "--sessions", "100000", "--quiet"])
    guard r.status == 0 else { throw CLIError.failure(r.stderr) }
    try? FileManager.default.removeItem(at: dir.appendingPathComponent("demo-log.ndjson"))
    return db
}

/// The demo database of `size` ("20k", "114k").
private func demoDatabase(_ size: String) throws -> String { try (size == "20k" ? demo20k : demo114k).get() }

@Suite(.serialized) struct ReportFittingTests {
    // `pressdb report` on the demo at 20k and 114k sessions in a pseudo-terminal of 80, 100 and 120
    // columns: no line wider; false_actions (arm C's actions on non-taps) and unseen_presses are
    // always shown and never listed as left out, before the latency columns (fb p90 from 100
    // columns on); what is left out is said.
    @Test(arguments: ["20k", "114k"], [80, 100, 120])
    func falseActionsAndUnseenStay(_ size: String, _ width: Int) throws {
        let db = try demoDatabase(size)
        let r = try PseudoTerminal.run(Binary.url, ["report", "--db", db], columns: width, environment: ["NO_COLOR": "1"])
        #expect(r.status == 0, "\(r.piped)")
        let lines = PseudoTerminal.screenLines(r.terminal)
        for line in lines { #expect(line.count <= width, "\(size) at \(width): \(line)") }
        let header = try #require(lines.first { $0.hasPrefix("config ") })
        #expect(header.contains("false act") && header.contains("unseen"), "\(size) at \(width): \(header)")
        if width >= 100 { #expect(header.contains("fb p90"), "\(size) at \(width): \(header)") }
        let note = lines.drop { !$0.hasPrefix("Not shown, to fit \(width) columns:") }.joined(separator: " ")
        #expect(!note.isEmpty && !note.contains("false_actions") && !note.contains("unseen_presses"), "\(size) at \(width): \(note)")
    }
}

@Suite(.serialized) struct CompareFittingTests {
    // compare A B on the demo at 20k and 114k sessions: the difference with its 95 % interval and
    // the verdict stay at every width; the arms' values A and B go together or not at all; a
    // relative difference never shows while the interval of the difference is missing; --mde
    // shows the MDE and the users per arm at 100 columns and more.
    @Test(arguments: ["20k", "114k"], [80, 100, 120])
    func differenceAndItsIntervalStay(_ size: String, _ width: Int) throws {
        let db = try demoDatabase(size)
        let r = try PseudoTerminal.run(Binary.url, ["compare", "A", "B", "--db", db], columns: width, environment: ["NO_COLOR": "1"])
        #expect(r.status == 0, "\(r.piped)")
        let lines = PseudoTerminal.screenLines(r.terminal)
        for line in lines { #expect(line.count <= width, "\(size) at \(width): \(line)") }
        let header = try #require(lines.first { $0.hasPrefix("metric ") })
        #expect(header.contains("B − A (95% CI)") && header.contains("verdict"), "\(size) at \(width): \(header)")
        let words = header.split(separator: " ").map(String.init)
        #expect(words.contains("A") == words.contains("B"), "\(size) at \(width): \(header)")
        let tap = try #require(lines.first { $0.hasPrefix("tap_rate ") })
        // At 20k the README's interval; at 114k any interval of the difference, with its sign.
        let interval = size == "20k" ? "pp \\(-7\\.3, -4\\.5\\)" : "pp \\([-+]?[0-9]+\\.[0-9], [-+]?[0-9]+\\.[0-9]\\)"
        #expect(tap.range(of: interval, options: .regularExpression) != nil, "\(size) at \(width): \(tap)")

        let planned = try PseudoTerminal.run(Binary.url, ["compare", "A", "B", "--db", db, "--mde", "5%"], columns: width,
                                             environment: ["NO_COLOR": "1"])
        let plannedHeader = try #require(PseudoTerminal.screenLines(planned.terminal).first { $0.hasPrefix("metric ") })
        #expect(plannedHeader.contains("B − A (95% CI)"), "\(size) at \(width): \(plannedHeader)")
        if width >= 100 {
            #expect(plannedHeader.contains("MDE") && plannedHeader.contains("users/arm"), "\(size) at \(width): \(plannedHeader)")
        }
    }
}
