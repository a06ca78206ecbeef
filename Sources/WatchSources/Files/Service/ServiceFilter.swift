import Glibc
import SystemPackage

/// rwatch's own rules over what a service reports of one root: the same
/// `PathFilter` a local watch applies, with what a local watch learns by
/// walking the tree learned on the way instead. A service reports every
/// file, so each path's directories are checked too (a file below an
/// ignored directory is not reported, as that directory would not be
/// watched); a directory's `.gitignore` and `.ignore` are read the first
/// time a change below it is decided, and again when they change. The
/// rule files outside the tree (`info/exclude`, the global excludes file,
/// the ancestors' `.gitignore`s, git's index) are looked at whenever a
/// result comes, before it is decided: the service does not report them,
/// and a rule only matters for the next change it decides.
struct ServiceFilter {
    private(set) var filter: PathFilter
    /// Directories (relative to the root) whose rule files were read.
    private var loaded: Set<FilePath> = []
    /// Whether each directory seen so far is watched (its ancestors included).
    private var watched: [FilePath: Bool] = [:]
    /// What the followed files looked like (modification and change times, size).
    private var followed: [FilePath: [Int64]] = [:]

    init(root: FilePath, options: WatchOptions) {
        filter = PathFilter(root: root, options: options)
        if let gitDirectory = filter.gitDirectory,
           let files = TrackedFiles.load(top: filter.top, gitDirectory: gitDirectory, environment: filter.gitEnvironment,
                                         within: [filter.prefix]) {
            filter.setTracked(files)
        }
        for path in filter.followedFiles { followed[path] = ServiceFilter.look(path) }
    }

    /// Whether a change of `relative` (below the root) is reported.
    mutating func reports(_ relative: FilePath, isDirectory: Bool) -> Bool {
        if relative.isEmpty { return false }
        if let name = relative.lastComponent, PathFilter.isRuleFileName(name) || isRuleFile(relative) {
            ruleFileChanged(filter.root.pushing(relative))
        }
        guard isWatched(relative.removingLastComponent()) else { return false }
        return filter.reports(relative, isDirectory: isDirectory)
    }

    /// Looks at the rule files outside the tree; re-reads those that changed.
    mutating func lookAtFollowedFiles() {
        for (path, seen) in followed {
            let current = ServiceFilter.look(path)
            guard current != seen else { continue }
            followed[path] = current
            if path == filter.indexFile, let gitDirectory = filter.gitDirectory {
                if let files = TrackedFiles.load(top: filter.top, gitDirectory: gitDirectory, environment: filter.gitEnvironment,
                                                 within: [filter.prefix]), filter.setTracked(files) {
                    watched = [:]
                }
            } else {
                ruleFileChanged(path)
            }
        }
    }

    private func isRuleFile(_ relative: FilePath) -> Bool {
        let path = filter.root.pushing(relative)
        return filter.ignoreFilePaths.contains(path) || filter.filterFilePaths.contains(path)
    }

    private mutating func ruleFileChanged(_ path: FilePath) {
        if filter.ruleFileChanged(path) != nil { watched = [:] }
    }

    /// Whether the directory at `relative` and each above it are watched,
    /// reading their rule files on the way down the first time.
    private mutating func isWatched(_ relative: FilePath) -> Bool {
        if let known = watched[relative] { return known }
        var verdict = true
        if !relative.isEmpty {
            verdict = isWatched(relative.removingLastComponent()) && filter.watchesDirectory(relative)
        }
        if verdict, loaded.insert(relative).inserted {
            filter.loadDirectory(relative, at: filter.root.pushing(relative))
        }
        watched[relative] = verdict
        return verdict
    }

    private static func look(_ path: FilePath) -> [Int64] {
        var info = stat()
        guard path.withPlatformString({ stat($0, &info) }) == 0 else { return [] }
        return [Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec), Int64(info.st_ctim.tv_sec),
                Int64(info.st_ctim.tv_nsec), Int64(info.st_size)]
    }
}
