// `pressdb spring`: a spring given the way Core Animation, UIKit or SwiftUI parameterise it,
// shown in physical form with its derived figures and its progress at chosen times.
import Foundation
import PressCore

enum SpringCommand: PressCommand {
    static var spec: CommandSpec {
        CommandSpec(
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
            of 1 or more is evaluated as critically damped, as Core Animation does, unless
            --allow-overdamping is given. settling_duration is CASpringAnimation.settlingDuration
            (remaining distance below 0.001); overshoot is the peak progress minus 1;
            time_to_target is the first time progress reaches 1 (null when it never does).

            CSV repeats the parameters on every --at row. JSON is one object with a "values" array.
            SVG is a standalone chart of the progress from 0 to the settling duration, with a line
            at 1 and the settling time marked (light and dark themes embedded; --at is ignored).

            EXAMPLE:
              pressdb spring --duration 0.4 --damping-ratio 0.5 --velocity 3 --at 0.0167,0.0333
              pressdb spring --duration 0.4 --damping-ratio 0.5 --velocity 3 --format svg --out spring.svg
            """,
            options: [
                .option("mass", "M", help: "Mass (CASpringAnimation group), > 0."),
                .option("stiffness", "K", help: "Stiffness (CASpringAnimation group), > 0."),
                .option("damping", "C", help: "Damping coefficient (CASpringAnimation group), ≥ 0."),
                .option("duration", "D", help: "UIView spring duration in seconds, with --damping-ratio."),
                .option("damping-ratio", "Z", help: "UIView spring damping ratio, with --duration."),
                .option("perceptual-duration", "D", help: "SwiftUI Spring duration in seconds, with --bounce."),
                .option("bounce", "B", help: "SwiftUI Spring bounce, with --perceptual-duration."),
                .option("response", "R", help: "SwiftUI Spring response in seconds, with --damping-fraction."),
                .option("damping-fraction", "F", help: "SwiftUI damping fraction (ratio), with --response."),
                .option("velocity", "V", help: "Initial velocity, whole distances per second (default 0)."),
                .option("at", "T[,T...]", help: "Times in seconds (≥ 0) at which to show progress and velocity.",
                        repeatable: true),
                .flag("allow-overdamping", help: "Evaluate a damping ratio above 1 as over-damped."),
                .option("format", "FORMAT", help: "Output: table|json|csv|svg (default table)."),
                CommonOptions.out,
            ])
    }

    /// The four ways to give a spring, each a set of options that must come together.
    static let groups: [(name: String, options: [String])] = [
        ("CASpringAnimation", ["mass", "stiffness", "damping"]),
        ("UIView spring", ["duration", "damping-ratio"]),
        ("SwiftUI duration/bounce", ["perceptual-duration", "bounce"]),
        ("SwiftUI response", ["response", "damping-fraction"]),
    ]

    static func run(_ args: ParsedArguments) throws -> Int32 {
        if try args.choice("format", ["table", "json", "csv", "svg"]) == "svg" {
            let spring = try makeSpring(args)
            try emit(SpringProgressChart.chart(spring).standaloneSVG(id: "spring"), to: args.string("out"))
            return ExitCode.ok
        }
        let format = try CommonOptions.outputFormat(args, [.table, .json, .csv])
        let spring = try makeSpring(args)
        var times: [Double] = []
        for s in args.strings("at") {
            guard let t = Double(s), t.isFinite, t >= 0 else {
                throw CLIError.usage("pressdb spring: --at needs times in seconds ≥ 0, not '\(s)'")
            }
            times.append(t)
        }
        try emit(render(spring, times: times, as: format), to: args.string("out"))
        return ExitCode.ok
    }

    /// Builds the spring from the one complete parameter group, with one-line usage errors.
    static func makeSpring(_ args: ParsedArguments) throws -> Spring {
        let given = groups.filter { g in g.options.contains { args.string($0) != nil } }
        guard let group = given.first else {
            throw CLIError.usage("pressdb spring: give one parameter group: --mass/--stiffness/--damping, "
                + "--duration/--damping-ratio, --perceptual-duration/--bounce or --response/--damping-fraction")
        }
        if given.count > 1 {
            let a = group.options.first { args.string($0) != nil }!
            let b = given[1].options.first { args.string($0) != nil }!
            throw CLIError.usage("pressdb spring: --\(a) (\(group.name)) and --\(b) (\(given[1].name)) conflict; give one parameter group")
        }
        if let missing = group.options.first(where: { args.string($0) == nil }) {
            throw CLIError.usage("pressdb spring: the \(group.name) group also needs --\(missing)")
        }
        func value(_ name: String, _ ok: (Double) -> Bool, _ requirement: String) throws -> Double {
            let v = try args.double(name)!
            guard ok(v) else { throw CLIError.usage("pressdb spring: --\(name) must be \(requirement), not \(Render.full(v))") }
            return v
        }
        let velocity = try args.double("velocity") ?? 0
        let overdamping = args.flag("allow-overdamping")
        do {
            switch group.options[0] {
            case "mass":
                return try Spring(mass: value("mass", { $0 > 0 }, "positive"),
                                  stiffness: value("stiffness", { $0 > 0 }, "positive"),
                                  damping: value("damping", { $0 >= 0 }, "zero or positive"),
                                  initialVelocity: velocity, allowsOverdamping: overdamping)
            case "duration":
                let r = Spring.uiKitDurationRange
                let d = try value("duration", { r.contains($0) }, "in [\(Render.full(r.lowerBound)), \(Render.full(r.upperBound))] s (UIKit clamps it there)")
                let z = try value("damping-ratio", { $0 > 0 && $0 <= 1 }, "in (0, 1] (UIKit clamps it there)")
                return try Spring(withDuration: d, usingSpringWithDamping: z, initialSpringVelocity: velocity)
            case "perceptual-duration":
                return try Spring(duration: value("perceptual-duration", { $0 > 0 }, "positive"),
                                  bounce: value("bounce", { $0 > -1 && $0 <= 1 }, "in (-1, 1]"),
                                  initialVelocity: velocity, allowsOverdamping: overdamping)
            default:
                return try Spring(response: value("response", { $0 > 0 }, "positive"),
                                  dampingRatio: value("damping-fraction", { $0 >= 0 }, "zero or positive"),
                                  initialVelocity: velocity, allowsOverdamping: overdamping)
            }
        } catch let e as AnimationParameterError {
            throw CLIError.usage("pressdb spring: \(e)")
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
            var params = ResultTable(columns: [Column("parameter"), Column("value", .number(6))])
            params.rows = figs.map { [.text($0.name), cell($0.value)] }
            var out = Render.text(params, color: color)
            if !values.isEmpty {
                var at = ResultTable(columns: [Column("t", .number(4)), Column("progress", .number(6)),
                                               Column("velocity", .number(6))])
                at.rows = values.map { [.double($0.t), .double($0.progress), .double($0.velocity)] }
                out += "\n" + Render.text(at, color: color)
            }
            return out
        }
    }
}
