// swift-tools-version: 6.1
// Benchmarks for Signals, apart from the library so that `make test` never
// builds them. Run: swift run -c release --package-path Benchmarks/Signals
import PackageDescription

let package = Package(
    name: "SignalsBenchmarks",
    dependencies: [
        .package(name: "rwatch", path: "../.."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        // Counts malloc calls by interposing glibc's allocator.
        .target(name: "MallocCounter"),
        .executableTarget(
            name: "SignalsBenchmarks",
            dependencies: [
                .product(name: "Signals", package: "rwatch"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                "MallocCounter",
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
