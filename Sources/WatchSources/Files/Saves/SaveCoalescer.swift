import SystemPackage

/// Turns each save of a file, however an editor or tool makes it, into one
/// delivery of the real path: what happened to the path arrives together,
/// once the save is complete. A value type with time passed in. It is the
/// one rule of a save for every backend: the inotify reader feeds it what
/// the kernel reports (one per subscription), a poll job what its passes
/// find, a served watch what the service's results say (`Origin.look`);
/// each backend keeps only what it alone sees (a pass, a result's names).
///
/// Per path it remembers one of these (and, a moment, that it was just
/// removed: made again, it is rewritten, not new):
/// - **vanished**: the path was renamed to a name nobody reports (a
///   backup) or, for a watched single file, deleted: the first step of
///   vim's and emacs' saves, and of JetBrains' safe write. That event is
///   held for `window`; if the path comes back meanwhile, the pair is one
///   `modified`, otherwise the held event is released as it was.
/// - **writing**: written (or created, or its attributes changed) and not
///   closed yet. Its events are held until its `closedWrite`, so that an
///   in-place save (open, truncate, write, fsync, close) arrives in one
///   piece. A writer that keeps the file open (a log) is not waited for
///   longer than `openWriteCap`: what it wrote by then is released. A
///   file it made is waited for as long as a vanished one (`window`): a
///   temporary file's fsync under load can take that long.
/// - **fresh**: created, complete, and not there before: held for
///   `freshWindow` more. A save through a temporary file (`NAME.tmp.123`,
///   `.NAME.swp~tmp`, `sedXXXXXX`, `NAME___jb_tmp___`, an atomic-write
///   library's, vim's `4913` probe, gofmt's backup) makes such a file and
///   renames it over the real one, or deletes it, right after: then it was
///   never a change, and its events go; renamed onto a reported name, that
///   name is `modified`. A file that stays is delivered when the window
///   ends.
/// - **flushed**: released at the cap while still open. Its `closedWrite`
///   with no write since ends that same save: it is delivered marked
///   `closesReportedWrite`, which `batched` leaves out (a writer stalled
///   between its last write and its close, an fsync under load, made two
///   runs of one save). A write after the release is a new change, held
///   as before. Remembered for `flushedMemory`.
/// - **saved**: just saved. An attribute change within `settle` is part of
///   the same save (vim sets the mode after writing, JetBrains copies the
///   old file's attributes) and is not reported again.
/// - **emptied**: found changed and empty by a look (a poll pass, a
///   service's result): a rewrite in place caught between its truncation
///   and its write. A later look that finds it written makes the two one
///   change; none within `freshWindow`, the emptying was the change.
///
///     vim:       foo→foo~ · create foo · write · close · chmod  ⇒  modified, closedWrite
///     in place:  truncate · write · close                      ⇒  modified, closedWrite
///     JetBrains: foo→foo___jb_old___ · foo___jb_tmp___→foo      ⇒  modified
///     atomic:    create foo.tmp.1 · write · close · foo.tmp.1→foo  ⇒  modified (of foo only)
struct SaveCoalescer {
    enum Entry {
        case vanished(FileEvent, deadline: Double)
        /// `fresh`: the path did not exist before this write began.
        case writing([FileEvent], deadline: Double, fresh: Bool)
        /// `cap`: when the file stops being new, however often it is
        /// written and closed again (a file kept being written is a change).
        case fresh([FileEvent], deadline: Double, cap: Double)
        case saved(until: Double)
        case flushed(deadline: Double)
        /// Deleted or moved away just now: made again, it is the same file
        /// rewritten (git's checkout, a script's), not a new one.
        case removed(until: Double)
        /// Found changed and empty by a look (`Origin.lookEmptied`): a
        /// rewrite in place caught between its truncation and its write. A
        /// write a later look finds completes it; none, it is released.
        case emptied([FileEvent], deadline: Double)

        var deadline: Double {
            switch self {
            case .vanished(_, let deadline), .writing(_, let deadline, _), .fresh(_, let deadline, _), .flushed(let deadline),
                 .emptied(_, let deadline):
                return deadline
            case .saved(let until), .removed(let until): return until
            }
        }

        /// Which of `timelines` holds its deadline: one per length of wait.
        var timeline: Int {
            switch self {
            case .vanished: return 0
            case .writing(_, _, let fresh): return fresh ? 5 : 1
            case .saved: return 2
            case .flushed: return 3
            case .fresh, .removed: return 4
            case .emptied: return 6
            }
        }

