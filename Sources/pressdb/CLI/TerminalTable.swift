// Terminal tables that fit the terminal. A command declares which of its columns matter most
// (`TablePresentation`); this file alone decides, for a given width, which headers to shorten,
// which cells to show in their compact form, which text to cut and which columns to leave out,
// and says under the table what it left out and how to see it (`--wide`, `--columns`). CSV, JSON,
// NDJSON and Markdown never pass through here: they always carry every column.
//
// Fitting a table of width W (the terminal's, `Terminal.width`), each step only while the table
// is still wider than W, and each over the columns from the least important up:
//   1. shorten headers (`feedback_p50_ms` → `fb p50`; the legend says what the short words mean);
//   2. leave out the columns that are not key columns;
//   3. give up the key columns' features, the least important first: a column's full form (its
//      text cut down to a minimum, or a compact form such as a rate without its interval), or the
//      column itself — never the first. The full forms come after every key column unless the
//      key list places them (`NAME+`);
//   4. take back, most important first, whatever fits again.
// With `--wide` (or when standard output is not a terminal) nothing is fitted; `--columns`
// chooses the columns and their order, and nothing chosen is left out.
import Foundation

/// One cell as the terminal shows it: its text, and a shorter form for a narrow table.
struct ShownCell: Equatable {
    var full: String
    var compact: String?
    init(_ full: String, compact: String? = nil) { self.full = full; self.compact = compact }
}

/// One column of a terminal table.
struct ShownColumn {
    /// The column's name in CSV and JSON; `--columns` takes it.
    var name: String
    var header: String
    /// The header when space is short (nil: the header cannot be shortened).
    var shortHeader: String?
    /// The header over the compact cells (nil: as the header).
    var compactHeader: String?
    /// What the compact form leaves out, for the note under the table ("95% CIs").
    var compactLeavesOut: String?
    var alignsRight: Bool
    /// The unit, for the legend ("times in ms").
    var unit: String?
    /// Abbreviations the short header uses, with their meaning ("fb" → "feedback latency").
    var abbreviations: [(String, String)] = []

    init(name: String, header: String? = nil, shortHeader: String? = nil, compactHeader: String? = nil,
         compactLeavesOut: String? = nil, alignsRight: Bool = false, unit: String? = nil,
         abbreviations: [(String, String)] = []) {
        self.name = name
        self.header = header ?? name
        self.shortHeader = shortHeader
        self.compactHeader = compactHeader
        self.compactLeavesOut = compactLeavesOut
        self.alignsRight = alignsRight
        self.unit = unit
        self.abbreviations = abbreviations
    }
}

/// What a command declares about its terminal table: which columns matter most, which text may be
/// cut, what to explain under it. CSV, JSON and Markdown ignore it.
///
///     TablePresentation(key: ["session", "outcome", "feedback_latency_ms"],
///                       cut: ["session": 12],
///                       footnotes: [Footnote(["feedback_*"], "among the presses that were seen")])
struct TablePresentation {
    /// Column names, most important first: a narrow table keeps these longest and never leaves out
    /// the first. `NAME+` places NAME's full form (a rate with its interval) in the order; without
    /// it, the full forms are given up before any key column. Columns not named are less
    /// important than every key column (in table order) and are left out first.
    var key: [String] = []
    /// Text columns that may be cut to fit, with the fewest columns each keeps.
    var cut: [String: Int] = [:]
    /// Cut columns whose cut cells end with the whole text's size: "… (879 B)".
    var cutShowsBytes: Set<String> = []
    /// Sentences for the legend besides the abbreviations and units the columns bring.
    var legend: [String] = []
    /// What a column holds, in a few words, for `--explain` ("sessions that ended as a tap").
    var about: [String: String] = [:]
    /// Columns that mean little alone (compare's A and B): when one is left out, so are the others.
    var together: [[String]] = []
    /// Cut columns whose text is wrapped onto further lines of the row instead of cut (a reject's
    /// reason, which says what to fix).
    var wraps: Set<String> = []
    /// What the table says instead of a bare header when it has no rows ("no rejects").
    var empty: String?
    /// Notes on columns whose numbers cover a subset; shown, with a marker on those columns'
    /// headers, when any of them is shown.
    var footnotes: [Footnote] = []
}

