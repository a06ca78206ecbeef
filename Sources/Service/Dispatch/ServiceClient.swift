import Signals
import WatchSources
import WatchmanProtocol

/// One connected client, as handlers and other threads see it: who it is,
/// and a queue of PDUs for it that any thread may add to.
///
/// The socket itself belongs to the server's loop thread; this object only
/// holds what other threads may touch (the outgoing queue, the encoding of
/// the client's latest request, whether it is still connected), under one
/// lock. Safe to keep after the client has gone: a push then reports
/// `.disconnected`.
public final class ServiceClient: Sendable {
    /// Unique within one run of the service, from 1.
    public let id: Int
    /// The peer's process, user and group, from `SO_PEERCRED`.
    public let peer: PeerCredentials
    /// How many bytes may wait for this client before `push` refuses more.
    public let queueLimit: Int

    let outbox: Locked<Outbox>
    /// Wakes the server's loop so that it writes what was queued.
    private let wake: @Sendable () -> Void

    init(id: Int, peer: PeerCredentials, queueLimit: Int, wake: @escaping @Sendable () -> Void) {
        self.id = id
        self.peer = peer
        self.queueLimit = queueLimit
        self.wake = wake
        outbox = Locked(Outbox())
    }

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
        let outcome = outbox.withLock { box -> PushOutcome in
            if box.isClosed { return .disconnected }
            if !evenPastLimit && box.queuedBytes >= queueLimit { return .overLimit(queuedBytes: box.queuedBytes) }
            box.append(bytes)
            return .queued
        }
        if outcome == .queued { wake() }
        return outcome
    }

    /// Bytes queued for this client and not yet written.
    public var queuedBytes: Int { outbox.withLock { $0.queuedBytes } }

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
        let queued = outbox.withLock { box -> Bool in
            box.encoding = encoding
            guard !box.isClosed else { return false }
            box.append(bytes)
            return true
        }
        if queued { wake() }
    }

    /// Notes the encoding of a request as it arrives, so that a push made
    /// while it is handled already uses it.
    func noteEncoding(_ encoding: WireEncoding) {
        outbox.withLock { $0.encoding = encoding }
    }

    /// Marks the client gone and runs its close handlers (on a worker).
    func markClosed() {
        let handlers = outbox.withLock { box -> [@Sendable () -> Void] in
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
