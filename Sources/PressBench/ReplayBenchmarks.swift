// Benchmarks of the model alone: `Replay.session` over a fixed set of generated sessions (no
// parsing, no database): the gesture classifier, the scale timeline and the frame sampling.
import PressCore

/// One generated session, ready to replay: samples and attributes as ingest stores them.
private struct ModelSession {
    var samples: [TouchSample]
    var attributes: SessionAttributes
    var configuration: PressConfiguration
}

/// The sessions of `pressdb generate --seed 1` (default arms: spring-press and
/// expand-delayed-click; containers none, scroll, table), the first `count` of them.
private func generatedSessions(_ count: Int) -> [ModelSession] {
    var c = SyntheticLogConfiguration()
    c.sessions = count
    var generator = try! SyntheticSessionGenerator(c)
    var out: [ModelSession] = []
    out.reserveCapacity(count)
    while let s = generator.next() {
        let name = s.attributes.config ?? Replay.defaultConfiguration.name
        out.append(ModelSession(samples: s.samples.map(\.touchSample), attributes: s.attributes,
                                configuration: PressConfiguration.preset(named: name)!))
    }
    return out
}

/// The fixed set: 5,000 sessions, about 52,000 samples.
private let modelSessions = generatedSessions(5_000)

/// Replays `n` sessions of the fixed set, starting over at its end, each under `configuration`
/// (nil: the session's own), on `display`; returns a sum of the results so nothing can be dropped.
private func replay(_ n: Int, as configuration: PressConfiguration?, display: Display = Display()) -> Double {
    let sessions = modelSessions  // generated here even for n = 0, so `--count 0` counts the set-up
    var sum = 0.0
    var i = 0
    // The sessions are read in place (a buffer, not a copy of each session's struct), so that
    // what is counted is the replay.
    sessions.withUnsafeBufferPointer { sessions in
        for _ in 0..<n {
            let r: SessionResult
            if let configuration {
                r = try! Replay.session(sessions[i].samples, attributes: sessions[i].attributes, configuration: configuration,
                                        display: display)
            } else {
                r = try! Replay.session(sessions[i].samples, attributes: sessions[i].attributes,
                                        configuration: sessions[i].configuration, display: display)
            }
            i = i + 1 == sessions.count ? 0 : i + 1
            sum += (r.feedbackLatencyMs ?? 0) + r.durationMs + r.pressDepth + r.releaseJumpPt + (r.actionFired ? 1 : 0)
        }
    }
    return sum
}

/// The model's benchmarks: one operation is one session replayed.
var replayBenchmarks: [Benchmark] { [
    Benchmark(name: "replay", what: "Replay.session, one generated session under its own configuration") { n in
        replay(n, as: nil)
    },
    Benchmark(name: "replay-promotion", what: "Replay.session, one generated session under its own configuration on iphone-promotion (120 Hz)") { n in
        replay(n, as: nil, display: Display(refreshRate: 120, density: 3))
    },
    Benchmark(name: "replay-longpress", what: "Replay.session, one generated session as longpress-safe-area") { n in
        replay(n, as: .longPressSafeArea)
    },
    Benchmark(name: "replay-spring", what: "Replay.session, one generated session as spring-press") { n in
        replay(n, as: .springPress)
    },
    Benchmark(name: "replay-expand", what: "Replay.session, one generated session as expand-delayed-click") { n in
        replay(n, as: .expandDelayedClick)
    },
    Benchmark(name: "replay-styles", what: "Replay.session, one generated session as each of the five press styles in turn") { n in
        replayStyles(n)
    },
] }

/// `replay(n, as:)` with the configuration cycling through the presets after the first three
/// (the press styles apps ship today), one per session.
private func replayStyles(_ n: Int) -> Double {
    let sessions = modelSessions
    let styles = Array(PressConfiguration.presets.dropFirst(3))
    var sum = 0.0
    var i = 0, j = 0
    sessions.withUnsafeBufferPointer { sessions in
        for _ in 0..<n {
            let r = try! Replay.session(sessions[i].samples, attributes: sessions[i].attributes, configuration: styles[j])
            i = i + 1 == sessions.count ? 0 : i + 1
            j = j + 1 == styles.count ? 0 : j + 1
            sum += (r.feedbackLatencyMs ?? 0) + r.durationMs + r.pressDepth + r.releaseJumpPt + (r.actionFired ? 1 : 0)
        }
    }
    return sum
}
