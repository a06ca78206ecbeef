import SystemPackage

/// What a look at the tree says of a path (`Origin.look`): a poll pass
/// or a service's result sees each file as it is at that moment, never
/// its open or close. The same states decide as for the kernel's events.
extension SaveCoalescer {
    /// `event`, found by a look, for a path in whatever state it is.
    /// `emptied`: found changed and empty (`Origin.lookEmptied`).
    mutating func looked(_ event: FileEvent, _ key: PathKey, _ now: Double, emptied: Bool) -> [FileEvent] {
        switch (entries[key], event.kind) {
        case (.vanished, .created), (.vanished, .modified):
            // Back whole where a save began (vim's backup rename, then the new file).
            return pass(FileEvent(path: event.path, kind: .modified), now: now, origin: .replacement)
        case (.fresh, .created), (.fresh, .modified), (.fresh, .attributes):
            // Made anew, or written again, while held: still part of its making.
            return []
        case (.fresh, .deleted), (.fresh, .movedFrom):
            // Gone before anyone heard of it (a temporary file): nothing changed.
            entries[key] = nil
            return []
        case (.emptied(let events, _), .modified):
            // Written since a look found it emptied: the two are one save.
            schedule(key, .saved(until: now + settle))
            return events
        case (.saved, .attributes):
            // The mode set after the save (vim's), seen by a later look.
            return []
        case (nil, .created):
            schedule(key, .fresh([event], deadline: now + freshWindow, cap: now + window))
            return []
        case (_, .modified) where emptied:
            let released = release(event.path)
            schedule(key, .emptied([event], deadline: now + freshWindow))
            return released
        default:
            return release(event.path) + [event]
        }
    }

    /// Whether `path` is a new file held in case it goes again.
    func holdsNew(_ path: FilePath) -> Bool {
        entries[PathKey(path)]?.isNew == true
    }

    /// Whether any new file is held in case it goes again.
    var holdsNewFiles: Bool { entries.values.contains(where: \.isNew) }
}

extension SaveCoalescer {
    /// One thing a look found, as the save rule takes it.
    enum Observation: Equatable {
        /// What happened to a path, and how it was seen.
        case event(FileEvent, Origin)
        /// A file renamed (`renamed(from:to:)`): each side nil when the
        /// subscriber does not report that name.
        case renamed(from: FileEvent?, to: FileEvent?)
    }

    /// What to deliver now for `observation`.
    mutating func observe(_ observation: Observation, now: Double) -> [FileEvent] {
        switch observation {
        case .event(let event, let origin): pass(event, now: now, origin: origin)
        case .renamed(let source, let target): renamed(from: source, to: target, now: now)
        }
    }
}
