import Glibc
import Synchronization

/// Sync cookies, named as watchman names them: `.watchman-cookie-HOST-PID-N`
/// (`docs/cookies.md`). A query with `sync_timeout` writes one into the
/// root (into its version-control directory when it has one, so that a
/// VCS does not see it) and answers once the watcher has reported it:
/// every change made before the query began was read before the cookie.
/// Cookies of this process are never counted as files; those of other
/// processes (another watchman, another root) are.
enum Cookies {
    /// `.watchman-cookie-HOST-PID-`.
    static let prefix: [UInt8] = Array(".watchman-cookie-\(hostName)-\(getpid())-".utf8)

    private static let serials = Atomic<UInt64>(1)

    /// A cookie name not used before by this process.
    static func nextName() -> (serial: UInt64, name: [UInt8]) {
        let serial = serials.wrappingAdd(1, ordering: .relaxed).oldValue
        return (serial, prefix + Array(String(serial).utf8))
    }

    /// The serial of one of this process's cookie names.
    static func serial(_ name: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard name.count > prefix.count, name.starts(with: prefix) else { return nil }
        var value: UInt64 = 0
        for byte in name[prefix.count...] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Creates the cookie `name` in `directory` (absolute); the errno on
    /// failure. A cookie is a symbolic link (to nothing in particular):
    /// made whole by one system call, with no descriptor opened and closed,
    /// it costs a fraction of a regular file's creation (which some
    /// systems pay for dearly: open-time security hooks, journalling). A
    /// file system without symlinks (SMB without extensions) gets a file.
    static func create(_ name: [UInt8], in directory: [UInt8]) -> Int32? {
        let path = cPath(directory + [UInt8(ascii: "/")] + name)
        if symlink("rwatch-sync-cookie", path) == 0 { return nil }
        guard errno == EPERM || errno == EOPNOTSUPP || errno == ENOSYS else { return errno }
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return errno }
        close(fd)
        return nil
    }

    static func remove(_ name: [UInt8], in directory: [UInt8]) {
        unlink(cPath(directory + [UInt8(ascii: "/")] + name))
    }

    static func cPath(_ bytes: [UInt8]) -> [CChar] {
        bytes.map { CChar(bitPattern: $0) } + [0]
    }
}
