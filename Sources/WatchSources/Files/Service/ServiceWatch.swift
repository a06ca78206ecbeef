internal import CGlibcShims
import Glibc
import Signals
import Synchronization
import SystemPackage
import WatchmanProtocol

/// One `FileWatcher` subscription served by a running `rwatch serve` (or
/// watchman): the service holds the inotify watches, shared with every
/// other client of the same root, and this process holds none. The
/// service's results go through rwatch's own rules (`ServiceFilter`) and
/// temporary-file rule (`ServiceChanges`) into the same `EventSink` a
/// local watch would feed, so what a subscriber sees does not depend on
/// which of the two reports it.
///
/// If the service goes away (stopped, killed, or it cut this client off),
/// the watch moves here: one warning, a local watch of the same paths, and
/// a look at what changed since the service last spoke (files changed
/// since then, not already reported), so nothing is lost in between.
final class ServiceWatch: Sendable {
    /// Where the watch is.
    private enum Place {
        case service
        /// The service stopped serving; a local watch is being armed.
        case moving
        /// Moved to a local watch: the reader's client id.
        case local(Int)
        case ended
    }

    private let paths: [FilePath]
    private let options: WatchOptions
    private let sink: EventSink
    private let connection: ServiceConnection
    private let place = Locked<Place>(.service)
    /// Told where the watch is, when it moves here (`WatchPlace`).
    private let placed: @Sendable (WatchPlace) -> Void
    /// Numbers the subscriptions of this process, so their names differ.
    private static let serial = Atomic<Int>(0)

    private init(paths: [FilePath], options: WatchOptions, sink: EventSink, connection: ServiceConnection,
                 placed: @escaping @Sendable (WatchPlace) -> Void) {
        self.paths = paths
        self.options = options
        self.sink = sink
        self.connection = connection
        self.placed = placed
    }

    /// Whether `options` and `paths` can be served: a recursive watch of
    /// directories, every kind of change held whole, the backend left to
    /// rwatch. Anything else is watched here, as before.
    static func canServe(_ paths: [FilePath], _ options: WatchOptions) -> Bool {
        guard options.usesService, options.backend == .auto, options.recursive, !options.reportsExisting,
              options.coalescesSaves, !paths.isEmpty else { return false }
        return paths.allSatisfy { FileSystem.kind($0, follow: true) == .directory }
    }

    /// Subscribes to the service for `paths`, returning once the service
    /// watches them and has seen everything before the call (a sync
    /// cookie); nil when no service answers or it will not watch one of
    /// them: the caller then watches locally. `placed` is told `.served`
    /// before the first result is read, and `.local` if the watch moves here.
    static func start(_ paths: [FilePath], options: WatchOptions, sink: EventSink,
                      placed: @escaping @Sendable (WatchPlace) -> Void) -> ServiceWatch? {
        let socket = ServiceLocation.socketForWatches()
        guard let connection = ServiceConnection.connect(to: socket) else { return nil }
        var served: [(path: FilePath, name: String, filter: ServiceFilter)] = []
        var existing: [[FilePath]] = []
        do {
            for path in paths {
                let name = "rwatch-\(getpid())-\(serial.add(1, ordering: .relaxed).newValue)"
                existing.append(try subscribe(connection, path: path, name: name, defersDuringVCS: options.defersDuringVCS))
                served.append((path, name, ServiceFilter(root: path, options: options)))
            }
        } catch {
            connection.close()
            let reason = switch error {
            case .refused(let text): "refused: \(text)"
            case .timedOut: "did not answer in time"
            case .closed, .malformed: "broke off"
            }
            WatchNotices.warnOnce(about: FilePath(socket.string + " (refused)"),
                                  "the service at \(Quoted.path(socket)) \(reason): watching with inotify instead")
            return nil
        }
        let watch = ServiceWatch(paths: paths, options: options, sink: sink, connection: connection, placed: placed)
        placed(.served)
        for path in paths {
            FileWatcher.announce(WatchNotice(path: path, kind: .service(socket: socket)))
        }
        let heard = Clocks.wall()
        let loop = ServiceLoop(served: served, heard: heard, existing: existing)
        // The listing was decoded in full, then kept as hashes: give its memory back.
        existing = []
        malloc_trim(0)
        let started = DetachedThread.start(name: "rwatch-service") { [watch] in
            var loop = loop
            watch.read(&loop)
        }
        if !started {
            // The caller watches here, and says so.
            connection.close()
            return nil
        }
        return watch
    }

