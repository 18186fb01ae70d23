// `pressdb demo`: the whole product on generated data, in one command.
import Foundation
import PressCore
import PressFormats

enum DemoCommand: PressCommand {
    static let spec = CommandSpec(
        name: "demo",
        abstract: "Generate an A/B log of the built-in presets, ingest, replay and report it.",
        discussion: """
        Generates a synthetic touch log (never real data: see 'pressdb generate --help') of
        20,000 sessions split over three arms — A: spring-press, B: longpress-safe-area,
        C: expand-delayed-click — ingests it into a fresh database (a temporary file unless
        --db is given), replays every session, prints the summary report, and compares arm A
        with arm B. Then it says where the database is, so you can explore it with the other
        commands. --html FILE also writes the summary as a self-contained HTML page (charts of
        the typical tap, feedback latency and outcome rates; docs/html-report.md).
        """,
        options: [
            .option("db", "PATH", help: "Where to create the demo database (must not exist yet).\nDefault: a new temporary folder."),
            .option("sessions", "N", help: "Sessions to generate (default 20000)."),
            .option("seed", "S", help: "Random seed of the generated log (default 1)."),
            .option("html", "FILE", help: "Also write the summary report as an HTML page to FILE."),
            CommonOptions.quiet,
        ])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let quiet = args.flag("quiet")
        let sessions = try args.int("sessions") ?? 20_000
        guard sessions > 0 else { throw CLIError.usage("pressdb demo: --sessions must be positive") }
        let seed = args.string("seed") ?? "1"
        let fm = FileManager.default
        let dbPath: String
        if let p = args.string("db") {
            guard !fm.fileExists(atPath: p) else {
                throw CLIError.usage("pressdb demo: \(p) already exists; the demo needs a fresh database (give a new path, or delete it)")
            }
            dbPath = p
        } else {
            let dir = fm.temporaryDirectory.appendingPathComponent("pressdb-demo-\(ProcessInfo.processInfo.processIdentifier)-\(Int(Date().timeIntervalSince1970))")
            try fm.createDirectory(at: dir, withIntermediateDirectories: true)
            dbPath = dir.appendingPathComponent("demo.sqlite").path
        }
        let logPath = (dbPath as NSString).deletingPathExtension + "-log.ndjson"
        func say(_ s: String) { if !quiet { printError(s) } }

        // 1. A synthetic log, written beside the database so it can be looked at.
        let started = Date()
        let generate = try GenerateCommand.spec.parse([
            "--sessions", String(sessions), "--seed", seed,
            "--variants", "A=spring-press,B=longpress-safe-area,C=expand-delayed-click",
        ])
        let (configuration, _) = try GenerateCommand.configuration(generate)
        let log = try SyntheticLog(configuration)
        guard fm.createFile(atPath: logPath, contents: nil), let out = FileHandle(forWritingAtPath: logPath) else {
            throw CLIError.failure("pressdb demo: cannot write \(logPath)")
        }
        var writer = TouchLogWriter(format: .ndjson, capacity: 1 << 20)
        var records = 0
        log.forEachRecord { session, index in
            writer.append(session, sample: index)
            records += 1
            if writer.buffer.count >= 1 << 20 { out.write(Data(writer.buffer)); writer.removeAll() }
        }
        out.write(Data(writer.buffer))
        try out.close()
        say("demo: generated \(sessions) synthetic sessions (\(records) touch records) → \(logPath)")

        // 2. Ingest (which replays), then report.
        let ingest = try IngestCommand.run(try IngestCommand.spec.parse([logPath, "--db", dbPath, "--quiet"]))
        guard ingest == ExitCode.ok else { return ingest }
        say(String(format: "demo: ingested and replayed into %@ in %.1f s", dbPath, Date().timeIntervalSince(started)))
        try emit("Summary per configuration (pressdb report):\n\n")
        let report = try ReportCommand.run(try ReportCommand.spec.parse(["--db", dbPath]))
        guard report == ExitCode.ok else { return report }
        if let html = args.string("html") {
            let page = try ReportCommand.run(try ReportCommand.spec.parse(["--db", dbPath, "--format", "html", "--out", html]))
            guard page == ExitCode.ok else { return page }
            say("demo: wrote the HTML report to \(html)")
        }

        if let html = args.string("html") { try emit("\nThe HTML report is \(html): open it in a browser.\n") }
        try emit("""

        The database is \(dbPath). Try:
          pressdb report latency --db \(dbPath)
          pressdb report cancellations --db \(dbPath) --by variant
          pressdb replay --db \(dbPath) --as expand-delayed-click --quiet && pressdb report --db \(dbPath) --as expand-delayed-click

        """)
        return ExitCode.ok
    }
}
