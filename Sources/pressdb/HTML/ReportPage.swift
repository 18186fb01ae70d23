// `pressdb report --format html`: the summary report as one self-contained page — the scale
// curve of a typical tap per configuration, the feedback-latency distributions, the outcome
// rates with their intervals, and the terminal report's numbers as tables; the frustration
// report's signals the same way (docs/html-report.md).
import Foundation
import PressCharts
import PressCore
import PressStore
import PressSQLite
import PressAnalysis

/// Where a page's numbers come from: printed at its top, so a saved page explains itself.
struct ReportPageContext {
    var reportName: String
    /// The report came from the user's `--reports DIR`.
    var isUserDefined: Bool
    var databasePath: String
    var filter: ReportFilter
    var generatedAt: Date
}

enum ReportPage {
    /// The perception anchors reports quote (press-model §4).
    static let perceptionAnchors = [
        "Visual press feedback is judged good within 30–85 ms and degrades between 100 and 150 ms "
            + "(Kaaresoja et al., “Feedback is… late”, ACM Transactions on Applied Perception, 2014). "
            + "The dashed line in the latency chart marks 100 ms.",
        "A tap’s latency becomes noticeable around 24–33 ms (same source).",
        "About 100 ms is the limit for a response to feel instantaneous (Nielsen, “Usability Engineering”, 1993).",
        "Latencies are whole display frames: one frame is 16.7 ms at 60 Hz (8.3 ms at 120 Hz).",
    ]

    /// What each column of the summary report means (the terminal's names; `grp` is shown under
    /// the `--by` column's name).
    static func summaryColumnMeanings(groupName: String) -> [String: String] {
        // The group's entry is set last: a literal with it would hold "variant" twice under
        // `--by variant`, and a dictionary literal with a repeated key traps.
        var meanings = [
            "variant": "The A/B arm, when grouping by config and the log names a variant other than the configuration.",
            "sessions": "Replayed sessions in the group.",
            "taps": "Sessions ending in touchUpInside (control) or .ended (long press): the button was tapped.",
            "cancels": "Sessions ending outside the control (drag exit), by a system cancel, or by leaving a long press’s safe area outside a scroll view.",
            "scroll_aborts": "Sessions the scroll view took: the pan began before the control got the touch, a cancelling scroll view cancelled it, or a long press left its safe area inside a scroll view.",
            "tap_rate (95% CI)": "Taps / sessions, with the 95 % Wilson score interval in parentheses.",
            "cancel_rate (95% CI)": "Cancels / sessions, with the 95 % Wilson score interval.",
            "scroll_abort_rate (95% CI)": "Scroll-aborts / sessions, with the 95 % Wilson score interval.",
            "false_actions": "Actions that ran although the session was not a tap (configurations whose action runs on any release).",
            "unseen_presses": "Presses the control received whose animation never moved its edge by one device pixel (e.g. press and release starting together at lift).",
            "feedback_p50_ms": "Median feedback latency (ms): touch-down to the first frame where the edge moved one device pixel; over presses with feedback (type 7 percentile).",
            "feedback_p90_ms": "90th percentile of feedback latency (ms), over presses with feedback.",
            "feedback_p99_ms": "99th percentile of feedback latency (ms), over presses with feedback.",
            "share_over_100ms": "Among presses with feedback, the share seen later than 100 ms, where press feedback degrades.",
            "action_p50_ms": "Median action latency (ms): from the lift (or cancel) that triggers the action to the action.",
            "action_p90_ms": "90th percentile of action latency (ms).",
            "release_jump_pt_max": "The largest instantaneous jump of the control’s edge caused by an animation starting, ending or being cut (points).",
        ]
        meanings[groupName] = "The group: sessions with this \(groupName) (--by)."
        return meanings
    }

    /// Groups per transposed table: more become further tables, so a page never scrolls sideways.
    static let groupsPerTable = 4

    // MARK: Pages

