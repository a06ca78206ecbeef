import Glibc
import SystemPackage

/// Turns what a service's subscription says of each file (it exists or
/// not, it is new since the last result, it is a directory) into the
/// events a local watch would have given, with the same rule for
/// temporary files: a new file is held for `window` from when it was
/// first heard of, and is never a change if it goes again meanwhile (a
/// save through `NAME.tmp.123` renamed over the real file reaches the
/// subscriber as a `modified` of the real file only). Pure: time is passed
/// in, and whether a held file is still there is asked of the caller.
struct ServiceChanges {
    /// One file of a subscription's result, by absolute path.
    struct File: Equatable {
        var path: FilePath
        var exists: Bool
        var isNew: Bool
        var isDirectory: Bool
    }

    /// How long a new file is held: the save coalescer's fresh window.
    let window: Double
    /// New files heard of and not announced yet, with when they were first heard of.
    private var held: [FilePath: Double] = [:]
    /// The files known to exist, by directory (hashes of their names: 8
    /// bytes each). A new file under one of these names replaced it (a
    /// rename onto it, a save through a temporary name) and is a
    /// modification, at once; and when the watch moves here, a directory
    /// missing one of them lost it meanwhile (`vanished`).
    private var known: [FilePath: Set<Int>] = [:]

    init(window: Double = SaveCoalescer().freshWindow) {
        self.window = window
    }

    /// When the last new file held now is due (monotonic), if any
    /// (`NewFileHolds`: a batch waits for it).
    var newFilesDue: Double? { held.values.max().map { $0 + window } }

    /// Notes that the file at `path` exists (what the service listed when
    /// the watch began).
    mutating func noteExisting(_ path: FilePath) {
        known[path.removingLastComponent(), default: []].insert(ServiceChanges.key(path.lastComponent))
    }

    /// Notes `path` as existing or not; whether it was known to exist.
    private mutating func note(_ path: FilePath, exists: Bool) -> Bool {
        let directory = path.removingLastComponent()
        let key = ServiceChanges.key(path.lastComponent)
        if exists { return !known[directory, default: []].insert(key).inserted }
        guard known[directory]?.remove(key) != nil else { return false }
        if known[directory]?.isEmpty == true { known[directory] = nil }
        return true
    }

    private static func key(_ name: FilePath.Component?) -> Int {
        var hasher = Hasher()
        if let name { name.withPlatformString { hasher.combine(bytes: UnsafeRawBufferPointer(start: $0, count: strlen($0))) } }
        return hasher.finalize()
    }

    /// Where files known to exist are gone, now that nobody reports their
    /// going (the service went away): `list` gives a directory's entries,
    /// nil when it is gone. A gone directory is `deleted` (the topmost
    /// only); one that lost a file is `modified`, as its name is no longer
    /// known (a hash is kept, not the name). Forgets what it reports.
    mutating func vanished(list: (FilePath) -> [FilePath.Component]?) -> [FileEvent] {
        var gone: [FilePath] = []
        var emptied: [FileEvent] = []
        for (directory, names) in known.sorted(by: { $0.key.bytes.lexicographicallyPrecedes($1.key.bytes) }) {
            guard let entries = list(directory) else {
                if !gone.contains(where: { directory.starts(with: $0) }) { gone.append(directory) }
                known[directory] = nil
                continue
            }
            let present = Set(entries.map { ServiceChanges.key($0) })
            let missing = names.subtracting(present)
            guard !missing.isEmpty else { continue }
            known[directory] = names.intersection(present)
            emptied.append(FileEvent(path: directory, kind: .modified, isDirectory: true))
        }
        return gone.map { FileEvent(path: $0, kind: .deleted, isDirectory: true) } + emptied
    }

    /// The earliest moment a held file is due, if any.
    var nextDeadline: Double? { held.values.min().map { $0 + window } }

    /// What a result's `files`, heard at `now`, give at once.
    ///
    /// A new file under a name that existed (another inode: a rename onto
    /// it), or in a directory where, in the same result, a new or held
    /// file vanished (the end of a save through a temporary name) is
    /// `modified` at once, as a local watch reports the rename onto it;
    /// any other new file is held.
    mutating func take(_ files: [File], now: Double) -> [FileEvent] {
        var savedInto = Set<FilePath>()
        for file in files where !file.exists && !file.isDirectory && (file.isNew || held[file.path] != nil) {
            savedInto.insert(file.path.removingLastComponent())
        }
        var events: [FileEvent] = []
        for file in files {
            if file.isDirectory {
                if file.exists && file.isNew {
                    events.append(FileEvent(path: file.path, kind: .created, isDirectory: true))
                } else if !file.exists && !file.isNew {
                    events.append(FileEvent(path: file.path, kind: .deleted, isDirectory: true))
                }
                // A directory that stays only had its entries change: they come on their own.
                continue
            }
            let existed = note(file.path, exists: file.exists)
            switch (file.exists, file.isNew) {
            case (true, true) where held[file.path] == nil && (existed || savedInto.contains(file.path.removingLastComponent())):
                events.append(FileEvent(path: file.path, kind: .modified))
            case (true, true):
                if held[file.path] == nil { held[file.path] = now }
            case (true, false):
                // Written again while held: still part of its making.
                if held[file.path] == nil { events.append(FileEvent(path: file.path, kind: .modified)) }
            case (false, _):
                // Made and gone again before anyone heard of it: nothing changed.
                if held.removeValue(forKey: file.path) == nil, !file.isNew || existed {
                    events.append(FileEvent(path: file.path, kind: .deleted))
                }
            }
        }
        return events
    }

    /// The held files due at `now`: `created` for those `exists` says are
    /// still there.
    mutating func expire(now: Double, exists: (FilePath) -> Bool) -> [FileEvent] {
        var events: [FileEvent] = []
        for (path, since) in held where since + window <= now {
            held[path] = nil
            if exists(path) { events.append(FileEvent(path: path, kind: .created)) }
        }
        return events.sorted { $0.path.bytes.lexicographicallyPrecedes($1.path.bytes) }
    }

    /// Every held file, due now (the watch is ending or moving elsewhere).
    mutating func releaseAll(exists: (FilePath) -> Bool) -> [FileEvent] {
        expire(now: .infinity, exists: exists)
    }
}
