// `pressdb spring`: a spring given the way Core Animation, UIKit or SwiftUI parameterise it,
// shown in physical form with its derived figures and its progress at chosen times.
import Foundation
import PressCharts
import PressCore

struct SpringCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "spring",
        abstract: "Show a spring's physical parameters, settling time and progress at given times.",
        discussion: """
        Give exactly one parameter group; each reduces to Core Animation's physical form
        (mass, stiffness, damping, initial velocity):
          --mass M --stiffness K --damping C   CASpringAnimation (Core Animation's defaults
                                               are 1, 100, 10; all three are required here)
          --duration D --damping-ratio Z       UIView.animate(withDuration:usingSpringWithDamping:
                                               initialSpringVelocity:): mass 1, stiffness and
                                               damping by UIKit's 12-step Newton solve; D in
                                               [0.01, 10] s, Z in (0, 1]
          --perceptual-duration D --bounce B   SwiftUI Spring(duration:bounce:), B in (-1, 1]
          --response R --damping-fraction F    SwiftUI Spring(response:dampingRatio:)

        Progress runs from 0 to 1; velocities are whole distances per second. A damping ratio
        of 1 or more is evaluated as critically damped, as Core Animation does (and said so on
        standard error), unless --allow-overdamping is given. settling_duration is CASpringAnimation.settlingDuration
        (remaining distance below 0.001); overshoot is the peak progress minus 1;
        time_to_target is the first time progress reaches 1 (null when it never does).

        CSV repeats the parameters on every --at row. JSON is one object with a "values" array.
        SVG is a standalone chart of the progress from 0 to the settling duration, with a line
        at 1 and the settling time marked (light and dark themes embedded; --at is ignored).

        EXAMPLE:
          pressdb spring --duration 0.4 --damping-ratio 0.5 --velocity 3 \\
              --at 0.0167,0.0333
          pressdb spring --duration 0.4 --damping-ratio 0.5 --velocity 3 \\
              --format svg --out spring.svg
        """
    )

    /// The output formats: the figures as a table, JSON or CSV, or the progress curve as SVG.
    enum Format: String, ChoiceArgument { case table, json, csv, svg }

    static let uiKitDuration = Spring.uiKitDurationRange
    @Option(value: "M", help: "Mass (CASpringAnimation group), > 0", rule: .positive) var mass: Double?
    @Option(value: "K", help: "Stiffness (CASpringAnimation group), > 0", rule: .positive) var stiffness: Double?
    @Option(value: "C", help: "Damping coefficient (CASpringAnimation group), ≥ 0", rule: .nonNegative) var damping: Double?
    @Option(value: "D", help: "UIView spring duration in seconds, with --damping-ratio",
            rule: .within(uiKitDuration, "must be in [\(Render.full(uiKitDuration.lowerBound)), \(Render.full(uiKitDuration.upperBound))] s (UIKit clamps it there)"))
    var duration: Double?
    @Option(value: "Z", help: "UIView spring damping ratio, with --duration",
            rule: Rule("must be in (0, 1] (UIKit clamps it there)") { $0 > 0 && $0 <= 1 })
    var dampingRatio: Double?
    @Option(value: "D", help: "SwiftUI Spring duration in seconds, with --bounce", rule: .positive) var perceptualDuration: Double?
    @Option(value: "B", help: "SwiftUI Spring bounce, with --perceptual-duration",
            rule: Rule("must be in (-1, 1]") { $0 > -1 && $0 <= 1 })
    var bounce: Double?
    @Option(value: "R", help: "SwiftUI Spring response in seconds, with --damping-fraction", rule: .positive) var response: Double?
    @Option(value: "F", help: "SwiftUI damping fraction (ratio), with --response", rule: .nonNegative) var dampingFraction: Double?
    @Option(value: "V", help: "Initial velocity, whole distances per second") var velocity = 0.0
    @Option(name: "at", value: "T[,T...]", help: "Times in seconds (≥ 0) at which to show progress and velocity",
            requirement: "needs times in seconds ≥ 0", rule: .nonNegative)
    var times: [Double]
    @Flag(help: "Evaluate a damping ratio above 1 as over-damped (mass/stiffness/damping and SwiftUI groups; UIKit's mapping takes ratios up to 1 only).")
    var allowOverdamping: Bool
    @Option(.format(Format.allCases)) var format: Format
    @Option(.out) var out: String?

    /// The four ways to give a spring, each a set of options that must come together.
    var groups: [(name: String, options: [Declaration])] {
        [("CASpringAnimation", [$mass, $stiffness, $damping]),
         ("UIView spring", [$duration, $dampingRatio]),
         ("SwiftUI duration/bounce", [$perceptualDuration, $bounce]),
         ("SwiftUI response", [$response, $dampingFraction])]
    }

    /// Exactly one group, complete.
    func validate() throws {
        let given = groups.filter { g in g.options.contains(where: \.wasGiven) }
        guard let group = given.first else {
            throw CLIError.usage("give one parameter group: --mass/--stiffness/--damping, "
                + "--duration/--damping-ratio, --perceptual-duration/--bounce or --response/--damping-fraction")
        }
        if given.count > 1 {
            let a = group.options.first(where: \.wasGiven)!, b = given[1].options.first(where: \.wasGiven)!
            throw CLIError.usage("\(a.displayName) (\(group.name)) and \(b.displayName) (\(given[1].name)) conflict; give one parameter group")
        }
        if let missing = group.options.first(where: { !$0.wasGiven }) {
            throw CLIError.usage("the \(group.name) group also needs \(missing.displayName)")
        }
    }

    func run() throws -> Int32 {
        let spring = try makeSpring()
        if let note = Self.dampingNote(spring) { printError("spring: " + note) }
        if let tabular = OutputFormat(rawValue: format.rawValue) {
            try emit(Self.render(spring, times: times, as: tabular), to: out)
        } else {
            try emit(SpringProgressChart.chart(spring).standaloneSVG(id: "spring"), to: out)
        }
        return ExitCode.ok
    }

    /// Said when a damping ratio above 1 is evaluated as critical damping (Core Animation's rule
    /// without `allowsOverdamping`, docs/press-model.md), so it never happens silently.
    static func dampingNote(_ s: Spring) -> String? {
        guard s.dampingRatio > 1, s.regime == .critical else { return nil }
        return "damping ratio \(NumberText.compact(s.dampingRatio, maxDigits: 4)) is above 1: evaluated as critically "
            + "damped (ζ = 1), as Core Animation does; --allow-overdamping evaluates the over-damped form"
    }

    /// The spring of the one complete parameter group (`validate` checked there is one).
    func makeSpring() throws -> Spring {
        do {
            if let mass, let stiffness, let damping {
                return try Spring(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: velocity,
                                  allowsOverdamping: allowOverdamping)
            }
            if let duration, let dampingRatio {
                return try Spring(withDuration: duration, usingSpringWithDamping: dampingRatio, initialSpringVelocity: velocity)
            }
            if let perceptualDuration, let bounce {
                return try Spring(duration: perceptualDuration, bounce: bounce, initialVelocity: velocity,
                                  allowsOverdamping: allowOverdamping)
            }
            guard let response, let dampingFraction else { preconditionFailure("validate() checks the groups") }
            return try Spring(response: response, dampingRatio: dampingFraction, initialVelocity: velocity,
                              allowsOverdamping: allowOverdamping)
        } catch {
            throw CLIError.usage("\(error)")
        }
    }

    /// The figures, in output order, with JSON/CSV names.
    static func figures(_ s: Spring) -> [(name: String, value: Double?)] {
        [
            ("mass", s.mass),
            ("stiffness", s.stiffness),
            ("damping", s.damping),
            ("damping_ratio", s.dampingRatio),
            ("initial_velocity", s.initialVelocity),
            ("settling_duration", s.settlingDuration),
            ("perceptual_duration", s.perceptualDuration),
            ("bounce", s.bounce),
            ("overshoot", s.overshoot),
            ("time_to_target", s.timeToTarget),
        ]
    }

    static func cell(_ v: Double?) -> Cell { v.map { .double($0) } ?? .null }

    /// The unit of each figure in the table. Core Animation gives mass, stiffness and damping no
    /// units; with progress a fraction of the whole distance and time in seconds, stiffness is
    /// mass per s² and damping mass per s, and velocity is whole distances per second.
    static let units: [String: String] = [
        "mass": "CA mass units", "stiffness": "mass/s²", "damping": "mass/s", "damping_ratio": "ratio",
        "initial_velocity": "distances/s", "settling_duration": "s", "perceptual_duration": "s",
        "bounce": "ratio", "overshoot": "distance", "time_to_target": "s",
    ]

    static func render(_ s: Spring, times: [Double], as format: OutputFormat) -> String {
        let figs = figures(s)
        let values = times.map { (t: $0, progress: s.progress(at: $0), velocity: s.velocity(at: $0)) }
        switch format {
        case .json:
            var out = "{\n"
            for f in figs { out += "  \(Render.jsonString(f.name)): \(Render.jsonValue(cell(f.value))),\n" }
            out += "  \"values\": ["
            out += values.map {
                "\n    {\"t\": \(Render.jsonValue(.double($0.t))), \"progress\": \(Render.jsonValue(.double($0.progress))), "
                    + "\"velocity\": \(Render.jsonValue(.double($0.velocity)))}"
            }.joined(separator: ",")
            out += values.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
            return out
        case .csv:
            var table = ResultTable(columns: (figs.map(\.name) + ["t", "progress", "velocity"]).map { Column($0) })
            let params = figs.map { cell($0.value) }
            if values.isEmpty { table.rows = [params + [.null, .null, .null]] }
            for v in values { table.rows.append(params + [.double(v.t), .double(v.progress), .double(v.velocity)]) }
            return Render.csv(table)
        default:
            let color = useColor()
            var params = ResultTable(columns: [Column("parameter"), Column("value", .number(6)), Column("unit")])
            params.rows = figs.map { [.text($0.name), cell($0.value), .text(units[$0.name] ?? "")] }
            var out = Render.text(params, color: color)
            if !values.isEmpty {
                var at = ResultTable(columns: [Column("t (s)", .number(4)), Column("progress", .number(6)),
                                               Column("velocity (distances/s)", .number(6))])
                at.rows = values.map { [.double($0.t), .double($0.progress), .double($0.velocity)] }
                out += "\n" + Render.text(at, color: color)
            }
            return out
        }
    }
}
