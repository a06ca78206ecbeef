/// The bytes waiting to be written to one client, oldest first, and what
/// else other threads may know of the connection. Kept under the
/// `ServiceClient`'s lock; only the server's loop takes bytes out.
import WatchmanProtocol

struct Outbox {
    private var chunks: [[UInt8]] = []
    /// Index of the oldest chunk still (partly) waiting.
    private var head = 0
    /// Bytes of `chunks[head]` written already.
    private var offset = 0
    /// Bytes waiting in all, counting only what is not written yet.
    private(set) var queuedBytes = 0
    /// The encoding of the client's latest request: pushes use it.
    var encoding: WireEncoding = .json
    var isClosed = false
    var closeHandlers: [@Sendable () -> Void] = []

    /// Queues one encoded PDU.
    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        chunks.append(bytes)
        queuedBytes += bytes.count
    }

    /// The oldest waiting chunk and how much of it was written already.
    var front: (chunk: [UInt8], offset: Int)? {
        head < chunks.count ? (chunks[head], offset) : nil
    }

    /// Notes that `count` bytes of the front chunk were written.
    mutating func consumed(_ count: Int) {
        queuedBytes -= count
        offset += count
        if offset == chunks[head].count {
            chunks[head] = []
            head += 1
            offset = 0
            if head == chunks.count {
                chunks.removeAll(keepingCapacity: chunks.count <= 64)
                head = 0
            } else if head >= 64 && head * 2 >= chunks.count {
                chunks.removeFirst(head)
                head = 0
            }
        }
    }

    /// Forgets everything waiting (the client has gone).
    mutating func drop() {
        chunks = []
        head = 0
        offset = 0
        queuedBytes = 0
    }
}
