// Trading objectives off: the Pareto frontier of a set of alternatives (configurations) measured
// on several objectives, and a weighted score for ranking them. Pure; `pressdb sweep` gives it
// each point's metrics.

/// The non-dominated alternatives among points measured on several objectives.
///
/// Point a dominates point b when a is no worse than b on every objective and strictly better on
/// at least one (Pareto optimality; e.g. Deb, "Multi-Objective Optimization Using Evolutionary
/// Algorithms", Wiley 2001, Definition 2.5). The frontier is every point no other point
/// dominates. Points with identical values do not dominate each other, so both stay on it. A
/// missing value (nil, NaN) is worse than any value on its objective, and equal to another missing one.
///
///     let f = ParetoFrontier([[10, 0.2], [12, 0.1], [12, 0.3]], directions: [.lowerIsBetter, .lowerIsBetter])
///     f.isOptimal   // [true, true, false]: the third is dominated by the second
public struct ParetoFrontier: Sendable, Hashable {
    /// Per point, whether it is on the frontier.
    public let isOptimal: [Bool]
    /// Per point, the index of one point that dominates it (the first found); nil on the frontier.
    public let dominatedBy: [Int?]

    /// - Parameters:
    ///   - values: `values[i][k]`, point i's value of objective k; every row as long as `directions`.
    ///   - directions: per objective, which way is better.
    /// - Cost: O(n² · k) comparisons for n points and k objectives.
    public init(_ values: [[Double?]], directions: [MetricDirection]) {
        precondition(values.allSatisfy { $0.count == directions.count }, "every point needs a value per objective")
        // Turn every objective into "lower is better", missing values into +∞.
        let costs: [[Double]] = values.map { row in
            zip(row, directions).map { v, d in
                guard let v, !v.isNaN else { return .infinity }
                return d == .lowerIsBetter ? v : -v
            }
        }
        var dominatedBy = [Int?](repeating: nil, count: costs.count)
        for i in costs.indices {
            for j in costs.indices where j != i && Self.dominates(costs[j], costs[i]) {
                dominatedBy[i] = j
                break
            }
        }
        self.dominatedBy = dominatedBy
        self.isOptimal = dominatedBy.map { $0 == nil }
    }

    /// Whether cost vector `a` dominates `b` (lower is better on every coordinate).
    static func dominates(_ a: [Double], _ b: [Double]) -> Bool {
        var strictly = false
        for (x, y) in zip(a, b) {
            if x > y { return false }
            if x < y { strictly = true }
        }
        return strictly
    }
}

/// A weighted score for ranking points measured on several objectives: each objective is rescaled
/// to [0, 1] over the points (0 the best value seen, 1 the worst; min–max normalisation, so that
/// weights compare objectives in different units), and the score is the weighted mean
/// Σ wₖ·zₖ / Σ wₖ. Lower is better. A missing value scores 1 on its objective; an objective on
/// which every point is equal scores 0 for all.
///
///     let s = WeightedObjectiveScore([[10, 0.2], [20, 0.1]], directions: [.lowerIsBetter, .lowerIsBetter], weights: [1, 3])
///     s.scores   // [0.75, 0.25]
public struct WeightedObjectiveScore: Sendable, Hashable {
    /// Per point, the score in [0, 1].
    public let scores: [Double]
    /// Point indices from the best score to the worst (ties in point order).
    public let ranking: [Int]

    /// - Parameters: values and directions as `ParetoFrontier`; `weights` one per objective, ≥ 0,
    ///   not all 0.
    /// - Throws: `StatsError.invalidInput` for a negative or non-finite weight, all weights 0, or
    ///   a weight count that does not match the objectives.
    public init(_ values: [[Double?]], directions: [MetricDirection], weights: [Double]) throws(StatsError) {
        guard weights.count == directions.count else {
            throw .invalidInput("\(weights.count) weights for \(directions.count) objectives")
        }
        guard weights.allSatisfy({ $0 >= 0 && $0.isFinite }) else {
            throw .invalidInput("weights must be finite and not negative: \(weights)")
        }
        let total = weights.reduce(0, +)
        guard total > 0 else { throw .invalidInput("at least one weight must be above 0") }
        var low = [Double](repeating: .infinity, count: weights.count), high = [Double](repeating: -.infinity, count: weights.count)
        for row in values {
            for (k, v) in row.enumerated() {
                guard let v, !v.isNaN else { continue }
                low[k] = min(low[k], v); high[k] = max(high[k], v)
            }
        }
        var scores: [Double] = []
        for row in values {
            var s = 0.0
            for (k, v) in row.enumerated() where weights[k] > 0 {
                let z: Double
                if let v, !v.isNaN {
                    let span = high[k] - low[k]
                    let fromBest = directions[k] == .lowerIsBetter ? v - low[k] : high[k] - v
                    z = span > 0 ? fromBest / span : 0
                } else {
                    z = 1
                }
                s += weights[k] * z
            }
            scores.append(s / total)
        }
        self.scores = scores
        self.ranking = scores.indices.sorted { scores[$0] < scores[$1] || (scores[$0] == scores[$1] && $0 < $1) }
    }
}
