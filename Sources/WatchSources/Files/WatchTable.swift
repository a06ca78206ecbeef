import Glibc
import SystemPackage

/// The directories under watch, shared by every client: one inotify watch
/// per directory, counted by how many clients hold it, so that watching
/// the same tree twice costs one set of watches. Reader thread only.
struct WatchTable {
    private struct Watch {
        var wd: Int32
        var holders: Int
        /// The kernel removed it already (IN_IGNORED seen, or its directory deleted).
        var gone = false
    }

    private var watches = PathDictionary<Watch>()
    /// Directories that exist but refused a watch, each warned of once.
    private var unwatchable: Set<FilePath> = []
    /// libinotifytools' fd, read by the reader thread; nil while the library
    /// is not started (or could not start: then nothing may call it).
    var descriptor: Int32? = nil

    var count: Int { watches.count }

    func contains(_ directory: FilePath) -> Bool { watches[directory] != nil }

    /// Forgets everything (the library was closed, taking the watches with it).
    mutating func removeAll() { watches.removeAll() }

    /// The kernel dropped watch `wd`: never remove it again.
    mutating func markGone(wd: Int32) {
        guard descriptor != nil else { return }
        if let path = InotifyLibrary.path(of: wd), watches[path]?.wd == wd { watches[path]?.gone = true }
    }

    /// The kernel dropped the watch on `directory`.
    mutating func markGone(_ directory: FilePath) {
        watches[directory]?.gone = true
    }

    /// Why a client holds a watch.
    enum Hold {
        /// A directory of its tree.
        case tree
        /// A directory watched for a waiting root to come back.
        case sentinel
        /// A directory outside the tree holding a rule file (an ancestor's
        /// `.gitignore`, `info/exclude`, an ignore file).
        case rules
    }

    /// Makes `client` hold a watch on `directory`; false when the directory
    /// vanished first. A root's failure, and running out of watches, throw.
    @discardableResult
    mutating func acquire(_ directory: FilePath, for client: WatchClient, isRoot: Bool = false, as hold: Hold = .tree)
        throws(FileWatchError) -> Bool
    {
        if client.holds(directory, as: hold) { return true }
        if let budget = client.watchBudget, client.watched.count >= budget {
            throw FileWatchError(.watchLimit(path: directory, limit: budget))
        }
        if var watch = watches[directory] {
            watch.holders += 1
            watches[directory] = watch
        } else {
            guard let descriptor else { throw FileWatchError(.inotifyUnavailable(errno: EBADF)) }
            WatchSeams.willWatch(directory)
            switch InotifyLibrary.watch(directory, descriptor: descriptor) {
            case .watching(let wd):
                watches[directory] = Watch(wd: wd, holders: 1)
            case .failed(let code) where code == ENOSPC:
                // Under `.inotify` this ends the watch: say first whose watches filled the budget.
                if case .inotify = client.options.backend { FileWatcher.announceWatchHolders(about: directory) }
                throw FileWatchError(.watchLimit(path: directory, limit: InotifyLibrary.maxUserWatches))
            case .failed(let code):
                if isRoot { throw FileWatchError(code == ENOENT ? .noSuchPath(directory) : .cannotWatch(path: directory, errno: code)) }
                if code != ENOENT, code != ENOTDIR, unwatchable.insert(directory).inserted {
                    // There, but refused (no permission, a path longer than
                    // PATH_MAX): say so once, rather than see nothing below it.
                    FileWatcher.announce(WatchNotice(path: directory, kind: .warning(
                        "cannot watch \(Quoted.path(directory)): \(Errno(rawValue: code).description); changes below it are not seen")))
                }
                return false
            }
        }
        client.insert(directory, as: hold)
        return true
    }

    /// Drops one hold on `directory`; the last one removes the watch
    /// (unless the kernel already has).
    mutating func release(_ directory: FilePath, kernelDropped: Bool) {
        guard var watch = watches[directory] else { return }
        watch.holders -= 1
        if watch.holders > 0 {
            watches[directory] = watch
            return
        }
        watches[directory] = nil
        if !kernelDropped, !watch.gone, let descriptor { InotifyLibrary.unwatch(watch.wd, descriptor: descriptor) }
    }

    /// Releases what `client` watches at or below `path`.
    mutating func releaseTree(_ path: FilePath, for client: WatchClient, kernelDropped: Bool) {
        let below = client.watched.filter { FileSystem.relative($0, to: path) != nil }
        for directory in below {
            client.watched.remove(directory)
            release(directory, kernelDropped: kernelDropped)
        }
    }

    /// Directory `old` is now `new`: renames it and everything below it,
    /// here, in libinotifytools and in `clients`' sets.
    mutating func rename(_ old: FilePath, to new: FilePath, in clients: [WatchClient]) {
        func moved(_ path: FilePath) -> FilePath? {
            FileSystem.relative(path, to: old).map { new.pushing($0) }
        }
        var renamed: [(wd: Int32, path: FilePath)] = []
        for (path, watch) in watches {
            if let target = moved(path) {
                watches[path] = nil
                watches[target] = watch
                renamed.append((watch.wd, target))
            }
        }
        if descriptor != nil { InotifyLibrary.rename(old, to: new, moved: renamed) }
        for client in clients {
            for path in client.watched {
                if let target = moved(path) {
                    client.watched.remove(path)
                    client.watched.insert(target)
                }
            }
        }
    }
}
