/// A version-control checkout, found by walking up from a path to the
/// nearest directory holding `.git` (a directory, or a file `gitdir: …` as
/// in linked worktrees and submodules) or `.hg`, even above the watched
/// paths.
struct Repository: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case git
        case mercurial
    }

    let kind: Kind
    /// The top of the working tree: the directory holding `.git` or `.hg`.
    let top: String
    /// Where the repository keeps the state of this working tree: `.git`,
    /// a linked worktree's own git directory, or `.hg`. `index.lock`,
    /// `rebase-merge/`, `MERGE_HEAD` and `wlock` live here.
    let stateDirectory: String
    /// git: the directory every worktree shares (`info/exclude`, `config`);
    /// the state directory otherwise.
    let commonDirectory: String

    /// The innermost repository holding `path` (absolute, normalized): its
    /// own top when `path` is one, else the nearest above.
    static func enclosing(_ path: String) -> Repository? {
        var directory = path
        while true {
            if let found = at(directory) { return found }
            if directory == "/" { return nil }
            directory = FileSystem.parent(directory)
        }
    }

    /// The repository whose top is `directory`, if it is one.
    static func at(_ directory: String) -> Repository? {
        let dotGit = FileSystem.join(directory, ".git")
        switch FileSystem.kind(dotGit, follow: true) {
        case .directory:
            return git(top: directory, gitDirectory: dotGit)
        case .other:
            // `gitdir: <path>`, relative to the directory holding the file.
            guard case .contents(let bytes) = RuleFileReader.read(dotGit) else { break }
            let text = String(decoding: bytes, as: UTF8.self)
            guard let line = text.split(separator: "\n").first, line.hasPrefix("gitdir:") else { break }
            let target = line.dropFirst("gitdir:".count).trimmingSpaces()
            guard !target.isEmpty else { break }
            let gitDirectory = FileSystem.absolute(target.hasPrefix("/") ? target : FileSystem.join(directory, target))
            return git(top: directory, gitDirectory: gitDirectory)
        case .missing:
            break
        }
        let dotHg = FileSystem.join(directory, ".hg")
        if FileSystem.kind(dotHg, follow: true) == .directory {
            return Repository(kind: .mercurial, top: directory, stateDirectory: dotHg, commonDirectory: dotHg)
        }
        return nil
    }

    private static func git(top: String, gitDirectory: String) -> Repository {
        var common = gitDirectory
        // A linked worktree names the shared directory in `commondir`.
        if case .contents(let bytes) = RuleFileReader.read(FileSystem.join(gitDirectory, "commondir")) {
            let target = String(decoding: bytes, as: UTF8.self).trimmingSpaces()
            if !target.isEmpty {
                common = FileSystem.absolute(target.hasPrefix("/") ? target : FileSystem.join(gitDirectory, target))
            }
        }
        return Repository(kind: .git, top: top, stateDirectory: gitDirectory, commonDirectory: common)
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and line ends.
    func trimmingSpaces() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }
}
