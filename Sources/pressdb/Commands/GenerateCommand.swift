// `pressdb generate`: a synthetic touch log from the documented finger model, for tests,
// demonstrations and benchmarks. Never real data: every app_version carries "+synthetic".
import Foundation
import PressCore
import PressFormats

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "generate",
        abstract: "Write a synthetic touch log (NDJSON or CSV) from a model of fingers.",
        discussion: """
        Writes SESSIONS touch sessions on buttons to standard output, records of sessions in flight
        interleaved by time like merged device logs. The same options and seed give the same bytes.
        The log is SYNTHETIC: every app_version ends in the SemVer build metadata "+synthetic"
        (e.g. 3.2.0+synthetic), so it cannot pass for real data. docs/generator.md has the details.

        Sessions: touch-downs an exponential 0.04 s apart on average, each by a user drawn
        uniformly from K = ceil(SESSIONS / 20) users s<seed>-u1..s<seed>-uK; session ids
        s<seed>-u<user>-<nnnn>, so logs of different seeds never share an id.
        Assignment (--assign): user (default) - each user draws a variant once (by the --split
        shares) and keeps it, like an app's sticky bucketing, and has persistent finger traits:
        a drag-off multiplier m = Z^2 (chi-square, 1 df: mean 1, variance 2) on drag_out and
        drag_back, and a factor e^(0.25 Z) on the median tap duration (within a user the
        sigma(ln) of taps is then 0.374, over users still 0.45). session - each session draws its
        own variant and every finger is alike (the behaviour before per-user assignment). Either
        way the variant comes from its own random stream, independently of the finger, so an A/A
        log has no real difference. Controls: 44-120 pt wide, 44 pt high (70 %) or 44-60 pt, on a
        390 x 844 pt screen; containers by --containers weights; scroll axis vertical 0.8,
        horizontal 0.15, both 0.05 (table: vertical).
        Fingers (probabilities; flicks only in scroll containers, 0.2 of their touches):
          tap        0.895  still, jitter sigma 0.2 pt (cut at 0.9 pt); lasts log-normal,
                            median 0.090 s, sigma(ln) 0.45
          drift      0.06   slides 2-12 pt while pressing (median 0.15 s), lifts on the button
          drag_out   0.025  rests 0.05-0.15 s, drags 200-800 pt/s to 10-60 pt beyond the frame
                            grown by 70 pt (UIControl's retention margin), lifts there
          drag_back  0.015  the same, comes back within 3 pt of the start and lifts
          cancel     0.005  still; the system cancels it after a median 0.3 s
          flick             starts moving within 0.15 s (60 %) or 0.15-0.35 s; 300-2500 pt/s
                            along the axis for 0.05-0.15 s (>= 4 samples), lifts moving
        Samples at --rate Hz from a random display phase; a resting finger repeats its position
        (stationary) with probability 0.3. Times are whole microseconds, positions hundredths of
        a point. About 10 records per session at 60 Hz (100,000 sessions: ~1.04 M records).
        --effect VARIANT:KIND=DELTA adds DELTA to KIND's probability in one arm only (the tap
        share absorbs it; flick: within scroll containers), to build a log where the arms'
        fingers really differ, e.g. --effect B:drag_out=+0.05. KIND: drift, drag_out,
        drag_back, cancel, flick.
        Messy experiment data, for 'pressdb compare': --cross-arm-users P re-buckets a share P
        of the users per session (they meet both arms), --missing-user P drops the user of a
        share P of the sessions, --whale SHARE gives one user that share of all sessions;
        --split 90/10 makes the arms unequal; --pre-period DAYS adds each user's sessions before
        the experiment, without a variant (for compare --cuped). Each draws from its own random
        stream, so a log without them is unchanged.
        """
    )

    /// The most sessions one run generates: 100 million (about 1 G records, ~100 GB of NDJSON);
    /// a guard against typos and overflow, far above any benchmark.
    static let maximumSessions = 100_000_000
    /// The generator's defaults, which the options' defaults are.
    static let defaults = SyntheticLogConfiguration()

    @Option(short: "n", value: "N", help: "Number of sessions",
            rule: .within(0...GenerateCommand.maximumSessions, "must be from 0 to \(GenerateCommand.maximumSessions)"))
    var sessions = defaults.sessions
    @Option(value: "S", help: "Random seed, 0 to 2^64-1") var seed = defaults.seed
    @Option(value: "NAME=CONFIG", help: "The arms") var variants = defaults.arms
    @Option(value: "P/Q/...", help: "Shares of the arms, one per variant", defaultDescription: "equal: 50/50")
    var split: String?
    @Option(value: "UNIT", help: "What draws a variant, as described above")
    var assign = defaults.assignment
    @Option(value: "NAME[:WEIGHT]", help: "Containers and weights: none, scroll, table, scroll-immediate")
    var containers = defaults.containers
    @Option(.format(TouchLogFormat.allCases)) var format: TouchLogFormat
    @Option(value: "HZ", help: "Touch sample rate in Hz", discussion: "120 for ProMotion.") var rate = defaults.sampleRate
    @Option(name: "effect", value: "VARIANT:KIND=DELTA", help: "Make one arm's fingers differ, as described above")
    var effects: [ArmEffect]
    @Option(value: "P", help: "Probability that a likely failed press is pressed again (docs/generator.md)",
            discussion: "Retries come on top of --sessions.", rule: .within(0...0.99, "must lie between 0 and 0.99"))
    var retry = defaults.retryProbability
    @Option(value: "P", help: "Share of users re-bucketed: each of their sessions draws its arm afresh, so they meet both arms",
            discussion: "With --assign user; for compare's multiple exposures (docs/compare.md).",
            rule: .within(0...1, "must lie between 0 and 1"))
    var crossArmUsers = defaults.crossArmUsers
    @Option(value: "P", help: "Share of sessions logged without a user (each keeps its user's arm)",
            rule: .within(0...1, "must lie between 0 and 1"))
    var missingUser = defaults.missingUser
    @Option(value: "SHARE", help: "Share of all sessions made by one heavy user, s<seed>-u1",
            rule: .within(0...0.99, "must lie between 0 and 0.99"))
    var whale = defaults.whaleShare
    @Option(name: "pre-period", value: "DAYS", help: "Days of sessions without a variant before the experiment, by the same users (for compare --cuped)",
            discussion: "The experiment is taken to last 7 days: DAYS/7 × --sessions more sessions, each user with their own traits (docs/generator.md).",
            rule: .within(0...365, "must lie between 0 and 365"))
    var prePeriod = defaults.prePeriodDays

    /// The generator's configuration the options describe.
    /// - Throws: `CLIError.usage` for a split or effect that does not fit the variants, or a
    ///   configuration `SyntheticLogConfiguration.validate` refuses.
    func logConfiguration() throws -> SyntheticLogConfiguration {
        var c = SyntheticLogConfiguration(sessions: sessions, seed: seed, arms: variants, containers: containers,
                                          sampleRate: rate, assignment: assign)
        c.retryProbability = retry
        c.crossArmUsers = crossArmUsers
        c.missingUser = missingUser
        c.whaleShare = whale
        c.prePeriodDays = prePeriod
        if let split {
            let shares = split.split(separator: "/", omittingEmptySubsequences: false).map { Double($0) }
            guard shares.count == c.arms.count, shares.allSatisfy({ $0 != nil && $0! >= 0 && $0!.isFinite }) else {
                throw CLIError.usage("--split needs \(c.arms.count) non-negative numbers separated by '/', one per variant, not '\(split)'")
            }
            // Shares whose sum overflows (1e308/1e308) are scaled by the largest first; other
            // shares are used as given, so the logs of every seed stay as they were.
            let largest = shares.map { $0! }.max() ?? 1
            let scale = shares.reduce(0) { $0 + $1! }.isFinite ? 1 : largest
            for i in c.arms.indices { c.arms[i].weight = shares[i]! / scale }
        }
        for effect in effects {
            guard let arm = c.arms.firstIndex(where: { $0.variant == effect.variant }) else {
                throw CLIError.usage("--effect names variant '\(effect.variant)', which is not among --variants")
            }
            guard let mix = c.arms[arm].behaviors.adjusting(effect.behavior, by: effect.delta) else {
                throw CLIError.usage("--effect \(effect.argumentDescription) puts a probability outside 0...1")
            }
            c.arms[arm].behaviors = mix
        }
        do { try c.validate() } catch let e as SyntheticLogError {
            throw CLIError.usage(e.description)
        }
        return c
    }

    func run() throws -> Int32 {
        let log = try SyntheticLog(try logConfiguration())
        let chunk = 1 << 20
        var writer = TouchLogWriter(format: format, capacity: chunk)
        writer.writeHeader()
        try log.forEachRecord { session, index in
            writer.append(session, sample: index)
            if writer.buffer.count >= chunk {
                try StandardOutput.write(writer.buffer)
                writer.removeAll()
            }
        }
        try StandardOutput.write(writer.buffer)
        return ExitCode.ok
    }

}

