internal import CInotifyTools
import Glibc
import SystemPackage

/// The only code that calls libinotifytools. The library keeps one static
/// inotify fd, one static event buffer and its wd↔path tables, and is not
/// thread-safe: everything here runs on `InotifyReader`'s thread.
///
/// Directory paths go in and come out without a trailing slash; the library
/// stores directories with one. Paths cross as C strings both ways and are
/// never decoded: a name need not be UTF-8.
enum InotifyLibrary {
    /// Starts libinotifytools. Returns the inotify fd it reads from (found
    /// through `/proc/self/fdinfo`, so the reader can poll it together with
    /// its wake-up fd), or nil when it could not be identified.
    static func start() throws(FileWatchError) -> Int32? {
        guard inotifytools_initialize() != 0 else {
            throw FileWatchError(.inotifyUnavailable(errno: Int32(inotifytools_error())))
        }
        return findDescriptor()
    }

    /// Removes every watch and closes the library's fd.
    static func stop() {
        inotifytools_cleanup()
    }

    /// What adding a watch gave.
    enum Outcome {
        case watching(wd: Int32)
        case failed(errno: Int32)
    }

    /// Watches directory `path`. With the library's fd known, the wd comes
    /// from the kernel (adding the same watch again returns it); the
    /// library's by-name table can hold stale names of deleted directories.
    static func watch(_ path: FilePath, descriptor: Int32?) -> Outcome {
        let mask = InotifyRecord.watchMask
        let added = path.withPlatformString { inotifytools_watch_file($0, Int32(bitPattern: mask)) }
        guard added != 0 else { return .failed(errno: Int32(inotifytools_error())) }
        let wd = descriptor.map { fd in path.withPlatformString { inotify_add_watch(fd, $0, mask) } }
            ?? withDirectorySlash(path) { inotifytools_wd_from_filename($0) }
        return wd > 0 ? .watching(wd: wd) : .failed(errno: ENOENT)
    }

    /// Removes the watch `wd`. The kernel may have dropped it already (its
    /// directory was just deleted); libinotifytools then prints an error on
    /// stderr, so with its fd known the kernel watch is removed directly and
    /// the library's entry is left to `stop()` (kernel wds are not reused).
    static func unwatch(_ wd: Int32, descriptor: Int32?) {
        if let descriptor {
            _ = inotify_rm_watch(descriptor, wd)
        } else {
            _ = inotifytools_remove_watch_by_wd(wd)
        }
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

    /// The next event already read or readable now, without blocking; nil when none.
    static func next() -> InotifyRecord? {
        guard let event = inotifytools_next_events(0, 1) else { return nil }
        let header = event.pointee
        var name: FilePath.Component? = nil
        if header.len > 0 {
            let raw = UnsafeRawPointer(event) + MemoryLayout<inotify_event>.size
            name = FilePath.Component(platformString: raw.assumingMemoryBound(to: CChar.self))
        }
        return InotifyRecord(wd: header.wd, mask: header.mask, cookie: header.cookie, name: name)
    }

    /// `fs.inotify.max_user_watches`.
    static var maxUserWatches: Int {
        Int(inotifytools_get_max_user_watches())
    }

    /// Finds the library's private fd: watch a fresh directory, then look for
    /// the inotify fd whose fdinfo lists that directory's inode.
    private static func findDescriptor() -> Int32? {
        var template = Array("/tmp/rwatch-probe-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { return nil }
        let probe = FilePath(platformString: template)
        defer { rmdir(template) }
        var info = stat()
        guard stat(template, &info) == 0, case .watching(let wd) = watch(probe, descriptor: nil) else { return nil }
        defer { unwatch(wd, descriptor: nil) }
        let inode = "ino:" + String(info.st_ino, radix: 16) + " "
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
