import CGlibcShims
import Glibc
import SystemPackage

/// A POSIX access ACL written straight as the kernel's extended attribute
/// `system.posix_acl_access` (no libacl): a 4-byte version (2), then one
/// 8-byte entry per grant (tag, permissions, id; little-endian), sorted by
/// tag then id. Used to let one more group (`secondary_sock_group`) reach
/// the service's socket without widening its group or others bits.
enum PosixACL {
    private static let version: UInt32 = 2
    private static let userObject: UInt16 = 0x01
    private static let groupObject: UInt16 = 0x04
    private static let namedGroup: UInt16 = 0x08
    private static let mask: UInt16 = 0x10
    private static let other: UInt16 = 0x20
    private static let noID = UInt32.max

    /// The attribute's bytes for a file of `mode` with `group` also given
    /// `permissions` (rwx bits, 0...7). The mask is the union of the owning
    /// group's and the named group's rights, as `setfacl` computes it.
    static func encode(mode: mode_t, group: gid_t, permissions: UInt16) -> [UInt8] {
        let owner = UInt16((mode >> 6) & 7), owningGroup = UInt16((mode >> 3) & 7), others = UInt16(mode & 7)
        let entries: [(UInt16, UInt16, UInt32)] = [
            (userObject, owner, noID), (groupObject, owningGroup, noID), (namedGroup, permissions, group),
            (mask, owningGroup | permissions, noID), (other, others, noID),
        ]
        var bytes: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        append(version)
        for (tag, perm, id) in entries {
            append(tag)
            append(perm)
            append(id)
        }
        return bytes
    }

    /// Sets the ACL on the open file `fd` (of `mode`): 0, or -1 with errno.
    static func grant(fd: Int32, mode: mode_t, group: gid_t, permissions: UInt16) -> Int32 {
        let value = encode(mode: mode, group: group, permissions: permissions)
        return value.withUnsafeBytes { fsetxattr(fd, "system.posix_acl_access", $0.baseAddress, $0.count, 0) }
    }

    /// Sets the ACL on the file at `path` (a socket cannot be opened):
    /// 0, or -1 with errno.
    static func grant(path: FilePath, mode: mode_t, group: gid_t, permissions: UInt16) -> Int32 {
        let value = encode(mode: mode, group: group, permissions: permissions)
        return path.withPlatformString { name in
            value.withUnsafeBytes { setxattr(name, "system.posix_acl_access", $0.baseAddress, $0.count, 0) }
        }
    }
}