        /// What it holds back: events not delivered yet.
        var held: [FileEvent] {
            switch self {
            case .vanished(let event, _): return [event]
            case .writing(let events, _, _), .fresh(let events, _, _), .emptied(let events, _): return events
            case .saved, .flushed, .removed: return []
            }
        }

        /// A file made since the last delivery, never reported yet.
        var isNew: Bool {
            switch self {
            case .fresh: return true
            case .writing(_, _, let fresh): return fresh
            case .vanished, .saved, .flushed, .removed, .emptied: return false
            }
        }
    }

    /// How long a vanished path is waited for.
    let window: Double
    /// How long an unclosed write is held at most.
    let openWriteCap: Double
    /// How long after a save an attribute change still belongs to it.
    let settle: Double
    /// How long a write released at the cap waits for its close.
    let flushedMemory: Double
    /// How long a new file, complete, is held in case it goes again: a
    /// temporary file is renamed or deleted right after its close, while a
    /// file a script makes and deletes some time later was a change.
    let freshWindow: Double
    var entries: [PathKey: Entry] = [:] {
        didSet { if entries.isEmpty { for index in timelines.indices { timelines[index].removeAll() } } }
    }
    private var timelines = [SaveTimeline](repeating: SaveTimeline(), count: 7)

    /// Whether anything is held at all; when not, every event passes as it comes.
    let holds: Bool

    init(window: Double = 1.0, openWriteCap: Double = 0.5, settle: Double = 0.1, flushedMemory: Double = 30,
         freshWindow: Double = 0.2, holds: Bool = true) {
        self.holds = holds
        self.window = window
        self.openWriteCap = openWriteCap
        self.settle = settle
        self.flushedMemory = flushedMemory
        self.freshWindow = freshWindow
    }

    /// The earliest moment something held must be released (or forgotten), if any.
    /// (It may be early, for a path that has moved on since: `expire` then
    /// releases nothing.)
    var nextDeadline: Double? { entries.isEmpty ? nil : timelines.compactMap(\.first).min() }

    /// Whether nothing is held or remembered.
    var isEmpty: Bool { entries.isEmpty }

    /// A save may be starting: `event` (a `movedFrom` to an unreported
    /// name, or a watched single file's `deleted`) is held for `window`.
    mutating func hold(_ event: FileEvent, now: Double) -> [FileEvent] {
        guard holds else { return [event] }
        let key = PathKey(event.path)
        if entries[key]?.isNew == true {
            // Made and gone again before anyone heard of it: nothing changed.
            entries[key] = nil
            return []
        }
        let released = entries[key]?.held ?? []
        schedule(key, .vanished(event, deadline: now + window))
        return released
    }

    /// A file renamed within the watched trees, from `source` to `target`
    /// (each nil when the subscriber does not report that name). From a
    /// new file held `fresh` (a temporary file renamed over the real one):
    /// that file's events go, and the target is `modified`. From a name
    /// nobody reports: the target is `modified`, new contents arrived
    /// whole. To a name nobody reports: a save may be starting (`hold`).
    mutating func renamed(from source: FileEvent?, to target: FileEvent?, now: Double) -> [FileEvent] {
        if let source, entries[PathKey(source.path)]?.isNew == true {
            entries[PathKey(source.path)] = nil
            guard let target else { return [] }
            return pass(FileEvent(path: target.path, kind: .modified), now: now, origin: .replacement)
        }
        switch (source, target) {
        case (nil, nil): return []
        case (let source?, nil): return hold(source, now: now)
        case (nil, let target?): return pass(FileEvent(path: target.path, kind: .modified), now: now, origin: .replacement)
        case (let source?, let target?): return pass(source, now: now) + pass(target, now: now)
        }
    }

    /// Where an event passed to `pass` comes from.
    enum Origin {
        /// Read from the kernel as it happened.
        case kernel
        /// The path was just replaced whole by a rename from a name nobody
        /// reports (a temporary file): a complete write, as `modified`.
        case replacement
        /// Found by scanning a directory that appeared: there already,
        /// nothing to wait for.
        case scan
        /// Made whole at once: a symbolic link, a FIFO, a socket, a device
        /// node, or one more link to an existing file. No write follows, so
        /// its `created` is not held for one.
        case complete
        /// Found by a look at the tree (a poll pass, a service's result),
        /// not read from the kernel as it happened: complete as of that
        /// look, and no close will follow. A new file may still be a
        /// temporary one: it is held `fresh` (`looked`).
        case look
        /// A look found the file changed and empty (`Entry.emptied`).
        case lookEmptied
    }

