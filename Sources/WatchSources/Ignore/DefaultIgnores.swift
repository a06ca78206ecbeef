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

    /// Each pattern with the bytes every name it matches starts and ends
    /// with, worked out once: they turn most names away with two
    /// comparisons, and the glob runs only on the few that pass.
    private static let screens: [Screen] = globs.map(Screen.init)

    /// The default pattern that matches `name` (a last component), if any.
    static func match(_ name: UnsafeBufferPointer<UInt8>, isDirectory: Bool) -> Glob? {
        for screen in screens where screen.admits(name) && screen.glob.matches(name, isDirectory: isDirectory) {
            return screen.glob
        }
        return nil
    }

    /// What a name must hold for `glob` to match it: a necessary condition,
    /// never a sufficient one (the glob still decides).
    private struct Screen {
        let glob: Glob
        /// The literal bytes before the first wildcard, and after the last.
        let prefix: [UInt8]
        let suffix: [UInt8]
        /// The pattern has no wildcard: the name is exactly `prefix`.
        let exact: Bool

        init(_ glob: Glob) {
            self.glob = glob
            // Only a single name pattern (no `{a,b}`, no `/`) is screened.
            guard glob.alternatives.count == 1, let pattern = glob.alternatives.first, pattern.matchesName,
                  pattern.segments.count == 1, case .tokens(let tokens) = pattern.segments[0]
            else {
                (prefix, suffix, exact) = ([], [], false)
                return
            }
            func literal(_ token: GlobPattern.Token) -> UInt8? {
                if case .byte(let byte) = token { return byte }
                return nil
            }
            let leading = Array(tokens.prefix { literal($0) != nil }.compactMap(literal))
            exact = leading.count == tokens.count
            prefix = leading
            suffix = exact ? [] : Array(tokens.reversed().prefix { literal($0) != nil }.compactMap(literal).reversed())
        }

        func admits(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
            if exact { return name.count == prefix.count && name.elementsEqual(prefix) }
            guard name.count >= prefix.count + suffix.count else { return false }
            return name.prefix(prefix.count).elementsEqual(prefix) && name.suffix(suffix.count).elementsEqual(suffix)
        }
    }
}
