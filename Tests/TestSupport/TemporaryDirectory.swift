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
        guard let handle = fopen(file(name), "w") else { fatalError("cannot write \(file(name))") }
        fputs(text, handle)
        fclose(handle)
    }

    /// Adds `text` to the end of `name` inside the directory.
    public func append(_ name: String, _ text: String) {
        guard let handle = fopen(file(name), "a") else { fatalError("cannot append to \(file(name))") }
        fputs(text, handle)
        fclose(handle)
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
    public static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR, let handle = opendir(path) {
            var names: [String] = []
            while let entry = readdir(handle) {
                let name = withUnsafePointer(to: entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(handle)
            for name in names { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
