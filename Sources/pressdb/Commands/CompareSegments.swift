// `pressdb compare A B --segment ATTR`: B against A within each value of a grouping attribute,
// p-values adjusted across every segment and metric, Cochran's Q of the differences.
import PressCore
import PressStats
import PressStore
import PressAnalysis

extension CompareCommand {
    func runSegments() throws -> Int32 {
        let renderer = try segmentsRenderer()
        let text = try renderer.render(format, options: .standardOutput(wide: wide, columns: columns, explain: explain, out: out))
        if format == .csv || format == .json || format == .ndjson {
            for line in renderer.standardErrorLines { printError(line) }
        }
        try emit(text, to: out, protecting: database.path)
        return ExitCode.ok
    }

    /// The segmented comparison these options ask for (also the demo page's).
    func segmentsRenderer() throws -> SegmentsRenderer {
        guard let attribute = segment else { throw CLIError.usage("--segment needs an attribute") }
        for option in [$paired, $from, $displayName] where option.wasGiven {
            throw CLIError.usage("\(option.displayName) does not apply with --segment (observed sessions from the database)")
        }
        if !more.isEmpty { throw CLIError.usage("--segment compares two arms; name A and B only") }
        var configuration = StatsConfiguration()
        configuration.alpha = alpha
        configuration.sequential = sequential
        configuration.sequentialTuning = tuning
        configuration.plannedEffect = mde
        let metrics: [ExperimentMetric]
        do { metrics = try ExperimentMetric.select(self.metrics) } catch {
            throw CLIError.usage("--metric: \(Self.describe(error))")
        }
        let equals = try Equality.dictionary(filter)
        if equals[attribute] != nil {
            throw CLIError.usage("--where \(attribute)=… leaves one segment; drop it or segment by another attribute")
        }
        guard database.exists else { throw database.missing }
        let frustration = signals.parameters
        let found: (values: [(value: String, sessionsA: Int, sessionsB: Int)], withoutValue: Int)
        do {
            let reader = try ObservedComparisonReader(path: database.path, by: by, equals: equals)
            try reader.requireSessions(a, b)
            found = try reader.segments(of: attribute, a, b)
        } catch let e as ComparisonError {
            if case .badFilter = e { throw CLIError.usage("\(e)") }
            throw CLIError.empty("\(e)")
        }
        var notes: [String] = []
        if found.withoutValue > 0 { notes.append("left out: \(counted(found.withoutValue, "session")) without a \(attribute)") }
        var segments: [(value: String, report: ExperimentReport)] = [], segmentNotes: [String: [String]] = [:]
        for s in found.values {
            guard s.sessionsA > 0, s.sessionsB > 0 else {
                notes.append("\(attribute) \(s.value): left out, \(s.sessionsA == 0 ? a : b) has no session there")
                continue
            }
            do {
                let (report, lines) = try Self.observed(a, b, path: database.path, by: by, equals: equals.merging([attribute: s.value]) { $1 },
                                                        split: split?.shares, metrics: metrics, correction: .none,
                                                        configuration: configuration, unit: unit, signals: frustration)
                segments.append((s.value, report))
                segmentNotes[s.value] = lines
            } catch let e as CLIError {
                // An arm without a user to compare by within this segment: said, not fatal.
                guard e.status == ExitCode.empty else { throw e }
                notes.append("\(attribute) \(s.value): left out, \(e.message)")
            }
        }
        let report: SegmentedReport
        do { report = try Experiment.segmented(segments, attribute: attribute, correction: correction) } catch {
            throw CLIError.empty("no \(attribute) has sessions of both \(a) and \(b) to compare")
        }
        return SegmentsRenderer(report: report, notes: notes, segmentNotes: segmentNotes, perceptionThreshold: jnd)
    }
}