    /// Asks the service to watch `path`, waits until it has seen what
    /// happened before, and subscribes to everything under `path` from
    /// then on. Returns the files there when it began (relative to `path`).
    /// A service that does not answer within seconds is not used; the
    /// first crawl of a large tree may take a minute.
    private static func subscribe(_ connection: ServiceConnection, path: FilePath, name: String,
                                  defersDuringVCS: Bool) throws(ServiceConnection.Failure) -> [FilePath] {
        let answers = ContinuousClock.now + .seconds(10)
        let watched = try connection.request(["watch-project", .bytes(path.bytes)], deadline: answers)
        guard let root = watched["watch"]?.stringBytes else { throw .malformed }
        let relative = watched["relative_path"]?.stringBytes
        let clock = try connection.request(["clock", .bytes(root), ["sync_timeout": 60_000]], deadline: .now + .seconds(65))
        let deadline = ContinuousClock.now + .seconds(30)
        guard let since = clock["clock"] else { throw .malformed }
        // The files there now: a new file under one of these names replaced it.
        var listing: WatchmanValue = ["fields": ["name"], "expression": ["not", ["type", "d"]]]
        if let relative, !relative.isEmpty { listing = listing.setting("relative_root", to: .bytes(relative)) }
        let existing = try connection.request(["query", .bytes(root), listing], deadline: deadline)
        var query: WatchmanValue = [
            "fields": ["name", "exists", "new", "type", "ctime_ns", "size"],
            "since": since,
            "defer_vcs": .bool(defersDuringVCS),
            "empty_on_fresh_instance": true,
        ]
        if let relative, !relative.isEmpty { query = query.setting("relative_root", to: .bytes(relative)) }
        _ = try connection.request(["subscribe", .bytes(root), .string(name), query], deadline: deadline)
        return (existing["files"]?.elements ?? []).compactMap { $0.stringBytes.map { FilePath(bytes: $0) } }
    }

    /// Stops the watch, wherever it is now.
    func end() {
        let was = place.withLock { place -> Place in
            defer { place = .ended }
            return place
        }
        switch was {
        case .service:
            connection.shutDown()
        case .local(let id): InotifyReader.shared.remove(id)
        case .moving, .ended: break
        }
    }

    /// The service thread: reads results until the watch ends or the service goes.
    private func read(_ loop: inout ServiceLoop) {
        while readOnce(&loop) {}
        connection.close()
        let moving = place.withLock { place -> Bool in
            guard case .service = place else { return false }
            place = .moving
            return true
        }
        if moving { moveHere(&loop) }
    }

    /// Handles the next result, or the moment a held file is due; false
    /// once the connection is over (the watch ended, or the service went
    /// or cut this client off).
    private func readOnce(_ loop: inout ServiceLoop) -> Bool {
        for value in connection.takePending() { handle(value, &loop) }
        let wait = loop.nextDeadline.map { max(0, $0 - Clocks.monotonic()) }
        let deadline = wait.map { ContinuousClock.now + .microseconds(Int64($0 * 1e6) + 1000) }
        let outcome = Result { () throws(ServiceConnection.Failure) in try connection.receive(deadline: deadline) }
        switch outcome {
        case .success(let value): handle(value, &loop)
        case .failure(.timedOut): break
        case .failure: return false
        }
        deliver(loop.expire(now: Clocks.monotonic()), loop)
        return !loop.cancelled
    }

    private func handle(_ value: WatchmanValue, _ loop: inout ServiceLoop) {
        deliver(loop.take(value, now: Clocks.monotonic(), wall: Clocks.wall()), loop)
    }

    /// Sends `events`, having said first which new files are held now: a
    /// batch that gets an edited file sees that a new one of the same save
    /// is held (`NewFileHolds`).
    private func deliver(_ events: [FileEvent], _ loop: ServiceLoop) {
        NewFileHolds.live.publish(loop.newFilesDue, for: sink)
        sink.send(events)
    }

    /// The service stopped serving: a root was deleted, or the service went
    /// away (then one warning). Delivers what was held, and watches here,
    /// reporting what changed since the service last spoke and where files
    /// it knew of are gone; a deleted root
    /// is reported, then waited for or the end of the watch, as
    /// `onRootDeleted` says.
    private func moveHere(_ loop: inout ServiceLoop) {
        sink.send(loop.releaseAll())
        let gone = paths.filter { FileSystem.kind($0, follow: true) == .missing }
        if gone.isEmpty {
            let shown = paths.map { Quoted.path($0) }.joined(separator: " ")
            WatchNotices.warnOnce(about: connection.socket,
                                  "the service at \(Quoted.path(connection.socket)) went away: watching \(shown) with inotify")
        } else {
            sink.send(gone.map { FileEvent(path: $0, kind: .deleted, isDirectory: true) })
            if options.onRootDeleted == .fail { return sink.fail(FileWatchError(.rootDeleted(gone[0]))) }
        }
        // Told before the first change watched here: whoever settles git's
        // operations for this watch does it again from now on.
        placed(.local)
        let reader = InotifyReader.shared
        let client = ReaderClient(id: reader.makeID(), paths: paths, options: options, sink: sink)
        client.changedSince = (loop.heard, loop.reported())
        client.waitsForMissingRoots = true
        reader.add(client)
        // What went while nobody watched: the reader's look covers what changed, not what is gone.
        sink.send(loop.vanished())
        let ended = place.withLock { place -> Bool in
            if case .ended = place { return true }
            place = .local(client.id)
            return false
        }
        if ended { reader.remove(client.id) }
    }
}
