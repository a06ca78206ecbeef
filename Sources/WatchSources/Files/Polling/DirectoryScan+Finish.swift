import Glibc
import SystemPackage

extension DirectoryScan {
    /// Ends the listing: settles what vanished and appeared (directories
    /// that moved keep their snapshots), stores the new snapshot, hands out
    /// the immediate events and queues the directories below.
    mutating func finish(_ changes: inout PollChanges, _ stack: inout [Pending]) {
        closeListing()
        settleVanished(&changes)
        settleAppeared(&changes)
        let hasIgnoreFile = queueChildren(&stack)
        machine.tree[index].entries = entries
        machine.tree[index].names = names
        machine.tree[index].hasIgnoreFile = hasIgnoreFile
        if rulesChanged, machine.filter.readsDirectoryRuleFiles {
            // An ignore file changed after the check at the start: its rules
            // apply from the next pass on.
            machine.filter.loadDirectory(FilePath(bytes: item.relative), at: FilePath(bytes: item.path.dropLast()))
            machine.rulesChanged = true
            machine.bumpGeneration()
        }
        if !immediate.isEmpty { machine.deliver(immediate) }
    }

    /// The old entries not seen in the listing vanished; the new listing
    /// (the snapshot updated in place, or the rebuilt one) becomes `entries`.
    private mutating func closeListing() {
        if !rebuilding {
            if cursor < old.count {
                for position in cursor..<old.count {
                    vanished.append((old[position], Array(oldName(position)), false))
                }
                old.removeSubrange(cursor...)
            }
            entries = old
            names = oldNames
        } else {
            for position in old.indices where !seen[position] {
                vanished.append((old[position], Array(oldName(position)), false))
            }
            // Stored at their size: a pass over a large tree rebuilds many.
            entries = entries.withUnsafeBufferPointer { Array($0) }
            names = names.withUnsafeBufferPointer { Array($0) }
        }
        old = []
        oldNames = []
    }

    /// What vanished: files wait for the pass's end; directories too, in
    /// case they turn up elsewhere.
    private mutating func settleVanished(_ changes: inout PollChanges) {
        for (entry, name, replaced) in vanished where !entry.flags.contains(.skipped) {
            if entry.flags.contains(.ignoreFile) { rulesChanged = true }
            let where_ = path(name)
            if entry.isDirectory {
                if entry.child >= 0 {
                    let child = machine.tree[entry.child]
                    machine.tree[entry.child].parent = -1
                    let identity = PollTree.Identity(device: child.device, inode: child.inode)
                    machine.vanishedDirectories[identity] = .init(index: entry.child, path: where_,
                                                                  reported: entry.flags.contains(.reported))
                } else if entry.flags.contains(.reported) {
                    changes.direct.append(PollChanges.event(where_, .deleted, isDirectory: true))
                }
            } else if !replaced, skippedArrivals.contains(entry.inode), entry.flags.contains(.reported) {
                // Renamed to a name nobody reports: an editor's save begins.
                changes.renamedAway.append(PollChanges.event(where_, .movedFrom, cookie: PollChanges.nextCookie()))
            } else {
                changes.vanished.append(PollChanges.Item(
                    path: where_, identity: .init(device: device, inode: entry.inode), size: entry.size,
                    modified: entry.modified, isDirectory: false, reported: entry.flags.contains(.reported),
                    replaced: replaced))
            }
        }
    }

