// swift-tools-version: 6.1
// libFuzzer harnesses for every parser of user input, apart from the root
// package so that `swift build` and `make test` never build them. One
// executable per parser; `make fuzz` builds them in release with
// `-sanitize=fuzzer,address -enable-testing` in .build-fuzz and runs each.
// The library's parsers are reached with `@testable import WatchSources`:
// they stay `package` or internal rather than widening the library's API
// for a test. The command line's own parsers (durations, signal names, env
// files) live in the rwatch executable, which nothing can link: their
// harnesses compile the parser's source file itself, a symbolic link to it
// (FuzzDuration/DurationParser.swift → Sources/rwatch/Parsing/…).
import Foundation
import PackageDescription

// A path dependency's identity is its directory's name (the worktree's, here).
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../..").standardizedFileURL

let harnesses = ["FuzzGlob", "FuzzGitignore", "FuzzDuration", "FuzzSignal", "FuzzLinePattern", "FuzzDotEnv"]
// Harnesses of watchman's wire encodings, against the WatchmanProtocol product.
let wireHarnesses = ["FuzzBSER", "FuzzJSONLines"]
// Harnesses of the service's query parser, against the Service product.
let serviceHarnesses = ["FuzzQuery"]

let package = Package(
    name: "rwatch-fuzz",
    dependencies: [.package(path: "../..")],
    targets: [
        // libFuzzer's LLVMFuzzerRunDriver, declared for Swift.
        .target(name: "CFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzer"], swiftSettings: [.swiftLanguageMode(.v6)]),
    ] + harnesses.map { name in
        .executableTarget(
            name: name,
            dependencies: ["FuzzSupport", .product(name: "WatchSources", package: root.lastPathComponent)],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    } + wireHarnesses.map { name in
        .executableTarget(
            name: name,
            dependencies: ["FuzzSupport", .product(name: "WatchmanProtocol", package: root.lastPathComponent)],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    } + serviceHarnesses.map { name in
        .executableTarget(
            name: name,
            dependencies: ["FuzzSupport", .product(name: "WatchmanProtocol", package: root.lastPathComponent),
                           .product(name: "Service", package: root.lastPathComponent)],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    }
)
