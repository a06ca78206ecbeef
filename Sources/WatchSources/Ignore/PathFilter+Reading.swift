import SystemPackage

/// How a filter reads a rule file: its path, the size limit, whether a
/// final symbolic link is followed.
package typealias RuleFileReader = @Sendable (FilePath, _ limit: Int, _ followSymlinks: Bool) -> FileSystem.FileRead

/// Reading a filter's rule files: those outside the tree when it is made,
/// those of each tree directory as it is walked, and any of them again when
/// it changes.
extension PathFilter {
    /// Finds the repository holding the root and reads git's rule files
    /// outside the tree: the `.gitignore` and `.ignore` of the directories
    /// from the repository's top down to the root's parent, `info/exclude`
    /// and the global excludes file (named by `gitEnvironment`); notes
    /// where git's index is, when what git tracks is to be kept.
    mutating func prepareRepository() {
        let environment = gitEnvironment ?? .current
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
        if let repository, readsGitignores || readsGlobalExcludes {
            gitDirectory = repository.stateDirectory
            indexFile = repository.stateDirectory.appending("index")
        }
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
        if !kept.isEmpty { refreshEntered() }
    }

    /// What a change of the file at `path` (absolute) means: nil when it
    /// is none of this filter's rule files, else the directory (relative
    /// to the root) below which what is watched must be planned anew,
    /// after re-reading the file.
    mutating func ruleFileChanged(_ path: FilePath) -> FilePath? {
        let scope = reread(path)
        if scope != nil, !kept.isEmpty { refreshEntered() }
        return scope
    }

    /// `ruleFileChanged`'s reading.
    private mutating func reread(_ path: FilePath) -> FilePath? {
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

    /// The directories to watch for the rule files outside the tree in
    /// them: the ancestors' `.gitignore`s, `info/exclude`, the global
    /// excludes file, the ignore and filter files, git's index (what it
    /// tracks is kept). One may lie inside the
    /// root (`.git/info` of a watched top, an ignore file in the tree): the
    /// tree's own watch may not cover it (`.git` is not watched).
    var followedDirectories: [FilePath] {
        var directories = (outsideFiles + [indexFile].compactMap { $0 }).map(FileSystem.parent)
        if readsDirectoryRuleFiles { directories += ancestors }
        var seen = Set<FilePath>()
        return directories.filter { seen.insert($0).inserted }
    }

    /// Every rule file outside the tree whose change `ruleFileChanged`
    /// acts on, and git's index, whether they exist now or not: what a
    /// polled root looks at on each pass, where no inotify watch tells of
    /// a change.
    var followedFiles: [FilePath] {
        var files = outsideFiles + [indexFile].compactMap { $0 }
        for ancestor in ancestors where readsDirectoryRuleFiles {
            files += PathFilter.directoryRuleFileNames(readsDotIgnores: readsDotIgnores, readsGitignores: readsGitignores)
                .map { ancestor.appending($0) }
        }
        return files
    }

    /// The ignore and filter files, `info/exclude` and the global excludes file.
    private var outsideFiles: [FilePath] {
        ignoreFilePaths + filterFilePaths + [infoExclude, globalExcludes].compactMap { $0 }
    }

    private static let gitignoreName: FilePath.Component = ".gitignore"
    static let ignoreName: FilePath.Component = ".ignore"
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

    /// The per-directory rule files read, in the order they are consulted:
    /// `.ignore`, then `.gitignore`.
    private static func directoryRuleFileNames(readsDotIgnores: Bool, readsGitignores: Bool) -> [FilePath.Component] {
        (readsDotIgnores ? [ignoreName] : []) + (readsGitignores ? [gitignoreName] : [])
    }

    private mutating func readExcludeFiles() {
        git.excludeFiles = [infoExclude, globalExcludes].compactMap { path in
            guard let path, let bytes = readRuleFile(path, followSymlinks: true) else { return nil }
            return IgnoreFile.gitignore(bytes, path: path, ignoreCase: ignoreCase)
        }
    }

    /// `.ignore` then `.gitignore` of `directory` (those this filter reads).
    private func readDirectoryFiles(_ directory: FilePath) -> [IgnoreFile] {
        PathFilter.directoryRuleFileNames(readsDotIgnores: readsDotIgnores, readsGitignores: readsGitignores).compactMap { name in
            let path = directory.appending(name)
            return readRuleFile(path, followSymlinks: false).map { IgnoreFile.gitignore($0, path: path, ignoreCase: ignoreCase) }
        }
    }

    /// Reads the `--ignore-file`s and `--filter-file`s, their globs rooted here.
    mutating func readGlobFiles() {
        let root = root
        func rooted(_ paths: [FilePath]) -> [(file: IgnoreFile, globs: [RootedGlob])] {
            paths.compactMap { readGlobs($0) }.map { file in (file, file.patterns.map { RootedGlob($0.glob, root: root) }) }
        }
        ignoreFiles = rooted(ignoreFilePaths)
        filterFiles = rooted(filterFilePaths)
    }

    /// A list of globs; a file that cannot be read or holds a bad glob
    /// gives one warning and no rules (`validated()` rejected it at start).
    private func readGlobs(_ path: FilePath) -> IgnoreFile? {
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
    private func readRuleFile(_ path: FilePath, followSymlinks: Bool) -> [UInt8]? {
        let read = readFile(path, Self.ruleFileLimit, followSymlinks)
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
}
