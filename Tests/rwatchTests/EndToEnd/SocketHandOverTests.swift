import Dispatch
import Glibc
import Testing
import TestSupport

/// `--socket`: rwatch listens once and every run gets the socket as fd 3
/// with systemd's variables; a client hammering through 100 restarts is
/// never refused. Bad sockets are one line and exit 2, before any run.
@Suite struct SocketHandOverTests {
    static let python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3"

    /// A server that takes its socket from systemd's variables (and
    /// checks them), records its pid, and answers each connection with it.
    static let server = """
        import os, socket, sys
        assert os.environ["LISTEN_PID"] == str(os.getpid()), "LISTEN_PID"
        assert os.environ["LISTEN_FDS"] == "1" and os.environ["LISTEN_FDNAMES"] == "tcp", "LISTEN_FDS"
        listener = socket.socket(fileno=3)
        with open(sys.argv[1], "a") as pids:
            pids.write("%d\\n" % os.getpid())
        while True:
            connection, _ = listener.accept()
            connection.sendall(b"%d\\n" % os.getpid())
            connection.close()
        """

    /// Connections made until `stop`, by outcome.
    final class Hammer: @unchecked Sendable {
        // Safety: `tally` is only touched on `queue`.
        private struct Tally {
            var refused = 0, answered = 0, other = 0
            var stop = false
            var pids = Set<String>()
        }

        private var tally = Tally()
        private let queue = DispatchQueue(label: "hammer.tally")
        private let done = DispatchSemaphore(value: 0)

        init(port: UInt16) {
            DispatchQueue.global().async { [self] in
                while !queue.sync(execute: { tally.stop }) { once(port) }
                done.signal()
            }
        }

        var counts: (refused: Int, answered: Int, other: Int, pids: Set<String>) {
            queue.sync { (tally.refused, tally.answered, tally.other, tally.pids) }
        }

        func stop() {
            queue.sync { tally.stop = true }
            done.wait()
        }

        private func once(_ port: UInt16) {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { return }
            defer { close(fd) }
            var timeout = timeval(tv_sec: 20, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if connected != 0 {
                let refused = errno == ECONNREFUSED
                queue.sync { if refused { tally.refused += 1 } else { tally.other += 1 } }
                return
            }
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = read(fd, &buffer, buffer.count)
            let answer = count > 0 ? String(decoding: buffer[..<count].filter { $0 != 10 }, as: UTF8.self) : nil
            // A server stopped between accept and answer closes it unanswered.
            queue.sync {
                if let answer {
                    tally.answered += 1
                    tally.pids.insert(answer)
                } else {
                    tally.other += 1
                }
            }
        }
    }

    @Test func aClientIsNeverRefusedThrough100Restarts() {
        let scratch = Scratch()
        defer { scratch.remove() }
        mkdir(scratch.file("src"), 0o755)
        scratch.write("server.py", Self.server)
        let rwatch = RWatch(["-r", "-w", "src", "--socket", "127.0.0.1:0", "--", Self.python, "server.py", scratch.file("pids")],
                            in: scratch.path, scratch: scratch)
        defer { rwatch.interrupt() }
        let servers = { scratch.read("pids").split(separator: "\n").count }
        #expect(eventually { servers() == 1 }, "\(rwatch.stderr)")
        guard let port = Self.port(in: rwatch.stderr) else { Issue.record("no port in \(rwatch.stderr)"); return }
        let hammer = Hammer(port: port)
        for restart in 1...100 {
            scratch.write("src/file", "\(restart)")
            guard eventually(.seconds(20), { servers() > restart }) else {
                Issue.record("restart \(restart) did not come: \(rwatch.stderr.suffix(500))")
                break
            }
        }
        hammer.stop()
        let counts = hammer.counts
        #expect(counts.refused == 0, "refused \(counts.refused) of \(counts.refused + counts.answered + counts.other)")
        #expect(counts.answered > 0 && counts.pids.count > 1, "\(counts)")
    }

    @Test func aPortInUseIsOneLineAndExit2BeforeAnyRun() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let taken = Self.listener()
        defer { close(taken.fd) }
        let result = RWatch.run(["--socket", "127.0.0.1:\(taken.port)", "--", "touch", "ran"], in: scratch.path, scratch: scratch)
        #expect(result.status == 2)
        #expect(result.stderr == "rwatch: error: --socket 127.0.0.1:\(taken.port): address already in use\n", "\(result.stderr)")
        #expect(access(scratch.file("ran"), F_OK) != 0)
    }

    @Test func aPrivilegedPortWithoutPermissionIsOneLineAndExit2() {
        let scratch = Scratch()
        defer { scratch.remove() }
        chmod(scratch.path, 0o777)
        // As nobody (rwatch's tests run as root, which may bind any port).
        let wrapper = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
        let process = RWatch(["--socket", "0.0.0.0:80", "--", "touch", "ran"], in: scratch.path, wrapper: wrapper, scratch: scratch)
        #expect(process.waitForExit() == 2)
        #expect(process.stderr.hasSuffix("--socket 0.0.0.0:80: permission denied (a port below 1024 needs root or CAP_NET_BIND_SERVICE)\n"), "\(process.stderr)")
        #expect(process.stderr.split(separator: "\n").count == 1)
        #expect(access(scratch.file("ran"), F_OK) != 0)
    }

    /// The port of `listening on 127.0.0.1:PORT` in rwatch's status lines.
    static func port(in stderr: String) -> UInt16? {
        guard let range = stderr.firstRange(of: "listening on 127.0.0.1:") else { return nil }
        return UInt16(stderr[range.upperBound...].prefix { $0.isNumber })
    }

    /// A socket listening on a port the kernel chose.
    static func listener() -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }
}
