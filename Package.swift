// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "rwatch",
    products: [
        .executable(name: "rwatch", targets: ["rwatch"]),
        .library(name: "Signals", targets: ["Signals"]),
        .library(name: "WatchSources", targets: ["WatchSources"]),
        // Watchman's wire encodings, for clients of `rwatch serve` (and the fuzzers).
        .library(name: "WatchmanProtocol", targets: ["WatchmanProtocol"]),
        // The service itself, for the query parser's fuzzer (Fuzz/Harnesses).
        .library(name: "Service", targets: ["Service"]),
        // Dynamic so that compiled recipes link against one shared copy. It
        // holds RecipeTesting too (a recipe on virtual time, for the tests
        // `rwatch test` compiles): a library of its own would carry a second
        // copy of RecipeKit, whose world a test could never hand to the recipe.
        .library(name: "RecipeKit", type: .dynamic, targets: ["RecipeKit", "RecipeTesting"]),
        // RecipeTesting for packages that test recipes with `swift test`.
        .library(name: "RecipeTesting", targets: ["RecipeTesting"]),
    ],
    dependencies: [
        // 1.8.0: `@Option(defaultAsFlag:)`, for `--poll[=INTERVAL]`.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        // FilePath: paths are bytes, not text.
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // The reactive core: standard library, Synchronization, Dispatch and Glibc only.
        .target(name: "Signals", swiftSettings: strict),
        // glibc functions Swift's Glibc module hides (pipe2, memmem, memrchr,
        // posix_spawn_file_actions_add{chdir,closefrom}_np):
        // shims.c and spawn.c are compiled with _GNU_SOURCE.
        .target(name: "CGlibcShims"),
        // PCRE2's 8-bit library, for the service's `pcre` and `ipcre` terms:
        // it matches bytes (no UTF mode), as file names are.
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"])]
        ),
        // The commit and toolchain a build records (`rwatch --version`, the
        // recipe toolchain check), from a header the Makefile writes.
        .target(name: "CBuildInfo"),
        .target(
            name: "WatchSources",
            dependencies: ["Signals", "CGlibcShims", "WatchmanProtocol", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strict
        ),
        .target(
            name: "RecipeKit",
            dependencies: ["Signals", "WatchSources", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strict
        ),
        .target(
            name: "RecipeTesting",
            dependencies: ["RecipeKit", "Signals", "WatchSources", "WatchmanProtocol", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strict
        ),
        // Watchman's data model and its two wire encodings (JSON lines, BSER):
        // pure functions over bytes, no I/O, fuzzed on their own.
        .target(name: "WatchmanProtocol", swiftSettings: strict),
        // `rwatch serve`: a watchman-compatible service, a client of
        // FileWatcher as RecipeKit is.
        .target(
            name: "Service",
            dependencies: ["WatchmanProtocol", "Signals", "WatchSources", "CPCRE2", "CGlibcShims", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "rwatch",
            dependencies: [
                "RecipeKit",
                "Service",
                "CBuildInfo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The lean release binary (Swift runtime linked in) is built by
            // `make release`, which passes the static-link flags on the
            // command line: flags in a manifest would make this package
            // unusable as a dependency.
            swiftSettings: strict
        ),
        // Test helper only (not a product): a process running ProcessSupervisor,
        // for WatchSourcesTests to send SIGTERM to.
        .executableTarget(
            name: "ProcessProbe",
            dependencies: ["WatchSources", "Signals", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strict
        ),
        // What every test target shares: waiting on a condition with a
        // deadline, temporary directories, marble diagrams on virtual time.
        .target(name: "TestSupport", dependencies: ["Signals", "CGlibcShims", "WatchmanProtocol"], path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "SignalsTests", dependencies: ["Signals", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "WatchSourcesTests", dependencies: ["WatchSources", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "RecipeKitTests", dependencies: ["RecipeKit", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "RecipeTestingTests", dependencies: ["RecipeTesting", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "WatchmanProtocolTests", dependencies: ["WatchmanProtocol", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "ServiceTests", dependencies: ["Service", "WatchSources", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "rwatchTests", dependencies: ["rwatch", "TestSupport"], swiftSettings: strict),
    ]
)
