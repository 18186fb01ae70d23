// `pressdb-bench --digest N`: the model's results for N generated sessions, bit for bit, for
// comparing two builds (an optimisation must give main's bits). Not timed. Only public API that
// has not changed in a long time, so that the same file builds against an older checkout.
import Foundation
import PressCore

/// Replays `count` sessions of `pressdb generate --seed 7` with the first three built-in
/// configurations (the reference's, whose bits must not change) as
/// an arm and every named container, each session under each built-in configuration and under
/// its own, on three displays (60 Hz at 3 px/pt, 120 Hz at 3 and 2 px/pt). Writes one line per
/// replay to `path` (the bit patterns of every `SessionResult` field, in hex) and prints a
/// FNV-1a 64 digest of those lines per configuration and in all.
func replayDigest(count: Int, path: String) -> Int32 {
    var c = SyntheticLogConfiguration(sessions: count, seed: 7)
    c.arms = PressConfiguration.presets.prefix(3).map { SyntheticArm(variant: $0.name, config: $0.name) }
    c.containers = Container.named.map { ContainerShare($0) }
    guard var generator = try? SyntheticSessionGenerator(c) else { return 1 }
    let displays = [Display(refreshRate: 60, density: 3), Display(refreshRate: 120, density: 3),
                    Display(refreshRate: 120, density: 2)]
    let configurations: [PressConfiguration?] = Array(PressConfiguration.presets.prefix(3)) + [nil]
    var digests = [UInt64](repeating: 0xcbf29ce484222325, count: configurations.count)
    var all: UInt64 = 0xcbf29ce484222325
    var out = ""
    out.reserveCapacity(1 << 24)
    guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path) else {
        FileHandle.standardError.write(Data("pressdb-bench: cannot write \(path)\n".utf8))
        return 1
    }
    func hex(_ x: Double?) -> String { x.map { String($0.bitPattern, radix: 16) } ?? "nil" }
    var n = 0
    while let s = generator.next() {
        let samples = s.samples.map(\.touchSample)
        for (i, configuration) in configurations.enumerated() {
            let config = configuration ?? PressConfiguration.preset(named: s.attributes.config ?? "")
                ?? Replay.defaultConfiguration
            for display in displays {
                let r = try! Replay.session(samples, attributes: s.attributes, configuration: config, display: display)
                let line = "\(s.id) \(config.name) \(display.refreshRate) \(display.density) \(r.outcome.rawValue) "
                    + "\(r.cancelReason?.rawValue ?? "nil") \(r.actionFired) \(hex(r.feedbackLatencyMs)) "
                    + "\(hex(r.actionLatencyMs)) \(hex(r.durationMs)) \(hex(r.maxTravelPt)) \(hex(r.pressDepth)) "
                    + "\(hex(r.releaseJumpPt))\n"
                for b in line.utf8 {
                    digests[i] = (digests[i] ^ UInt64(b)) &* 0x100000001b3
                    all = (all ^ UInt64(b)) &* 0x100000001b3
                }
                out += line
                n += 1
            }
        }
        if out.utf8.count > 1 << 23 { file.write(Data(out.utf8)); out.removeAll(keepingCapacity: true) }
    }
    file.write(Data(out.utf8))
    file.closeFile()
    for (i, configuration) in configurations.enumerated() {
        print("\(configuration?.name ?? "own"): \(String(digests[i], radix: 16))")
    }
    print("all \(n) replays: \(String(all, radix: 16))")
    return 0
}
