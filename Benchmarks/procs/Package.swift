// swift-tools-version: 6.1
// Benchmark probe for ProcessSource and Tail (issue 5). Kept out of the root
// package so that `make test` never builds it. Run ./run.sh.
import PackageDescription

let package = Package(
    name: "procs-benchmarks",
    dependencies: [
        .package(name: "rwatch", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "ProcsProbe",
            dependencies: [.product(name: "WatchSources", package: "rwatch")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
