import Testing
@testable import PressCharts

@Suite("PressCharts scales and ticks")
struct ScaleAndTickTests {
    @Test func linearScaleMapsDomainToRange() {
        // 25 is a quarter of 0…100; a quarter of 50…650 is 50 + 150 = 200.
        let x = LinearScale(domain: (0, 100), range: (50, 650))
        #expect(x(25) == 200)
        #expect(x(0) == 50)
        #expect(x(100) == 650)
        #expect(x(150) == 950)  // extrapolates
        #expect(x.invert(200) == 25)
    }

    @Test func reversedRangeForUpwardYAxis() {
        // 1.0 is a quarter of the way up 0.9…1.3; a quarter of the way from 360 to 40 is 360 − 80 = 280.
        let y = LinearScale(domain: (0.9, 1.3), range: (360, 40))
        #expect(abs(y(1.0) - 280) < 1e-9)
        #expect(abs(y.invert(280) - 1.0) < 1e-12)
        #expect(LinearScale(domain: (5, 5), range: (0, 10))(7) == 5)  // degenerate: middle
    }

    // Expected ticks: Heckbert's nicenum computed in python3 (floor(log10), thresholds 1.5/3/7,
    // step = nicenum(span/(count-1), round), ends floor(lo/step)·step and ceil(hi/step)·step).
    @Test func niceTicksZeroToPointNineSeven() {
        let ticks = NiceTicks.ticks(from: 0, to: 0.97, count: 5)
        #expect(ticks.values == [0, 0.2, 0.4, 0.6, 0.8, 1.0])
        #expect(ticks.labels == ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"])
        #expect(ticks.step == 0.2)
    }

    @Test func niceTicksZeroTo237() {
        let ticks = NiceTicks.ticks(from: 0, to: 237, count: 5)
        #expect(ticks.values == [0, 50, 100, 150, 200, 250])
        #expect(ticks.labels == ["0", "50", "100", "150", "200", "250"])
    }

    @Test func niceTicksAcrossZero() {
        let ticks = NiceTicks.ticks(from: -3.7, to: 12.2, count: 5)
        #expect(ticks.values == [-5, 0, 5, 10, 15])
        #expect(ticks.labels == ["\u{2212}5", "0", "5", "10", "15"])
    }

    @Test func niceTicksAllNegative() {
        let ticks = NiceTicks.ticks(from: -0.013, to: -0.002, count: 5)
        #expect(ticks.values == [-0.014, -0.012, -0.01, -0.008, -0.006, -0.004, -0.002])
        #expect(ticks.labels.first == "\u{2212}0.014")
        #expect(ticks.labels.last == "\u{2212}0.002")
        // Reversed arguments give the same ticks.
        #expect(NiceTicks.ticks(from: -0.002, to: -0.013, count: 5) == ticks)
    }

    @Test func tickValuesAndLabelsHaveNoFloatNoise() {
        // 0.1 × 3 = 0.30000000000000004 in binary64; ticks must be the literal 0.3 and print "0.3".
        let ticks = NiceTicks.ticks(from: 0.1, to: 0.7, count: 7)
        #expect(ticks.values == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7])
        #expect(ticks.labels == ["0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7"])
    }

    @Test func degenerateRangeIsWidened() {
        // 5…5 → 4.5…5.5 (±10 %), span/4 = 0.25 → step 0.2 → 4.4…5.6.
        let ticks = NiceTicks.ticks(from: 5, to: 5, count: 5)
        #expect(ticks.lower == 4.4)
        #expect(ticks.upper == 5.6)
        #expect(ticks.values.count == 7)
    }

    @Test func heckbertNiceNumbers() {
        // Heckbert's nicenum: 0.97 → 1 (ceiling), 237 → 500 (ceiling), 125 → 100 and 3.2 → 5 (rounded).
        #expect(NiceTicks.niceNumber(0.97, round: false) == 1)
        #expect(NiceTicks.niceNumber(237, round: false) == 500)
        #expect(NiceTicks.niceNumber(125, round: true) == 100)
        #expect(NiceTicks.niceNumber(3.2, round: true) == 5)
        #expect(NiceTicks.niceNumber(0.0021, round: true) == 0.002)
    }

    @Test func numberTextIsExact() {
        #expect(NumberText.compact(0.1 + 0.2, maxDigits: 3) == "0.3")
        #expect(NumberText.fixed(0.1 + 0.2, digits: 2) == "0.30")
        #expect(NumberText.fixed(-0.004, digits: 2) == "0.00")  // no "−0.00"
        #expect(NumberText.fixed(-1.25, digits: 1) == "\u{2212}1.3")  // 1.25 is exact; half away from zero
        #expect(NumberText.compact(166.66666, maxDigits: 1) == "166.7")
        #expect(NumberText.compact(100, maxDigits: 1) == "100")
        #expect(NumberText.percent(0.8234) == "82.3\u{2009}%")
        #expect(NumberText.fixed(0.05, digits: 3) == "0.050")
        #expect(NumberText.signed(8, digits: 1) == "+8.0")
        #expect(NumberText.signed(-4, digits: 1) == "\u{2212}4.0")
        #expect(NumberText.signed(0.01, digits: 1) == "0.0")  // rounds to zero: no sign
    }
}

