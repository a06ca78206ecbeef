// swift-tools-version: 6.1
// A package of your own that uses rwatch's libraries: Signals (the reactive
// core) and WatchSources (files, processes, tail, timers as signals).
//
//     swift run WatchDirectory Sources     # one line per change, Ctrl-C to stop
//
// A version requirement, as a published dependency is named: SwiftPM refuses
// a package that builds with unsafe flags when it is required by version.
// `make example` in the rwatch repository builds this package against a
// local clone (the URL below rewritten to file:// of the clone, whose HEAD
// is tagged with the version asked for).
import PackageDescription

let package = Package(
    name: "WatchDirectory",
    dependencies: [
        .package(url: "https://github.com/rwatch/rwatch.git", from: "0.1.0"),
    ],
    targets: [
        .executableTarget(
            name: "WatchDirectory",
            dependencies: [
                .product(name: "Signals", package: "rwatch"),
                .product(name: "WatchSources", package: "rwatch"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
