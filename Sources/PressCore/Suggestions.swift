// "Did you mean …?" for a misspelled option or command: the names closest to what was typed by
// the optimal string alignment distance (Levenshtein's insertions, deletions and substitutions,
// plus the transposition of two adjacent characters as one edit — Damerau 1964's most common
// typing error), so `--fromat` suggests `--format`, not `--from`, and a log field `sesion` `session`.
public enum Suggestions {
    /// The optimal string alignment distance between `a` and `b` (each edit, and each swap of two
    /// adjacent characters, counts 1; no substring is edited twice).
    public static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty || y.isEmpty { return max(x.count, y.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { d[i][0] = i }
        for j in 0...y.count { d[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[x.count][y.count]
    }

    /// The names of `candidates` nearest to `typed`: those at the smallest distance, when it is
    /// at most a third of the typed length (at least 1, at most 3); else those starting with the
    /// typed name's first four characters; else none. In `candidates`' order.
    public static func near(_ typed: String, in candidates: [String]) -> [String] {
        let limit = min(3, max(1, typed.count / 3))
        let scored = candidates.map { ($0, distance(typed, $0)) }
        if let best = scored.map(\.1).min(), best <= limit {
            return scored.filter { $0.1 == best }.map(\.0)
        }
        return candidates.filter { typed.count >= 4 && $0.hasPrefix(String(typed.prefix(4))) }
    }
}
