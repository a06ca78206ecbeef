import SystemPackage

/// Turns each save of a file, however an editor makes it, into one
/// delivery: what happened to the path arrives together, once the save is
/// complete. A value type with time passed in; the reader thread owns one
/// per subscription.
///
/// Per path it remembers one of four things:
/// - **vanished**: the path was renamed to a name nobody reports (a
///   backup) or, for a watched single file, deleted: the first step of
///   vim's and emacs' saves, and of JetBrains' safe write. That event is
///   held for `window`; if the path comes back meanwhile, the pair is one
///   `modified`, otherwise the held event is released as it was.
/// - **writing**: written (or created, or its attributes changed) and not
///   closed yet. Its events are held until its `closedWrite`, so that an
///   in-place save (open, truncate, write, fsync, close) arrives in one
///   piece. A writer that keeps the file open (a log) is not waited for
///   longer than `openWriteCap`: what it wrote by then is released.
/// - **flushed**: released at the cap while still open. Its `closedWrite`
///   with no write since ends that same save: it is delivered marked
///   `closesReportedWrite`, which `batched` leaves out (a writer stalled
///   between its last write and its close, an fsync under load, made two
///   runs of one save). A write after the release is a new change, held
///   as before. Remembered for `flushedMemory`.
/// - **saved**: just saved. An attribute change within `settle` is part of
///   the same save (vim sets the mode after writing, JetBrains copies the
///   old file's attributes) and is not reported again.
///
///     vim:      foo→foo~ · create foo · write · close · chmod  ⇒  modified, closedWrite
///     in place: truncate · write · close                      ⇒  modified, closedWrite
///     JetBrains: foo→foo___jb_old___ · foo___jb_tmp___→foo     ⇒  modified
struct SaveCoalescer {
    private enum Entry {
        case vanished(FileEvent, deadline: Double)
        case writing([FileEvent], deadline: Double)
        case saved(until: Double)
        case flushed(deadline: Double)

        var deadline: Double {
            switch self {
            case .vanished(_, let deadline), .writing(_, let deadline), .flushed(let deadline): return deadline
            case .saved(let until): return until
            }
        }

        /// Which of `timelines` holds its deadline: one per length of wait.
        var timeline: Int {
            switch self {
            case .vanished: return 0
            case .writing: return 1
            case .saved: return 2
            case .flushed: return 3
            }
        }
    }

    /// Deadlines in the order they were set. Each state waits one fixed
    /// length, so each timeline is in increasing order and what is due is
    /// at the front of one of them: no search over every path per read.
    /// An item whose path has moved on since is skipped when it comes up.
    private struct Timeline {
        private var items: [(deadline: Double, key: PathKey)] = []
        private var head = 0

        var first: Double? { head < items.count ? items[head].deadline : nil }

        mutating func append(_ deadline: Double, _ key: PathKey) { items.append((deadline, key)) }

        mutating func removeFirst() -> (deadline: Double, key: PathKey) {
            let item = items[head]
            head += 1
            if head == items.count {
                removeAll()
            } else if head >= 256, head * 2 >= items.count {
                items.removeFirst(head)
                head = 0
            }
            return item
        }

