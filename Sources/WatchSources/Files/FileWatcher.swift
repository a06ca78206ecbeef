import Dispatch
import Signals
import Synchronization
import SystemPackage

/// File-system changes as a signal, through inotify (and polling where inotify is blind).
///
///     FileWatcher.watch(["Sources"], options: .matching("**/*.swift"))
///         .subscribe(onNext: { print($0) })
public enum FileWatcher {
    /// The name of the thread that reads inotify for every watch of the
    /// process, as `top -H` and `/proc/PID/task/*/comm` show it.
    package static let readerThreadName = "rwatch-inotify"

    private struct Key: Hashable {
        var paths: [FilePath]
        var options: WatchOptions
    }

    private static let registry = Locked<[Key: Signal<[FileEvent]>]>([:])

    /// Hot, shared, recursive. Every subscriber to the same paths and
    /// options shares one subscription, and every watcher in the process one
    /// inotify watch per directory; the first subscription arms them
    /// (`subscribe` returns once they are in place), the last dispose
    /// removes them. A path may be a directory (watched recursively) or a
    /// single file (watched through its directory, so that replacing it
    /// atomically keeps the watch).
    ///
    /// Directories created or moved in later are watched and scanned, and
    /// what they already hold is reported as `created`. A kernel queue
    /// overflow gives an `overflow` event (path: the first root), then a
    /// rescan that watches new directories and reports files changed since
    /// the queue was last empty (`modified`), new directories (`created`) and
    /// vanished directories (`deleted`); files deleted during the overflow
    /// are not reported.
    ///
    /// An editor's save arrives in one piece, once it is complete: a file
    /// being written is reported when it is closed (`modified`, then
    /// `closedWrite`), or half a second after its first write if its
    /// writer keeps it open (a log; its `closedWrite` still comes at the
    /// close, marked `closesReportedWrite`); a save through a backup or a
    /// temporary name is a `modified` of the real path; an attribute change
    /// right after a save (vim's chmod) belongs to it.
    ///
    /// When a `rwatch serve` is running (its default socket, or
    /// `WATCHMAN_SOCK`), it watches recursive watches of directories for
    /// this process (`WatchOptions.usesService`): one set of inotify
    /// watches per root for every client, the same events here.
    ///
    /// Errors (missing path, watch limit, root deleted, bad glob) arrive as
    /// the signal's error, a `FileWatchError` whose `description` is one
    /// clear line. Events are delivered on the watcher's reader thread:
    /// hand slow work elsewhere (`observe(on:)`), or the kernel queue may
    /// overflow.
    ///
    /// The changes come from `SourceWorld.current.files`, read when the
    /// signal is built: the kernel's, unless a recipe's tests gave another.
    public static func watch(_ paths: [FilePath], options: WatchOptions = WatchOptions()) -> Signal<FileEvent> {
        flattened(SourceWorld.current.files.batches(paths, options: options))
            .described("FileWatcher.watch", [paths.parameterLabel] + options.parameterLabels)
    }

    /// Each event of each batch, one by one.
    static func flattened(_ batches: Signal<[FileEvent]>) -> Signal<FileEvent> {
        Signal { observer in
            batches.subscribe(
                onNext: { events in for event in events { observer.sendNext(event) } },
                onError: { observer.sendError($0) },
                onCompleted: { observer.sendCompleted() }
            )
        }
    }

    /// `watch(_:options:)` for paths given as text.
    public static func watch(_ paths: [String], options: WatchOptions = WatchOptions()) -> Signal<FileEvent> {
        watch(paths.map { FilePath($0) }, options: options)
    }

    /// The same changes as `watch(_:options:)`, in batches: each array
    /// holds what one change the kernel reported brought (an editor's
    /// save, released once complete, whole; a directory that appeared with
    /// what a scan found in it). Whatever acts on every value (a run per
    /// change with no debounce) acts once per save; events sent one by one
    /// could be split by a timer that fires between two of them.
    ///
    ///     FileWatcher.batches(["Sources"]).batched(.zero)   // one run per save
    public static func batches(_ paths: [FilePath], options: WatchOptions = WatchOptions()) -> Signal<[FileEvent]> {
        SourceWorld.current.files.batches(paths, options: options)
            .described("FileWatcher.batches", [paths.parameterLabel] + options.parameterLabels)
    }

    /// `batches(_:options:)` from the kernel (`SourceWorld.live`).
    static func liveBatches(_ paths: [FilePath], options: WatchOptions) -> Signal<[FileEvent]> {
        shared(paths, options)
    }