/// A note on some columns: `columns` are names, a trailing `*` matching any end (`feedback_*`).
struct Footnote: Equatable {
    var columns: [String]
    var text: String
    init(_ columns: [String], _ text: String) { self.columns = columns; self.text = text }

    /// Whether the note is on column `name`: a pattern's `*` matches any run of characters
    /// (`feedback_*`, `*_rate`, `share_*_ms`), the rest must be equal.
    func applies(to name: String) -> Bool {
        columns.contains { Self.matches(name[...], pattern: $0.split(separator: "*", omittingEmptySubsequences: false)) }
    }

    /// Glob matching with `*` only: `parts` is the pattern split at each `*`.
    private static func matches(_ name: Substring, pattern parts: [Substring]) -> Bool {
        guard parts.count > 1 else { return name == parts[0] }
        guard name.hasPrefix(parts[0]), name.hasSuffix(parts[parts.count - 1]),
              name.count >= parts[0].count + parts[parts.count - 1].count else { return false }
        var rest = name.dropFirst(parts[0].count).dropLast(parts[parts.count - 1].count)
        for middle in parts.dropFirst().dropLast() where !middle.isEmpty {
            guard let r = rest.range(of: middle) else { return false }
            rest = rest[r.upperBound...]
        }
        return true
    }
}

/// What the command line asks of a terminal table: `--wide`, `--columns`, `--explain`, `--full`,
/// and the width and colour of where it goes.
struct TableOptions {
    /// The width to fit; nil: no fitting (not a terminal, `--out FILE`).
    var width: Int?
    var wide = false
    var columns: [String] = []
    var explain = false
    /// Show text whole, never cut (`report --full`).
    var full = false
    var color = false

    /// The options for standard output (or `--out FILE`: no width, no colour).
    static func standardOutput(wide: Bool = false, columns: [String] = [], explain: Bool = false, full: Bool = false,
                               out: String? = nil) -> TableOptions {
        let toTerminal = out == nil || out == "-"
        return TableOptions(width: toTerminal ? Terminal.width() : nil, wide: wide, columns: columns, explain: explain,
                            full: full, color: toTerminal && useColor())
    }
}

/// A terminal table laid out for a width: which columns show, in which form and how wide.
struct TerminalTable {
    enum Form { case full, short, compact }

    let columns: [ShownColumn]
    let presentation: TablePresentation
    let options: TableOptions
    /// Indices into `columns` of the columns shown, in order.
    private(set) var shown: [Int] = []
    private(set) var form: [Form]
    private(set) var widths: [Int]
    /// Columns cut below their widest cell.
    private(set) var cutColumns: Set<Int> = []
    /// Columns left out to fit.
    private(set) var leftOut: [Int] = []
    /// Footnote numbers per column (1-based), after fitting.
    private var markers: [Int: Int] = [:]
    private var shownFootnotes: [Footnote] = []

    /// Lays out `columns` for `options`, sizing them from `rows` (all of a table's rows, or the
    /// first rows of a stream).
    /// - Throws: `CLIError.usage` for a `--columns` name the table does not have.
    init(columns: [ShownColumn], rows: [[ShownCell]], presentation: TablePresentation = TablePresentation(),
         options: TableOptions) throws {
        self.columns = columns
        self.presentation = presentation
        self.options = options
        form = Array(repeating: .full, count: columns.count)
        widths = Array(repeating: 0, count: columns.count)
        if options.columns.isEmpty {
            shown = Array(columns.indices)
        } else {
            for name in options.columns {
                guard let i = columns.firstIndex(where: { $0.name == name }) else {
                    throw CLIError.usage("--columns: no column '\(name)'; the columns are \(columns.map(\.name).joined(separator: ", "))")
                }
                if !shown.contains(i) { shown.append(i) }
            }
        }
        let footnoted = presentation.footnotes.filter { f in shown.contains { f.applies(to: columns[$0].name) } }
        func marker(_ i: Int) -> Int? {
            footnoted.firstIndex { $0.applies(to: columns[i].name) }.map { $0 + 1 }
        }
        let natural = columns.indices.map { i in Self.measure(columns[i], rows.map { $0[i] }, marker: marker(i)) }
        widths = natural.map(\.full)
        fit(natural)
        // Number the footnotes of the columns still shown.
        for f in footnoted where shown.contains(where: { f.applies(to: columns[$0].name) }) { shownFootnotes.append(f) }
        for i in shown {
            if let n = shownFootnotes.firstIndex(where: { $0.applies(to: columns[i].name) }) { markers[i] = n + 1 }
        }
    }

