// swift-tools-version: 6.1
// The file-events benchmark probe, kept out of the root package so that
// `make test` never builds it. Build: swift build -c release --package-path Benchmarks/files
import Foundation
import PackageDescription

// A path dependency's identity is its directory's name (the worktree's, here).
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../..").standardizedFileURL

let package = Package(
    name: "files-benchmark",
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "files-probe",
            dependencies: [.product(name: "WatchSources", package: root.lastPathComponent)],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
