import Dispatch
import Glibc
import Signals
import WatchSources

/// The git working copy a watched root lies in: what source-control-aware
/// queries (`since: {"scm": …}`, watchman's `scm-query.md`) ask of it.
///
///     let git = GitWorkingCopy.containing(root.path)       // nil: not git
///     let base = try git.mergeBase(with: "main")           // 40 hex digits
///     let names = try git.changedFiles(since: base)        // relative to the root
///
/// Each question runs `git -C ROOT …` as a child process (no shell), so
/// git finds the repository from the root and names come relative to the
/// root and restricted to it, whether the root is the top of the working
/// copy or a directory below it. Blocks until git is done: a worker's
/// call, never the socket loop's.
struct GitWorkingCopy: Sendable {
    /// The watched root's path.
    let root: [UInt8]

    /// The working copy holding `root`: nil unless `root` or a directory
    /// above it has a `.git` (a directory, or a file as a linked worktree
    /// or submodule has), as watchman looks for one.
    static func containing(_ root: [UInt8]) -> GitWorkingCopy? {
        var directory = root
        while true {
            var info = stat()
            // As bytes: a root whose name is not UTF-8 is looked at as it is.
            if lstat(Cookies.cPath(directory + Array("/.git".utf8)), &info) == 0 { return GitWorkingCopy(root: root) }
            guard let slash = directory.lastIndex(of: UInt8(ascii: "/")), !directory.isEmpty else { return nil }
            directory.removeSubrange(slash...)
        }
    }

    /// The commit where HEAD's history meets `revision`'s (`git merge-base
    /// HEAD REVISION`), as its full hash.
    func mergeBase(with revision: String) throws(QueryError) -> String {
        let output = try run(["merge-base", "HEAD", CommandWord(revision)])
        let hash = String(decoding: output, as: UTF8.self).trimmingTrailingNewlines
        guard !hash.isEmpty else { throw QueryError("git merge-base HEAD \(revision) gave no commit") }
        return hash
    }

    /// What differs on disk from `commit`: files changed, added or deleted
    /// since it (`git diff --name-only`, renames as a deletion and an
    /// addition so both names count), and untracked files git does not
    /// ignore (`git ls-files --others --exclude-standard`), each once,
    /// relative to the root.
    func changedFiles(since commit: String) throws(QueryError) -> [[UInt8]] {
        let changed = try run(["diff", "--name-only", "--no-renames", "--relative", "-z", CommandWord(commit), "--"])
        let untracked = try run(["ls-files", "--others", "--exclude-standard", "-z"])
        var seen: Set<[UInt8]> = []
        return (changed.split(separator: 0) + untracked.split(separator: 0)).map(Array.init).filter { seen.insert($0).inserted }
    }

    /// Runs `git -C ROOT ARGUMENTS…` and gives its standard output, whole
    /// and as bytes (names need not be UTF-8); an error with git's
    /// standard error when it cannot start or fails. Its output goes to
    /// unlinked temporary files, so no reader thread is needed however
    /// much it writes. Optional locks are off: a query must not make git
    /// rewrite the index under the watch, nor wait for another git.
    private func run(_ arguments: [CommandWord]) throws(QueryError) -> [UInt8] {
        let command = [CommandWord("git"), "-C", CommandWord(bytes: root)] + arguments
        let words = arguments.map(\.text).joined(separator: " ")
        guard let stdout = Self.temporaryFile(), let stderr = Self.temporaryFile() else {
            throw QueryError("git \(words): cannot make a file for its output: \(String(cString: strerror(errno)))")
        }
        defer {
            close(stdout)
            close(stderr)
        }
        var options = ProcessOptions(environment: ["GIT_OPTIONAL_LOCKS": "0"], captureOutput: false)
        options.descriptors = [1: stdout, 2: stderr]
        let status = Locked<ExitStatus?>(nil)
        let failure = Locked<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        let subscription = ProcessSource.run(command, options: options).subscribe(
            onNext: { event in
                if case .exited(let exit) = event { status.withLock { $0 = exit } }
            },
            onError: { error in
                failure.withLock { $0 = "\(error)" }
                done.signal()
            },
            onCompleted: { done.signal() }
        )
        done.wait()
        subscription.dispose()
        if let failure = failure.withLock({ $0 }) { throw QueryError("git \(words) could not start: \(failure)") }
        guard let exit = status.withLock({ $0 }) else { throw QueryError("git \(words) ended without a status") }
        guard exit.succeeded else {
            let message = String(decoding: Self.contents(of: stderr), as: UTF8.self).trimmingTrailingNewlines
            throw QueryError("git \(words) \(exit): \(message)")
        }
        return Self.contents(of: stdout)
    }

    /// A new, already unlinked file in `/tmp`, closed on exec (the child
    /// gets it as a descriptor it was handed), or nil.
    private static func temporaryFile() -> Int32? {
        var template = Array("/tmp/rwatch-git-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }

    /// Everything written to `fd`, read from its start.
    private static func contents(of fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var offset: off_t = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes += chunk[..<count]
            offset += off_t(count)
        }
    }
}

extension String {
    /// This text without the newlines a command ends its output with.
    fileprivate var trimmingTrailingNewlines: String {
        var text = Substring(self)
        while text.last == "\n" || text.last == "\r\n" { text.removeLast() }
        return String(text)
    }
}
