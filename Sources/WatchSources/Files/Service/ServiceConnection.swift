import Glibc
import SystemPackage
import WatchmanProtocol

/// One connection to a running `rwatch serve` (or any service speaking
/// watchman's protocol), as rwatch's own watches use it: requests and
/// replies in BSER v2 (file names stay bytes), read with a deadline.
/// Owned by one thread at a time; `close()` is the owner's.
package final class ServiceConnection: @unchecked Sendable {
    // Safety: the arming thread uses it until it hands it to the service
    // watch's thread, which alone uses it from then on; `shutDown` only
    // calls shutdown(2) on the descriptor, which is safe from any thread.

    package enum Failure: Error, Equatable {
        /// The service closed the connection, or reading failed.
        case closed
        /// No reply before the deadline.
        case timedOut
        /// The bytes were not a PDU.
        case malformed
        /// The service answered with an error.
        case refused(String)
    }

    let descriptor: Int32
    let socket: FilePath
    private var reader = PDUReader()
    /// Unilateral PDUs read while waiting for a reply, in order.
    private(set) var pending: [WatchmanValue] = []

    private init(descriptor: Int32, socket: FilePath) {
        self.descriptor = descriptor
        self.socket = socket
    }

    /// Why `open(_:)` has no connection.
    package enum ConnectError: Error, Equatable {
        /// Nothing listens: no socket file (`ENOENT`) or one whose service
        /// died (`ECONNREFUSED`); a service may be started there.
        case noService(Int32)
        /// Connecting failed otherwise (the errno).
        case failed(Int32)
        /// What listens belongs to another user.
        case foreignPeer
    }

    /// Connects to `socket`; nil when nothing listens there, or what
    /// listens belongs to another user (only this user's service is
    /// trusted with this user's file names).
    static func connect(to socket: FilePath) -> ServiceConnection? {
        try? open(socket).get()
    }

    /// Connects to `socket`, saying why not when it cannot.
    package static func open(_ socket: FilePath) -> Result<ServiceConnection, ConnectError> {
        let bytes = socket.bytes
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return .failure(.failed(ENAMETOOLONG)) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
            raw[bytes.count] = 0
        }
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return .failure(.failed(errno)) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            Glibc.close(descriptor)
            return .failure(code == ENOENT || code == ECONNREFUSED ? .noService(code) : .failed(code))
        }
        guard peer(of: descriptor)?.uid == geteuid() else {
            Glibc.close(descriptor)
            return .failure(.foreignPeer)
        }
        return .success(ServiceConnection(descriptor: descriptor, socket: socket))
    }

    /// The process, user and group at the other end of a connected Unix
    /// socket, from `SO_PEERCRED`.
    package static func peer(of descriptor: Int32) -> (pid: Int32, uid: UInt32, gid: UInt32)? {
        // glibc's `struct ucred` (hidden without _GNU_SOURCE): pid, uid, gid.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
              length == MemoryLayout.size(ofValue: credentials) else { return nil }
        return credentials
    }

    /// Sends `request` and returns its reply (unilateral PDUs read
    /// meanwhile are kept in `pending`); an error reply throws `.refused`.
    func request(_ request: WatchmanValue, deadline: ContinuousClock.Instant) throws(Failure) -> WatchmanValue {
        try send(request)
        while true {
            let value = try receive(deadline: deadline)
            if ServiceConnection.isUnilateral(value) {
                pending.append(value)
                continue
            }
            if let error = value["error"]?.text { throw .refused(error) }
            return value
        }
    }

    /// The unilateral PDUs read so far, taken.
    func takePending() -> [WatchmanValue] {
        defer { pending = [] }
        return pending
    }

    /// The next PDU, waiting until `deadline` (nil: for ever).
    package func receive(deadline: ContinuousClock.Instant?) throws(Failure) -> WatchmanValue {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            switch reader.next() {
            case .pdu(let value, _): return value
            case .malformed: throw .malformed
            case .needMoreBytes: break
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let timeout = deadline.map { ServiceConnection.milliseconds(until: $0) } ?? -1
            let ready = Glibc.poll(&poller, 1, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .closed
            }
            if ready == 0 { throw .timedOut }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { throw .closed }
            reader.append(buffer[0..<count])
        }
    }

    /// Wakes a thread blocked reading (it then reads end of file).
    func shutDown() {
        Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    }

    package func close() {
        Glibc.close(descriptor)
    }

    private func send(_ value: WatchmanValue) throws(Failure) {
        try send(value, encoding: .bserV2(capabilities: []))
    }

    /// Sends `value` as one PDU in `encoding` (the service answers in it).
    package func send(_ value: WatchmanValue, encoding: WireEncoding) throws(Failure) {
        let bytes = encoding.encode(value)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw .closed }
            sent += count
        }
    }

    /// Whether `value` is a unilateral PDU (a subscription's result or a
    /// state notice) rather than a reply.
    package static func isUnilateral(_ value: WatchmanValue) -> Bool {
        value["unilateral"]?.boolean == true || value["subscription"] != nil || value["log"] != nil
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = ContinuousClock.now.duration(to: deadline)
        if left <= .zero { return 0 }
        let (seconds, attoseconds) = left.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }
}