    /// What appeared: directories are followed if they moved, else made.
    private mutating func settleAppeared(_ changes: inout PollChanges) {
        for (position, onDevice, replaced) in appeared {
            let entry = entries[position]
            let name = names[Int(entry.nameStart)..<Int(entry.nameStart) + Int(entry.nameLength)]
            let where_ = path(name)
            let reported = entry.flags.contains(.reported)
            guard entry.isDirectory else {
                changes.appeared.append(PollChanges.Item(
                    path: where_, identity: .init(device: onDevice, inode: entry.inode), size: entry.size,
                    modified: entry.modified, isDirectory: false, reported: reported, replaced: replaced, holdable: true))
                continue
            }
            let identity = PollTree.Identity(device: onDevice, inode: entry.inode)
            if let moved = machine.vanishedDirectories.removeValue(forKey: identity) {
                adopt(moved.index, at: position)
                changes.directoryMoves.append(.init(from: moved.path, to: where_, fromReported: moved.reported, toReported: reported))
            } else if let elsewhere = movedFromAPlaceNotScannedYet(identity) {
                adopt(elsewhere.index, at: position)
                changes.directoryMoves.append(.init(from: elsewhere.path, to: where_, fromReported: elsewhere.reported, toReported: reported))
            } else {
                entries[position].child = machine.tree.make(device: onDevice, inode: entry.inode, parent: index,
                                                            generation: machine.generation, baseline: false)
                changes.appeared.append(PollChanges.Item(
                    path: where_, identity: identity, size: 0, modified: 0, isDirectory: true,
                    reported: reported, replaced: replaced))
            }
            mustList.insert(position)
        }
    }

    /// Queues the directories below on `stack`; says whether an ignore file is among the entries.
    private func queueChildren(_ stack: inout [Pending]) -> Bool {
        var hasIgnoreFile = false
        for position in entries.indices {
            let entry = entries[position]
            if entry.flags.contains(.ignoreFile) { hasIgnoreFile = true }
            guard entry.child >= 0, !entry.flags.contains(.skipped) else { continue }
            let name = names[Int(entry.nameStart)..<Int(entry.nameStart) + Int(entry.nameLength)]
            let childPath = path(name) + [0]
            stack.append(Pending(index: entry.child, path: childPath, relativeStart: item.relative.isEmpty ? childPath.count - 1 - name.count : item.relativeStart,
                                 mustList: mustList.contains(position), isTop: false))
        }
        return hasIgnoreFile
    }

    /// Makes the snapshot `child` (a directory that moved) the one at `position`.
    private mutating func adopt(_ child: Int32, at position: Int) {
        machine.tree[child].parent = index
        entries[position].child = child
        // Its paths changed: the filter decides its entries again, silently.
        machine.tree.invalidate(child)
    }

    /// A directory with this identity still in the snapshot at a place this
    /// pass has not reached, which no longer holds it: it moved here.
    private func movedFromAPlaceNotScannedYet(_ identity: PollTree.Identity) -> PollMachine.VanishedDirectory? {
        guard let candidate = machine.tree.byIdentity[identity], candidate != index,
              machine.tree[candidate].parent >= 0, let oldPath = snapshotPath(of: candidate)
        else { return nil }
        var info = stat()
        let stillThere = system.status(of: oldPath + [0], following: false, &info)
            && UInt64(info.st_ino) == identity.inode && UInt64(info.st_dev) == identity.device
        guard !stillThere else { return nil }
        let parent = machine.tree[candidate].parent
        let reported = machine.tree[parent].entries.first { $0.child == candidate }?.flags.contains(.reported) ?? false
        machine.tree.detach(candidate)
        return .init(index: candidate, path: oldPath, reported: reported)
    }

    /// The absolute path the snapshot gives directory `node`; the directory
    /// being scanned has its listing here, not in the tree.
    private func snapshotPath(of node: Int32) -> [UInt8]? {
        var components: [[UInt8]] = []
        var current = node
        while true {
            if current == index {
                var path = Array(item.path.dropLast())
                for component in components.reversed() { path += [UInt8(ascii: "/")] + component }
                return path
            }
            let parent = machine.tree[current].parent
            if parent < 0 {
                guard let top = machine.subtrees.first(where: { $0.top == current }) else { return nil }
                var path = top.path
                for component in components.reversed() { path += [UInt8(ascii: "/")] + component }
                return path
            }
            if parent == index {
                guard let entry = entries.first(where: { $0.child == current }) else { return nil }
                components.append(Array(names[Int(entry.nameStart)..<Int(entry.nameStart) + Int(entry.nameLength)]))
            } else {
                let directory = machine.tree[parent]
                guard let entry = directory.entries.first(where: { $0.child == current }) else { return nil }
                components.append(Array(directory.name(entry)))
            }
            current = parent
        }
    }
}
