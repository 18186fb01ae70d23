// Result columns as people read them: the kind of quantity a column holds, told from its name
// (the naming convention of reports/*.sql and the results table: `_rate`, `_ms`, `_pt`, …), its
// short header and the abbreviations that header uses, and how a `ResultTable`'s columns become a
// terminal table's (a rate with `_low` and `_high` beside it is one column with its interval).
// Every report, `replay` and `configs` go through here, so one quantity reads the same in all.
import Foundation

extension ColumnStyle {
    /// The style of a result column from its name and, when known, its first non-null value:
    /// text values are text; `*_rate`, `*_rate_low|high`, `*_rate_by_user*` and `share*` are rates; `*_ms`
    /// milliseconds; a `pt` word points (`release_jump_pt_max`); `press_depth*` a fraction;
    /// `action_fired`, `counterfactual`, `variant_given` and true/false values yes/no; other
    /// whole numbers counts, other numbers three decimals.
    static func named(_ name: String, sample: Cell? = nil) -> ColumnStyle {
        if case .text = sample { return .text }
        if case .bool = sample { return .flag }
        let words = name.split(separator: "_")
        if name.hasSuffix("_rate") || name.hasSuffix("_rate_low") || name.hasSuffix("_rate_high")
            || name.contains("_rate_by_user") || name.hasPrefix("share") { return .percent }
        if words.last == "ms" { return .milliseconds }
        if words.contains("pt") { return .points }
        if name.hasPrefix("press_depth") { return .fraction }
        if ["action_fired", "counterfactual", "variant_given"].contains(name) { return .flag }
        switch sample {
        case .int: return .integer
        case .double: return .number(3)
        default: return .text
        }
    }

    /// The unit a column's numbers are in, for a table's legend.
    func unit(_ name: String) -> String? {
        switch self {
        case .percent: return name.hasPrefix("share") ? "shares in %" : "rates in %"
        case .milliseconds: return "times in ms"
        case .points: return "distances in pt"
        default: return nil
        }
    }
}

/// Short headers for the snake_case names of result columns.
enum ColumnNames {
    /// Word sequences and what replaces them, with the meaning the legend gives.
    static let abbreviations: [(words: [String], short: String, meaning: String)] = [
        (["feedback", "latency"], "fb", "feedback latency"),
        (["feedback"], "fb", "feedback latency"),
        (["action", "latency"], "act", "action latency"),
        (["scroll", "aborts"], "aborts", "scroll-aborts"),
        (["scroll", "abort"], "abort", "scroll-abort"),
        (["sessions"], "n", "sessions"),
        (["duration"], "dur", "duration"),
        (["release", "jump"], "jump", "release jump"),
        (["unseen", "presses"], "unseen", "unseen presses"),
        (["cancel", "reason"], "reason", "cancel reason"),
        (["press", "depth"], "depth", "press depth"),
        (["pressed", "scale"], "scale", "pressed scale"),
        (["action", "fired"], "fired", "action fired"),
        (["false", "actions"], "false act", "false actions"),
        (["animation"], "anim", "animation"),
        // The frustration report (docs/frustration.md).
        (["rage", "episodes"], "rage", "rage episodes"),
        (["retries", "after", "cancel"], "retry·cancel", "retries after a cancel or scroll-abort"),
        (["retries", "after", "unseen"], "retry·unseen", "retries after an unseen press"),
        (["dead", "presses"], "dead", "dead presses"),
    ]

    /// Words after which `action` means the action latency.
    static let statistics: Set<String> = ["mean", "min", "max", "p50", "p75", "p90", "p95", "p99"]

