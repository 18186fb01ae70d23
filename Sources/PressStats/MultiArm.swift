// More than two arms: every treatment against the first arm (the control), the p-values of every
// arm and metric adjusted as one family, and the sample ratio check over all arms at once.

/// A comparison of k ≥ 3 arms: one two-arm report per treatment against the control, whose
/// p-values were adjusted together (the family is every row with a p-value of every treatment:
/// (k − 1) × metrics tests), and Pearson's χ² of all k arms' units against the intended split
/// (k − 1 degrees of freedom).
public struct MultiArmReport: Sendable, Hashable {
    public var controlName: String
    /// Each treatment against the control, in the order given; `sampleRatio` nil in each (the
    /// check is over all arms, below) and `correction` the family's.
    public var comparisons: [ExperimentReport]
    public var correction: MultipleComparisonCorrection
    /// Units per arm (users, or sessions), the control first: what the sample ratio test counts.
    public var armUnits: [Int]
    /// The χ² test of `armUnits` against `expectedSplit`.
    public var sampleRatio: SampleRatioMismatchTest?
    /// The intended split, fractions summing to 1, the control first.
    public var expectedSplit: [Double]
    /// Warnings about all arms at once (a sample ratio mismatch); each comparison keeps its own.
    public var warnings: [ExperimentWarning]
    /// How many p-values were adjusted together.
    public var familySize: Int

    /// The arms' names, the control first.
    public var armNames: [String] { [controlName] + comparisons.map(\.treatmentName) }
}

extension Experiment {
    /// Compares every treatment with the control by user (`observed(control:treatment:…)` for
    /// each), then adjusts their p-values as one family and checks the split over all arms.
    /// - Parameter expectedSplit: k shares, the control first; nil for equal.
    public static func observed(
        control: UserArm, treatments: [UserArm],
        metrics: [ExperimentMetric] = ExperimentMetric.all,
        expectedSplit: [Double]? = nil,
        correction: MultipleComparisonCorrection = .holm,
        configuration: StatsConfiguration = StatsConfiguration()
    ) throws(StatsError) -> MultiArmReport {
        try checkSplit(expectedSplit, arms: treatments.count + 1)
        var pairs: [ExperimentReport] = []
        for (i, t) in treatments.enumerated() {
            pairs.append(try observed(control: control, treatment: t, metrics: metrics, expectedSplit: pairSplit(expectedSplit, i),
                                      correction: .none, configuration: configuration))
        }
        return try manyArms(pairs, expectedSplit: expectedSplit, correction: correction)
    }

    /// The same by session (`--unit session`).
    public static func observed(
        control: ObservedArm, treatments: [ObservedArm],
        metrics: [ExperimentMetric] = ExperimentMetric.all,
        expectedSplit: [Double]? = nil,
        correction: MultipleComparisonCorrection = .holm,
        configuration: StatsConfiguration = StatsConfiguration()
    ) throws(StatsError) -> MultiArmReport {
        try checkSplit(expectedSplit, arms: treatments.count + 1)
        var pairs: [ExperimentReport] = []
        for (i, t) in treatments.enumerated() {
            pairs.append(try observed(control: control, treatment: t, metrics: metrics, expectedSplit: pairSplit(expectedSplit, i),
                                      correction: .none, configuration: configuration))
        }
        return try manyArms(pairs, expectedSplit: expectedSplit, correction: correction)
    }

    static func checkSplit(_ split: [Double]?, arms: Int) throws(StatsError) {
        guard arms >= 3 else { throw .invalidInput("a comparison of more than two arms needs at least two treatments") }
        if let split, split.count != arms { throw .invalidInput("\(arms) arms but \(split.count) shares in the split") }
    }

    /// The control's and treatment `i`'s shares, for the two-arm report (whose own check is dropped).
    static func pairSplit(_ split: [Double]?, _ i: Int) -> [Double]? {
        split.map { [$0[0], $0[i + 1]] }
    }

