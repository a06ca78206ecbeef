/// Decides, for one watched root, which directories are watched and which
/// paths are reported, whatever backend reads the changes: the default
/// ignores, `WatchOptions`' exclude globs and `--ignore-file`s, git's rules
/// (`IgnoreRules`, read from the repository holding the root), then the
/// include globs, `--filter-file`s and extensions.
///
/// Paths are relative to the root ("" is the root, never ignored: it was
/// asked for). `reports` and `watchesDirectory` look at the path's own
/// name, taking its parent as watched; `whyIgnored` looks at every
/// directory on the way too. Rule files are read as the tree is walked
/// (`loadDirectory`), those outside it by `prepare`; `ruleFileChanged`
/// re-reads one and says what to re-plan.
struct PathFilter: Sendable {
    /// The root, absolute.
    let root: String
    let useDefaultIgnore: Bool
    let useVCSIgnore: Bool
    let recursive: Bool
    private let includeGlobs: [Glob]
    private let excludeGlobs: [Glob]
    private let extensions: Set<String>
    private let ignoreFilePaths: [String]
    private let filterFilePaths: [String]
    private var ignoreFiles: [IgnoreFile] = []
    private var filterFiles: [IgnoreFile] = []
    /// Git's rules, relative to `top`.
    private(set) var git = IgnoreRules()
    /// Where git's rules are anchored: the top of the repository holding
    /// the root, or the root itself outside any repository.
    private(set) var top: String
    /// The root relative to `top` ("" when they are the same).
    private var prefix = ""
    /// The directories from `top` down to the root's parent, whose
    /// `.gitignore` and `.ignore` apply to the tree.
    private var ancestors: [String] = []
    private var infoExclude: String? = nil
    private var globalExcludes: String? = nil

