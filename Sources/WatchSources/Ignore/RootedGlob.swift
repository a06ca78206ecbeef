import Glibc
import SystemPackage

/// One of rwatch's own globs (`-i`, `-f`, a line of an `--ignore-file` or
/// `--filter-file`) as it applies below one watched root.
///
/// Globs match paths relative to the watched root, but people type them
/// the way a shell names files, and those forms used to match nothing:
///
/// - `./build/**` is `/build/**`: anchored at the watched root (`./` is
///   where the relative paths start, so the same base as every other glob).
/// - An absolute path is matched against absolute paths. When its fixed
///   leading segments name the root (`$PWD/build` watching `$PWD`), the rest
///   is anchored at the root, as `/build`; when a wildcard comes before the
///   root is named (`/home/*/app/**`), the glob is matched against each
///   path's absolute form; when it names a place outside the root (or the
///   root itself), it matches nothing below it.
///
/// A glob starting with `/` is taken as absolute only when it starts down
/// the root's own path (its first segment is the root's first): `/build`,
/// `/bin` and `/src/*.c` stay anchored at the root as before, whatever `/`
/// holds (a Go project's `/bin` must not turn into the system's `/bin`
/// while the project has none yet).
struct RootedGlob: Sendable {
    /// Why a glob matches nothing below a root.
    enum Nothing: Sendable, Hashable {
        /// A `.` or `..` segment: the paths matched never hold one.
        case dotSegment
        /// It names the watched root itself, which is never reported or ignored.
        case rootItself
        /// An absolute path outside the root (or one of the root's parents).
        case outside
    }

    enum Form: Sendable {
        /// Matched against the path relative to the root.
        case relative(Glob)
        /// Matched against the absolute path (without its leading `/`).
        case absolute(Glob)
        case nothing(Nothing)
    }

    /// The glob as written (for messages).
    let written: Glob
    let form: Form

    /// `glob` as it applies below `root` (absolute, normalized).
    init(_ glob: Glob, root: FilePath) {
        written = glob
        form = Self.form(of: glob, root: root)
    }

    /// Whether `relative` (from the root, bytes) matches; `rootBytes` is
    /// the root without its leading `/`.
    func matches(_ relative: UnsafeBufferPointer<UInt8>, isDirectory: Bool, rootBytes: [UInt8]) -> Bool {
        switch form {
        case .relative(let glob):
            return glob.matches(relative, isDirectory: isDirectory)
        case .absolute(let glob):
            var full = rootBytes
            if !full.isEmpty { full.append(UInt8(ascii: "/")) }
            full.append(contentsOf: relative)
            return full.withUnsafeBufferPointer { glob.matches($0, isDirectory: isDirectory) }
        case .nothing:
            return false
        }
    }

    /// What matches nothing below the root, and why; nil when something may.
    var nothing: Nothing? {
        if case .nothing(let why) = form { return why }
        return nil
    }

    private static let wildcards = Set("*?[]{}\\".utf8)
    private static let slash = UInt8(ascii: "/")

    /// One segment of a pattern or a path, as bytes: a root's name need not
    /// be UTF-8, and is compared as it is, never decoded.
    private typealias Segment = ArraySlice<UInt8>

    private static func form(of glob: Glob, root: FilePath) -> Form {
        var text = Array(glob.pattern.utf8)[...]
        let directoryOnly = text.last == slash
        var dotSlash = false
        while text.starts(with: [UInt8(ascii: "."), slash]) || text.elementsEqual([UInt8(ascii: ".")]) {
            dotSlash = true
            text = text.dropFirst(text.count == 1 ? 1 : 2)
            while text.first == slash { text = text.dropFirst() }
        }
        let segments = text.split(separator: slash)
        if segments.contains(where: { $0.elementsEqual(".".utf8) || $0.elementsEqual("..".utf8) }) { return .nothing(.dotSegment) }
        if dotSlash {
            if segments.isEmpty { return .nothing(.rootItself) }
            return .relative(anchored(segments[...], glob.syntax, directoryOnly: directoryOnly) ?? glob)
        }
        guard text.first == slash, !segments.isEmpty else { return .relative(glob) }
        let rootNames = root.components.map { Segment($0.bytes) }
        let isFixed: (Segment) -> Bool = { !$0.contains(where: wildcards.contains) }
        let fixed = segments.prefix(while: isFixed)
        if let form = below(root: rootNames, segments[...], fixed: fixed.count, glob.syntax, directoryOnly: directoryOnly) { return form }
        // `$PWD` may name the root through a symbolic link (the root is
        // the working directory as the kernel gives it): the fixed part,
        // resolved, may name the root.
        if let resolved = resolvingLinks(fixed) {
            let segments = resolved.split(separator: slash) + segments.dropFirst(fixed.count)
            if let form = below(root: rootNames, segments[...], fixed: segments.prefix(while: isFixed).count, glob.syntax, directoryOnly: directoryOnly) {
                return form
            }
        }
        // Anchored at the root, as it always was (`/build`, `/bin` even
        // though `/` has a `bin`), unless it starts down the root's own
        // path: then it is a path typed whole. A wildcard before it leaves
        // the root's path makes it absolute (`$PWD/**/*.o` over several
        // roots, `/home/*/app/**`); leaving it, or stopping at one of the
        // root's parents, it names nothing below the root.
        guard let first = fixed.first, let rootFirst = rootNames.first, first.elementsEqual(rootFirst) else { return .relative(glob) }
        for (index, rootName) in rootNames.enumerated() {
            guard index < segments.count else { return .nothing(.outside) }
            if !isFixed(segments[index]) { return .absolute(glob) }
            if !segments[index].elementsEqual(rootName) { return .nothing(.outside) }
        }
        return .nothing(.outside)
    }

