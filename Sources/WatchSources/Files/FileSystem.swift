import Glibc

/// The few file-system calls the watcher needs, on plain paths.
enum FileSystem {
    /// An entry of a directory listing.
    struct Entry {
        var name: String
        var isDirectory: Bool
    }

    enum Kind { case missing, directory, other }

    /// What `path` is, without following a final symlink except for the
    /// watched roots (`follow: true`).
    static func kind(_ path: String, follow: Bool = false) -> Kind {
        var info = stat()
        let result = follow ? stat(path, &info) : lstat(path, &info)
        guard result == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .directory : .other
    }

    /// Seconds since the epoch of the later of `path`'s mtime and ctime, or nil.
    static func changeTime(_ path: String) -> Double? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let m = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        let c = Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9
        return max(m, c)
    }

    /// The wall clock, in the units of `changeTime`.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The entries of `directory` (without `.` and `..`); symlinks count as
    /// files. Nil when it cannot be opened.
    static func entries(_ directory: String) -> [Entry]? {
        guard let handle = opendir(directory) else { return nil }
        defer { closedir(handle) }
        var result: [Entry] = []
        while let entry = readdir(handle) {
            let (name, type) = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) {
                    (String(cString: $0), entry.pointee.d_type)
                }
            }
            if name == "." || name == ".." { continue }
            var isDirectory = type == UInt8(DT_DIR)
            if type == UInt8(DT_UNKNOWN) {
                isDirectory = kind(join(directory, name)) == .directory
            }
            result.append(Entry(name: name, isDirectory: isDirectory))
        }
        return result
    }

    /// The contents of a small text file, or nil.
    static func read(_ path: String, limit: Int = 1 << 20) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The contents of a small file as bytes, or nil.
    static func readBytes(_ path: String, limit: Int = 1 << 22) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    /// `path` with every symbolic link resolved (`realpath(3)`), as bytes.
    static func realPath(_ path: String) -> [UInt8]? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
    }

    /// `directory/name`, without doubling the root's slash.
    static func join(_ directory: String, _ name: String) -> String {
        directory == "/" ? "/" + name : directory + "/" + name
    }

    /// The parent directory of an absolute, normalized path.
    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of a path.
    static func name(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// `path` made absolute against the working directory, with `.`, `..`,
    /// repeated and trailing slashes removed (symlinks are kept as named).
    static func absolute(_ path: String) -> String {
        var full = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let cwd = buffer.withUnsafeMutableBufferPointer { pointer in
                getcwd(pointer.baseAddress, pointer.count).map { String(cString: $0) }
            } ?? "/"
            full = cwd + "/" + path
        }
        var parts: [Substring] = []
        for part in full.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                _ = parts.popLast()
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` relative to `root` ("" for the root itself), or nil when outside it.
    static func relative(_ path: String, to root: String) -> String? {
        if path == root { return "" }
        if root == "/" { return path.hasPrefix("/") ? String(path.dropFirst()) : nil }
        guard path.hasPrefix(root), path.utf8.count > root.utf8.count,
              path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: root.utf8.count)] == UInt8(ascii: "/")
        else { return nil }
        return String(Substring(path.utf8.dropFirst(root.utf8.count + 1)))
    }
}
