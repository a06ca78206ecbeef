import Glibc
import Testing
import TestSupport

/// rwatch run as `watchman` (a symlink of that name in a scratch bin
/// directory): watchman's command line against `rwatch serve`, which it
/// starts on demand. Each test has its own socket, runtime and temporary
/// directories, and kills any service it started.
@Suite struct WatchmanCommandTests {
    /// One test's world: its scratch directory, socket and `watchman`.
    struct World {
        let scratch = Scratch()
        var sock: String { scratch.file("state/sock") }

        init() {
            for name in ["bin", "run", "tmp", "root"] { mkdir(scratch.file(name), 0o700) }
            symlink(RWatch.binDirectory + "/rwatch", scratch.file("bin/watchman"))
        }

        /// Starts `watchman arguments…` (through the symlink) in the scratch
        /// directory, with `environment` added, under `prefix` (`nice`).
        func start(_ arguments: [String], stdin: Int32? = nil, environment: [String: String] = [:], prefix: [String] = []) -> RWatch {
            // The wrapper drops the rwatch path Support puts first and runs the symlink.
            RWatch(arguments, in: scratch.path,
                   environment: ["XDG_RUNTIME_DIR": scratch.file("run"), "TMPDIR": scratch.file("tmp")].merging(environment) { $1 },
                   wrapper: prefix + ["/bin/sh", "-c", "shift; exec \"$0\" \"$@\"", scratch.file("bin/watchman")],
                   stdin: stdin, scratch: scratch)
        }

        /// Runs `watchman arguments…` to its end: its status and output.
        func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
                 prefix: [String] = []) -> (status: Int32?, stdout: String, stderr: String) {
            var descriptor: Int32?
            if let stdin {
                scratch.write("stdin-\(arguments.count)", stdin)
                descriptor = open(scratch.file("stdin-\(arguments.count)"), O_RDONLY | O_CLOEXEC)
            }
            defer { descriptor.map { _ = close($0) } }
            let process = start(arguments, stdin: descriptor, environment: environment, prefix: prefix)
            let status = process.waitForExit()
            if status == nil { process.interrupt() }
            return (status, process.stdout, process.stderr)
        }

