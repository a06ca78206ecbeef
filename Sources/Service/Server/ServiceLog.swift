import Glibc
import Signals
import WatchSources
import WatchmanProtocol

/// The service's log: lines for the log file (or stderr), and the same
/// lines as unilateral `log` PDUs for every client that asked for them
/// with `log-level`.
public final class ServiceLog: Sendable {
    /// Watchman's log levels, as `log-level` and `log` name them.
    public enum Level: String, Sendable, CaseIterable {
        case debug, error, off

        /// Whether a client listening at `self` receives a line of `level`.
        func includes(_ level: Level) -> Bool {
            switch self {
            case .debug: level != .off
            case .error: level == .error
            case .off: false
            }
        }
    }

    /// Where lines go: a file descriptor opened for appending, or stderr.
    private let fd: Int32
    private let listeners = Locked<[Int: (client: ServiceClient, level: Level)]>([:])
    /// The level of lines written to the file; `error` unless configured.
    private let fileLevel: Level

    init(fd: Int32, fileLevel: Level = .error) {
        self.fd = fd
        self.fileLevel = fileLevel
    }

    /// Logs `text` at `level`: to the file when its level includes it, and
    /// to every listening client whose level includes it.
    public func log(_ level: Level, _ text: String) {
        guard level != .off else { return }
        let line = Self.timestamp() + ": [rwatch] " + text + (text.hasSuffix("\n") ? "" : "\n")
        if fileLevel.includes(level) {
            var bytes = Array(line.utf8)
            bytes.withUnsafeMutableBytes { _ = write(fd, $0.baseAddress, $0.count) }
        }
        let clients = listeners.withLock { $0.values.filter { $0.level.includes(level) }.map(\.client) }
        for client in clients {
            client.push(["log": .string(line), "unilateral": true, "level": .string(level.rawValue)])
        }
    }

    /// The log's file descriptor: where trigger commands write by default.
    var descriptor: Int32 { fd }

    /// Sends later lines of `level` (and above) to `client`; `off` stops them.
    public func listen(_ client: ServiceClient, at level: Level) {
        let first = listeners.withLock { listeners -> Bool in
            defer { listeners[client.id] = level == .off ? nil : (client, level) }
            return listeners[client.id] == nil && level != .off
        }
        if first {
            client.onClose { [weak self] in self?.listeners.withLock { _ = $0.removeValue(forKey: client.id) } }
        }
    }

    /// `2026-11-26T14:03:05,123`, local time, as watchman stamps its lines.
    static func timestamp() -> String {
        LocalTime.stamp("%Y-%m-%dT%H:%M:%S", millisecondsAfter: ",")
    }
}
