extension RootTable {
    /// watch-project: the project holding `argument` is watched, and the
    /// reply says where the argument lies in it. An existing watch that
    /// holds the path is reused; else the nearest directory (the path
    /// itself, then its parents) holding `.watchmanconfig`, else one
    /// holding the first of the other `root_files` found; else the path
    /// itself, unless `enforce_root_files` forbids it. Without `mayCreate`,
    /// only an existing watch is answered.
    func watchProject(_ argument: [UInt8], mayCreate: Bool = true) throws(QueryError) -> (root: Root, relative: [UInt8]?) {
        let (literal, resolved) = try Self.canonical(argument)
        guard let path = resolved else {
            throw Self.unresolved(literal, "realpath(\(Self.text(literal))) -> No such file or directory")
        }
        if let (root, relative) = enclosing(path) {
            let watched = try watch(root.path, enforceRootFiles: false, mayCreate: mayCreate)
            return (watched, relative.isEmpty ? nil : relative)
        }
        let configuration = try globalConfiguration()
        let (names, enforced) = configuration.rootFiles
        for name in names {
            guard let project = Self.nearest(holding: Array(name.utf8), from: path) else { continue }
            let root = try watch(project, enforceRootFiles: false, mayCreate: mayCreate)
            let relative = ChangePlan.relative(path, to: project) ?? []
            return (root, relative.isEmpty ? nil : relative)
        }
        guard !enforced else {
            throw QueryError(
                "watchman::CommandValidationError: failed to validate command: resolve_projpath:  None of the files listed in global config "
                    + "root_files are present in path `\(Self.text(literal))` or any of its parent directories.  "
                    + "root_files is defined by the `\(configuration.globalPath)` config file and includes \(configuration.rootFilesText).  "
                    + "One or more of these files must be present in order to allow a watch. "
                    + "Try pulling and checking out a newer version of the project?")
        }
        return (try watch(path, enforceRootFiles: false, mayCreate: mayCreate), nil)
    }

    /// The nearest of `path` and its parents holding `name`.
    static func nearest(holding name: [UInt8], from path: [UInt8]) -> [UInt8]? {
        var directory = path
        while true {
            let candidate = (directory == [UInt8(ascii: "/")] ? [] : directory) + [UInt8(ascii: "/")] + name
            if FileStat.of(Cookies.cPath(candidate)) != nil { return directory }
            guard directory.count > 1, let slash = directory.lastIndex(of: UInt8(ascii: "/")) else { return nil }
            directory = slash == 0 ? [UInt8(ascii: "/")] : Array(directory[..<slash])
        }
    }
}