    /// The short header of `name` (nil when it would not be shorter) and the abbreviations used.
    /// `feedback_p50_ms` → "fb p50"; `tap_rate` → "tap%"; `share_over_100ms` → ">100ms";
    /// `sessions` → "n". A unit word (`ms`, `pt`) is dropped: the legend gives the unit.
    static func short(_ name: String, style: ColumnStyle) -> (header: String, abbreviations: [(String, String)])? {
        var words = name.split(separator: "_").map(String.init)
        var used: [(String, String)] = []
        if style == .milliseconds || style == .points, let last = words.last, last == "ms" || last == "pt" {
            words.removeLast()
        } else if style == .points, let i = words.firstIndex(of: "pt") {
            words.remove(at: i)
        }
        if words.count == 3, words[0] == "share", words[1] == "over" {
            words = [">" + words[2]]
            used.append((">\(words[0].dropFirst())", "share later than \(words[0].dropFirst())"))
        }
        if words.count > 1, words[0] == "action", statistics.contains(words[1]) {
            words[0] = "act"
            used.append(("act", "action latency"))
        }
        var out: [String] = []
        var i = 0
        while i < words.count {
            if let a = abbreviations.first(where: { a in
                i + a.words.count <= words.count && Array(words[i..<(i + a.words.count)]) == a.words
                    && !(a.words == ["sessions"] && words.count > 1) }) {
                out.append(a.short)
                if !used.contains(where: { $0.0 == a.short }) { used.append((a.short, a.meaning)) }
                i += a.words.count
            } else {
                out.append(words[i])
                i += 1
            }
        }
        if let i = out.firstIndex(of: "rate"), i > 0 {
            out[i - 1] += "%"
            out.remove(at: i)
        }
        let header = out.joined(separator: " ")
        return header.count < name.count ? (header, used) : nil
    }
}

extension TerminalTable {
    /// The terminal columns of a result table, and how one of its rows becomes their cells.
    /// Each rate `X` with `X_low` and `X_high` among the columns becomes one column "X (95% CI)"
    /// showing "86.4% (85.5–87.2)", compact "86.4%"; the other columns show their cells in their
    /// style (`Render.display`).
    static func shownColumns(_ columns: [Column]) -> (columns: [ShownColumn], cells: ([Cell]) -> [ShownCell]) {
        var shown: [ShownColumn] = []
        var sources: [(value: Int, low: Int?, high: Int?)] = []
        var folded = Set<Int>()
        for (i, c) in columns.enumerated() where !folded.contains(i) {
            let short = ColumnNames.short(c.name, style: c.style)
            let unit = c.style.unit(c.name)
            if c.style == .percent,
               let lo = columns.firstIndex(where: { $0.name == c.name + "_low" }),
               let hi = columns.firstIndex(where: { $0.name == c.name + "_high" }) {
                folded.formUnion([lo, hi])
                let compact = short?.header ?? c.name
                shown.append(ShownColumn(name: c.name, header: c.name + " (95% CI)", shortHeader: compact + " (95% CI)",
                                         compactHeader: compact, compactLeavesOut: "intervals", alignsRight: true,
                                         unit: unit, abbreviations: short?.abbreviations ?? []))
                sources.append((i, lo, hi))
            } else {
                shown.append(ShownColumn(name: c.name, shortHeader: short?.header, alignsRight: Render.isNumeric(c.style),
                                         unit: unit, abbreviations: short?.abbreviations ?? []))
                sources.append((i, nil, nil))
            }
        }
        let styles = columns.map(\.style)
        let cells: ([Cell]) -> [ShownCell] = { row in
            sources.map { s in
                let value = Render.display(row[s.value], styles[s.value])
                guard let lo = s.low, let hi = s.high else { return ShownCell(value) }
                func bound(_ cell: Cell) -> String {
                    if case .double(let d) = cell, d.isFinite { return String(format: "%.1f", d * 100) }
                    return Render.display(cell, .text)
                }
                if row[s.value] == .null { return ShownCell(value) }
                return ShownCell("\(value) (\(bound(row[lo]))–\(bound(row[hi])))", compact: value)
            }
        }
        return (shown, cells)
    }
}
