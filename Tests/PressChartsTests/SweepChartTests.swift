// The sweep's charts: heatmap colour steps and cell geometry, the frontier scatter's marks.
import Testing
@testable import PressCharts

@Suite struct SweepChartTests {
    // Values 10…40 ms, lower better, in 7 steps of (40 − 10)/7: 10 → 6 (best), 40 → 0 (worst),
    // 25 → ⌊(40 − 25)/30 · 7⌋ = 3, 20 → ⌊20/30 · 7⌋ = 4; a missing value has no step; higher is
    // better mirrors it; one value everywhere is the middle step.
    @Test func heatmapLevels() {
        let lower = HeatmapPanel(title: "t", values: [[10, 40], [25, nil], [20, 40]], labels: [], lowerIsBetter: true)
        #expect(lower.levels == [[6, 0], [3, nil], [4, 0]])
        let higher = HeatmapPanel(title: "t", values: [[10, 40], [25, nil], [20, 40]], labels: [], lowerIsBetter: false)
        #expect(higher.levels == [[0, 6], [3, nil], [2, 6]])
        #expect(HeatmapPanel(title: "t", values: [[5, 5]], labels: [], lowerIsBetter: true).levels == [[3, 3]])
    }

    // Two panels side by side over a 3 × 2 grid: each cell 22 px high, cells abutting, the
    // second panel to the right of the first; outlined cells drawn once per panel (and once in
    // the key); values shown when they fit.
    @Test func heatmapGeometry() {
        let values: [[Double?]] = [[1, 2], [3, 4], [5, 6]]
        let labels = values.map { $0.map { "\($0!)" } }
        let panels = [HeatmapPanel(title: "a", values: values, labels: labels, lowerIsBetter: true),
                      HeatmapPanel(title: "b", values: values, labels: labels, lowerIsBetter: false)]
        let chart = HeatmapChart(title: "h", rowLabels: ["0.3", "0.4", "0.5"], columnLabels: ["0.9", "0.95"], rowTitle: "ratio",
                                 columnTitle: "scale", panels: panels, outlined: [[true, false], [false, false], [false, true]])
        let layout = chart.layout()
        #expect(layout.panels.count == 2 && layout.showsValues)
        let a = layout.panels[0], b = layout.panels[1]
        #expect(a.cells.count == 3 && a.cells[0].count == 2)
        #expect(a.cells[1][0].top == a.cells[0][0].top + 22 && a.cells[0][1].left == a.cells[0][0].left + a.cells[0][0].width)
        #expect(b.plot.left > a.plot.right && b.plot.top == a.plot.top)
        let svg = chart.svgContent()
        #expect(svg.components(separatedBy: "class=\"pc-heat-frontier\"").count - 1 == 2 * 2 + 1)
        #expect(svg.contains(">6.0</text>") && chart.textAlternative.contains("Outlined, on the frontier: (0.3, 0.9), (0.5, 0.95)."))
    }

    @Test func scatterMarks() {
        let chart = FrontierScatterChart(title: "s", points: [
            FrontierPoint(label: "1", x: 10, y: 0.1, kind: .frontier), FrontierPoint(label: "2", x: 20, y: 0.2, kind: .dominated),
            FrontierPoint(label: "3", x: 10, y: 0.1, kind: .frontier), FrontierPoint(label: "base", x: 15, y: 0.3, kind: .base),
        ], xTitle: "x", yTitle: "y")
        let layout = chart.layout()
        #expect(layout.centres[0] == layout.centres[2] && layout.centres[1].x > layout.centres[0].x)
        let svg = chart.svgContent()
        // Points at one place share a label; the dominated one has none.
        #expect(svg.contains(">1, 3</text>") && svg.contains(">base</text>") && !svg.contains(">2</text>"))
        #expect(chart.textAlternative.hasPrefix("4 points on x and y; 2 on the frontier: 1 (10, 0.1), 3 (10, 0.1); base (15, 0.3)"))
    }
}
