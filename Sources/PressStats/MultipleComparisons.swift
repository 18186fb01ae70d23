// Adjusted p-values for several comparisons at once (several metrics, or several configurations
// against one control). Both return the adjusted values in the input order, monotone in the sorted
// order and capped at 1, as R's `p.adjust`. NaN p-values are left out of the count m and stay NaN.

/// Holm's step-down adjustment, controlling the family-wise error rate (Holm, "A simple sequentially
/// rejective multiple test procedure", Scand. J. Statist. 6:65–70, 1979). For the sorted
/// p₍₁₎ ≤ … ≤ p₍ₘ₎:  p̃₍ᵢ₎ = max_{j ≤ i} min(1, (m − j + 1) p₍ⱼ₎).
public enum HolmBonferroni {
    public static func adjust(_ pValues: [Double]) -> [Double] {
        let order = pValues.indices.filter { !pValues[$0].isNaN }.sorted { pValues[$0] < pValues[$1] }
        let m = Double(order.count)
        var adjusted = pValues
        var running = 0.0
        for (j, index) in order.enumerated() {
            running = max(running, min(1, (m - Double(j)) * pValues[index]))
            adjusted[index] = running
        }
        return adjusted
    }
}

/// Benjamini and Hochberg's step-up adjustment, controlling the false discovery rate (Benjamini &
/// Hochberg, J. R. Statist. Soc. B 57:289–300, 1995). For the sorted p₍₁₎ ≤ … ≤ p₍ₘ₎:
///   p̃₍ᵢ₎ = min_{j ≥ i} min(1, m p₍ⱼ₎ / j).
public enum BenjaminiHochberg {
    public static func adjust(_ pValues: [Double]) -> [Double] {
        let order = pValues.indices.filter { !pValues[$0].isNaN }.sorted { pValues[$0] < pValues[$1] }
        let m = Double(order.count)
        var adjusted = pValues
        var running = 1.0
        for (j, index) in order.enumerated().reversed() {
            running = min(running, min(1, m * pValues[index] / Double(j + 1)))
            adjusted[index] = running
        }
        return adjusted
    }
}
