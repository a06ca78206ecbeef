#if canImport(Glibc)
import Glibc
#endif
import WatchmanProtocol

/// A test's raw connection to a watchman-protocol socket: send bytes or
/// values in any encoding, read PDUs back with a deadline.
public final class WatchmanSocket {
    public let fd: Int32
    private var reader = PDUReader()
    /// True once the peer closed its side.
    public private(set) var sawEndOfFile = false

    /// Connects to `path`; nil when nothing listens there.
    public init?(_ path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8.prefix($0.count - 1)) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if connected != 0 {
            close(fd)
            return nil
        }
    }

    deinit { close(fd) }

    /// Writes all of `bytes`.
    public func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Sends `value` as one PDU in `encoding`.
    public func send(_ value: WatchmanValue, _ encoding: WireEncoding = .json) {
        send(encoding.encode(value))
    }

    /// The next PDU and its encoding, or nil at end of file or after `timeout`.
    public func receive(timeout: Duration = .seconds(20)) -> (value: WatchmanValue, encoding: WireEncoding)? {
        var clock = timespec()
        clock_gettime(CLOCK_MONOTONIC, &clock)
        let deadline = Double(clock.tv_sec) + Double(clock.tv_nsec) / 1e9 + Double(timeout.components.seconds)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if case .pdu(let value, let encoding) = reader.next() { return (value, encoding) }
            clock_gettime(CLOCK_MONOTONIC, &clock)
            let left = deadline - (Double(clock.tv_sec) + Double(clock.tv_nsec) / 1e9)
            guard left > 0 else { return nil }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left * 1000) + 1) > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 {
                sawEndOfFile = true
                return nil
            }
            reader.append(buffer[0..<count])
        }
    }

    /// Sends `request` and returns the next PDU that is not unilateral.
    public func request(_ request: WatchmanValue, _ encoding: WireEncoding = .json) -> WatchmanValue? {
        send(request, encoding)
        while let (value, _) = receive() {
            if value["unilateral"] != .bool(true) { return value }
        }
        return nil
    }

    /// Waits (up to `timeout`) for the peer to close the connection.
    public func waitForEndOfFile(timeout: Duration = .seconds(20)) -> Bool {
        while !sawEndOfFile {
            if receive(timeout: timeout) == nil { return sawEndOfFile }
        }
        return true
    }
}
