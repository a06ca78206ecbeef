import SystemPackage

/// Every directory under an inotify watch, kept once for the whole
/// process: a tree of names, each directory a node that knows its parent,
/// its name and its watch descriptor, and how many holds clients have on
/// it (two clients watching one tree share one watch). A client keeps the
/// nodes it holds, as numbers (`ReaderClient.tree`); nothing else keeps a
/// directory's path.
///
/// A path is found from its parts (one hash lookup per component), and
/// made from its node by walking up. A directory renamed is one node moved:
/// what lies below it follows without a change. About 60 bytes a
/// directory here, where a table keyed by whole paths costs several
/// hundred.
///
/// A value with no I/O: the reader adds and removes the kernel's watches
/// and tells the table.
struct WatchTable {
    typealias Node = Int32

    /// The node of `/`, always there.
    static let root: Node = 0

    private struct Entry {
        var parent: Node
        var firstChild: Node = -1
        var nextSibling: Node = -1
        /// The kernel's watch descriptor; -1 for a directory that is only
        /// on the way to watched ones.
        var wd: Int32 = -1
        var nameStart: UInt32
        var nameLength: UInt8
        /// The kernel dropped the watch already (its directory is gone).
        var gone = false
        var holders: UInt16 = 0
    }

    private var entries: [Entry] = [Entry(parent: -1, nameStart: 0, nameLength: 0)]
    /// Every node's name, one after the other.
    private var names: [UInt8] = []
    /// Bytes of `names` no node uses any more (renamed or removed).
    private var unusedNameBytes = 0
    private var free: [Node] = []
    private var byDescriptor: [Int32: Node] = [:]
    /// A node by a hash of its parent and name; a node whose hash another
    /// one took is found by looking through its siblings.
    private var byName: [Int: Node] = [:]
    /// How many directories are held (watched, or dropped by the kernel and not yet released).
    private(set) var count = 0

    // MARK: Finding

    /// Whether `node` is a held directory.
    func isHeld(_ node: Node) -> Bool { entries[Int(node)].holders > 0 }

    /// The held directory at `path`, if any.
    func held(_ path: FilePath) -> Node? {
        guard let node = lookup(path), isHeld(node) else { return nil }
        return node
    }

    /// The node watching through `wd`.
    func node(wd: Int32) -> Node? { byDescriptor[wd] }

    /// The watch descriptor of `node` (-1 for none).
    func wd(of node: Node) -> Int32 { entries[Int(node)].wd }

    /// The node at `path` (absolute, normalized), if the table has one.
    func lookup(_ path: FilePath) -> Node? {
        var node = Self.root
        for component in path.components {
            guard let child = component.withBytes({ child(of: node, named: $0) }) else { return nil }
            node = child
        }
        return node
    }

    /// The child of `parent` called `name`.
    func child(of parent: Node, named name: UnsafeBufferPointer<UInt8>) -> Node? {
        if let node = byName[Self.key(parent, name)], entries[Int(node)].parent == parent, hasName(node, name) { return node }
        var child = entries[Int(parent)].firstChild
        while child >= 0 {
            if hasName(child, name) { return child }
            child = entries[Int(child)].nextSibling
        }
        return nil
    }

    /// The absolute path of `node`.
    func path(of node: Node) -> FilePath {
        var chain: [Node] = []
        var current = node
        while current > Self.root {
            chain.append(current)
            current = entries[Int(current)].parent
        }
        var bytes: [UInt8] = []
        for part in chain.reversed() {
            bytes.append(UInt8(ascii: "/"))
            let entry = entries[Int(part)]
            bytes += names[Int(entry.nameStart)..<Int(entry.nameStart) + Int(entry.nameLength)]
        }
        return bytes.isEmpty ? FilePath("/") : FilePath(bytes: bytes)
    }

    /// Every node at or below `node`, parents before their children.
    func subtree(_ node: Node) -> [Node] {
        var found: [Node] = []
        var stack = [node]
        while let next = stack.popLast() {
            found.append(next)
            var child = entries[Int(next)].firstChild
            while child >= 0 {
                stack.append(child)
                child = entries[Int(child)].nextSibling
            }
        }
        return found
    }

    // MARK: Changing

    /// Records that `path` is watched through `wd`, held once; its parents
    /// get nodes as needed. The path must not be held already.
    @discardableResult
    mutating func add(_ path: FilePath, wd: Int32) -> Node {
        var node = Self.root
        for component in path.components {
            node = component.withBytes { child(of: node, named: $0) ?? insert($0, under: node) }
        }
        precondition(entries[Int(node)].holders == 0, "a held directory is added once")
        entries[Int(node)].wd = wd
        entries[Int(node)].gone = false
        entries[Int(node)].holders = 1
        byDescriptor[wd] = node
        count += 1
        return node
    }

    /// One more hold on the held `node`.
    mutating func hold(_ node: Node) {
        precondition(entries[Int(node)].holders > 0 && entries[Int(node)].holders < .max, "a hold on a held directory")
        entries[Int(node)].holders += 1
    }

