#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Descriptors and inotify watches of a `TailFollower`: opening a followed
/// file and watching it, watching its directory (or while that is missing,
/// its nearest existing ancestor), and letting go of both. Runs on the
/// follower thread only (or in `init`), like the rest of its state.
extension TailFollower {
    /// Watches the name's directory, or while it is missing, the nearest
    /// ancestor that exists (to learn when the directory appears). The
    /// caller checks the name afterwards: a file made before the new watch
    /// has no event to announce it.
    func attachDirectory(_ index: Int) throws(TailError) {
        detach(index, from: \.directoryWatch, in: \.directoryWatches)
        detach(index, from: \.ancestorWatch, in: \.ancestorWatches)
        guard !files[index].polled else { return }
        for _ in 0..<8 {
            let wd = files[index].directory.withPlatformString { inotify_add_watch(inotify, $0, Self.directoryMask) }
            if wd >= 0 {
                directoryWatches[wd, default: []].append(index)
                files[index].directoryWatch = wd
                return
            }
            if pollsWhenOutOfWatches(index, errno) { return }
            try checkWatchError(index, errno, files[index].directory)
            var ancestor = files[index].directory
            while true {
                ancestor = FollowedFile.parent(of: ancestor)
                let wd = ancestor.withPlatformString { inotify_add_watch(inotify, $0, Self.ancestorMask) }
                if wd >= 0 {
                    ancestorWatches[wd, default: []].append(index)
                    files[index].ancestorWatch = wd
                    break
                }
                if pollsWhenOutOfWatches(index, errno) { return }
                try checkWatchError(index, errno, ancestor)
            }
            // Created meanwhile? Then watch it after all; else wait.
            guard files[index].directory.withPlatformString({ access($0, F_OK) }) == 0 else { return }
            detach(index, from: \.ancestorWatch, in: \.ancestorWatches)
        }
    }

    /// Under `.auto`, a name that finds no inotify watch (ENOSPC) is polled
    /// from now on, without the watches it has; true when that happened.
    private func pollsWhenOutOfWatches(_ index: Int, _ code: Int32) -> Bool {
        guard code == ENOSPC, case .auto = backend else { return false }
        detach(index, from: \.directoryWatch, in: \.directoryWatches)
        detach(index, from: \.ancestorWatch, in: \.ancestorWatches)
        startPolling(index, .watchLimit(InotifyInstance.maxUserWatches))
        return true
    }

    /// Throws unless `code` says that `directory` does not exist (yet).
    private func checkWatchError(_ index: Int, _ code: Int32, _ directory: FilePath) throws(TailError) {
        switch code {
        case ENOENT where directory != "/": return
        case ENOTDIR: throw TailError(path: files[index].path, problem: "\(Quoted.path(directory)) is not a directory")
        default: throw watchError(index, code)
        }
    }

    /// Drops one of a name's directory watches; the watch itself goes only
    /// when nothing else uses that watch number.
    private func detach(_ index: Int, from field: WritableKeyPath<FollowedFile, Int32>, in table: ReferenceWritableKeyPath<TailFollower, [Int32: [Int]]>) {
        let wd = files[index][keyPath: field]
        guard wd >= 0 else { return }
        files[index][keyPath: field] = -1
        var users = self[keyPath: table][wd] ?? []
        users.removeAll { $0 == index }
        self[keyPath: table][wd] = users.isEmpty ? nil : users
        if directoryWatches[wd] == nil && ancestorWatches[wd] == nil && fileWatches[wd] == nil {
            inotify_rm_watch(inotify, wd)
        }
    }

