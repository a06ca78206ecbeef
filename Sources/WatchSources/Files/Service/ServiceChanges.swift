import Glibc
import SystemPackage

/// Turns what a service's subscription says of each file (it exists or
/// not, it is new since the last result, it is a directory) into what a
/// look found, for the same save rule a local watch has
/// (`SaveCoalescer`, `Origin.look`): a new file is held for its window
/// from when it was first heard of, and is never a change if it goes
/// again meanwhile (a save through `NAME.tmp.123` renamed over the real
/// file reaches the subscriber as a `modified` of the real file only).
/// What only the results tell is decided here: which names existed, so
/// that a new file under one replaced it. Pure: time is passed in, and
/// whether a held file is still there is asked of the caller.
struct ServiceChanges {
    /// One file of a subscription's result, by absolute path.
    struct File: Equatable {
        var path: FilePath
        var exists: Bool
        var isNew: Bool
        var isDirectory: Bool
        /// Its size in bytes, when the result gives it: a file found
        /// changed and empty may be a rewrite in place caught between its
        /// truncation and its write (`Origin.lookEmptied`).
        var size: Int64? = nil
    }

    /// The save rule, fed what each result says.
    private var rule: SaveCoalescer
    /// The files known to exist, by directory (hashes of their names: 8
    /// bytes each). A new file under one of these names replaced it (a
    /// rename onto it, a save through a temporary name) and is a
    /// modification, at once; and when the watch moves here, a directory
    /// missing one of them lost it meanwhile (`vanished`).
    private var known: [FilePath: Set<Int>] = [:]

    /// `window`: how long a new file is held (the save rule's fresh window).
    init(window: Double = SaveCoalescer().freshWindow) {
        rule = SaveCoalescer(freshWindow: window)
    }

    /// When the last new file held now is due (monotonic), if any
    /// (`NewFileHolds`: a batch waits for it).
    var newFilesDue: Double? { rule.newFilesDue }

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

    /// The earliest moment something held is due, if any.
    var nextDeadline: Double? { rule.nextDeadline }

    /// What a result's `files`, heard at `now`, give at once.
    ///
    /// A new file under a name that existed (another inode: a rename onto
    /// it), or in a directory where, in the same result, a new or held
    /// file vanished (the end of a save through a temporary name) is
    /// `modified` at once, as a local watch reports the rename onto it;
    /// any other new file is held.
    mutating func take(_ files: [File], now: Double) -> [FileEvent] {
        var savedInto = Set<FilePath>()
        for file in files where !file.exists && !file.isDirectory && (file.isNew || rule.holdsNew(file.path)) {
            savedInto.insert(file.path.removingLastComponent())
        }
        var events: [FileEvent] = []
        for file in files {
            guard let found = look(file, savedInto: savedInto) else { continue }
            events += rule.pass(found.event, now: now, origin: found.origin)
        }
        return events
    }

    /// What the result says of `file`, for the save rule; nil when nothing
    /// changed for a subscriber (a directory whose entries changed, a file
    /// made and gone again between two results).
    private mutating func look(_ file: File, savedInto: Set<FilePath>) -> (event: FileEvent, origin: SaveCoalescer.Origin)? {
        if file.isDirectory {
            // A directory that stays only had its entries change: they come on their own.
            if file.exists && file.isNew { return (FileEvent(path: file.path, kind: .created, isDirectory: true), .look) }
            if !file.exists && !file.isNew { return (FileEvent(path: file.path, kind: .deleted, isDirectory: true), .look) }
            return nil
        }
        let held = rule.holdsNew(file.path)
        let existed = note(file.path, exists: file.exists)
        switch (file.exists, file.isNew) {
        case (true, true) where !held && (existed || savedInto.contains(file.path.removingLastComponent())):
            return (FileEvent(path: file.path, kind: .modified), .replacement)
        case (true, true):
            return (FileEvent(path: file.path, kind: .created), .look)
        case (true, false):
            return (FileEvent(path: file.path, kind: .modified), file.size == 0 ? .lookEmptied : .look)
        case (false, _):
            // Made and gone again before anyone heard of it: nothing changed.
            guard held || !file.isNew || existed else { return nil }
            return (FileEvent(path: file.path, kind: .deleted), .look)
        }
    }

    /// What the save rule releases at `now`: `created` only for the held
    /// files `exists` says are still there.
    mutating func expire(now: Double, exists: (FilePath) -> Bool) -> [FileEvent] {
        rule.expire(now: now).filter { $0.kind != .created || $0.isDirectory || exists($0.path) }
    }

    /// Everything held, due now (the watch is ending or moving elsewhere).
    mutating func releaseAll(exists: (FilePath) -> Bool) -> [FileEvent] {
        expire(now: .infinity, exists: exists)
    }
}