    /// The summary report's page: charts, then tables. Falls back to `table(…)` when the
    /// summary's columns are not the built-in ones (a user's own `summary.sql`).
    /// - Throws: `DatabaseError` from the runner's reads; `AnimationParameterError` from a
    ///   stored configuration with invalid animations.
    static func summary(_ result: ReportResult, runner: ReportRunner, context: ReportPageContext) throws -> HTMLPage {
        let needed = ["grp", "variant", "sessions", "taps", "cancels", "scroll_aborts"]
            + ["tap_rate", "cancel_rate", "scroll_abort_rate"].flatMap { [$0, $0 + "_low", $0 + "_high"] }
        guard needed.allSatisfy(result.columns.contains) else { return try table(result, runner: runner, context: context) }

        var page = HTMLPage(title: "pressdb report: \(context.reportName) by \(context.filter.by)")
        try describeSource(&page, runner: runner, context: context)
        try summarySections(&page, result, runner: runner, context: context)
        return page
    }

    /// The summary page's content after its header: typical taps, latency, outcomes, the numbers,
    /// the anchors (also the demo's page).
    static func summarySections(_ page: inout HTMLPage, _ result: ReportResult, runner: ReportRunner,
                                context: ReportPageContext) throws {
        page.heading("Press feedback during a typical tap")
        page.paragraph("Each configuration’s scale on screen, frame by frame (60 Hz), during a stationary tap lasting "
            + "the median tap in the data, on a 44 × 44 pt control, in each container the data has (always including no "
            + "scroll view and a plain scroll view, which holds a touch back for 150 ms). Inside the shaded band (1 ± 1/66 at "
            + "3 px/pt) the edge has moved less than one device pixel: the press does not show yet. A dot marks the first "
            + "frame at which it shows. The charts share one time axis and one scale axis.")
        let taps = try typicalTapFigures(runner: runner)
        page.figureGrid { page in for figure in taps { page.figure(figure.chart, caption: figure.caption) } }

        page.heading("Feedback latency")
        let latencies = try runner.feedbackLatencies()
        let ecdf = ECDFChart(title: "Feedback latency per \(context.filter.by)", series: latencies.map {
            ECDFSeries(name: label(group: $0.group, arm: $0.arm), values: $0.latenciesMs, unobserved: $0.unseenPresses)
        }, size: ChartSize(width: ChartSize.standard.width, height: 440),  // the others' width: their text sizes match
           unobservedName: "unseen")
        page.figure(ecdf, caption: "Share of presses whose feedback showed within the time on the x axis (an ECDF, "
            + "one step per frame). Unseen presses count in the denominator, so a configuration with unseen presses levels "
            + "off below 100 %, and its p50 (circle) and p90 (diamond) are over all presses (“p50 of all”) — they can "
            + "differ from the table’s feedback_p50_ms and feedback_p90_ms, which are over presses with feedback only; “not "
            + "reached” means more than half (or a tenth) of the presses were never seen. Scroll-aborts the control never received are not presses. Dashed line: "
            + "100 ms, beyond which press feedback degrades (Kaaresoja et al. 2014).")

        page.heading("Outcomes")
        page.figure(rateChart(result, by: context.filter.by), caption: "Share of sessions ending as a tap, a cancel or a "
            + "scroll-abort, per \(context.filter.by): bars are the observed rates, whiskers their 95 % Wilson score "
            + "intervals; the numbers beside them give the rate, the interval and the count.")

        page.heading("The numbers")
        page.paragraph("The terminal report’s figures (pressdb report with the same options); rates with their 95 % Wilson "
            + "intervals in parentheses, times in milliseconds, distances in points.")
        let folded = ReportCommand.foldIntervals(ReportCommand.table(result, groupName: context.filter.by))
        for table in transposed(folded, by: context.filter.by) { page.table(table) }
        page.heading("What the columns mean", level: 3)
        let meanings = summaryColumnMeanings(groupName: context.filter.by)
        page.definitionList(folded.columns.compactMap { c in meanings[c.name].map { (c.name, $0) } })

        page.heading("Perception anchors")
        page.list(perceptionAnchors)
    }

