import SystemPackage

/// Decides, for one watched root, which directories are watched and which
/// paths are reported, whatever backend reads the changes: the default
/// ignores, `WatchOptions`' exclude globs and `--ignore-file`s, git's rules
/// (`IgnoreRules`, read from the repository holding the root), then the
/// include globs, `--filter-file`s and extensions.
///
/// Paths are relative to the root (the empty path is the root, never
/// ignored: it was asked for) and matched on their bytes. `reports` and
/// `watchesDirectory` look at the path's own name, taking its parent as
/// watched; `whyIgnored` looks at every directory on the way too. Rule
/// files are read as the tree is walked (`loadDirectory`), those outside
/// it by `prepare`; `ruleFileChanged` re-reads one and says what to
/// re-plan.
struct PathFilter: Sendable {
    /// The root, absolute.
    let root: FilePath
    let useDefaultIgnore: Bool
    /// Which rule files are read (`WatchOptions`' `useVCSIgnore`,
    /// `useProjectIgnore`, `useGlobalIgnore`): `.gitignore`s and
    /// `info/exclude` are git's and the project's, `.ignore`s the
    /// project's, the global excludes file git's and the user's.
    let readsGitignores: Bool
    let readsDotIgnores: Bool
    let readsGlobalExcludes: Bool
    /// Whether a directory's own rule files (`.gitignore`, `.ignore`) are read.
    var readsDirectoryRuleFiles: Bool { readsGitignores || readsDotIgnores }
    /// Whether any rule file is read, so the repository is looked for.
    private var discovers: Bool { readsGitignores || readsDotIgnores || readsGlobalExcludes }
    let recursive: Bool
    /// rwatch's own globs, as they apply below the root (`./x`, absolute paths).
    private let includeGlobs: [RootedGlob]
    private let excludeGlobs: [RootedGlob]
    private let extensions: Set<String>
    private let ignoreFilePaths: [FilePath]
    private let filterFilePaths: [FilePath]
    /// The `--ignore-file`s and `--filter-file`s, each with its lines' globs as they apply below the root.
    private var ignoreFiles: [(file: IgnoreFile, globs: [RootedGlob])] = []
    private var filterFiles: [(file: IgnoreFile, globs: [RootedGlob])] = []
    /// The root's bytes without the leading `/`, for globs matched against absolute paths.
    private let rootBytes: [UInt8]
    /// Git's rules, relative to `top`.
    private(set) var git = IgnoreRules()
    /// Where git's rules are anchored: the top of the repository holding
    /// the root, or the root itself outside any repository.
    private(set) var top: FilePath
    /// The root relative to `top` (empty when they are the same), and its bytes.
    private var prefix = FilePath()
    private var prefixBytes: [UInt8] = []
    /// The directories from `top` down to the root's parent, whose
    /// `.gitignore` and `.ignore` apply to the tree.
    private var ancestors: [FilePath] = []
    private var infoExclude: FilePath? = nil
    private var globalExcludes: FilePath? = nil
    /// git's `core.ignorecase`: the rule files' patterns (`.gitignore`,
    /// `.ignore`, `info/exclude`, the global excludes file) match ASCII
    /// letters of either case, as git's do on a case-insensitive file
    /// system. rwatch's own globs (`-i`, `-f`, the ignore and filter
    /// files) never fold: git's pathspecs do not either.
    private(set) var ignoreCase = false

