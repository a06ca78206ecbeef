import SystemPackage

/// A burst of file events seen as one change: the changed paths, what
/// happened to each, and the deepest directory containing them all. Events
/// are coalesced as they are added, so a batch holds one entry per path and
/// kind however long the burst. A file created in the batch and gone again
/// by its end (deleted, or renamed away: a temporary file renamed over the
/// real one, a probe) is no changed path: it leaves the batch, and only
/// where it went (the real file) stays.
///
///     watcher.debounce(.milliseconds(50), maxWait: .seconds(1), scheduler: s, into: ChangeBatch()) {
///         $0.add($1)
///     }
public struct ChangeBatch: Sendable, Hashable {
    /// The events in arrival order, one per path and kind (repeats dropped).
    public var events: [FileEvent]
    /// The changed paths, each once, in first-seen order (overflow markers excluded).
    public var paths: [FilePath]
    /// What happened to each path.
    public var kinds: [FilePath: Set<FileEvent.Kind>]

    /// An empty batch, to add events to.
    public init() {
        events = []
        paths = []
        kinds = [:]
    }

    /// A batch of `events`.
    public init(_ events: [FileEvent]) {
        self.init()
        for event in events { add(event) }
    }

    /// The deepest directory that contains every path: a file counts by
    /// its directory, a directory by itself. Nil for an empty batch.
    public var commonRoot: FilePath? {
        var common: [FilePath.Component]? = nil
        // One pass over the events, not one per path: a checkout's batch holds thousands of each.
        let directories = Set(events.lazy.filter(\.isDirectory).map(\.path))
        for path in paths {
            let directory = directories.contains(path) ? path : path.removingLastComponent()
            let components = Array(directory.components)
            guard let current = common else {
                common = components
                continue
            }
            var shared = 0
            while shared < current.count, shared < components.count, current[shared] == components[shared] { shared += 1 }
            common = Array(current.prefix(shared))
        }
        return common.map { FilePath(root: "/", $0) }
    }

    /// What a path can have gone through when the batch saw it created:
    /// its first event was the creation (a path seen deleted or moved away
    /// before may have existed before the batch).
    private static let madeThenWritten: Set<FileEvent.Kind> = [.created, .modified, .closedWrite, .attributes]

    /// Takes `path` out of the batch.
    private mutating func forget(_ path: FilePath) {
        kinds[path] = nil
        paths.removeAll { $0 == path }
        events.removeAll { $0.path == path && $0.kind != .overflow }
    }

    /// This batch followed by `other`, coalesced the same way.
    public func merging(_ other: ChangeBatch) -> ChangeBatch {
        var merged = self
        for event in other.events { merged.add(event) }
        return merged
    }

    /// Adds `event`, unless the batch has its path and kind already (or,
    /// for an overflow marker, the same marker). A file's deletion or move
    /// away takes it out of the batch when the batch saw it created (and
    /// nothing but written since): it was not there before, nor after.
    public mutating func add(_ event: FileEvent) {
        if event.kind == .overflow {
            if !events.contains(event) { events.append(event) }
            return
        }
        if !event.isDirectory, event.kind == .deleted || event.kind == .movedFrom,
           let seen = kinds[event.path], seen.contains(.created), seen.isSubset(of: ChangeBatch.madeThenWritten) {
            forget(event.path)
            return
        }
        if kinds[event.path] == nil {
            paths.append(event.path)
            kinds[event.path] = []
        }
        if kinds[event.path]!.insert(event.kind).inserted { events.append(event) }
    }
}
