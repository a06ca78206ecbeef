import Glibc
import SystemPackage

/// The `LiveReaderSystem` of a reader given `ReaderSeams`: it watches and
/// reads through the live one, applying what a test set. A reader without
/// seams never uses it (`InotifyReader.spawn` chooses once per thread).
/// Reader thread only.
struct SeamedReaderSystem: LoopSystem {
    var live = LiveReaderSystem()
    let seams: ReaderSeams
    /// The directories this reader watches, by watch descriptor: where an
    /// injected overflow belongs, how many watches a budget counts.
    private var watched: [Int32: FilePath] = [:]
    /// The budget that refused the last watch, if one did (`watchLimit`).
    private var budgetSpent: Int? = nil
    /// Set after an `IN_MOVED_FROM` read apart: the next read comes back empty.
    private var emptyReadOwed = false

    init(seams: ReaderSeams) {
        self.seams = seams
    }

    var descriptor: Int32 {
        get { live.descriptor }
        set { live.descriptor = newValue }
    }

    var mountWatch: Int32 { live.mountWatch }

    // MARK: Watching

    /// Runs the test's action for `directory` first; refuses with
    /// `ENOSPC`, as the kernel does, a watch beyond a test's budget.
    mutating func watch(_ directory: FilePath) -> InotifyInstance.Outcome {
        seams.willWatch(directory)
        budgetSpent = nil
        if let (root, budget) = seams.budget(covering: directory),
           watched.values.count(where: { FileSystem.relative($0, to: root) != nil }) >= budget {
            budgetSpent = budget
            return .failed(errno: ENOSPC)
        }
        let outcome = live.watch(directory)
        if case .watching(let wd) = outcome { watched[wd] = directory }
        return outcome
    }

    mutating func unwatch(_ wd: Int32) {
        watched[wd] = nil
        live.unwatch(wd)
    }

    func watchLimit() -> Int { budgetSpent ?? live.watchLimit() }

    /// None when a test's budget refused the watch: no process holds
    /// those watches (and the line goes out once per process: another
    /// test may look for it).
    func watchHolders() -> String? { budgetSpent == nil ? live.watchHolders() : nil }

    func kind(_ path: FilePath, follow: Bool) -> FileSystem.Kind { live.kind(path, follow: follow) }

    func isMadeWhole(_ path: FilePath) -> Bool { live.isMadeWhole(path) }

    func changeTime(_ path: FilePath) -> Double? { live.changeTime(path) }

    func forEachEntry(in directory: FilePath, _ body: (UnsafeBufferPointer<UInt8>, _ isDirectory: Bool) -> Void) -> Bool {
        live.forEachEntry(in: directory, body)
    }

    mutating func mounts() -> MountTable { live.mounts() }

    mutating func stopFollowingMounts() { live.stopFollowingMounts() }

    func tracked(_ lookups: [TrackedFiles.Lookup]) -> [FilePath: TrackedFiles] { live.tracked(lookups) }

    // MARK: Reading

    /// Waits while a test holds the reader; drops the records of deaf
    /// roots (reading on while a read brought only those); and, once a
    /// test injected an overflow for a root this reader watches, reads
    /// what is queued and ends it with an `IN_Q_OVERFLOW` record.
    mutating func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer,
                       directory: (Int32) -> FilePath?) -> (records: [InotifyRecord], bytes: Int) {
        seams.waitWhileHeld()
        let overflowing = seams.takeOverflow(among: watched.values)
        var kept: [InotifyRecord] = []
        var bytes = 0
        while true {
            let (records, read) = readOnce(descriptor, into: buffer, directory: directory)
            if records.isEmpty { break }
            bytes += read
            let deaf = seams.deafRoots
            for record in records {
                if record.has(InotifyRecord.ignored) { watched[record.wd] = nil }
                if !ReaderSeams.isDeaf(directory(record.wd), deaf) { kept.append(record) }
            }
            if !kept.isEmpty, overflowing == nil { break }
        }
        if let overflowing {
            seams.overflowRead(overflowing)
            kept.append(InotifyRecord(wd: -1, mask: InotifyRecord.queueOverflow, cookie: 0, name: nil))
        }
        return (kept, bytes)
    }

    /// One read of the kernel queue; while a test reads renames apart, one
    /// record, with the smallest buffer that holds it (the kernel returns
    /// as many whole records as fit, and `EINVAL` when not even one does),
    /// and nothing once after an `IN_MOVED_FROM` from a directory the test
    /// named.
    private mutating func readOnce(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer,
                                   directory: (Int32) -> FilePath?) -> (records: [InotifyRecord], bytes: Int) {
        guard seams.readingApart else { return live.read(descriptor, into: buffer, directory: directory) }
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
               seams.readsRenamesApart(in: path) {
                emptyReadOwed = true
            }
            return (records, bytes)
        }
        return ([], 0)
    }
}
