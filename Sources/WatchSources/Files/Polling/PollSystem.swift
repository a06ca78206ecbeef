import Glibc

/// What `PollMachine` asks of the file system while it scans: the
/// answers its decisions depend on, asked in the order they must be (an
/// ignored name is never `stat`-ed, an unchanged directory's listing is
/// not read, a name is `stat`-ed relative to its open directory). The poll
/// thread's `LivePollSystem` asks the kernel; tests give the machine an
/// in-memory tree. Only reads: the machine changes nothing.
protocol PollSystem {
    /// Opens the directory at `path` (absolute, NUL-terminated) to list
    /// and `stat` its names; -1 when it cannot be (gone, not a directory,
    /// unreadable). A final symbolic link is followed only with `following`.
    func openDirectory(_ path: [UInt8], following: Bool) -> Int32
    /// Closes a directory opened and not listed.
    func closeDirectory(_ descriptor: Int32)
    /// Calls `body` with each entry of the directory open at `descriptor`
    /// (name, `d_type`, `d_ino`), then closes it; false when it could not
    /// be read. `body` may `stat` names relative to `descriptor` meanwhile.
    func list(_ descriptor: Int32, _ body: (UnsafeBufferPointer<UInt8>, _ type: UInt8, _ inode: UInt64) -> Void) -> Bool
    /// `lstat` of `name` (NUL-terminated) in the directory open at `descriptor`.
    func status(at descriptor: Int32, _ name: UnsafePointer<CChar>, _ info: inout stat) -> Bool
    /// `stat` (with `following`) or `lstat` of `path` (absolute, NUL-terminated).
    func status(of path: [UInt8], following: Bool, _ info: inout stat) -> Bool
    /// Whether directory times on `device` are this kernel's own (a local
    /// file system), so that an unchanged mtime means unchanged names.
    func hasLocalTimes(device: UInt64) -> Bool
}

/// The poll thread's `PollSystem`: the kernel's answers, nothing kept.
struct LivePollSystem: PollSystem {
    func openDirectory(_ path: [UInt8], following: Bool) -> Int32 {
        path.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                open($0.baseAddress!, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (following ? 0 : O_NOFOLLOW))
            }
        }
    }

    func closeDirectory(_ descriptor: Int32) { close(descriptor) }

    func list(_ descriptor: Int32, _ body: (UnsafeBufferPointer<UInt8>, _ type: UInt8, _ inode: UInt64) -> Void) -> Bool {
        FileSystem.forEachEntry(of: descriptor, body)
    }

    func status(at descriptor: Int32, _ name: UnsafePointer<CChar>, _ info: inout stat) -> Bool {
        fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    func status(of path: [UInt8], following: Bool, _ info: inout stat) -> Bool {
        path.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                (following ? stat($0.baseAddress!, &info) : lstat($0.baseAddress!, &info)) == 0
            }
        }
    }

    func hasLocalTimes(device: UInt64) -> Bool {
        MountTable.current().mount(device: device).map { MountTable.hasLocalTimes(fsType: $0.fsType) } ?? false
    }
}
