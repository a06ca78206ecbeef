import Glibc
import Testing
import TestSupport

/// The root half of `rwatch serve` driven by real clients: pywatchman in
/// BSER and JSON, Debian's `watchman` CLI, and git's `fsmonitor-watchman`
/// hook (through that CLI) as `core.fsmonitor`. `make test` sets
/// RWATCH_CLIENT_TESTS=1: a missing client is then a failure, not a skip.
@Suite struct ServeQueryClientTests {
    static let required = ServeClientTests.required
    static let python = ServeClientTests.python
    static let hasPywatchman = ServeClientTests.hasPywatchman
    static let hasWatchman = ServeClientTests.hasWatchman
    static let hook = "/usr/share/git-core/templates/hooks/fsmonitor-watchman.sample"
    static let hasGitHook = access(hook, R_OK) == 0 && Command.run(["git", "--version"]).status == 0 && Command.run(["perl", "-MJSON::PP", "-e", "1"]).status == 0

    private func serve(_ scratch: Scratch) -> (RWatch, String) {
        let sock = scratch.file("sock")
        let server = RWatch(["serve", "--sockname", sock], in: scratch.path, scratch: scratch)
        #expect(eventually { WatchmanSocket(sock) != nil })
        return (server, sock)
    }

    /// A project (a `.git` marker) with a few files; its real path.
    private func project(_ scratch: Scratch) -> String {
        let root = scratch.file("project")
        mkdir(root, 0o755)
        mkdir(root + "/.git", 0o755)
        mkdir(root + "/sub", 0o755)
        for name in ["a.c", "b.txt", "sub/c.c"] { TemporaryDirectory.write(bytes: Array((root + "/" + name).utf8), "x") }
        guard let resolved = realpath(root, nil) else { return root }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// watch-project, clock, query with since, find and named cursors,
    /// through pywatchman in the encoding given; prints `ok`.
    private static let pywatchmanScript = #"""
    import os, sys, pywatchman
    enc, root = sys.argv[1], sys.argv[2]
    c = pywatchman.client(sendEncoding=enc, recvEncoding=enc, timeout=30)
    w = c.query("watch-project", os.path.join(root, "sub"))
    assert w["watch"] == root and w["relative_path"] == "sub", w
    clock = c.query("clock", root, {"sync_timeout": 10000})["clock"]
    fresh = c.query("query", root, {"since": "n:" + enc, "fields": ["name"]})
    assert fresh["is_fresh_instance"] and sorted(fresh["files"]) == [".git", "a.c", "b.txt", "sub", "sub/c.c"], fresh
    name = "new-" + enc
    open(os.path.join(root, "sub", name), "w").close()
    since = c.query("query", root, {"since": clock, "relative_root": "sub", "fields": ["name", "new", "exists"]})
    assert not since["is_fresh_instance"] and {"name": name, "new": True, "exists": True} in since["files"], since
    os.unlink(os.path.join(root, "sub", name))
    cursor = c.query("query", root, {"since": "n:" + enc, "fields": ["name", "exists"], "expression": ["name", name]})
    assert not cursor["is_fresh_instance"] and cursor["files"] == [{"name": "sub/" + name, "exists": False}], cursor
    found = c.query("find", root, "*.c")
    assert sorted(f["name"] for f in found["files"]) == ["a.c"], found
    deep = c.query("query", root, {"expression": ["match", "**/*.c", "wholename"], "fields": ["name", "size"]})
    assert sorted(f["name"] for f in deep["files"]) == ["a.c", "sub/c.c"] and all(f["size"] == 1 for f in deep["files"]), deep
    try:
        c.query("query", root, {"expression": ["frob"]})
        raise SystemExit("no error for an unknown term")
    except pywatchman.CommandError as e:
        assert "unknown expression term 'frob'" in str(e), e
    print("ok")
    """#

    @Test(.enabled(if: required || hasPywatchman)) func pywatchmanWatchesQueriesAndFinds() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let root = project(scratch)
        let (server, sock) = serve(scratch)
        for encoding in ["bser", "json"] {
            let run = Command.run([Self.python, "-c", Self.pywatchmanScript, encoding, root], environment: ["WATCHMAN_SOCK": sock])
            #expect(run.output == "ok\n", "\(encoding): \(run.errors)")
        }
        #expect(server.interrupt() == 0)
    }

    /// Debian's watchman 4.9 CLI, `-U` naming the socket.
    private func watchman(_ arguments: [String], sock: String, input: String = "") -> Command.Result {
        ServeClientTests.watchman(arguments, sock: sock, input: input)
    }

    @Test(.enabled(if: required || hasWatchman)) func theWatchmanCommandLineClientWatchesQueriesAndFinds() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let root = project(scratch)
        let (server, sock) = serve(scratch)
        let watched = watchman(["watch-project", root + "/sub"], sock: sock)
        #expect(watched.output.contains("\"watch\":\"\(root)\"") && watched.output.contains("\"relative_path\":\"sub\""), "\(watched.output)\(watched.errors)")
        let clock = watchman(["clock", root], sock: sock).output
        #expect(clock.contains("\"clock\":\"c:"))
        TemporaryDirectory.write(bytes: Array((root + "/d.c").utf8), "y")
        let query = watchman(["-j"], sock: sock, input: #"["query", "\#(root)", {"expression": ["suffix", "c"], "fields": ["name"]}]"#)
        #expect(query.output.contains("\"d.c\"") && query.output.contains("\"sub/c.c\""), "\(query.output)\(query.errors)")
        let since = watchman(["since", root, "n:cli"], sock: sock)
        #expect(since.output.contains("\"is_fresh_instance\":true"), "\(since.output)")
        unlink(root + "/d.c")
        let again = watchman(["since", root, "n:cli", "*.c"], sock: sock)
        #expect(again.output.contains("\"name\":\"d.c\"") && again.output.contains("\"exists\":false"), "\(again.output)")
        // `--`: the CLI would take `-p` for its own `--persistent`.
        let found = watchman(["find", root, "--", "-p", "\\.txt$"], sock: sock)
        #expect(found.output.contains("\"name\":\"b.txt\"") && !found.output.contains("a.c"), "\(found.output)")
        #expect(server.interrupt() == 0)
    }

    /// A repository whose `core.fsmonitor` is git's sample hook, talking to
    /// the service through the `watchman` CLI (found first on PATH: a
    /// wrapper that names the socket).
    private func repository(_ scratch: Scratch, sock: String) -> (root: String, environment: [String: String]) {
        let root = scratch.file("repo")
        mkdir(root, 0o755)
        let bin = scratch.file("bin")
        mkdir(bin, 0o755)
        TemporaryDirectory.write(bytes: Array((bin + "/watchman").utf8), "#!/bin/sh\nexec /usr/bin/watchman --no-spawn --no-local -U \"$WATCHMAN_SOCK\" \"$@\"\n")
        chmod(bin + "/watchman", 0o755)
        let path = bin + ":" + (getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin")
        let environment = ["WATCHMAN_SOCK": sock, "PATH": path, "HOME": scratch.path, "GIT_CONFIG_NOSYSTEM": "1",
                           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"]
        let git = { (arguments: [String]) in Command.run(["git", "-C", root] + arguments, environment: environment) }
        _ = git(["init", "-q"])
        for index in 0..<30 {
            mkdir(root + "/d\(index % 4)", 0o755)
            TemporaryDirectory.write(bytes: Array((root + "/d\(index % 4)/f\(index)").utf8), "line \(index)\n")
        }
        _ = git(["add", "-A"])
        _ = git(["commit", "-q", "-m", "start"])
        let hook = Array(Scratch.readBytes(Self.hook))
        TemporaryDirectory.write(bytes: Array((root + "/.git/hooks/query-watchman").utf8), String(decoding: hook, as: UTF8.self))
        chmod(root + "/.git/hooks/query-watchman", 0o755)
        _ = git(["config", "core.fsmonitor", ".git/hooks/query-watchman"])
        return (root, environment)
    }

    @Test(.enabled(if: required || (hasWatchman && hasGitHook))) func gitStatusThroughTheFsmonitorHookMatchesAPlainScan() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let (server, sock) = serve(scratch)
        let (root, environment) = repository(scratch, sock: sock)
        let status = { (fsmonitor: Bool) in
            Command.run(["git", "-C", root, "-c", "core.fsmonitor=" + (fsmonitor ? ".git/hooks/query-watchman" : "false"),
                         "status", "--porcelain", "--untracked-files=all"], environment: environment)
        }
        _ = status(true)
        // The hook really answers (git falls back to scanning, silently, when it fails).
        var traced = environment
        traced["GIT_TRACE_FSMONITOR"] = "1"
        let trace = Command.run(["git", "-C", root, "status", "--porcelain"], environment: traced)
        #expect(trace.errors.contains("returned success"), "\(trace.errors)")
        var random = SystemRandomNumberGenerator()
        var names = (0..<30).map { "d\($0 % 4)/f\($0)" }
        for round in 0..<25 {
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                Self.change(root, &names, round: round, using: &random)
            }
            let plain = status(false)
            let monitored = status(true)
            #expect(monitored.status == 0 && monitored.errors.isEmpty, "round \(round): \(monitored.errors)")
            #expect(monitored.output == plain.output, "round \(round)")
        }
        #expect(server.interrupt() == 0)
    }

    /// One random change in the work tree: an edit (sometimes of the same
    /// size), a rename, a deletion, a new file or a new directory.
    private static func change(_ root: String, _ names: inout [String], round: Int, using random: inout SystemRandomNumberGenerator) {
        let name = names.randomElement(using: &random) ?? "d0/f0"
        switch Int.random(in: 0..<6, using: &random) {
        case 0: TemporaryDirectory.write(bytes: Array((root + "/" + name).utf8), "edit \(round)\n")
        case 1: TemporaryDirectory.write(bytes: Array((root + "/" + name).utf8), String(repeating: "z", count: Int.random(in: 1...40, using: &random)))
        case 2:
            let target = "d\(Int.random(in: 0..<4, using: &random))/moved\(round)-\(Int.random(in: 0..<1000, using: &random))"
            if rename(root + "/" + name, root + "/" + target) == 0 {
                names.removeAll { $0 == name }
                names.append(target)
            }
        case 3:
            if unlink(root + "/" + name) == 0 { names.removeAll { $0 == name } }
        case 4:
            let new = "d\(Int.random(in: 0..<4, using: &random))/new\(round)-\(Int.random(in: 0..<1000, using: &random))"
            TemporaryDirectory.write(bytes: Array((root + "/" + new).utf8), "new\n")
            names.append(new)
        default:
            let directory = "n\(round)-\(Int.random(in: 0..<1000, using: &random))"
            mkdir(root + "/" + directory, 0o755)
            TemporaryDirectory.write(bytes: Array((root + "/" + directory + "/inside").utf8), "inside\n")
            names.append(directory + "/inside")
        }
    }
}
