// The rows of a comparison, one builder per mode and unit. Session-level fixed-horizon rows keep
// the classical tests (Newcombe, z/Fisher, Welch, Mann–Whitney; McNemar, paired t, Wilcoxon);
// every other row is a normal-theory estimate with a standard error (the delta method over units,
// or the bootstrap over units for percentiles), read at a fixed horizon or as a confidence sequence.

/// Builds the rows of one comparison and remembers whether a bootstrap ran.
struct RowBuilder {
    let configuration: StatsConfiguration
    let unit: AnalysisUnit
    private(set) var bootstrap: BootstrapRun?
    /// Per rate or mean, the arms' sums with each user's pre-experiment value (CUPED); empty without.
    var covariates: [ExperimentMetric: (control: CovariateRatioSummary, treatment: CovariateRatioSummary)] = [:]

    init(configuration: StatsConfiguration, unit: AnalysisUnit) {
        self.configuration = configuration
        self.unit = unit
    }

    var alpha: Double { configuration.alpha }
    var sequential: Bool { configuration.sequential }

    /// The inference for a row resting on N units.
    func inference(units: Int) -> NormalInference {
        sequential ? .confidenceSequence(alpha: alpha, units: max(1, units), tuning: configuration.sequentialTuning)
                   : .fixedHorizon(alpha: alpha)
    }

    /// "users" or "sessions", for the test labels (which hold no comma or quote, so that a CSV
    /// line splits on commas; the part before ";" names the test).
    var unitWord: String { unit == .user ? "users" : "sessions" }

    /// The label's tail that says how the interval and p-value read.
    func inferenceLabel() -> String {
        sequential ? "; confidence sequence (Waudby-Smith et al. 2023 with N* = \(Experiment.short(configuration.sequentialTuning))) and always-valid p"
                   : ""
    }

    // MARK: Observed, by session

    mutating func observedSessionRows(_ metrics: [ExperimentMetric], _ a: ObservedArm, _ b: ObservedArm) -> [ExperimentRow] {
        if sequential {
            noteBootstrap(metrics)
            return rows(metrics, percentiles: { kind, ms in
                let va = a.latency(kind).values, vb = b.latency(kind).values
                do throws(StatsError) {
                    return percentileRows(ms, control: try Self.sessionUnits(va), treatment: try Self.sessionUnits(vb),
                                          counts: (va.count, vb.count))
                } catch {
                    return ms.map { unavailable($0, error, counts: (va.count, vb.count)) }
                }
            }, other: { metric in
                switch metric.kind {
                case .rate(let e):
                    return ratioRow(metric, RatioSummary(proportion: a.events.proportion(e)),
                                    RatioSummary(proportion: b.events.proportion(e)), units: nil)
                default:
                    let kind = metric.latencyKind!
                    return ratioRow(metric, RatioSummary(values: a.latency(kind).summary),
                                    RatioSummary(values: b.latency(kind).summary), units: nil,
                                    randomized: (a.events.sessions, b.events.sessions))
                }
            })
        }
        return metrics.map { metric in
            var row = classicalObservedRow(metric, a, b)
            switch metric.kind {
            case .rate(let e):
                attachPower(&row, control: RatioSummary(proportion: a.events.proportion(e)),
                            treatment: RatioSummary(proportion: b.events.proportion(e)))
            case .mean(let kind):
                attachPower(&row, control: RatioSummary(values: a.latency(kind).summary),
                            treatment: RatioSummary(values: b.latency(kind).summary),
                            randomized: (a.events.sessions, b.events.sessions))
            case .percentile:
                break
            }
            return row
        }
    }

    /// Every session its own unit with its one value.
    /// - Throws: `StatsError.invalidInput` for a non-finite value.
    static func sessionUnits(_ values: [Double]) throws(StatsError) -> [UnitHistogram] {
        try requireFinite(values, "latencies")
        return values.map { UnitHistogram(validated: [$0], counts: [1]) }
    }

