// The comparison per segment of a grouping attribute (device, screen, app_version, …): each
// segment's two-arm report, the p-values of every segment and metric adjusted as one family, and
// a test of whether the effect differs between segments (Cochran's Q).

/// Cochran's test of heterogeneity of k independent estimates dᵢ with standard errors sᵢ
/// (Cochran, "The combination of estimates from different experiments", Biometrics 10:101–129,
/// 1954), with Higgins and Thompson's I² (Statistics in Medicine 21:1539–1558, 2002):
///   wᵢ = 1/sᵢ²,  d̄ = Σwᵢdᵢ/Σwᵢ,  Q = Σwᵢ(dᵢ − d̄)²,  df = k − 1,  p = P(χ²_df > Q),
///   I² = max(0, (Q − df)/Q): the share of the spread beyond what sampling explains.
public struct CochranQTest: Sendable, Hashable {
    /// The inverse-variance weighted mean d̄ (the fixed-effect pooled estimate).
    public let pooled: Double
    /// Its standard error, 1/√Σwᵢ.
    public let pooledStandardError: Double
    public let q: Double
    public let degreesOfFreedom: Int
    public let pValue: Double
    /// I², in [0, 1); 0 when Q is 0.
    public let inconsistency: Double

    /// - Throws: `StatsError.invalidInput` for fewer than two estimates, mismatched lengths, or a
    ///   standard error that is not finite and positive, or an estimate that is not finite.
    public init(estimates: [Double], standardErrors: [Double]) throws(StatsError) {
        guard estimates.count >= 2 else { throw .invalidInput("Cochran's Q needs at least two estimates, got \(estimates.count)") }
        guard estimates.count == standardErrors.count else {
            throw .invalidInput("\(estimates.count) estimates but \(standardErrors.count) standard errors")
        }
        guard estimates.allSatisfy(\.isFinite), standardErrors.allSatisfy({ $0.isFinite && $0 > 0 }) else {
            throw .invalidInput("Cochran's Q needs finite estimates and positive standard errors")
        }
        let w = standardErrors.map { 1 / ($0 * $0) }
        let total = w.reduce(0, +)
        let pooled = zip(w, estimates).reduce(0) { $0 + $1.0 * $1.1 } / total
        let q = zip(w, estimates).reduce(0) { $0 + $1.0 * ($1.1 - pooled) * ($1.1 - pooled) }
        let df = estimates.count - 1
        self.pooled = pooled
        self.pooledStandardError = 1 / total.squareRoot()
        self.q = q
        self.degreesOfFreedom = df
        self.pValue = ChiSquared(degreesOfFreedom: Double(df)).survival(q)
        self.inconsistency = q > 0 ? max(0, (q - Double(df)) / q) : 0
    }
}

/// One comparison of two arms split by the values of a grouping attribute.
public struct SegmentedReport: Sendable, Hashable {
    public struct Segment: Sendable, Hashable {
        /// The attribute's value.
        public var value: String
        /// B against A within the segment; `correction` the family's.
        public var report: ExperimentReport
    }

    /// A metric's heterogeneity across the segments whose row has a p-value and a standard error.
    public struct Heterogeneity: Sendable, Hashable {
        public var metric: ExperimentMetric
        /// The segments the test used.
        public var segments: [String]
        public var test: CochranQTest
    }

    /// The attribute (`screen`, `device`, …).
    public var attribute: String
    public var segments: [Segment]
    public var correction: MultipleComparisonCorrection
    /// How many p-values were adjusted together (segments × metrics with a p-value).
    public var familySize: Int
    /// Per metric with at least two usable segments, in the rows' order.
    public var heterogeneity: [Heterogeneity]
}

extension Experiment {
    /// Joins the two-arm reports of each segment (each made with `correction: .none`): the
    /// p-values of every row of every segment adjusted together by `correction` (Holm 1979 keeps
    /// the chance of any false verdict in any segment at α), each verdict decided again from its
    /// adjusted p-value, and per metric Cochran's Q on the segments' differences B − A with
    /// inverse-variance weights (rows with a p-value and a standard error; df = segments − 1).
    /// Q assumes independent segments: a user seen in two segments (two devices) makes them
    /// slightly dependent.
    /// - Throws: `StatsError.invalidInput` for no segment or a report already adjusted.
    public static func segmented(_ segments: [(value: String, report: ExperimentReport)], attribute: String,
                                 correction: MultipleComparisonCorrection) throws(StatsError) -> SegmentedReport {
        guard !segments.isEmpty else { throw .invalidInput("no segment of \(attribute) has sessions in both arms") }
        guard segments.allSatisfy({ $0.report.correction == .none }) else {
            throw .invalidInput("the segments' reports are adjusted together, not one by one")
        }
        var out = segments.map { SegmentedReport.Segment(value: $0.value, report: $0.report) }
        let raw = out.flatMap { $0.report.rows.map { $0.pValue ?? .nan } }
        let adjusted = correction.adjust(raw)
        var k = 0
        for s in out.indices {
            out[s].report.correction = correction
            out[s].report.warnings.removeAll { if case .suspiciousLift = $0.warning { true } else { false } }
            for i in out[s].report.rows.indices {
                if correction != .none, !adjusted[k].isNaN { out[s].report.rows[i].adjustedPValue = adjusted[k] }
                k += 1
            }
            decideVerdicts(&out[s].report)
            warnSuspiciousLifts(&out[s].report)
        }
        var heterogeneity: [SegmentedReport.Heterogeneity] = []
        for metric in out[0].report.rows.map(\.metric) {
            var values: [String] = [], d: [Double] = [], se: [Double] = []
            for s in out {
                guard let row = s.report.rows.first(where: { $0.metric == metric }), row.pValue != nil,
                      let e = row.standardError, e.isFinite, e > 0, row.difference.isFinite else { continue }
                values.append(s.value); d.append(row.difference); se.append(e)
            }
            if values.count >= 2 {
                heterogeneity.append(.init(metric: metric, segments: values, test: try CochranQTest(estimates: d, standardErrors: se)))
            }
        }
        return SegmentedReport(attribute: attribute, segments: out, correction: correction,
                               familySize: raw.filter { !$0.isNaN }.count, heterogeneity: heterogeneity)
    }
}
