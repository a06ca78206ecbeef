import SystemPackage

/// Why a path is ignored: the rule that dropped it, for `rwatch -v` and
/// `FileWatcher.whyIgnored`.
public struct IgnoreReason: Sendable, Hashable, CustomStringConvertible {
    /// Where the rule comes from.
    public enum Source: Sendable, Hashable {
        /// One of rwatch's default ignores (`WatchOptions.useDefaultIgnore`).
        case defaultIgnore
        /// An exclude glob of `WatchOptions` (`-i`).
        case excludeGlob
        /// A line of a file: a `.gitignore`, an `.ignore`, git's
        /// `info/exclude`, the global excludes file, or an `--ignore-file`.
        case file(path: FilePath, line: Int)
    }

    /// Where the rule comes from.
    public var source: Source
    /// The rule as written.
    public var pattern: String
    /// The ignored directory (absolute) that holds the path, when the rule
    /// matched that directory rather than the path itself.
    public var directory: FilePath?

    /// A reason; `directory` when the rule hides a whole directory.
    public init(source: Source, pattern: String, directory: FilePath? = nil) {
        self.source = source
        self.pattern = pattern
        self.directory = directory
    }

    /// `/repo/.gitignore:3: build/`, `default ignore *.swp`, `exclude glob *.tmp`,
    /// followed by `(directory /repo/build)` when it hides a whole directory;
    /// paths and patterns escaped for a terminal.
    public var description: String {
        let rule: String
        switch source {
        case .defaultIgnore: rule = "default ignore \(Quoted.path(pattern))"
        case .excludeGlob: rule = "exclude glob \(Quoted.path(pattern))"
        case .file(let path, let line): rule = "\(Quoted.path(path)):\(line): \(Quoted.path(pattern))"
        }
        return directory.map { "\(rule) (directory \(Quoted.path($0)))" } ?? rule
    }
}
