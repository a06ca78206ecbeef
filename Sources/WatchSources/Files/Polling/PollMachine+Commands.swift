/// What a job is told between passes (through `PollScanner`'s commands):
/// by the inotify reader, subtrees to add and forget and new rules; by
/// the client's `TrackedFilesRefresh`, what git tracks.
extension PollMachine {
    /// Adds a subtree (scanned from the next pass on).
    func add(_ subtree: Subtree) {
        if subtrees.contains(where: { $0.relative == subtree.relative }) { return }
        subtrees.append(subtree)
    }

    /// Forgets, silently, the subtrees at or below `relative`.
    func remove(under relative: [UInt8]) {
        subtrees.removeAll { subtree in
            guard PollMachine.isWithin(subtree.relative, relative) else { return false }
            if subtree.top >= 0 { tree.release(subtree.top) }
            return true
        }
    }

    /// Takes new filter rules: every directory decides its entries again
    /// (silently) and reads its ignore files anew on its next scan. What
    /// git tracks stays the job's own: it comes from the client's
    /// `TrackedFilesRefresh` alone (`replaceTracked`), and the reader's
    /// filter may hold an older answer than the one the job already took.
    func replace(_ filter: PathFilter) {
        var filter = filter
        filter.setTracked(self.filter.tracked)
        self.filter = filter
        bumpGeneration()
        reloadIgnoreFiles = true
    }

    /// Takes what git tracks anew (`TrackedFiles`): when that changes what
    /// the filter keeps, every directory decides its entries again.
    func replaceTracked(_ files: TrackedFiles) {
        if filter.setTracked(files) { bumpGeneration() }
    }

    /// Whether `path` is `ancestor` or lies below it (relative paths, bytes).
    static func isWithin(_ path: [UInt8], _ ancestor: [UInt8]) -> Bool {
        if ancestor.isEmpty || path == ancestor { return true }
        return path.count > ancestor.count && path.starts(with: ancestor) && path[ancestor.count] == UInt8(ascii: "/")
    }
}
