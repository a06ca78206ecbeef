import Glibc

/// The reader thread's state and loop: the watch table shared by every
/// client (one inotify watch per directory however many clients want it),
/// translation of inotify records into `FileEvent`s, and the rescans after
/// new directories, overflows and reappearing roots.
final class ReaderLoop {
    private struct Watch {
        var wd: Int32
        var clients: Int
        /// The kernel removed it already (IN_IGNORED seen).
        var gone = false
    }

    private struct PendingMove {
        var path: String
        var isDirectory: Bool
        var cookie: UInt32
    }

    private enum WalkMode {
        case silent
        case reportAll
        case reportChangedSince(Double)
    }

    private let reader: InotifyReader
    private var descriptor: Int32? = nil
    private var clients: [WatchClient] = []
    private var table: [String: Watch] = [:]
    private var pendingMoves: [PendingMove] = []
    /// Paths a scan just reported; their own create events, read later, are duplicates.
    private var scanned: Set<String> = []
    /// When the kernel queue was last seen empty: an overflow lost only changes after it.
    private var lastIdle = FileSystem.now()
    private var startError: FileWatchError? = nil

    init(reader: InotifyReader) {
        self.reader = reader
    }

    func run() {
        startLibrary()
        var commandsPending = true
        while true {
            if commandsPending {
                for command in reader.takeCommands() { execute(command) }
            }
            if clients.isEmpty {
                InotifyLibrary.stop()
                table.removeAll()
                reader.publish(watchCount: 0)
                if reader.finishIfIdle() { return }
                startLibrary()
                commandsPending = true
                continue
            }
            reader.publish(watchCount: table.count)
            commandsPending = wait()
            drain()
            expireHeldEvents()
        }
    }

    private func startLibrary() {
        do {
            descriptor = try InotifyLibrary.start()
            startError = nil
        } catch {
            startError = error
        }
    }

    // MARK: Commands

    private func execute(_ command: InotifyReader.Command) {
        switch command {
        case .add(let client, let armed):
            arm(client)
            armed?.signal()
        case .remove(let id):
            // Read what is queued first: IN_IGNORED records say which watches
            // the kernel already dropped, so they are not removed twice.
            drain()
            if let client = clients.first(where: { $0.id == id }) { drop(client) }
        case .deafen(let root, let done):
            for client in clients where client.roots.first?.path == root {
                client.deafSince = FileSystem.now()
            }
            done.signal()
        case .overflow(let root, let done):
            drain()
            for client in clients where client.roots.first?.path == root {
                let since = client.deafSince ?? lastIdle
                client.deafSince = nil
                overflow(client, since: since)
            }
            done.signal()
        }
    }

    private func arm(_ client: WatchClient) {
        if let startError { return client.observer.sendError(startError) }
        clients.append(client)
        for index in client.roots.indices {
            let path = client.roots[index].path
            switch FileSystem.kind(path, follow: true) {
            case .missing:
                return fail(client, FileWatchError(.noSuchPath(path)))
            case .directory:
                break
            case .other:
                client.roots[index].isFile = true
            }
            do {
                _ = try armRoot(client, index, mode: .silent)
            } catch {
                return fail(client, error)
            }
        }
    }

    /// Watches root `index` of `client` (its tree, or a file's parent).
    private func armRoot(_ client: WatchClient, _ index: Int, mode: WalkMode) throws(FileWatchError) -> [FileEvent] {
        let root = client.roots[index]
        if root.isFile {
            try acquire(FileSystem.parent(root.path), for: client, isRoot: true)
            return []
        }
        return try walk(client, index, from: root.path, relative: "", mode: mode)
    }

    private func fail(_ client: WatchClient, _ error: FileWatchError) {
        drop(client)
        client.observer.sendError(error)
    }

    private func drop(_ client: WatchClient) {
        client.ended = true
        for path in client.watched.union(client.sentinels) { release(path, for: client, kernelDropped: false) }
        client.watched.removeAll()
        client.sentinels.removeAll()
        clients.removeAll { $0 === client }
    }

    // MARK: The watch table

