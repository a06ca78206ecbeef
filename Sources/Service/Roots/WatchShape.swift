import Glibc
import WatchSources

/// Which names below a root the service counts, as watchman does: every
/// one, except the `ignore_dirs` (and all below them), what lies deeper
/// than one level inside a top-level version-control directory
/// (`ignore_vcs`: `.git` and `.git/objects` are reported, `.git/objects/pack`
/// is not: the directory is watched shallowly, for cookies and for the
/// VCS's own lock files). No gitignore: clients filter for themselves.
/// (This process's sync cookies are left out too: `Root.cookieDirectories`.)
struct WatchShape: Sendable, Hashable {
    /// Relative paths of the ignored directories.
    let ignored: Set<[UInt8]>
    /// The last names of `ignored`: only a name among them needs the full check.
    private let ignoredNames: Set<[UInt8]>
    /// Top-level names of the version-control directories (not ignored).
    let vcs: Set<[UInt8]>

    init(_ configuration: RootConfiguration) {
        let ignored = Set(configuration.ignoreDirectories.map(QuerySpec.canonicalPath).filter { !$0.isEmpty })
        self.ignored = ignored
        ignoredNames = Set(ignored.map { Array($0.split(separator: UInt8(ascii: "/")).last ?? []) })
        vcs = Set(configuration.ignoreVCS.filter { !$0.isEmpty && !$0.contains(UInt8(ascii: "/")) && !ignored.contains($0) })
    }

    /// Whether `name`, found in the directory at `parent` (relative), is
    /// counted at all.
    func counts(_ name: UnsafeBufferPointer<UInt8>, in parent: [UInt8]) -> Bool {
        guard ignoredNames.contains(Array(name)) else { return true }
        return !ignored.contains(Self.join(parent, name))
    }

    /// Whether what lies in the directory `name` (found in `parent`) is
    /// walked into: not for directories inside a version-control directory.
    func descends(into name: UnsafeBufferPointer<UInt8>, in parent: [UInt8]) -> Bool {
        !isInsideVCS(parent)
    }

    /// Whether `relative` is a version-control directory at the top, or
    /// lies inside one (then only its own first level is counted).
    func isInsideVCS(_ relative: [UInt8]) -> Bool {
        guard let first = relative.split(separator: UInt8(ascii: "/"), maxSplits: 1).first else { return false }
        return vcs.contains(Array(first))
    }

    /// Whether a change reported at `relative` is counted (events arrive
    /// only from watched directories, so only its own name and the VCS
    /// depth need a look).
    func countsChange(_ relative: [UInt8]) -> Bool {
        let parts = relative.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        guard let last = parts.last else { return false }
        if parts.count > 2, vcs.contains(Array(parts[0])) { return false }
        let parent = Array(relative.prefix(max(0, relative.count - last.count - 1)))
        return Array(last).withUnsafeBufferPointer { counts($0, in: parent) }
    }

    static func join(_ parent: [UInt8], _ name: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        parent.isEmpty ? Array(name) : parent + [UInt8(ascii: "/")] + Array(name)
    }

    /// The watcher's options for this shape: no ignore rules of rwatch's
    /// own, the ignored directories and the depths of the VCS directories
    /// excluded, every event as it is read (a sync cookie must not pass a
    /// write held back until its file is closed), polling where inotify
    /// cannot see.
    var watchOptions: WatchOptions {
        var exclude = ignored.sorted { $0.lexicographicallyPrecedes($1) }.map { "./" + Self.escaped($0) }
        exclude += vcs.sorted { $0.lexicographicallyPrecedes($1) }.map { "./" + Self.escaped($0) + "/*/*" }
        var options = WatchOptions(exclude: exclude, useVCSIgnore: false, useProjectIgnore: false, useGlobalIgnore: false,
                                   useDefaultIgnore: false, onRootDeleted: .fail, backend: .auto)
        options.coalescesSaves = false
        // The service is the one that watches.
        options.usesService = false
        return options
    }

    /// A path as an rwatch glob that matches only itself.
    private static func escaped(_ path: [UInt8]) -> String {
        var out: [UInt8] = []
        for byte in path {
            if "\\*?[]{}".utf8.contains(byte) { out.append(UInt8(ascii: "\\")) }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
