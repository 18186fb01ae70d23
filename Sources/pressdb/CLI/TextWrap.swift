// Where prose breaks into lines on the terminal: help, the notes under tables, the sweep's legend.
// One definition, so every text pressdb wraps breaks the same way.

enum TextWrap {
    /// The words of `text` (split at spaces) in lines of at most `width` columns on screen
    /// (`Terminal.columns`), the first line starting with `lead` and the others with `indent`.
    /// A word too long for a line is broken after a `|`, `,`, `:` or `/` (a list of choices
    /// `a|b|c`, of names `x,y,z`, a selector `f(a:b:)`, a path) where it can, else stands alone
    /// on its line.
    /// An empty `text` gives one line, `lead`.
    static func lines(_ text: some StringProtocol, width: Int, lead: String = "", indent: String = "") -> [String] {
        let indentColumns = Terminal.columns(indent)
        var lines: [String] = []
        var line = lead, used = Terminal.columns(lead), empty = true
        for word in text.split(separator: " ") {
            let room = width - indentColumns
            let parts = columns(word) > room ? pieces(of: word, width: room) : [Substring(word)]
            for (k, part) in parts.enumerated() {
                let w = columns(part)
                if empty {
                    line += part; used += w; empty = false
                } else if k == 0, used + 1 + w <= width {
                    line += " " + part; used += 1 + w
                } else {
                    lines.append(line)
                    line = indent + part; used = indentColumns + w
                }
            }
        }
        if !empty || lines.isEmpty { lines.append(line) }
        return lines
    }

    private static func columns(_ s: some StringProtocol) -> Int { Terminal.columns(String(s)) }

    /// `word` cut after its `|`, `,`, `:` and `/` into pieces of at most `width` columns where it can
    /// be: each cut is at the last break before the width is passed.
    private static func pieces(of word: some StringProtocol, width: Int) -> [Substring] {
        let word = Substring(word)
        var out: [Substring] = []
        var start = word.startIndex, lastBreak: String.Index? = nil
        var i = word.startIndex, used = 0
        while i < word.endIndex {
            used += Terminal.columns(word[i])
            let next = word.index(after: i)
            if used > width, let b = lastBreak, b > start {
                out.append(word[start..<b])
                start = b; lastBreak = nil
                used = columns(word[start..<next])
            }
            if word[i] == "|" || word[i] == "," || word[i] == ":" || word[i] == "/" { lastBreak = next }
            i = next
        }
        out.append(word[start...])
        return out
    }
}
