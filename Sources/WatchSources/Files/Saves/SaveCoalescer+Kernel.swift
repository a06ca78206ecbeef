import SystemPackage

/// What the kernel says of a path, by what `SaveCoalescer` holds for it.
extension SaveCoalescer {
    /// `event` for a path that vanished the way a save begins.
    mutating func afterVanishing(_ previous: FileEvent, _ event: FileEvent, _ key: PathKey, _ now: Double,
                                         replaced: Bool) -> [FileEvent] {
        let modified = FileEvent(path: event.path, kind: .modified)
        switch event.kind {
        case _ where replaced, .movedTo:
            schedule(key, .saved(until: now + settle))
            return [modified]
        case .created, .modified, .attributes:
            // Back, and being written: the path was modified.
            schedule(key, .writing([modified], deadline: now + openWriteCap, fresh: false))
            return []
        case .closedWrite:
            schedule(key, .saved(until: now + settle))
            return [modified, event]
        default:
            entries[key] = nil
            return [previous, event]
        }
    }

    /// `event` for a path being written (`fresh`: made by this write).
    mutating func whileWriting(_ events: [FileEvent], _ deadline: Double, fresh: Bool, _ event: FileEvent,
                                       _ key: PathKey, _ now: Double, replaced: Bool) -> [FileEvent] {
        switch event.kind {
        case _ where replaced:
            schedule(key, .saved(until: now + settle))
            return Self.adding(FileEvent(path: event.path, kind: .modified), to: events)
        case .created, .modified, .attributes:
            entries[key] = .writing(Self.adding(event, to: events), deadline: deadline, fresh: fresh)
            return []
        case .closedWrite where fresh:
            // Complete; a temporary file would be renamed away or deleted now.
            // (A new file's writing deadline is its cap.)
            schedule(key, .fresh(Self.adding(event, to: events), deadline: now + freshWindow, cap: deadline))
            return []
        case .closedWrite:
            schedule(key, .saved(until: now + settle))
            return events + [event]
        case .deleted where fresh, .movedFrom where fresh:
            entries[key] = nil
            return []
        default:
            entries[key] = nil
            return events + [event]
        }
    }

    /// `event` for a new file held complete, until `cap` at the latest.
    mutating func whileFresh(_ events: [FileEvent], _ cap: Double, _ event: FileEvent, _ key: PathKey, _ now: Double,
                                     replaced: Bool) -> [FileEvent] {
        switch event.kind {
        case _ where replaced:
            schedule(key, .saved(until: now + settle))
            return Self.adding(FileEvent(path: event.path, kind: .modified), to: events)
        case .created, .modified, .attributes:
            guard now < cap else {
                // Written and closed over and over since it appeared: no
                // temporary file, a change.
                entries[key] = nil
                return Self.adding(event, to: events)
            }
            // Written again: held until its close, as it still is new, but
            // not past its cap.
            schedule(key, .writing(Self.adding(event, to: events), deadline: cap, fresh: true))
            return []
        case .closedWrite:
            schedule(key, .fresh(Self.adding(event, to: events), deadline: now + freshWindow, cap: cap))
            return []
        case .deleted, .movedFrom:
            // Gone before anyone heard of it (a probe, a backup, a temporary file): nothing changed.
            entries[key] = nil
            return []
        default:
            entries[key] = nil
            return events + [event]
        }
    }

    /// `event` for a path nothing is held for.
    mutating func unheld(_ event: FileEvent, _ key: PathKey, _ now: Double, replaced: Bool) -> [FileEvent] {
        switch event.kind {
        case _ where replaced:
            schedule(key, .saved(until: now + settle))
            return [FileEvent(path: event.path, kind: .modified)]
        case .created:
            schedule(key, .writing([event], deadline: now + window, fresh: true))
            return []
        case .modified, .attributes:
            schedule(key, .writing([event], deadline: now + openWriteCap, fresh: false))
            return []
        case .closedWrite:
            schedule(key, .saved(until: now + settle))
            return [event]
        case .deleted, .movedFrom:
            schedule(key, .removed(until: now + freshWindow))
            return [event]
        default:
            return [event]
        }
    }

    /// `event` for a path whose write was released at the cap while open.
    mutating func afterFlush(_ event: FileEvent, _ key: PathKey, _ now: Double, origin: Origin) -> [FileEvent] {
        guard event.kind == .closedWrite else {
            entries[key] = nil
            return pass(event, now: now, origin: origin)
        }
        // Delivered (a script waits for the close of an upload), but
        // marked: it completes the change the cap released.
        schedule(key, .saved(until: now + settle))
        var close = event
        close.closesReportedWrite = true
        return [close]
    }
}
