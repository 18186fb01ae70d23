import Foundation
import Testing
import PressCharts
import PressCore
@testable import pressdb

// End to end: the built `pressdb` binary, as a user runs it.
@Suite struct SpringCommandTests {
    private func json(_ args: [String]) throws -> [String: Any] {
        let r = try Binary.run(["spring"] + args + ["--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
        return try #require(object as? [String: Any])
    }

    // The table says each figure's unit: Core Animation's mass, stiffness and damping have none
    // of their own, so with progress a fraction of the distance and t in seconds stiffness is
    // mass/s² and damping mass/s (k and c in m·x'' + c·x' + k·x = 0); durations are seconds.
    @Test func tableGivesUnits() throws {
        let r = try Binary.run(["spring", "--mass", "1", "--stiffness", "100", "--damping", "10", "--at", "0.1"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: false) }
        func unit(_ name: String) -> String? {
            r.stdout.split(separator: "\n").first { $0.hasPrefix(name + " ") }?.split(separator: " ").dropFirst(2).joined(separator: " ")
        }
        #expect(lines.first?.first == "parameter" && r.stdout.contains("  unit\n"))
        #expect(unit("stiffness") == "mass/s²" && unit("damping") == "mass/s" && unit("settling_duration") == "s")
        #expect(r.stdout.contains("t (s)") && r.stdout.contains("velocity (distances/s)"))
    }

    // ζ = 0.05 (UIView spring, 0.4 s): the progress overshoots to about 1.85, so the y axis runs
    // to 2.0 and the "reaches 1" label (8.3 ms) is close to "start" (0 ms). The labels stay clear
    // of each other and of the y axis's tick labels (left of the plot).
    @Test func springChartLabelsDoNotCollideAtLowDamping() throws {
        let spring = try Spring(withDuration: 0.4, usingSpringWithDamping: 0.05, initialSpringVelocity: 0)
        let layout = SpringProgressChart.chart(spring).layout()
        let placed = layout.markers.map { m -> (row: Int, lo: Double, hi: Double) in
            let half = TextLayout.estimatedWidth(m.label, fontSize: 12) / 2
            return (m.row, m.labelX - half, m.labelX + half)
        }
        #expect(placed.count == 3)
        for (i, a) in placed.enumerated() {
            #expect(a.lo >= layout.frame.plot.left - 0.5)
            for b in placed[(i + 1)...] where a.row == b.row { #expect(a.hi <= b.lo || b.hi <= a.lo) }
        }
    }

    // ζ = c / (2√(km)) = 40 / (2 × 10) = 2 for m 1, k 100, c 40: Core Animation evaluates it as
    // critically damped unless overdamping is allowed; pressdb says so rather than silently.
    @Test func dampingAboveOneSaysItIsEvaluatedAsCritical() throws {
        let critical = try Binary.run(["spring", "--mass", "1", "--stiffness", "100", "--damping", "40"])
        #expect(critical.status == 0)
        #expect(critical.stderr.contains("damping ratio 2 is above 1: evaluated as critically damped (ζ = 1)"))
        let swiftUI = try Binary.run(["spring", "--response", "0.5", "--damping-fraction", "1.5"])
        #expect(swiftUI.stderr.contains("damping ratio 1.5 is above 1"))
        let over = try Binary.run(["spring", "--mass", "1", "--stiffness", "100", "--damping", "40", "--allow-overdamping"])
        #expect(over.status == 0 && over.stderr.isEmpty)
        #expect(try Binary.run(["spring", "--mass", "1", "--stiffness", "100", "--damping", "10"]).stderr.isEmpty)
    }

    // Framer's published UIKit mapping: duration 3, damping ratio 0.25 → stiffness
    // 54.83363359078326, damping 3.702486785620688.
    @Test func uiKitGroupGivesFramersValuesWithExactKeys() throws {
        let o = try json(["--duration", "3", "--damping-ratio", "0.25", "--at", "0,0.5"])
        #expect(Set(o.keys) == ["mass", "stiffness", "damping", "damping_ratio", "initial_velocity",
                                "settling_duration", "perceptual_duration", "bounce", "overshoot",
                                "time_to_target", "values"])
        #expect(abs((o["stiffness"] as! Double) - 54.83363359078326) < 1e-9)
        #expect(abs((o["damping"] as! Double) - 3.702486785620688) < 1e-9)
        #expect(o["mass"] as! Double == 1)
        let values = try #require(o["values"] as? [[String: Double]])
        #expect(values.count == 2)
        #expect(values[0] == ["t": 0, "progress": 0, "velocity": 0])
        #expect(values[1]["t"] == 0.5)
    }

    // Apple: mass 1, stiffness 100, damping 5 settles in about 2.85 s; SwiftUI's
    // Spring(mass: 1, stiffness: 100, damping: 10) has duration 0.63 and bounce 0.5.
    @Test func caGroupShowsAppleFigures() throws {
        let o = try json(["--mass", "1", "--stiffness", "100", "--damping", "5"])
        #expect(abs((o["settling_duration"] as! Double) - 2.85) < 0.01)
        #expect((o["values"] as! [Any]).isEmpty)
        let p = try json(["--mass", "1", "--stiffness", "100", "--damping", "10"])
        #expect(abs((p["perceptual_duration"] as! Double) - 0.63) < 0.005)
        #expect(abs((p["bounce"] as! Double) - 0.5) < 1e-12)
    }

    // Apple: Spring(duration: 0.5, bounce: 0.3) is stiffness 157.9, damping 17.6; a critically
    // damped spring without initial velocity never passes the target: time_to_target is null.
    @Test func swiftUIGroupsAndNullTimeToTarget() throws {
        let o = try json(["--perceptual-duration", "0.5", "--bounce", "0.3"])
        #expect(abs((o["stiffness"] as! Double) - 157.9) < 0.05)
        #expect(abs((o["damping"] as! Double) - 17.6) < 0.05)
        let r = try json(["--response", "0.5", "--damping-fraction", "1"])
        #expect(r["time_to_target"] is NSNull)
        #expect(r["overshoot"] as! Double == 0)
    }

    @Test func tableHasParametersThenValues() throws {
        let r = try Binary.run(["spring", "--mass", "1", "--stiffness", "100", "--damping", "10", "--at", "0.1"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("settling_duration"))
        #expect(r.stdout.contains("progress"))
        let csv = try Binary.run(["spring", "--mass", "1", "--stiffness", "100", "--damping", "10", "--at", "0.1,0.2", "--format", "csv"])
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("mass,stiffness,damping,damping_ratio,"))
        #expect(lines[0].hasSuffix(",t,progress,velocity"))
    }

    @Test(arguments: [
        (["--mass", "0", "--stiffness", "100", "--damping", "5"], "--mass must be positive"),
        (["--mass", "1", "--stiffness", "-100", "--damping", "5"], "--stiffness must be positive"),
        (["--mass", "1", "--stiffness", "100", "--damping", "nan"], "--damping needs a finite number"),
        (["--mass", "1", "--duration", "0.4", "--damping-ratio", "0.5"], "conflict"),
        (["--duration", "0.4"], "needs --damping-ratio"),
        ([], "give one parameter group"),
        (["--duration", "0.4", "--damping-ratio", "1.5"], "--damping-ratio must be in (0, 1]"),
        (["--perceptual-duration", "0.5", "--bounce", "-1"], "--bounce must be in (-1, 1]"),
        (["--mass", "1", "--stiffness", "100", "--damping", "5", "--at", "-1"], "--at needs times"),
    ])
    func invalidParametersAreUsageErrors(_ args: [String], _ message: String) throws {
        let r = try Binary.run(["spring"] + args)
        #expect(r.status == 2)
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(r.stdout.isEmpty)
    }
}