    func classicalObservedRow(_ metric: ExperimentMetric, _ a: ObservedArm, _ b: ObservedArm) -> ExperimentRow {
        let c = configuration
        switch metric.kind {
        case .rate(let event):
            let pa = a.events.proportion(event), pb = b.events.proportion(event)
            do {
                let comparison = try ProportionComparison(control: pa, treatment: pb, configuration: c)
                return sessionRow(ExperimentRow(
                    metric: metric, control: pa.estimate, controlInterval: comparison.difference.control.interval,
                    treatment: pb.estimate, treatmentInterval: comparison.difference.treatment.interval,
                    difference: comparison.difference.difference, differenceInterval: comparison.difference.interval,
                    relativeDifference: relative(pb.estimate, pa.estimate),
                    relativeInterval: comparison.relativeDifference?.interval,
                    pValue: comparison.pValue,
                    test: comparison.test.rawValue + "; Newcombe interval",
                    verdict: .noDetectableDifference, controlCount: pa.trials, treatmentCount: pb.trials))
            } catch {
                return unavailable(metric, error, counts: (pa.trials, pb.trials))
            }
        case .mean(let kind):
            let sa = a.latency(kind).summary, sb = b.latency(kind).summary
            do {
                let m = try MeanComparison(control: sa, treatment: sb, configuration: c)
                return sessionRow(ExperimentRow(
                    metric: metric, control: sa.mean, treatment: sb.mean,
                    difference: m.welch.difference, differenceInterval: m.welch.interval,
                    relativeDifference: relative(sb.mean, sa.mean), relativeInterval: m.relativeDifference?.interval,
                    pValue: m.welch.pValue, test: "Welch's t-test",
                    verdict: .noDetectableDifference, controlCount: sa.count, treatmentCount: sb.count))
            } catch {
                return unavailable(metric, error, counts: (sa.count, sb.count))
            }
        case let .percentile(kind, probability):
            return classicalPercentileRow(metric, probability, a.latency(kind).values, b.latency(kind).values, paired: false)
        }
    }

    /// A session-level p50 or p90 row; `paired` switches the p50 row's test to the signed-rank family.
    ///
    /// p50 is a distribution-shift row: its p-value is the rank test's and its difference the
    /// Hodges–Lehmann shift, whose interval inverts the same rank statistic; the relative
    /// difference is that shift over A's median. p90 has the Bonferroni interval and no test.
    func classicalPercentileRow(_ metric: ExperimentMetric, _ probability: Double, _ va: [Double], _ vb: [Double],
                                paired: Bool) -> ExperimentRow {
        do {
            let p = try PercentileDifference(probability, control: va, treatment: vb, alpha: alpha)
            var row = sessionRow(ExperimentRow(
                metric: metric, control: p.control.estimate, controlInterval: p.control.interval,
                treatment: p.treatment.estimate, treatmentInterval: p.treatment.interval,
                difference: p.difference, differenceInterval: p.interval, relativeDifference: nil,
                pValue: nil, test: "order-statistic intervals (Bonferroni); no test",
                verdict: .noDetectableDifference, controlCount: va.count, treatmentCount: vb.count))
            row.evidence = .intervalOnly
            if probability == 0.5 {
                // The shift estimate with its rank interval, the rank test, and the sign of its
                // statistic's excess over its null mean (> 0: B's values tend to be higher).
                let shift: (estimate: Double, interval: ConfidenceInterval), p: Double, excess: Double, label: String
                if paired {
                    let hl = try HodgesLehmannPairedShift(control: va, treatment: vb, alpha: alpha)
                    let test = try WilcoxonSignedRankTest(control: va, treatment: vb)
                    (shift, p, excess) = ((hl.estimate, hl.interval), test.pValue, test.positiveRankSum - test.meanOfV)
                    label = "Wilcoxon signed-rank (\(test.method.rawValue)) test of a distribution shift; Hodges–Lehmann paired shift"
                } else {
                    let hl = try HodgesLehmannShift(control: va, treatment: vb, alpha: alpha)
                    let test = try MannWhitneyUTest(control: va, treatment: vb)
                    (shift, p, excess) = ((hl.estimate, hl.interval), test.pValue, test.u - test.meanOfU)
                    label = "Mann–Whitney U (\(test.method.rawValue)) test of a distribution shift; Hodges–Lehmann shift"
                }
                row.difference = shift.estimate
                row.differenceInterval = shift.interval
                row.pValue = p
                row.evidence = .distributionShift(shift: excess)
                row.test = label
            }
            // Relative to A's value, so that it agrees with the row's difference.
            row.relativeDifference = p.control.estimate != 0 ? row.difference / abs(p.control.estimate) : nil
            return row
        } catch {
            return unavailable(metric, error, counts: (va.count, vb.count))
        }
    }

    // MARK: Observed, by user

