// Save this file while `make run` is running: rwatch rebuilds and tests the demo.
public func greeting(for name: String) -> String {
    "Hello, \(name)!"
}
