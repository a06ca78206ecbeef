#if canImport(Glibc)
import Glibc
#endif
import Signals
import SystemPackage

/// A listening socket that rwatch binds once and hands to every run of a
/// command (`ProcessOptions.listenSockets`), the way systemd's socket
/// activation does: the command finds it as descriptor 3 (the next ones
/// as 4, 5, …) with `LISTEN_FDS`, `LISTEN_PID` (the command's own pid)
/// and `LISTEN_FDNAMES` set, which `sd_listen_fds`, Rust's listenfd,
/// Go's `activation` and Python's `socket.socket(fileno=3)` read.
///
///     let web = try ListenSocket.bind("127.0.0.1:8080")
///     var options = RunOptions(); options.listenSockets = [web]
///
/// rwatch keeps it open between runs: a connection made while a server
/// restarts waits in the backlog for the next one instead of being
/// refused. Addresses: `PORT` and `:PORT` (127.0.0.1), `ADDR:PORT`,
/// `[IPV6]:PORT`, each with an optional `tcp:`; `unix:PATH`, and
/// `unix:@NAME` in the abstract namespace; `NAME=` before any of them
/// names it in `LISTEN_FDNAMES` (default `tcp` or `unix`).
public final class ListenSocket: Sendable {
    /// Where it listens.
    public enum Address: Sendable, Hashable, CustomStringConvertible {
        case tcp(host: String, port: UInt16)
        case unix(FilePath)
        /// A name in the abstract namespace (no file).
        case abstract(String)

        public var description: String {
            switch self {
            case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            case .unix(let path): "unix:" + Quoted.path(path)
            case .abstract(let name): "unix:@" + Quoted.escaped(name)
            }
        }
    }

    /// The listening descriptor (close-on-exec: only the hand-over gives it to a child).
    public let fd: Int32
    /// Where it listens (for TCP port 0, the port the kernel chose).
    public let address: Address
    /// Its name in `LISTEN_FDNAMES`.
    public let name: String
    /// A socket file rwatch made, removed by `close()`.
    private let madeFile: FilePath?
    private let closed = Locked(false)

    private init(fd: Int32, address: Address, name: String, madeFile: FilePath?) {
        self.fd = fd
        self.address = address
        self.name = name
        self.madeFile = madeFile
    }

    /// Binds and listens on `spec` (see the type's description); throws a
    /// `ListenSocketError` that says what is wrong in one line.
    public static func bind(_ spec: String) throws(ListenSocketError) -> ListenSocket {
        let (name, address) = try ListenSocketSpec.parse(spec)
        switch address {
        case .tcp(let host, let port): return try bindTCP(host: host, port: port, name: name, spec: spec)
        case .unix(let path): return try bindUnix(path: path, name: name, spec: spec)
        case .abstract(let abstract): return try bindAbstract(abstract, name: name, spec: spec)
        }
    }

    /// Closes the socket (and removes the socket file rwatch made); later
    /// calls do nothing. Runs already started keep their copies.
    public func close() {
        let first = closed.withLock { state -> Bool in
            defer { state = true }
            return !state
        }
        guard first else { return }
        _ = Glibc.close(fd)
        if let madeFile { _ = madeFile.withPlatformString { unlink($0) } }
    }

    deinit { close() }

    // MARK: Binding

