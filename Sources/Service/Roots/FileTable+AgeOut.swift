extension FileTable {
    /// Forgets entries deleted at or before `cutoff` (Unix seconds), except a
    /// directory something kept still lies in; returns how many went.
    /// `lastAgeOut` becomes the newest `oclock` forgotten, so a clock from
    /// before it reads as a fresh instance. The root is never forgotten.
    @discardableResult
    mutating func ageOut(deletedBefore cutoff: Int64) -> Int {
        // (At or before: watchman's `debug-ageout 0` forgets what was deleted this second.)
        let limit = Int(idLimit)
        guard limit > 1 else { return 0 }
        var removable = [Bool](repeating: false, count: limit)
        for id in 1..<idLimit where isLive(id) {
            let entry = self[id]
            removable[Int(id)] = !entry.exists && times.time(of: entry.oclock) <= cutoff
        }
        // A kept entry keeps every directory above it.
        for id in 1..<idLimit where isLive(id) && !removable[Int(id)] {
            var parent = self[id].parent
            while parent > 0, removable[Int(parent)] {
                removable[Int(parent)] = false
                parent = self[parent].parent
            }
        }
        var removed = 0
        for id in 1..<idLimit where removable[Int(id)] {
            lastAgeOut = max(lastAgeOut, self[id].oclock)
            free(id)
            removed += 1
        }
        if names.wantsCompaction { compactNames() }
        return removed
    }

    /// Takes `id` out of the index and makes it reusable.
    private mutating func free(_ id: Int32) {
        let key = hash(of: id)
        withIndex { index, table in index.remove(id, key) { table.hash(of: $0) } }
        var entry = self[id]
        releaseName(entry.nameLength)
        entry.parent = -1
        entry.exists = false
        entry.oclock = 0
        entry.cclock = 0
        self[id] = entry
        freeEntry(id)
    }
}
