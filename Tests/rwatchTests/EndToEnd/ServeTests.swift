import Glibc
import Testing
import TestSupport
import WatchmanProtocol

/// `rwatch serve` as a process: its socket, its lifecycle, bad clients.
@Suite struct ServeTests {
    /// Starts `rwatch serve ARGS` and waits until `sockname` answers.
    private func serve(_ sockname: String, _ extra: [String] = [], environment: [String: String] = [:], scratch: Scratch) -> RWatch {
        let process = RWatch(["serve", "--sockname", sockname] + extra, in: scratch.path, environment: environment, scratch: scratch)
        #expect(eventually { WatchmanSocket(sockname) != nil || process.exitStatus() != nil })
        return process
    }

    private func mode(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
    }

    @Test func theSocketIsPrivateASecondServiceStepsAsideAndSIGTERMLeavesNothing() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let sock = scratch.file("run/sock")
        let pidfile = scratch.file("pid")
        let server = serve(sock, ["--pidfile", pidfile], scratch: scratch)
        #expect(mode(sock) == 0o600)
        #expect(mode(scratch.file("run")) == 0o700)
        #expect(scratch.read("pid") == "\(server.pid)\n")
        let second = RWatch.run(["serve", "--sockname", sock], in: scratch.path, scratch: scratch)
        #expect(second.status == 0)
        #expect(second.stderr.contains("already running") && second.stderr.contains("pid \(server.pid)"))
        let client = WatchmanSocket(sock)!
        #expect(client.request(["get-pid"])?["pid"] == .int(Int64(server.pid)))
        kill(server.pid, SIGTERM)
        #expect(client.waitForEndOfFile())
        #expect(server.waitForExit() == 0)
        #expect(access(sock, F_OK) != 0 && access(pidfile, F_OK) != 0)
    }

    /// What watchman's own test harness and supervisors pass to the server
    /// is taken: `--foreground`, `--log-level=2`, `--unix-listener-path=`,
    /// `--named-pipe-path=` (Windows', ignored), `--test-state-dir`.
    @Test func watchmansServerFlagsAreTaken() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let sock = scratch.file("sock")
        let server = RWatch(["serve", "--foreground", "--log-level=2", "--unix-listener-path=\(sock)",
                             "--named-pipe-path=\\\\.\\pipe\\x", "--logfile=\(scratch.file("log"))",
                             "--statefile=\(scratch.file("state"))", "--pidfile=\(scratch.file("pid"))"],
                            in: scratch.path, scratch: scratch)
        #expect(eventually { WatchmanSocket(sock) != nil || server.exitStatus() != nil })
        let client = try #require(WatchmanSocket(sock))
        #expect(client.request(["get-pid"])?["pid"] == .int(Int64(server.pid)))
        #expect(client.request(["watch-list"])?["roots"] == .array([]))
        #expect(client.request(["log", "debug", "a debug line"])?["logged"] == .bool(true))
        #expect(server.interrupt() == 0)
        #expect(scratch.read("log").contains("a debug line"), "--log-level=2 writes debug lines")
        let bad = RWatch.run(["serve", "--log-level", "3", "--sockname", sock], in: scratch.path, scratch: scratch)
        #expect(bad.status == 2 && bad.stderr.contains("--log-level"))
        let stateDirectory = scratch.file("state-dir")
        mkdir(stateDirectory, 0o755)
        let inState = RWatch(["serve", "--foreground", "--test-state-dir", stateDirectory], in: scratch.path, scratch: scratch)
        let user = String(cString: getpwuid(geteuid())!.pointee.pw_name)
        #expect(eventually { WatchmanSocket("\(stateDirectory)/\(user)-state/sock") != nil })
        #expect(mode("\(stateDirectory)/\(user)-state") == 0o700 | S_ISGID)
        #expect(inState.interrupt() == 0)
    }

    @Test func aStaleSocketIsReplaced() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let sock = scratch.file("sock")
        // A socket file nobody listens on, as a killed service leaves it.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: sock.utf8) }
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        close(fd)
        #expect(WatchmanSocket(sock) == nil)
        let server = serve(sock, scratch: scratch)
        #expect(WatchmanSocket(sock)?.request(["get-pid"])?["pid"] == .int(Int64(server.pid)))
        #expect(server.interrupt() == 0)
    }

    @Test func theDefaultSocketIsUnderXDGRuntimeDirInADirectoryOnlyItsOwnerMayEnter() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let environment = ["XDG_RUNTIME_DIR": scratch.path, "USER": "someone"]
        let printed = RWatch.run(["serve", "--print-sockname"], in: scratch.path, environment: environment, scratch: scratch)
        #expect(printed.status == 0 && printed.stdout == scratch.file("rwatch/sock") + "\n")
        let fallback = RWatch.run(["serve", "--print-sockname"], in: scratch.path, environment: ["XDG_RUNTIME_DIR": "", "USER": "someone"], scratch: scratch)
        #expect(fallback.stdout == "/tmp/rwatch-someone/sock\n")
        // A directory others may enter is refused, not used.
        mkdir(scratch.file("rwatch"), 0o755)
        chmod(scratch.file("rwatch"), 0o755)
        let refused = RWatch.run(["serve"], in: scratch.path, environment: environment, scratch: scratch)
        #expect(refused.status == 2 && refused.stderr.contains("chmod 700"))
        chmod(scratch.file("rwatch"), 0o700)
        let server = RWatch(["serve"], in: scratch.path, environment: environment, scratch: scratch)
        #expect(eventually { WatchmanSocket(scratch.file("rwatch/sock")) != nil })
        #expect(server.interrupt() == 0)
    }

    /// A damaged global configuration stops the service's start with one
    /// line naming the file, never `--print-sockname` (the socket's place
    /// does not depend on it).
    @Test func aDamagedGlobalConfigurationRefusesTheStartButNotPrintSockname() {
        let scratch = Scratch()
        defer { scratch.remove() }
        scratch.write("watchman.json", "{\"sock_access\": ")
        let environment = ["XDG_RUNTIME_DIR": scratch.path, "WATCHMAN_CONFIG_FILE": scratch.file("watchman.json")]
        let printed = RWatch.run(["serve", "--print-sockname"], in: scratch.path, environment: environment, scratch: scratch)
        #expect(printed.status == 0 && printed.stdout == scratch.file("rwatch/sock") + "\n", "\(printed.stderr)")
        let refused = RWatch.run(["serve"], in: scratch.path, environment: environment, scratch: scratch)
        #expect(refused.status == 2 && refused.stderr.contains("failed to parse json from \(scratch.file("watchman.json"))"))
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
    }

    /// The default socket's directory is taken from `XDG_RUNTIME_DIR` as
    /// bytes: a name that is not UTF-8 is used as it is, not mended.
    @Test func aRuntimeDirectoryWhoseNameIsNotUTF8IsUsedAsItIs() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let runtime = Array(scratch.path.utf8) + Array("/run-".utf8) + [0xFF, 0xFE]
        let made = (runtime + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o700) } }
        #expect(made == 0)
        let server = RWatch(bytes: [Array("serve".utf8)], in: scratch.path, environment: ["USER": "someone"],
                            environmentBytes: ["XDG_RUNTIME_DIR": runtime], scratch: scratch)
        let sock = runtime + Array("/rwatch/sock".utf8) + [0]
        let isSocket = {
            var info = stat()
            return sock.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &info) } } == 0
                && info.st_mode & S_IFMT == S_IFSOCK
        }
        #expect(eventually { isSocket() }, "\(server.stderr)")
        #expect(server.interrupt() == 0)
    }

    @Test func aProcessOfAnotherUserIsDisconnectedUnanswered() {
        guard geteuid() == 0 else { return }  // only root can become another user
        let scratch = Scratch()
        defer { scratch.remove() }
        chmod(scratch.path, 0o711)
        let sock = scratch.file("sock")
        let server = serve(sock, scratch: scratch)
        chmod(sock, 0o666)  // only the peer check stands in the way now
        let script = """
            import os, socket
            os.setgid(65534); os.setuid(65534)
            s = socket.socket(socket.AF_UNIX); s.connect(\"\(sock)\")
            try:
                s.sendall(b'["get-pid"]\\n')
                print("closed" if s.recv(100) == b"" else "answered")
            except (BrokenPipeError, ConnectionResetError):
                print("closed")
            """
        let run = Command.run(["python3", "-c", script])
        #expect(run.output == "closed\n", "\(run.errors)")
        #expect(WatchmanSocket(sock)?.request(["get-pid"])?["pid"] == .int(Int64(server.pid)))
        #expect(server.interrupt() == 0)
    }

    /// Open-file count of a process.
    private func openFiles(_ pid: pid_t) -> Int {
        guard let directory = opendir("/proc/\(pid)/fd") else { return -1 }
        defer { closedir(directory) }
        var count = 0
        while readdir(directory) != nil { count += 1 }
        return count
    }

    private func residentKiB(_ pid: pid_t) -> Int {
        let line = Scratch.read("/proc/\(pid)/status").split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    @Test func aThousandConnectionsOpenedAndDroppedLeaveFilesAndMemoryFlat() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let sock = scratch.file("sock")
        let server = serve(sock, scratch: scratch)
        let steady = WatchmanSocket(sock)!
        #expect(steady.request(["get-pid"])?["pid"] != nil)
        // Warm up once, so that what is allocated for good is counted before.
        for _ in 0..<50 { _ = WatchmanSocket(sock)?.request(["version"]) }
        let files = openFiles(server.pid)
        let memory = residentKiB(server.pid)
        for round in 0..<1000 {
            guard let client = WatchmanSocket(sock) else { Issue.record("connection \(round) refused"); break }
            switch round % 4 {
            case 0: break                                                           // nothing sent
            case 1: client.send(Array(BSER.encode(["version"], version: 1, capabilities: []).prefix(7)))  // mid-PDU
            case 2: client.send(Array("[\"version\", {\"optional\": [".utf8))        // half a JSON line
            default: client.send(["version"], .bserV2(capabilities: []))          // a whole request, reply unread
            }
        }
        #expect(steady.request(["get-pid"])?["pid"] == .int(Int64(server.pid)))
        // No more than before: a warm-up connection the service had not
        // yet closed when `files` was counted may close only now.
        #expect(eventually { openFiles(server.pid) <= files })
        #expect(residentKiB(server.pid) - memory < 16 * 1024)
        #expect(server.interrupt() == 0)
    }
}
