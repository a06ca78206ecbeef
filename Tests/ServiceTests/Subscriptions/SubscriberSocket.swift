import TestSupport
import WatchmanProtocol

/// A test's connection that keeps the unilateral PDUs it reads (while
/// waiting for a reply too), in order, for the test to take.
final class SubscriberSocket {
    let socket: WatchmanSocket
    let encoding: WireEncoding
    private(set) var unilateral: [WatchmanValue] = []
    /// The encoding of each unilateral PDU read, in order.
    private(set) var encodings: [WireEncoding] = []

    init(_ socket: WatchmanSocket, encoding: WireEncoding = .json) {
        self.socket = socket
        self.encoding = encoding
    }

    /// Sends `request`; its reply (unilateral PDUs read meanwhile are kept).
    func call(_ request: WatchmanValue) -> WatchmanValue {
        socket.send(request, encoding)
        while let (value, encoding) = socket.receive() {
            guard value["unilateral"] == .bool(true) else { return ServiceRoot.normalized(value) }
            keep(value, encoding)
        }
        return ["error": "no reply"]
    }

    /// The unilateral PDUs up to and including the first that satisfies
    /// `done` (reading more as needed), taken out; nil when none comes in time.
    func take(until done: (WatchmanValue) -> Bool) -> [WatchmanValue]? {
        while true {
            if let index = unilateral.firstIndex(where: done) {
                defer { unilateral.removeFirst(index + 1) }
                return Array(unilateral[...index])
            }
            guard let (value, encoding) = socket.receive() else { return nil }
            if value["unilateral"] == .bool(true) { keep(value, encoding) }
        }
    }

    private func keep(_ value: WatchmanValue, _ encoding: WireEncoding) {
        unilateral.append(ServiceRoot.normalized(value))
        encodings.append(encoding)
    }

    /// The next PDU of subscription `name` that lists `file`, with the
    /// PDUs before it; nil when none comes in time.
    func take(_ name: String, listing file: String) -> [WatchmanValue]? {
        take { $0["subscription"] == .string(name) && Self.names($0).contains(file) }
    }

    /// The names a result PDU lists.
    static func names(_ pdu: WatchmanValue) -> [String] {
        (pdu["files"]?.elements ?? []).compactMap { ($0["name"] ?? $0).text }.sorted()
    }
}
