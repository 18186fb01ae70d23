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
        // SQLite: connection, statements, migrations, ingest writer, queries.
        .target(
            name: "PressStore",
            dependencies: ["CSQLite", "CLinux", "PressCore", "PressFormats", "PressStats"],
            plugins: ["EmbedSQL"]
        ),
        // The command-line tool.
        .executableTarget(
            name: "pressdb",
            dependencies: ["PressCore", "PressFormats", "PressStats", "PressCharts", "PressStore"]
        ),

        // Benchmarks (not tests): `swift run -c release pressdb-bench [NAME]`.
        .executableTarget(
            name: "pressdb-bench", dependencies: ["PressCore", "PressFormats", "PressStats", "PressStore"],
            path: "Sources/PressBench"
        ),

        // What several test targets share: running a process (the binary, sqlite3, a headless
        // browser) and finding the shared recordings. Only test targets depend on it.
        .target(name: "PressTestSupport", path: "Tests/PressTestSupport"),

        .testTarget(name: "PressCoreTests", dependencies: ["PressCore"]),
        .testTarget(name: "PressFormatsTests", dependencies: ["PressFormats", "PressCore", "PressTestSupport"]),
        .testTarget(name: "PressStatsTests", dependencies: ["PressStats", "PressCore"]),
        .testTarget(name: "PressChartsTests", dependencies: ["PressCharts", "PressTestSupport"]),
        .testTarget(name: "PressStoreTests", dependencies: ["PressStore", "PressCore", "PressFormats", "CSQLite"]),
        .testTarget(name: "PressRecorderTests", dependencies: ["PressRecorder", "PressCore", "PressFormats"]),
        .testTarget(name: "pressdbTests", dependencies: ["pressdb", "PressStore", "PressCore", "PressRecorder", "PressTestSupport"]),
    ]
)