    /// Opens the file under the name, if there is one, and watches it;
    /// reading begins where `start` says. A stream (not a regular file) is
    /// not watched: `poll` on its descriptor says when it has something.
    func open(_ index: Int, from start: Tail.Start) throws(TailError) {
        for _ in 0..<3 {
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
            var wd: Int32 = -1
            if !files[index].polled && !isStream {
                wd = files[index].absolute.withPlatformString { inotify_add_watch(inotify, $0, Self.fileMask) }
                if wd < 0 {
                    let code = errno
                    if !pollsWhenOutOfWatches(index, code) {
                        close(fd)
                        if code == ENOENT { return }
                        throw watchError(index, code)
                    }
                }
            }
            var named = stat()
            guard files[index].absolute.withPlatformString({ stat($0, &named) }) == 0,
                  named.st_dev == opened.st_dev, named.st_ino == opened.st_ino
            else {
                // Replaced between open and watch: try again.
                close(fd)
                if wd >= 0, fileWatches[wd] == nil { inotify_rm_watch(inotify, wd) }
                continue
            }
            files[index].fd = fd
            files[index].device = UInt64(opened.st_dev)
            files[index].inode = UInt64(opened.st_ino)
            files[index].isStream = isStream
            files[index].reopensAtEnd = isStream && opened.st_mode & S_IFMT == S_IFIFO
                && !files[index].isInheritedDescriptor && !Self.isAnonymousPipe(fd)
            files[index].offset = isStream ? 0 : StartOffset.offset(of: start, in: fd, size: Int(opened.st_size), pattern: pattern)
            files[index].fileWatch = wd
            files[index].splitter = LineSplitter()
            if wd >= 0 { fileWatches[wd, default: []].append(index) }
            return
        }
    }

    /// Whether `fd` is a pipe made by `pipe(2)` (shell pipelines, `<(…)`)
    /// rather than a FIFO with a name: /proc calls it `pipe:[inode]`
    /// where a FIFO has its path.
    private static func isAnonymousPipe(_ fd: Int32) -> Bool {
        var target = [CChar](repeating: 0, count: 16)
        let count = readlink("/proc/self/fd/\(fd)", &target, target.count)
        return count >= 6 && target[0..<6].map { UInt8(bitPattern: $0) } == Array("pipe:[".utf8)
    }

    func closeFile(_ index: Int) {
        let wd = files[index].fileWatch
        if wd >= 0, var sharing = fileWatches[wd] {
            sharing.removeAll { $0 == index }
            if sharing.isEmpty {
                fileWatches[wd] = nil
                inotify_rm_watch(inotify, wd)
            } else {
                fileWatches[wd] = sharing
            }
        }
        close(files[index].fd)
        files[index].fd = -1
        files[index].fileWatch = -1
    }

    private func watchError(_ index: Int, _ code: Int32) -> TailError {
        if code == ENOSPC {
            return TailError(path: files[index].path, problem: "no inotify watches left (raise the sysctl fs.inotify.max_user_watches)")
        }
        return TailError(path: files[index].path, problem: Errno(rawValue: code).description)
    }

    static func currentDirectory() -> FilePath {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return FilePath(platformString: buffer)
    }

    /// Marks the names that a batch of inotify events concerns, and those
    /// whose directory watch must be set up again.
    func markDue(_ events: UnsafeRawBufferPointer, _ due: inout [Bool], _ reattach: inout [Bool]) {
        var offset = 0
        while offset + 16 <= events.count {
            let wd = events.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = events.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let length = Int(events.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let nameBytes = UnsafeRawBufferPointer(rebasing: events[(offset + 16)..<min(events.count, offset + 16 + length)])
            offset += 16 + length
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                for index in due.indices { due[index] = true }
                continue
            }
            if let indices = fileWatches[wd] {
                for index in indices { due[index] = true }
                if mask & UInt32(IN_IGNORED) != 0 {
                    fileWatches[wd] = nil
                    for index in indices where files[index].fileWatch == wd { files[index].fileWatch = -1 }
                }
            }
            let gone = mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0
            if let indices = directoryWatches[wd] {
                let name = nameBytes.prefix { $0 != 0 }
                for index in indices where gone || files[index].name.elementsEqual(name) {
                    if gone { reattach[index] = true } else { due[index] = true }
                }
            }
            if let indices = ancestorWatches[wd] {
                // Something appeared (or the ancestor went): look again.
                for index in indices { reattach[index] = true }
            }
            if mask & UInt32(IN_IGNORED) != 0 {
                // The kernel dropped the watch: forget the number.
                for index in directoryWatches[wd] ?? [] { files[index].directoryWatch = -1 }
                for index in ancestorWatches[wd] ?? [] { files[index].ancestorWatch = -1 }
                directoryWatches[wd] = nil
                ancestorWatches[wd] = nil
            }
        }
    }
}
