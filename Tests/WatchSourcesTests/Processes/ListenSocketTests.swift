@testable import WatchSources
import Testing
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// `--socket` addresses, binding, and the hand-over to a child with
/// systemd's variables (the exec shim sets `LISTEN_PID`).
@Suite struct ListenSocketTests {
    @Test(arguments: [
        ("8080", "tcp", ListenSocket.Address.tcp(host: "127.0.0.1", port: 8080)),
        (":8080", "tcp", .tcp(host: "127.0.0.1", port: 8080)),
        ("tcp::8080", "tcp", .tcp(host: "127.0.0.1", port: 8080)),
        ("tcp:0.0.0.0:80", "tcp", .tcp(host: "0.0.0.0", port: 80)),
        ("[::1]:9", "tcp", .tcp(host: "::1", port: 9)),
        ("localhost:1", "tcp", .tcp(host: "127.0.0.1", port: 1)),
        ("web=10.0.0.2:443", "web", .tcp(host: "10.0.0.2", port: 443)),
        ("unix:/run/a=b.sock", "unix", .unix("/run/a=b.sock")),
        ("api=unix:@app", "api", .abstract("app")),
    ])
    func addressesAreReadAsTyped(spec: String, name: String, address: ListenSocket.Address) throws {
        let parsed = try ListenSocketSpec.parse(spec)
        #expect(parsed.name == name)
        #expect(parsed.address == address)
    }

    @Test(arguments: ["", "unix:", "tcp:", "80a", "host.example:80", "[::1]80", "70000", "1:2:3"])
    func badAddressesAreRefused(spec: String) {
        #expect(throws: ListenSocketError.self) { try ListenSocketSpec.parse(spec) }
    }

    @Test func aPortInUseIsRefusedInOneLine() throws {
        let first = try ListenSocket.bind("127.0.0.1:0")
        defer { first.close() }
        guard case .tcp(_, let port) = first.address, port != 0 else { Issue.record("no port: \(first.address)"); return }
        #expect(throws: ListenSocketError(spec: "127.0.0.1:\(port)", problem: .system(EADDRINUSE))) {
            try ListenSocket.bind("127.0.0.1:\(port)")
        }
        #expect(ListenSocketError(spec: "1", problem: .system(EADDRINUSE)).description == "--socket 1: address already in use")
    }

    @Test func aStaleSocketFileIsReplacedAndOneInUseIsNot() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("app.sock")
        // A server that ended without removing its socket file (another
        // process: a copy of a descriptor closed here could live on for a
        // moment in a child another test is spawning).
        let python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3"
        let stale = Command.run([python, "-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", path])
        #expect(stale.status == 0, "\(stale.errors)")
        let first = try ListenSocket.bind("unix:" + path)
        #expect(throws: ListenSocketError(spec: "unix:" + path, problem: .system(EADDRINUSE))) { try ListenSocket.bind("unix:" + path) }
        first.close()
        #expect(access(path, F_OK) != 0, "close removes the file it made")
        dir.write("plain", "x")
        #expect(throws: ListenSocketError(spec: "unix:" + dir.file("plain"), problem: .notASocket)) { try ListenSocket.bind("unix:" + dir.file("plain")) }
    }

    @Test func aRunGetsTheSocketsAsDescriptors3OnWithSystemdsVariables() throws {
        let tcp = try ListenSocket.bind("127.0.0.1:0")
        let unix = try ListenSocket.bind("api=unix:@rwatch-test-\(getpid())")
        defer { tcp.close(); unix.close() }
        var options = ProcessOptions()
        options.listenSockets = [tcp, unix]
        options.environment["LISTEN_PID"] = "1"
        let script = #"echo "$LISTEN_PID $$ $LISTEN_FDS $LISTEN_FDNAMES ${RWATCH_EXEC_SHIM-unset}"; readlink /proc/$$/fd/3 /proc/$$/fd/4; ls /proc/$$/fd | wc -l"#
        let run = ProcessRecorder(ProcessSource.run(["sh", "-c", script], options: options))
        #expect(run.waitUntilFinished())
        #expect(run.exit == .exited(0), "\(run.stderr)")
        let pid = run.pid.map(String.init) ?? "?"
        #expect(run.stdout.first == "\(pid) \(pid) 2 tcp:api unset", "\(run.stdout)")
        #expect(run.stdout.dropFirst().prefix(2).allSatisfy { $0.hasPrefix("socket:[") }, "\(run.stdout)")
        // The shell's 0, 1, 2 and the two sockets: nothing else leaked.
        #expect(run.stdout.last?.trimmingSpaces == "5", "\(run.stdout)")
    }

    @Test func aDescriptorHandedTwiceIsRefused() throws {
        let tcp = try ListenSocket.bind("127.0.0.1:0")
        defer { tcp.close() }
        var options = ProcessOptions()
        options.listenSockets = [tcp]
        options.descriptors = [3: 2]
        let run = ProcessRecorder(ProcessSource.run(["true"], options: options))
        #expect(run.waitUntilFinished())
        #expect(run.error.map { "\($0)".contains("descriptor 3 is handed over twice") } == true, "\(String(describing: run.error))")
    }
}
