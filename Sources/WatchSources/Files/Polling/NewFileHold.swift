/// New files polling passes found and did not announce yet. A temporary
/// file is renamed over the real one or deleted right after it is made,
/// and is never a change (`PollChanges.settle(held:)`); what the directory
/// scan finds of a held file meanwhile (a write) is part of its creation.
/// A file is held for the save window from when it was first found, as the
/// save coalescer holds one that inotify reports, however many passes fit
/// in it: a save slower than a short interval spans several passes.
struct NewFileHold {
    /// The held files (absolute paths).
    private(set) var paths: Set<[UInt8]> = []
    /// When each was first found (monotonic seconds).
    private var since: [[UInt8]: Double] = [:]

    var isEmpty: Bool { paths.isEmpty }

    /// When the last held file is due, held for `window` (monotonic), if any.
    func due(window: Double) -> Double? { since.values.max().map { $0 + window } }

    func contains(_ path: [UInt8]) -> Bool { paths.contains(path) }

    /// Forgets `path` (renamed to an ignored name before it was announced).
    mutating func remove(_ path: [UInt8]) {
        paths.remove(path)
        since[path] = nil
    }

    /// After a pass settled: of the files it `released` (still there),
    /// those held for `window` are due, the others stay held; the pass's
    /// `new` files are held from `now`. Returns the due ones.
    mutating func settle(released: [[UInt8]], new: Set<[UInt8]>, now: Double, window: Double) -> [[UInt8]] {
        var due: [[UInt8]] = []
        var kept: [[UInt8]: Double] = [:]
        for path in released {
            if let found = since[path], now - found < window {
                kept[path] = found
            } else {
                due.append(path)
            }
        }
        for path in new { kept[path] = now }
        since = kept
        paths = Set(kept.keys)
        return due
    }
}
