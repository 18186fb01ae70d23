// Tabular output in the formats every command offers: an aligned terminal table, CSV, JSON,
// NDJSON and Markdown. Commands build a `ResultTable`; this file decides how it looks.
import Foundation
import PressCore

/// One value of a result cell.
enum Cell: Equatable {
    case null
    case int(Int)
    case double(Double)
    case text(String)
    case bool(Bool)
}

/// How a column is shown in terminal tables, Markdown and HTML: one rounding rule per kind of
/// quantity, the same in every command (CSV and JSON always carry full precision).
enum ColumnStyle: Equatable {
    case text
    /// A count: a whole number.
    case integer
    /// Another number, with this many decimals.
    case number(Int)
    /// A rate or share (a fraction): a percentage with one decimal, "86.4%".
    case percent
    /// Milliseconds, one decimal: "33.3" (a 60 Hz frame is 16.7 ms).
    case milliseconds
    /// Points, two decimals: "18.00".
    case points
    /// A fraction of a change (press depth), two decimals: "1.16".
    case fraction
    /// A yes/no value (1/0, true/false): "yes", "no".
    case flag
    /// A parameter as given (`configs`): the shortest text that reads back as the value.
    case exact
}

struct Column {
    var name: String
    var style: ColumnStyle
    init(_ name: String, _ style: ColumnStyle = .text) { self.name = name; self.style = style }
}

/// Rows of cells under named columns.
struct ResultTable {
    var columns: [Column]
    var rows: [[Cell]] = []
}

/// The output formats. Not every command offers every one.
enum OutputFormat: String, CaseIterable {
    case table, csv, json, ndjson, markdown
}

/// Whether to colour terminal output: only on a terminal, and never when `NO_COLOR` is set
/// (https://no-color.org) or `TERM` is `dumb`.
func useColor(_ fd: Int32 = STDOUT_FILENO) -> Bool {
    let environment = ProcessInfo.processInfo.environment
    if let v = environment["NO_COLOR"], !v.isEmpty { return false }
    if environment["TERM"] == "dumb" { return false }
    return isatty(fd) == 1
}

enum Render {
    /// Renders `table` in `format`; the result ends with a newline.
    static func render(_ table: ResultTable, as format: OutputFormat, color: Bool = false) -> String {
        switch format {
        case .table: return text(table, color: color)
        case .csv: return csv(table)
        case .json: return json(table)
        case .ndjson: return ndjson(table)
        case .markdown: return markdown(table)
        }
    }

    // MARK: Terminal

    static func display(_ cell: Cell, _ style: ColumnStyle) -> String {
        switch cell {
        case .null: return "–"
        case .bool(let b): return b ? "yes" : "no"
        case .text(let s): return s
        case .int(let n):
            switch style {
            case .flag: return n == 0 ? "no" : "yes"
            case .integer, .text, .exact: return String(n)
            default: return display(.double(Double(n)), style)
            }
        case .double(let d):
            guard d.isFinite else { return "–" }
            let text = rounded(d, style)
            // A negative number that rounds to zero is shown as zero ("0.00", not "-0.00").
            if text.hasPrefix("-"), !text.contains(where: { ("1"..."9").contains($0) }) { return String(text.dropFirst()) }
            return text
        }
    }

    /// `d` (finite) in `style`'s rounding.
    private static func rounded(_ d: Double, _ style: ColumnStyle) -> String {
        switch style {
        case .percent: return String(format: "%.1f%%", d * 100)
        case .number(let k): return String(format: "%.\(k)f", d)
        case .milliseconds: return String(format: "%.1f", d)
        case .points, .fraction: return String(format: "%.2f", d)
        case .integer: return String(Int(d.rounded()))
        case .flag: return d == 0 ? "no" : "yes"
        case .text, .exact: return full(d)
        }
    }

    static func isNumeric(_ style: ColumnStyle) -> Bool { style != .text }

    /// The whole table, every column in full (`TerminalTable` fits one to a width); text from
    /// input is shown with its control characters made visible (`Terminal.visible`).
    static func text(_ table: ResultTable, color: Bool) -> String {
        var options = TableOptions()
        options.color = color
        let (columns, cells) = TerminalTable.shownColumns(table.columns)
        let rows = table.rows.map(cells)
        // Without --columns the layout cannot fail.
        guard let layout = try? TerminalTable(columns: columns, rows: rows, options: options) else { return "" }
        return layout.headerLines() + rows.map(layout.rowLine).joined()
    }

    // MARK: CSV (RFC 4180)

