import Signals
import WatchmanProtocol

/// Who asked, and the service that answers: what a handler is given beside
/// its request.
public final class CommandContext: Sendable {
    /// The connection the request came on: push unilateral PDUs to it,
    /// learn when it goes away.
    public let client: ServiceClient
    /// The running service: its configuration, capabilities, log, shutdown.
    public let server: WatchmanServer
    /// Whether the socket loop runs the handler (one registered with
    /// `answersOnLoop`): it must then neither wait nor run long, and
    /// throws `WouldWait` where it would, to be run again on a worker.
    public let onLoop: Bool
    private let followUps = Locked<[@Sendable () -> Void]>([])

    init(client: ServiceClient, server: WatchmanServer, onLoop: Bool = false) {
        self.client = client
        self.server = server
        self.onLoop = onLoop
    }

    /// Runs `body` right after this request's reply is queued, on the
    /// handler's thread: for a PDU that must follow the reply (a
    /// subscription's first result follows the `subscribe` reply). A PDU
    /// pushed from inside the handler goes out before the reply.
    public func afterReply(_ body: @escaping @Sendable () -> Void) {
        followUps.withLock { $0.append(body) }
    }

    /// The follow-ups registered so far, handed over once.
    func takeFollowUps() -> [@Sendable () -> Void] {
        followUps.withLock { list in
            defer { list = [] }
            return list
        }
    }
}
