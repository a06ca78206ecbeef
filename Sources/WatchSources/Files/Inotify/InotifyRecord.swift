import SystemPackage

/// One inotify event, copied out of the buffer it was read into (the next
/// read overwrites that buffer).
struct InotifyRecord: Sendable {
    var wd: Int32
    var mask: UInt32
    var cookie: UInt32
    /// The entry's name inside the watched directory, as the kernel gave
    /// its bytes; nil for events on the watched directory itself.
    var name: FilePath.Component?

    func has(_ bits: UInt32) -> Bool { mask & bits != 0 }

    // The kernel ABI's bits (linux/inotify.h), typed once here.
    static let modify: UInt32 = 0x0000_0002
    static let attrib: UInt32 = 0x0000_0004
    static let closeWrite: UInt32 = 0x0000_0008
    static let movedFrom: UInt32 = 0x0000_0040
    static let movedTo: UInt32 = 0x0000_0080
    static let create: UInt32 = 0x0000_0100
    static let delete: UInt32 = 0x0000_0200
    static let deleteSelf: UInt32 = 0x0000_0400
    static let moveSelf: UInt32 = 0x0000_0800
    static let unmount: UInt32 = 0x0000_2000
    static let queueOverflow: UInt32 = 0x0000_4000
    static let ignored: UInt32 = 0x0000_8000
    static let onlyDirectory: UInt32 = 0x0100_0000
    static let excludeUnlinked: UInt32 = 0x0400_0000
    static let isDirectory: UInt32 = 0x4000_0000

    /// What rwatch asks the kernel for on every watched directory.
    static let watchMask: UInt32 = modify | attrib | closeWrite | movedFrom | movedTo | create | delete
        | deleteSelf | moveSelf | onlyDirectory | excludeUnlinked
}
