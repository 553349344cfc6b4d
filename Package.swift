// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "navlog",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "NavLog", targets: ["NavLogCore", "NavLogStore"]),
        .executable(name: "navlog", targets: ["navlog"]),
        .executable(name: "navlog-serve", targets: ["navlog-serve"]),
        .library(name: "NavLogRecorder", targets: ["NavLogRecorder"]),
        .library(name: "NavLogServer", targets: ["NavLogServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"]), .brew(["lz4"])]
        ),
        // zlib: deflate for gzip exports (`export --output DIR`), inflate for gzip uploads (`serve`); macOS ships it.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // Pure core: events, route values, state, projection, screens. No I/O.
        .target(name: "NavLogCore"),
        // Synthetic sessions for `navlog generate`, tests and benchmarks; not in the NavLog product.
        .target(name: "NavLogSample", dependencies: ["NavLogCore"]),
        // Storage: the .navlog format on liblz4's frame API.
        .target(name: "NavLogStore", dependencies: ["NavLogCore", "CLZ4", "CZlib"]),
        // Recording from an app: a background-writer recorder on LogWriter.
        .target(name: "NavLogRecorder", dependencies: ["NavLogCore", "NavLogStore"]),
        // What the libFuzzer harnesses (Fuzz/, tools/fuzz) and the fuzz regression tests call; in no product.
        .target(name: "NavLogFuzzEntry", dependencies: ["NavLogCore", "NavLogStore"]),
        // The collector (`navlog serve`): HTTP upload and read API on Hummingbird, writing through NavLogStore.
        .target(
            name: "NavLogServer",
            dependencies: [
                "NavLogCore", "NavLogStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The browser viewer's HTML, CSS and JavaScript modules, installed beside the executable (ViewerAssets).
            resources: [.copy("Viewer/Assets")]
        ),
        // The collector's command line (options and help), shared by `navlog serve` and `navlog-serve`.
        .target(name: "NavLogServeCommand", dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // The collector's program, which `navlog serve` runs in its own place (execv): Hummingbird and NIO
        // live here only, so that they cost no other command its start-up. Installed beside `navlog`.
        .executableTarget(
            name: "navlog-serve",
            dependencies: [
                "NavLogCore", "NavLogStore", "NavLogServer", "NavLogServeCommand",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // For tests and the bench: temporary directories, a process runner, seeded numbers; in no product.
        .target(name: "NavLogTestSupport", dependencies: ["NavLogCore", "NavLogStore", "NavLogSample"]),
        // Test helper: records, flushes, prints the flushed seq, waits to be killed.
        .executableTarget(name: "navlog-recorder-probe", dependencies: ["NavLogCore", "NavLogRecorder"]),
        // The command-line tool: parses arguments, calls the library, prints (`serve` runs navlog-serve).
        .executableTarget(
            name: "navlog",
            dependencies: [
                "NavLogCore", "NavLogStore", "NavLogSample", "NavLogServeCommand",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Benchmarks (not tests): `swift run -c release navlog-bench`.
        .executableTarget(name: "navlog-bench", dependencies: ["NavLogCore", "NavLogStore", "NavLogSample", "NavLogRecorder", "NavLogTestSupport", "CLZ4", "CZlib"]),
        // Soak test (not a unit test): `tools/soak`.
        .executableTarget(name: "navlog-soak", dependencies: ["NavLogCore", "NavLogStore", "NavLogSample"]),
        .testTarget(name: "NavLogCoreTests", dependencies: ["NavLogCore", "NavLogSample", "NavLogTestSupport"]),
        .testTarget(name: "NavLogStoreTests", dependencies: ["NavLogCore", "NavLogStore", "NavLogSample", "NavLogFuzzEntry", "NavLogTestSupport"]),
        .testTarget(name: "NavLogCLITests", dependencies: ["navlog", "navlog-serve", "NavLogCore", "NavLogStore", "NavLogSample", "NavLogRecorder", "NavLogTestSupport"]),
        .testTarget(name: "NavLogRecorderTests",
                    dependencies: ["NavLogCore", "NavLogStore", "NavLogRecorder", "NavLogTestSupport", "navlog-recorder-probe", "navlog", "navlog-serve"]),
    ],
    swiftLanguageModes: [.v6]
)