    /// The frustration signals, as `reports/frustration.sql` names them: (chart label, count
    /// column, what the legend says).
    static let frustrationSignals = [
        ("rage episode", "rage_episodes", "presses ending a rage episode: several presses in a row on one control, close in time and place"),
        ("retry after cancel", "retries_after_cancel", "cancelled or scroll-aborted presses followed soon by a tap on the same control"),
        ("retry after unseen", "retries_after_unseen", "presses whose feedback never showed, followed soon by another press"),
        ("dead press", "dead_presses", "presses that neither moved nor did anything: no tap, no feedback"),
    ]

    /// The frustration report's page (`pressdb report frustration --format html`): the four
    /// signals per group as rates with their Wilson intervals, then the rows. Falls back to
    /// `table(…)` when the columns are not the built-in report's (a user's own `frustration.sql`).
    /// - Throws: `DatabaseError` from the runner's counts.
    static func frustration(_ result: ReportResult, runner: ReportRunner, context: ReportPageContext) throws -> HTMLPage {
        let needed = ["grp", "variant", "presses"] + frustrationSignals.flatMap { s in
            [s.1, s.1 + "_rate", s.1 + "_rate_low", s.1 + "_rate_high"] }
        guard needed.allSatisfy(result.columns.contains) else { return try table(result, runner: runner, context: context) }
        var page = HTMLPage(title: "pressdb report: frustration by \(context.filter.by)")
        try describeSource(&page, runner: runner, context: context)
        frustrationSections(&page, result, context: context)
        return page
    }

    /// The frustration page's content after its header: the chart, the numbers, the meanings.
    static func frustrationSections(_ page: inout HTMLPage, _ result: ReportResult, context: ReportPageContext) {
        page.heading("Frustration signals")
        page.paragraph("Per press, what a person’s next presses say about the last one — each a share of the presses of the "
            + "group with its 95 % Wilson score interval (the numbers beside each bar: the rate, the interval, the count). "
            + "The definitions, their parameters and their sources are in docs/frustration.md.")
        page.figure(rateChart(result, by: context.filter.by, title: "Frustration signals per \(context.filter.by)",
                              categories: frustrationSignals.map { ($0.0, $0.1, $0.1 + "_rate") }, total: "presses"),
                    caption: "Share of presses with each signal, per \(context.filter.by): bars are the observed rates, "
                        + "whiskers their 95 % Wilson score intervals. The axis ends at the largest upper bound, rounded "
                        + "up, so that small rates stay readable.")
        page.heading("The numbers")
        page.paragraph("The terminal report’s figures (pressdb report frustration with the same options); by-user rates and "
            + "per-user shares are in its CSV and JSON.")
        let folded = ReportCommand.foldIntervals(ReportCommand.table(result, groupName: context.filter.by))
        for table in transposed(folded, by: context.filter.by, caption: "Frustration signals") { page.table(table) }
        page.heading("What the signals mean", level: 3)
        page.definitionList(frustrationSignals.map { ($0.1, $0.2) })
    }

    /// Any report's page: where it comes from and its rows as a table.
    /// - Throws: `DatabaseError` from the runner's counts.
    static func table(_ result: ReportResult, runner: ReportRunner, context: ReportPageContext) throws -> HTMLPage {
        var page = HTMLPage(title: "pressdb report: \(context.reportName)")
        try describeSource(&page, runner: runner, context: context)
        let folded = ReportCommand.foldIntervals(ReportCommand.table(result, groupName: context.filter.by))
        page.table(dataTable(folded, caption: "\(context.reportName): \(folded.rows.count) rows", columns: folded.columns.map(\.name)))
        if result.columns.contains(where: { $0.hasSuffix("_ms") }) {
            page.heading("Perception anchors")
            page.list(perceptionAnchors)
        }
        return page
    }

