import Glibc
@testable import WatchSources

/// A file system in memory for `PollMachine`: what it lists and `stat`s,
/// changed by the test between passes the way the kernel would change it
/// (a new name bumps its directory's times, a rename keeps the inode).
/// Counts the listings and `stat`s a pass costs.
final class MemoryPollSystem: PollSystem {
    struct Node {
        var isDirectory: Bool
        var inode: UInt64
        var size: Int64 = 0
        /// mtime and ctime, nanoseconds since the epoch.
        var modified: Int64
        var changed: Int64
        var mode: UInt32
        /// Listable (a directory `open` fails on otherwise).
        var readable = true
        /// A directory's names, in the order it lists them.
        var names: [String] = []
    }

    private(set) var nodes: [String: Node] = [:]
    private var open: [Int32: String] = [:]
    private var nextDescriptor: Int32 = 3
    private var nextInode: UInt64 = 100
    /// The wall clock the next change is stamped with (seconds).
    var wall: Double
    /// What the passes so far cost.
    private(set) var listings = 0
    private(set) var stats = 0
    static let device: UInt64 = 7

    init(root: String, at wall: Double) {
        self.wall = wall
        nodes[root] = Node(isDirectory: true, inode: 2, modified: stamp, changed: stamp, mode: S_IFDIR | 0o755)
    }

    private var stamp: Int64 { Int64(wall * 1e9) }

    // MARK: Changes, as the kernel makes them

    func mkdir(_ path: String) { add(path, Node(isDirectory: true, inode: takeInode(), modified: stamp, changed: stamp, mode: S_IFDIR | 0o755)) }

    /// Writes `size` bytes to `path`, making it if needed.
    func write(_ path: String, size: Int64) {
        if nodes[path] == nil {
            add(path, Node(isDirectory: false, inode: takeInode(), modified: stamp, changed: stamp, mode: S_IFREG | 0o644))
        }
        nodes[path]!.size = size
        nodes[path]!.modified = stamp
        nodes[path]!.changed = stamp
    }

    /// A write within the same clock tick (a file system with coarse
    /// times): only the size tells.
    func resize(_ path: String, _ size: Int64) { nodes[path]!.size = size }

    func chmod(_ path: String, _ mode: UInt32) {
        nodes[path]!.mode = (nodes[path]!.mode & S_IFMT) | mode
        nodes[path]!.changed = stamp
    }

    func setReadable(_ path: String, _ readable: Bool) { nodes[path]!.readable = readable }

    /// Removes `path` and everything below it.
    func remove(_ path: String) {
        for key in nodes.keys where key == path || key.hasPrefix(path + "/") { nodes[key] = nil }
        touchParent(of: path) { $0.removeAll { $0 == MemoryPollSystem.name(path) } }
    }

    /// `rename(2)`: the node keeps its inode; one already at `to` is replaced.
    func rename(_ from: String, to: String) {
        let moved = nodes.filter { $0.key == from || $0.key.hasPrefix(from + "/") }
        let replaced = nodes[to] != nil
        if replaced { remove(to) }
        remove(from)
        for (key, node) in moved { nodes[to + key.dropFirst(from.count)] = node }
        nodes[to]!.changed = stamp
        touchParent(of: to) { $0.append(MemoryPollSystem.name(to)) }
    }

    private func add(_ path: String, _ node: Node) {
        nodes[path] = node
        touchParent(of: path) { $0.append(MemoryPollSystem.name(path)) }
    }

    private func touchParent(of path: String, _ change: (inout [String]) -> Void) {
        let parent = String(path[..<path.lastIndex(of: "/")!])
        guard nodes[parent] != nil else { return }
        change(&nodes[parent]!.names)
        nodes[parent]!.modified = stamp
        nodes[parent]!.changed = stamp
    }

    private func takeInode() -> UInt64 {
        nextInode += 1
        return nextInode
    }

    private static func name(_ path: String) -> String { String(path[path.index(after: path.lastIndex(of: "/")!)...]) }

    private static func string(_ bytes: [UInt8]) -> String { String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }

    // MARK: PollSystem

    func openDirectory(_ path: [UInt8], following: Bool) -> Int32 {
        let path = MemoryPollSystem.string(path)
        guard let node = nodes[path], node.isDirectory, node.readable else { return -1 }
        nextDescriptor += 1
        open[nextDescriptor] = path
        return nextDescriptor
    }

    func closeDirectory(_ descriptor: Int32) { open[descriptor] = nil }

    func list(_ descriptor: Int32, _ body: (UnsafeBufferPointer<UInt8>, _ type: UInt8, _ inode: UInt64) -> Void) -> Bool {
        defer { open[descriptor] = nil }
        guard let path = open[descriptor], let node = nodes[path] else { return false }
        listings += 1
        for name in node.names {
            let child = nodes[path + "/" + name]!
            // NUL-terminated where it lies, as in a `dirent`.
            (Array(name.utf8) + [0]).withUnsafeBufferPointer { buffer in
                body(UnsafeBufferPointer(rebasing: buffer.dropLast()), UInt8(child.isDirectory ? DT_DIR : DT_REG), child.inode)
            }
        }
        return true
    }

    func status(at descriptor: Int32, _ name: UnsafePointer<CChar>, _ info: inout stat) -> Bool {
        guard let directory = open[descriptor] else { return false }
        return look(directory + "/" + String(cString: name), &info)
    }

    func status(of path: [UInt8], following: Bool, _ info: inout stat) -> Bool {
        look(MemoryPollSystem.string(path), &info)
    }

    func hasLocalTimes(device: UInt64) -> Bool { true }

    private func look(_ path: String, _ info: inout stat) -> Bool {
        stats += 1
        guard let node = nodes[path] else { return false }
        info = stat()
        info.st_dev = .init(MemoryPollSystem.device)
        info.st_ino = .init(node.inode)
        info.st_mode = node.mode
        info.st_size = Int(node.size)
        info.st_mtim = timespec(tv_sec: Int(node.modified / 1_000_000_000), tv_nsec: Int(node.modified % 1_000_000_000))
        info.st_ctim = timespec(tv_sec: Int(node.changed / 1_000_000_000), tv_nsec: Int(node.changed % 1_000_000_000))
        return true
    }
}
