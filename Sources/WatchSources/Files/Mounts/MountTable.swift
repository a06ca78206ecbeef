import Glibc
import SystemPackage

/// The mounts this process sees, read from `/proc/self/mountinfo`, and
/// which of them inotify cannot watch: file systems whose files change
/// behind the kernel's back (on a server, a host, another machine), so
/// that a change made there never produces an inotify event.
package struct MountTable: Sendable, Equatable {
    /// One line of `mountinfo`.
    struct Mount: Sendable, Hashable {
        /// Where it is mounted, as bytes (octal escapes decoded).
        var mountPoint: [UInt8]
        /// `st_dev` of every file on it.
        var device: UInt64
        /// `nfs4`, `fuse.sshfs`, `ext4`, …
        var fsType: String

        /// Whether this mount is polled under `WatchBackend.auto`.
        var needsPolling: Bool { MountTable.needsPolling(fsType: fsType) }
    }

    /// In mountinfo's order: a later mount on the same point hides an earlier one.
    private(set) var mounts: [Mount]

    /// The file system types polled under `.auto`: network and FUSE file
    /// systems, whose files change on a server or a host without this
    /// kernel's inotify hearing of it. (`fuseblk`, FUSE over a local disk
    /// such as ntfs-3g, is not among them: every change goes through this
    /// kernel.)
    static let polledTypes: Set<String> = [
        "nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "virtiofs", "fuse", "vboxsf", "vmhgfs",
        "drvfs", "ceph", "glusterfs", "afs", "lustre",
    ]

    /// Local file systems whose directory times are set by this kernel at
    /// every change of names, to the clock tick: a poller may trust an
    /// unchanged directory mtime there.
    static let localTimeTypes: Set<String> = [
        "ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "f2fs", "jfs", "reiserfs", "zfs", "bcachefs", "nilfs2",
    ]

    /// Whether directory times on a mount of type `fsType` can be trusted.
    static func hasLocalTimes(fsType: String) -> Bool {
        localTimeTypes.contains(fsType)
    }

    /// Whether a mount of type `fsType` is polled under `.auto`.
    static func needsPolling(fsType: String) -> Bool {
        polledTypes.contains(fsType) || fsType.hasPrefix("fuse.")
    }

    /// The table as it is now; empty when `/proc` is not mounted.
    static func current() -> MountTable {
        MountTable(parsing: FileSystem.readBytes(FilePath("/proc/self/mountinfo")) ?? [])
    }

    /// Parses mountinfo text (proc(5)): `ID PARENT MAJ:MIN ROOT POINT OPTIONS
    /// [OPTIONAL…] - TYPE SOURCE SUPEROPTIONS`. Malformed lines are skipped.
    init(parsing text: [UInt8]) {
        var mounts: [Mount] = []
        for line in text.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "))
            guard fields.count >= 7, let dash = fields.firstIndex(where: { $0.elementsEqual([UInt8(ascii: "-")]) }),
                  dash >= 6, dash + 1 < fields.count
            else { continue }
            let numbers = fields[2].split(separator: UInt8(ascii: ":"))
            guard numbers.count == 2, let major = UInt64(String(decoding: numbers[0], as: UTF8.self)),
                  let minor = UInt64(String(decoding: numbers[1], as: UTF8.self))
            else { continue }
            mounts.append(Mount(
                mountPoint: MountTable.unescape(fields[4]),
                device: MountTable.device(major: major, minor: minor),
                fsType: String(decoding: MountTable.unescape(fields[dash + 1]), as: UTF8.self)
            ))
        }
        self.mounts = mounts
    }

    init(mounts: [Mount]) {
        self.mounts = mounts
    }

    /// The mount that holds files of device `device`, or nil. Bind mounts
    /// share a device, and with it their type.
    func mount(device: UInt64) -> Mount? {
        mounts.last { $0.device == device }
    }

    /// The mount `path` lies on (after resolving symbolic links), or nil.
    func mount(of path: FilePath) -> Mount? {
        var info = stat()
        guard path.withPlatformString({ stat($0, &info) }) == 0 else { return nil }
        return mount(device: UInt64(info.st_dev))
    }

    /// The type of the file system `path` lies on (`ext4`, `nfs4`,
    /// `fuse.sshfs`), from `/proc/self/mountinfo`; nil when unknown.
    package static func fileSystemType(of path: FilePath) -> String? {
        current().mount(of: path)?.fsType
    }

    /// The mount points strictly below `root` (a path as the user named
    /// it), keyed by their path under that name: `/work/link/nfs` when
    /// `/work/link` leads to `/srv` and `/srv/nfs` is mounted. Only the
    /// mounts visible there count (a mount hidden by a later mount over a
    /// directory above it is left out).
    func mountPoints(under root: FilePath) -> [FilePath: Mount] {
        guard let real = FileSystem.realPath(root)?.bytes else { return [:] }
        let prefix = real == [UInt8(ascii: "/")] ? real : real + [UInt8(ascii: "/")]
        var found: [FilePath: Mount] = [:]
        for mount in mounts where mount.mountPoint.count > prefix.count && mount.mountPoint.starts(with: prefix) {
            let named = root.pushing(FilePath(bytes: mount.mountPoint[prefix.count...]))
            // The last line for a point wins, and it must be what is there now.
            var info = stat()
            guard named.withPlatformString({ lstat($0, &info) }) == 0, UInt64(info.st_dev) == mount.device else {
                found[named] = nil
                continue
            }
            found[named] = mount
        }
        return found
    }

    /// `dev_t` as glibc's `makedev` builds it.
    static func device(major: UInt64, minor: UInt64) -> UInt64 {
        ((major & 0xffff_f000) << 32) | ((major & 0xfff) << 8) | ((minor & 0xffff_ff00) << 12) | (minor & 0xff)
    }

    /// Decodes mountinfo's `\ooo` escapes (space, tab, newline, backslash).
    static func unescape(_ field: ArraySlice<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(field.count)
        var index = field.startIndex
        while index < field.endIndex {
            let byte = field[index]
            if byte == UInt8(ascii: "\\"), field.distance(from: index, to: field.endIndex) >= 4 {
                let digits = field[(index + 1)...(index + 3)]
                if digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "7") }) {
                    bytes.append(digits.reduce(0) { $0 &* 8 &+ ($1 - UInt8(ascii: "0")) })
                    index += 4
                    continue
                }
            }
            bytes.append(byte)
            index += 1
        }
        return bytes
    }
}
