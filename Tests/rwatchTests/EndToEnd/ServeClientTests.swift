import Glibc
import Testing
import TestSupport

/// `rwatch serve` driven by the real clients: pywatchman (BSER, which
/// starts in v1 and moves to v2, and JSON) and Debian's `watchman` CLI.
/// `make test` installs both and sets RWATCH_CLIENT_TESTS=1, which turns a
/// missing client into a failure instead of a skip.
@Suite struct ServeClientTests {
    static let required = getenv("RWATCH_CLIENT_TESTS").map { String(cString: $0) } == "1"
    /// The Python with pywatchman: `make deps` puts it in a virtualenv.
    static let python = getenv("RWATCH_PYTHON").map { String(cString: $0) } ?? "python3"
    static let hasPywatchman = Command.run([python, "-c", "import pywatchman"]).status == 0
    static let hasWatchman = Command.run(["watchman", "--version"]).status == 0

    private func serve(_ scratch: Scratch) -> (RWatch, String) {
        let sock = scratch.file("sock")
        let server = RWatch(["serve", "--sockname", sock], in: scratch.path, scratch: scratch)
        #expect(eventually { WatchmanSocket(sock) != nil })
        return (server, sock)
    }

    /// Checks every server command through pywatchman with `encoding`;
    /// prints `ok` when each answer was right.
    private static let pywatchmanScript = #"""
    import os, sys, pywatchman
    enc = sys.argv[1]
    c = pywatchman.client(sendEncoding=enc, recvEncoding=enc, timeout=20)
    v = c.query("version")
    assert "version" in v and "error" not in v, v
    caps = c.capabilityCheck(optional=["bser-v2", "will-never-exist"], required=["cmd-version"])
    assert caps["capabilities"] == {"bser-v2": True, "will-never-exist": False, "cmd-version": True}, caps
    try:
        c.capabilityCheck(required=["cmd-version", "will-never-exist"])
        raise SystemExit("no error for a missing capability")
    except pywatchman.CommandError as e:
        assert "client required capabilities [will-never-exist] not supported by this server" in str(e), e
    s = c.query("get-sockname")
    assert s["sockname"] == os.environ["WATCHMAN_SOCK"] and s["unix_domain"] == s["sockname"], s
    assert c.query("get-pid")["pid"] == int(sys.argv[2])
    assert "cmd-get-pid" in c.listCapabilities()
    assert c.query("log-level", "debug")["log_level"] == "debug"
    assert c.query("log", "debug", "pywatchman " + enc)["logged"]
    while not any(("pywatchman " + enc) in line for line in c.getLog(remove=False)):
        c.receive()
    try:
        c.query("no-such-command")
        raise SystemExit("no error for an unknown command")
    except pywatchman.CommandError as e:
        assert "unknown command no-such-command" in str(e), e
    if len(sys.argv) > 3:
        assert c.query("shutdown-server")["shutdown-server"]
    print("ok")
    """#

    @Test(.enabled(if: required || hasPywatchman)) func pywatchmanInBSERAndJSON() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let (server, sock) = serve(scratch)
        for encoding in ["bser", "json"] {
            let run = Command.run([Self.python, "-c", Self.pywatchmanScript, encoding, "\(server.pid)"], environment: ["WATCHMAN_SOCK": sock])
            #expect(run.output == "ok\n", "\(encoding): \(run.errors)")
        }
        let last = Command.run([Self.python, "-c", Self.pywatchmanScript, "bser", "\(server.pid)", "shutdown"], environment: ["WATCHMAN_SOCK": sock])
        #expect(last.output == "ok\n", "\(last.errors)")
        #expect(server.waitForExit() == 0)
        #expect(access(sock, F_OK) != 0)
    }

    /// Debian's watchman 4.9 CLI reads no WATCHMAN_SOCK: the socket goes
    /// by `-U`. `--no-spawn` so it never starts a daemon of its own.
    static func watchman(_ arguments: [String], sock: String, input: String = "") -> Command.Result {
        Command.run(["watchman", "--no-spawn", "--no-local", "-U", sock, "--no-pretty"] + arguments,
                    environment: ["WATCHMAN_SOCK": sock, "HOME": "/nonexistent"], input: input)
    }

    @Test(.enabled(if: required || hasWatchman)) func theWatchmanCommandLineClient() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let (server, sock) = serve(scratch)
        #expect(Self.watchman(["version"], sock: sock).output.contains("\"buildinfo\":\"rwatch"))
        #expect(Self.watchman(["get-sockname"], sock: sock).output.contains("\"unix_domain\":\"\(sock)\""))
        #expect(Self.watchman(["get-pid"], sock: sock).output.contains("\"pid\":\(server.pid)"))
        #expect(Self.watchman(["list-capabilities"], sock: sock).output.contains("\"cmd-log-level\""))
        #expect(Self.watchman(["--server-encoding=json", "log-level", "error"], sock: sock).output.contains("\"log_level\":\"error\""))
        let required = Self.watchman(["-j"], sock: sock, input: #"["version", {"required": ["will-never-exist"]}]"#)
        #expect(required.output.contains("client required capabilities [will-never-exist] not supported by this server"))
        #expect(Self.watchman(["shutdown-server"], sock: sock).output.contains("\"shutdown-server\":true"))
        #expect(server.waitForExit() == 0)
    }
}