@Suite("PressCharts label layout")
struct LabelLayoutTests {
    @Test func strideThinsCollidingLabels() {
        // Centres 10 px apart, labels 30 px wide with a 4 px gap need ≥ 34 px: every 4th (40 px).
        let positions = (0..<10).map { Double($0) * 10 }
        #expect(TextLayout.labelStride(positions: positions, extents: Array(repeating: 30, count: 10), gap: 4) == 4)
        // 50 px apart, 30 px labels: all fit.
        #expect(TextLayout.labelStride(positions: positions.map { $0 * 5 }, extents: Array(repeating: 30, count: 10), gap: 4) == 1)
    }

    @Test func narrowChartKeepsTickLabelsApart() {
        // A 240 px wide chart over 0…600 ms: ticks every 100 ms are ~25 px apart, "100" is ~23 px wide.
        let chart = ScaleTimelineChart(title: "t", series: [ScaleSeries(name: "s", times: [0, 0.6], scales: [1, 1.2])],
                                       size: ChartSize(width: 240, height: 300))
        let layout = chart.layout()
        #expect(layout.frame.x.labelStride > 1)
        let kept = layout.frame.x.ticks.values.indices.filter { $0 % layout.frame.x.labelStride == 0 }
        for (a, b) in zip(kept, kept.dropFirst()) {
            let widthA = TextLayout.estimatedWidth(layout.frame.x.ticks.labels[a], fontSize: 12)
            let widthB = TextLayout.estimatedWidth(layout.frame.x.ticks.labels[b], fontSize: 12)
            #expect(layout.frame.x(layout.frame.x.ticks.values[b]) - layout.frame.x(layout.frame.x.ticks.values[a]) >= (widthA + widthB) / 2)
        }
    }

    @Test func markerLabelsGoToSeparateRows() {
        // Labels 100 px wide at 0 and 5 px collide (row 0, row 1); one at 300 px fits row 0.
        #expect(TextLayout.rows(centres: [0, 5, 300], widths: [100, 100, 100]) == [0, 1, 0])
    }

    @Test func legendTextIsCutToFit() {
        // 12 px font × 0.64 em = 7.68 px a character: 100 px holds 13 characters, so 12 + "…".
        #expect(Legend.fitted("abcdefghijklmnopqrstuvwxyz", width: 100) == "abcdefghijkl\u{2026}")
        #expect(Legend.fitted("short", width: 100) == "short")
    }

    @Test func spreadPushesOverlappingLabelsApart() {
        // Two 14 px labels wanted at 100 and 102 with a 1 px gap: the second moves to 100 + 7 + 1 + 7 = 115.
        #expect(TextLayout.spread(desired: [102, 100], extents: [14, 14], gap: 1) == [115, 100])
        // Past a limit of 110 the run shifts back by 122 − 110 = 12.
        #expect(TextLayout.spread(desired: [100, 102], extents: [14, 14], gap: 1, limit: 110) == [88, 103])
    }

    @Test func scaleChartMarkerLabelsDoNotOverlap() {
        let layout = SampleReport.scaleChart().layout()
        for (i, a) in layout.markers.enumerated() {
            for b in layout.markers[(i + 1)...] where a.row == b.row {
                let half = (TextLayout.estimatedWidth(a.label, fontSize: 12) + TextLayout.estimatedWidth(b.label, fontSize: 12)) / 2
                #expect(abs(a.labelX - b.labelX) >= half)
            }
        }
        // On the ~600 px plot of 0…600 ms, "release" (300 ms) is ~133 px from the centre of the
        // ~220 px wide "feedback first shows (scroll)" label (166.7 ms): they need two rows.
        #expect(Set(layout.markers.map(\.row)).count >= 2)
        // Every marker label stays inside the drawing, "touch-down" at 0 ms included, and over the
        // plot, clear of the y axis's tick labels on its left.
        for marker in layout.markers {
            let half = TextLayout.estimatedWidth(marker.label, fontSize: 12) / 2
            #expect(marker.labelX - half >= 0 && marker.labelX + half <= SampleReport.scaleChart().size.width)
            #expect(marker.labelX - half >= layout.frame.plot.left - 0.5)
        }
        // The ±1 px labels sit at least a line apart.
        #expect(abs(layout.lines[0].labelY - layout.lines[1].labelY) >= 14)
    }
}