    /// A reader thread with an inotify instance of its own, for the
    /// watches made with it (`batches(_:options:reader:)`): `rwatch serve`
    /// gives one to each root, so that a storm in one root (its records
    /// still being read) never holds up a sync or a watch of another, as
    /// watchman's one instance per root. Its thread runs while a watch
    /// made with it does.
    package final class Reader: Sendable {
        let reader: InotifyReader

        /// `seams`: what a test bends in how this reader watches and reads.
        package init(seams: ReaderSeams? = nil) {
            reader = InotifyReader(dedicated: true, seams: seams)
        }

        /// `FileWatcher.flushReads(until:)` for this reader's watches; at
        /// once, on the caller's thread, when the reader has read and
        /// delivered everything and nothing is queued (`isCaughtUp`).
        /// The poller's deliveries to the same watches are not waited
        /// for then: a caller that needs them (a sync of a root with
        /// polled parts) waits for a cookie the poller must see.
        @discardableResult
        package func flushReads(until deadline: DispatchTime = .distantFuture) -> Bool {
            reader.isCaughtUp() || reader.barrier(until: deadline)
        }

        /// Whether everything the kernel queued for this reader's watches
        /// before the call is delivered already (`flushReads` would
        /// return at once): its thread waits in `poll` with all it read
        /// delivered, and nothing is queued.
        package func isCaughtUp() -> Bool {
            reader.isCaughtUp()
        }

        /// `isCaughtUp`, or true once it is within `bound`, spinning
        /// meanwhile (`InotifyReader.waitUntilCaughtUp`): for a thread
        /// that must not sleep, and would otherwise hand its work over.
        package func waitUntilCaughtUp(spinningAtMost bound: Duration) -> Bool {
            reader.waitUntilCaughtUp(spinningAtMost: bound)
        }

        /// Whether records wait in this reader's kernel queue now: more
        /// changes are coming at once. A hint, for work that may be left
        /// for later (`InotifyReader.hasQueued`).
        package func hasQueued() -> Bool {
            reader.hasQueued()
        }
    }

    /// `batches(_:options:)`, read by `reader` rather than by the
    /// process's reader, and never through a service. Not shared with
    /// other subscriptions to the same paths.
    package static func batches(_ paths: [FilePath], options: WatchOptions, reader: Reader) -> Signal<[FileEvent]> {
        source(paths.map(FileSystem.absolute), options, reader: reader.reader)
    }

    /// `batches(_:options:)` for paths given as text.
    public static func batches(_ paths: [String], options: WatchOptions = WatchOptions()) -> Signal<[FileEvent]> {
        batches(paths.map { FilePath($0) }, options: options)
    }

    /// `batches(_:options:)` on this process's watchers, not shared,
    /// telling `placed` where the watch is: once as it starts (before
    /// `subscribe` returns, before its first change), and again when it
    /// moves (a service that went away: `.local`, before the first change
    /// watched here). The fact goes down with the changes: watch mode
    /// settles git's operations itself only while its watch is local.
    package static func batches(_ paths: [FilePath], options: WatchOptions,
                                placed: @escaping @Sendable (WatchPlace) -> Void) -> Signal<[FileEvent]> {
        source(paths.map(FileSystem.absolute), options, placed: placed)
    }

    /// How many inotify watches this process has added so far (it only
    /// grows). Read before and after `subscribe`, the difference is how many
    /// directories that subscription armed; read meanwhile, from another
    /// thread, how far its walk has come (`rwatch`'s arming progress line).
    package static var watchesAdded: Int { InotifyInstance.added.load(ordering: .relaxed) }

    /// Returns once the reader thread has read, and delivered to every
    /// subscriber, each change the kernel queued before the call (a
    /// rename's first half included, resolved as a move out if its other
    /// half never comes). `rwatch serve` calls it after writing a sync
    /// cookie, so that nothing queued before the cookie is still unread.
    /// False if `deadline` came first (the reader is behind: a sync's
    /// `sync_timeout` is then an error, not a wait without end).
    @discardableResult
    package static func flushReads(until deadline: DispatchTime = .distantFuture) -> Bool {
        InotifyReader.shared.barrier(until: deadline)
    }

    /// The one shared subscription for `paths` and `options`: the events
    /// each kernel event brought, in order.
    private static func shared(_ paths: [FilePath], _ options: WatchOptions) -> Signal<[FileEvent]> {
        let key = Key(paths: paths.map(FileSystem.absolute), options: options)
        // Each subscriber must see what is there at its own start.
        if options.reportsExisting { return source(key.paths, options) }
        return registry.withLock { signals in
            if let signal = signals[key] { return signal }
            let signal = source(key.paths, options).share()
            signals[key] = signal
            return signal
        }
    }

    /// One registration with the reader per subscription.
    private static func source(_ paths: [FilePath], _ options: WatchOptions, reader given: InotifyReader? = nil,
                               placed: (@Sendable (WatchPlace) -> Void)? = nil) -> Signal<[FileEvent]> {
        Signal { observer in
            do {
                _ = try options.validated()
            } catch {
                observer.sendError(error)
                return ActionDisposable {}
            }
            guard !paths.isEmpty else {
                observer.sendError(FileWatchError(.noSuchPath("(no path given)")))
                return ActionDisposable {}
            }
            let sink = EventSink(observer: observer, kinds: options.kinds)
            if given == nil, ServiceWatch.canServe(paths, options),
               let served = ServiceWatch.start(paths, options: options, sink: sink, placed: placed ?? { _ in }) {
                return ActionDisposable {
                    sink.end()
                    served.end()
                }
            }
            placed?(.local)
            let reader = given ?? InotifyReader.shared
            let id = reader.makeID()
            reader.add(ReaderClient(id: id, paths: paths, options: options, sink: sink))
            return ActionDisposable {
                sink.end()
                reader.remove(id)
            }
        }
    }
}
