import SystemPackage

/// Git's ignore rules for one repository (or, outside any repository, one
/// watched tree), applied as `git check-ignore` applies them. Paths are
/// relative to the top (the directory holding `.git`) and matched on their
/// bytes.
///
/// Which pattern decides a path: the per-directory files from the
/// deepest directory up to the top, then `info/exclude`, then the global
/// excludes file; within one file, the last matching line. In a directory
/// with both, `.ignore` comes before `.gitignore` (as in ripgrep). A
/// pattern without `/` matches the last component at any depth below its
/// file; one with a `/` is anchored at its file's directory. The deciding
/// pattern ignores the path unless it is a `!` negation. And a path inside
/// an ignored directory is ignored whatever its own patterns say: git never
/// looks inside that directory, so a `!` cannot re-include it.
struct IgnoreRules: Sendable {
    /// The pattern that decided a path, and its file.
    struct Decision: Sendable {
        let file: IgnoreFile
        let pattern: IgnoreFile.Pattern
        var ignores: Bool { !pattern.negated }
    }

    /// The files of each directory by its path from the top (empty for the
    /// top), in the order they are consulted.
    private var directories: [[UInt8]: [IgnoreFile]] = [:]
    /// `info/exclude`, then the global excludes file.
    var excludeFiles: [IgnoreFile] = []

    var isEmpty: Bool { directories.isEmpty && excludeFiles.allSatisfy(\.patterns.isEmpty) }

    /// Replaces the files of `directory` (relative to the top).
    mutating func setFiles(_ files: [IgnoreFile], in directory: FilePath) {
        let kept = files.filter { !$0.patterns.isEmpty }
        directories[directory.bytes] = kept.isEmpty ? nil : kept
    }

    /// The files of `directory`, in the order they are consulted.
    func files(in directory: FilePath) -> [IgnoreFile] { directories[directory.bytes] ?? [] }

    /// The pattern that decides `path` by its own name, without looking at
    /// its parent directories; nil when no pattern matches.
    func decision(for path: FilePath, isDirectory: Bool) -> Decision? {
        path.withBytes { decision(for: $0, isDirectory: isDirectory) }
    }

    /// `decision(for:isDirectory:)` on a path's bytes.
    func decision(for path: UnsafeBufferPointer<UInt8>, isDirectory: Bool) -> Decision? {
        let slash = UInt8(ascii: "/")
        if !directories.isEmpty {
            // The path's directories, deepest first: "a/b" for "a/b/c", then "a", then "".
            var end = path.count
            while end > 0 {
                end -= 1
                while end > 0, path[end] != slash { end -= 1 }
                guard let files = directories[Array(path[0..<end])] else { continue }
                let below = end == 0 ? path : UnsafeBufferPointer(rebasing: path[(end + 1)...])
                if let decision = Self.lastMatch(in: files, below, isDirectory: isDirectory) { return decision }
            }
        }
        return Self.lastMatch(in: excludeFiles, path, isDirectory: isDirectory)
    }

    /// The last matching pattern of the first file that has one.
    private static func lastMatch(in files: [IgnoreFile], _ path: UnsafeBufferPointer<UInt8>, isDirectory: Bool) -> Decision? {
        for file in files {
            for pattern in file.patterns.reversed() where pattern.glob.matches(path, isDirectory: isDirectory) {
                return Decision(file: file, pattern: pattern)
            }
        }
        return nil
    }

    /// The pattern that ignores `path`, looking first at each of its parent
    /// directories from the `firstChecked`-th component on (the components
    /// before it are taken as not ignored), then at the path itself. Nil
    /// when it is not ignored.
    func ignoring(_ path: FilePath, isDirectory: Bool, firstChecked: Int = 0) -> (decision: Decision, directory: FilePath?)? {
        var directory = FilePath()
        let components = Array(path.components)
        for (position, component) in components.dropLast().enumerated() {
            directory.append(component)
            if position >= firstChecked, let decision = decision(for: directory, isDirectory: true), decision.ignores {
                return (decision, directory)
            }
        }
        if let decision = decision(for: path, isDirectory: isDirectory), decision.ignores { return (decision, nil) }
        return nil
    }
}