extension SyntheticAssignment: ChoiceArgument {}

extension SyntheticArm: ExpressibleByArgument {
    /// `NAME=CONFIG`.
    init(argument: String) throws(InvalidArgument) {
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw .requirement("needs NAME=CONFIG") }
        self.init(variant: parts[0], config: parts[1])
    }
    var argumentDescription: String { "\(variant)=\(config)" }
}

extension ContainerShare: ExpressibleByArgument {
    /// `NAME[:WEIGHT]`, weight 1 when left out.
    init(argument: String) throws(InvalidArgument) {
        let parts = argument.split(separator: ":", maxSplits: 1).map(String.init)
        guard let container = Container(named: parts[0]) else {
            throw .problem("unknown container '\(parts[0])' (known: \(Container.allValueStrings!.joined(separator: ", ")))")
        }
        var weight = 1.0
        if parts.count == 2 {
            guard let w = Double(parts[1]), w >= 0, w.isFinite else {
                throw .problem("container weight must be a non-negative number, not '\(parts[1])'")
            }
            weight = w
        }
        self.init(container, weight: weight)
    }
    var argumentDescription: String { "\(container.argumentDescription):\(Render.full(weight))" }
}

/// `--effect VARIANT:KIND=DELTA`: add DELTA to the probability of finger behaviour KIND in one arm.
struct ArmEffect: ExpressibleByArgument {
    var variant: String
    var behavior: FingerBehavior
    var delta: Double

    init(argument: String) throws(InvalidArgument) {
        let requirement = InvalidArgument.requirement("needs VARIANT:KIND=DELTA (KIND: "
            + FingerBehavior.allCases.filter { $0 != .tap }.map(\.rawValue).joined(separator: ", ") + ")")
        guard let colon = argument.firstIndex(of: ":"), let eq = argument.firstIndex(of: "="), colon < eq else {
            throw requirement
        }
        var deltaText = String(argument[argument.index(after: eq)...])
        if deltaText.hasPrefix("+") { deltaText.removeFirst() }
        guard let kind = FingerBehavior(rawValue: String(argument[argument.index(after: colon)..<eq])), kind != .tap,
              let delta = Double(deltaText), delta.isFinite else { throw requirement }
        variant = String(argument[..<colon])
        behavior = kind
        self.delta = delta
    }

    var argumentDescription: String { "\(variant):\(behavior.rawValue)=\(delta >= 0 ? "+" : "")\(Render.full(delta))" }
}