    /// What to deliver now for `event`.
    mutating func pass(_ event: FileEvent, now: Double, origin: Origin = .kernel) -> [FileEvent] {
        guard holds else { return [event] }
        let path = event.path
        let key = PathKey(path)
        if event.isDirectory && event.kind == .movedFrom {
            // What is held below it would come out later under a path that
            // is gone: it goes out first, in the order it happened.
            return releaseBelow(path) + release(path) + [event]
        }
        if origin == .scan, !event.isDirectory, event.kind == .created, case .vanished = entries[key] {
            // Back whole where a save began (vim's backup rename, then the new file, seen by two polls).
            return pass(event, now: now, origin: .replacement)
        }
        if event.isDirectory || event.kind == .overflow || origin == .scan { return release(path) + [event] }
        if origin == .look || origin == .lookEmptied { return looked(event, key, now, emptied: origin == .lookEmptied) }
        if origin == .complete {
            switch entries[key] {
            case .vanished:
                // Back as a link (an atomic save through link(2)): one change.
                return pass(event, now: now, origin: .replacement)
            case nil where event.kind == .created:
                // A link made under a new name may be renamed over the real one next.
                schedule(key, .fresh([event], deadline: now + freshWindow, cap: now + window))
                return []
            default:
                return release(path) + [event]
            }
        }
        let replaced = origin == .replacement
        switch entries[key] {
        case .vanished(let previous, _):
            return afterVanishing(previous, event, key, now, replaced: replaced)
        case .writing(let events, let deadline, let fresh):
            return whileWriting(events, deadline, fresh: fresh, event, key, now, replaced: replaced)
        case .fresh(let events, _, let cap):
            return whileFresh(events, cap, event, key, now, replaced: replaced)
        case .removed:
            entries[key] = nil
            guard event.kind == .created else { return pass(event, now: now, origin: origin) }
            // Made again where a file just went: rewritten, not new.
            schedule(key, .writing([event], deadline: now + openWriteCap, fresh: false))
            return []
        case .emptied:
            return release(path) + pass(event, now: now, origin: origin)
        case .saved:
            if event.kind == .attributes { return [] }
            entries[key] = nil
            return pass(event, now: now, origin: origin)
        case .flushed:
            return afterFlush(event, key, now, origin: origin)
        case nil:
            return unheld(event, key, now, replaced: replaced)
        }
    }

    /// Releases what is due at `now`: held events whose time is up,
    /// earliest deadline first (everything with `now: .infinity`).
    mutating func expire(now: Double) -> [FileEvent] {
        var released: [FileEvent] = []
        while let (index, deadline) = timelines.indices.compactMap({ index in timelines[index].first.map { (index, $0) } })
            .min(by: { $0.1 < $1.1 }), deadline <= now {
            let key = timelines[index].removeFirst().key
            guard let entry = entries[key], entry.deadline == deadline, entry.timeline == index else { continue }
            entries[key] = nil
            released += entry.held
            // A write released while still open: its close will complete it.
            if case .writing = entry { schedule(key, .flushed(deadline: deadline + flushedMemory)) }
        }
        return released
    }

    /// Every new file held in case it goes again, released now, in the
    /// order it was made: what a repository operation wrote before it
    /// ended is no temporary file, and arrives before its end does.
    mutating func releaseNew() -> [FileEvent] {
        let new = entries.filter { if case .fresh = $0.value { return true } else { return false } }
            .sorted { $0.value.deadline < $1.value.deadline }
        return new.flatMap { key, _ in release(key.path) }
    }

    /// Everything held for `path`, released now (the path is gone, or a
    /// directory event makes its state moot).
    mutating func release(_ path: FilePath) -> [FileEvent] {
        entries.removeValue(forKey: PathKey(path))?.held ?? []
    }

    /// Everything held for paths below `directory`, earliest first.
    mutating func releaseBelow(_ directory: FilePath) -> [FileEvent] {
        guard !entries.isEmpty else { return [] }
        let below = entries.filter { key, _ in key.path != directory && key.path.starts(with: directory) }
            .sorted { $0.value.deadline < $1.value.deadline }
        return below.flatMap { key, _ in release(key.path) }
    }

    /// Enters `entry` for `key`, its deadline on its timeline.
    mutating func schedule(_ key: PathKey, _ entry: Entry) {
        entries[key] = entry
        timelines[entry.timeline].append(entry.deadline, key)
    }

    /// `events` with `event` added unless one of its kind is there already.
    static func adding(_ event: FileEvent, to events: [FileEvent]) -> [FileEvent] {
        events.contains { $0.kind == event.kind } ? events : events + [event]
    }
}