        /// Stops the service the test started (its pid file names it) and
        /// removes the scratch directory.
        func end() {
            killService(pidFile: sock + ".pid")
            scratch.remove()
        }
    }

    /// The number after `"key":` in a compact JSON answer.
    static func number(_ key: String, in text: String) -> Int? {
        guard let range = text.firstRange(of: "\"\(key)\":") else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    /// The string after `"key":` in a compact JSON answer.
    static func string(_ key: String, in text: String) -> String? {
        guard let range = text.firstRange(of: "\"\(key)\":\"") else { return nil }
        return String(text[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test func versionExitsZero() {
        let world = World()
        defer { world.end() }
        let result = world.run(["--version"])
        #expect(result.status == 0)
        #expect(!result.stdout.isEmpty)
    }

    @Test func getSocknameStartsTheService() {
        let world = World()
        defer { world.end() }
        let result = world.run(["-U", world.sock, "get-sockname"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.string("sockname", in: result.stdout) == world.sock)
        #expect(Self.string("unix_domain", in: result.stdout) == world.sock)
        #expect(Self.string("version", in: result.stdout) != nil)
    }

    @Test func noSpawnWithoutAServiceFails() {
        let world = World()
        defer { world.end() }
        let result = world.run(["--no-spawn", "-U", world.sock, "version"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("unable to talk to your watchman"))
        #expect(access(world.sock, F_OK) != 0)
    }

    @Test func queryWithSinceListsAFileMadeAfterTheClock() {
        let world = World()
        defer { world.end() }
        let root = world.scratch.file("root")
        #expect(world.run(["-U", world.sock, "watch-project", root]).status == 0)
        let clock = world.run(["-U", world.sock, "clock", root, "--no-pretty"])
        let since = Self.string("clock", in: clock.stdout) ?? "none"
        world.scratch.write("root/made-after", "x")
        #expect(eventually {
            let query = world.run(["-U", world.sock, "query", root, "{\"since\": \"\(since)\", \"fields\": [\"name\"]}"])
            return query.status == 0 && query.stdout.contains("made-after")
        })
    }

    @Test func answerWithErrorExitsNonZero() {
        let world = World()
        defer { world.end() }
        let result = world.run(["-U", world.sock, "no-such-command"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\"error\""))
    }

    @Test func jsonCommandReadsTheRequestFromStdin() {
        let world = World()
        defer { world.end() }
        let result = world.run(["-U", world.sock, "-j", "--no-pretty"], stdin: "[\"get-pid\"]\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.number("pid", in: result.stdout) != nil)
    }

    @Test func outputEncodingBSERGivesBSER() {
        let world = World()
        defer { world.end() }
        let process = world.start(["-U", world.sock, "--output-encoding", "bser", "version"])
        #expect(process.waitForExit() == 0)
        #expect(process.stdoutBytes.starts(with: [0x00, 0x01]))
    }

    @Test func persistentPrintsEachSubscriptionPDU() {
        let world = World()
        defer { world.end() }
        let root = world.scratch.file("root")
        #expect(world.run(["-U", world.sock, "watch-project", root]).status == 0)
        world.scratch.write("subscribe", "[\"subscribe\", \"\(root)\", \"s1\", {\"fields\": [\"name\"]}]")
        let input = open(world.scratch.file("subscribe"), O_RDONLY | O_CLOEXEC)
        let persistent = world.start(["-U", world.sock, "-p", "-j", "--no-pretty"], stdin: input)
        close(input)
        defer { kill(persistent.pid, SIGKILL); _ = persistent.waitForExit() }
        // The subscribe answer, then the initial result.
        #expect(eventually { persistent.stdout.split(separator: "\n").filter { $0.contains("\"subscription\":\"s1\"") }.count >= 1 })
        world.scratch.write("root/changed-later", "x")
        #expect(eventually { persistent.stdout.split(separator: "\n").contains { $0.contains("changed-later") } })
        #expect(persistent.exitStatus() == nil)
    }

    @Test func staleSocketIsReplaced() {
        let world = World()
        defer { world.end() }
        mkdir(world.scratch.file("state"), 0o700)
        // A socket whose listener is gone: connecting gives ECONNREFUSED.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(world.sock.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        close(fd)
        let result = world.run(["-U", world.sock, "--no-pretty", "get-pid"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.number("pid", in: result.stdout) != nil)
    }

    @Test func anUnknownCommandIsAJSONErrorOnStdoutEvenWhenPretty() {
        let world = World()
        defer { world.end() }
        let result = world.run(["-U", world.sock, "--pretty", "unknown-command"])
        #expect(result.status == 1)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.contains("failed to validate command: unknown command unknown-command"))
        #expect(result.stdout.contains("\n    \"error\""), "--pretty indents: \(result.stdout)")
    }

    @Test func aRelativeRootIsSentResolved() {
        let world = World()
        defer { world.end() }
        let result = world.run(["-U", world.sock, "--no-pretty", "watch", "root"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(Self.string("watch", in: result.stdout) == world.scratch.file("root"))
    }

    /// A global configuration file naming `spawner` (a shell script's body).
    private func siteSpawner(_ world: World, _ body: String) -> [String: String] {
        world.scratch.write("spawner", "#!/bin/sh\n" + body)
        chmod(world.scratch.file("spawner"), 0o755)
        world.scratch.write("watchman.json", "{\"spawn_watchman_service\": \"\(world.scratch.file("spawner"))\"}")
        return ["WATCHMAN_CONFIG_FILE": world.scratch.file("watchman.json")]
    }

    @Test func aFailingSiteSpawnerIsReportedAndNoSiteSpawnerStartsItHere() {
        let world = World()
        defer { world.end() }
        let environment = siteSpawner(world, "echo 'failed to start'\nexit 3\n")
        let failed = world.run(["-U", world.sock, "version"], environment: environment)
        #expect(failed.status == 1 && failed.stdout.isEmpty)
        #expect(failed.stderr.contains("failed to start\n"), "the spawner's own output reaches stderr")
        #expect(failed.stderr.contains("spawner: exited with status 3"), "\(failed.stderr)")
        let started = world.run(["-U", world.sock, "--no-site-spawner", "--no-pretty", "version"], environment: environment)
        #expect(started.status == 0 && started.stdout.contains("\"version\""), "\(started.stderr)")
    }

    @Test func aSiteSpawnerStartsTheServiceWithWatchmansOptions() {
        let world = World()
        defer { world.end() }
        let body = "printf '%s\\n' \"$@\" > \"$0.args\"\nexec \(world.scratch.file("bin/watchman")) --foreground \"$@\" </dev/null >/dev/null 2>&1 &\n"
        let environment = siteSpawner(world, body)
        let result = world.run(["-U", world.sock, "--no-pretty", "get-pid"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let arguments = Scratch.read(world.scratch.file("spawner.args")).split(separator: "\n")
        #expect(arguments.contains("--unix-listener-path=\(world.sock)"[...]), "\(arguments)")
        #expect(Self.number("pid", in: result.stdout) == Int(Scratch.read(world.sock + ".pid").filter(\.isNumber)))
    }

    @Test func aNicedServiceRefusesToStartAndSaysSo() {
        let world = World()
        defer { world.end() }
        let refused = world.run(["-U", world.sock, "version"], prefix: ["nice", "-n", "5"])
        #expect(refused.status == 1 && refused.stdout.isEmpty)
        #expect(refused.stderr.contains("refusing to start"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "one line: \(refused.stderr)")
        world.scratch.write("watchman.json", "{\"min_acceptable_nice_value\": 5}")
        let allowed = world.run(["-U", world.sock, "version"], environment: ["WATCHMAN_CONFIG_FILE": world.scratch.file("watchman.json")],
                                prefix: ["nice", "-n", "5"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
    }
}