    mutating func observedUserRows(_ metrics: [ExperimentMetric], _ a: UserArm, _ b: UserArm) -> [ExperimentRow] {
        noteBootstrap(metrics)
        /// The users' weights in a row: sessions for a rate, latency values for a latency.
        func weights(_ arm: UserArm, _ metric: ExperimentMetric) -> RatioSummary? {
            if case .rate(let e) = metric.kind { return try? arm.event(e) }
            return metric.latencyKind.map { arm.latency($0).summary }
        }
        return withEffectiveUnits(rows(metrics, percentiles: { kind, ms in
            percentileRows(ms, control: a.latency(kind).histograms, treatment: b.latency(kind).histograms,
                           counts: (Int(a.latency(kind).summary.denominatorSum), Int(b.latency(kind).summary.denominatorSum)))
        }, other: { metric in
            do throws(StatsError) {
                if let c = covariates[metric] {
                    return cupedRow(metric, c.control, c.treatment,
                                    units: metric.isRate ? (a.users, b.users) : nil, randomized: (a.users, b.users))
                }
                switch metric.kind {
                case .rate(let e):
                    return ratioRow(metric, try a.event(e), try b.event(e), units: (a.users, b.users))
                default:
                    let kind = metric.latencyKind!
                    return ratioRow(metric, a.latency(kind).summary, b.latency(kind).summary, units: nil,
                                    randomized: (a.users, b.users))
                }
            } catch {
                return unavailable(metric, error, counts: (a.sessions, b.sessions))
            }
        })) { (weights(a, $0)?.effectiveUnits, weights(b, $0)?.effectiveUnits) }
    }

    /// The rows with Kish's effective number of users of each arm, `effective(metric)`.
    func withEffectiveUnits(_ rows: [ExperimentRow], _ effective: (ExperimentMetric) -> (Double?, Double?)) -> [ExperimentRow] {
        rows.map { row in
            var row = row
            (row.controlEffectiveUnits, row.treatmentEffectiveUnits) = effective(row.metric)
            return row
        }
    }

    /// A rate or mean from two independent arms' ratio summaries. `units` overrides the units shown
    /// (the arm's users for rates); by default the summaries' n. `randomized` are the units that
    /// were randomized, when more than the summaries' (a mean latency: the arm's users or sessions,
    /// not only those with a latency), so that the units needed for `--mde` count them.
    func ratioRow(_ metric: ExperimentMetric, _ a: RatioSummary, _ b: RatioSummary, units: (Int, Int)?,
                  randomized: (Int, Int)? = nil) -> ExperimentRow {
        let counts = (Int(a.denominatorSum.rounded()), Int(b.denominatorSum.rounded()))
        let (na, nb) = randomized ?? (a.units, b.units)
        do {
            let t = try DeltaMethodZTest(control: a, treatment: b, inference: inference(units: a.units + b.units))
            return zTestRow(metric, t, armUnits: (a.units, b.units), shownUnits: units ?? (a.units, b.units), counts: counts,
                            label: "delta-method z-test over \(unitWord)", table: nil,
                            unitVariance: Double(na) * a.varianceOfEstimate + Double(nb) * b.varianceOfEstimate,
                            design: .independentArms)
        } catch {
            return unavailable(metric, error, counts: counts)
        }
    }

    /// A rate or mean adjusted by CUPED (`CUPEDRatioTest`): A and B and their intervals stay the
    /// unadjusted ones; the difference, its interval, p, the relative difference and the MDE are
    /// the adjusted ones; `varianceReduction` says how much narrower.
    func cupedRow(_ metric: ExperimentMetric, _ a: CovariateRatioSummary, _ b: CovariateRatioSummary, units: (Int, Int)?,
                  randomized: (Int, Int)) -> ExperimentRow {
        let counts = (Int(a.metric.denominatorSum.rounded()), Int(b.metric.denominatorSum.rounded()))
        do {
            let c = try CUPEDRatioTest(control: a, treatment: b, inference: inference(units: a.metric.units + b.metric.units))
            let unitVariance = Double(randomized.0) * c.adjustedControlVariance + Double(randomized.1) * c.adjustedTreatmentVariance
            var row = zTestRow(metric, c.test, armUnits: (a.metric.units, b.metric.units),
                               shownUnits: units ?? (a.metric.units, b.metric.units), counts: counts,
                               label: "delta-method z-test over \(unitWord) with CUPED (Deng et al. 2013)", table: nil,
                               unitVariance: unitVariance, design: .independentArms)
            let u = c.unadjusted
            row.control = u.control
            row.controlInterval = armInterval(metric, u.control, u.controlStandardError, a.metric.units)
            row.treatment = u.treatment
            row.treatmentInterval = armInterval(metric, u.treatment, u.treatmentStandardError, b.metric.units)
            // The relative MDE and units needed are read against A's unadjusted value.
            attachPower(&row, standardError: c.test.standardError, unitVariance: unitVariance, design: .independentArms,
                        units: c.test.units)
            row.varianceReduction = c.varianceReduction.isNaN ? nil : c.varianceReduction
            return row
        } catch {
            return unavailable(metric, error, counts: counts)
        }
    }

