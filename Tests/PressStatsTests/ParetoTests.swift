// The Pareto frontier and the weighted score, on sets worked out by hand.
import Testing
@testable import PressStats

@Suite struct ParetoTests {
    // Three objectives: latency (ms, lower), unseen rate (lower), tap rate (higher). On paper:
    //   A (100, 0.10, 0.80)  dominated by C (equal latency and unseen, more taps)
    //   B (120, 0.05, 0.80)  on the frontier: the lowest unseen rate but G's, and G has no latency
    //   C (100, 0.10, 0.85)  on it
    //   D (150, 0.20, 0.70)  dominated by A (and B, C): worse on all three
    //   E ( 90, 0.30, 0.75)  on it: the lowest latency
    //   F = B               on it: equal points do not dominate each other
    //   G (nil, 0.01, 0.90)  on it: a missing latency is the worst, but nobody matches its unseen rate
    //   H ( 95, nil,  0.90)  on it: a missing unseen rate is the worst, but only E is faster, and E taps less
    @Test func frontierOfAHandMadeSet() {
        let points: [[Double?]] = [[100, 0.10, 0.80], [120, 0.05, 0.80], [100, 0.10, 0.85], [150, 0.20, 0.70],
                                   [90, 0.30, 0.75], [120, 0.05, 0.80], [nil, 0.01, 0.90], [95, nil, 0.90]]
        let f = ParetoFrontier(points, directions: [.lowerIsBetter, .lowerIsBetter, .higherIsBetter])
        #expect(f.isOptimal == [false, true, true, false, true, true, true, true])
        #expect(f.dominatedBy[0] == 2 && f.dominatedBy[3] == 0)
        // One objective: only the best value (and its ties) survives.
        #expect(ParetoFrontier([[3], [1], [2], [1]], directions: [.lowerIsBetter]).isOptimal == [false, true, false, true])
        #expect(ParetoFrontier([[3], [1], [2], [3]], directions: [.higherIsBetter]).isOptimal == [true, false, false, true])
        // NaN counts as missing.
        #expect(ParetoFrontier([[.nan, 1], [5, 1]], directions: [.lowerIsBetter, .lowerIsBetter]).isOptimal == [false, true])
        #expect(ParetoFrontier([], directions: [.lowerIsBetter]).isOptimal.isEmpty)
    }

    // Two objectives, latency 10 / 20 / 15 ms and unseen 0.2 / 0.1 / 0.3: rescaled over the points,
    // latency z = 0, 1, 0.5 and unseen z = 0.5, 0, 1. Weights (1, 3): scores (0 + 1.5)/4 = 0.375,
    // (1 + 0)/4 = 0.25, (0.5 + 3)/4 = 0.875, so the ranking is the second, the first, the third.
    @Test func weightedScore() throws {
        let s = try WeightedObjectiveScore([[10, 0.2], [20, 0.1], [15, 0.3]], directions: [.lowerIsBetter, .lowerIsBetter],
                                           weights: [1, 3])
        #expect(zip(s.scores, [0.375, 0.25, 0.875]).allSatisfy { abs($0 - $1) < 1e-12 } && s.ranking == [1, 0, 2], "\(s.scores)")
        // Higher is better flips the rescaling; a missing value scores 1; a constant objective 0.
        let t = try WeightedObjectiveScore([[0.9, 5], [0.8, 5], [nil, 5]], directions: [.higherIsBetter, .lowerIsBetter],
                                           weights: [1, 1])
        #expect(t.scores == [0, 0.5, 0.5] && t.ranking == [0, 1, 2])
        #expect(throws: StatsError.self) { try WeightedObjectiveScore([[1]], directions: [.lowerIsBetter], weights: [0]) }
        #expect(throws: StatsError.self) { try WeightedObjectiveScore([[1]], directions: [.lowerIsBetter], weights: [-1]) }
        #expect(throws: StatsError.self) { try WeightedObjectiveScore([[1]], directions: [.lowerIsBetter], weights: [1, 1]) }
    }
}