    /// The widths of a column's header and cells in each form.
    struct Measure {
        var full: Int, short: Int, compact: Int
        var hasShort: Bool, hasCompact: Bool
    }

    static func measure(_ c: ShownColumn, _ cells: [ShownCell], marker: Int?) -> Measure {
        let m = marker == nil ? 0 : 1
        let full = cells.reduce(Terminal.columns(Terminal.visible(c.header)) + m) { max($0, Terminal.columns(Terminal.visible($1.full))) }
        let cellsFull = cells.reduce(0) { max($0, Terminal.columns(Terminal.visible($1.full))) }
        let short = max(cellsFull, Terminal.columns(Terminal.visible(c.shortHeader ?? c.header)) + m)
        let hasCompact = cells.contains { $0.compact != nil }
        let compactCells = cells.reduce(0) { max($0, Terminal.columns(Terminal.visible($1.compact ?? $1.full))) }
        let compact = max(compactCells, Terminal.columns(Terminal.visible(c.compactHeader ?? c.shortHeader ?? c.header)) + m)
        return Measure(full: full, short: short, compact: compact, hasShort: c.shortHeader != nil, hasCompact: hasCompact)
    }

    /// How important column `i` is: its place in the key list, else after every key column.
    func rank(_ i: Int) -> Int {
        if let k = presentation.key.firstIndex(of: columns[i].name) { return k }
        return presentation.key.count + i
    }

    func isKey(_ i: Int) -> Bool { presentation.key.contains(columns[i].name) }

    var totalWidth: Int { shown.reduce(0) { $0 + widths[$1] } + 2 * max(0, shown.count - 1) }

    /// What a narrow table gives up, most important last: (column, true) is the column's full
    /// form, (column, false) the column itself. The key list's order, with each `NAME+` entry
    /// (the full form of NAME) where it stands and the full forms of the other key columns after
    /// every entry, so they are given up first.
    var features: [(column: Int, full: Bool)] {
        var out: [(Int, Bool)] = []
        var explicitFull = Set<Int>()
        for entry in presentation.key {
            let full = entry.hasSuffix("+")
            guard let i = columns.firstIndex(where: { $0.name == (full ? String(entry.dropLast()) : entry) }),
                  shown.contains(i) || leftOut.contains(i) else { continue }
            out.append((i, full))
            if full { explicitFull.insert(i) }
        }
        for (i, full) in out where !full && !explicitFull.contains(i) { out.append((i, true)) }
        return out
    }

