// `pressdb generate`: a synthetic touch log from the documented finger model, for tests,
// demonstrations and benchmarks. Never real data: every app_version carries "+synthetic".
import Foundation
import PressCore
import PressFormats

enum GenerateCommand: PressCommand {
    static let spec = CommandSpec(
        name: "generate",
        abstract: "Write a synthetic touch log (NDJSON or CSV) from a model of fingers.",
        discussion: """
        Writes SESSIONS touch sessions on buttons to standard output, records of sessions in flight
        interleaved by time like merged device logs. The same options and seed give the same bytes.
        The log is SYNTHETIC: every app_version ends in the SemVer build metadata "+synthetic"
        (e.g. 3.2.0+synthetic), so it cannot pass for real data. docs/generator.md has the details.

        Sessions: touch-downs an exponential 0.04 s apart on average; users u1..uK with K =
        ceil(SESSIONS / 20), ids u<user>-<nnnn>. Each session's arm is drawn (by the --split
        shares) from its own random stream, independently of the finger, so an A/A log has no real
        difference. Controls: 44-120 pt wide, 44 pt high (70 %) or 44-60 pt, on a 390 x 844 pt
        screen; containers by --containers weights; scroll axis vertical 0.8, horizontal 0.15,
        both 0.05 (table: vertical).
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
        """,
        options: [
            .option("sessions", short: "n", "N", help: "Number of sessions (default 1000)."),
            .option("seed", "S", help: "Random seed, 0 to 2^64-1 (default 1)."),
            .option("variants", "NAME=CONFIG", help: "The arms (default A=spring-press,B=expand-delayed-click).",
                    repeatable: true),
            .option("split", "P/Q/...", help: "Shares of the arms, one per variant (default equal: 50/50)."),
            .option("containers", "NAME[:WEIGHT]", help: "Containers and weights: none, scroll, table,\nscroll-immediate (default none:2,scroll:2,table:1).",
                    repeatable: true),
            .option("format", "FORMAT", help: "Output: ndjson|csv (default ndjson)."),
            .option("rate", "HZ", help: "Touch sample rate in Hz (default 60; 120 for ProMotion)."),
            .option("effect", "VARIANT:KIND=DELTA", help: "Make one arm's fingers differ (see above).", repeatable: true),
        ])

    /// Builds the configuration the options describe.
    /// The most sessions one run generates: 100 million (about 1 G records, ~100 GB of NDJSON);
    /// a guard against typos and overflow, far above any benchmark.
    static let maximumSessions = 100_000_000

    static func configuration(_ args: ParsedArguments) throws -> (SyntheticLogConfiguration, TouchLogFormat) {
        var c = SyntheticLogConfiguration()
        if let n = try args.int("sessions") {
            guard n >= 0, n <= maximumSessions else {
                throw CLIError.usage("pressdb generate: --sessions must be from 0 to \(maximumSessions), not \(n)")
            }
            c.sessions = n
        }
        if let s = args.string("seed") {
            guard let seed = UInt64(s) else {
                throw CLIError.usage("pressdb generate: --seed needs a whole number from 0 to 2^64-1, not '\(s)'")
            }
            c.seed = seed
        }
        let variants = args.strings("variants")
        if !variants.isEmpty {
            c.arms = try variants.map { v in
                let parts = v.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw CLIError.usage("pressdb generate: --variants needs NAME=CONFIG, not '\(v)'")
                }
                return SyntheticArm(variant: parts[0], config: parts[1])
            }
        }
        if let split = args.string("split") {
            let shares = split.split(separator: "/", omittingEmptySubsequences: false).map { Double($0) }
            guard shares.count == c.arms.count, shares.allSatisfy({ $0 != nil && $0! >= 0 && $0!.isFinite }) else {
                throw CLIError.usage("pressdb generate: --split needs \(c.arms.count) non-negative numbers separated by '/', one per variant, not '\(split)'")
            }
            for i in c.arms.indices { c.arms[i].weight = shares[i]! }
        }
        let containers = args.strings("containers")
        if !containers.isEmpty {
            c.containers = try containers.map { item in
                let parts = item.split(separator: ":", maxSplits: 1).map(String.init)
                guard let container = Container(named: parts[0]) else {
                    let names = Container.named.compactMap(\.name).joined(separator: ", ")
                    throw CLIError.usage("pressdb generate: unknown container '\(parts[0])' (known: \(names))")
                }
                var weight = 1.0
                if parts.count == 2 {
                    guard let w = Double(parts[1]), w >= 0, w.isFinite else {
                        throw CLIError.usage("pressdb generate: container weight must be a non-negative number, not '\(parts[1])'")
                    }
                    weight = w
                }
                return ContainerShare(container, weight: weight)
            }
        }
        if let r = try args.double("rate") { c.sampleRate = r }
        for effect in args.strings("effect") {
            let usage = "pressdb generate: --effect needs VARIANT:KIND=DELTA (KIND: drift, drag_out, drag_back, cancel, flick), not '\(effect)'"
            guard let colon = effect.firstIndex(of: ":"), let eq = effect.firstIndex(of: "="), colon < eq else {
                throw CLIError.usage(usage)
            }
            let variant = String(effect[..<colon])
            let kindName = String(effect[effect.index(after: colon)..<eq])
            var deltaText = String(effect[effect.index(after: eq)...])
            if deltaText.hasPrefix("+") { deltaText.removeFirst() }
            guard let kind = FingerBehavior(rawValue: kindName), kind != .tap, let delta = Double(deltaText), delta.isFinite
            else { throw CLIError.usage(usage) }
            guard let arm = c.arms.firstIndex(where: { $0.variant == variant }) else {
                throw CLIError.usage("pressdb generate: --effect names variant '\(variant)', which is not among --variants")
            }
            guard let mix = c.arms[arm].behaviors.adjusting(kind, by: delta) else {
                throw CLIError.usage("pressdb generate: --effect \(effect) puts a probability outside 0...1")
            }
            c.arms[arm].behaviors = mix
        }
        let format = try args.choice("format", TouchLogFormat.allCases.map(\.rawValue)).flatMap(TouchLogFormat.init) ?? .ndjson
        do { try c.validate() } catch let e as SyntheticLogError {
            throw CLIError.usage("pressdb generate: \(e.description)")
        }
        return (c, format)
    }

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let (configuration, format) = try configuration(args)
        let log = try SyntheticLog(configuration)
        let chunk = 1 << 20
        var writer = TouchLogWriter(format: format, capacity: chunk)
        writer.writeHeader()
        try log.forEachRecord { session, index in
            writer.append(session, sample: index)
            if writer.buffer.count >= chunk {
                try writeAll(writer.buffer)
                writer.removeAll()
            }
        }
        try writeAll(writer.buffer)
        return ExitCode.ok
    }

    /// Writes `bytes` to standard output, retrying partial writes and interruptions.
    static func writeAll(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(STDOUT_FILENO, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw CLIError.failure("pressdb generate: cannot write to standard output: \(String(cString: strerror(errno)))")
                }
                offset += n
            }
        }
    }
}
