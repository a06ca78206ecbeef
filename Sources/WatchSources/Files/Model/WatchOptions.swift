import SystemPackage

/// Which paths under the watched roots `FileWatcher` reports, and what it
/// does when a root disappears.
///
/// Globs match paths relative to the watched root (`Glob`); a glob without
/// `/` matches the file name at any depth (`*.swift`), `**` matches any
/// number of directories (`Sources/**/*.swift`), `{a,b}` either; `./x` is
/// anchored at the root like `/x`, and an absolute path is matched against
/// absolute paths (`RootedGlob`; `globsMatchingNothing` names the globs
/// that can match nothing below the roots). Ignored
/// directories are not watched at all. Git's ignore rules are read as git
/// reads them (`.gitignore` from the repository's top down, `.ignore`,
/// `info/exclude`, the global excludes file), and read again when one of
/// those files changes.
public struct WatchOptions: Sendable, Hashable {
    /// Globs a path must match to be reported; empty reports everything.
    public var include: [String]
    /// Globs whose matches are never reported (directories: not watched).
    public var exclude: [String]
    /// File extensions without the dot (`"swift"`, `"md"`); empty means any.
    public var extensions: [String]
    /// Honor git's rule files: `.gitignore`, `info/exclude` and the global
    /// excludes file (`.ignore` files are not git's: `useProjectIgnore`).
    public var useVCSIgnore: Bool
    /// Honor the project's rule files: `.gitignore` and `.ignore` files in
    /// and above the tree, and `info/exclude`.
    public var useProjectIgnore: Bool
    /// Honor the user's rule file: git's global excludes file.
    public var useGlobalIgnore: Bool
    /// Ignore version-control directories, `.build`, `__pycache__`, `*.py[co]`,
    /// `.DS_Store` and editors' swap, backup and temporary files.
    public var useDefaultIgnore: Bool
    /// What to do when a watched root is deleted.
    public var onRootDeleted: RootDeletion
    /// inotify, polling, or (the default) each where it works.
    public var backend: WatchBackend
    /// Watch below the roots (true), or only the roots' own entries.
    public var recursive: Bool
    /// Files of exclude globs, one per line (`#` comments), like `exclude`.
    public var ignoreFiles: [String]
    /// Files of include globs, one per line (`#` comments), like `include`.
    public var filterFiles: [String]
    /// The kinds of change reported; an `overflow` always is.
    public var kinds: Set<FileEvent.Kind>
    /// Let a running `rwatch serve` (its default socket, or `WATCHMAN_SOCK`)
    /// watch the paths when it can, so that every client of a root shares
    /// one set of inotify watches; this process then holds none, and
    /// watches by itself when there is no service or it goes away. What
    /// is reported is the same either way. False always watches here.
    public var usesService = true
    /// Report what the roots hold when the watch starts, as `created`, from
    /// the reader thread before any later change (each subscription then
    /// has its own registration).
    var reportsExisting = false
    /// Report each save once complete and whole (`SaveCoalescer`); off,
    /// every event passes the moment it is read (the version-control
    /// state must see a lock file when it appears, not when it is closed).
    package var coalescesSaves = true
    /// A served watch asks the service to hold its results while git or
    /// Mercurial rewrites the tree (watchman's `defer_vcs`): watch mode's
    /// settling, done where the watches are, so that this process needs
    /// no watch of its own on `.git`.
    package var defersDuringVCS = false
    /// A removal this watch reports ends the writes of an operation under
    /// these trees (a repository's lock going: `vcsState`). The reader
    /// that sees it first delivers the new files every other watch of
    /// those trees holds (in case they are temporary), so that what the
    /// operation wrote arrives before its end does.
    package var endsWritesUnder: [FilePath] = []
    /// Tests: the environment git's configuration is read with (a test
    /// repository's own HOME and global config); nil is the process's.
    var gitEnvironment: GitConfiguration.Environment? = nil

    /// Every kind of change.
    public static let allKinds: Set<FileEvent.Kind> = [.created, .modified, .closedWrite, .deleted, .movedFrom, .movedTo, .attributes, .overflow]

    /// Whether any rule file is read: false skips finding the repository too.
    var discoversRuleFiles: Bool {
        useProjectIgnore || (useVCSIgnore && useGlobalIgnore)
    }

    /// Options with every default: everything reported, every rule file and default ignores on.
    public init(
        include: [String] = [],
        exclude: [String] = [],
        extensions: [String] = [],
        useVCSIgnore: Bool = true,
        useProjectIgnore: Bool = true,
        useGlobalIgnore: Bool = true,
        useDefaultIgnore: Bool = true,
        onRootDeleted: RootDeletion = .fail,
        backend: WatchBackend = .auto,
        recursive: Bool = true,
        ignoreFiles: [String] = [],
        filterFiles: [String] = [],
        kinds: Set<FileEvent.Kind> = WatchOptions.allKinds
    ) {
        self.include = include
        self.exclude = exclude
        self.extensions = extensions
        self.useVCSIgnore = useVCSIgnore
        self.useProjectIgnore = useProjectIgnore
        self.useGlobalIgnore = useGlobalIgnore
        self.useDefaultIgnore = useDefaultIgnore
        self.onRootDeleted = onRootDeleted
        self.backend = backend
        self.recursive = recursive
        self.ignoreFiles = ignoreFiles
        self.filterFiles = filterFiles
        self.kinds = kinds
    }

    /// Options that report only paths matching one of `globs`.
    ///
    ///     FileWatcher.watch(["Sources"], options: .matching("**/*.swift"))
    public static func matching(_ globs: String...) -> WatchOptions {
        WatchOptions(include: globs)
    }

    /// These options, after checking every glob and reading every ignore
    /// and filter file; throws `FileWatchError` (`.badGlob` naming the
    /// first malformed glob and, in a file, its line; `.badRuleFile` for a
    /// file that cannot be read).
    public func validated() throws -> WatchOptions {
        for pattern in include + exclude {
            _ = try Glob(pattern)
        }
        for path in ignoreFiles + filterFiles {
            let read = FileSystem.readFile(FilePath(path), limit: PathFilter.ruleFileLimit)
            switch read {
            case .contents(let bytes): _ = try IgnoreFile.globs(bytes, path: FileSystem.absolute(FilePath(path)))
            case .missing: throw FileWatchError(.badRuleFile(path: FilePath(path), problem: "no such file"))
            case .notRegular, .tooLarge, .failed: throw FileWatchError(.badRuleFile(path: FilePath(path), problem: read.reason))
            }
        }
        return self
    }
}
