import Glibc
import Testing
import TestSupport

/// Every shell command the docs show runs as written: the README's shell
/// blocks and the man page's `.nf` blocks of command lines are read at test
/// time and each command is run by `sh` in a scratch project, with the
/// tools it names faked by scripts that record their arguments. A removed
/// flag, a renamed subcommand or a bad recipe name in a doc fails here.
///
/// A command that ends is expected to exit 0. A watch cannot end: once it
/// has run its command (the fake tool's record, or output) or armed (its
/// status line), it must not have failed with a usage error, and it is
/// stopped with SIGINT to its process group, as Ctrl-C would. A command
/// this test does not run is named in `notRun` with the reason.
@Suite struct DocumentedCommandTests {
    /// The repository root, from this file's path.
    private static let root: String = {
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    /// The commands of the docs that are not run, and why. Every command
    /// either runs or is named here (by its text, comment removed), so that
    /// a new command nobody runs is a choice made in this table.
    static let notRun: [String: String] = [
        "make run": "builds and runs this repository: make test is what runs the tests",
        "make test": "runs every test, this one among them",
        "npx jest --watch": "needs Jest and a JavaScript project; ServeNodeClientTests drives fb-watchman",
        "rwatch -r --socket web=0.0.0.0:80 --socket admin=unix:/run/app.sock -- ./server":
            "binds port 80 and /run/app.sock, the machine's own; SocketHandOverTests covers named sockets",
    ]

    /// Commands that run only with a client of the service installed.
    static let clients: [String: Client] = [
        "python3 -c 'import pywatchman; print(pywatchman.client().query(\"version\"))'": .pywatchman,
        "watchman --no-spawn -U \"$WATCHMAN_SOCK\" get-pid": .watchman,
        // rwatch's own watchman command (the project's bin has the link
        // rwatch-watchman installs), and git's fsmonitor hook through it,
        // set up in the scratch project's .git.
        "watchman version": .hook,
        "cp /usr/share/git-core/templates/hooks/fsmonitor-watchman.sample .git/hooks/query-watchman": .hook,
        "git config core.fsmonitor .git/hooks/query-watchman": .hook,
        "git status": .hook,
    ]

    /// A client of `rwatch serve` that a doc's command needs: pywatchman,
    /// a `watchman` command line, or rwatch's own `watchman` (git's
    /// fsmonitor hook needs only git besides).
    enum Client { case pywatchman, watchman, hook }

    /// Runs pywatchman commands only where it is installed, as ServeClientTests.
    static let hasClient: [Client: Bool] = [
        .pywatchman: ServeClientTests.required || ServeClientTests.hasPywatchman,
        .watchman: ServeClientTests.required || ServeClientTests.hasWatchman,
        .hook: true,
    ]

    /// The tools the docs' commands start, faked: each records its name and
    /// arguments in the record file and exits 0 (`jq` also drains its input).
    static let fakeTools = ["make", "cargo", "npm", "npx", "swift", "pytest", "notify-send", "cc", "pandoc",
                            "prettier", "tail", "wc", "jq", "rsync"]

    // MARK: Extraction

    /// The README's shell blocks (```sh, ```bash, ```shell, ```console), in order.
    static func shellBlocks(inMarkdown text: String) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, ["```sh", "```bash", "```shell", "```console"].contains(line) { current = []; continue }
            if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
                continue
            }
            current?.append(String(line))
        }
        return blocks
    }

    /// The man page's `.nf` … `.fi` blocks that hold command lines (a line
    /// starting `rwatch ` or `export `), with troff's escapes undone. Status
    /// lines (`rwatch:`) and recipes are not commands.
    static func shellBlocks(inManPage text: String) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == ".nf" { current = []; continue }
            if line == ".fi" {
                if let lines = current, lines.contains(where: { $0.hasPrefix("rwatch ") || $0.hasPrefix("export ") }) {
                    blocks.append(lines.joined(separator: "\n"))
                }
                current = nil
                continue
            }
            guard current != nil, !line.hasPrefix(".") else { continue }
            current?.append(DocumentedRecipeTests.untroff(String(line)))
        }
        return blocks
    }

    /// The commands of a shell block: a quoted string may span lines, a
    /// `#` that starts a word outside quotes starts a comment, blank lines
    /// and comment lines are not commands.
    static func commands(inBlock block: String) -> [String] {
        var commands: [String] = []
        var current = ""
        var quote: Character?
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            var kept = ""
            var previous: Character = " "
            var escaped = false
            for character in line {
                defer { previous = character }
                if escaped { escaped = false; kept.append(character); continue }
                if let open = quote {
                    if character == open { quote = nil } else if character == "\\" && open == "\"" { escaped = true }
                    kept.append(character)
                    continue
                }
                if character == "#" && (previous == " " || previous == "\t") || character == "#" && kept.isEmpty { break }
                if character == "'" || character == "\"" { quote = character }
                if character == "\\" { escaped = true }
                kept.append(character)
            }
            current += current.isEmpty ? kept : "\n" + kept
            if quote == nil {
                var text = current
                while text.last == " " || text.last == "\t" { text.removeLast() }
                if !text.trimmingSpaces.isEmpty { commands.append(text) }
                current = ""
            }
        }
        return commands
    }

    // MARK: Running

    /// What the test does with one command.
    enum Kind: Equatable {
        case watchOrRun       // rwatch …: ends with 0, or runs its command / arms, then SIGINT
        case background       // rwatch serve … &: left running for the block's next commands
        case environment      // export NAME=$(rwatch …): its effect reaches the block's next commands
        case client(Client)   // a client of the service, run where installed
        case notRun(String)
    }

    /// Whether an rwatch command ends by itself: it then must, with 0.
    /// `-1` runs once (`-1 -p` waits for a change first); `check`, `init`,
    /// `recipes` and `completions` print or write, then exit.
    static func ends(_ command: String) -> Bool {
        let words = command.split(separator: " ")
        if ["check", "init", "recipes", "completions"].contains(words.dropFirst().first ?? "") { return true }
        return words.contains("-1") && !words.contains("-p")
    }

    static func kind(of command: String) -> Kind {
        if let reason = notRun[command] { return .notRun(reason) }
        if let client = clients[command] { return .client(client) }
        if command.hasPrefix("rwatch serve"), command.hasSuffix("&") { return .background }
        if command.hasPrefix("export "), command.contains("$(rwatch ") { return .environment }
        if command.hasPrefix("rwatch ") || command == "rwatch" { return .watchOrRun }
        if command.hasPrefix("python3 -c 'import os, pywatchman") { return .client(.pywatchman) }
        return .notRun("")  // unclassified: fails below
    }

    /// A scratch project for one block: sources, logs, a server, fake tools.
    struct Project {
        let scratch = Scratch()
        var directory: String { scratch.file("project") }
        var record: String { scratch.file("calls") }
        var runtime: String { scratch.file("run") }
        var sock: String { runtime + "/rwatch/sock" }

        init(block: String) {
            for dir in ["project", "project/Sources", "project/Tests", "project/web", "project/target",
                        "project/target/debug", "bin", "home", "run"] {
                mkdir(scratch.file(dir), 0o700)
            }
            _ = Command.run(["git", "init", "-q", scratch.file("project")], environment: ["HOME": scratch.file("home")])
            scratch.write("calls", "")
            let record = "printf '%s\\n' \"${0##*/} $*\" >> '\(self.record)'\n"
            for tool in DocumentedCommandTests.fakeTools {
                let drain = tool == "jq" ? "exec cat > /dev/null\n" : ""
                writeScript("bin/\(tool)", "#!/bin/sh\n" + record + drain + "exit 0\n")
            }
            if DocumentedCommandTests.hasClient[.pywatchman] == true, let python = getenv("RWATCH_PYTHON") {
                writeScript("bin/python3", "#!/bin/sh\nexec '\(String(cString: python))' \"$@\"\n")
            }
            symlink(RWatch.binDirectory + "/rwatch", scratch.file("bin/rwatch"))
            // What rwatch-watchman installs: `watchman` is rwatch.
            symlink(RWatch.binDirectory + "/rwatch", scratch.file("bin/watchman"))
            for server in ["server", "target/debug/server"] {
                writeScript("project/\(server)", "#!/bin/sh\n" + record + "exit 0\n")
            }
            scratch.write("project/Package.swift", "// swift-tools-version:6.0\nimport PackageDescription\nlet package = Package(name: \"App\")\n")
            scratch.write("project/Sources/main.swift", "print(\"hello\")\n")
            scratch.write("project/tool.py", "print('hello')\n")
            scratch.write("project/.env", "GREETING=hello\n")
            scratch.write("project/log", "a line\n")
            scratch.write("project/app.log", "started\nan error in a request\nrequest timeout\n")
            scratch.write("project/worker.log", "connection refused\n")
            scratch.write("project/my-recipe.swift", "import RecipeKit\n\nlet recipe = Recipe(\"mine\", \"print saves\") {\n    FileWatcher.watch([\".\"]).batched(.milliseconds(100)).print()\n}\n")
            // A block that writes the project recipe with rwatch init finds none.
            if !DocumentedCommandTests.commands(inBlock: block).contains(where: { $0.hasPrefix("rwatch init") }) {
                scratch.write("project/rwatch.swift", Scratch.read(DocumentedCommandTests.root + "/recipes/rebuild-on-save.swift"))
            }
        }

        private func writeScript(_ name: String, _ text: String) {
            scratch.write(name, text)
            chmod(scratch.file(name), 0o755)
        }

        /// `sh -c script` in the project, leading a process group of its
        /// own (so that SIGINT reaches a whole pipeline, as Ctrl-C does).
        func start(_ script: String) -> Shell {
            let out = scratch.file(".out-\(UInt32.random(in: 0...UInt32.max))")
            var env: [String: String] = ["PATH": scratch.file("bin") + ":" + String(cString: getenv("PATH")),
                                         "HOME": scratch.file("home"), "XDG_RUNTIME_DIR": runtime,
                                         "XDG_CACHE_HOME": RWatch.cacheHome, "NO_COLOR": "1"]
            for name in ["TMPDIR", "LANG", "SWIFTC"] {
                if let value = getenv(name) { env[name] = String(cString: value) }
            }
            return Shell(script, in: directory, environment: env, output: out)
        }
    }

    /// One `sh -c` of a doc's command, leading its own process group, its
    /// stdin `/dev/null`, its output in files.
    final class Shell {
        let pid: pid_t
        let stdoutPath: String
        let stderrPath: String
        private var status: Int32?

        init(_ script: String, in directory: String, environment: [String: String], output: String) {
            stdoutPath = output + ".stdout"
            stderrPath = output + ".stderr"
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            let words: [String] = ["/bin/sh", "-c", "cd \"$0\" || exit 127\n\(script)", directory]
            let argv = words.map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            var child: pid_t = 0
            let result = withCleanSignals(flags: POSIX_SPAWN_SETPGROUP) { attributes in
                withoutSpawns { posix_spawn(&child, argv[0]!, &actions, &attributes, argv, envp) }
            }
            argv.forEach { free($0) }
            envp.forEach { free($0) }
            posix_spawn_file_actions_destroy(&actions)
            precondition(result == 0, "cannot start sh")
            pid = child
        }

        var stdout: String { Scratch.read(stdoutPath) }
        var stderr: String { Scratch.read(stderrPath) }

        /// The shell's exit status once it has ended (128+N for signal N), else nil.
        func exitStatus() -> Int32? {
            if let status { return status }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
            status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            return status
        }

        /// Ctrl-C to the whole group, then waits for all of it to end;
        /// SIGKILL if it does not. Returns the shell's status.
        @discardableResult
        func interruptGroup() -> Int32? {
            kill(-pid, SIGINT)
            if !eventually(.seconds(20), { _ = exitStatus(); return !ProcessGroups.hasRunningMembers(pid) }) {
                kill(-pid, SIGKILL)
                _ = eventually { !ProcessGroups.hasRunningMembers(pid) }
            }
            _ = eventually { exitStatus() != nil }
            return exitStatus()
        }
    }

    /// Runs a block's commands in order in one project; `withClients`
    /// also runs the commands of the service's clients.
    private func run(_ block: String, named name: String, withClients: Bool = false) -> [String] {
        var ran: [String] = []
        let project = Project(block: block)
        defer { project.scratch.remove() }
        var exports: [String] = []
        var background: [Shell] = []
        defer {
            for shell in background {
                shell.interruptGroup()
                #expect(!shell.stderr.contains("error:"), "\(name): a background command failed:\n\(shell.stderr)")
            }
            // A service a `watchman` command started on demand.
            killService(pidFile: project.sock + ".pid")
        }
        for command in Self.commands(inBlock: block) {
            let script = (exports + [command]).joined(separator: "\n")
            let context = "\(name): `\(command)`"
            switch Self.kind(of: command) {
            case .notRun(let reason):
                #expect(!reason.isEmpty, "\(context) is neither run nor named in DocumentedCommandTests.notRun")
                ran.append("\(context) not run: \(reason)")
            case .client(let client):
                guard withClients, Self.hasClient[client] == true else {
                    ran.append("\(context) not run: a client of the service, without it installed or here")
                    continue
                }
                ran.append("\(context) ran")
                let shell = project.start(script)
                #expect(eventually(.seconds(60)) { shell.exitStatus() != nil }, "\(context) did not end")
                if shell.exitStatus() == nil { shell.interruptGroup() }
                #expect(shell.exitStatus() == 0, "\(context) failed:\n\(shell.stderr)")
                if command.contains("export ") { exports.append(command) }
                if command == "git status" {
                    #expect(shell.stderr.isEmpty, "\(context): the fsmonitor hook failed:\n\(shell.stderr)")
                }
                if client == .pywatchman, command.contains("\"files\"") {
                    #expect(shell.stdout.contains("tool.py"), "\(context) printed:\n\(shell.stdout)")
                }
            case .environment:
                let shell = project.start(script)
                #expect(eventually(.seconds(60)) { shell.exitStatus() != nil }, "\(context) did not end")
                if shell.exitStatus() == nil { shell.interruptGroup() }
                #expect(shell.exitStatus() == 0, "\(context) failed:\n\(shell.stderr)")
                exports.append(command)
                ran.append("\(context) ran, kept for the next commands")
            case .background:
                let shell = project.start(script)
                background.append(shell)
                ran.append("\(context) ran in the background")
                #expect(eventually(.seconds(60)) { WatchmanSocket(project.sock) != nil },
                        "\(context) did not listen on \(project.sock):\n\(shell.stderr)")
            case .watchOrRun where Self.ends(command):
                let shell = project.start(script)
                #expect(eventually(.seconds(180)) { shell.exitStatus() != nil }, "\(context) did not end")
                if shell.exitStatus() == nil { shell.interruptGroup() }
                #expect(shell.exitStatus() == 0, "\(context) exited \(shell.exitStatus() ?? -1):\n\(shell.stderr)")
                ran.append("\(context) ended")
            case .watchOrRun:
                let calls = Scratch.read(project.record).count
                let shell = project.start(script)
                // A command that waits for a change and says nothing until
                // then (rwatch events) gets one: a file written now and then.
                var pokes = 0
                let active = eventually(.seconds(180)) {
                    pokes += 1
                    if pokes % 250 == 0 { project.scratch.write("project/poke.txt", "\(pokes)\n") }
                    return shell.exitStatus() != nil || Scratch.read(project.record).count > calls || !shell.stdout.isEmpty
                        || shell.stderr.contains("waiting for a change") || shell.stderr.contains(" running")
                        || shell.stderr.contains("error:")
                }
                #expect(active, "\(context) neither ran its command nor armed:\n\(shell.stderr)")
                if let status = shell.exitStatus() {
                    #expect(status == 0, "\(context) exited \(status):\n\(shell.stderr)")
                    ran.append("\(context) ended")
                } else {
                    // Only what it said before Ctrl-C: stopping may cut a run short.
                    let said = shell.stderr
                    #expect(!said.contains("error:"), "\(context) failed:\n\(said)")
                    let status = shell.interruptGroup()
                    #expect(status != 2, "\(context) exited 2 on SIGINT:\n\(shell.stderr)")
                    ran.append("\(context) ran, then SIGINT")
                }
            }
        }
        return ran
    }

    // MARK: Tests

    @Test func everyShellCommandInTheReadmeRuns() {
        let blocks = Self.shellBlocks(inMarkdown: Scratch.read(Self.root + "/README.md"))
        #expect(blocks.count >= 4, "found \(blocks.count) shell blocks in README.md")
        for (index, block) in blocks.enumerated() {
            print(run(block, named: "README.md block \(index + 1)").joined(separator: "\n"))
        }
    }

    @Test func everyCommandInTheManPageRuns() {
        let blocks = Self.shellBlocks(inManPage: Scratch.read(Self.root + "/man/rwatch.1"))
        #expect(blocks.count >= 4, "found \(blocks.count) command blocks in man/rwatch.1")
        for (index, block) in blocks.enumerated() {
            print(run(block, named: "man/rwatch.1 block \(index + 1)").joined(separator: "\n"))
        }
    }

    /// The service's examples with their clients: pywatchman's snippets
    /// (the README's query and the man page's version) and the watchman CLI.
    @Test(.enabled(if: hasClient[.pywatchman] == true)) func theServiceExamplesAnswerTheirClients() {
        let blocks = Self.shellBlocks(inMarkdown: Scratch.read(Self.root + "/README.md"))
            + Self.shellBlocks(inManPage: Scratch.read(Self.root + "/man/rwatch.1"))
        let service = blocks.filter { block in
            Self.commands(inBlock: block).contains { if case .client = Self.kind(of: $0) { true } else { false } }
        }
        #expect(service.count == 2, "found \(service.count) blocks with a client of the service")
        for (index, block) in service.enumerated() {
            print(run(block, named: "service block \(index + 1)", withClients: true).joined(separator: "\n"))
        }
    }

    /// Every command the table skips is still in a doc: a stale entry would
    /// hide the next command written the same way.
    @Test func everyCommandNotRunIsInADoc() {
        let commands = (Self.shellBlocks(inMarkdown: Scratch.read(Self.root + "/README.md"))
            + Self.shellBlocks(inManPage: Scratch.read(Self.root + "/man/rwatch.1"))).flatMap(Self.commands(inBlock:))
        for name in Array(Self.notRun.keys) + Array(Self.clients.keys) {
            let shown = commands.contains(name)
            #expect(shown, "DocumentedCommandTests names `\(name)`, which no doc shows")
        }
    }

    @Test func commandsSpanQuotedLinesAndLoseTheirComments() {
        let block = "# a comment\nrwatch -1 make   # run once\n\npython3 -c 'import os\nprint(1) # two'\nrwatch -- cc {}.o"
        #expect(Self.commands(inBlock: block) == ["rwatch -1 make", "python3 -c 'import os\nprint(1) # two'", "rwatch -- cc {}.o"])
        let page = ".nf\nrwatch \\-e c \\-\\- cc {}\n.fi\n.nf\nrwatch: a status line\n.fi\n"
        #expect(Self.shellBlocks(inManPage: page) == ["rwatch -e c -- cc {}"])
    }
}

extension String {
    fileprivate var trimmingSpaces: Substring {
        drop { $0 == " " || $0 == "\t" }
    }
}