    /// The row of a delta-method z-test; `armUnits` are the units behind each arm's own interval.
    func zTestRow(_ metric: ExperimentMetric, _ t: DeltaMethodZTest, armUnits: (Int, Int), shownUnits: (Int, Int),
                  counts: (Int, Int), label: String, table: PairedCounts?, unitVariance: Double,
                  design: PowerAnalysis.Design) -> ExperimentRow {
        var row = ExperimentRow(
            metric: metric, control: t.control, controlInterval: armInterval(metric, t.control, t.controlStandardError, armUnits.0),
            treatment: t.treatment, treatmentInterval: armInterval(metric, t.treatment, t.treatmentStandardError, armUnits.1),
            difference: t.difference, differenceInterval: metric.isRate ? Self.withinRateDifferences(t.interval) : t.interval,
            relativeDifference: t.relativeDifference?.estimate ?? relative(t.treatment, t.control),
            relativeInterval: t.relativeDifference?.interval, pValue: t.pValue,
            test: label + "; log-scale relative interval" + inferenceLabel(),
            verdict: .noDetectableDifference, controlCount: counts.0, treatmentCount: counts.1, pairedCounts: table)
        row.unit = unit
        (row.controlUnits, row.treatmentUnits) = shownUnits
        row.sequential = sequential
        row.standardError = t.standardError
        attachPower(&row, standardError: t.standardError, unitVariance: unitVariance, design: design, units: t.units)
        return row
    }

    // MARK: Paired, by session

    mutating func pairedSessionRows(_ metrics: [ExperimentMetric], _ arms: PairedArms) -> [ExperimentRow] {
        let empty = PairedCounts(both: 0, controlOnly: 0, treatmentOnly: 0, neither: 0)
        if sequential {
            noteBootstrap(metrics)
            return rows(metrics, percentiles: { kind, ms in
                let l = arms.latency(kind)
                do throws(StatsError) {
                    guard l.control.count == l.treatment.count else {
                        throw StatsError.invalidInput("paired samples differ in length: \(l.control.count) and \(l.treatment.count)")
                    }
                    let units = zip(try Self.sessionUnits(l.control), try Self.sessionUnits(l.treatment))
                        .map { PairedUnitHistogram(control: $0, treatment: $1) }
                    return pairedPercentileRows(ms, units, counts: l.control.count)
                } catch {
                    return ms.map { unavailable($0, error, counts: (l.control.count, l.treatment.count)) }
                }
            }, other: { metric in
                switch metric.kind {
                case .rate(let e):
                    let t = arms.events[e] ?? empty
                    return pairedRatioRow(metric, PairedRatioSummary(table: t), table: t, label: "paired z-test over sessions")
                default:
                    let l = arms.latency(metric.latencyKind!)
                    do throws(StatsError) {
                        return pairedRatioRow(metric, try PairedRatioSummary(control: l.control, treatment: l.treatment),
                                              table: nil, label: "paired z-test over sessions")
                    } catch {
                        return unavailable(metric, error, counts: (l.control.count, l.treatment.count))
                    }
                }
            })
        }
        return metrics.map { metric in
            switch metric.kind {
            case .rate(let event):
                let t = arms.events[event] ?? empty
                var row = classicalPairedRateRow(metric, t)
                attachPairedPower(&row, PairedRatioSummary(table: t))
                return row
            case .mean(let kind):
                let l = arms.latency(kind)
                var row = classicalPairedMeanRow(metric, l)
                if let s = try? PairedRatioSummary(control: l.control, treatment: l.treatment) { attachPairedPower(&row, s) }
                return row
            case let .percentile(kind, probability):
                let l = arms.latency(kind)
                return classicalPercentileRow(metric, probability, l.control, l.treatment, paired: true)
            }
        }
    }

