import SystemPackage
import WatchSources

/// What a batch of the watcher's events asks a root to look at again: the
/// paths to `lstat` (each once, in the order first named), which of them
/// to walk into when they turn out to be directories, the parents whose
/// own times a name coming or going changed, and the sync cookies seen.
/// It trusts no event's kind beyond that: what `lstat` finds is the truth.
struct ChangePlan: Equatable {
    struct Look: Equatable {
        var relative: [UInt8]
        /// A directory found there is walked (it is new, or moved in).
        var walk: Bool
    }

    private(set) var looks: [Look] = []
    private var positions: [[UInt8]: Int] = [:]
    /// Serials of this process's cookies seen.
    private(set) var cookies: [UInt64] = []
    /// The kernel queue overflowed: only a full crawl knows what happened.
    private(set) var overflowed = false
    /// The root's `.watchmanconfig` was touched.
    private(set) var configurationTouched = false

    /// Adds one event of the root at `root` (absolute bytes) with `shape`;
    /// a name of this process's cookies is a cookie in `cookieDirectories`
    /// (relative), or anywhere while a sync awaits its serial (`awaited`:
    /// one written into the root because the VCS directory had just
    /// gone), and a file like any other elsewhere.
    mutating func add(_ event: FileEvent, root: [UInt8], shape: WatchShape, cookieDirectories: Set<[UInt8]>,
                      awaited: Set<UInt64> = []) {
        if event.kind == .overflow {
            overflowed = true
            return
        }
        guard let relative = event.path.withBytes({ Self.relative(Array($0), to: root) }), !relative.isEmpty else { return }
        let name = relative.split(separator: UInt8(ascii: "/")).last.map(Array.init) ?? relative
        let parent = Array(relative.prefix(max(0, relative.count - name.count - 1)))
        if let serial = name.withUnsafeBufferPointer({ Cookies.serial($0) }), cookieDirectories.contains(parent) || awaited.contains(serial) {
            cookies.append(serial)
            return
        }
        guard shape.countsChange(relative) else { return }
        if relative == Array(".watchmanconfig".utf8) { configurationTouched = true }
        switch event.kind {
        case .created, .movedTo:
            look(relative, walk: true)
            lookAtParent(of: relative)
        case .deleted, .movedFrom:
            look(relative, walk: false)
            lookAtParent(of: relative)
        case .modified, .closedWrite, .attributes, .overflow:
            look(relative, walk: false)
        }
    }

    private mutating func look(_ relative: [UInt8], walk: Bool) {
        if let position = positions[relative] {
            looks[position].walk = looks[position].walk || walk
            return
        }
        positions[relative] = looks.count
        looks.append(Look(relative: relative, walk: walk))
    }

    /// A name came or went: its directory's times changed (the root's own
    /// entry is kept apart, never reported).
    private mutating func lookAtParent(of relative: [UInt8]) {
        guard let slash = relative.lastIndex(of: UInt8(ascii: "/")) else { return }
        look(Array(relative[..<slash]), walk: false)
    }

    /// `path` below `root` (empty for the root), or nil outside it.
    static func relative(_ path: [UInt8], to root: [UInt8]) -> [UInt8]? {
        guard path.starts(with: root) else { return nil }
        if path.count == root.count { return [] }
        if root == [UInt8(ascii: "/")] { return Array(path.dropFirst()) }
        guard path[root.count] == UInt8(ascii: "/") else { return nil }
        return Array(path[(root.count + 1)...])
    }
}
