// Progress of long work on standard error — ingest, replay, `config add`'s replay, paired
// compare, generate, demo, sweep, and the press sequences of the frustration report and
// compare's frustration metrics — one line redrawn in place:
//
//     replay  42% ██████████▌              63,000 of 150,000 sessions · 81,200/s · ETA 1 s
//     ingest  9.3 MiB read · 270,336 records · 12.1 MiB/s              (standard input: no total)
//
// Shown only when standard error is a terminal and the command is not --quiet, never on standard
// output; nothing is drawn in the first quarter second, so quick commands print no progress.
import Foundation

/// One progress line. Every command uses this type; what differs is the label, the unit and
/// whether the total is known.
final class Progress: @unchecked Sendable {
    /// What is counted.
    enum Unit {
        /// Sessions (replay): "63,000 of 150,000 sessions".
        case sessions
        /// Bytes of input (ingest): "9.3 of 25.0 MiB".
        case bytes
        /// Work whose amount is unknown until it ends (one SQL statement over every session):
        /// what is being done and the time so far (`whileWorking`).
        case time
    }

    let label: String
    let unit: Unit
    /// The amount of work, when known (a file's size, the sessions to replay).
    var total: Int?
    let enabled: Bool
    private let lock = NSLock()
    private let started = ContinuousClock.now
    private var lastDraw: ContinuousClock.Instant?
    private var drawnColumns = 0
    /// Set by `stop`: a timer's late update draws nothing.
    private var stopped = false

    /// Nothing is drawn before this much time has passed.
    static let delay = Duration.milliseconds(250)
    /// The shortest time between two redraws.
    static let interval = Duration.milliseconds(100)

    /// A progress line labelled `label` (the command: "ingest", "replay"); drawn only when
    /// `enabled` (use `Progress.shown(quiet:)`).
    init(_ label: String, unit: Unit, total: Int? = nil, enabled: Bool) {
        self.label = label
        self.unit = unit
        self.total = total
        self.enabled = enabled
    }

    /// Whether a command shows progress: standard error is a terminal and `--quiet` was not given.
    static func shown(quiet: Bool) -> Bool { !quiet && isatty(STDERR_FILENO) == 1 }

    /// The line on screen, if any: standard output's writes clear it first when both go to a
    /// terminal (`OutputSink`), so the line never mixes into the output.
    nonisolated(unsafe) private(set) static weak var active: Progress?

    /// Reports `done` units of the total, with `detail` after the counts ("270,336 records").
    /// Redraws at most every `interval`.
    func update(_ done: Int, detail: String? = nil) {
        guard enabled else { return }
        lock.withLock {
            let now = ContinuousClock.now
            guard !stopped, now - started >= Self.delay else { return }
            if let lastDraw, now - lastDraw < Self.interval { return }
            lastDraw = now
            Self.active = self
            draw(line(done: done, detail: detail, elapsed: IngestCommand.seconds(now - started)))
        }
    }

    /// `update` for `ReplayOptions.progress`: sessions done of a total the replayer counted.
    @Sendable func replayed(_ done: Int, _ total: Int) { counted(done, of: total) }

    /// `done` of a total known only as the work goes (set under the lock: callers may be on any thread).
    func counted(_ done: Int, of total: Int, detail: String? = nil) {
        lock.withLock { self.total = total }
        update(done, detail: detail)
    }

    /// Removes the line (before the command's summary or an error is printed).
    func clear() {
        guard enabled else { return }
        lock.withLock {
            if drawnColumns > 0 { draw("") }
            drawnColumns = 0
            lastDraw = nil
        }
    }

