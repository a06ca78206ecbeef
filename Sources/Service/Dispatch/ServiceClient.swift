import Glibc
import Synchronization
import Signals
import WatchSources
import WatchmanProtocol

/// One connected client, as handlers and other threads see it: who it is,
/// and a queue of PDUs for it that any thread may add to.
///
/// The socket belongs to the server's loop thread, which reads it, closes
/// it and writes what waits in the queue; this object holds what other
/// threads may touch (the outgoing queue, the encoding of the client's
/// latest request, whether it is still connected), under one lock. A PDU
/// queued with nothing waiting before it is written at once by the thread
/// that made it, under that lock, without waiting (what the socket does
/// not take waits for the loop): a reply reaches its client without a
/// hop through the loop. Safe to keep after the client has gone: a push
/// then reports `.disconnected`.
public final class ServiceClient: Sendable {
    /// Unique within one run of the service, from 1.
    public let id: Int
    /// The peer's process, user and group, from `SO_PEERCRED`.
    public let peer: PeerCredentials
    /// How many bytes may wait for this client before `push` refuses more.
    public let queueLimit: Int

    private let outbox: Locked<Outbox>
    /// `outbox`'s `queuedBytes`, stored after each change under its lock:
    /// the loop looks at every client on each turn, and must not wait for
    /// a lock a worker holds while it writes.
    private let waiting = Atomic<Int>(0)
    /// The connection's socket: written to here only under `outbox`'s
    /// lock while the client is not closed (the loop marks it closed,
    /// under that lock, before it closes the descriptor).
    private let socket: Int32
    /// Wakes the server's loop so that it writes what was queued.
    private let wake: @Sendable () -> Void
    private let owner = Atomic<Bool>(true)

    init(id: Int, peer: PeerCredentials, socket: Int32, queueLimit: Int, wake: @escaping @Sendable () -> Void) {
        self.id = id
        self.peer = peer
        self.socket = socket
        self.queueLimit = queueLimit
        self.wake = wake
        outbox = Locked(Outbox())
    }

    /// Whether this client may change the service: add or delete watches,
    /// register triggers, assert states, shut it down. Others may only look
    /// (watchman's rule for peers that are not its owner). A client of
    /// the service's own user starts as owner (another user's, admitted by
    /// `sock_access`, never is); `debug-drop-privs` gives that up, to try
    /// what others may do.
    public var isOwner: Bool { owner.load(ordering: .acquiring) }

    /// Makes this client one that may only look, for the rest of its
    /// connection.
    public func dropPrivileges() { owner.store(false, ordering: .releasing) }

    /// What became of a pushed PDU.
    public enum PushOutcome: Sendable, Equatable {
        /// Queued behind what was already waiting; it goes out in order.
        case queued
        /// Not queued: `queuedBytes` were already waiting, at or past
        /// `queueLimit`. The client reads too slowly; what follows is the
        /// caller's policy (a subscription tells the client it was cancelled).
        case overLimit(queuedBytes: Int)
        /// Not queued: the client has gone.
        case disconnected
    }

    /// Queues a unilateral PDU for this client, in the encoding of its
    /// latest request, with `unilateral: true` added when `value` lacks it.
    /// Callable from any thread; never blocks on the client. With
    /// `evenPastLimit`, queues it however much is waiting (for the one PDU
    /// that tells a client it was cut off).
    @discardableResult
    public func push(_ value: WatchmanValue, evenPastLimit: Bool = false) -> PushOutcome {
        let marked = value["unilateral"] == nil ? value.setting("unilateral", to: .bool(true)) : value
        let encoding = outbox.withLock { $0.encoding }
        let bytes = encoding.encode(marked)
        let (outcome, mustWake) = withOutbox { box -> (PushOutcome, Bool) in
            if box.isClosed { return (.disconnected, false) }
            if !evenPastLimit && box.queuedBytes >= queueLimit { return (.overLimit(queuedBytes: box.queuedBytes), false) }
            return (.queued, write(bytes, to: &box))
        }
        if mustWake { wake() }
        return outcome
    }

    /// Bytes queued for this client and not yet written.
    public var queuedBytes: Int { waiting.load(ordering: .acquiring) }

    /// Runs `body` on the queue under its lock.
    func withOutbox<Result>(_ body: (inout Outbox) -> Result) -> Result {
        outbox.withLock { box in
            let result = body(&box)
            waiting.store(box.queuedBytes, ordering: .releasing)
            return result
        }
    }

    /// False once the connection closed (the client went away, or the
    /// service is stopping).
    public var isConnected: Bool { outbox.withLock { !$0.isClosed } }

    /// Runs `body` once the connection has closed, on a worker thread (at
    /// once there when it has closed already): to drop this client's
    /// subscriptions, leave the states it entered. May run while a handler
    /// of this client is still busy.
    public func onClose(_ body: @escaping @Sendable () -> Void) {
        let closed = outbox.withLock { box -> Bool in
            if box.isClosed { return true }
            box.closeHandlers.append(body)
            return false
        }
        if closed { WorkerPool.shared.run(body) }
    }

    /// Queues a reply (always, however much is waiting: the client asked
    /// for it) and notes its encoding for later pushes.
    func reply(_ bytes: [UInt8], encoding: WireEncoding) {
        let mustWake = withOutbox { box -> Bool in
            box.encoding = encoding
            guard !box.isClosed else { return false }
            return write(bytes, to: &box)
        }
        if mustWake { wake() }
    }

    /// With `box` locked and open: writes `bytes` to the socket at once
    /// when nothing waits before them, and queues what it did not take
    /// (all of it behind older bytes, or on an error, which the loop's
    /// next write meets and closes on). Whether the loop must write.
    private func write(_ bytes: [UInt8], to box: inout Outbox) -> Bool {
        guard !bytes.isEmpty else { return false }
        var written = 0
        if box.queuedBytes == 0 {
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { raw in
                    send(socket, raw.baseAddress! + written, raw.count - written, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                }
                if count > 0 {
                    written += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
        }
        guard written < bytes.count else { return false }
        box.append(written == 0 ? bytes : Array(bytes[written...]))
        return true
    }

    /// Notes the encoding of a request as it arrives, so that a push made
    /// while it is handled already uses it.
    func noteEncoding(_ encoding: WireEncoding) {
        outbox.withLock { $0.encoding = encoding }
    }

    /// Marks the client gone and runs its close handlers (on a worker).
    func markClosed() {
        let handlers = withOutbox { box -> [@Sendable () -> Void] in
            guard !box.isClosed else { return [] }
            box.isClosed = true
            box.drop()
            defer { box.closeHandlers = [] }
            return box.closeHandlers
        }
        for handler in handlers { WorkerPool.shared.run(handler) }
    }
}

/// The peer of a Unix socket, as the kernel saw it connect.
public struct PeerCredentials: Sendable, Equatable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}
