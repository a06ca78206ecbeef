import Glibc
import SystemPackage

/// What `ReaderMachine` asks of the world while it decides: the answers its
/// decisions depend on, asked in the order they must be (a directory is
/// watched before it is listed, so that nothing made in between is
/// missed). The reader thread's `LiveReaderSystem` asks the kernel; tests
/// give the machine an in-memory tree.
protocol ReaderSystem {
    /// Adds an inotify watch on `directory`.
    mutating func watch(_ directory: FilePath) -> InotifyInstance.Outcome
    /// Removes watch `wd`.
    mutating func unwatch(_ wd: Int32)
    /// How many watches this user may hold (for the message when they ran out).
    func watchLimit() -> Int
    /// Which processes of this user hold the most watches now, as one
    /// line (`InotifyUsage.summary`), for when they ran out.
    func watchHolders() -> String?
    /// What `path` is (following a final symbolic link with `follow`).
    func kind(_ path: FilePath, follow: Bool) -> FileSystem.Kind
    /// Whether `path` was made whole at once (`FileSystem.isMadeWhole`).
    func isMadeWhole(_ path: FilePath) -> Bool
    /// The later of `path`'s mtime and ctime, on the wall clock.
    func changeTime(_ path: FilePath) -> Double?
    /// Calls `body` with the name and whether it is a directory of each
    /// entry of `directory`; false when it cannot be read.
    func forEachEntry(in directory: FilePath, _ body: (UnsafeBufferPointer<UInt8>, _ isDirectory: Bool) -> Void) -> Bool
    /// The mounts as they are now; from then on, the loop hears of mounts
    /// that come and go.
    mutating func mounts() -> MountTable
    /// What git said to the lookups started when a watch began (waiting for them).
    func tracked(_ lookups: [TrackedFiles.Lookup]) -> [FilePath: TrackedFiles]
}

/// What the reader thread's loop asks of the world besides the machine's
/// questions: the inotify descriptor it polls and reads, and the mount
/// table's. `LiveReaderSystem` is the kernel; `SeamedReaderSystem` the
/// kernel as a test's `ReaderSeams` bend it. The loop is specialized on
/// it, so the live one costs no look at any test hook.
protocol LoopSystem: ReaderSystem {
    /// The inotify instance's descriptor; -1 while there is none.
    var descriptor: Int32 { get set }
    /// `/proc/self/mountinfo` while a client chooses backends by mount; -1 otherwise.
    var mountWatch: Int32 { get }
    /// No client chooses backends by mount any more.
    mutating func stopFollowingMounts()
    /// Reads what is queued on `descriptor` into `buffer` (as
    /// `InotifyInstance.read`); `directory` says which directory a watch
    /// descriptor's records come from.
    mutating func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer,
                       directory: (Int32) -> FilePath?) -> (records: [InotifyRecord], bytes: Int)
}

/// The reader thread's `ReaderSystem`: the inotify instance and the file
/// system itself.
struct LiveReaderSystem: LoopSystem {
    /// The inotify instance's descriptor; -1 while there is none.
    var descriptor: Int32 = -1
    /// `/proc/self/mountinfo`, open once a client chose backends by mount:
    /// it polls with `POLLPRI` when a mount comes or goes.
    private(set) var mountWatch: Int32 = -1

    mutating func watch(_ directory: FilePath) -> InotifyInstance.Outcome {
        InotifyInstance.watch(directory, descriptor: descriptor)
    }

    mutating func unwatch(_ wd: Int32) {
        InotifyInstance.unwatch(wd, descriptor: descriptor)
    }

    func watchLimit() -> Int { InotifyInstance.maxUserWatches }

    func watchHolders() -> String? { InotifyUsage.summary() }

    func kind(_ path: FilePath, follow: Bool) -> FileSystem.Kind { FileSystem.kind(path, follow: follow) }

    func isMadeWhole(_ path: FilePath) -> Bool { FileSystem.isMadeWhole(path) }

    func changeTime(_ path: FilePath) -> Double? { FileSystem.changeTime(path) }

    func forEachEntry(in directory: FilePath, _ body: (UnsafeBufferPointer<UInt8>, _ isDirectory: Bool) -> Void) -> Bool {
        FileSystem.forEachEntry(in: directory, body)
    }

    mutating func mounts() -> MountTable {
        if mountWatch < 0 { mountWatch = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC) }
        return MountTable.current()
    }

    /// No client chooses backends by mount any more.
    mutating func stopFollowingMounts() {
        guard mountWatch >= 0 else { return }
        close(mountWatch)
        mountWatch = -1
    }

    func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer,
              directory: (Int32) -> FilePath?) -> (records: [InotifyRecord], bytes: Int) {
        InotifyInstance.read(descriptor, into: buffer)
    }

    func tracked(_ lookups: [TrackedFiles.Lookup]) -> [FilePath: TrackedFiles] {
        var found: [FilePath: TrackedFiles] = [:]
        for lookup in lookups { found[lookup.top] = lookup.wait() }
        return found
    }
}