    /// Makes `client` hold a watch on `directory`; false when the directory
    /// vanished first (a root's failure throws instead).
    @discardableResult
    private func acquire(_ directory: String, for client: WatchClient, isRoot: Bool = false, sentinel: Bool = false)
        throws(FileWatchError) -> Bool
    {
        if sentinel ? client.sentinels.contains(directory) : client.watched.contains(directory) { return true }
        if let budget = client.options.watchBudget, client.watched.count >= budget {
            throw FileWatchError(.watchLimit(path: directory, limit: budget))
        }
        if table[directory] == nil {
            switch InotifyLibrary.watch(directory, descriptor: descriptor) {
            case .watching(let wd):
                table[directory] = Watch(wd: wd, clients: 0)
            case .failed(let code) where code == ENOSPC:
                throw FileWatchError(.watchLimit(path: directory, limit: InotifyLibrary.maxUserWatches))
            case .failed(let code) where code == ENOENT && !isRoot:
                return false
            case .failed(let code):
                if isRoot { throw FileWatchError(.cannotWatch(path: directory, errno: code)) }
                return false
            }
        }
        table[directory]!.clients += 1
        if sentinel { client.sentinels.insert(directory) } else { client.watched.insert(directory) }
        return true
    }

    private func release(_ directory: String, for client: WatchClient, kernelDropped: Bool) {
        guard var watch = table[directory] else { return }
        watch.clients -= 1
        if watch.clients > 0 {
            table[directory] = watch
            return
        }
        table[directory] = nil
        if !kernelDropped, !watch.gone { InotifyLibrary.unwatch(watch.wd, descriptor: descriptor) }
    }

    /// Releases every directory at or below `path`, for every client.
    private func releaseTree(_ path: String, kernelDropped: Bool) {
        for client in clients where client.deafSince == nil {
            let below = client.watched.filter { FileSystem.relative($0, to: path) != nil }
            for directory in below {
                client.watched.remove(directory)
                release(directory, for: client, kernelDropped: kernelDropped)
            }
        }
    }

    /// Releases what `client` watches at or below `path`.
    private func releaseTree(_ path: String, for client: WatchClient, kernelDropped: Bool) {
        let below = client.watched.filter { FileSystem.relative($0, to: path) != nil }
        for directory in below {
            client.watched.remove(directory)
            release(directory, for: client, kernelDropped: kernelDropped)
        }
    }

    /// A directory moved from `old` to `new` inside the watched trees.
    private func renameTree(_ old: String, to new: String) {
        func moved(_ path: String) -> String? {
            FileSystem.relative(path, to: old).map { $0.isEmpty ? new : FileSystem.join(new, $0) }
        }
        var renamed: [(wd: Int32, path: String)] = []
        for (path, watch) in table {
            if let target = moved(path) {
                table[path] = nil
                table[target] = watch
                renamed.append((watch.wd, target))
            }
        }
        InotifyLibrary.rename(old, to: new, moved: renamed)
        for client in clients where client.deafSince == nil {
            for path in client.watched {
                if let target = moved(path) {
                    client.watched.remove(path)
                    client.watched.insert(target)
                }
            }
        }
    }

    // MARK: Scanning

    /// Watches `start` and every directory below it that `client` wants,
    /// reading ignore files on the way; returns the events `mode` asks for.
    private func walk(_ client: WatchClient, _ index: Int, from start: String, relative: String, mode: WalkMode)
        throws(FileWatchError) -> [FileEvent]
    {
        var events: [FileEvent] = []
        var stack = [(start, relative)]
        while let (directory, relativePath) = stack.popLast() {
            let isRoot = relativePath.isEmpty
            if case .reportChangedSince = mode, table[directory] == nil, !isRoot {
                events.append(FileEvent(path: directory, kind: .created, isDirectory: true))
            }
            try acquire(directory, for: client, isRoot: isRoot && directory == client.roots[index].path)
            guard let entries = FileSystem.entries(directory) else { continue }
            if client.roots[index].filter.useVCSIgnore, entries.contains(where: { PathFilter.isIgnoreFile($0.name) }) {
                client.roots[index].filter.loadIgnoreFiles(in: directory, relativePath: relativePath)
            }
            for entry in entries {
                let path = FileSystem.join(directory, entry.name)
                let childRelative = relativePath.isEmpty ? entry.name : relativePath + "/" + entry.name
                let filter = client.roots[index].filter
                if entry.isDirectory, filter.watchesDirectory(childRelative) {
                    stack.append((path, childRelative))
                }
                switch mode {
                case .silent:
                    break
                case .reportAll:
                    if filter.reports(childRelative, isDirectory: entry.isDirectory) {
                        events.append(FileEvent(path: path, kind: .created, isDirectory: entry.isDirectory))
                        scanned.insert(path)
                    }
                case .reportChangedSince(let since):
                    if !entry.isDirectory, filter.reports(childRelative, isDirectory: false),
                       let changed = FileSystem.changeTime(path), changed >= since {
                        events.append(FileEvent(path: path, kind: .modified))
                    }
                }
            }
        }
        return events
    }

