import Synchronization
import SystemPackage

/// What one polling pass found appearing and vanishing, turned into events
/// at the pass's end, when both sides of a move are known: a file whose
/// inode reappears under another name is a move (`movedFrom` + `movedTo`,
/// one cookie), not a deletion and a creation.
///
/// A reused inode number is not a move: the file must also keep its size
/// and mtime (a rename changes neither; a new file that got a freed inode
/// number has its own mtime). A path whose file was replaced (an editor's
/// atomic save, `sed -i`) is `modified`.
struct PollChanges {
    struct Item {
        /// Absolute, as bytes.
        var path: [UInt8]
        var identity: PollTree.Identity
        var size: Int64
        var modified: Int64
        var isDirectory: Bool
        var reported: Bool
        /// The path still exists, holding another file (or vanished's
        /// counterpart in `appeared`).
        var replaced: Bool
        /// A new file found by listing its directory: announced a pass
        /// late (`settle(held:)`), in case it is a temporary file.
        var holdable = false
    }

    /// What a pass hands out, once new files held back are accounted for.
    struct Outcome {
        var events: [FileEvent]
        /// Files the pass before held back that are still there: to be
        /// announced as `created` now (first), if they still exist.
        var released: [[UInt8]]
        /// New files this pass holds back in turn.
        var held: Set<[UInt8]>
    }

    /// A directory that moved within the polled tree (found during the scan).
    struct DirectoryMove {
        var from: [UInt8]
        var to: [UInt8]
        var fromReported: Bool
        var toReported: Bool
    }

    var appeared: [Item] = []
    var vanished: [Item] = []
    var directoryMoves: [DirectoryMove] = []
    /// Events decided during the scan, handed out first: what vanished
    /// directories held (children first), a single file's changes.
    var direct: [FileEvent] = []
    /// Reported files renamed to an ignored name (an editor's backup): held
    /// briefly by the subscriber's save coalescer, as with inotify, so that
    /// the file written under the real name next makes one `modified`.
    var renamedAway: [FileEvent] = []

    var isEmpty: Bool { appeared.isEmpty && vanished.isEmpty && directoryMoves.isEmpty && direct.isEmpty && renamedAway.isEmpty }

    /// The events, in the order: direct, moves, creations and
    /// replacements (parents before what they hold).
    func events() -> [FileEvent] { settle(held: []).events }

    /// The events, with new files held back a pass: `held` are the new
    /// files (absolute paths) the pass before found and did not announce.
    /// One that vanished since is no change at all; one renamed since is a
    /// change of its new name only (`modified` when that replaced a file:
    /// a temporary file renamed over the real one); any other is
    /// `released`. New files of this pass are held in their turn. So a
    /// save through a temporary file seen by two passes is one change of
    /// the real file, as when one pass sees it all.
    func settle(held: Set<[UInt8]>) -> Outcome {
        if appeared.isEmpty && vanished.isEmpty && directoryMoves.isEmpty && held.isEmpty { return Outcome(events: direct, released: [], held: []) }
        let (partner, taken) = partners()
        var consumed = Set<[UInt8]>()
        var events = changeEvents(taken: taken, held: held, consumed: &consumed)
        var next = Set<[UInt8]>()
        events += appearances(partner: partner, held: held, consumed: &consumed, next: &next)
        let released = held.subtracting(consumed).sorted { $0.lexicographicallyPrecedes($1) }
        return Outcome(events: events, released: released, held: next)
    }

    /// Deletions, the direct events and the directory moves; what they say
    /// of a held path is dropped (it was never announced).
    private func changeEvents(taken: [Bool], held: Set<[UInt8]>, consumed: inout Set<[UInt8]>) -> [FileEvent] {
        var events: [FileEvent] = []
        for (index, item) in vanished.enumerated() where !taken[index] && item.reported {
            if item.replaced && !item.isDirectory { continue }
            if held.contains(item.path) {
                consumed.insert(item.path)
                continue
            }
            events.append(PollChanges.event(item.path, .deleted, isDirectory: item.isDirectory))
        }
        for event in direct {
            if event.kind == .deleted, !held.isEmpty, held.contains(event.path.bytes) {
                consumed.insert(event.path.bytes)
                continue
            }
            events.append(event)
        }
        for move in directoryMoves {
            let cookie = PollChanges.nextCookie()
            if move.fromReported { events.append(PollChanges.event(move.from, .movedFrom, isDirectory: true, cookie: cookie)) }
            if move.toReported { events.append(PollChanges.event(move.to, .movedTo, isDirectory: true, cookie: cookie)) }
        }
        return events
    }

    /// Moves of files, creations and replacements.
    private func appearances(partner: [Int?], held: Set<[UInt8]>, consumed: inout Set<[UInt8]>,
                             next: inout Set<[UInt8]>) -> [FileEvent] {
        var events: [FileEvent] = []
        for (index, item) in appeared.enumerated() {
            if let match = partner[index] {
                let from = vanished[match]
                if held.contains(from.path) {
                    // A new file renamed before it was announced: only its new name changed.
                    consumed.insert(from.path)
                    if item.reported { events.append(PollChanges.event(item.path, item.replaced ? .modified : .created)) }
                    continue
                }
                let cookie = PollChanges.nextCookie()
                if from.reported { events.append(PollChanges.event(from.path, .movedFrom, cookie: cookie)) }
                if item.reported { events.append(PollChanges.event(item.path, .movedTo, cookie: cookie)) }
            } else if item.reported {
                if item.holdable && !item.replaced && !item.isDirectory {
                    next.insert(item.path)
                    continue
                }
                let kind: FileEvent.Kind = item.replaced && !item.isDirectory ? .modified : .created
                events.append(PollChanges.event(item.path, kind, isDirectory: item.isDirectory))
            }
        }
        return events
    }

    /// Which vanished file each appeared one is (a move), and which
    /// vanished files were so taken.
    private func partners() -> (partner: [Int?], taken: [Bool]) {
        var byIdentity: [PollTree.Identity: Int] = [:]
        for (index, item) in vanished.enumerated() where !item.isDirectory && byIdentity[item.identity] == nil {
            byIdentity[item.identity] = index
        }
        var taken = [Bool](repeating: false, count: vanished.count)
        var partner = [Int?](repeating: nil, count: appeared.count)
        for (index, item) in appeared.enumerated() where !item.isDirectory {
            guard let match = byIdentity[item.identity], !taken[match] else { continue }
            let old = vanished[match]
            guard old.size == item.size, old.modified == item.modified else { continue }
            taken[match] = true
            partner[index] = match
        }
        return (partner, taken)
    }

    /// An event for a path given as bytes.
    static func event(_ path: [UInt8], _ kind: FileEvent.Kind, isDirectory: Bool = false, cookie: UInt32 = 0) -> FileEvent {
        FileEvent(path: FilePath(bytes: path), kind: kind, isDirectory: isDirectory, cookie: cookie)
    }

    private static let cookies = Atomic<UInt32>(0x8000_0000)

    /// A cookie for a move polling found, from a range apart from the
    /// small numbers the kernel hands out first.
    static func nextCookie() -> UInt32 {
        let value = cookies.wrappingAdd(1, ordering: .relaxed).newValue
        return value == 0 ? cookies.wrappingAdd(1, ordering: .relaxed).newValue : value
    }
}
