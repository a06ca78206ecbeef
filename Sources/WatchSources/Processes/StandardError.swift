import Synchronization

/// Where rwatch's own standard error really goes. Normally descriptor 2.
/// A recipe run by a hosting rwatch gets a pipe on 2 instead (so that
/// the host can read a crash report, which the Swift runtime always
/// writes to 2) and the real standard error on another descriptor: status
/// lines, and commands that do not capture their output, use this one, so
/// that they still see the terminal (colours, `isatty`).
public enum StandardError {
    private static let current = Atomic<Int32>(2)

    /// The descriptor to write error output to, and to hand commands as
    /// their descriptor 2.
    public static var descriptor: Int32 { current.load(ordering: .acquiring) }

    /// Sends error output to `fd` from now on. Call before anything is
    /// written or spawned.
    public static func use(_ fd: Int32) {
        current.store(fd, ordering: .releasing)
    }
}
