import Glibc
import SystemPackage
@testable import WatchSources
import TestSupport

/// A git repository in a temporary directory, with a git that sees only
/// this test's configuration: its own HOME, XDG_CONFIG_HOME and global
/// config file (`GIT_CONFIG_GLOBAL`), no system config.
struct TestRepository {
    let scratch: TemporaryDirectory
    /// The working tree's top.
    var top: String { scratch.file("repo") }
    var home: String { scratch.file("home") }
    var xdg: String { scratch.file("xdg") }
    var globalConfig: String { scratch.file("gitconfig") }

    /// A fresh repository; `globalConfig` is written to the global config file.
    init(globalConfig: String = "") {
        scratch = TemporaryDirectory(prefix: "rwatch-git")
        for directory in ["repo", "home", "xdg", "xdg/git"] { mkdir(scratch.file(directory), 0o755) }
        scratch.write("gitconfig", globalConfig)
        let result = git(["init", "-q"])
        precondition(result.status == 0, "git init: \(result.errors)")
    }

    /// The environment git runs with.
    var environment: [String: String] {
        ["HOME": home, "XDG_CONFIG_HOME": xdg, "GIT_CONFIG_GLOBAL": globalConfig, "GIT_CONFIG_NOSYSTEM": "1", "LANG": "C",
         "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"]
    }

    /// The same environment, as rwatch's rule engine reads it.
    var gitEnvironment: GitConfiguration.Environment {
        GitConfiguration.Environment(home: FilePath(home), xdgConfigHome: FilePath(xdg), configGlobal: FilePath(globalConfig), configSystem: nil, noSystem: true)
    }

    /// `options` reading git's configuration as this repository's git does.
    func options(_ options: WatchOptions = WatchOptions()) -> WatchOptions {
        var options = options
        options.gitEnvironment = gitEnvironment
        return options
    }

    /// Runs git in the top.
    @discardableResult
    func git(_ arguments: [String], input: String = "") -> Command.Result {
        Command.run(["git", "-C", top] + arguments, environment: environment, input: input)
    }

    /// Writes `text` to `relative` (from the top), making its directories.
    func write(_ relative: String, _ text: String) {
        let path = top + "/" + relative
        makeDirectories(String(path[..<path.lastIndex(of: "/")!]))
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        precondition(fd >= 0, "open \(path): \(errno)")
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
    }

    func makeDirectories(_ path: String) {
        var current = ""
        for part in path.split(separator: "/") {
            current += "/" + part
            mkdir(current, 0o755)
        }
    }

    /// What `git check-ignore` says of each path (relative to the top):
    /// the deciding pattern's file (absolute) and line, and whether it
    /// ignores (a `!` pattern decides without ignoring); nil when no pattern matches.
    func checkIgnore(_ paths: [String]) -> [String: (file: FilePath, line: Int, ignored: Bool)?] {
        let input = paths.map { $0 + "\u{0}" }.joined()
        let result = git(["check-ignore", "--no-index", "-v", "-n", "-z", "--stdin"], input: input)
        precondition(result.status == 0 || result.status == 1, "git check-ignore: \(result.errors)")
        let fields = result.output.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
        var answers: [String: (file: FilePath, line: Int, ignored: Bool)?] = [:]
        var index = 0
        while index + 3 < fields.count {
            let (source, line, pattern, path) = (fields[index], fields[index + 1], fields[index + 2], fields[index + 3])
            index += 4
            if source.isEmpty {
                answers[path] = .some(nil)
            } else {
                let file = FilePath(source.hasPrefix("/") ? source : top + "/" + source)
                answers[path] = (file, Int(line) ?? -1, !pattern.hasPrefix("!"))
            }
        }
        return answers
    }

    func remove() { scratch.remove() }
}

/// SplitMix64: a small seeded generator, so a generated tree that fails can be made again.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
