// swift-tools-version: 6.0
// The demo package `make run` rebuilds on every save: edit Sources/Demo/main.swift.
import PackageDescription

let package = Package(
    name: "Demo",
    targets: [.executableTarget(name: "Demo")]
)
