import SystemPackage

/// Turns editors' save patterns into one `modified` of the real path.
///
/// When a reported file vanishes in a way an editor's save starts with
/// (renamed to an ignored backup name, or a watched single file deleted),
/// the event is held for `window` seconds. If the path appears again in
/// that time (created, moved onto, written), the pair becomes one
/// `modified`; otherwise the held event is released as it was.
///
///     vim:  foo→foo~ (held) · create foo · write foo   ⇒  modified foo, …
struct SaveCoalescer {
    private struct Held {
        var event: FileEvent
        var deadline: Double
    }

    let window: Double
    private var held: [FilePath: Held] = [:]

    init(window: Double = 1.0) {
        self.window = window
    }

    /// The earliest moment a held event must be released, if any.
    var nextDeadline: Double? { held.values.map(\.deadline).min() }

    var isEmpty: Bool { held.isEmpty }

    /// Holds `event` (a `movedFrom` or `deleted`) for the window.
    mutating func hold(_ event: FileEvent, now: Double) -> [FileEvent] {
        let previous = held.updateValue(Held(event: event, deadline: now + window), forKey: event.path)
        return previous.map { [$0.event] } ?? []
    }

    /// What to deliver for `event`: itself, or one `modified` when it
    /// re-creates a held path.
    mutating func pass(_ event: FileEvent) -> [FileEvent] {
        // Nothing held is the common case: skip hashing the path.
        guard !held.isEmpty, let previous = held.removeValue(forKey: event.path) else { return [event] }
        switch event.kind {
        case .created, .movedTo, .modified:
            return [FileEvent(path: event.path, kind: .modified, isDirectory: event.isDirectory)]
        case .closedWrite:
            return [FileEvent(path: event.path, kind: .modified, isDirectory: event.isDirectory), event]
        default:
            return [previous.event, event]
        }
    }

    /// Releases the held events whose window has closed (all with `now: .infinity`).
    mutating func expire(now: Double) -> [FileEvent] {
        let due = held.values.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
        for item in due { held[item.event.path] = nil }
        return due.map(\.event)
    }
}
