import Dispatch
import Glibc
import Signals
import Synchronization
import SystemPackage

/// The files git tracks although its ignore rules match them: a committed
/// `config/local.json` under `*.json`, a vendored file under `vendor/`.
/// git never ignores a file in its index (`git status` shows its changes),
/// and neither does rwatch: `PathFilter` keeps these paths, and the
/// directories on the way to them, whatever git's rule files say.
///
/// git lists them (`git ls-files -z --cached --ignored --exclude-standard`),
/// so they are exactly the paths git would show, for the price of one git
/// run when a watch starts (beside the walk of the tree: `Lookup`) and
/// again, off the reader thread, when the index or a rule file changes;
/// never on the path of an event. Without git, rwatch says so once under
/// `-v` and ignores what the rules say, as before.
struct TrackedFiles: Sendable, Equatable {
    /// Paths from the top of the working tree, as git lists them.
    var paths: Set<[UInt8]> = []

    var isEmpty: Bool { paths.isEmpty }

    /// git asked on a thread of its own, so that it works while the tree
    /// is walked: a watch starts it for each repository, and waits for the
    /// answer only once its own walk is done.
    final class Lookup: Sendable {
        let top: FilePath
        private let done = DispatchSemaphore(value: 0)
        private let answer = Locked<TrackedFiles?>(nil)

        init(top: FilePath, gitDirectory: FilePath, environment: GitConfiguration.Environment?, within: [FilePath]) {
            self.top = top
            let started = DetachedThread.start { [self] in
                let found = TrackedFiles.load(top: top, gitDirectory: gitDirectory, environment: environment, within: within)
                answer.withLock { $0 = found }
                done.signal()
            }
            if !started { done.signal() }
        }

        /// What git said (nil when it could not say), once it has.
        func wait() -> TrackedFiles? {
            done.wait()
            done.signal()
            return answer.withLock { $0 }
        }
    }

    /// Set once git was found missing: it is not looked for again.
    private static let gitMissing = Atomic<Bool>(false)

    /// What git says for the working tree at `top` whose git directory is
    /// `gitDirectory`, its configuration read with `environment` (the
    /// process's when nil), below the directories `within` (from the top;
    /// empty for the whole tree); nil when git cannot say (not installed,
    /// not a repository it can read, rwatch stopping).
    static func load(top: FilePath, gitDirectory: FilePath, environment: GitConfiguration.Environment?,
                     within: [FilePath] = []) -> TrackedFiles? {
        guard !gitMissing.load(ordering: .relaxed) else { return nil }
        var arguments: [CommandWord] = [
            "git", CommandWord(bytes: Array("--git-dir=".utf8) + gitDirectory.bytes),
            CommandWord(bytes: Array("--work-tree=".utf8) + top.bytes), "-C", CommandWord(top),
            "ls-files", "-z", "--cached", "--ignored", "--exclude-standard",
        ]
        // Names as they are: no wildcard in a directory's name means anything to git here.
        if !within.isEmpty, !within.contains(where: \.isEmpty) {
            arguments += ["--"] + within.map { CommandWord(bytes: Array(":(literal)".utf8) + $0.bytes) }
        }
        guard let output = run(arguments, environment: environment) else { return nil }
        var found = TrackedFiles()
        for path in output.split(separator: 0) { found.paths.insert(Array(path)) }
        return found
    }

    /// Runs `arguments` and returns what it wrote on standard output, or
    /// nil when it could not start or did not exit 0.
    private static func run(_ arguments: [CommandWord], environment: GitConfiguration.Environment?) -> [UInt8]? {
        var options = ProcessOptions(captureOutput: true)
        // A background look must never hold the index lock from a git the user runs.
        options.environment["GIT_OPTIONAL_LOCKS"] = "0"
        if let environment { options.environmentBytes = variables(environment) }
        let gone = DispatchSemaphore(value: 0)
        let group: ProcessGroup, child: ProcessLauncher.Child
        do {
            (group, child) = try ProcessGroup.start(arguments, options: options, handle: nil) { _ in gone.signal() }
        } catch {
            if error.reason == .notFound, !gitMissing.exchange(true, ordering: .relaxed) {
                Diagnostics.verbose("git is not installed: a tracked file that an ignore rule matches is ignored")
            }
            return nil
        }
        let (output, errors) = readToEnd(child.stdout, child.stderr)
        gone.wait()
        guard group.leaderExit == .exited(0) else {
            let reason = String(decoding: errors.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
            Diagnostics.verbose("git ls-files failed (\(group.leaderExit.map { "\($0)" } ?? "?")): \(reason)")
            return nil
        }
        return output
    }

    /// The variables that make git read its configuration as `environment` says.
    private static func variables(_ environment: GitConfiguration.Environment) -> [String: [UInt8]] {
        var variables: [String: [UInt8]] = [:]
        if let home = environment.home { variables["HOME"] = home.bytes }
        if let xdg = environment.xdgConfigHome { variables["XDG_CONFIG_HOME"] = xdg.bytes }
        if let global = environment.configGlobal { variables["GIT_CONFIG_GLOBAL"] = global.bytes }
        if let system = environment.configSystem { variables["GIT_CONFIG_SYSTEM"] = system.bytes }
        if environment.noSystem { variables["GIT_CONFIG_NOSYSTEM"] = Array("1".utf8) }
        return variables
    }

    /// Everything written to the two pipes until both end; closes them.
    private static func readToEnd(_ stdout: Int32, _ stderr: Int32) -> (output: [UInt8], errors: [UInt8]) {
        var streams = [(fd: stdout, bytes: [UInt8]()), (fd: stderr, bytes: [UInt8]())]
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while streams.contains(where: { $0.fd >= 0 }) {
            var fds = streams.filter { $0.fd >= 0 }.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            if poll(&fds, nfds_t(fds.count), -1) < 0 { continue }  // EINTR
            for ready in fds where ready.revents != 0 {
                guard let index = streams.firstIndex(where: { $0.fd == ready.fd }) else { continue }
                let count = buffer.withUnsafeMutableBytes { read(ready.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    streams[index].bytes += buffer[0..<count]
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(ready.fd)
                    streams[index].fd = -1
                }
            }
        }
        return (streams[0].bytes, streams[1].bytes)
    }
}
