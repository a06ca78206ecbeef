import Glibc
import SystemPackage

/// Mounts coming and going under watched roots (`.auto` only). The kernel
/// marks `/proc/self/mountinfo` with `POLLPRI` when the mount table
/// changes; the reader then compares each root's mounts with what it
/// knew, and watches every directory that changed what it shows afresh:
/// a network or FUSE mount that appeared is polled, a local one gets
/// inotify watches (those of the directory it covers see nothing any
/// more), and where a mount went, the directory beneath is watched again.
extension ReaderLoop {
    func openMountWatch() {
        guard mountWatch < 0 else { return }
        mountWatch = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)
    }

    func closeMountWatch() {
        guard mountWatch >= 0 else { return }
        close(mountWatch)
        mountWatch = -1
    }

    /// The mount table changed: re-plans every root of every `.auto` client.
    func mountsChanged() {
        let mounts = MountTable.current()
        for client in clients where !client.ended {
            guard case .auto = client.options.backend else { continue }
            for index in client.roots.indices {
                let root = client.roots[index]
                guard !root.waiting, !root.isFile, !root.polledWhole else { continue }
                let now = mounts.mountPoints(under: root.path)
                let before = root.mountPoints
                guard now != before else { continue }
                client.roots[index].mountPoints = now
                // Shallow first: a directory re-watched covers those below it.
                let changed = Set(before.keys.filter { now[$0] != before[$0] } + now.keys.filter { before[$0] != now[$0] })
                var done: [FilePath] = []
                for path in changed.sorted(by: { $0.length < $1.length }) {
                    if done.contains(where: { FileSystem.relative(path, to: $0) != nil }) { continue }
                    if rewatch(client, index, path) { done.append(path) }
                    if client.ended { break }
                }
            }
            flushPolling(client, gate: nil)
        }
    }

    /// Watches directory `path` of root `index` afresh, as its mount now
    /// asks, without reporting what it holds; false when it is not part of
    /// the watched tree (ignored, or inside a polled subtree, which sees
    /// the change by itself).
    private func rewatch(_ client: WatchClient, _ index: Int, _ path: FilePath) -> Bool {
        let polled = client.polledSubtrees[index] ?? []
        if polled.contains(where: { $0 != path && FileSystem.relative(path, to: $0) != nil }) { return false }
        let parent = FileSystem.parent(path)
        guard client.wantsDirectory(path, in: parent), client.watched.contains(parent) || polled.contains(path) else { return false }
        stopPolling(client, under: path)
        table.releaseTree(path, for: client, kernelDropped: false)
        guard FileSystem.kind(path) == .directory, let relative = FileSystem.relative(path, to: client.roots[index].path) else {
            return true
        }
        do {
            _ = try walk(client, index, from: path, relative: relative, mode: .silent)
        } catch {
            fail(client, error)
        }
        return true
    }
}
