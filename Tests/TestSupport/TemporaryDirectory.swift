#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under /tmp for one test, removed with everything in it
/// by `remove()`. Removal walks the tree itself: no shell, no `rm -rf` string.
public struct TemporaryDirectory: Sendable {
    /// The directory's absolute path.
    public let path: String

    /// Makes `/tmp/PREFIX-XXXXXX`.
    public init(prefix: String = "rwatch-test") {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed: errno \(errno)") }
        path = String(cString: made)
    }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// The contents of `name` inside the directory; empty when it is missing.
    public func read(_ name: String) -> String { Self.read(file(name)) }

    /// Replaces the contents of `name` inside the directory with `text`.
    public func write(_ name: String, _ text: String) {
        withoutSpawns {
            guard let handle = fopen(file(name), "we") else { fatalError("cannot write \(file(name))") }
            fputs(text, handle)
            fclose(handle)
        }
    }

    /// Adds `text` to the end of `name` inside the directory.
    public func append(_ name: String, _ text: String) {
        withoutSpawns {
            guard let handle = fopen(file(name), "ae") else { fatalError("cannot append to \(file(name))") }
            fputs(text, handle)
            fclose(handle)
        }
    }

    /// Removes the directory and everything in it.
    public func remove() { Self.removeTree(path) }

    /// The contents of the file at `path`; empty when it is missing.
    public static func read(_ path: String) -> String {
        guard let handle = fopen(path, "r") else { return "" }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, handle)
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Removes `path`, and everything below it when it is a directory
    /// (without following symbolic links).
    public static func removeTree(_ path: String) { removeTree(bytes: Array(path.utf8)) }

    /// `removeTree` on a path given as bytes: names that are not UTF-8 go too.
    public static func removeTree(bytes path: [UInt8]) {
        let cPath = path.map { CChar(bitPattern: $0) } + [0]
        var info = stat()
        guard lstat(cPath, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR, let handle = opendir(cPath) {
            var names: [[UInt8]] = []
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
                if name != Array(".".utf8) && name != Array("..".utf8) { names.append(name) }
            }
            closedir(handle)
            for name in names { removeTree(bytes: path + [UInt8(ascii: "/")] + name) }
            rmdir(cPath)
        } else {
            unlink(cPath)
        }
    }

    /// The contents of the file at `path` as bytes; empty when it is missing.
    public static func readBytes(_ path: String) -> [UInt8] {
        guard let handle = fopen(path, "r") else { return [] }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, handle)
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }

    /// The path of `name` (bytes, which need not be UTF-8) inside the directory.
    public func file(bytes name: [UInt8]) -> [UInt8] { Array(path.utf8) + [UInt8(ascii: "/")] + name }

    /// Replaces the contents of the file at `path` (bytes) with `text`.
    public static func write(bytes path: [UInt8], _ text: String) {
        let cPath = path.map { CChar(bitPattern: $0) } + [0]
        let fd = open(cPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { fatalError("cannot write \(String(decoding: path, as: UTF8.self)): errno \(errno)") }
        _ = Array(text.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// Makes the directory `path` (bytes).
    public static func makeDirectory(bytes path: [UInt8]) {
        let cPath = path.map { CChar(bitPattern: $0) } + [0]
        guard mkdir(cPath, 0o755) == 0 else { fatalError("cannot make \(String(decoding: path, as: UTF8.self)): errno \(errno)") }
    }
}
