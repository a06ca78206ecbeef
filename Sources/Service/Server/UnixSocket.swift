import Glibc
import SystemPackage
import WatchSources
import WatchmanProtocol

/// The service's listening socket: its directory checked, its path taken
/// over from a dead service but never from a live one, created 0600.
enum UnixSocket {
    /// What opening found.
    enum Opened {
        /// Listening on this (non-blocking) descriptor.
        case listening(Int32)
        /// Another service answers on the path (its pid, when it told).
        case alreadyRunning(pid: Int32?)
    }

    /// Opens `path` for listening. `beforeListening` runs once the path is
    /// this service's and before anyone can connect (the pid file is
    /// written there, so a client that reaches the socket finds it).
    /// `privateDirectory`: the directory is
    /// rwatch's own default, created 0700 and refused unless it is a real
    /// directory owned by this user that no one else may enter (beyond
    /// what `access` allows). `access` gives the directory (when private)
    /// and the socket their modes, group and ACL. Otherwise
    /// missing directories are created 0700 and the directory is refused
    /// when others may write to it without the sticky bit (they could
    /// replace the socket). The check, the probe and the bind happen under
    /// a lock on the directory, so two services starting at once cannot
    /// both take the path.
    static func open(
        _ path: FilePath, privateDirectory: Bool, access: SocketAccess = SocketAccess(), beforeListening: () throws(ServeError) -> Void = {}
    ) throws(ServeError) -> Opened {
        guard path.isAbsolute else { throw ServeError("the socket path \(Quoted.escaped(path)) is not absolute") }
        let pathBytes = path.bytes
        guard pathBytes.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw ServeError("the socket path \(Quoted.escaped(path)) is too long (\(pathBytes.count) bytes; a Unix socket allows 107)")
        }
        let directory = path.removingLastComponent()
        try prepare(directory, privately: privateDirectory, access: access)
        let lock = directory.withPlatformString { Glibc.open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard lock >= 0 else { throw .system("cannot open \(Quoted.escaped(directory))", errno) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
        if let pid = probe(path) { return .alreadyRunning(pid: pid == 0 ? nil : pid) }
        var status = stat()
        if path.withPlatformString({ lstat($0, &status) }) == 0 {
            guard status.st_mode & S_IFMT == S_IFSOCK else {
                throw ServeError("\(Quoted.escaped(path)) exists and is not a socket")
            }
            _ = path.withPlatformString { unlink($0) }  // a stale socket: no service answers on it
        }
        let fd = try bind(path, mode: access.socketMode)
        do {
            try access.settleSocket(path)
            try beforeListening()
        } catch {
            close(fd)
            _ = path.withPlatformString { unlink($0) }
            throw error
        }
        guard listen(fd, SOMAXCONN) == 0 else {
            let code = errno
            close(fd)
            _ = path.withPlatformString { unlink($0) }
            throw .system("listen on \(Quoted.escaped(path))", code)
        }
        return .listening(fd)
    }

    private static func prepare(_ directory: FilePath, privately: Bool, access: SocketAccess) throws(ServeError) {
        if directory.withPlatformString({ mkdir($0, 0o700) }) != 0 && errno == ENOENT {
            try prepare(directory.removingLastComponent(), privately: false, access: SocketAccess())
            _ = directory.withPlatformString { mkdir($0, 0o700) }
        }
        // rwatch's own directory must be a real one; a directory named on
        // the command line (a state directory) may be reached by a link.
        var status = stat()
        let found = directory.withPlatformString { privately ? lstat($0, &status) : stat($0, &status) }
        guard found == 0 else { throw .system("cannot use \(Quoted.escaped(directory))", errno) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw ServeError("\(Quoted.escaped(directory)) is not a directory") }
        let mode = status.st_mode & 0o7777
        if privately {
            try access.prepareStateDirectory(directory, strict: true)
        } else if mode & 0o022 != 0 && mode & S_ISVTX == 0 {
            throw ServeError("\(Quoted.escaped(directory)) is writable by other users (mode \(String(mode, radix: 8))): choose another socket path")
        }
    }

    /// The pid of a service answering on `path` (0 when it answered but
    /// did not tell), or nil when none answers.
    private static func probe(_ path: FilePath) -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard connectUnix(fd, path) == 0 else { return nil }
        // Ask for its pid, waiting at most a second for the answer.
        let request = JSONLines.encode(["get-pid"])
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var reader = PDUReader(maximumLength: 1 << 16)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, 1000) > 0 {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            reader.append(buffer[0..<count])
            if case .pdu(let reply, _) = reader.next() { return Int32(exactly: reply["pid"]?.integer ?? 0) ?? 0 }
        }
        return 0
    }

    private static func bind(_ path: FilePath, mode: mode_t) throws(ServeError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw .system("socket", errno) }
        // Created with its mode (0600 unless `sock_access` says more) from
        // the start: no moment where others may connect.
        // Linux gives the socket file the mode of the socket's inode (less
        // the umask), so the mode is set on the descriptor before `bind`;
        // never through `umask`, which is the whole process's: a thread
        // spawning a child meanwhile would hand it 0177.
        guard fchmod(fd, mode) == 0 else {
            let error = errno
            close(fd)
            throw .system("cannot set the mode of the socket for \(Quoted.escaped(path))", error)
        }
        let bound = withAddress(path) { Glibc.bind(fd, $0, $1) }
        let bindError = errno
        guard bound == 0 else {
            close(fd)
            throw .system("cannot listen on \(Quoted.escaped(path))", bindError)
        }
        return fd
    }

    /// Connects `fd` to the socket at `path`: 0, or -1 with `errno` set.
    static func connectUnix(_ fd: Int32, _ path: FilePath) -> Int32 {
        withAddress(path) { connect(fd, $0, $1) }
    }

    private static func withAddress(_ path: FilePath, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = path.bytes
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes.prefix(raw.count - 1))
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// The peer of a connected socket, from `SO_PEERCRED`.
    static func peer(of fd: Int32) -> PeerCredentials? {
        guard let credentials = ServiceConnection.peer(of: fd) else { return nil }
        return PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
    }

    /// Accepts one connection as a non-blocking, close-on-exec descriptor.
    static func accept(_ listener: Int32) -> AcceptOutcome {
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else {
            let code = errno
            return [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(code) ? .outOfDescriptors(code) : .none
        }
        // Children are started by ProcessLauncher, which closes every
        // descriptor above stderr: the moment before FD_CLOEXEC is harmless.
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return .connection(fd)
    }
}

/// What one `accept` on the listening socket gave.
package enum AcceptOutcome: Sendable {
    /// A connection, as a non-blocking, close-on-exec descriptor.
    case connection(Int32)
    /// Nobody is waiting (or the call was interrupted).
    case none
    /// No descriptor (or memory) for it now (the errno): the connection
    /// waits in the backlog until one is freed.
    case outOfDescriptors(Int32)

    /// `accept(2)` on `listener`, as the service does it.
    package static func accepting(_ listener: Int32) -> AcceptOutcome { UnixSocket.accept(listener) }
}
