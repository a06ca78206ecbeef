/// What rwatch ignores unless told not to (`WatchOptions.useDefaultIgnore`,
/// `--no-default-ignore`): version-control directories, build and bytecode
/// caches, and the swap, backup and temporary files editors write while
/// saving. Each pattern matches a path's last component; a directory that
/// matches is not watched at all. The man page lists the same patterns.
enum DefaultIgnores {
    static let patterns: [String] = [
        // Version control.
        ".git/", ".hg/", ".svn/", ".bzr/", "_darcs/", "CVS/", ".jj/", ".pijul/", ".fossil-settings/",
        // Build output and caches.
        ".build/", "__pycache__/", "*.py[co]",
        // vim: swap files, its write probe, backups.
        "*.swp", "*.swo", ".*.sw[a-p]", "*.swx", "4913", "*~",
        // emacs: lock files and auto-saves.
        ".#*", "#*#",
        // JetBrains' safe write, Kate, VS Code's atomic save, GIO, `sed -i`.
        "*___jb_tmp___", "*___jb_old___", "*.kate-swp", "*.vsctmp", ".goutputstream-*", "sed??????",
        // macOS Finder.
        ".DS_Store",
    ]

    static let globs: [Glob] = patterns.map { try! Glob($0) }

    /// The default pattern that matches `name` (a last component), if any.
    static func match(_ name: UnsafeBufferPointer<UInt8>, isDirectory: Bool) -> Glob? {
        globs.first { $0.matches(name, isDirectory: isDirectory) }
    }
}
