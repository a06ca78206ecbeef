import Glibc
import Testing
import TestSupport

/// rwatch as `watchman` on a new user's machine: a `watchman` link to
/// rwatch first on `PATH`, a private `HOME`, `TMPDIR` and
/// `XDG_RUNTIME_DIR`, no `WATCHMAN_SOCK` and no service running. The
/// tools run `watchman` as they do everywhere (git's hook, pywatchman,
/// fb-watchman, Jest's version check, Sorbet's persistent session), and
/// the first of them starts the service.
@Suite struct WatchmanOnPathTests {
    /// One new user's world. `end()` stops the service the test started.
    struct NewUser {
        let scratch = Scratch()
        /// Where the service listens unless told: `$XDG_RUNTIME_DIR/rwatch/sock`.
        var sock: String { scratch.file("run/rwatch/sock") }
        var root: String { scratch.file("root") }

        init() {
            for name in ["bin", "home", "tmp", "run", "root"] { mkdir(scratch.file(name), 0o700) }
            symlink(RWatch.binDirectory + "/rwatch", scratch.file("bin/watchman"))
        }

        /// The whole environment of every command: nothing of the test
        /// runner's but the system's `PATH`, after the `watchman` link.
        var environment: [String: String] {
            let system = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
            return ["PATH": scratch.file("bin") + ":" + system, "HOME": scratch.file("home"), "TMPDIR": scratch.file("tmp"),
                    "XDG_RUNTIME_DIR": scratch.file("run"), "LANG": "C.UTF-8", "NODE_PATH": "/usr/share/nodejs",
                    "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"]
        }

        /// Runs `arguments` to its end in the root, with the world's environment.
        func run(_ arguments: [String], input: String = "") -> Command.Result {
            Command.run(["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", root] + arguments, environment: environment, input: input)
        }

        /// Starts `watchman arguments…` in the background (rwatch through the link).
        func start(_ arguments: [String], stdin: Int32) -> RWatch {
            RWatch(arguments, in: root, environment: environment, unsetting: ["WATCHMAN_SOCK", "XDG_CACHE_HOME", "NO_COLOR"],
                   wrapper: ["/bin/sh", "-c", "shift; exec \"$0\" \"$@\"", scratch.file("bin/watchman")],
                   stdin: stdin, scratch: scratch)
        }

        /// The service's log, where each start says it is listening.
        var starts: Int { Scratch.read(sock + ".log").components(separatedBy: "listening on").count - 1 }

        func end() {
            killService(pidFile: sock + ".pid")
            scratch.remove()
        }
    }

    @Test func jestsVersionCheckAnswersWithoutAService() {
        let world = NewUser()
        defer { world.end() }
        let result = world.run(["watchman", "--version"])
        #expect(result.status == 0)
        #expect(result.output.split(separator: ".").count >= 2, "\(result.output)")
    }

    @Test func getSocknameStartsTheServiceInEveryEncoding() {
        let world = NewUser()
        defer { world.end() }
        let json = world.run(["watchman", "--no-pretty", "get-sockname"])
        #expect(json.status == 0, "\(json.errors)")
        #expect(json.output.contains("\"sockname\":\"\(world.sock)\"") && json.output.contains("\"unix_domain\":\"\(world.sock)\""))
        #expect(json.output.contains("\"version\":"))
        for encoding in ["bser", "bser-v2"] {
            let result = world.run(["watchman", "--output-encoding=\(encoding)", "get-sockname"])
            #expect(result.status == 0, "\(result.errors)")
            #expect(result.output.utf8.starts(with: [0, encoding == "bser" ? 1 : 2]))
            #expect(result.output.contains(world.sock))
        }
        #expect(world.starts == 1)
    }

    @Test func aHundredClientsAtOnceStartOneService() {
        let world = NewUser()
        defer { world.end() }
        let script = """
            i=0; while [ $i -lt 100 ]; do
                (watchman --no-pretty get-sockname > "$TMPDIR/out.$i" 2>&1; echo $? > "$TMPDIR/status.$i") & i=$((i + 1))
            done
            wait
            """
        #expect(world.run(["/bin/sh", "-c", script]).status == 0)
        let answered = (0..<100).filter {
            Scratch.read(world.scratch.file("tmp/status.\($0)")) == "0\n"
                && Scratch.read(world.scratch.file("tmp/out.\($0)")).contains("\"sockname\":\"\(world.sock)\"")
        }
        #expect(answered.count == 100, "\(Scratch.read(world.scratch.file("tmp/out.0")))")
        #expect(world.starts == 1, "\(Scratch.read(world.sock + ".log"))")
    }