    /// Drops one hold on `node`. When it was the last, the directory leaves
    /// the table and its watch descriptor is returned, for the caller to
    /// remove from the kernel (nil when the kernel dropped it already).
    mutating func release(_ node: Node) -> Int32? {
        guard entries[Int(node)].holders > 0 else { return nil }
        entries[Int(node)].holders -= 1
        guard entries[Int(node)].holders == 0 else { return nil }
        count -= 1
        let entry = entries[Int(node)]
        if entry.wd >= 0, byDescriptor[entry.wd] == node { byDescriptor[entry.wd] = nil }
        entries[Int(node)].wd = -1
        prune(node)
        return entry.gone ? nil : entry.wd
    }

    /// The kernel dropped watch `wd` (`IN_IGNORED`): it is never removed again.
    mutating func markGone(wd: Int32) {
        guard let node = byDescriptor.removeValue(forKey: wd) else { return }
        entries[Int(node)].gone = true
    }

    /// The kernel dropped the watch of `node` (its directory was deleted).
    mutating func markGone(_ node: Node) {
        entries[Int(node)].gone = true
    }

    /// Directory `node` is now called `name` in `parent`: everything below
    /// it follows. A directory it replaced there (a rename over an empty
    /// directory) keeps its holds, out of the tree, until they are released.
    mutating func move(_ node: Node, to parent: Node, name: UnsafeBufferPointer<UInt8>) {
        if let replaced = child(of: parent, named: name), replaced != node {
            unlink(replaced)
            prune(replaced)
        }
        let oldParent = entries[Int(node)].parent
        if oldParent >= 0 { unlink(node) }
        unusedNameBytes += Int(entries[Int(node)].nameLength)
        entries[Int(node)].nameStart = UInt32(names.count)
        entries[Int(node)].nameLength = UInt8(name.count)
        names += name
        attach(node, under: parent)
        if oldParent >= 0 { prune(oldParent) }
    }

    /// Forgets everything (the inotify instance was closed, taking the watches with it).
    mutating func removeAll() {
        self = WatchTable()
    }

    // MARK: Nodes

    private func hasName(_ node: Node, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = entries[Int(node)]
        guard Int(entry.nameLength) == name.count else { return false }
        return names[Int(entry.nameStart)..<Int(entry.nameStart) + name.count].elementsEqual(name)
    }

    private static func key(_ parent: Node, _ name: some Sequence<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(parent)
        for byte in name { hasher.combine(byte) }
        return hasher.finalize()
    }

    private func key(of node: Node) -> Int {
        let entry = entries[Int(node)]
        return Self.key(entry.parent, names[Int(entry.nameStart)..<Int(entry.nameStart) + Int(entry.nameLength)])
    }

    /// A new node `name` below `parent`, held by no one yet.
    private mutating func insert(_ name: UnsafeBufferPointer<UInt8>, under parent: Node) -> Node {
        precondition(name.count <= 255, "a name is at most 255 bytes")
        let entry = Entry(parent: parent, nameStart: UInt32(names.count), nameLength: UInt8(name.count))
        names += name
        let node: Node
        if let reused = free.popLast() {
            node = reused
            entries[Int(node)] = entry
        } else {
            node = Node(entries.count)
            entries.append(entry)
        }
        attach(node, under: parent)
        return node
    }

    private mutating func attach(_ node: Node, under parent: Node) {
        entries[Int(node)].parent = parent
        entries[Int(node)].nextSibling = entries[Int(parent)].firstChild
        entries[Int(parent)].firstChild = node
        let key = key(of: node)
        if byName[key] == nil { byName[key] = node }
    }

    /// Takes `node` out of its parent's children and the name index.
    private mutating func unlink(_ node: Node) {
        let parent = entries[Int(node)].parent
        let key = key(of: node)
        if byName[key] == node { byName[key] = nil }
        if entries[Int(parent)].firstChild == node {
            entries[Int(parent)].firstChild = entries[Int(node)].nextSibling
        } else {
            var sibling = entries[Int(parent)].firstChild
            while entries[Int(sibling)].nextSibling != node { sibling = entries[Int(sibling)].nextSibling }
            entries[Int(sibling)].nextSibling = entries[Int(node)].nextSibling
        }
        entries[Int(node)].parent = -1
        entries[Int(node)].nextSibling = -1
    }

    /// Frees `node`, and the ancestors that leaves with no hold and no
    /// child: a node stays only while it is held or on the way to one that is.
    private mutating func prune(_ node: Node) {
        var current = node
        while current != Self.root, current >= 0 {
            let entry = entries[Int(current)]
            guard entry.holders == 0, entry.firstChild < 0 else { break }
            if entry.parent >= 0 { unlink(current) }
            unusedNameBytes += Int(entry.nameLength)
            entries[Int(current)] = Entry(parent: -1, nameStart: 0, nameLength: 0)
            free.append(current)
            current = entry.parent
        }
        compactNamesIfWasteful()
    }

    /// Rewrites `names` without the bytes no node uses, once they are the larger part.
    private mutating func compactNamesIfWasteful() {
        guard unusedNameBytes > 4096, unusedNameBytes * 2 > names.count else { return }
        var compacted: [UInt8] = []
        compacted.reserveCapacity(names.count - unusedNameBytes)
        for index in entries.indices where entries[index].nameLength > 0 {
            let start = Int(entries[index].nameStart)
            entries[index].nameStart = UInt32(compacted.count)
            compacted += names[start..<start + Int(entries[index].nameLength)]
        }
        names = compacted
        unusedNameBytes = 0
    }
}