    /// A filter for `root` (absolute) with `options`, whose globs must be valid (`validated()`).
    init(root: FilePath, options: WatchOptions) {
        self.root = root
        top = root
        rootBytes = Array(root.bytes.drop { $0 == UInt8(ascii: "/") })
        includeGlobs = options.include.compactMap { try? Glob($0) }.map { RootedGlob($0, root: root) }
        excludeGlobs = options.exclude.compactMap { try? Glob($0) }.map { RootedGlob($0, root: root) }
        extensions = Set(options.extensions.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 })
        useDefaultIgnore = options.useDefaultIgnore
        readsGitignores = options.useVCSIgnore && options.useProjectIgnore
        readsDotIgnores = options.useProjectIgnore
        readsGlobalExcludes = options.useVCSIgnore && options.useGlobalIgnore
        recursive = options.recursive
        ignoreFilePaths = options.ignoreFiles.map { FileSystem.absolute(FilePath($0)) }
        filterFilePaths = options.filterFiles.map { FileSystem.absolute(FilePath($0)) }
    }

    // MARK: Reading rules

    /// Finds the repository holding the root and reads the rule files
    /// outside the tree: the `--ignore-file`s and `--filter-file`s, the
    /// `.gitignore` and `.ignore` of the directories from the repository's
    /// top down to the root's parent, `info/exclude` and the global
    /// excludes file (named by `environment`).
    mutating func prepare(environment: GitConfiguration.Environment = .current) {
        readGlobFiles()
        guard discovers else { return }
        let repository = Repository.enclosing(root).flatMap { $0.kind == .git ? $0 : nil }
        top = repository?.top ?? root
        prefix = FileSystem.relative(root, to: top) ?? FilePath()
        prefixBytes = prefix.bytes
        // Before any rule file is read: it decides how they are compiled.
        ignoreCase = GitConfiguration.ignoreCase(commonDirectory: repository?.commonDirectory, environment: environment)
        ancestors = []
        var directory = root
        while directory != top {
            directory = FileSystem.parent(directory)
            ancestors.insert(directory, at: 0)
        }
        for ancestor in ancestors {
            git.setFiles(readDirectoryFiles(ancestor), in: FileSystem.relative(ancestor, to: top) ?? FilePath())
        }
        // Outside a repository git reads neither: only the tree's own files apply.
        if let repository {
            if readsGitignores { infoExclude = repository.commonDirectory.appending("info/exclude") }
            if readsGlobalExcludes {
                globalExcludes = GitConfiguration.excludesFile(commonDirectory: repository.commonDirectory, top: top, environment: environment)
            }
        }
        readExcludeFiles()
    }

    /// Reads the `.gitignore` and `.ignore` of the tree directory at
    /// `relative` (absolute `directory`), unless its listing (when known)
    /// has neither (`hasRuleFile` false) and it had none before; forgets
    /// what the directory had before.
    mutating func loadDirectory(_ relative: FilePath, at directory: FilePath, hasRuleFile: Bool? = nil) {
        guard readsGitignores || readsDotIgnores else { return }
        let key = topRelative(relative)
        if hasRuleFile == false, git.files(in: key).isEmpty { return }
        git.setFiles(readDirectoryFiles(directory), in: key)
    }

    /// What a change of the file at `path` (absolute) means: nil when it
    /// is none of this filter's rule files, else the directory (relative
    /// to the root) below which what is watched must be planned anew,
    /// after re-reading the file.
    mutating func ruleFileChanged(_ path: FilePath) -> FilePath? {
        if ignoreFilePaths.contains(path) || filterFilePaths.contains(path) {
            readGlobFiles()
            return FilePath()
        }
        guard discovers else { return nil }
        if path == infoExclude || path == globalExcludes {
            readExcludeFiles()
            return FilePath()
        }
        guard let name = path.lastComponent, PathFilter.isRuleFileName(name) else { return nil }
        let directory = FileSystem.parent(path)
        if let relative = FileSystem.relative(directory, to: root) {
            if !relative.isEmpty, !recursive { return nil }
            loadDirectory(relative, at: directory)
            return relative
        }
        if ancestors.contains(directory) {
            git.setFiles(readDirectoryFiles(directory), in: FileSystem.relative(directory, to: top) ?? FilePath())
            return FilePath()
        }
        return nil
    }

    /// The directories outside the tree to watch for the rule files in
    /// them: the ancestors' `.gitignore`s, `info/exclude`, the global
    /// excludes file, the ignore and filter files.
    var outsideDirectories: [FilePath] {
        var paths = ignoreFilePaths + filterFilePaths
        paths += [infoExclude, globalExcludes].compactMap { $0 }
        var directories = paths.map(FileSystem.parent)
        if readsGitignores || readsDotIgnores { directories += ancestors }
        var seen = Set<FilePath>()
        return directories.filter { seen.insert($0).inserted && FileSystem.relative($0, to: root) == nil }
    }

    private static let gitignoreName: FilePath.Component = ".gitignore"
    private static let ignoreName: FilePath.Component = ".ignore"
    /// The names of the rule files that apply to their own directory.
    static let ruleFileNames = [gitignoreName, ignoreName]

    /// Whether `name` is a per-directory rule file.
    static func isRuleFileName(_ name: FilePath.Component) -> Bool {
        name == gitignoreName || name == ignoreName
    }

    /// Whether the name given as bytes (from a listing) is a per-directory rule file.
    static func isRuleFileName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        name.elementsEqual(".gitignore".utf8) || name.elementsEqual(".ignore".utf8)
    }

    private mutating func readExcludeFiles() {
        git.excludeFiles = [infoExclude, globalExcludes].compactMap { path in
            guard let path, let bytes = PathFilter.readRuleFile(path, followSymlinks: true) else { return nil }
            return IgnoreFile.gitignore(bytes, path: path, ignoreCase: ignoreCase)
        }
    }

    /// `.ignore` then `.gitignore` of `directory` (those this filter reads):
    /// the order they are consulted in.
    private func readDirectoryFiles(_ directory: FilePath) -> [IgnoreFile] {
        var names: [FilePath.Component] = []
        if readsDotIgnores { names.append(PathFilter.ignoreName) }
        if readsGitignores { names.append(PathFilter.gitignoreName) }
        return names.compactMap { name in
            let path = directory.appending(name)
            return PathFilter.readRuleFile(path, followSymlinks: false).map { IgnoreFile.gitignore($0, path: path, ignoreCase: ignoreCase) }
        }
    }

    /// Reads the `--ignore-file`s and `--filter-file`s, their globs rooted here.
    private mutating func readGlobFiles() {
        let root = root
        func rooted(_ paths: [FilePath]) -> [(file: IgnoreFile, globs: [RootedGlob])] {
            paths.compactMap { PathFilter.readGlobs($0) }.map { file in (file, file.patterns.map { RootedGlob($0.glob, root: root) }) }
        }
        ignoreFiles = rooted(ignoreFilePaths)
        filterFiles = rooted(filterFilePaths)
    }

    /// A list of globs; a file that cannot be read or holds a bad glob
    /// gives one warning and no rules (`validated()` rejected it at start).
    private static func readGlobs(_ path: FilePath) -> IgnoreFile? {
        guard let bytes = readRuleFile(path, followSymlinks: true) else { return nil }
        do {
            return try IgnoreFile.globs(bytes, path: path)
        } catch {
            WatchNotices.warnOnce(about: path, "\(error); not used")
            return nil
        }
    }

    /// The largest ignore or git configuration file read (1 MiB).
    static let ruleFileLimit = 1 << 20

    /// The bytes of a rule file; nil when it is missing or skipped (with one warning).
    private static func readRuleFile(_ path: FilePath, followSymlinks: Bool) -> [UInt8]? {
        let read = FileSystem.readFile(path, limit: Self.ruleFileLimit, followSymlinks: followSymlinks)
        switch read {
        case .contents(let bytes):
            WatchNotices.clearWarning(about: path)
            return bytes
        case .missing:
            WatchNotices.clearWarning(about: path)
            return nil
        case .notRegular, .tooLarge, .failed:
            WatchNotices.warnOnce(about: path, "ignore file \(Quoted.path(path)) skipped: \(read.reason)")
            return nil
        }
    }

    // MARK: Deciding

    /// Whether the directory at `relative` is watched (and descended into),
    /// its parent being watched.
    func watchesDirectory(_ relative: FilePath) -> Bool {
        if relative.isEmpty { return true }
        return recursive && ignoreReason(relative, isDirectory: true) == nil
    }

    /// Whether a change of `relative` is reported, its parent being watched.
    func reports(_ relative: FilePath, isDirectory: Bool) -> Bool {
        if relative.isEmpty { return true }
        if !recursive, relative.components.count > 1 { return false }
        if ignoreReason(relative, isDirectory: isDirectory) != nil { return false }
        if !extensions.isEmpty {
            guard !isDirectory, let name = relative.lastComponent?.matchingText, let dot = name.lastIndex(of: "."),
                  extensions.contains(String(name[name.index(after: dot)...]))
            else { return false }
        }
        if includeGlobs.isEmpty, filterFiles.isEmpty { return true }
        return relative.withBytes { bytes in
            includeGlobs.contains { $0.matches(bytes, isDirectory: isDirectory, rootBytes: rootBytes) }
                || filterFiles.contains { $0.globs.contains { $0.matches(bytes, isDirectory: isDirectory, rootBytes: rootBytes) } }
        }
    }

    /// The rule that ignores `relative` by its own name, its parent
    /// directory taken as not ignored; nil when none does.
    func ignoreReason(_ relative: FilePath, isDirectory: Bool) -> IgnoreReason? {
        if relative.isEmpty { return nil }
        let found = relative.withBytes { bytes -> IgnoreReason? in
            if useDefaultIgnore {
                var start = bytes.count
                while start > 0, bytes[start - 1] != UInt8(ascii: "/") { start -= 1 }
                if let glob = DefaultIgnores.match(UnsafeBufferPointer(rebasing: bytes[start...]), isDirectory: isDirectory) {
                    return IgnoreReason(source: .defaultIgnore, pattern: glob.pattern)
                }
            }
            if let glob = excludeGlobs.first(where: { $0.matches(bytes, isDirectory: isDirectory, rootBytes: rootBytes) }) {
                return IgnoreReason(source: .excludeGlob, pattern: glob.written.pattern)
            }
            for (file, globs) in ignoreFiles {
                if let index = globs.firstIndex(where: { $0.matches(bytes, isDirectory: isDirectory, rootBytes: rootBytes) }) {
                    let line = file.patterns[index]
                    return IgnoreReason(source: .file(path: file.path, line: line.line), pattern: line.text)
                }
            }
            return nil
        }
        return found ?? gitReason(relative, isDirectory: isDirectory)
    }

    private func gitReason(_ relative: FilePath, isDirectory: Bool) -> IgnoreReason? {
        guard !git.isEmpty else { return nil }
        // The path from the top, as bytes: the prefix, then the relative path.
        let found = relative.withBytes { bytes -> IgnoreRules.Decision? in
            if prefixBytes.isEmpty { return git.decision(for: bytes, isDirectory: isDirectory) }
            let joined = prefixBytes + [UInt8(ascii: "/")] + bytes
            return joined.withUnsafeBufferPointer { git.decision(for: $0, isDirectory: isDirectory) }
        }
        guard let decision = found, decision.ignores else { return nil }
        return IgnoreReason(source: .file(path: decision.file.path, line: decision.pattern.line), pattern: decision.pattern.text)
    }

    /// The rule that ignores `relative`, looking at each directory between
    /// the root and it first (a path inside an ignored directory is
    /// ignored by that directory's rule); nil when it is not ignored.
    func whyIgnored(_ relative: FilePath, isDirectory: Bool) -> IgnoreReason? {
        var directory = FilePath()
        for component in relative.components.dropLast() {
            directory.append(component)
            if var reason = ignoreReason(directory, isDirectory: true) {
                reason.directory = root.pushing(directory)
                return reason
            }
        }
        return ignoreReason(relative, isDirectory: isDirectory)
    }

    /// `relative` (from the root) as a path from `top`.
    private func topRelative(_ relative: FilePath) -> FilePath {
        prefix.isEmpty ? relative : prefix.pushing(relative)
    }
}