    private mutating func fit(_ natural: [Measure]) {
        // --full shows text whole: nothing is fitted then, as with --wide.
        guard let limit = options.width, !options.wide, !options.full else { return }
        let chosen = !options.columns.isEmpty
        let nonKey = shown.filter { !isKey($0) }.sorted { $0 > $1 }
        let features = self.features
        let first = shown.min { rank($0) < rank($1) }
        func width(_ i: Int) -> Int { natural[i].hasShort ? natural[i].short : natural[i].full }
        // 1. Short headers, all of them (a table mixing both reads oddly).
        if totalWidth > limit {
            for i in shown where natural[i].hasShort {
                form[i] = .short
                widths[i] = natural[i].short
            }
        }
        // 2. Leave out the columns that are not key columns, the last first.
        if !chosen {
            for i in nonKey where totalWidth > limit && shown.count > 1 { leaveOut(i) }
        }
        // 2b. Columns chosen with --columns are never left out: the cuttable ones among them are
        //     cut (or wrapped) first, the last first, so the table fits if cutting can make it.
        if chosen {
            for i in shown.reversed() where totalWidth > limit {
                if let minimum = minimumWidth(i, natural[i]), widths[i] > minimum {
                    widths[i] = max(minimum, widths[i] - (totalWidth - limit))
                    cutColumns.insert(i)
                }
            }
        }
        // 3. Give up the key features, the least important first: a full form for the text cut
        //    to fit or the compact form, a column (never the first, nor one --columns chose)
        //    altogether.
        for (i, full) in features.reversed() where totalWidth > limit && shown.contains(i) {
            if full {
                if let minimum = minimumWidth(i, natural[i]), widths[i] > minimum {
                    widths[i] = max(minimum, widths[i] - (totalWidth - limit))
                    cutColumns.insert(i)
                } else if natural[i].hasCompact, natural[i].compact < widths[i] {
                    form[i] = .compact
                    widths[i] = natural[i].compact
                }
            } else if !chosen && i != first {
                leaveOut(i)
            }
        }
        // The steps go a column at a time and may have given up more than needed: take back,
        // most important first, what fits again — up to the first key column or full form that
        // does not fit: a less important one never shows while a more important one is missing
        // (a narrow `>100ms` in place of `false_actions`, one rate's interval but not the rate's
        // before it). A column that is not a key column comes back only while every key column
        // is in its full form.
        var blocked = false
        for (i, full) in features where !blocked {
            defer {
                if !full, leftOut.contains(i) { blocked = true }
                if full, shown.contains(i), form[i] == .compact { blocked = true }
            }
            if full, shown.contains(i), cutColumns.contains(i) {
                widths[i] = min(natural[i].full, widths[i] + max(0, limit - totalWidth))
                if widths[i] >= natural[i].full { cutColumns.remove(i) }
            } else if full, shown.contains(i), form[i] == .compact,
               totalWidth - widths[i] + width(i) <= limit {
                form[i] = natural[i].hasShort ? .short : .full
                widths[i] = width(i)
            } else if !full, leftOut.contains(i) {
                let w = natural[i].hasCompact ? natural[i].compact : width(i)
                if totalWidth + 2 + w <= limit {
                    restore(i, form: natural[i].hasCompact ? .compact : (natural[i].hasShort ? .short : .full), width: w)
                }
            }
        }
        for i in nonKey.reversed() where !blocked && leftOut.contains(i) && !shown.contains(where: { form[$0] == .compact }) {
            if totalWidth + 2 + width(i) <= limit {
                restore(i, form: natural[i].hasShort ? .short : .full, width: width(i))
            }
        }
        // Columns read together (A beside B) go together.
        if !chosen {
            for group in presentation.together {
                let members = group.compactMap { name in columns.firstIndex { $0.name == name } }
                if members.contains(where: leftOut.contains) { for i in members where shown.contains(i) { leaveOut(i) } }
            }
        }
    }

    /// The fewest columns a cuttable column keeps: its declared minimum, and never less than its
    /// header. Nil when it may not be cut (`--full`, or not declared cuttable).
    private func minimumWidth(_ i: Int, _ m: Measure) -> Int? {
        guard !options.full, let minimum = presentation.cut[columns[i].name] else { return nil }
        return max(minimum, Terminal.columns(Terminal.visible(header(i))))
    }

    private mutating func restore(_ i: Int, form f: Form, width w: Int) {
        leftOut.removeAll { $0 == i }
        shown.append(i)
        shown.sort()
        form[i] = f
        widths[i] = w
    }

    private mutating func leaveOut(_ i: Int) {
        shown.removeAll { $0 == i }
        leftOut.append(i)
    }

    // MARK: Rendering

    func header(_ i: Int) -> String {
        let c = columns[i]
        var text: String
        switch form[i] {
        case .full: text = c.header
        case .short: text = c.shortHeader ?? c.header
        case .compact: text = c.compactHeader ?? c.shortHeader ?? c.header
        }
        if let m = markers[i] { text += Self.superscripts[min(m, Self.superscripts.count) - 1] }
        return text
    }