    /// One field, quoted when it holds a comma, a quote or any control character (line breaks,
    /// ESC …), which then reaches the reader exactly as stored.
    static func csvField(_ s: String) -> String {
        if s.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || Terminal.needsEscape($0) }) {
            return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return s
    }

    static func raw(_ cell: Cell) -> String {
        switch cell {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .text(let s): return s
        case .int(let n): return String(n)
        case .double(let d): return d.isFinite ? full(d) : ""
        }
    }

    /// Shortest text that reads back as the same Double (`JSONText.number`).
    static func full(_ d: Double) -> String { JSONText.number(d) }

    static func csv(_ table: ResultTable) -> String {
        var out = table.columns.map { csvField($0.name) }.joined(separator: ",") + "\n"
        for row in table.rows { out += row.map { csvField(raw($0)) }.joined(separator: ",") + "\n" }
        return out
    }

    // MARK: JSON

    /// A JSON string literal (`JSONText.string`: `"`, `\\` and control characters escaped).
    static func jsonString(_ s: String) -> String {
        // Characters a terminal acts on or reorders as \u escapes (`JSONText.escapingInvisible`).
        String(decoding: JSONText.escapingInvisible(Array(JSONText.string(s).utf8)), as: UTF8.self)
    }

    static func jsonValue(_ cell: Cell) -> String {
        switch cell {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .text(let s): return jsonString(s)
        case .int(let n): return String(n)
        case .double(let d): return d.isFinite ? "\(d)" : "null"
        }
    }

    static func jsonObject(_ table: ResultTable, _ row: [Cell]) -> String {
        "{" + zip(table.columns, row).map { jsonString($0.name) + ":" + jsonValue($1) }.joined(separator: ",") + "}"
    }

    static func json(_ table: ResultTable) -> String {
        if table.rows.isEmpty { return "[]\n" }
        return "[\n" + table.rows.map { "  " + jsonObject(table, $0) }.joined(separator: ",\n") + "\n]\n"
    }

    static func ndjson(_ table: ResultTable) -> String {
        table.rows.map { jsonObject(table, $0) + "\n" }.joined()
    }

    // MARK: Markdown

    static func markdown(_ table: ResultTable) -> String {
        var out = "| " + table.columns.map { markdownText($0.name) }.joined(separator: " | ") + " |\n"
        out += "|" + table.columns.map { isNumeric($0.style) ? "---:" : "---" }.joined(separator: "|") + "|\n"
        for row in table.rows { out += markdownRow(row, table.columns.map(\.style)) }
        return out
    }

    /// One row of a Markdown table, each cell shown in its column's style.
    static func markdownRow(_ row: [Cell], _ styles: [ColumnStyle]) -> String {
        "| " + zip(row, styles).map { markdownText(display($0, $1)) }.joined(separator: " | ") + " |\n"
    }

    /// Text for a Markdown cell: control characters made visible, as in the terminal (Markdown is
    /// read as text too), and `|` escaped.
    static func markdownText(_ s: String) -> String {
        Terminal.visible(s).replacingOccurrences(of: "|", with: "\\|")
    }
}

/// Writes `message` to standard error, a line at a time, with any control character in it
/// other than the line breaks made visible (`Terminal.visible`): messages quote input (a rejected
/// line's reason, a session id) and must not reach the terminal as escape sequences.
///
/// A run of more than `Terminal.nameColumns` × 4 bytes without a space — a name or value quoted
/// from input, most likely — is cut (`Terminal.cut`): a 1 MB configuration name is not printed
/// whole. On a terminal, a line wider than it is wrapped at spaces, its continuation indented two
/// columns, so a message never runs past the window's edge (a long path breaks after its `/`
/// only when it cannot fit a line).
func printError(_ message: String) {
    func readable(_ line: Substring) -> String {
        guard line.utf8.count > Terminal.nameColumns * 4 else { return String(line) }
        return line.split(separator: " ", omittingEmptySubsequences: false)
            .map { $0.utf8.count > Terminal.nameColumns * 4 ? Terminal.cut(String($0)) : String($0) }
            .joined(separator: " ")
    }
    var lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { Terminal.visible(readable($0)) }
    if let width = Terminal.width(STDERR_FILENO) {
        lines = lines.flatMap { line -> [String] in
            guard Terminal.columns(line) > width, line.first != " " else { return [line] }
            return TextWrap.lines(line, width: width, indent: "  ")
        }
    }
    let text = lines.joined(separator: "\n")
    FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
}

/// Writes `text` to `--out FILE` when given, else to standard output. Refuses to write over
/// the database the command reads (`protecting`), or its -wal and -shm files.
func emit(_ text: String, to path: String? = nil, protecting database: String? = nil) throws {
    let sink = try OutputSink(path: path, protecting: database)
    try sink.write(text)
    try sink.finish()
}
