import Glibc
import Synchronization
import SystemPackage

/// The process's inotify instance: its descriptor, the watches added to
/// and removed from it, the records read from it. The reader thread is its
/// only user; which directory a watch descriptor stands for is the
/// `WatchTable`'s to know, not the kernel's or a library's.
///
/// Records are read with `read(2)` after `poll(2)`, never `select(2)`,
/// which aborts the process once a descriptor is 1024 or more
/// (`FD_SETSIZE`).
enum InotifyInstance {
    /// The descriptor of the open instance. It outlives a reader thread
    /// that ends for want of clients, and the next one goes on with it:
    /// closed, another process could take the last of the user's instances
    /// (`fs.inotify.max_user_instances`) meanwhile. Only the reader thread
    /// touches it, and one reader thread hands over to the next under
    /// `InotifyReader`'s lock.
    nonisolated(unsafe) private static var current: Int32?

    /// The open instance (made when there is none).
    static func open() throws(FileWatchError) -> Int32 {
        if let current { return current }
        let descriptor = try openUnshared()
        current = descriptor
        return descriptor
    }

    /// A new instance that is not the process's (a dedicated reader's):
    /// the caller closes it.
    static func openUnshared() throws(FileWatchError) -> Int32 {
        switch make() {
        case .success(let descriptor): return descriptor
        case .failure(let code): throw FileWatchError(.inotifyUnavailable(errno: code.rawValue))
        }
    }

    /// A new inotify instance, or the kernel's reason for refusing one (no
    /// instance left: `fs.inotify.max_user_instances`). Non-blocking, so a
    /// reader can poll it with its wake-up descriptor, and close-on-exec,
    /// so that no child inherits it. The one place rwatch makes an
    /// instance: each one counts against the user's limit.
    static func make() -> Result<Int32, Errno> {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        return descriptor >= 0 ? .success(descriptor) : .failure(Errno(rawValue: errno))
    }

    /// Closes the instance, and every watch with it.
    static func close() {
        if let current { _ = Glibc.close(current) }
        current = nil
    }

    /// What adding a watch gave.
    enum Outcome: Equatable {
        case watching(wd: Int32)
        case failed(errno: Int32)
    }

    /// How many watches every instance of the process has been given so
    /// far, never less: a subscriber reads it while its walk goes on (a
    /// progress line) and after (how many directories arming took), from
    /// any thread (`FileWatcher.watchesAdded`).
    static let added = Atomic<Int>(0)

    /// Watches directory `path` for what rwatch asks of every directory
    /// (`InotifyRecord.watchMask`). Adding a watch on a directory watched
    /// already gives its descriptor again.
    static func watch(_ path: FilePath, descriptor: Int32) -> Outcome {
        let wd = path.withPlatformString { inotify_add_watch(descriptor, $0, InotifyRecord.watchMask) }
        guard wd >= 0 else { return .failed(errno: errno) }
        added.wrappingAdd(1, ordering: .relaxed)
        return .watching(wd: wd)
    }

    /// Removes watch `wd` (the kernel may have dropped it already: its
    /// directory was just deleted; then this does nothing).
    static func unwatch(_ wd: Int32, descriptor: Int32) {
        _ = inotify_rm_watch(descriptor, wd)
    }

    /// How many bytes of records the kernel holds queued on `descriptor`
    /// now (`FIONREAD`): what a reader must read to have read everything
    /// queued before this moment.
    static func queuedBytes(_ descriptor: Int32) -> Int {
        var count: Int32 = 0
        guard descriptor >= 0, ioctl(descriptor, UInt(FIONREAD), &count) == 0 else { return 0 }
        return Int(count)
    }

    /// Reads what the kernel has queued on `descriptor` (non-blocking) into
    /// `buffer` and returns it as records, with the bytes they took in the
    /// queue; empty when nothing is queued.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> (records: [InotifyRecord], bytes: Int) {
        var count = 0
        repeat {
            count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
        } while count < 0 && errno == EINTR
        guard count > 0 else { return ([], 0) }
        var records: [InotifyRecord] = []
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let wd = buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let cookie = buffer.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
            let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            var name: FilePath.Component? = nil
            if length > 0, offset + header + length <= count {
                // The kernel pads the name with NULs.
                name = FilePath.Component(platformString: (buffer.baseAddress! + offset + header).assumingMemoryBound(to: CChar.self))
            }
            records.append(InotifyRecord(wd: wd, mask: mask, cookie: cookie, name: name))
            offset += header + length
        }
        return (records, count)
    }

    /// How many watches this user may hold: `fs.inotify.max_user_watches`,
    /// or less when this user namespace sets a lower
    /// `/proc/sys/user/max_inotify_watches` (the kernel checks both).
    static var maxUserWatches: Int {
        limit("/proc/sys/fs/inotify/max_user_watches", "/proc/sys/user/max_inotify_watches")
    }

    /// `fs.inotify.max_user_instances` (or this user namespace's lower limit).
    static var maxUserInstances: Int {
        limit("/proc/sys/fs/inotify/max_user_instances", "/proc/sys/user/max_inotify_instances")
    }

    private static func limit(_ paths: FilePath...) -> Int {
        paths.compactMap { FileSystem.read($0).flatMap { Int($0.filter(\.isNumber)) } }.min() ?? 0
    }
}
