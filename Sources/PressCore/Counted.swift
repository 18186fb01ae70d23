// A count with its noun, as every message writes it: "1 user", "2 users", "0 sessions".

/// `n` and `singular`, the noun in the plural (`plural`, else `singular` + "s") unless `n` is 1.
public func counted(_ n: Int, _ singular: String, plural: String? = nil) -> String {
    "\(n) " + (n == 1 ? singular : plural ?? singular + "s")
}
