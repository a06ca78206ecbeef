// swift-tools-version: 6.1
// Benchmarks for Signals on ordo-one/benchmark, apart from the library so
// that `make test` never builds them. Every shape runs side by side with
// OpenCombine (where it has the operator) and a hand-written closure floor.
//
//     make bench                                   # thresholds check: fails on a regression
//     swift package --package-path Benchmarks/Signals benchmark
//     swift package --package-path Benchmarks/Signals benchmark --filter 'SubjectPumping:.*'
import PackageDescription

let package = Package(
    name: "SignalsBenchmarks",
    dependencies: [
        .package(name: "rwatch", path: "../.."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        // The malloc interposer counts allocations; the default traits would
        // also pull in a runtime interposer this machine's mirror lacks.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "SignalsBenchmarks",
            dependencies: [
                .product(name: "Signals", package: "rwatch"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/SignalsBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