    static let superscripts = ["¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]

    /// The header line and the rule under it.
    func headerLines() -> String {
        var head = String(line(shown.map { header($0) }).dropLast())
        if options.color { head = "\u{1B}[1m" + head + "\u{1B}[0m" }
        return head + "\n" + shown.map { String(repeating: "─", count: widths[$0]) }.joined(separator: "  ") + "\n"
    }

    /// One row's line. A cell wider than its column is cut when its column may be cut, or when the
    /// table is fitted to a width and it is text (a stream's later rows can be wider than the
    /// first ones the layout measured); otherwise it is shown whole.
    func rowLine(_ row: [ShownCell]) -> String {
        line(shown.map { i in
            let cell = row[i]
            return form[i] == .compact ? (cell.compact ?? cell.full) : cell.full
        }, raw: shown.map { row[$0].full })
    }

    private func line(_ texts: [String], raw: [String]? = nil) -> String {
        var cells = texts.map(Terminal.visible)
        var room = widths
        // A number wider than its column (a later row of a stream) widens it for this line; on a
        // terminal the text columns give that room back, the least important first, so the line
        // still fits.
        if let limit = options.width, raw != nil, !options.full {
            var over = zip(shown, cells).reduce(2 * max(0, shown.count - 1)) {
                $0 + (columns[$1.0].alignsRight ? max(room[$1.0], Terminal.columns($1.1)) : room[$1.0])
            } - limit
            for i in shown.sorted(by: { rank($0) > rank($1) }) where over > 0 && !columns[i].alignsRight {
                let give = min(over, room[i] - 1)
                room[i] -= give
                over -= give
            }
        }
        var out = ""
        // Wrapped columns: the first piece here, the rest on lines of their own below.
        var more: [Int: [String]] = [:]
        for (k, i) in shown.enumerated() where raw != nil && !options.full && presentation.wraps.contains(columns[i].name)
            && Terminal.columns(cells[k]) > room[i] {
            let pieces = TextWrap.lines(cells[k], width: room[i])
            if pieces.allSatisfy({ Terminal.columns($0) <= room[i] }) {
                cells[k] = pieces[0]
                more[k] = Array(pieces.dropFirst())
            }
        }
        for (k, i) in shown.enumerated() {
            var w = Terminal.columns(cells[k])
            let mayCut = !options.full && (cutColumns.contains(i) || (options.width != nil && !columns[i].alignsRight))
            if w > room[i], mayCut, let raw {
                cells[k] = Self.cut(cells[k], to: room[i],
                                    bytes: presentation.cutShowsBytes.contains(columns[i].name) ? raw[k].utf8.count : nil)
                w = Terminal.columns(cells[k])
            }
            let pad = String(repeating: " ", count: max(0, room[i] - w))
            if k > 0 { out += "  " }
            out += columns[i].alignsRight ? pad + cells[k] : cells[k] + pad
        }
        while out.hasSuffix(" ") { out.removeLast() }
        let extra = more.values.map(\.count).max() ?? 0
        for n in 0..<extra {
            var line = ""
            for (k, i) in shown.enumerated() {
                let text = more[k].map { n < $0.count ? $0[n] : "" } ?? ""
                if k > 0 { line += "  " }
                line += text + String(repeating: " ", count: max(0, room[i] - Terminal.columns(text)))
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += "\n" + line
        }
        return out + "\n"
    }

    /// `text` cut to `width` columns, ending in "…", or "… (N B)" with the whole text's size.
    static func cut(_ text: String, to width: Int, bytes: Int? = nil) -> String {
        let end = bytes.map { "… (\($0) B)" } ?? "…"
        let room = width - Terminal.columns(end)
        guard room > 0 else { return Terminal.prefix(text, columns: max(0, width - 1)) + "…" }
        return Terminal.prefix(text, columns: room) + end
    }

    /// The lines under the table: footnotes, the legend, and what was left out or shortened.
    func footer() -> String {
        var lines: [String] = []
        for (n, f) in shownFootnotes.enumerated() {
            lines.append(Self.superscripts[min(n + 1, Self.superscripts.count) - 1] + " " + f.text)
        }
        if options.explain {
            lines += explanation()
        } else if let legend = legend() {
            lines.append(legend)
        }
        var notes: [String] = []
        if !leftOut.isEmpty { notes.append(leftOut.sorted().map { columns[$0].name }.joined(separator: ", ")) }
        let compacted = shown.filter { form[$0] == .compact }
        for what in Set(compacted.compactMap { columns[$0].compactLeavesOut }).sorted() {
            let names = compacted.filter { columns[$0].compactLeavesOut == what }.map { columns[$0].name }
            notes.append("\(what) of \(names.joined(separator: ", "))")
        }
        let cut = cutColumns.filter { shown.contains($0) && !presentation.wraps.contains(columns[$0].name) }.sorted()
        if !cut.isEmpty {
            notes.append("the end of long text in \(cut.map { columns[$0].name }.joined(separator: ", "))")
        }
        if !notes.isEmpty {
            lines.append("Not shown, to fit \(options.width ?? 0) columns: " + notes.joined(separator: "; ") + ". "
                + (options.columns.isEmpty ? "--wide shows all; --columns NAME,... chooses." : "--wide shows them."))
        }
        guard !lines.isEmpty else { return "" }
        return "\n" + lines.map { Self.wrap(Terminal.visible($0), width: options.width) }.joined()
    }

    /// One line: the abbreviations the shown headers use, and the units of the shown columns.
    func legend() -> String? {
        var parts: [String] = []
        var seen = Set<String>()
        for i in shown where form[i] != .full {
            for (short, meaning) in columns[i].abbreviations where seen.insert(short).inserted {
                parts.append("\(short) = \(meaning)")
            }
        }
        var units: [String] = []
        for i in shown { if let u = columns[i].unit, !units.contains(u) { units.append(u) } }
        var sentences: [String] = []
        if !parts.isEmpty { sentences.append(parts.joined(separator: ", ")) }
        if !units.isEmpty { sentences.append(units.joined(separator: ", ")) }
        sentences += presentation.legend
        guard !sentences.isEmpty else { return nil }
        return sentences.joined(separator: "; ") + "."
    }

    /// `--explain`: one line per shown column: its header, its name, its unit.
    func explanation() -> [String] {
        let headers = shown.map { header($0) }
        let w = headers.map { Terminal.columns(Terminal.visible($0)) }.max() ?? 0
        var lines = zip(shown, headers).flatMap { i, h -> [String] in
            let c = columns[i]
            var about = h == c.name ? "" : c.name
            // An abbreviation that only spells the name out again ("unseen = unseen presses" beside
            // unseen_presses) explains nothing: the declared description does.
            let spelled = c.name.replacingOccurrences(of: "_", with: " ")
            let meanings = c.abbreviations.filter { !spelled.contains($0.1) }.map { "\($0.0) = \($0.1)" }
            if form[i] != .full, !meanings.isEmpty { about += " (" + meanings.joined(separator: ", ") + ")" }
            if let text = presentation.about[c.name] { about += (about.isEmpty ? "" : ": ") + text }
            if let u = c.unit { about += (about.isEmpty ? "" : presentation.about[c.name] == nil ? ": " : "; ") + u }
            let lead = "  " + h + String(repeating: " ", count: w - Terminal.columns(Terminal.visible(h))) + "  "
            // Wrapped here, under the descriptions, so the footer's wrap finds nothing too wide.
            guard let width = options.width, !about.isEmpty else { return [String((lead + about).reversed().drop { $0 == " " }.reversed())] }
            return TextWrap.lines(about, width: width, lead: lead, indent: String(repeating: " ", count: w + 4))
        }
        lines.insert("Columns:", at: 0)
        lines += presentation.legend.map { $0 + "." }
        return lines
    }

    /// `text` in lines of at most `width` columns (`TextWrap.lines`: its leading spaces begin the
    /// first line, `indent` the others); every line ends with a newline. No width: one line.
    static func wrap(_ text: String, width: Int?, indent: String = "") -> String {
        guard let width, Terminal.columns(text) > width else { return text + "\n" }
        let lead = String(text.prefix { $0 == " " })
        return TextWrap.lines(text.dropFirst(lead.count), width: width, lead: lead, indent: indent)
            .joined(separator: "\n") + "\n"
    }

    /// The whole table: header, rows, footer.
    func render(_ rows: [[ShownCell]]) -> String {
        headerLines() + rows.map(rowLine).joined() + footer()
    }
}