    @Test(.enabled(if: ServeClientTests.required || ServeClientTests.hasPywatchman))
    func pywatchmanFindsTheServiceThroughTheWatchmanCommand() {
        let world = NewUser()
        defer { world.end() }
        let script = """
            import sys, pywatchman
            for enc in ("bser", "json"):
                c = pywatchman.client(sendEncoding=enc, recvEncoding=enc, timeout=30)
                assert c.query("get-sockname")["sockname"] == sys.argv[1], c.query("get-sockname")
                assert c.query("watch-project", sys.argv[2])["watch"] == sys.argv[2]
                c.close()
            print("ok")
            """
        // The Python of `make deps` is named relative to the package; the command runs in the root.
        var python = ServeClientTests.python
        if python.contains("/"), !python.hasPrefix("/") { python = String(cString: getcwd(nil, 0)) + "/" + python }
        let result = world.run([python, "-c", script, world.sock, world.root])
        #expect(result.output == "ok\n", "\(result.errors)")
        #expect(world.starts == 1)
    }

    @Test(.enabled(if: ServeNodeClientTests.required || ServeNodeClientTests.hasFBWatchman))
    func fbWatchmanFindsTheServiceThroughTheWatchmanCommand() {
        let world = NewUser()
        defer { world.end() }
        let script = """
            const watchman = require('fb-watchman');
            const client = new watchman.Client();
            client.on('error', (e) => { console.error(e); process.exit(1); });
            client.capabilityCheck({optional: [], required: ['relative_root']}, (error) => {
              if (error) { console.error(error); process.exit(1); }
              client.command(['get-sockname'], (error, reply) => {
                if (error || reply.sockname !== process.argv[1]) { console.error(error || reply); process.exit(1); }
                console.log('ok'); client.end();
              });
            });
            """
        let result = world.run(["node", "-e", script, world.sock])
        #expect(result.output == "ok\n", "\(result.errors)")
        #expect(world.starts == 1)
    }

    @Test func sorbetsPersistentSessionPrintsResultsAndStatesAsTheyCome() {
        let world = NewUser()
        defer { world.end() }
        #expect(world.run(["watchman", "watch-project", world.root]).status == 0)
        world.scratch.write("subscribe", "[\"subscribe\", \"\(world.root)\", \"ruby\", {\"fields\": [\"name\"], \"expression\": [\"suffix\", \"rb\"]}]\n")
        let input = open(world.scratch.file("subscribe"), O_RDONLY | O_CLOEXEC)
        let session = world.start(["-j", "-p", "--no-pretty"], stdin: input)
        close(input)
        defer { kill(session.pid, SIGKILL); _ = session.waitForExit() }
        let lines = { session.stdout.split(separator: "\n") }
        #expect(eventually { lines().contains { $0.contains("\"subscribe\":\"ruby\"") } })
        world.scratch.write("root/app.rb", "puts 1")
        #expect(eventually { lines().contains { $0.contains("\"subscription\":\"ruby\"") && $0.contains("app.rb") } }, "\(session.stdout)")
        // A state belongs to the connection that entered it: the command's
        // ends when it exits, and subscribers see it left, abandoned.
        #expect(world.run(["watchman", "state-enter", world.root, "hg.update"]).status == 0)
        #expect(eventually { lines().contains { $0.contains("\"state-enter\":\"hg.update\"") } }, "\(session.stdout)")
        #expect(eventually { lines().contains { $0.contains("\"state-leave\":\"hg.update\"") && $0.contains("\"abandoned\":true") } },
                "\(session.stdout)")
        #expect(lines().allSatisfy { $0.first == "{" && $0.last == "}" }, "every PDU is one line of JSON")
        #expect(session.exitStatus() == nil)
    }
}