    /// Joins two-arm reports of one control (each made with `correction: .none`) into one
    /// comparison of all arms: the p-values of every row of every report adjusted together by
    /// `correction` (Holm 1979: the family-wise error rate over all arms and metrics stays at α;
    /// Dunnett's test would be sharper for many-to-one comparisons of means, but needs the
    /// common variance these ratio metrics do not share), each verdict decided again from its
    /// adjusted p-value, and Pearson's χ² of all arms' units against `expectedSplit` with k − 1
    /// degrees of freedom (Fabijan et al., KDD 2019) in place of each pair's.
    /// - Throws: `StatsError.invalidInput` for fewer than two reports, reports of different
    ///   controls, modes or units, or reports already adjusted.
    public static func manyArms(_ reports: [ExperimentReport], expectedSplit: [Double]?,
                                correction: MultipleComparisonCorrection) throws(StatsError) -> MultiArmReport {
        guard let first = reports.first, reports.count >= 2 else {
            throw .invalidInput("a comparison of more than two arms needs at least two treatments")
        }
        guard reports.allSatisfy({ $0.controlName == first.controlName && $0.mode == .observed && $0.unit == first.unit }) else {
            throw .invalidInput("every treatment must be compared with the same control, observed, by the same unit")
        }
        guard reports.allSatisfy({ $0.correction == .none }) else {
            throw .invalidInput("the reports of a comparison of many arms are adjusted together, not one by one")
        }
        let units = [first.controlUnits] + reports.map(\.treatmentUnits)
        try checkSplit(expectedSplit, arms: units.count)
        let c = first.configuration
        var srm: SampleRatioMismatchTest? = nil
        if units.reduce(0, +) > 0 {
            srm = try SampleRatioMismatchTest(counts: units, expectedFractions: expectedSplit, threshold: c.sampleRatioMismatchThreshold)
        }
        let split = normalised(expectedSplit ?? Array(repeating: 1, count: units.count))

        // One family: the rows with a p-value, in report order.
        var comparisons = reports
        let raw = comparisons.flatMap { $0.rows.map { $0.pValue ?? .nan } }
        let adjusted = correction.adjust(raw)
        var k = 0
        for r in comparisons.indices {
            comparisons[r].correction = correction
            comparisons[r].sampleRatio = nil
            comparisons[r].warnings.removeAll {
                switch $0.warning {
                case .sampleRatioMismatch, .suspiciousLift: true
                default: false
                }
            }
            for i in comparisons[r].rows.indices {
                if correction != .none, !adjusted[k].isNaN { comparisons[r].rows[i].adjustedPValue = adjusted[k] }
                k += 1
            }
            decideVerdicts(&comparisons[r])
            warnSuspiciousLifts(&comparisons[r])
        }

        var warnings: [ExperimentWarning] = []
        if let srm, srm.isMismatch {
            let unitWord = first.unit == .user ? "users" : "sessions"
            let counts = zip([first.controlName] + reports.map(\.treatmentName), units).map { "\($0) \($1)" }.joined(separator: ", ")
            let percent = split.map { String(Int(($0 * 100).rounded())) }.joined(separator: "/")
            warnings.append(ExperimentWarning(
                warning: .sampleRatioMismatch(chiSquared: srm.chiSquared, pValue: srm.pValue), metric: nil,
                message: "sample ratio mismatch: \(unitWord) per arm \(counts), against an intended \(percent) split "
                    + "(χ² = \(short(srm.chiSquared)) with \(srm.degreesOfFreedom) degrees of freedom, p = \(short(srm.pValue)) "
                    + "< \(short(c.sampleRatioMismatchThreshold))); the arms were not assigned as intended, so no result below can be trusted"))
        }
        return MultiArmReport(controlName: first.controlName, comparisons: comparisons, correction: correction, armUnits: units,
                              sampleRatio: srm, expectedSplit: split, warnings: warnings,
                              familySize: raw.filter { !$0.isNaN }.count)
    }
}
