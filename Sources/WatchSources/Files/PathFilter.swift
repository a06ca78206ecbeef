import SystemPackage

/// Decides, for one watched root, which directories are watched and which
/// paths are reported: `WatchOptions` globs and extensions, the default
/// ignores and the tree's `.gitignore` / `.ignore` rules.
struct PathFilter: Sendable {
    /// Version-control and build directories, editors' swap, backup and
    /// temporary files (vim, emacs, JetBrains, kate, `sed -i`).
    static let defaultIgnore: [Glob] = [
        ".git", ".hg", ".svn", ".build", "*.swp", "*.swo", "*.swx", "*~", ".#*", "#*#", "4913",
        "*___jb_tmp___", "*___jb_old___", "*.kate-swp", "sed??????", ".goutputstream-*",
    ].map { try! Glob($0) }

    private let include: [Glob]
    private let exclude: [Glob]
    private let extensions: Set<String>
    private let useDefaultIgnore: Bool
    let useVCSIgnore: Bool
    private(set) var ignoreRules = IgnoreRules()

    /// A filter for `options`, whose globs must be valid (`validated()`).
    init(_ options: WatchOptions) {
        include = options.include.compactMap { try? Glob($0) }
        exclude = options.exclude.compactMap { try? Glob($0) }
        extensions = Set(options.extensions.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 })
        useDefaultIgnore = options.useDefaultIgnore
        useVCSIgnore = options.useVCSIgnore
    }

    /// Whether the directory at `relativePath` is watched (and descended into).
    func watchesDirectory(_ relativePath: String) -> Bool {
        relativePath.isEmpty || !isIgnored(relativePath, isDirectory: true)
    }

    /// Whether a change of `relativePath` is reported.
    func reports(_ relativePath: String, isDirectory: Bool) -> Bool {
        if relativePath.isEmpty { return true }
        if isIgnored(relativePath, isDirectory: isDirectory) { return false }
        if !extensions.isEmpty {
            guard !isDirectory, let dot = relativePath.lastIndex(of: "."),
                  !relativePath[dot...].contains("/"),
                  extensions.contains(String(relativePath[relativePath.index(after: dot)...]))
            else { return false }
        }
        return include.isEmpty || include.contains { $0.matches(relativePath) }
    }

    /// Reads `.gitignore` and `.ignore` of `directory` (absolute; `relativePath` from the root).
    mutating func loadIgnoreFiles(in directory: FilePath, relativePath: String) {
        guard useVCSIgnore else { return }
        let contents = [".gitignore", ".ignore"].compactMap { FileSystem.read(directory.appending($0)) }
        ignoreRules.set(contents.joined(separator: "\n"), in: relativePath)
    }

    /// The names of the files whose rules apply to their directory.
    static let ignoreFileNames = [".gitignore", ".ignore"]

    /// Whether `name` is an ignore file whose change should reload rules.
    static func isIgnoreFile(_ name: String) -> Bool {
        ignoreFileNames.contains(name)
    }

    private func isIgnored(_ relativePath: String, isDirectory: Bool) -> Bool {
        if useDefaultIgnore, PathFilter.defaultIgnore.contains(where: { $0.matches(relativePath) }) { return true }
        if exclude.contains(where: { $0.matches(relativePath) }) { return true }
        return useVCSIgnore && ignoreRules.isIgnored(relativePath, isDirectory: isDirectory)
    }
}
