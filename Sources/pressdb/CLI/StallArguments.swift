// `--stalls MS_PER_S`, `--hangs FILE`, `--seed S` of replay and report: read into a
// `StallProfile` (docs/press-model.md §8), or nil when no stalls are asked for.
import PressCore
import PressFormats

enum StallArguments {
    /// The profile of the options given; nil without `--stalls` and `--hangs`.
    /// - Throws: `CLIError` naming the option or the file and field at fault.
    static func profile(ratio: Double?, hangs: String?, seed: UInt64) throws -> StallProfile? {
        guard ratio != nil || hangs != nil else { return nil }
        var buckets: [HangBucket] = []
        if let hangs {
            let text = try TextArgument.read(hangs)
            do { buckets = try HangHistogramJSON.parse(text) } catch {
                throw CLIError.failure("\(hangs): \(error); see docs/press-model.md §8 for the format")
            }
        }
        let profile = StallProfile(hitchRatio: ratio ?? 0, hangs: buckets, seed: seed)
        if let problem = profile.problem { throw CLIError.usage("--stalls: \(problem)") }
        return profile
    }

    /// "with stalls at 10 ms/s (and the hangs of FILE), seed 1".
    static func describe(_ p: StallProfile, hangs: String?) -> String {
        "with main-thread stalls at \(JSONText.number(p.hitchRatio)) ms/s"
            + (hangs.map { " and the hangs of \($0)" } ?? "") + ", seed \(p.seed)"
    }
}
