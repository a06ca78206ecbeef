import Signals
import Synchronization
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// One `Tail.follow` subscription: one thread that waits in `poll` for
/// the process's file reader to say that a name changed, and reads.
///
/// Each followed name is a client of the reader that every `FileWatcher`
/// watch of the process shares (`FileWatcher.followedFile`, `TailWatches`):
/// one inotify instance, and one watch per directory, however many logs
/// are tailed and trees watched. The reader's thread only marks the name
/// and wakes this one, which does the rest: read the open file to its
/// end, then see whether the name still points at it. The old file stays
/// open after a rename until a new file takes the name, so what the
/// writer adds to it meanwhile is read then. While the file or its
/// directory is missing, the reader waits for it (and says when it comes).
///
/// What each check and each stream's end mean (rotated, truncated,
/// deleted, appeared, finished) is the name's `TailMachine`'s to decide;
/// this class looks, reads and performs what it says.
///
/// A polled name (`WatchBackend`: on a network or FUSE mount, polling
/// asked for, or no inotify instance or watch left) has no watch: the
/// same check runs for it every poll interval. It is not a client of
/// `FileWatcher`'s poller: the poller's pass would stat the name only to
/// wake this thread, which must then look at it anyway (a stat, an fstat
/// and a read that finds nothing new cost what the poller's look costs),
/// so the name would be looked at twice and its lines come up to a hop
/// later; and a name missing at the start is waited for by the reader
/// with inotify watches on its ancestors, which see nothing that happens
/// on such a mount, where this check sees the name appear.
///
/// A name whose file is not a regular file (a FIFO, a pipe, a terminal) is
/// a stream: its descriptor joins the `poll` set, on any backend, and is
/// read with `read` when it is readable, one read per wake-up so that one
/// busy stream cannot starve the others. At its end (its last writer gone)
/// a named FIFO is opened again for the next writer; a pipe or a device
/// ends its name, and when every name has ended the subscription completes.
final class TailFollower: @unchecked Sendable {
    // Safety: `files` is touched by `init` on the subscribing thread, then
    // only by the follower thread (`pthread_create` orders the two).
    // `cancel()` touches only `cancelled` and `watches`, which is
    // Sendable. The descriptors close in `deinit`, after the thread has
    // let go.
    private let sink: TailSink
    let pattern: LinePattern?
    let backend: WatchBackend
    private let watches: TailWatches
    private let cancelled = Atomic<Bool>(false)
    var files: [FollowedFile]
    private var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: TailFollower.readSize, alignment: 16)

    static let readSize = 1 << 20

    /// Opens every file that exists (at its end for `.end`) and watches
    /// every name, so that nothing written after subscribing is missed.
    init(paths: [FilePath], start: Tail.Start, pattern: LinePattern?, backend: WatchBackend = .auto, sink: TailSink) throws(TailError) {
        self.sink = sink
        self.pattern = pattern
        self.backend = backend
        let current = FileSystem.currentDirectory()
        var followed: [FollowedFile] = []
        for path in paths { followed.append(try FollowedFile(path: path, currentDirectory: current)) }
        files = followed
        do {
            watches = try TailWatches()
        } catch {
            buffer.deallocate()
            throw TailError(path: paths.first ?? "", problem: Errno(rawValue: error.errno).description)
        }
        let mounts = backend == .auto ? MountTable.current() : nil
        for index in files.indices {
            let ancestor = FollowedFile.existingAncestor(of: files[index].directory)
            var info = stat()
            if ancestor.withPlatformString({ stat($0, &info) }) == 0, info.st_mode & S_IFMT != S_IFDIR {
                throw TailError(path: files[index].path, problem: "\(Quoted.path(ancestor)) is not a directory")
            }
            if case .poll = backend {
                startPolling(index, .requested)
            } else if let mount = mounts?.mount(of: ancestor), mount.needsPolling {
                startPolling(index, .fileSystem(mount.fsType))
            } else if let error = watches.watch(index, files[index].absolute) {
                try watchFailed(index, error)
            }
            try open(index, from: start)
            files[index].machine.subscribed(files[index].fd < 0 ? .nothing : .opened(files[index].isStream ? .stream : .file))
        }
        // What a recipe says it follows once it runs (`RecipeRunner`).
        for file in files { FileWatcher.announce(WatchNotice(path: file.absolute, kind: .following)) }
    }

    deinit {
        watches.cancel()
        for file in files where file.fd >= 0 { close(file.fd) }
        buffer.deallocate()
    }

    /// Stops watching name `index` (it is polled from now on).
    func unwatch(_ index: Int) {
        watches.unwatch(index)
    }

    /// Starts the follower thread. Returns false if no thread could be made.
    func start() -> Bool {
        DetachedThread.start { self.run() }
    }

    /// Stops following; the thread ends at its next wake-up.
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        watches.cancel()
        watches.wake.wake()
    }

    private var isCancelled: Bool {
        cancelled.load(ordering: .acquiring) || sink.isStopped()
    }

    // MARK: The follower thread

    private func run() {
        for index in files.indices { check(index) }
        for index in files.indices where files[index].fd < 0 { sink.notice(.waiting(path: files[index].path)) }
        var pollSet = [pollfd(fd: watches.wake.readEnd, events: Int16(POLLIN), revents: 0)]
        // After the wake pipe: one entry per open stream, made again every
        // turn (a stream's descriptor changes when it is reopened).
        let watched = pollSet.count
        var streams: [Int] = []
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
            // Streams first: what the reader reported below may replace
            // the descriptor polled here. POLLHUP and POLLERR read too (the end).
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
            if pollSet[0].revents != 0 {
                watches.wake.drain()
                guard checkReported() else { return }
            }
        }
    }

    /// Checks the names the reader said changed, and polls those whose
    /// watch failed under `.auto`. False when the follower must stop
    /// (failed, or cancelled).
    private func checkReported() -> Bool {
        let reports = watches.take()
        for (index, error) in reports.failed.sorted(by: { $0.key < $1.key }) {
            do {
                try watchFailed(index, error)
            } catch {
                sink.fail(error)
                return false
            }
            check(index)
        }
        for index in reports.changed.sorted() {
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

    /// What is under the name now; nil for another file under a name the
    /// reader said was gone and has not said is back (`TailWatches.isWatched`):
    /// it is looked at again when the reader says so, once its watch is in
    /// place, so that the file's deletion cannot go unseen.
    ///
    /// A descriptor's name (`-`, `/dev/fd/N`) names the open file for as
    /// long as it is open: once the process closes its own descriptor,
    /// the next `open` anywhere in the process may take the number, and
    /// the name would then lead to that file (another tail's log, say).
    private func lookUp(_ index: Int) -> TailMachine.Lookup? {
        if files[index].isInheritedDescriptor && files[index].fd >= 0 { return .openFile }
        var info = stat()
        guard files[index].absolute.withPlatformString({ stat($0, &info) }) == 0 else { return .missing }
        if files[index].isOpenFile(info) { return .openFile }
        return files[index].polled || watches.isWatched(index) ? .otherFile : nil
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
