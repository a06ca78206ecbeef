import Signals
import Synchronization
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// One `Tail.follow` subscription: its own inotify instance, and one thread
/// that waits in `poll` for inotify events and reads what they announce.
///
/// Each followed name has two watches: its directory (the name being
/// created, renamed or deleted) and the file open under it (writes,
/// truncation). Every event leads to the same check of that name: read the
/// open file to its end, then see whether the name still points at it. The
/// old file stays open after a rename until a new file takes the name, so
/// what the writer adds to it meanwhile is not lost. While the directory
/// itself is missing (or after it was deleted or renamed), the nearest
/// existing ancestor is watched instead, until the directory appears.
///
/// What each check and each stream's end mean (rotated, truncated,
/// deleted, appeared, finished) is the name's `TailMachine`'s to decide;
/// this class looks, reads and performs what it says.
///
/// A polled name (`WatchBackend`: on a network or FUSE mount, polling
/// asked for, or no inotify instance or watch left) has no watches: the
/// same check runs for it every poll interval.
///
/// A name whose file is not a regular file (a FIFO, a pipe, a terminal) is
/// a stream: its descriptor joins the `poll` set, on any backend, and is
/// read with `read` when it is readable, one read per wake-up so that one
/// busy stream cannot starve the others. At its end (its last writer gone)
/// a named FIFO is opened again for the next writer; a pipe or a device
/// ends its name, and when every name has ended the subscription completes.
final class TailFollower: @unchecked Sendable {
    // Safety: `files` and the watch tables (internal for the extension in
    // TailFollower+Watches.swift) are touched by `init` on the subscribing
    // thread, then only by the follower thread (`pthread_create` orders the
    // two). `cancel()` touches only `cancelled` and `wake`. The
    // descriptors close in `deinit`, after the thread has let go.
    private let sink: TailSink
    let pattern: LinePattern?
    /// The inotify instance, or -1 when every name is polled.
    let inotify: Int32
    let backend: WatchBackend
    private let wake: WakePipe
    private let cancelled = Atomic<Bool>(false)
    var files: [FollowedFile]
    var directoryWatches: [Int32: [Int]] = [:]
    var ancestorWatches: [Int32: [Int]] = [:]
    var fileWatches: [Int32: [Int]] = [:]
    private var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: TailFollower.readSize, alignment: 16)

    static let readSize = 1 << 20
    // IN_MASK_ADD: one directory can be a followed file's directory and
    // another's waited-on ancestor; each add must keep the other's events.
    static let directoryMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR) | UInt32(IN_MASK_ADD)
    static let ancestorMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR) | UInt32(IN_MASK_ADD)
    static let fileMask = UInt32(IN_MODIFY | IN_ATTRIB | IN_MOVE_SELF | IN_DELETE_SELF)

    /// Opens every file that exists (at its end for `.end`) and sets up the
    /// watches, so that nothing written after subscribing is missed.
    init(paths: [FilePath], start: Tail.Start, pattern: LinePattern?, backend: WatchBackend = .auto, sink: TailSink) throws(TailError) {
        self.sink = sink
        self.pattern = pattern
        self.backend = backend
        let current = TailFollower.currentDirectory()
        var followed: [FollowedFile] = []
        for path in paths { followed.append(try FollowedFile(path: path, currentDirectory: current)) }
        files = followed
        var reason: WatchNotice.PollReason? = nil
        if case .poll = backend {
            inotify = -1
            reason = .requested
        } else {
            switch InotifyInstance.make() {
            case .success(let made):
                inotify = made
            case .failure(let code) where backend == .auto:
                inotify = -1
                reason = .inotifyUnavailable(errno: code.rawValue, instanceLimit: InotifyInstance.maxUserInstances)
            case .failure(let code):
                buffer.deallocate()
                throw TailError(path: paths.first ?? "", problem: "cannot create an inotify instance: \(code.description) (raise fs.inotify.max_user_instances)")
            }
        }
        do {
            wake = try WakePipe()
        } catch {
            if inotify >= 0 { close(inotify) }
            buffer.deallocate()
            throw TailError(path: paths.first ?? "", problem: Errno(rawValue: error.errno).description)
        }
        let mounts = reason == nil && backend == .auto ? MountTable.current() : nil
        for index in self.files.indices {
            if let reason {
                startPolling(index, reason)
            } else if let mount = mounts?.mount(of: FollowedFile.existingAncestor(of: files[index].directory)), mount.needsPolling {
                startPolling(index, .fileSystem(mount.fsType))
            }
            if files[index].polled {
                // What a watch would have refused: a parent that is a file.
                let ancestor = FollowedFile.existingAncestor(of: files[index].directory)
                var info = stat()
                if ancestor.withPlatformString({ stat($0, &info) }) == 0, info.st_mode & S_IFMT != S_IFDIR {
                    throw TailError(path: files[index].path, problem: "\(Quoted.path(ancestor)) is not a directory")
                }
            } else {
                try attachDirectory(index)
            }
            if files[index].polled || files[index].directoryWatch >= 0 { try open(index, from: start) }
            files[index].machine.subscribed(files[index].fd < 0 ? .nothing : .opened(files[index].isStream ? .stream : .file))
        }
        // What a recipe says it follows once it runs (`RecipeRunner`).
        for file in files { FileWatcher.announce(WatchNotice(path: file.absolute, kind: .following)) }
    }

    deinit {
        for file in files where file.fd >= 0 { close(file.fd) }
        if inotify >= 0 { close(inotify) }
        buffer.deallocate()
    }

    /// Polls name `index` from now on, and says so.
    func startPolling(_ index: Int, _ reason: WatchNotice.PollReason) {
        files[index].polled = true
        FileWatcher.announce(WatchNotice(path: files[index].absolute, kind: .polling(interval: backend.pollInterval, reason: reason)))
    }

    /// Starts the follower thread. Returns false if no thread could be made.
    func start() -> Bool {
        DetachedThread.start { self.run() }
    }

    /// Stops following; the thread ends at its next wake-up.
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        wake.wake()
    }

    private var isCancelled: Bool {
        cancelled.load(ordering: .acquiring) || sink.isStopped()
    }

    // MARK: The follower thread

    private func run() {
        for index in files.indices { check(index) }
        for index in files.indices where files[index].fd < 0 { sink.notice(.waiting(path: files[index].path)) }
        let events = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
        defer { events.deallocate() }
        var pollSet = [pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0)]
        if inotify >= 0 { pollSet.append(pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)) }
        // After the wake pipe and inotify: one entry per open stream, made
        // again every turn (a stream's descriptor changes when it is reopened).
        let watched = pollSet.count
        var streams: [Int] = []
        var due = [Bool](repeating: false, count: files.count)
        var reattach = [Bool](repeating: false, count: files.count)
        let interval = Int64(backend.pollInterval.clampedMilliseconds)
        var nextPoll = TailFollower.milliseconds() + interval
        while !isCancelled {
            if files.allSatisfy(\.machine.isFinished) {
                sink.complete()
                return
            }
            pollSet.removeSubrange(watched...)
            streams.removeAll(keepingCapacity: true)
            for index in files.indices where files[index].isStream && files[index].fd >= 0 {
                pollSet.append(pollfd(fd: files[index].fd, events: Int16(POLLIN), revents: 0))
                streams.append(index)
            }
            for index in pollSet.indices { pollSet[index].revents = 0 }
            var timeout: Int32 = -1
            if files.contains(where: \.polled) {
                timeout = Int32(clamping: max(0, nextPoll - TailFollower.milliseconds()))
            }
            if poll(&pollSet, nfds_t(pollSet.count), timeout) < 0 { continue }  // EINTR
            if pollSet[0].revents != 0 { wake.drain() }
            // Streams first: what inotify reports below may replace the
            // descriptor polled here. POLLHUP and POLLERR read too (the end).
            for (slot, index) in streams.enumerated() where pollSet[watched + slot].revents != 0 {
                if readStream(index) == .ended {
                    perform(index, files[index].machine.streamEnded(reopens: files[index].reopensAtEnd))
                }
                if isCancelled { return }
            }
            if timeout >= 0, TailFollower.milliseconds() >= nextPoll {
                nextPoll = TailFollower.milliseconds() + interval
                for index in files.indices where files[index].polled {
                    check(index)
                    if isCancelled { return }
                }
            }
            guard inotify >= 0, pollSet[1].revents != 0 else { continue }
            guard readInotify(events, &due, &reattach) else { return }
        }
    }

    /// Reads what inotify queued, watches again the directories it says
    /// were lost, and checks the names it concerns. False when the
    /// follower must stop (failed, or cancelled).
    private func readInotify(_ events: UnsafeMutableRawBufferPointer, _ due: inout [Bool], _ reattach: inout [Bool]) -> Bool {
        while true {
            let count = read(inotify, events.baseAddress, events.count)
            if count <= 0 { break }
            markDue(UnsafeRawBufferPointer(rebasing: events[0..<count]), &due, &reattach)
        }
        for index in reattach.indices where reattach[index] {
            reattach[index] = false
            do {
                try attachDirectory(index)
            } catch {
                sink.fail(error)
                return false
            }
            due[index] = true
        }
        for index in due.indices where due[index] {
            due[index] = false
            check(index)
            if isCancelled { return false }
        }
        return true
    }

    /// CLOCK_MONOTONIC in milliseconds.
    private static func milliseconds() -> Int64 {
        Int64(Clocks.monotonicNanoseconds() / 1_000_000)
    }

    /// Reads what is new under one name, then tells its `TailMachine` what
    /// became of the open file and of the name, and does what it says:
    /// follow the name to a new file, close a deleted one, wait.
    ///
    /// A stream is read when `poll` says so, not here, except for what is
    /// left in it before it is let go.
    private func check(_ index: Int) {
        if files[index].machine.isFinished { return }
        if files[index].fd >= 0 {
            if !files[index].isStream { readAvailable(index) }
            var opened = stat()
            if fstat(files[index].fd, &opened) == 0 && opened.st_nlink == 0 {
                perform(index, files[index].machine.openFileDeleted())
            }
        }
        guard let lookup = lookUp(index) else { return }
        perform(index, files[index].machine.looked(lookup))
    }

    /// What is under the name now; nil when the follower failed (its
    /// directory could not be watched again).
    private func lookUp(_ index: Int) -> TailMachine.Lookup? {
        var info = stat()
        while files[index].absolute.withPlatformString({ stat($0, &info) }) != 0 {
            // If the directory went too, wait for it to come back.
            guard files[index].directoryWatch >= 0 && files[index].directory.withPlatformString({ access($0, F_OK) }) != 0 else {
                return .missing
            }
            do {
                try attachDirectory(index)
            } catch {
                cancelled.store(true, ordering: .releasing)
                sink.fail(error)
                return nil
            }
            // The directory may be back already, with the file made in it
            // before the new watch: no event will tell of that file, so
            // look again.
        }
        return files[index].isOpenFile(info) ? .openFile : .otherFile
    }

    /// Does what name `index`'s machine said, in order.
    private func perform(_ index: Int, _ actions: [TailMachine.Action]) {
        for action in actions {
            if isCancelled { return }
            switch action {
            case .readToEnd: readAvailable(index)
            case .drainStream: drainStream(index)
            case .finishLine: finishLine(index)
            case .close: closeFile(index)
            case .open: openName(index, replacing: false)
            case .reopen: openName(index, replacing: true)
            case .startOver: files[index].offset = 0
            case .notice(let notice): sink.notice(tailNotice(notice, files[index].path))
            }
        }
    }

    /// Opens the name from its beginning and tells the machine what that
    /// gave. `replacing`: the new descriptor first, then the old one
    /// closed: a writer that came and went since a FIFO's end was read left
    /// its bytes in the pipe, which lasts only while someone holds it open.
    /// A FIFO opened without a writer reports no POLLHUP until one has come
    /// and gone, so an idle FIFO does not wake the follower.
    private func openName(_ index: Int, replacing: Bool) {
        let old = replacing ? files[index].fd : -1
        if replacing { files[index].fd = -1 }
        do {
            try open(index, from: .start)
        } catch {}  // a directory, say: wait for the next change
        if old >= 0 { close(old) }
        let opened: TailMachine.Opened = files[index].fd < 0 ? .nothing : .opened(files[index].isStream ? .stream : .file)
        perform(index, files[index].machine.opened(opened))
    }

    private func tailNotice(_ notice: TailMachine.Notice, _ path: FilePath) -> Tail.Notice {
        switch notice {
        case .waiting: .waiting(path: path)
        case .appeared: .appeared(path: path)
        case .rotated: .rotated(path: path)
        case .truncated: .truncated(path: path)
        }
    }

    /// What one `read` of a stream gave.
    private enum StreamRead {
        /// Bytes (delivered), or nothing for now (EAGAIN).
        case more
        /// The end: no writer is left (or the device failed, as a terminal
        /// that hung up does with EIO).
        case ended
    }

    /// One `read` of stream `index` (at most `readSize` bytes; `poll` says
    /// when there is more), its lines delivered. Never blocks: the stream
    /// was opened with O_NONBLOCK.
    private func readStream(_ index: Int) -> StreamRead {
        var count: Int
        repeat {
            count = read(files[index].fd, buffer.baseAddress, buffer.count)
        } while count < 0 && errno == EINTR
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .more }
        guard count > 0 else { return .ended }
        deliver(index, count)
        return .more
    }

    /// Reads what stream `index` holds now, before it is let go. Bounded,
    /// for a device that never runs dry (`/dev/zero`).
    private func drainStream(_ index: Int) {
        for _ in 0..<64 where !isCancelled {
            var count: Int
            repeat {
                count = read(files[index].fd, buffer.baseAddress, buffer.count)
            } while count < 0 && errno == EINTR
            guard count > 0 else { return }
            deliver(index, count)
        }
    }

    /// Reads the open file from the last offset to its end, line by line.
    private func readAvailable(_ index: Int) {
        let fd = files[index].fd
        var info = stat()
        if fstat(fd, &info) == 0 {
            // Truncated (copytruncate)? Then it starts over.
            perform(index, files[index].machine.sized(Int(info.st_size), offset: files[index].offset))
        }
        while !isCancelled {
            let count = pread(fd, buffer.baseAddress, buffer.count, off_t(files[index].offset))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            files[index].offset += count
            deliver(index, count)
        }
    }

    /// Delivers the lines that the first `count` bytes of `buffer`, read
    /// from file `index`, complete, and flushes them.
    private func deliver(_ index: Int, _ count: Int) {
        let path = files[index].path
        let deliver = sink.deliver
        LinePattern.withMatcher(pattern) { matcher in
            files[index].splitter.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), keeping: matcher) { line in
                deliver(path, LineSplitter.decode(line))
            }
        }
        sink.flush()
    }

    private func finishLine(_ index: Int) {
        let path = files[index].path
        let deliver = sink.deliver
        LinePattern.withMatcher(pattern) { matcher in
            files[index].splitter.finish { line in
                if matcher?.matches(line) ?? true { deliver(path, LineSplitter.decode(line)) }
            }
            sink.flush()
        }
    }
}