    private static func bindTCP(host: String, port: UInt16, name: String, spec: String) throws(ListenSocketError) -> ListenSocket {
        let v6 = host.contains(":")
        var storage = sockaddr_storage()
        let length: socklen_t
        if v6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { throw ListenSocketError(spec: spec, problem: .badAddress) }
            withUnsafeBytes(of: address) { bytes in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) } }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw ListenSocketError(spec: spec, problem: .badAddress) }
            withUnsafeBytes(of: address) { bytes in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) } }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
        }
        let fd: Int32
        do {
            fd = try listening(family: v6 ? AF_INET6 : AF_INET, storage, length, spec: spec, reuse: true)
        } catch where error.problem == .system(EACCES) {
            throw ListenSocketError(spec: spec, problem: .privilegedPort)
        }
        return ListenSocket(fd: fd, address: .tcp(host: host, port: boundPort(fd) ?? port), name: name, madeFile: nil)
    }

    private static func bindUnix(path: FilePath, name: String, spec: String) throws(ListenSocketError) -> ListenSocket {
        try removeIfStale(path, spec: spec)
        let (storage, length) = try unixAddress(path.bytes, spec: spec)
        let fd = try listening(family: AF_UNIX, storage, length, spec: spec, reuse: false)
        return ListenSocket(fd: fd, address: .unix(path), name: name, madeFile: path)
    }

    private static func bindAbstract(_ abstract: String, name: String, spec: String) throws(ListenSocketError) -> ListenSocket {
        let (storage, length) = try unixAddress([0] + Array(abstract.utf8), spec: spec)
        let fd = try listening(family: AF_UNIX, storage, length, spec: spec, reuse: false)
        return ListenSocket(fd: fd, address: .abstract(abstract), name: name, madeFile: nil)
    }

    /// A socket of `family` bound to the address and listening.
    private static func listening(family: Int32, _ storage: sockaddr_storage, _ length: socklen_t, spec: String, reuse: Bool) throws(ListenSocketError) -> Int32 {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ListenSocketError(spec: spec, problem: .system(errno)) }
        if reuse {
            // A port a server just left (TIME_WAIT) binds again; one in use still does not.
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        var storage = storage
        let bound = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, length) } }
        guard bound == 0, listen(fd, SOMAXCONN) == 0 else {
            let code = errno
            _ = Glibc.close(fd)
            throw ListenSocketError(spec: spec, problem: .system(code))
        }
        return fd
    }

    /// The port the kernel gave a socket bound to port 0.
    private static func boundPort(_ fd: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        guard got == 0 else { return nil }
        return withUnsafeBytes(of: storage) { bytes in
            // sin_port and sin6_port sit at the same offset, after the family.
            UInt16(bigEndian: bytes.load(fromByteOffset: 2, as: UInt16.self))
        }
    }

    /// A `sockaddr_un` for `path` (bytes; a leading NUL for the abstract namespace).
    private static func unixAddress(_ path: [UInt8], spec: String) throws(ListenSocketError) -> (sockaddr_storage, socklen_t) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { throw ListenSocketError(spec: spec, problem: .pathTooLong(capacity - 1)) }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        var storage = sockaddr_storage()
        withUnsafeBytes(of: address) { bytes in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) } }
        return (storage, socklen_t(MemoryLayout<sa_family_t>.size + path.count + (path.first == 0 ? 0 : 1)))
    }

    /// A socket file nobody listens on any more (a server that crashed)
    /// is removed; one in use, or a file of another kind, is an error.
    private static func removeIfStale(_ path: FilePath, spec: String) throws(ListenSocketError) {
        var info = stat()
        guard path.withPlatformString({ lstat($0, &info) }) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw ListenSocketError(spec: spec, problem: .notASocket) }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return }
        defer { _ = Glibc.close(probe) }
        guard let (storage, length) = try? unixAddress(path.bytes, spec: spec) else { return }
        var address = storage
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, length) } }
        if connected == 0 { throw ListenSocketError(spec: spec, problem: .system(EADDRINUSE)) }
        if errno == ECONNREFUSED { _ = path.withPlatformString { unlink($0) } }
    }
}

/// Why `ListenSocket.bind` failed, as one line.
public struct ListenSocketError: Error, CustomStringConvertible, Equatable {
    /// What was wrong.
    public enum Problem: Equatable, Sendable {
        case syntax(String)
        case badAddress
        case badPort
        case pathTooLong(Int)
        case notASocket
        case privilegedPort
        case system(Int32)
    }

    /// The address as given.
    public var spec: String
    public var problem: Problem

    public var description: String {
        let what = "--socket \(Quoted.escaped(spec))"
        switch problem {
        case .syntax(let detail): return "\(what): \(detail)"
        case .badAddress: return "\(what): not an address (use numbers: 127.0.0.1:8080, [::1]:8080, 0.0.0.0:8080, or unix:PATH)"
        case .badPort: return "\(what): the port must be a number from 0 to 65535"
        case .pathTooLong(let limit): return "\(what): a socket path holds at most \(limit) bytes"
        case .notASocket: return "\(what): the path exists and is no socket"
        case .system(EADDRINUSE): return "\(what): address already in use"
        case .privilegedPort: return "\(what): permission denied (a port below 1024 needs root or CAP_NET_BIND_SERVICE)"
        case .system(let code): return "\(what): \(Errno(rawValue: code).description)"
        }
    }
}
