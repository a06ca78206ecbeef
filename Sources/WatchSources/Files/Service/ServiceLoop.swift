import Glibc
import SystemPackage
import WatchmanProtocol

/// What the service thread of a `ServiceWatch` keeps between results: the
/// served roots with their rules, the new files held, and what it heard
/// lately (for the move to a local watch). Decides; the thread reads.
struct ServiceLoop {
    private var served: [(path: FilePath, name: String, filter: ServiceFilter)]
    private var changes = ServiceChanges()
    /// When the service last spoke (wall clock seconds).
    private(set) var heard: Double
    /// The files heard of lately: their change time, and when they were heard of (monotonic).
    private var recent: [FilePath: (changed: Double, at: Double)] = [:]
    /// The service cut this client off (it read too slowly).
    private(set) var cancelled = false

    /// `existing`: the files under each served path when the watch began
    /// (relative to it); those rwatch's rules report are remembered.
    init(served: [(path: FilePath, name: String, filter: ServiceFilter)], heard: Double, existing: [[FilePath]] = []) {
        self.served = served
        self.heard = heard
        for (index, files) in existing.enumerated() where index < served.count {
            for relative in files where self.served[index].filter.reports(relative, isDirectory: false) {
                changes.noteExisting(served[index].path.pushing(relative))
            }
        }
    }

    /// The files remembered as existing that are gone now (`ServiceChanges.vanished`).
    mutating func vanished() -> [FileEvent] {
        changes.vanished { directory in
            guard let entries = FileSystem.entries(directory) else { return nil }
            return entries.map(\.name)
        }
    }

    /// The earliest moment a held file is due (monotonic), if any.
    var nextDeadline: Double? { changes.nextDeadline }

    /// When the last held new file is due (monotonic), if any.
    var newFilesDue: Double? { changes.newFilesDue }

    /// The events one PDU from the service gives at once.
    mutating func take(_ value: WatchmanValue, now: Double, wall: Double) -> [FileEvent] {
        guard let name = value["subscription"]?.text, let index = served.firstIndex(where: { $0.name == name }) else { return [] }
        if value["canceled"]?.boolean == true {
            cancelled = true
            return []
        }
        guard value["state-enter"] == nil, value["state-leave"] == nil else { return [] }
        heard = wall
        var events: [FileEvent] = []
        if value["is_fresh_instance"]?.boolean == true {
            // The service lost track (a recrawl): events may have been missed.
            events.append(FileEvent(path: served[index].path, kind: .overflow))
        }
        guard let files = value["files"]?.elements, !files.isEmpty else { return events }
        served[index].filter.lookAtFollowedFiles()
        var found: [ServiceChanges.File] = []
        found.reserveCapacity(files.count)
        for file in files {
            guard let bytes = file["name"]?.stringBytes ?? file.stringBytes, !bytes.isEmpty else { continue }
            let relative = FilePath(bytes: bytes)
            let isDirectory = file["type"]?.text == "d"
            guard served[index].filter.reports(relative, isDirectory: isDirectory) else { continue }
            let path = served[index].path.pushing(relative)
            if let nanoseconds = file["ctime_ns"]?.integer {
                recent[path] = (Double(nanoseconds / 1_000_000_000) + Double(nanoseconds % 1_000_000_000) / 1e9, now)
            }
            found.append(ServiceChanges.File(path: path, exists: file["exists"]?.boolean ?? true,
                                             isNew: file["new"]?.boolean ?? false, isDirectory: isDirectory,
                                             size: file["size"]?.integer))
        }
        return events + changes.take(found, now: now)
    }

    /// The held files due at `now` (monotonic) that are still there.
    mutating func expire(now: Double) -> [FileEvent] {
        recent = recent.filter { now - $0.value.at < 3 }
        guard let deadline = changes.nextDeadline, deadline <= now else { return [] }
        return changes.expire(now: now, exists: ServiceLoop.exists)
    }

    /// Every held file still there, now.
    mutating func releaseAll() -> [FileEvent] {
        changes.releaseAll(exists: ServiceLoop.exists)
    }

    /// The change time of each file heard of in the last seconds: a look
    /// at what changed since the service last spoke skips these.
    func reported() -> [FilePath: Double] {
        recent.mapValues(\.changed)
    }

    private static func exists(_ path: FilePath) -> Bool {
        FileSystem.kind(path) != .missing
    }
}
