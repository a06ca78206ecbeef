// swift-tools-version: 6.0
// The demo package `make run` rebuilds on every save: edit Sources/Greeting/Greeting.swift.
import PackageDescription

let package = Package(
    name: "Demo",
    targets: [
        .target(name: "Greeting"),
        .executableTarget(name: "Demo", dependencies: ["Greeting"]),
        .testTarget(name: "GreetingTests", dependencies: ["Greeting"]),
    ]
)
