import SystemPackage

/// A version-control checkout, found by walking up from a path to the
/// nearest directory holding `.git` (a directory, or a file `gitdir: …` as
/// in linked worktrees and submodules) or `.hg`, even above the watched
/// paths.
package struct Repository: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case git
        case mercurial
    }

    let kind: Kind
    /// The top of the working tree: the directory holding `.git` or `.hg`.
    let top: FilePath
    /// Where the repository keeps the state of this working tree: `.git`,
    /// a linked worktree's own git directory, or `.hg`. `index.lock`,
    /// `rebase-merge/`, `MERGE_HEAD` and `wlock` live here.
    let stateDirectory: FilePath
    /// git: the directory every worktree shares (`info/exclude`, `config`);
    /// the state directory otherwise.
    let commonDirectory: FilePath

    /// The innermost repository holding `path` (absolute, normalized): its
    /// own top when `path` is one, else the nearest above.
    static func enclosing(_ path: FilePath) -> Repository? {
        var directory = path
        while true {
            if let found = at(directory) { return found }
            let parent = FileSystem.parent(directory)
            if parent == directory { return nil }
            directory = parent
        }
    }

    /// The repository whose top is `directory`, if it is one.
    static func at(_ directory: FilePath) -> Repository? {
        let dotGit = directory.appending(".git")
        switch FileSystem.kind(dotGit, follow: true) {
        case .directory:
            return git(top: directory, gitDirectory: dotGit)
        case .other:
            // `gitdir: <path>`, relative to the directory holding the file.
            guard case .contents(let bytes) = FileSystem.readFile(dotGit, limit: PathFilter.ruleFileLimit),
                  let target = pathLine(bytes, after: "gitdir:") else { break }
            return git(top: directory, gitDirectory: FileSystem.absolute(directory.pushing(target)))
        case .missing:
            break
        }
        let dotHg = directory.appending(".hg")
        if FileSystem.kind(dotHg, follow: true) == .directory {
            return Repository(kind: .mercurial, top: directory, stateDirectory: dotHg, commonDirectory: dotHg)
        }
        return nil
    }

    private static func git(top: FilePath, gitDirectory: FilePath) -> Repository {
        var common = gitDirectory
        // A linked worktree names the shared directory in `commondir`.
        if case .contents(let bytes) = FileSystem.readFile(gitDirectory.appending("commondir"), limit: PathFilter.ruleFileLimit),
           let target = pathLine(bytes, after: "") {
            common = FileSystem.absolute(gitDirectory.pushing(target))
        }
        return Repository(kind: .git, top: top, stateDirectory: gitDirectory, commonDirectory: common)
    }

    /// The path on the first line of `bytes` after `prefix`, spaces around
    /// it trimmed, as bytes (a path need not be UTF-8).
    private static func pathLine(_ bytes: [UInt8], after prefix: String) -> FilePath? {
        var line = bytes.prefix { $0 != UInt8(ascii: "\n") }[...]
        guard line.starts(with: prefix.utf8) else { return nil }
        line = line.dropFirst(prefix.utf8.count)
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        while let first = line.first, blank(first) { line = line.dropFirst() }
        while let last = line.last, blank(last) { line = line.dropLast() }
        return line.isEmpty ? nil : FilePath(bytes: line)
    }
}