    /// Runs `body`, showing `what` it does and the time so far on the progress line, redrawn by a
    /// timer (nothing in `body` counts): for one SQL statement that reads every session (the
    /// press sequences of the frustration signals) and returns its first row only at the end.
    /// `body` may `stop` the line itself (when its first output is ready).
    static func whileWorking<T>(_ label: String, _ what: String, enabled: Bool, _ body: (Progress) throws -> T) rethrows -> T {
        let progress = Progress(label, unit: .time, enabled: enabled)
        guard enabled else { return try body(progress) }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(200))
        timer.setEventHandler { progress.update(0, detail: what) }
        timer.resume()
        defer { timer.cancel(); progress.stop() }
        return try body(progress)
    }

    /// Clears the line for good: later updates draw nothing.
    func stop() {
        lock.withLock { stopped = true }
        clear()
    }

    /// The text of the line (without the carriage return), fitted to the terminal's width.
    func line(done: Int, detail: String?, elapsed: Double, width: Int? = nil) -> String {
        let width = width ?? Terminal.width(STDERR_FILENO) ?? Terminal.defaultWidth
        if unit == .time {
            var text = label + " " + ([detail, Self.duration(elapsed)].compactMap { $0 }).joined(separator: " · ")
            if Terminal.columns(text) >= width { text = Terminal.prefix(text, columns: width - 1) }
            return text
        }
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        var parts: [String] = []
        var head = label
        var bar = ""
        if let total, total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            head += String(format: " %3d%%", Int(fraction * 100))
            parts.append(unit == .bytes ? "\(Self.mebibytes(done, digits: 1)) of \(Self.mebibytes(total, digits: 1)) MiB"
                                        : "\(Self.grouped(done)) of \(Self.grouped(total)) sessions")
            bar = Self.bar(fraction, width: min(24, max(0, width / 5)))
            if rate > 0, done < total { parts.append("ETA " + Self.duration(Double(total - done) / rate)) }
        } else {
            parts.append(unit == .bytes ? "\(Self.mebibytes(done, digits: 1)) MiB read" : "\(Self.grouped(done)) session\(done == 1 ? "" : "s")")
        }
        if let detail { parts.append(detail) }
        if rate > 0 {
            parts.insert(unit == .bytes ? "\(Self.mebibytes(Int(rate), digits: 1)) MiB/s" : "\(Self.grouped(Int(rate)))/s",
                         at: min(parts.count, 1))
        }
        var text = head + (bar.isEmpty ? "" : " " + bar) + " " + parts.joined(separator: " · ")
        if Terminal.columns(text) >= width { text = Terminal.prefix(text, columns: width - 1) }
        return text
    }

    private func draw(_ text: String) {
        let columns = Terminal.columns(text)
        let pad = String(repeating: " ", count: max(0, drawnColumns - columns))
        FileHandle.standardError.write(Data(("\r" + text + pad + (text.isEmpty ? "\r" : "")).utf8))
        drawnColumns = columns
    }

    /// A bar of `width` cells, filled to `fraction` in eighths of a cell (Unicode block elements;
    /// `#` under TERM=dumb).
    static func bar(_ fraction: Double, width: Int) -> String {
        guard width > 0 else { return "" }
        if ProcessInfo.processInfo.environment["TERM"] == "dumb" {
            let full = Int((fraction * Double(width)).rounded(.down))
            return "[" + String(repeating: "#", count: full) + String(repeating: " ", count: width - full) + "]"
        }
        let eighths = Int((fraction * Double(width * 8)).rounded(.down))
        let partials = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        var s = String(repeating: "█", count: eighths / 8)
        if eighths / 8 < width { s += partials[eighths % 8] }
        return s + String(repeating: " ", count: max(0, width - Terminal.columns(s)))
    }

    /// 150000 → "150,000".
    static func grouped(_ n: Int) -> String {
        let digits = String(abs(n))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    static func mebibytes(_ bytes: Int, digits: Int) -> String {
        String(format: "%.\(digits)f", Double(bytes) / 1_048_576)
    }

    /// 75 → "1 min 15 s"; 3.2 → "4 s" (rounded up: an estimate, not a promise).
    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min \(s % 60) s" }
        return "\(s / 3600) h \(s % 3600 / 60) min"
    }
}
