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

/// How a column is shown in the terminal table (CSV and JSON always carry full precision).
enum ColumnStyle: Equatable {
    case text
    case integer
    /// A number with this many decimals.
    case number(Int)
    /// A fraction shown as a percentage with one decimal.
    case percent
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
/// (https://no-color.org).
func useColor(_ fd: Int32 = STDOUT_FILENO) -> Bool {
    if let v = ProcessInfo.processInfo.environment["NO_COLOR"], !v.isEmpty { return false }
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
        case .int(let n): return String(n)
        case .double(let d):
            guard d.isFinite else { return "–" }
            switch style {
            case .percent: return String(format: "%.1f%%", d * 100)
            case .number(let k): return String(format: "%.\(k)f", d)
            case .integer: return String(Int(d.rounded()))
            case .text: return full(d)
            }
        }
    }

    static func isNumeric(_ style: ColumnStyle) -> Bool { style != .text }

    static func text(_ table: ResultTable, color: Bool) -> String {
        let cells = table.rows.map { row in row.enumerated().map { display($0.element, table.columns[$0.offset].style) } }
        var widths = table.columns.map { $0.name.count }
        for row in cells { for (i, c) in row.enumerated() { widths[i] = max(widths[i], c.count) } }
        func line(_ values: [String]) -> String {
            values.enumerated().map { i, v in
                let pad = String(repeating: " ", count: widths[i] - v.count)
                return isNumeric(table.columns[i].style) ? pad + v : v + pad
            }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        var header = line(table.columns.map(\.name))
        if color { header = "\u{1B}[1m" + header + "\u{1B}[0m" }
        var out = header + "\n"
        out += widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ") + "\n"
        for row in cells { out += line(row) + "\n" }
        return out
    }

    // MARK: CSV (RFC 4180)

    static func csvField(_ s: String) -> String {
        if s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
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
    static func jsonString(_ s: String) -> String { JSONText.string(s) }

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
        func esc(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|") }
        var out = "| " + table.columns.map { esc($0.name) }.joined(separator: " | ") + " |\n"
        out += "|" + table.columns.map { isNumeric($0.style) ? "---:" : "---" }.joined(separator: "|") + "|\n"
        for row in table.rows {
            out += "| " + row.enumerated().map { esc(display($0.element, table.columns[$0.offset].style)) }
                .joined(separator: " | ") + " |\n"
        }
        return out
    }
}

/// Writes to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
}

/// Writes `text` to `--out FILE` when given, else to standard output. Refuses to write over
/// the database the command reads (`protecting`), or its -wal and -shm files.
func emit(_ text: String, to path: String? = nil, protecting database: String? = nil) throws {
    if let path, path != "-" {
        let target = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        if let database {
            let db = URL(fileURLWithPath: database).standardizedFileURL.resolvingSymlinksInPath().path
            if [db, db + "-wal", db + "-shm"].contains(target) {
                throw CLIError.usage("--out \(path) is the database itself; choose another file for the output")
            }
        }
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            let reason = underlying.map { String(cString: strerror(Int32($0.code))) } ?? error.localizedDescription
            throw CLIError.failure("cannot write --out \(path): \(reason) (does its folder exist and is it writable?)")
        }
    } else {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
