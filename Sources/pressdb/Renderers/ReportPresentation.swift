// How a report's terminal table reads, declared in the report's own SQL file: comment lines
// starting `-- table:` in the file's leading comment block (docs/reports.md, "How the terminal
// table reads"). A report is one file, its presentation included; a user's report declares its
// own the same way, or gets its columns in their SQL order.
//
//     -- table: key grp, variant, sessions, tap_rate, feedback_p50_ms
//     -- table: cut raw 24 bytes, reason 16
//     -- table: footnote feedback_*, share_over_100ms: among the presses that were seen
//     -- table: legend anchors from Kaaresoja et al. 2014
//     -- table: about unseen_presses: presses never seen: no frame moved the button by a pixel
import PressStore
import PressAnalysis

enum ReportPresentation {
    /// The presentation the `-- table:` lines of `sql` declare; `grp` in a column list stands
    /// for the grouping column, shown as `groupName`.
    /// - Throws: `CLIError.failure` naming the report and the line that does not parse.
    static func parse(_ definition: ReportDefinition, groupName: String) throws -> TablePresentation {
        var p = TablePresentation()
        func names(_ text: Substring) -> [String] {
            text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                .map { $0 == "grp" ? groupName : $0 }
        }
        for line in leadingComments(definition.sql) {
            guard line.hasPrefix("table:") else { continue }
            let body = line.dropFirst("table:".count).drop(while: { $0 == " " })
            let word = body.prefix { $0 != " " }
            let rest = body.dropFirst(word.count).drop(while: { $0 == " " })
            switch word {
            case "key":
                p.key = names(rest)
            case "cut":
                for item in rest.split(separator: ",") {
                    let parts = item.split(separator: " ")
                    guard parts.count >= 2, let minimum = Int(parts[1]), minimum > 0,
                          parts.count == 2 || (parts.count == 3 && parts[2] == "bytes") else {
                        throw problem(definition, line, "expected 'cut COLUMN WIDTH [bytes], ...'")
                    }
                    let name = names(parts[0])[0]
                    p.cut[name] = minimum
                    if parts.count == 3 { p.cutShowsBytes.insert(name) }
                }
            case "footnote":
                guard let colon = rest.firstIndex(of: ":") else {
                    throw problem(definition, line, "expected 'footnote COLUMN, ...: TEXT'")
                }
                p.footnotes.append(Footnote(names(rest[..<colon]),
                                            rest[rest.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            case "legend":
                p.legend.append(String(rest))
            case "wrap":
                // `wrap NAME WIDTH`: cut to fit down to WIDTH, its text wrapped rather than cut.
                let parts = rest.split(separator: " ")
                guard parts.count == 2, let minimum = Int(parts[1]), minimum > 0 else {
                    throw problem(definition, line, "expected 'wrap COLUMN WIDTH'")
                }
                let name = names(parts[0])[0]
                p.cut[name] = minimum
                p.wraps.insert(name)
            case "empty":
                p.empty = String(rest)
            case "about":
                guard let colon = rest.firstIndex(of: ":"), let name = names(rest[..<colon]).first else {
                    throw problem(definition, line, "expected 'about COLUMN: TEXT'")
                }
                p.about[name] = rest[rest.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            default:
                throw problem(definition, line, "'\(word)' is not key, cut, wrap, footnote, legend, about or empty")
            }
        }
        return p
    }

    /// The text of the comment lines before the first line of SQL, without `--`.
    static func leadingComments(_ sql: String) -> [Substring] {
        var out: [Substring] = []
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
            let t = line.drop(while: { $0 == " " || $0 == "\t" })
            if t.isEmpty { continue }
            guard t.hasPrefix("--") else { break }
            out.append(t.dropFirst(2).drop(while: { $0 == " " }))
        }
        return out
    }

    static func problem(_ definition: ReportDefinition, _ line: Substring, _ what: String) -> CLIError {
        CLIError.failure("report \(definition.name): cannot read '-- \(line)': \(what) (docs/reports.md)")
    }
}