    func classicalPairedRateRow(_ metric: ExperimentMetric, _ t: PairedCounts) -> ExperimentRow {
        do {
            let d = try PairedProportionDifference(t, alpha: alpha)
            let test = try McNemarTest(a: t.both, b: t.controlOnly, c: t.treatmentOnly, d: t.neither)
            let relative = try d.relativeDifference(alpha: alpha)
            let na = t.both + t.controlOnly, nb = t.both + t.treatmentOnly
            return sessionRow(ExperimentRow(
                metric: metric, control: d.control,
                controlInterval: try WilsonInterval(Proportion(successes: na, trials: t.pairs), alpha: alpha).interval,
                treatment: d.treatment,
                treatmentInterval: try WilsonInterval(Proportion(successes: nb, trials: t.pairs), alpha: alpha).interval,
                difference: d.difference, differenceInterval: d.interval,
                relativeDifference: self.relative(d.treatment, d.control), relativeInterval: relative?.interval,
                pValue: test.pValue, test: "McNemar (\(test.method.rawValue)); Wald interval for paired proportions",
                verdict: .noDetectableDifference, controlCount: t.pairs, treatmentCount: t.pairs, pairedCounts: t))
        } catch {
            return unavailable(metric, error, counts: (t.pairs, t.pairs))
        }
    }

    func classicalPairedMeanRow(_ metric: ExperimentMetric, _ l: PairedLatencies) -> ExperimentRow {
        do {
            let t = try PairedTTest(control: l.control, treatment: l.treatment, alpha: alpha)
            return sessionRow(ExperimentRow(
                metric: metric, control: t.controlMean, treatment: t.treatmentMean,
                difference: t.meanDifference, differenceInterval: t.interval,
                relativeDifference: relative(t.treatmentMean, t.controlMean), relativeInterval: t.relativeDifference?.interval,
                pValue: t.pValue, test: "paired t-test",
                verdict: .noDetectableDifference, controlCount: l.control.count, treatmentCount: l.treatment.count))
        } catch {
            return unavailable(metric, error, counts: (l.control.count, l.treatment.count))
        }
    }

    // MARK: Paired, by user

    mutating func pairedUserRows(_ metrics: [ExperimentMetric], _ arms: PairedUserArms) -> [ExperimentRow] {
        noteBootstrap(metrics)
        /// Kish's effective number of users of the pairs behind a row (the same users in both arms).
        func effective(_ metric: ExperimentMetric) -> Double? {
            let s: PairedRatioSummary?
            if case .rate(let e) = metric.kind { s = arms.events[e] } else { s = metric.latencyKind.map { arms.latency($0).summary } }
            guard let s, s.denominatorSumOfSquares > 0 else { return nil }
            return s.denominatorSum * s.denominatorSum / s.denominatorSumOfSquares
        }
        return withEffectiveUnits(rows(metrics, percentiles: { kind, ms in
            let l = arms.latency(kind)
            return pairedPercentileRows(ms, l.histograms, counts: Int(l.summary.denominatorSum.rounded()))
        }, other: { metric in
            switch metric.kind {
            case .rate(let e):
                guard let s = arms.events[e] else {
                    return unavailable(metric, .invalidInput("no per-user sums for \(e.rawValue)"), counts: (arms.pairs, arms.pairs))
                }
                return pairedRatioRow(metric, s, table: arms.tables[e],
                                      label: "cluster-adjusted McNemar over users (Obuchowski 1998 in Wald form)")
            default:
                return pairedRatioRow(metric, arms.latency(metric.latencyKind!).summary, table: nil,
                                      label: "paired delta-method z-test over users")
            }
        })) { (effective($0), effective($0)) }
    }

    /// A rate or mean of the same units under both configurations.
    func pairedRatioRow(_ metric: ExperimentMetric, _ s: PairedRatioSummary, table: PairedCounts?, label: String) -> ExperimentRow {
        let n = Int(s.denominatorSum.rounded())
        do {
            let t = try DeltaMethodZTest(paired: s, inference: inference(units: s.units))
            return zTestRow(metric, t, armUnits: (s.units, s.units), shownUnits: (s.units, s.units), counts: (n, n),
                            label: label, table: table, unitVariance: Double(s.units) * t.standardError * t.standardError,
                            design: .paired)
        } catch {
            return unavailable(metric, error, counts: (n, n))
        }
    }