    /// A directory appeared at `path` (created or moved in): watch and scan
    /// it for every client that wants it; the scan reports what it holds.
    private func directoryAppeared(_ path: String, kind: FileEvent.Kind, cookie: UInt32) {
        for client in clients where client.deafSince == nil {
            var events: [FileEvent] = []
            if client.reports(path, isDirectory: true) {
                events.append(FileEvent(path: path, kind: kind, isDirectory: true, cookie: cookie))
            }
            if client.wantsDirectory(path), let (index, relative) = client.locate(path) {
                do {
                    events += try walk(client, index, from: path, relative: relative, mode: .reportAll)
                } catch {
                    deliver(events, to: client)
                    fail(client, error)
                    continue
                }
            }
            deliver(events, to: client)
        }
    }

    // MARK: Reading

    /// Blocks until inotify has something, a command arrives (returns true)
    /// or a held event or the duplicate filter is due.
    private func wait() -> Bool {
        var timeout: Int32 = -1
        let deadlines = clients.compactMap(\.coalescer.nextDeadline)
        if let next = deadlines.min() {
            timeout = Int32(max(0, min(1000, (next - FileSystem.now()) * 1000 + 1)))
        }
        if !scanned.isEmpty { timeout = timeout < 0 ? 200 : min(timeout, 200) }
        if descriptor == nil { timeout = timeout < 0 ? 20 : min(timeout, 20) }
        var fds = [pollfd(fd: reader.wakeFD, events: Int16(POLLIN), revents: 0)]
        if let descriptor { fds.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)) }
        let ready = poll(&fds, nfds_t(fds.count), timeout)
        if ready == 0 { scanned.removeAll() }
        return ready < 0 || fds[0].revents != 0
    }

    private func drain() {
        while let record = InotifyLibrary.next() {
            handle(record)
        }
        for move in pendingMoves { movedOut(move) }
        pendingMoves.removeAll()
        lastIdle = FileSystem.now()
    }

    private func expireHeldEvents() {
        let now = FileSystem.now()
        for client in clients where client.coalescer.nextDeadline.map({ $0 <= now }) == true {
            let due = client.coalescer.expire(now: now)
            deliverChecked(due, to: client)
        }
    }

    // MARK: Translation

    private func handle(_ record: InotifyRecord) {
        if record.has(InotifyRecord.queueOverflow) {
            for client in clients { overflow(client, since: lastIdle) }
            return
        }
        if record.has(InotifyRecord.ignored) {
            // The kernel dropped this watch (its directory is gone): never remove it again.
            if let path = InotifyLibrary.path(of: record.wd), table[path]?.wd == record.wd { table[path]?.gone = true }
            return
        }
        guard let directory = InotifyLibrary.path(of: record.wd), table[directory] != nil else { return }
        if record.name.isEmpty {
            if record.has(InotifyRecord.deleteSelf | InotifyRecord.moveSelf | InotifyRecord.unmount) {
                directoryVanished(directory, moved: record.has(InotifyRecord.moveSelf))
            }
            return
        }
        let path = FileSystem.join(directory, record.name)
        let isDirectory = record.has(InotifyRecord.isDirectory)
        if PathFilter.isIgnoreFile(record.name) {
            for client in clients { client.reloadIgnoreFiles(in: directory) }
        }
        if record.has(InotifyRecord.create) {
            if scanned.remove(path) != nil { return }
            rootCandidateAppeared(path)
            if isDirectory {
                directoryAppeared(path, kind: .created, cookie: 0)
            } else {
                route(FileEvent(path: path, kind: .created))
            }
        } else if record.has(InotifyRecord.movedFrom) {
            scanned.remove(path)
            pendingMoves.append(PendingMove(path: path, isDirectory: isDirectory, cookie: record.cookie))
        } else if record.has(InotifyRecord.movedTo) {
            if let index = pendingMoves.firstIndex(where: { $0.cookie == record.cookie }) {
                let from = pendingMoves.remove(at: index)
                movedWithin(from, to: path)
            } else {
                if scanned.remove(path) != nil { return }
                rootCandidateAppeared(path)
                if isDirectory {
                    directoryAppeared(path, kind: .movedTo, cookie: record.cookie)
                } else {
                    route(FileEvent(path: path, kind: .movedTo, cookie: record.cookie))
                }
            }
        } else if record.has(InotifyRecord.delete) {
            scanned.remove(path)
            if isDirectory { releaseTree(path, kernelDropped: true) }
            route(FileEvent(path: path, kind: .deleted, isDirectory: isDirectory), fileRootMayVanish: true)
        } else if record.has(InotifyRecord.modify) {
            route(FileEvent(path: path, kind: .modified, isDirectory: isDirectory))
        } else if record.has(InotifyRecord.closeWrite) {
            route(FileEvent(path: path, kind: .closedWrite, isDirectory: isDirectory))
        } else if record.has(InotifyRecord.attrib) {
            route(FileEvent(path: path, kind: .attributes, isDirectory: isDirectory))
        }
    }

    /// Sends `event` to every client that reports its path. A watched single
    /// file that is deleted is held briefly: an editor may be re-creating it.
    private func route(_ event: FileEvent, fileRootMayVanish: Bool = false) {
        for client in clients where client.reports(event.path, isDirectory: event.isDirectory) {
            if fileRootMayVanish, let index = client.rootIndex(of: event.path), client.roots[index].isFile {
                deliverChecked(client.coalescer.hold(event, now: FileSystem.now()), to: client)
            } else {
                deliver([event], to: client)
            }
        }
    }

    /// A rename whose both halves were seen.
    private func movedWithin(_ from: PendingMove, to path: String) {
        let cookie = from.cookie
        let watchedBefore = clients.map { client in client.watched.contains(from.path) }
        if from.isDirectory { renameTree(from.path, to: path) }
        for (position, client) in clients.enumerated() where client.deafSince == nil {
            let fromReported = client.reports(from.path, isDirectory: from.isDirectory)
            let toReported = client.reports(path, isDirectory: from.isDirectory)
            let source = FileEvent(path: from.path, kind: .movedFrom, isDirectory: from.isDirectory, cookie: cookie)
            let target = FileEvent(path: path, kind: .movedTo, isDirectory: from.isDirectory, cookie: cookie)
            var events: [FileEvent] = []
            switch (fromReported, toReported) {
            case (true, true):
                events = [source, target]
            case (true, false):
                if from.isDirectory {
                    events = [source]
                } else {
                    // Renamed to a name nobody reports (a backup): an editor's save begins.
                    deliverChecked(client.coalescer.hold(source, now: FileSystem.now()), to: client)
                }
            case (false, true):
                // From a name nobody reports (an editor's temporary file): the real path changed.
                events = from.isDirectory ? [target] : [FileEvent(path: path, kind: .modified)]
            case (false, false):
                break
            }
            if from.isDirectory {
                let wants = client.wantsDirectory(path)
                if watchedBefore[position], !wants {
                    releaseTree(path, for: client, kernelDropped: false)
                } else if !watchedBefore[position], wants, let (index, relative) = client.locate(path) {
                    do {
                        events += try walk(client, index, from: path, relative: relative, mode: .reportAll)
                    } catch {
                        deliver(events, to: client)
                        fail(client, error)
                        continue
                    }
                }
            }
            deliverChecked(events, to: client)
        }
    }

    /// A `movedFrom` whose `movedTo` never came: it left the watched trees.
    private func movedOut(_ move: PendingMove) {
        if move.isDirectory { releaseTree(move.path, kernelDropped: false) }
        let event = FileEvent(path: move.path, kind: .movedFrom, isDirectory: move.isDirectory, cookie: move.cookie)
        route(event, fileRootMayVanish: true)
    }

    /// Delivers through the client's save coalescer.
    private func deliver(_ events: [FileEvent], to client: WatchClient) {
        var out: [FileEvent] = []
        for event in events { out += client.coalescer.pass(event) }
        deliverChecked(out, to: client)
    }

    /// Sends events, then acts on those that say a watched single file is gone.
    private func deliverChecked(_ events: [FileEvent], to client: WatchClient) {
        client.send(events)
        for event in events where event.kind == .deleted || event.kind == .movedFrom {
            if let index = client.rootIndex(of: event.path), client.roots[index].isFile {
                rootLost(client, index, announced: true)
            }
        }
    }

    // MARK: Roots

    /// A watched directory reported its own deletion or move.
    private func directoryVanished(_ directory: String, moved: Bool) {
        for client in clients {
            for index in client.roots.indices where !client.roots[index].waiting {
                let root = client.roots[index]
                let hit = root.isFile ? FileSystem.parent(root.path) == directory : root.path == directory
                if hit { rootLost(client, index, announced: false, kernelDropped: !moved) }
            }
            // A directory watched for a waiting root's return went too: look higher up.
            if client.sentinels.contains(directory), !client.ended {
                if !moved { table[directory]?.gone = true }
                armSentinels(client)
            }
        }
    }

    /// Root `index` of `client` is gone: report it, then end or wait.
    private func rootLost(_ client: WatchClient, _ index: Int, announced: Bool, kernelDropped: Bool = false) {
        guard !client.ended, !client.roots[index].waiting else { return }
        let root = client.roots[index]
        if !announced {
            client.send(client.coalescer.expire(now: .infinity))
            client.send([FileEvent(path: root.path, kind: .deleted, isDirectory: !root.isFile)])
        }
        let watchedRoot = root.isFile ? FileSystem.parent(root.path) : root.path
        if root.isFile {
            if FileSystem.kind(watchedRoot) == .directory, client.options.onRootDeleted == .waitForReappearance {
                client.roots[index].waiting = true
                do { try acquire(watchedRoot, for: client, sentinel: true) } catch { fail(client, error) }
                return
            }
        }
        releaseTree(watchedRoot, for: client, kernelDropped: kernelDropped)
        guard client.options.onRootDeleted == .waitForReappearance else {
            return fail(client, FileWatchError(.rootDeleted(root.path)))
        }
        client.roots[index].waiting = true
        armSentinels(client)
    }

    /// Watches the deepest existing ancestor of every waiting root of `client`.
    private func armSentinels(_ client: WatchClient) {
        for sentinel in client.sentinels { release(sentinel, for: client, kernelDropped: false) }
        client.sentinels.removeAll()
        var reappeared: [String] = []
        for root in client.roots where root.waiting {
            // Ancestors may be vanishing while we look (rm -rf in progress): climb until one holds.
            var ancestor = FileSystem.parent(root.path)
            while true {
                while FileSystem.kind(ancestor, follow: true) != .directory, ancestor != "/" {
                    ancestor = FileSystem.parent(ancestor)
                }
                do {
                    if try acquire(ancestor, for: client, sentinel: true) || ancestor == "/" { break }
                } catch {
                    return fail(client, error)
                }
                ancestor = FileSystem.parent(ancestor)
            }
            // It may have come back before the sentinel landed.
            if FileSystem.kind(root.path, follow: true) != .missing { reappeared.append(root.path) }
        }
        for path in reappeared { rootCandidateAppeared(path) }
    }

    /// Something appeared at `path`: a waiting root, or a directory on the way to one.
    private func rootCandidateAppeared(_ path: String) {
        for client in clients where !client.ended {
            for index in client.roots.indices where client.roots[index].waiting {
                let root = client.roots[index].path
                guard root == path || FileSystem.relative(root, to: path) != nil else { continue }
                switch FileSystem.kind(root, follow: true) {
                case .missing:
                    armSentinels(client)
                case let kind:
                    client.roots[index].waiting = false
                    armSentinels(client)
                    client.roots[index].isFile = kind == .other
                    do {
                        let found = try armRoot(client, index, mode: .reportAll)
                        client.send([FileEvent(path: root, kind: .created, isDirectory: kind == .directory)] + found)
                    } catch {
                        fail(client, error)
                    }
                }
            }
        }
    }

    // MARK: Overflow

    /// Events were lost: say so, re-walk the trees (watching what is new),
    /// forget directories that are gone, and report what changed since `since`.
    private func overflow(_ client: WatchClient, since: Double) {
        guard !client.ended else { return }
        client.send(client.coalescer.expire(now: .infinity))
        client.send([FileEvent(path: client.roots.first?.path ?? "/", kind: .overflow)])
        var events: [FileEvent] = []
        for directory in client.watched where FileSystem.kind(directory) != .directory {
            if client.reports(directory, isDirectory: true) {
                events.append(FileEvent(path: directory, kind: .deleted, isDirectory: true))
            }
            client.watched.remove(directory)
            release(directory, for: client, kernelDropped: true)
        }
        // Timestamps are coarse: look one second further back.
        let threshold = since - 1
        for index in client.roots.indices where !client.roots[index].waiting {
            let root = client.roots[index]
            if root.isFile {
                if let changed = FileSystem.changeTime(root.path), changed >= threshold {
                    events.append(FileEvent(path: root.path, kind: .modified))
                }
                continue
            }
            do {
                events += try walk(client, index, from: root.path, relative: "", mode: .reportChangedSince(threshold))
            } catch {
                client.send(events)
                return fail(client, error)
            }
        }
        client.send(events)
    }
}