        mutating func removeAll() {
            items.removeAll(keepingCapacity: items.count <= 256)
            head = 0
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
    private var entries: [PathKey: Entry] = [:] {
        didSet { if entries.isEmpty { for index in timelines.indices { timelines[index].removeAll() } } }
    }
    private var timelines = [Timeline(), Timeline(), Timeline(), Timeline()]

    /// Whether anything is held at all; when not, every event passes as it comes.
    let holds: Bool

    init(window: Double = 1.0, openWriteCap: Double = 0.5, settle: Double = 0.1, flushedMemory: Double = 30, holds: Bool = true) {
        self.holds = holds
        self.window = window
        self.openWriteCap = openWriteCap
        self.settle = settle
        self.flushedMemory = flushedMemory
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
        let released: [FileEvent]
        switch entries[PathKey(event.path)] {
        case .vanished(let previous, _): released = [previous]
        case .writing(let events, _): released = events
        case .saved, .flushed, nil: released = []
        }
        schedule(PathKey(event.path), .vanished(event, deadline: now + window))
        return released
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
    }

    /// What to deliver now for `event`.
    mutating func pass(_ event: FileEvent, now: Double, origin: Origin = .kernel) -> [FileEvent] {
        guard holds else { return [event] }
        let path = event.path
        let key = PathKey(path)
        let modified = FileEvent(path: path, kind: .modified, isDirectory: event.isDirectory)
        let replaced = origin == .replacement
        if event.isDirectory && event.kind == .movedFrom {
            // What is held below it would come out later under a path that
            // is gone: it goes out first, in the order it happened.
            return releaseBelow(path) + release(path) + [event]
        }
        if event.isDirectory || event.kind == .overflow || origin == .scan { return release(path) + [event] }
        if origin == .complete {
            // Back as a link (an atomic save through link(2)): one change.
            if case .vanished = entries[key] { return pass(event, now: now, origin: .replacement) }
            return release(path) + [event]
        }
        switch (entries[key], event.kind) {
        case (.vanished, _) where replaced, (.vanished, .movedTo):
            schedule(key, .saved(until: now + settle))
            return [modified]
        case (.vanished, .created), (.vanished, .modified), (.vanished, .attributes):
            // Back, and being written: the path was modified.
            schedule(key, .writing([modified], deadline: now + openWriteCap))
            return []
        case (.vanished, .closedWrite):
            schedule(key, .saved(until: now + settle))
            return [modified, event]
        case (.vanished(let previous, _), _):
            entries[key] = nil
            return [previous, event]

        case (.writing(let events, _), _) where replaced:
            schedule(key, .saved(until: now + settle))
            return Self.adding(modified, to: events)
        case (.writing(let events, let deadline), .created), (.writing(let events, let deadline), .modified),
             (.writing(let events, let deadline), .attributes):
            entries[key] = .writing(Self.adding(event, to: events), deadline: deadline)
            return []
        case (.writing(let events, _), .closedWrite):
            schedule(key, .saved(until: now + settle))
            return events + [event]
        case (.writing(let events, _), _):
            entries[key] = nil
            return events + [event]

        case (.saved, .attributes):
            return []
        case (.saved, _):
            entries[key] = nil
            return pass(event, now: now, origin: origin)

        case (.flushed, .closedWrite):
            // Delivered (a script waits for the close of an upload), but
            // marked: it completes the change the cap released.
            schedule(key, .saved(until: now + settle))
            var close = event
            close.closesReportedWrite = true
            return [close]
        case (.flushed, _):
            entries[key] = nil
            return pass(event, now: now, origin: origin)

        case (nil, _) where replaced:
            schedule(key, .saved(until: now + settle))
            return [modified]
        case (nil, .created), (nil, .modified), (nil, .attributes):
            schedule(key, .writing([event], deadline: now + openWriteCap))
            return []
        case (nil, .closedWrite):
            schedule(key, .saved(until: now + settle))
            return [event]
        case (nil, _):
            return [event]
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
            switch entry {
            case .vanished(let event, _): released.append(event)
            case .writing(let events, _):
                released += events
                schedule(key, .flushed(deadline: deadline + flushedMemory))
            case .saved, .flushed: break
            }
        }
        return released
    }

    /// Everything held for `path`, released now (the path is gone, or a
    /// directory event makes its state moot).
    private mutating func release(_ path: FilePath) -> [FileEvent] {
        guard let entry = entries.removeValue(forKey: PathKey(path)) else { return [] }
        switch entry {
        case .vanished(let event, _): return [event]
        case .writing(let events, _): return events
        case .saved, .flushed: return []
        }
    }

    /// Everything held for paths below `directory`, earliest first.
    private mutating func releaseBelow(_ directory: FilePath) -> [FileEvent] {
        guard !entries.isEmpty else { return [] }
        let below = entries.filter { key, _ in key.path != directory && key.path.starts(with: directory) }
            .sorted { $0.value.deadline < $1.value.deadline }
        return below.flatMap { key, _ in release(key.path) }
    }

    /// Enters `entry` for `key`, its deadline on its timeline.
    private mutating func schedule(_ key: PathKey, _ entry: Entry) {
        entries[key] = entry
        timelines[entry.timeline].append(entry.deadline, key)
    }

    /// `events` with `event` added unless one of its kind is there already.
    private static func adding(_ event: FileEvent, to events: [FileEvent]) -> [FileEvent] {
        events.contains { $0.kind == event.kind } ? events : events + [event]
    }
}