    // MARK: Percentiles by the bootstrap

    /// The rows of one latency's percentiles from the bootstrap over independent arms' units.
    func percentileRows(_ metrics: [ExperimentMetric], control: [UnitHistogram], treatment: [UnitHistogram],
                                 counts: (Int, Int)) -> [ExperimentRow] {
        let probabilities = metrics.map { $0.probability! }
        let unitsAll = control.filter { $0.total > 0 }.count + treatment.filter { $0.total > 0 }.count
        do {
            let b = try ClusterBootstrapQuantiles(probabilities, control: control, treatment: treatment,
                                                  inference: inference(units: unitsAll),
                                                  replicates: configuration.bootstrapReplicates, seed: configuration.bootstrapSeed)
            return zip(metrics, b.quantiles).map { metric, q in
                bootstrapRow(metric, q, b, design: .independentArms)
            }
        } catch {
            return metrics.map { unavailable($0, error, counts: counts) }
        }
    }

    /// The rows of one latency's percentiles from the paired bootstrap over units.
    func pairedPercentileRows(_ metrics: [ExperimentMetric], _ units: [PairedUnitHistogram], counts: Int) -> [ExperimentRow] {
        let probabilities = metrics.map { $0.probability! }
        let n = units.filter { $0.control.total > 0 && $0.treatment.total > 0 }.count
        do {
            let b = try ClusterBootstrapQuantiles(probabilities, paired: units, inference: inference(units: n),
                                                  replicates: configuration.bootstrapReplicates, seed: configuration.bootstrapSeed)
            return zip(metrics, b.quantiles).map { metric, q in bootstrapRow(metric, q, b, design: .paired) }
        } catch {
            return metrics.map { unavailable($0, error, counts: (counts, counts)) }
        }
    }

    func bootstrapRow(_ metric: ExperimentMetric, _ q: ClusterBootstrapQuantiles.Quantile, _ b: ClusterBootstrapQuantiles,
                      design: PowerAnalysis.Design) -> ExperimentRow {
        let how = sequential ? "bootstrap standard error" : "percentile interval"
        var row = ExperimentRow(
            metric: metric, control: q.control, controlInterval: q.controlInterval,
            treatment: q.treatment, treatmentInterval: q.treatmentInterval,
            difference: q.difference, differenceInterval: q.differenceInterval,
            relativeDifference: q.relativeDifference, relativeInterval: q.relativeInterval, pValue: q.pValue,
            test: "bootstrap over \(unitWord): \(b.replicates) resamples with seed \(b.seed); \(how)" + inferenceLabel(),
            verdict: .noDetectableDifference, controlCount: b.controlCount, treatmentCount: b.treatmentCount)
        row.unit = unit
        (row.controlUnits, row.treatmentUnits) = (b.controlUnits, b.treatmentUnits)
        row.sequential = sequential
        row.standardError = q.standardError
        // No MDE: (c + z)·SE assumes a normal estimate, and a percentile of frame-quantised
        // latencies moves in whole frames, so its bootstrap SE is often 0 or rounding noise and the
        // MDE and units needed would be 0 ms and 1 (docs/compare.md, "Power").
        return row
    }

    // MARK: Shared pieces

    /// Records that percentile rows come from the bootstrap (by user, or sequential).
    mutating func noteBootstrap(_ metrics: [ExperimentMetric]) {
        if metrics.contains(where: { $0.probability != nil }) {
            bootstrap = BootstrapRun(replicates: configuration.bootstrapReplicates, seed: configuration.bootstrapSeed)
        }
    }

    /// Builds the rows in the order asked, running one bootstrap per latency for its percentiles.
    func rows(_ metrics: [ExperimentMetric],
                       percentiles: (LatencyKind, [ExperimentMetric]) -> [ExperimentRow],
                       other: (ExperimentMetric) -> ExperimentRow) -> [ExperimentRow] {
        var built: [ExperimentMetric: ExperimentRow] = [:]
        for kind in [LatencyKind.feedback, .action, .feedbackPhoton] {
            let ms = metrics.filter { $0.latencyKind == kind && $0.probability != nil }
            if ms.isEmpty { continue }
            for row in percentiles(kind, ms) { built[row.metric] = row }
        }
        return metrics.map { built[$0] ?? other($0) }
    }

