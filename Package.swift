// swift-tools-version:6.0
// pressdb — records button-press touch sessions, replays them through a model of UIKit's press
// handling and Core Animation's springs, and reports cancellations and perceived latency.
import PackageDescription

let package = Package(
    name: "pressdb",
    products: [
        .executable(name: "pressdb", targets: ["pressdb"]),
        // For iOS apps: touches on controls → pressdb's NDJSON (docs/recording.md).
        .library(name: "PressRecorder", targets: ["PressRecorder"]),
    ],
    targets: [
        // The system's libsqlite3 (Debian: libsqlite3-dev).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The system's libyaml (Debian: libyaml-dev), for `libinput record` YAML recordings.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // glibc's libm extensions (`sincos`) that Swift's Glibc module does not declare.
        .systemLibrary(name: "CLibm", path: "Sources/CLibm"),
        // Linux's GNU extensions (`sync_file_range`) that Swift's Glibc module does not declare.
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        // Build-time tool and plugin that embed migrations/*.sql and reports/*.sql into the binary.
        .executableTarget(name: "EmbedSQLTool"),
        .plugin(name: "EmbedSQL", capability: .buildTool(), dependencies: ["EmbedSQLTool"]),

        // The pure model: touches, springs, curves, timeline, gesture rules, classification, latency.
        .target(name: "PressCore", dependencies: ["CLibm"]),
        // Log formats: NDJSON, CSV, getevent, evemu, evtest, libinput record, layouts → records.
        .target(name: "PressFormats", dependencies: ["PressCore", "CYAML"]),
        // Statistics: intervals, tests, distributions (PressCore for its seeded SplitMix64, which
        // drives the bootstrap).
        .target(name: "PressStats", dependencies: ["PressCore"]),
        // The recorder an iOS app links: touches on controls → pressdb's NDJSON, rotated files;
        // its UIKit/SwiftUI layer is compiled only where UIKit is.
        .target(name: "PressRecorder", dependencies: ["PressCore"]),
        // SVG charts for HTML reports.
        .target(name: "PressCharts"),
        // SQLite's C API as Swift: connection, statements, errors, pragma scopes, a commit and
        // rollback observer hook. Nothing of pressdb's tables.
        .target(name: "PressSQLite", dependencies: ["CSQLite"]),
        // pressdb's database: schema and migrations, the tables, the summary cells (a commit
        // observer), the configuration catalog, stored sweeps.
        .target(
            name: "PressStore",
            dependencies: ["PressSQLite", "CSQLite", "PressCore", "PressFormats", "PressStats"],
            plugins: ["EmbedSQL"]
        ),
        // Ingest and replay: the ingest loop, its rules and sinks (database, stream); pipeline/
        // (read-ahead, replay worker, queues, locks); durability/ (checkpoints, WAL write-back).
        .target(
            name: "PressIngest",
            dependencies: ["PressSQLite", "PressStore", "CSQLite", "CLinux", "PressCore", "PressFormats"]
        ),
        // Analyses over stored or streamed results: reports, comparisons, sweeps, partials.
        .target(
            name: "PressAnalysis",
            dependencies: ["PressSQLite", "PressStore", "PressIngest", "CSQLite", "PressCore", "PressFormats",
                           "PressStats"]
        ),
        // The command-line tool.
        .executableTarget(
            name: "pressdb",
            dependencies: ["PressCore", "PressFormats", "PressStats", "PressCharts", "PressSQLite", "PressStore",
                           "PressIngest", "PressAnalysis"]
        ),

        // Benchmarks (not tests): `swift run -c release pressdb-bench [NAME]`.
        .executableTarget(
            name: "pressdb-bench",
            dependencies: ["PressCore", "PressFormats", "PressStats", "PressSQLite", "PressStore", "PressIngest"],
            path: "Sources/PressBench"
        ),

        // What several test targets share: running a process (the binary, sqlite3, a headless
        // browser) and finding the shared recordings. Only test targets depend on it.
        .target(name: "PressTestSupport", path: "Tests/PressTestSupport"),

        .testTarget(name: "PressCoreTests", dependencies: ["PressCore"]),
        .testTarget(name: "PressFormatsTests", dependencies: ["PressFormats", "PressCore", "PressTestSupport"]),
        .testTarget(name: "PressStatsTests", dependencies: ["PressStats", "PressCore"]),
        .testTarget(name: "PressChartsTests", dependencies: ["PressCharts", "PressTestSupport"]),
        .testTarget(name: "PressStoreTests", dependencies: ["PressSQLite", "PressStore", "PressIngest", "PressAnalysis",
                                                           "PressCore", "PressFormats", "CSQLite"]),
        .testTarget(name: "PressRecorderTests", dependencies: ["PressRecorder", "PressCore", "PressFormats"]),
        .testTarget(name: "pressdbTests", dependencies: ["pressdb", "PressSQLite", "PressStore", "PressIngest",
                                                         "PressAnalysis", "PressCore", "PressRecorder", "PressTestSupport"]),
    ]
)