    /// A filter for `root` (absolute) with `options`, whose globs must be valid (`validated()`).
    init(root: String, options: WatchOptions) {
        self.root = root
        top = root
        includeGlobs = options.include.compactMap { try? Glob($0) }
        excludeGlobs = options.exclude.compactMap { try? Glob($0) }
        extensions = Set(options.extensions.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 })
        useDefaultIgnore = options.useDefaultIgnore
        useVCSIgnore = options.useVCSIgnore
        recursive = options.recursive
        ignoreFilePaths = options.ignoreFiles.map(FileSystem.absolute)
        filterFilePaths = options.filterFiles.map(FileSystem.absolute)
    }

    // MARK: Reading rules

    /// Finds the repository holding the root and reads the rule files
    /// outside the tree: the `--ignore-file`s and `--filter-file`s, the
    /// `.gitignore` and `.ignore` of the directories from the repository's
    /// top down to the root's parent, `info/exclude` and the global
    /// excludes file (named by `environment`).
    mutating func prepare(environment: GitConfiguration.Environment = .current) {
        ignoreFiles = ignoreFilePaths.compactMap { PathFilter.readGlobs($0) }
        filterFiles = filterFilePaths.compactMap { PathFilter.readGlobs($0) }
        guard useVCSIgnore else { return }
        let repository = Repository.enclosing(root).flatMap { $0.kind == .git ? $0 : nil }
        top = repository?.top ?? root
        prefix = FileSystem.relative(root, to: top) ?? ""
        ancestors = []
        var directory = root
        while directory != top {
            directory = FileSystem.parent(directory)
            ancestors.insert(directory, at: 0)
        }
        for ancestor in ancestors {
            git.setFiles(PathFilter.readDirectoryFiles(ancestor), in: FileSystem.relative(ancestor, to: top) ?? "")
        }
        // Outside a repository git reads neither: only the tree's own files apply.
        if let repository {
            infoExclude = FileSystem.join(repository.commonDirectory, "info/exclude")
            globalExcludes = GitConfiguration.excludesFile(commonDirectory: repository.commonDirectory, top: top, environment: environment)
        }
        readExcludeFiles()
    }

    /// Reads the `.gitignore` and `.ignore` of the tree directory at
    /// `relative` (absolute `directory`), when `names` (its entries, if
    /// known) has them; forgets what the directory had before.
    mutating func loadDirectory(_ relative: String, at directory: String, names: [String]? = nil) {
        guard useVCSIgnore else { return }
        let key = topRelative(relative)
        if let names, !names.contains(where: PathFilter.isRuleFileName), git.files(in: key).isEmpty { return }
        git.setFiles(PathFilter.readDirectoryFiles(directory), in: key)
    }

    /// What a change of the file at `path` (absolute) means: nil when it
    /// is none of this filter's rule files, else the directory (relative
    /// to the root) below which what is watched must be planned anew,
    /// after re-reading the file.
    mutating func ruleFileChanged(_ path: String) -> String? {
        if ignoreFilePaths.contains(path) || filterFilePaths.contains(path) {
            ignoreFiles = ignoreFilePaths.compactMap { PathFilter.readGlobs($0) }
            filterFiles = filterFilePaths.compactMap { PathFilter.readGlobs($0) }
            return ""
        }
        guard useVCSIgnore else { return nil }
        if path == infoExclude || path == globalExcludes {
            readExcludeFiles()
            return ""
        }
        let name = FileSystem.name(path)
        guard PathFilter.isRuleFileName(name) else { return nil }
        let directory = FileSystem.parent(path)
        if let relative = FileSystem.relative(directory, to: root) {
            if !relative.isEmpty, !recursive { return nil }
            loadDirectory(relative, at: directory)
            return relative
        }
        if ancestors.contains(directory) {
            git.setFiles(PathFilter.readDirectoryFiles(directory), in: FileSystem.relative(directory, to: top) ?? "")
            return ""
        }
        return nil
    }

    /// The files outside the tree whose changes matter, and so the
    /// directories to watch for them (those that exist).
    var outsideDirectories: [String] {
        var paths = ignoreFilePaths + filterFilePaths
        if useVCSIgnore {
            paths += [infoExclude, globalExcludes].compactMap { $0 }
        }
        var directories = paths.map(FileSystem.parent)
        if useVCSIgnore { directories += ancestors }
        var seen = Set<String>()
        return directories.filter { seen.insert($0).inserted && FileSystem.relative($0, to: root) == nil }
    }

    /// Whether `name` is a per-directory rule file.
    static func isRuleFileName(_ name: String) -> Bool {
        name == ".gitignore" || name == ".ignore"
    }

    private mutating func readExcludeFiles() {
        git.excludeFiles = [infoExclude, globalExcludes].compactMap { path in
            guard let path, let bytes = PathFilter.readRuleFile(path, followSymlinks: true) else { return nil }
            return IgnoreFile.gitignore(bytes, path: path)
        }
    }

    /// `.ignore` then `.gitignore` of `directory`: the order they are consulted in.
    private static func readDirectoryFiles(_ directory: String) -> [IgnoreFile] {
        [".ignore", ".gitignore"].compactMap { name in
            let path = FileSystem.join(directory, name)
            return readRuleFile(path, followSymlinks: false).map { IgnoreFile.gitignore($0, path: path) }
        }
    }

    /// A list of globs; a file that cannot be read or holds a bad glob
    /// gives one warning and no rules (`validated()` rejected it at start).
    private static func readGlobs(_ path: String) -> IgnoreFile? {
        guard let bytes = readRuleFile(path, followSymlinks: true) else { return nil }
        do {
            return try IgnoreFile.globs(bytes, path: path)
        } catch {
            WatchNotices.warnOnce(about: path, "\(error); not used")
            return nil
        }
    }

    /// The bytes of a rule file; nil when it is missing or skipped (with one warning).
    private static func readRuleFile(_ path: String, followSymlinks: Bool) -> [UInt8]? {
        switch RuleFileReader.read(path, followSymlinks: followSymlinks) {
        case .contents(let bytes):
            WatchNotices.clearWarning(about: path)
            return bytes
        case .missing:
            WatchNotices.clearWarning(about: path)
            return nil
        case .skipped(let why):
            WatchNotices.warnOnce(about: path, "ignore file \(Quoted.path(path)) skipped: \(why)")
            return nil
        }
    }

    // MARK: Deciding

    /// Whether the directory at `relative` is watched (and descended into),
    /// its parent being watched.
    func watchesDirectory(_ relative: String) -> Bool {
        if relative.isEmpty { return true }
        return recursive && ignoreReason(relative, isDirectory: true) == nil
    }

    /// Whether a change of `relative` is reported, its parent being watched.
    func reports(_ relative: String, isDirectory: Bool) -> Bool {
        if relative.isEmpty { return true }
        if !recursive, relative.contains("/") { return false }
        if ignoreReason(relative, isDirectory: isDirectory) != nil { return false }
        if !extensions.isEmpty {
            guard !isDirectory, let dot = relative.lastIndex(of: "."),
                  !relative[dot...].contains("/"),
                  extensions.contains(String(relative[relative.index(after: dot)...]))
            else { return false }
        }
        if includeGlobs.isEmpty, filterFiles.isEmpty { return true }
        return includeGlobs.contains { $0.matches(relative, isDirectory: isDirectory) }
            || filterFiles.contains { $0.patterns.contains { $0.glob.matches(relative, isDirectory: isDirectory) } }
    }

    /// The rule that ignores `relative` by its own name, its parent
    /// directory taken as not ignored; nil when none does.
    func ignoreReason(_ relative: String, isDirectory: Bool) -> IgnoreReason? {
        if relative.isEmpty { return nil }
        var path = relative
        return path.withUTF8 { bytes -> IgnoreReason? in
            if useDefaultIgnore {
                var start = bytes.count
                while start > 0, bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
                if let glob = DefaultIgnores.match(UnsafeBufferPointer(rebasing: bytes[start...]), isDirectory: isDirectory) {
                    return IgnoreReason(source: .defaultIgnore, pattern: glob.pattern)
                }
            }
            if let glob = excludeGlobs.first(where: { $0.matches(bytes, isDirectory: isDirectory) }) {
                return IgnoreReason(source: .excludeGlob, pattern: glob.pattern)
            }
            for file in ignoreFiles {
                if let line = file.patterns.first(where: { $0.glob.matches(bytes, isDirectory: isDirectory) }) {
                    return IgnoreReason(source: .file(path: file.path, line: line.line), pattern: line.text)
                }
            }
            return nil
        } ?? gitReason(relative, isDirectory: isDirectory)
    }

    private func gitReason(_ relative: String, isDirectory: Bool) -> IgnoreReason? {
        guard useVCSIgnore, !git.isEmpty, let decision = git.decision(for: topRelative(relative), isDirectory: isDirectory),
              decision.ignores else { return nil }
        return IgnoreReason(source: .file(path: decision.file.path, line: decision.pattern.line), pattern: decision.pattern.text)
    }

    /// The rule that ignores `relative`, looking at each directory between
    /// the root and it first (a path inside an ignored directory is
    /// ignored by that directory's rule); nil when it is not ignored.
    func whyIgnored(_ relative: String, isDirectory: Bool) -> IgnoreReason? {
        var start = relative.startIndex
        while let slash = relative[start...].firstIndex(of: "/") {
            let directory = String(relative[..<slash])
            if var reason = ignoreReason(directory, isDirectory: true) {
                reason.directory = FileSystem.join(root, directory)
                return reason
            }
            start = relative.index(after: slash)
        }
        return ignoreReason(relative, isDirectory: isDirectory)
    }

    /// `relative` (from the root) as a path from `top`.
    private func topRelative(_ relative: String) -> String {
        if prefix.isEmpty { return relative }
        return relative.isEmpty ? prefix : prefix + "/" + relative
    }
}
