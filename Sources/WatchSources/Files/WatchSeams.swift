import Dispatch
import Glibc
import Signals
import Synchronization
import SystemPackage

/// Every test hook of the file watcher, in one place: moments of the
/// reader thread at which a test can act, to provoke a race
/// deterministically instead of hoping for it under load, and the
/// conditions it cannot make for real without root (a full kernel queue,
/// few watches left). Each is keyed by a path, so that tests running in
/// parallel never trigger each other's. Production code reaches a seam at
/// three points only: before adding a watch (`willWatch`), when reading
/// the kernel queue (`readApart`), and when a subscription starts
/// (`watchBudget`); the rest are inputs the reader machine takes like any
/// other (`ReaderMachine.deafen`, `injectOverflow`).
package enum WatchSeams {
    /// Actions run once, on the reader thread, just before a watch is
    /// added on the directory they are keyed by.
    private static let beforeWatching = Locked<[FilePath: @Sendable () -> Void]>([:])

    /// Tests: runs `action` once, on the reader thread, right before the
    /// watch on `directory` is added (what happens in it then is not seen
    /// by that watch).
    static func beforeWatching(_ directory: FilePath, _ action: @escaping @Sendable () -> Void) {
        beforeWatching.withLock { $0[directory] = action }
    }

    /// Called by the reader just before it watches `directory`.
    static func willWatch(_ directory: FilePath) {
        guard let action = beforeWatching.withLock({ $0.removeValue(forKey: directory) }) else { return }
        action()
    }

    // MARK: Few watches left

    /// Watch budgets by root, for `limitWatches(of:to:)`.
    private static let watchBudgets = Locked<[FilePath: Int]>([:])

    /// Tests: a subscription watching `root` acts as if
    /// `fs.inotify.max_user_watches` allowed it only `budget` watches, to
    /// exercise running out of watches without root.
    package static func limitWatches(of root: FilePath, to budget: Int) {
        watchBudgets.withLock { $0[FileSystem.absolute(root)] = budget }
    }

    /// The budget a test set for one of `roots`, if any (read once per subscription).
    static func watchBudget(for roots: [FilePath]) -> Int? {
        watchBudgets.withLock { budgets in
            for root in roots where !budgets.isEmpty {
                if let budget = budgets[root] { return budget }
            }
            return nil
        }
    }

    // MARK: A full kernel queue

    /// Tests: records from the directories below `root` are dropped from
    /// now on, as a full kernel queue drops them, until `injectOverflow`.
    static func deafen(root: FilePath) {
        for reader in InotifyReader.everyReader { reader.seam(.deafen(root)) }
    }

    /// Tests: reads what is queued (dropping what `deafen` drops), then
    /// gives the clients watching `root` a queue overflow: an `overflow`
    /// event, a rescan, and events for what changed while they were deaf.
    static func injectOverflow(root: FilePath) {
        for reader in InotifyReader.everyReader { reader.seam(.overflow(root)) }
    }

    // MARK: A reader behind

    /// Tests: holds the reader threads, as a storm they are still
    /// reading would, until the returned function is called. Unlike the
    /// other seams this is not keyed by a path: every watch of the process
    /// waits meanwhile, so a test holds them only for a moment.
    package static func holdReaders() -> @Sendable () -> Void {
        let readers = InotifyReader.everyReader
        let release = DispatchSemaphore(value: 0)
        for reader in readers { reader.seam(.hold(release: release)) }
        return { for _ in readers { release.signal() } }
    }

    // MARK: A rename read in halves

    /// Directories whose renames a test wants read in two halves.
    private static let renamesReadApart = Locked<Set<FilePath>>([])
    /// Whether any test asked: the one look the read path makes.
    private static let readingApart = Atomic<Bool>(false)
    /// Set after an `IN_MOVED_FROM` read apart: the next read comes back empty.
    nonisolated(unsafe) private static var emptyReadOwed = false

    /// Tests: from now on the reader reads one record per `read(2)`, and
    /// after an `IN_MOVED_FROM` from `directory` its next read comes back
    /// empty once, as it does when the renaming thread has not yet queued
    /// the `IN_MOVED_TO` (the kernel queues the halves separately). Other
    /// directories' records are only read one at a time, not changed.
    static func readRenameHalvesApart(in directory: FilePath, _ on: Bool = true) {
        let any = renamesReadApart.withLock { directories in
            if on { directories.insert(directory) } else { directories.remove(directory) }
            return !directories.isEmpty
        }
        readingApart.store(any, ordering: .relaxed)
    }

    /// The reader's read of the kernel queue while a test reads renames
    /// apart (nil otherwise: the reader reads as usual): one record, with
    /// the smallest buffer that holds it (the kernel returns as many whole
    /// records as fit, and `EINVAL` when not even one does), and nothing
    /// once after an `IN_MOVED_FROM` from a directory the seam names
    /// (`directory` says where a watch descriptor's records come from).
    /// Reader thread only (`emptyReadOwed`).
    static func readApart(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer,
                          directory: (Int32) -> FilePath?) -> (records: [InotifyRecord], bytes: Int)? {
        guard readingApart.load(ordering: .relaxed) else { return nil }
        if emptyReadOwed {
            emptyReadOwed = false
            return ([], 0)
        }
        var size = MemoryLayout<inotify_event>.size + 16
        while size <= buffer.count {
            let (records, bytes) = InotifyInstance.read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<size]))
            if records.isEmpty, errno == EINVAL {
                size += 16
                continue
            }
            if let record = records.first, record.has(InotifyRecord.movedFrom), let path = directory(record.wd),
               renamesReadApart.withLock({ $0.contains(path) }) {
                emptyReadOwed = true
            }
            return (records, bytes)
        }
        return ([], 0)
    }
}
