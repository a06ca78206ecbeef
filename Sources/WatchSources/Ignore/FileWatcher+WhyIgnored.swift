import SystemPackage

extension FileWatcher {
    /// The rule that keeps `path` out of a watch of `root` with `options`,
    /// decided as the watcher decides it (default ignores, exclude globs
    /// and ignore files, then git's rules, which never ignore a file git
    /// tracks; each directory on the way first); nil when nothing ignores
    /// it. The rule files are read now, and git asked, as a watch of
    /// `root` would.
    ///
    ///     FileWatcher.whyIgnored("src/build/x.o", watching: "src")?.description
    ///     // "/repo/.gitignore:3: build/ (directory /repo/src/build)"
    public static func whyIgnored(_ path: FilePath, watching root: FilePath, options: WatchOptions = WatchOptions()) -> IgnoreReason? {
        let root = FileSystem.absolute(root), path = FileSystem.absolute(path)
        guard let relative = FileSystem.relative(path, to: root), !relative.isEmpty else { return nil }
        var filter = PathFilter(root: root, options: options)
        if let gitDirectory = filter.gitDirectory,
           let tracked = TrackedFiles.load(top: filter.top, gitDirectory: gitDirectory, environment: filter.gitEnvironment) {
            filter.setTracked(tracked)
        }
        filter.loadDirectory(FilePath(), at: root)
        var directory = FilePath()
        for component in relative.components.dropLast() {
            directory.append(component)
            filter.loadDirectory(directory, at: root.pushing(directory))
        }
        return filter.whyIgnored(relative, isDirectory: FileSystem.kind(path) == .directory)
    }

    /// `whyIgnored` for paths given as text.
    public static func whyIgnored(_ path: String, watching root: String, options: WatchOptions = WatchOptions()) -> IgnoreReason? {
        whyIgnored(FilePath(path), watching: FilePath(root), options: options)
    }
}
