// `pressdb demo`: the whole product on generated data, in one command.
import Foundation
import PressCore
import PressFormats

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "demo",
        abstract: "Generate an A/B log of the built-in presets, ingest, replay and report it.",
        discussion: """
        Generates a synthetic touch log (never real data: see 'pressdb generate --help') of
        20,000 sessions of 1,000 users split over three arms — A: spring-press,
        B: longpress-safe-area, C: expand-delayed-click, or one arm per preset given with
        --presets (A, B, C, … in order; 'pressdb configs' lists them) — each user assigned one arm and keeping
        it, as an app's A/B test assigns users, and each with a finger of their own (how often
        they drag off a button, how long they press); a fifth of the presses likely to fail are
        pressed again ('generate --retry 0.2'), as people do. It ingests the log into a fresh database
        (a temporary file unless --db is given), replays every session, prints the summary
        report, and compares arm B with arm A ('pressdb compare A B': differences are B − A) by
        user: each user is one observation, because a user's presses are alike and only users
        were randomized ('pressdb compare --unit session' would treat every session as
        independent). Then it says where the database is and prints commands to explore it,
        written as they run from where you are. --html FILE also writes what it printed as a
        self-contained HTML page: the summary (charts of the typical tap, feedback latency and
        outcome rates), the comparison (forest plots of the differences with their intervals) and
        the frustration signals (docs/html-report.md).
        """
    )

    @Option(name: "db", value: "PATH", help: "Where to create the demo database (must not exist yet)",
            discussion: "About 37 MB with the log; the demo ends saying how to remove it.",
            defaultDescription: "a new folder under the system temporary directory")
    var database: DatabasePath?
    @Option(value: "N", help: "Sessions to generate", rule: .within(1...Int.max, "must be positive"))
    var sessions = 20_000
    @Option(value: "S", help: "Random seed of the generated log") var seed: UInt64 = 1
    @Option(value: "FILE", help: "Also write the summary, the comparison and the frustration signals as an HTML page to FILE") var html: String?
    @Option(value: "NAME,…", help: "The built-in presets to run as arms A, B, C, … (at least two)",
            defaultDescription: Self.defaultPresets.joined(separator: ","))
    var presets: String?

    /// The demo's arms without --presets: A spring-press, B longpress-safe-area, C expand-delayed-click.
    static let defaultPresets = ["spring-press", "longpress-safe-area", "expand-delayed-click"]

    /// --presets as a list of preset names, checked: at least two, each a built-in preset, none twice.
    func presetNames() throws -> [String] {
        guard let presets else { return Self.defaultPresets }
        let names = presets.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let known = PressConfiguration.presets.map(\.name)
        for n in names where !known.contains(n) {
            throw CLIError.usage("--presets: unknown preset '\(n)'; the built-in presets are "
                                 + known.joined(separator: ", "))
        }
        guard names.count >= 2 else { throw CLIError.usage("--presets needs at least two presets (arms A and B), comma-separated") }
        guard Set(names).count == names.count else { throw CLIError.usage("--presets names a preset twice") }
        guard names.count <= 26 else { throw CLIError.usage("--presets: at most 26 arms (A to Z)") }
        return names
    }
    @Flag(.quiet) var quiet: Bool

    func run() throws -> Int32 {
        let fm = FileManager.default
        let dbPath: String
        var folder: String? = nil  // the temporary folder the demo made, to say how to remove it
        if let p = database?.path {
            guard !fm.fileExists(atPath: p) else {
                throw CLIError.usage("\(p) already exists; the demo needs a fresh database (give a new path, or delete it)")
            }
            dbPath = p
        } else {
            let dir = fm.temporaryDirectory.appendingPathComponent("pressdb-demo-\(ProcessInfo.processInfo.processIdentifier)-\(Int(Date().timeIntervalSince1970))")
            try fm.createDirectory(at: dir, withIntermediateDirectories: true)
            dbPath = dir.appendingPathComponent("demo.sqlite").path
            folder = dir.path
        }
        let logPath = (dbPath as NSString).deletingPathExtension + "-log.ndjson"
        // The log goes beside the database: a file already there is someone's, never replaced.
        guard !fm.fileExists(atPath: logPath), (try? fm.destinationOfSymbolicLink(atPath: logPath)) == nil else {
            throw CLIError.usage("\(logPath) already exists; the demo writes its log there (give another --db path, or move it)")
        }
        func say(_ s: String) { if !quiet { printError(s) } }

        // 1. A synthetic log, written beside the database so it can be looked at.
        let names = try presetNames()
        let arms = names.enumerated().map { "\(Character(UnicodeScalar(UInt8(65 + $0.offset))))=\($0.element)" }
        let started = Date()
        let generate = try GenerateCommand.parsed([
            "--sessions", String(sessions), "--seed", String(seed),
            "--variants", arms.joined(separator: ","),
            "--retry", String(Self.retryProbability),
        ])
        let configuration = try generate.logConfiguration()
        let log = try SyntheticLog(configuration)
        // O_EXCL: created here or not at all, so a file made since the check is not replaced either.
        let fd = open(logPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CLIError.failure("cannot create \(logPath): \(String(cString: strerror(errno)))") }
        let out = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var writer = TouchLogWriter(format: .ndjson, capacity: 1 << 20)
        var records = 0, generated = 0, retries = 0
        let progress = Progress("generate", unit: .sessions, total: sessions, enabled: Progress.shown(quiet: quiet))
        log.forEachRecord { session, index in
            writer.append(session, sample: index)
            records += 1
            // a retry's id ends in 'r' (docs/generator.md); progress counts the regular sessions
            if index == 0 { if session.id.hasSuffix("r") { retries += 1 } else { generated += 1 } }
            if writer.buffer.count >= 1 << 20 {
                out.write(Data(writer.buffer))
                writer.removeAll()
                progress.update(generated)
            }
        }
        out.write(Data(writer.buffer))
        try out.close()
        progress.clear()
        say("demo: generated \(sessions) synthetic sessions and \(retries) retries (\(records) touch records) → \(logPath)")

        // 2. Ingest (which replays), then report.
        let ingest = try IngestCommand.parsed([logPath, "--db", dbPath]).run(summary: false, progress: Progress.shown(quiet: quiet))
        guard ingest == ExitCode.ok else { return ingest }
        say(String(format: "demo: ingested and replayed into %@ in %.1f s", dbPath, Date().timeIntervalSince(started)))
        try emit("Summary per configuration (pressdb report):\n\n")
        let report = try ReportCommand.parsed(["--db", dbPath]).run()
        guard report == ExitCode.ok else { return report }

        // 3. Compare arm B with arm A, by user.
        try emit("""

        Arm B against arm A (pressdb compare A B). The log assigned each user one variant, as an app's
        A/B test does, and a user's presses are alike, so compare analyses users: each user is one
        observation (the unit line below says so; --unit session would count every session as
        independent and overstate the evidence). B runs \(names[1]) and A \(names[0]), two
        presets made to differ, so large effects are real here; compare still flags an effect of 50 %
        or more as a suspicious lift (Twyman's law: check an effect that large before believing it).


        """)
        let compare = try CompareCommand.parsed(["A", "B", "--db", dbPath]).run()
        guard compare == ExitCode.ok else { return compare }
        if let html {
            // The page shows what was printed: the same comparison, and the frustration signals,
            // whose press sequences take seconds (the progress line says so).
            let comparison = try CompareCommand.parsed(["A", "B", "--db", dbPath]).renderer()
            // Per screen, three metrics: six segments of every metric would bury the page.
            let segments = try CompareCommand.parsed(["A", "B", "--db", dbPath, "--segment", "screen",
                                                      "--metric", "tap_rate,cancel_rate,feedback_latency_ms"]).segmentsRenderer()
            let page = try Progress.whileWorking("demo", "the HTML page's frustration signals (press sequences)",
                                                 enabled: Progress.shown(quiet: quiet)) { _ in
                do { return try DemoPage.page(database: dbPath, comparison: comparison, segments: segments, generatedAt: Date()) } catch {
                    throw CLIError.failure("cannot build the HTML page: \(error)")
                }
            }
            try emit(page.render(), to: html, protecting: dbPath)
            try emit("\nThe HTML report is \(html): open it in a browser.\n")
        }

        // Runnable where the user is: after `swift run` pressdb is not on PATH, so an alias to the
        // binary that is running comes first.
        let alias = Self.binaryPath().map { "  alias pressdb=\(Self.shellQuoted($0))\n" } ?? ""
        // The commands stay whole (a wrapped path could not be pasted); the sentence wraps.
        try emit("\n" + TerminalTable.wrap("The database is \(dbPath). Try:", width: Terminal.width()) + """
          export PRESSDB_DB=\(Self.shellQuoted(dbPath))
        \(alias)  pressdb report latency
          pressdb report cancellations --by variant
          pressdb report frustration
          pressdb compare A B --metric frustration
          pressdb compare spring-press longpress-safe-area --paired --where variant=A
          pressdb replay --as expand-delayed-click --quiet
          pressdb report --as expand-delayed-click

        """)
        try emit(Self.cleanUp(folder: folder, database: dbPath, log: logPath))
        return ExitCode.ok
    }

    /// How to remove what the demo wrote, and how much it is: the temporary folder, or the
    /// database and the log beside a `--db` path (with SQLite's -wal and -shm if left).
    static func cleanUp(folder: String?, database: String, log: String) -> String {
        let fm = FileManager.default
        // SQLite's -wal and -shm go when the last connection closes; -f covers either case.
        let files = folder.map { f in (try? fm.contentsOfDirectory(atPath: f))?.map { f + "/" + $0 } ?? [] }
            ?? [database, database + "-wal", database + "-shm", log]
        let bytes = files.reduce(0) { $0 + ((try? fm.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0) }
        let size = "\(Int((Double(bytes) / 1_000_000).rounded())) MB"
        let text = folder.map { "It is in a temporary folder (\(size) with the log); when done: rm -r \(shellQuoted($0))" }
            ?? "The database and the log take \(size); when done: rm -f \(files.map(shellQuoted).joined(separator: " "))"
        return "\n" + TerminalTable.wrap(text, width: Terminal.width(), indent: "  ")
    }

    /// The demo's `generate --retry`: a fifth of the likely failed presses are pressed again, so the
    /// frustration report has retries and rage presses to show (docs/generator.md).
    static let retryProbability = 0.2

    /// The absolute path of the running binary when it was started by a path (`swift run`,
    /// `.build/release/pressdb`); nil when it was found on PATH as `pressdb`. SwiftPM's
    /// `.build/debug` link is preferred to the triple directory it points to.
    static func binaryPath(_ argument0: String = CommandLine.arguments.first ?? "pressdb",
                           currentDirectory: String = FileManager.default.currentDirectoryPath) -> String? {
        guard argument0.contains("/") else { return nil }
        var path = URL(fileURLWithPath: argument0, relativeTo: URL(fileURLWithPath: currentDirectory, isDirectory: true))
            .standardizedFileURL.path
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count >= 4, parts[parts.count - 4] == ".build" {
            let link = (parts.dropLast(3) + parts.suffix(2)).joined(separator: "/")
            let resolved = URL(fileURLWithPath: link).resolvingSymlinksInPath().path
            if resolved == URL(fileURLWithPath: path).resolvingSymlinksInPath().path { path = link }
        }
        return path
    }

    /// `text` as one word for a POSIX shell: unchanged when it holds only safe characters, else in
    /// single quotes.
    static func shellQuoted(_ text: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%")
        if !text.isEmpty, text.allSatisfy(safe.contains) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
