import Glibc
import SystemPackage

/// The file-system calls the watcher needs, on paths as bytes; rwatch's
/// command line adds its own in an extension.
package enum FileSystem {
    /// An entry of a directory listing.
    package struct Entry {
        package var name: FilePath.Component
        package var isDirectory: Bool
    }

    package enum Kind { case missing, directory, other }

    /// What `path` is, without following a final symlink except for the
    /// watched roots (`follow: true`).
    package static func kind(_ path: FilePath, follow: Bool = false) -> Kind {
        var info = stat()
        let result = path.withPlatformString { follow ? stat($0, &info) : lstat($0, &info) }
        guard result == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .directory : .other
    }

    /// Whether `path` was made whole at once, so that no write will follow
    /// its creation: anything but a regular file (a symbolic link, FIFO,
    /// socket or device node), or a regular file with more than one link
    /// (`ln`). False when it is gone.
    static func isMadeWhole(_ path: FilePath) -> Bool {
        var info = stat()
        guard path.withPlatformString({ lstat($0, &info) }) == 0 else { return false }
        return (info.st_mode & S_IFMT) != S_IFREG || info.st_nlink > 1
    }

    /// Seconds since the epoch of the later of `path`'s mtime and ctime, or nil.
    static func changeTime(_ path: FilePath) -> Double? {
        var info = stat()
        guard path.withPlatformString({ lstat($0, &info) }) == 0 else { return nil }
        let m = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        let c = Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9
        return max(m, c)
    }

    /// The entries of `directory` (without `.` and `..`); symlinks count as
    /// files. Nil when it cannot be opened. Names are kept as the bytes
    /// `readdir` gives.
    package static func entries(_ directory: FilePath) -> [Entry]? {
        var result: [Entry] = []
        let listed = forEachEntry(in: directory) { name, isDirectory in
            if let component = name.withMemoryRebound(to: CChar.self, { FilePath.Component(platformString: $0.baseAddress!) }) {
                result.append(Entry(name: component, isDirectory: isDirectory))
            }
        }
        return listed ? result : nil
    }

    /// Calls `body` with the name (NUL-terminated where it lies, valid
    /// only during the call) and type of each entry of `directory`,
    /// without `.` and `..`; symlinks count as files. False when it cannot
    /// be opened. Builds nothing per entry: a caller that wants few of the
    /// names pays for those only.
    package static func forEachEntry(in directory: FilePath, _ body: (UnsafeBufferPointer<UInt8>, _ isDirectory: Bool) -> Void) -> Bool {
        let descriptor = directory.withPlatformString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { return false }
        return forEachEntry(of: descriptor) { name, type, _ in
            var isDirectory = type == UInt8(DT_DIR)
            if type == UInt8(DT_UNKNOWN) {
                var info = stat()
                isDirectory = name.withMemoryRebound(to: CChar.self) { fstatat(descriptor, $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW) } == 0
                    && info.st_mode & S_IFMT == S_IFDIR
            }
            body(name, isDirectory)
        }
    }

    /// Calls `body` with each name in `directory` as `readdir` gives it
    /// (bytes without the NUL, which follows them in the buffer; without
    /// `.` and `..`) and its `d_type`. False when the directory cannot be opened.
    package static func forEachName(in directory: FilePath, _ body: (UnsafeBufferPointer<UInt8>, UInt8) -> Void) -> Bool {
        let descriptor = directory.withPlatformString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { return false }
        return forEachEntry(of: descriptor) { name, type, _ in body(name, type) }
    }

    /// Reads the directory open at `descriptor` (which it takes over and
    /// closes; it stays open while `body` runs, for `fstatat` relative to
    /// it) and calls `body` with each entry's name (NUL-terminated where
    /// it lies, valid only during the call), `d_type` and inode, without
    /// `.` and `..`. False when the descriptor is not a readable directory.
    /// The one `readdir` loop.
    package static func forEachEntry(of descriptor: Int32, _ body: (UnsafeBufferPointer<UInt8>, _ type: UInt8, _ inode: UInt64) -> Void) -> Bool {
        guard let stream = fdopendir(descriptor) else {
            close(descriptor)
            return false
        }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let start = UnsafeRawPointer(entry) + nameOffset
            let name = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: strlen(start.assumingMemoryBound(to: CChar.self)))
            if name.count <= 2, name.allSatisfy({ $0 == UInt8(ascii: ".") }) { continue }
            body(name, entry.pointee.d_type, UInt64(entry.pointee.d_ino))
        }
        return true
    }

    /// Where `d_name` sits in a `dirent`.
    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    /// The text of a small regular file (a `/proc` entry, an ignore
    /// file: what it holds is decoded leniently), or nil.
    static func read(_ path: FilePath, limit: Int = 1 << 20) -> String? {
        readBytes(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of a small regular file, or nil.
    static func readBytes(_ path: FilePath, limit: Int = 1 << 22) -> [UInt8]? {
        guard case .contents(let bytes) = readFile(path, limit: limit) else { return nil }
        return bytes
    }

    /// `path` with every symbolic link resolved (`realpath(3)`).
    static func realPath(_ path: FilePath) -> FilePath? {
        guard let resolved = path.withPlatformString({ realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return FilePath(cString: resolved)
    }

    /// `directory/name`.
    static func join(_ directory: FilePath, _ name: FilePath.Component) -> FilePath {
        directory.appending(name)
    }

    /// The parent directory of an absolute, normalized path ("/" for "/").
    static func parent(_ path: FilePath) -> FilePath {
        path.removingLastComponent()
    }

    /// `path` made absolute against the working directory, with `.`, `..`,
    /// repeated and trailing slashes removed (symlinks are kept as named).
    package static func absolute(_ path: FilePath) -> FilePath {
        (path.isAbsolute ? path : currentDirectory().pushing(path)).lexicallyNormalized()
    }

    /// The working directory ("/" if it cannot be told).
    static func currentDirectory() -> FilePath {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        return buffer.withUnsafeMutableBufferPointer { pointer in
            getcwd(pointer.baseAddress, pointer.count).map { FilePath(platformString: $0) }
        } ?? FilePath("/")
    }

    /// When `path` (not followed if a link) was last modified, in
    /// nanoseconds since the epoch; nil when it is not there.
    package static func modificationTime(_ path: FilePath) -> Int64? {
        var info = stat()
        guard path.withPlatformString({ lstat($0, &info) }) == 0 else { return nil }
        return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    /// The wall clock now, in nanoseconds since the epoch (what file times use).
    package static func wallClock() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// `path` relative to `root` (empty for the root itself), or nil when outside it.
    package static func relative(_ path: FilePath, to root: FilePath) -> FilePath? {
        relativeBytes(path, to: root) { $0.map { FilePath(bytes: $0) } }
    }

    /// `relative(_:to:)` as text for matching globs and ignore rules
    /// (`matchingText`): on every event, so without building a path.
    static func relativeText(_ path: FilePath, to root: FilePath) -> String? {
        relativeBytes(path, to: root) { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Calls `body` with the bytes of `path` below `root`, or nil when
    /// outside it. Both are absolute and normalized (no `.`, `..`, repeated
    /// or trailing slash), so a byte prefix ending at a `/` is a component
    /// prefix.
    private static func relativeBytes<Result>(_ path: FilePath, to root: FilePath, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        path.withBytes { path in
            root.withBytes { root in
                let slash = UInt8(ascii: "/")
                guard path.count >= root.count, memcmp(path.baseAddress!, root.baseAddress!, root.count) == 0 else { return body(nil) }
                if path.count == root.count { return body(UnsafeBufferPointer(rebasing: path[path.count...])) }
                if root.count == 1, root[0] == slash { return body(UnsafeBufferPointer(rebasing: path[1...])) }
                guard path[root.count] == slash else { return body(nil) }
                return body(UnsafeBufferPointer(rebasing: path[(root.count + 1)...]))
            }
        }
    }
}
