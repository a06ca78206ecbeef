/// Which paths under the watched roots `FileWatcher` reports, and what it
/// does when a root disappears.
///
/// Globs match paths relative to the watched root; a glob without `/`
/// matches the file name at any depth (`*.swift`), `**` matches any number
/// of directories (`Sources/**/*.swift`). Excluded and ignored directories
/// are not watched at all.
public struct WatchOptions: Sendable, Hashable {
    /// Globs a path must match to be reported; empty reports everything.
    public var include: [String]
    /// Globs whose matches are never reported (directories: not watched).
    public var exclude: [String]
    /// File extensions without the dot (`"swift"`, `"md"`); empty means any.
    public var extensions: [String]
    /// Honor `.gitignore` and `.ignore` files in the watched trees.
    public var useVCSIgnore: Bool
    /// Ignore `.git`, `.hg`, `.svn`, `.build` and editors' swap, backup and temporary files.
    public var useDefaultIgnore: Bool
    /// What to do when a watched root is deleted.
    public var onRootDeleted: RootDeletion
    /// inotify, polling, or (the default) each where it works.
    public var backend: WatchBackend
    /// Tests only: pretend `fs.inotify.max_user_watches` allows this many
    /// watches for this watch, to exercise the limit error without root.
    var watchBudget: Int? = nil

    /// Options with every default: everything reported, VCS and default ignores on.
    public init(
        include: [String] = [],
        exclude: [String] = [],
        extensions: [String] = [],
        useVCSIgnore: Bool = true,
        useDefaultIgnore: Bool = true,
        onRootDeleted: RootDeletion = .fail,
        backend: WatchBackend = .auto
    ) {
        self.include = include
        self.exclude = exclude
        self.extensions = extensions
        self.useVCSIgnore = useVCSIgnore
        self.useDefaultIgnore = useDefaultIgnore
        self.onRootDeleted = onRootDeleted
        self.backend = backend
    }

    /// Options that report only paths matching one of `globs`.
    ///
    ///     FileWatcher.watch(["Sources"], options: .matching("**/*.swift"))
    public static func matching(_ globs: String...) -> WatchOptions {
        WatchOptions(include: globs)
    }

    /// These options, after checking every glob; throws
    /// `FileWatchError` (`.badGlob`) naming the first malformed one.
    public func validated() throws -> WatchOptions {
        for pattern in include + exclude {
            _ = try Glob(pattern)
        }
        return self
    }
}
