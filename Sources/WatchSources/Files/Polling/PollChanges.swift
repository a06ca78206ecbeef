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
        /// A new file found by listing its directory: held by the save
        /// rule in case it is a temporary file (`Origin.look`).
        var holdable = false
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
    /// briefly by the save rule, as with inotify, so that the file written
    /// under the real name next makes one `modified`.
    var renamedAway: [FileEvent] = []

    var isEmpty: Bool { appeared.isEmpty && vanished.isEmpty && directoryMoves.isEmpty && direct.isEmpty && renamedAway.isEmpty }

    /// What the pass found, for the save rule (`SaveCoalescer.observe`),
    /// in the order: files renamed away, deletions, direct events, moves of
    /// directories, then moves of files, creations and replacements
    /// (parents before what they hold). A new file found by listing its
    /// directory is a `look`'s: the rule holds it in case it is a
    /// temporary file, as for inotify.
    func observations() -> [SaveCoalescer.Observation] {
        var found = renamedAway.map { SaveCoalescer.Observation.renamed(from: $0, to: nil) }
        if appeared.isEmpty && vanished.isEmpty && directoryMoves.isEmpty {
            return found + direct.map { .event($0, .look) }
        }
        let (partner, taken) = partners()
        for (index, item) in vanished.enumerated() where !taken[index] && item.reported && !(item.replaced && !item.isDirectory) {
            found.append(.event(PollChanges.event(item.path, .deleted, isDirectory: item.isDirectory), .look))
        }
        found += direct.map { .event($0, .look) }
        for move in directoryMoves {
            let cookie = PollChanges.nextCookie()
            if move.fromReported { found.append(.event(PollChanges.event(move.from, .movedFrom, isDirectory: true, cookie: cookie), .look)) }
            if move.toReported { found.append(.event(PollChanges.event(move.to, .movedTo, isDirectory: true, cookie: cookie), .look)) }
        }
        for (index, item) in appeared.enumerated() {
            if let match = partner[index] {
                let from = vanished[match]
                let cookie = PollChanges.nextCookie()
                found.append(.renamed(from: from.reported ? PollChanges.event(from.path, .movedFrom, cookie: cookie) : nil,
                                      to: item.reported ? PollChanges.event(item.path, .movedTo, cookie: cookie) : nil))
            } else if item.reported {
                let kind: FileEvent.Kind = item.replaced && !item.isDirectory ? .modified : .created
                found.append(.event(PollChanges.event(item.path, kind, isDirectory: item.isDirectory), item.holdable ? .look : .scan))
            }
        }
        return found
    }

    /// The events, as they are with nothing held (tests).
    func events() -> [FileEvent] {
        observations().flatMap { observation -> [FileEvent] in
            switch observation {
            case .event(let event, _): [event]
            case .renamed(let source, let target): [source, target].compactMap { $0 }
            }
        }
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
