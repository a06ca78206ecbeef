import Glibc
import Service
import TestSupport
import WatchmanProtocol

/// A running service with the root commands, one connection to it, and a
/// temporary tree: what the root tests talk to.
final class ServiceRoot {
    let running: RunningServer
    let socket: WatchmanSocket
    let tree = TemporaryDirectory(prefix: "rwatch-root")
    let encoding: WireEncoding

    init(environment: [String: String] = [:], encoding: WireEncoding = .json, queueLimit: Int? = nil,
         statefile: String? = nil, housekeeping: Duration = .seconds(10)) throws {
        let roots = RootCommands(environment: environment, housekeeping: housekeeping)
        let subscriptions = SubscriptionCommands(roots)
        running = try RunningServer([TriggerCommands(subscriptions), subscriptions, roots], queueLimit: queueLimit, statefile: statefile)
        socket = running.connect()
        self.encoding = encoding
    }

    /// The root's path as the service names it (`/tmp` may be a symlink).
    var root: String {
        guard let resolved = realpath(tree.path, nil) else { return tree.path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The reply, with names that are valid UTF-8 as text (JSON gives
    /// them so; BSER v1 as bytes), so tests compare with literals.
    func call(_ request: WatchmanValue) -> WatchmanValue {
        Self.normalized(socket.request(request, encoding) ?? ["error": "no reply"])
    }

    static func normalized(_ value: WatchmanValue) -> WatchmanValue {
        switch value {
        case .bytes(let bytes): String(validating: bytes, as: UTF8.self).map { .string($0) } ?? value
        case .array(let elements): .array(elements.map(normalized))
        case .object(let pairs): .object(pairs.map { (key: $0.key, value: normalized($0.value)) })
        default: value
        }
    }

    /// Watches the tree, failing the test if the service refuses.
    @discardableResult
    func watch() -> WatchmanValue { call(["watch", .string(root)]) }

    /// The names a query reports (sorted), with `sync_timeout` unless given.
    func names(_ query: [(key: String, value: WatchmanValue)] = []) -> [String] {
        let reply = call(["query", .string(root), .object([("fields", ["name"])] + query)])
        return (reply["files"]?.elements ?? []).compactMap { $0.stringBytes.map { String(decoding: $0, as: UTF8.self) } }.sorted()
    }

    func mkdir(_ relative: String) { Glibc.mkdir(tree.file(relative), 0o755) }
    func write(_ relative: String, _ text: String = "") { tree.write(relative, text) }
    func remove(_ relative: String) { unlink(tree.file(relative)) }

    deinit {
        running.stop()
        tree.remove()
    }
}