    /// When the first `fixed` of `segments` (an absolute glob's) name the
    /// root: nothing (the root itself), or the rest anchored at the root.
    private static func below(root: [Segment], _ segments: ArraySlice<Segment>, fixed: Int, _ syntax: Glob.Syntax, directoryOnly: Bool) -> Form? {
        guard fixed >= root.count, segments.prefix(root.count).elementsEqual(root, by: { $0.elementsEqual($1) }) else { return nil }
        if segments.count == root.count { return .nothing(.rootItself) }
        return anchored(segments.dropFirst(root.count), syntax, directoryOnly: directoryOnly).map(Form.relative)
    }

    /// The real path of `/` + `fixed` (its longest part that exists), with
    /// the rest of `fixed` after it, as bytes; nil when nothing of it exists
    /// or it has no symbolic link.
    private static func resolvingLinks(_ fixed: ArraySlice<Segment>) -> [UInt8]? {
        var count = fixed.count
        while count > 0 {
            let path = fixed.prefix(count).reduce(into: [UInt8]()) { path, segment in
                path.append(slash)
                path += segment
            }
            let real = (path + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { realpath($0.baseAddress!, nil) }
            }
            if let real {
                defer { free(real) }
                let resolved = Array(UnsafeRawBufferPointer(start: real, count: strlen(real)))
                if resolved == path { return nil }
                return fixed.dropFirst(count).reduce(into: resolved) { path, segment in
                    path.append(slash)
                    path += segment
                }
            }
            count -= 1
        }
        return nil
    }

    /// `/` + `segments` (+ `/`): a glob anchored at the root.
    private static func anchored(_ segments: ArraySlice<Segment>, _ syntax: Glob.Syntax, directoryOnly: Bool) -> Glob? {
        var bytes = segments.reduce(into: [UInt8]()) { bytes, segment in
            bytes.append(slash)
            bytes += segment
        }
        if directoryOnly { bytes.append(slash) }
        return try? Glob(bytes: bytes, syntax: syntax)
    }
}

extension WatchOptions {
    /// One line for each of rwatch's own globs (`include`, `exclude`, a
    /// line of an ignore or filter file) that can match nothing below any
    /// of `roots`: an absolute path outside all of them, one naming a root
    /// itself, one with a `.` or `..` segment. Such a glob is a mistake
    /// that would otherwise do nothing without a word; rwatch warns about
    /// each when it starts.
    public func globsMatchingNothing(below roots: [FilePath]) -> [String] {
        let roots = roots.map(FileSystem.absolute)
        func why(_ glob: Glob) -> String? {
            let found = roots.map { RootedGlob(glob, root: $0).nothing }
            guard !roots.isEmpty, found.allSatisfy({ $0 != nil }) else { return nil }
            if found.contains(.dotSegment) { return "the paths it is matched against hold no . or .. segment" }
            if found.contains(.rootItself) { return "it names a watched path itself, not a path below it" }
            return "it is an absolute path naming nothing below the watched paths"
        }
        var lines: [String] = []
        for (globs, kind) in [(exclude, "ignore"), (include, "filter")] {
            for pattern in globs {
                if let glob = try? Glob(pattern), let reason = why(glob) {
                    lines.append("\(kind) glob \(Quoted.path(pattern)) matches nothing: \(reason)")
                }
            }
        }
        for path in ignoreFiles + filterFiles {
            let absolute = FileSystem.absolute(FilePath(path))
            guard case .contents(let bytes) = FileSystem.readFile(absolute, limit: PathFilter.ruleFileLimit),
                  let file = try? IgnoreFile.globs(bytes, path: absolute) else { continue }
            for pattern in file.patterns {
                if let reason = why(pattern.glob) {
                    lines.append("glob \(Quoted.path(pattern.text)) (\(Quoted.path(absolute)) line \(pattern.line)) matches nothing: \(reason)")
                }
            }
        }
        return lines
    }
}
