#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Descriptors of a `TailFollower`: opening a followed file, letting go of
/// it, and what becomes of a name whose watch failed. Runs on the follower
/// thread only (or in `init`), like the rest of its state.
extension TailFollower {
    /// The reader could not watch name `index`: under `.auto`, for want of
    /// an inotify instance or watch, the name is polled from now on;
    /// otherwise following it fails.
    func watchFailed(_ index: Int, _ error: FileWatchError) throws(TailError) {
        let path = files[index].path
        switch error.reason {
        case .inotifyUnavailable(let code) where backend == .auto:
            startPolling(index, .inotifyUnavailable(errno: code, instanceLimit: InotifyInstance.maxUserInstances))
        case .watchLimit where backend == .auto:
            startPolling(index, .watchLimit(InotifyInstance.maxUserWatches))
        case .inotifyUnavailable(let code):
            throw TailError(path: path, problem: "cannot create an inotify instance: \(Errno(rawValue: code).description) (raise fs.inotify.max_user_instances)")
        case .watchLimit:
            throw TailError(path: path, problem: "no inotify watches left (raise the sysctl fs.inotify.max_user_watches)")
        case .cannotWatch(let directory, ENOTDIR):
            throw TailError(path: path, problem: "\(Quoted.path(directory)) is not a directory")
        case .cannotWatch(_, let code):
            throw TailError(path: path, problem: Errno(rawValue: code).description)
        default:
            throw TailError(path: path, problem: error.description)
        }
    }

    /// Polls name `index` from now on, without its watch, and says so.
    func startPolling(_ index: Int, _ reason: WatchNotice.PollReason) {
        files[index].polled = true
        unwatch(index)
        FileWatcher.announce(WatchNotice(path: files[index].absolute, kind: .polling(interval: backend.pollInterval, reason: reason)))
    }

    /// Opens the file under the name, if there is one; reading begins
    /// where `start` says.
    func open(_ index: Int, from start: Tail.Start) throws(TailError) {
        // O_NONBLOCK: opening a FIFO must not wait for a writer, nor
        // reading it for data.
        let fd = files[index].absolute.withPlatformString { Glibc.open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { return }
            throw TailError(path: files[index].path, problem: Errno(rawValue: code).description)
        }
        var opened = stat()
        fstat(fd, &opened)
        if opened.st_mode & S_IFMT == S_IFDIR {
            close(fd)
            throw TailError(path: files[index].path, problem: "is a directory")
        }
        let isStream = opened.st_mode & S_IFMT != S_IFREG
        files[index].fd = fd
        files[index].device = UInt64(opened.st_dev)
        files[index].inode = UInt64(opened.st_ino)
        files[index].isStream = isStream
        files[index].reopensAtEnd = isStream && opened.st_mode & S_IFMT == S_IFIFO
            && !files[index].isInheritedDescriptor && !Self.isAnonymousPipe(fd)
        files[index].offset = isStream ? 0 : StartOffset.offset(of: start, in: fd, size: Int(opened.st_size), pattern: pattern)
        files[index].splitter = LineSplitter()
    }

    /// Whether `fd` is a pipe made by `pipe(2)` (shell pipelines, `<(…)`)
    /// rather than a FIFO with a name: /proc calls it `pipe:[inode]`
    /// where a FIFO has its path.
    private static func isAnonymousPipe(_ fd: Int32) -> Bool {
        var target = [CChar](repeating: 0, count: 16)
        let count = readlink("/proc/self/fd/\(fd)", &target, target.count)
        return count >= 6 && target[0..<6].map { UInt8(bitPattern: $0) } == Array("pipe:[".utf8)
    }

    /// Closes name `index`'s open file (its name keeps its watch).
    func closeFile(_ index: Int) {
        close(files[index].fd)
        files[index].fd = -1
    }
}