    /// Marks a classical session-level row with its unit and units (the counts themselves).
    func sessionRow(_ row: ExperimentRow) -> ExperimentRow {
        var row = row
        row.unit = .session
        (row.controlUnits, row.treatmentUnits) = (row.controlCount, row.treatmentCount)
        return row
    }

    /// An arm's own interval R̂ ± half-width (the same inference as the row, with N the arm's
    /// units), within [0, 1] for a rate.
    func armInterval(_ metric: ExperimentMetric, _ value: Double, _ se: Double, _ units: Int) -> ConfidenceInterval {
        let h = inference(units: units).halfWidth(standardError: se)
        var i = ConfidenceInterval(lower: value - h, upper: value + h, level: 1 - alpha)
        if metric.isRate { i.lower = max(0, i.lower); i.upper = min(1, i.upper) }
        return i
    }

    /// (B − A)/|A| without an interval; nil when A = 0.
    func relative(_ b: Double, _ a: Double) -> Double? { a != 0 && a.isFinite ? (b - a) / abs(a) : nil }

    /// A difference of two rates lies in [−1, 1]: an interval (a confidence sequence's, with few
    /// units, is wide) clipped to it. Clipping never changes whether it excludes 0.
    static func withinRateDifferences(_ i: ConfidenceInterval) -> ConfidenceInterval {
        var i = i
        i.lower = min(1, max(-1, i.lower)); i.upper = max(-1, min(1, i.upper))
        return i
    }

    /// Adds the MDE and the units needed, from the z-test of the same data with sessions as units
    /// (`randomized`: the sessions randomized, when more than the summaries' n).
    func attachPower(_ row: inout ExperimentRow, control a: RatioSummary, treatment b: RatioSummary,
                     randomized: (Int, Int)? = nil) {
        guard let t = try? DeltaMethodZTest(control: a, treatment: b, inference: inference(units: a.units + b.units)) else { return }
        let (na, nb) = randomized ?? (a.units, b.units)
        row.standardError = t.standardError
        attachPower(&row, standardError: t.standardError,
                    unitVariance: Double(na) * a.varianceOfEstimate + Double(nb) * b.varianceOfEstimate,
                    design: .independentArms, units: a.units + b.units)
    }

    func attachPairedPower(_ row: inout ExperimentRow, _ s: PairedRatioSummary) {
        guard let t = try? DeltaMethodZTest(paired: s, inference: inference(units: s.units)) else { return }
        row.standardError = t.standardError
        attachPower(&row, standardError: t.standardError, unitVariance: Double(s.units) * t.standardError * t.standardError,
                    design: .paired, units: s.units)
    }

    func attachPower(_ row: inout ExperimentRow, standardError: Double, unitVariance: Double,
                     design: PowerAnalysis.Design, units: Int) {
        // A metric with no variation in either arm (no false actions at all) has SE 0: an MDE of
        // 0 would claim any effect is detectable, so it gets none.
        guard standardError > 0 else { return }
        guard let p = try? PowerAnalysis(standardError: standardError, unitVariance: unitVariance, design: design,
                                         inference: inference(units: units), power: configuration.power) else { return }
        row.minimumDetectableEffect = p.minimumDetectableEffect
        row.relativeMinimumDetectableEffect = p.relativeMinimumDetectableEffect(control: row.control)
        if let effect = configuration.plannedEffect { row.unitsNeededPerArm = p.unitsPerArm(for: effect, control: row.control) }
    }

    /// A row for a metric that could not be computed; the verdict is "too few data".
    func unavailable(_ metric: ExperimentMetric, _ error: StatsError, counts: (Int, Int)) -> ExperimentRow {
        let reason: String
        switch error {
        case let .tooFewObservations(needed, got): reason = "needs at least \(needed) values per arm, has \(got)"
        case let .invalidInput(message): reason = message
        }
        var row = ExperimentRow(metric: metric, control: .nan, treatment: .nan, difference: .nan,
                                test: "not computed: \(reason)", verdict: .tooFewData,
                                controlCount: counts.0, treatmentCount: counts.1)
        row.unit = unit
        row.sequential = sequential
        return row
    }
}

extension ExperimentMetric {
    /// The latency a mean or percentile row is about; nil for rates.
    var latencyKind: LatencyKind? {
        switch kind {
        case .rate: nil
        case .mean(let k), .percentile(let k, _): k
        }
    }

    /// The percentile level of a percentile row; nil otherwise.
    var probability: Double? { if case let .percentile(_, p) = kind { p } else { nil } }
}
