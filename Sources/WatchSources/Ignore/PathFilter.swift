import SystemPackage

/// Decides, for one watched root, which directories are watched and which
/// paths are reported, whatever backend reads the changes: the default
/// ignores, `WatchOptions`' exclude globs and `--ignore-file`s, git's rules
/// (`IgnoreRules`, read from the repository holding the root), then the
/// include globs, `--filter-file`s and extensions.
///
/// A filter is only ever made whole (`init(root:options:)`): the
/// repository is found and every rule file outside the tree is read
/// before anyone can ask it anything, so no backend can watch a root with
/// half its rules. Each backend keeps it current its own way: inotify
/// watches the directories of `followedDirectories`, a polled root `stat`s
/// `followedFiles` every pass; both re-read through `ruleFileChanged`.
///
/// Paths are relative to the root (the empty path is the root, never
/// ignored: it was asked for) and matched on their bytes. `reports` and
/// `watchesDirectory` look at the path's own name, taking its parent as
/// watched; `whyIgnored` looks at every directory on the way too. Rule
/// files in the tree are read as it is walked (`loadDirectory`).
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
    var discovers: Bool { readsGitignores || readsDotIgnores || readsGlobalExcludes }
    let recursive: Bool
    /// rwatch's own globs, as they apply below the root (`./x`, absolute paths).
    private let includeGlobs: [RootedGlob]
    private let excludeGlobs: [RootedGlob]
    private let extensions: Set<String>
    let ignoreFilePaths: [FilePath]
    let filterFilePaths: [FilePath]
    /// The `--ignore-file`s and `--filter-file`s, each with its lines' globs as they apply below the root.
    var ignoreFiles: [(file: IgnoreFile, globs: [RootedGlob])] = []
    var filterFiles: [(file: IgnoreFile, globs: [RootedGlob])] = []
    /// The root's bytes without the leading `/`, for globs matched against absolute paths.
    private let rootBytes: [UInt8]
    /// Git's rules, relative to `top`.
    var git = IgnoreRules()
    /// Where git's rules are anchored: the top of the repository holding
    /// the root, or the root itself outside any repository.
    var top: FilePath
    /// The root relative to `top` (empty when they are the same), and its bytes.
    var prefix = FilePath()
    var prefixBytes: [UInt8] = []
    /// The directories from `top` down to the root's parent, whose
    /// `.gitignore` and `.ignore` apply to the tree.
    var ancestors: [FilePath] = []
    var infoExclude: FilePath? = nil
    var globalExcludes: FilePath? = nil
    /// git's `core.ignorecase`: the rule files' patterns (`.gitignore`,
    /// `.ignore`, `info/exclude`, the global excludes file) match ASCII
    /// letters of either case, as git's do on a case-insensitive file
    /// system. rwatch's own globs (`-i`, `-f`, the ignore and filter
    /// files) never fold: git's pathspecs do not either.
    var ignoreCase = false
    /// The environment git's configuration is read with; nil is the process's.
    let gitEnvironment: GitConfiguration.Environment?
    /// How a rule file is read: from disk (`FileSystem.readFile`), or
    /// from a recipe test's virtual tree.
    let readFile: RuleFileReader
    /// git's index and directory, when git's rules are read in a git
    /// repository: what git tracks is then kept (`TrackedFiles`).
    var indexFile: FilePath? = nil
    var gitDirectory: FilePath? = nil
    /// What git tracks that its rules ignore, as it last said.
    var tracked = TrackedFiles()
    /// Those of them below the root, and the directories on the way to
    /// them, relative to the root: never ignored by git's rule files.
    var kept: Set<[UInt8]> = []
    /// The kept directories that lie in a directory git's rules ignore
    /// (or are one), by the rule that ignores it: watched only for what git
    /// tracks in them, whatever else is there stays ignored.
    var entered: [[UInt8]: IgnoreReason] = [:]

    /// The filter for `root` (absolute) with `options`, whose globs must be
    /// valid (`validated()`), with every rule from outside the tree read:
    /// the `--ignore-file`s and `--filter-file`s, and, when rule files are
    /// read, the repository's (`prepareRepository`). git's configuration is read from
    /// `options`' environment (the process's by default). What git tracks
    /// among the paths its rules ignore comes later (`setTracked`), from
    /// git: a watch asks it while it walks the tree.
    init(root: FilePath, options: WatchOptions, readFile: @escaping RuleFileReader = { FileSystem.readFile($0, limit: $1, followSymlinks: $2) }) {
        self.root = root
        self.readFile = readFile
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
        gitEnvironment = options.gitEnvironment
        readGlobFiles()
        if discovers { prepareRepository() }
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

    /// What git's rules say of `relative` by its own name: the rule that
    /// ignores it, unless git tracks it (`kept`); inside a directory they
    /// ignore that is watched only for what git tracks in it (`entered`),
    /// that directory's rule for anything git does not track.
    private func gitReason(_ relative: FilePath, isDirectory: Bool) -> IgnoreReason? {
        guard !git.isEmpty else { return nil }
        guard let decision = gitDecision(relative, isDirectory: isDirectory), decision.ignores else {
            return entered.isEmpty ? nil : enteredReason(relative)
        }
        if !kept.isEmpty, !PathFilter.isDotIgnore(decision), relative.withBytes({ kept.contains(Array($0)) }) { return nil }
        return IgnoreReason(source: .file(path: decision.file.path, line: decision.pattern.line), pattern: decision.pattern.text)
    }

    /// The pattern of git's rule files that decides `relative` by its own name.
    func gitDecision(_ relative: FilePath, isDirectory: Bool) -> IgnoreRules.Decision? {
        // The path from the top, as bytes: the prefix, then the relative path.
        relative.withBytes { bytes -> IgnoreRules.Decision? in
            if prefixBytes.isEmpty { return git.decision(for: bytes, isDirectory: isDirectory) }
            let joined = prefixBytes + [UInt8(ascii: "/")] + bytes
            return joined.withUnsafeBufferPointer { git.decision(for: $0, isDirectory: isDirectory) }
        }
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
    func topRelative(_ relative: FilePath) -> FilePath {
        prefix.isEmpty ? relative : prefix.pushing(relative)
    }
}
