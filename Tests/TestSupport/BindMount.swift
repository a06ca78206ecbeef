#if canImport(Glibc)
import Glibc
#endif

/// A real FUSE mount: `bindfs SOURCE VIEW` shows SOURCE's files at VIEW.
/// A change made in SOURCE reaches VIEW without passing through VIEW's
/// file system, so inotify on VIEW never hears of it: the case of NFS,
/// SMB, 9p, virtiofs and sshfs, on one machine.
///
/// Use with `defer { mount.unmount() }` right after making it, so that
/// every way out of the test (a failed expectation, a thrown `#require`)
/// unmounts; `unmount()` may be called more than once.
public final class BindMount: @unchecked Sendable {
    // Safety: used by the one test that made it.
    public let source: String
    public let view: String
    private var mounted = false

    public enum Failure: Error, CustomStringConvertible {
        case noFuseDevice
        case noBindfs
        case mountFailed(Int32)

        public var description: String {
            switch self {
            case .noFuseDevice:
                return "/dev/fuse is missing: the FUSE tests need it (the CI machines have it; a container needs --device /dev/fuse)"
            case .noBindfs:
                return "bindfs is not installed: `make deps` installs it (Debian package bindfs)"
            case .mountFailed(let status):
                return "bindfs failed (status \(status))"
            }
        }
    }

    /// Mounts `source` at `view` (both existing directories). Throws, with
    /// a message that says what is missing, when FUSE or bindfs is not there.
    public init(source: String, view: String) throws {
        self.source = source
        self.view = view
        guard access("/dev/fuse", F_OK) == 0 else { throw Failure.noFuseDevice }
        guard let bindfs = BindMount.find("bindfs") else { throw Failure.noBindfs }
        let status = BindMount.run([bindfs, source, view])
        guard status == 0 else { throw Failure.mountFailed(status) }
        mounted = true
        precondition(eventually { BindMount.isMountPoint(view) }, "bindfs returned, but \(view) is not mounted")
    }

    /// Unmounts, and waits until the mount is gone.
    public func unmount() {
        guard mounted else { return }
        mounted = false
        if let fusermount = BindMount.find("fusermount") ?? BindMount.find("fusermount3"), BindMount.run([fusermount, "-u", view]) == 0 {
        } else if let umount = BindMount.find("umount") {
            _ = BindMount.run([umount, "-l", view])
        }
        _ = eventually { !BindMount.isMountPoint(view) }
    }

    deinit { unmount() }

    /// Whether `/proc/self/mountinfo` lists `path` as a mount point (for
    /// the plain paths of temporary directories: no escapes to decode).
    public static func isMountPoint(_ path: String) -> Bool {
        TemporaryDirectory.read("/proc/self/mountinfo").split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 4 && fields[4] == path
        }
    }

    /// `name` on the PATH (or in /usr/bin, /bin), or nil.
    public static func find(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? ""
        for directory in path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin", "/usr/sbin", "/sbin"] {
            let candidate = directory + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `argv` to its end; its exit status (-1 when it could not start).
    public static func run(_ argv: [String]) -> Int32 {
        var pid: pid_t = 0
        let arguments = argv.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        guard withoutSpawns({ posix_spawn(&pid, argv[0], nil, nil, arguments, environ) }) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
