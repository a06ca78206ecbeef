internal import CInotifyTools
import Glibc
import SystemPackage

/// The only code that calls libinotifytools. The library keeps one static
/// inotify fd and its wd↔path tables, and is not thread-safe: everything
/// here runs on `InotifyReader`'s thread.
///
/// Events are read from the library's fd here, with `read(2)` after
/// `poll(2)`, never through `inotifytools_next_events`: that one waits in
/// `select(2)`, which aborts the process once the fd is 1024 or more
/// (`FD_SETSIZE`). And after `start()` failed, nothing here may be called
/// (the library asserts that it was initialised).
///
/// Directory paths go in and come out without a trailing slash; the library
/// stores directories with one. Paths cross as C strings both ways and are
/// never decoded: a name need not be UTF-8.
enum InotifyLibrary {
    /// Starts libinotifytools, or goes on with it when it is started
    /// already. Returns the inotify fd it reads from (found
    /// through `/proc/self/fdinfo`), made non-blocking and close-on-exec, so
    /// the reader can poll it together with its wake-up fd and no child
    /// inherits it. Throws (with the library closed) when it cannot start
    /// or its fd cannot be found.
    static func start() throws(FileWatchError) -> Int32 {
        if let current { return current }
        guard inotifytools_initialize() != 0 else {
            throw FileWatchError(.inotifyUnavailable(errno: Int32(inotifytools_error())))
        }
        guard let descriptor = findDescriptor() else {
            inotifytools_cleanup()
            throw FileWatchError(.inotifyUnavailable(errno: EBADF))
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        current = descriptor
        return descriptor
    }

    /// Removes every watch and closes the library's fd.
    static func stop() {
        inotifytools_cleanup()
        current = nil
    }

    /// The fd of the started library: it outlives a reader thread that
    /// ends for want of clients, and the next one goes on with it. Only
    /// the reader thread touches it, and one reader thread hands over to
    /// the next under `InotifyReader`'s lock.
    nonisolated(unsafe) private static var current: Int32?

    /// What adding a watch gave.
    enum Outcome {
        case watching(wd: Int32)
        case failed(errno: Int32)
    }

    /// Watches directory `path`. The wd comes from the kernel (adding the
    /// same watch again returns it); the library's by-name table can hold
    /// stale names of deleted directories.
    static func watch(_ path: FilePath, descriptor: Int32) -> Outcome {
        let mask = InotifyRecord.watchMask
        let added = path.withPlatformString { inotifytools_watch_file($0, Int32(bitPattern: mask)) }
        guard added != 0 else { return .failed(errno: Int32(inotifytools_error())) }
        let wd = path.withPlatformString { inotify_add_watch(descriptor, $0, mask) }
        return wd > 0 ? .watching(wd: wd) : .failed(errno: ENOENT)
    }

    /// Removes the watch `wd`. The kernel may have dropped it already (its
    /// directory was just deleted), and libinotifytools would then print an
    /// error on stderr: the kernel watch is removed directly and the
    /// library's entry is left to `stop()` (kernel wds are not reused soon).
    static func unwatch(_ wd: Int32, descriptor: Int32) {
        _ = inotify_rm_watch(descriptor, wd)
    }

    /// The directory `wd` watches, as the library last knew it.
    static func path(of wd: Int32) -> FilePath? {
        path(of: wd, reusing: nil)
    }

    /// `path(of:)`, giving back `cached` when the library's name for `wd`
    /// is that path: consecutive events mostly come from one directory,
    /// and building a `FilePath` (which normalizes it) costs more than
    /// comparing bytes.
    static func path(of wd: Int32, reusing cached: FilePath?) -> FilePath? {
        guard let name = inotifytools_filename_from_wd(wd) else { return nil }
        if let cached, cached.withBytes({ sameDirectory(name, $0) }) { return cached }
        // FilePath drops the trailing slash.
        return FilePath(platformString: name)
    }

    /// Whether the library's `name` (a directory, with its trailing slash)
    /// is `path`.
    private static func sameDirectory(_ name: UnsafePointer<CChar>, _ path: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = strlen(name)
        let slash = CChar(UInt8(ascii: "/"))
        let stored = length > 1 && name[length - 1] == slash ? length - 1 : length
        return stored == path.count && memcmp(name, path.baseAddress!, stored) == 0
    }

    /// Tells the library that directory `old` is now `new` (and so is
    /// everything below it), keeping later paths right after a rename.
    /// `inotifytools_replace_filename` re-sorts its tree while walking it and
    /// can miss entries, so every moved watch is then named explicitly.
    static func rename(_ old: FilePath, to new: FilePath, moved: [(wd: Int32, path: FilePath)]) {
        withDirectorySlash(old) { old in
            withDirectorySlash(new) { new in inotifytools_replace_filename(old, new) }
        }
        for (wd, path) in moved {
            withDirectorySlash(path) { inotifytools_set_filename_by_wd(wd, $0) }
        }
    }

    /// Calls `body` with `path` as the library stores a directory: with a
    /// trailing slash ("/" stays "/").
    private static func withDirectorySlash<Result>(_ path: FilePath, _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        var chars = path.withPlatformString { Array(UnsafeBufferPointer(start: $0, count: path.length)) }
        if chars != [CChar(UInt8(ascii: "/"))] { chars.append(CChar(UInt8(ascii: "/"))) }
        chars.append(0)
        return chars.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// Reads what the kernel has queued on `descriptor` (non-blocking) into
    /// `buffer` and returns it as records; empty when nothing is queued.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> [InotifyRecord] {
        var count = 0
        repeat {
            count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
        } while count < 0 && errno == EINTR
        guard count > 0 else { return [] }
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
        return records
    }

    /// How many watches this user may hold: `fs.inotify.max_user_watches`,
    /// or less when this user namespace sets a lower
    /// `/proc/sys/user/max_inotify_watches` (the kernel checks both). Read
    /// from `/proc`, so it needs no initialised library.
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

    /// Finds the library's private fd: watch a fresh directory, then look for
    /// the inotify fd whose fdinfo lists that directory's inode.
    private static func findDescriptor() -> Int32? {
        var template = Array("/tmp/rwatch-probe-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { return nil }
        let probe = FilePath(platformString: template)
        defer { rmdir(template) }
        var info = stat()
        let added = probe.withPlatformString { inotifytools_watch_file($0, Int32(bitPattern: InotifyRecord.watchMask)) }
        guard stat(template, &info) == 0, added != 0 else { return nil }
        defer { _ = probe.withPlatformString { inotifytools_remove_watch_by_filename($0) } }
        // fdinfo names the watched inode and its device in the kernel's encoding.
        let device = UInt64(info.st_dev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
        let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
        let inode = "ino:" + String(info.st_ino, radix: 16) + " sdev:" + String(major << 20 | minor, radix: 16) + " "
        guard let entries = FileSystem.entries("/proc/self/fd") else { return nil }
        for entry in entries {
            guard let fd = Int32(entry.name.matchingText) else { continue }
            var target = [CChar](repeating: 0, count: 64)
            let length = readlink("/proc/self/fd/\(fd)", &target, target.count - 1)
            guard length > 0 else { continue }
            let link = String(decoding: target[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard link.hasPrefix("anon_inode:inotify") else { continue }
            if let fdinfo = FileSystem.read(FilePath("/proc/self/fdinfo/\(fd)")), fdinfo.contains(inode) {
                return fd
            }
        }
        return nil
    }
}