    /// The list of the pages of `pressdb report --list --format html`.
    static func list(_ definitions: [ReportDefinition], generatedAt: Date) -> HTMLPage {
        var page = HTMLPage(title: "pressdb reports")
        page.paragraph("Generated \(timestamp(generatedAt)).")
        page.table(DataTable(caption: "Available reports", columns: [.text("report"), .text("source"), .text("description")],
                             rows: definitions.map { [$0.name, $0.isUserDefined ? "user" : "built-in", $0.summary] }))
        return page
    }

    // MARK: Parts

    /// Database, report, grouping, filters, input size and generation time.
    static func describeSource(_ page: inout HTMLPage, runner: ReportRunner, context: ReportPageContext) throws {
        let f = context.filter
        var filters = f.equals.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }
        if let s = f.since { filters.append("touch-down at or after \(Render.full(s)) s") }
        if let u = f.until { filters.append("touch-down at or before \(Render.full(u)) s") }
        page.definitionList([
            ("Database", context.databasePath),
            ("Report", "\(context.reportName) (\(context.isUserDefined ? "user-defined" : "built-in"))"),
            ("Grouped by", f.by),
            ("Filters", filters.isEmpty ? "none (every session)" : filters.joined(separator: "; ")),
            ("Replayed as", f.replayedAs.map { "\($0), for every session (pressdb replay --as)" }
                ?? "each session’s own configuration"),
            ("Input", "\(try runner.inputCount()) replayed sessions of \(try runner.sessionCount()) stored"),
            ("Generated", timestamp(context.generatedAt)),
        ])
    }

    /// "2024-05-01 12:34:56 UTC".
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }

    /// A group's name: its value (or "(none)") and the variant when there is one.
    static func label(group: String?, arm: String?) -> String {
        (group ?? "(none)") + (arm.map { " (variant \($0))" } ?? "")
    }

    /// One scale chart per configuration in the input, on a shared time axis.
    static func typicalTapFigures(runner: ReportRunner) throws -> [(chart: ScaleTimelineChart, caption: String)] {
        let configurations = try runner.configurations()
        var taps: [(tap: TypicalTap, usage: ConfigurationUsage, durationSource: String)] = []
        for usage in try runner.configurationUsage() {
            guard let configuration = configurations[usage.config] else { continue }
            let (milliseconds, source): (Double, String) =
                if let d = usage.medianTapDurationMs { (d, "the median tap") }
                else if let d = usage.medianDurationMs { (d, "the median session; no taps") }
                else { (100, "no sessions") }
            let tap = try TypicalTap(configuration: configuration, duration: milliseconds / 1000,
                                     containers: TypicalTap.containers(from: usage.containers.map(\.container)))
            taps.append((tap, usage, source))
        }
        let end = taps.map { TypicalTap.axisEnd($0.tap.settledTime, $0.tap.display) }.max() ?? 0.5
        // One y scale for all, so the ±1 px band is the same height in each and curves compare.
        let charts = taps.map { $0.tap.chart(until: end) }
        let scales = charts.flatMap { $0.series.flatMap(\.scales) }.filter(\.isFinite)
        return zip(taps, charts).map { entry, chart in
            var chart = chart
            chart.yIncludes = [scales.min(), scales.max()].compactMap { $0 }
            let sessions = entry.usage.containers.reduce(0) { $0 + $1.sessions }
            let inData = entry.usage.containers.map { $0.container ?? "none" }
            let caption = "\(entry.tap.configuration.name): a stationary tap of \(TypicalTap.ms(entry.tap.duration)) "
                + "(\(entry.durationSource) of its \(sessions) sessions; containers in the data: \(inData.joined(separator: ", "))). "
                + entry.tap.explanation.joined(separator: " ")
            return (chart, caption)
        }
    }

    /// Rates with their Wilson intervals (`RATE`, `RATE_low`, `RATE_high`), one group per row:
    /// by default the summary's tap, cancel and scroll-abort rates of its sessions. Each
    /// category is (label, count column, rate column); `total` names the denominator column.
    static func rateChart(_ result: ReportResult, by: String, title: String? = nil,
                          categories: [(String, String, String)] = [("tap", "taps", "tap_rate"), ("cancel", "cancels", "cancel_rate"),
                                                                    ("scroll-abort", "scroll_aborts", "scroll_abort_rate")],
                          total: String = "sessions") -> RateIntervalChart {
        func index(_ name: String) -> Int? { result.columns.firstIndex(of: name) }
        let groups = result.rows.map { row -> RateGroup in
            func text(_ name: String) -> String? { index(name).flatMap { if case .text(let s) = row[$0] { s } else { nil } } }
            func number(_ name: String) -> Double? { index(name).flatMap { Self.number(row[$0]) } }
            let sessions = number(total) ?? 0
            let rates = categories.compactMap { label, count, rate -> RateInterval? in
                guard let estimate = number(rate), let low = number(rate + "_low"), let high = number(rate + "_high") else { return nil }
                let detail = number(count).map { "\(Int($0)) of \(Int(sessions))" }
                return RateInterval(label: label, estimate: estimate, lower: low, upper: high, detail: detail)
            }
            return RateGroup(name: Self.label(group: text("grp"), arm: text("variant")), rates: rates)
        }
        return RateIntervalChart(title: title ?? "Outcome rates per \(by)", groups: groups)
    }

    static func number(_ value: SQLValue) -> Double? {
        switch value {
        case .integer(let n): return Double(n)
        case .real(let d): return d
        default: return nil
        }
    }

    /// The summary's rows turned into columns: one row per figure (the terminal's column name as
    /// the row header), one column per group (`groupsPerTable` at most per table), cells formatted
    /// exactly as the terminal shows them. A summary has many figures and few groups, so this
    /// reads without scrolling sideways.
    static func transposed(_ table: ResultTable, by: String, caption: String = "Summary") -> [DataTable] {
        let keyNames = [by, "variant"]
        let keys = keyNames.compactMap { name in table.columns.firstIndex { $0.name == name } }
        let figures = table.columns.indices.filter { !keys.contains($0) }
        func header(_ row: [Cell]) -> String {
            func value(_ name: String) -> String? {
                guard let i = table.columns.firstIndex(where: { $0.name == name }), row[i] != .null else { return nil }
                return Render.display(row[i], .text)
            }
            return label(group: value(by) ?? nil, arm: value("variant"))
        }
        let chunks = stride(from: 0, to: table.rows.count, by: groupsPerTable).map {
            Array(table.rows[$0..<min($0 + groupsPerTable, table.rows.count)])
        }
        return chunks.enumerated().map { index, rows in
            let part = chunks.count > 1 ? " (\(index + 1) of \(chunks.count))" : ""
            return DataTable(
                caption: "\(caption) per \(by)\(part)",
                columns: [.text("figure")] + rows.map { .numeric(header($0)) },
                rows: figures.map { f in
                    [table.columns[f].name] + rows.map { Render.display($0[f], table.columns[f].style) }
                })
        }
    }

    /// `columns` of `table`, formatted exactly as the terminal shows them.
    static func dataTable(_ table: ResultTable, caption: String, columns: [String]) -> DataTable {
        let indices = columns.compactMap { name in table.columns.firstIndex { $0.name == name } }
        return DataTable(
            caption: caption,
            columns: indices.map { table.columns[$0] }.map {
                Render.isNumeric($0.style) ? .numeric($0.name) : .text($0.name)
            },
            rows: table.rows.map { row in indices.map { Render.display(row[$0], table.columns[$0].style) } })
    }
}
