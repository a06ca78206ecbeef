import SystemPackage

/// What the version-control systems of some watched paths are doing: idle,
/// or in the middle of an operation that rewrites the working tree, during
/// which a run would see a tree half old, half new.
public struct VCSState: Sendable, Hashable, CustomStringConvertible {
    /// An operation and the repository (its top directory) it runs in.
    public struct Operation: Sendable, Hashable, CustomStringConvertible {
        public var kind: Kind
        /// The repository's top directory.
        public var repository: FilePath

        public var description: String { "\(kind) in \(Quoted.path(repository))" }
    }

    /// What is under way, told by the file git or Mercurial keeps while it lasts.
    public enum Kind: String, Sendable, Hashable, CustomStringConvertible {
        /// A git command is writing the index (`index.lock`): checkout, pull, reset, commit…
        case gitIndexLock = "git (index.lock)"
        /// `rebase-merge/` or `rebase-apply/` (also `git am`).
        case rebase = "git rebase"
        /// `MERGE_HEAD`: a merge waits to be committed.
        case merge = "git merge"
        /// `CHERRY_PICK_HEAD`, or `sequencer/` for a series.
        case cherryPick = "git cherry-pick"
        /// `REVERT_HEAD`.
        case revert = "git revert"
        /// `.hg/wlock`: a Mercurial command holds the working directory.
        case mercurialLock = "hg (wlock)"

        public var description: String { rawValue }

        /// Whether it lasts until the person acts (a stopped rebase, a merge
        /// with conflicts) rather than while a command runs.
        public var waitsForPerson: Bool { self != .gitIndexLock && self != .mercurialLock }
    }

    /// What is under way, by repository; empty when idle.
    public var operations: [Operation]

    /// Idle.
    public init(operations: [Operation] = []) {
        self.operations = operations
    }

    /// Whether some operation is under way.
    public var isBusy: Bool { !operations.isEmpty }

    public var description: String {
        operations.isEmpty ? "idle" : operations.map(\.description).joined(separator: ", ")
    }

    /// The entries of a state directory that mark an operation.
    static func marker(_ name: String, in kind: Repository.Kind) -> Kind? {
        switch (kind, name) {
        case (.git, "index.lock"): return .gitIndexLock
        case (.git, "rebase-merge"), (.git, "rebase-apply"): return .rebase
        case (.git, "MERGE_HEAD"): return .merge
        case (.git, "CHERRY_PICK_HEAD"), (.git, "sequencer"): return .cherryPick
        case (.git, "REVERT_HEAD"): return .revert
        case (.mercurial, "wlock"): return .mercurialLock
        default: return nil
        }
    }

    /// Every marker name, and `index` (so that `index.lock` renamed onto it
    /// is reported as a rename, not held as an editor's save).
    static let watchedNames = ["index.lock", "index", "rebase-merge", "rebase-apply", "MERGE_HEAD", "CHERRY_PICK_HEAD",
                               "sequencer", "REVERT_HEAD", "wlock"]
}
