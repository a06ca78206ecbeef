#if canImport(Glibc)
import Glibc
#endif

/// glibc functions that Swift's Glibc module hides (declared only under
/// `_GNU_SOURCE`), looked up once at run time with `dlsym`.
enum GNUFunctions {
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias Memmem = @convention(c) (UnsafeRawPointer, Int, UnsafeRawPointer, Int) -> UnsafeMutableRawPointer?
    typealias Memrchr = @convention(c) (UnsafeRawPointer, Int32, Int) -> UnsafeMutableRawPointer?

    /// `pipe2(2)`, glibc 2.9+.
    static let pipe2: Pipe2? = lookup("pipe2")
    /// `posix_spawn_file_actions_addchdir_np`, glibc 2.29+.
    static let addChdir: AddChdir? = lookup("posix_spawn_file_actions_addchdir_np")
    /// `posix_spawn_file_actions_addclosefrom_np`, glibc 2.34+.
    static let addClosefrom: AddClosefrom? = lookup("posix_spawn_file_actions_addclosefrom_np")
    /// `posix_spawn_file_actions_addtcsetpgrp_np`, glibc 2.35+: the child
    /// makes its new group the terminal's foreground group before exec.
    static let addTcsetpgrp: AddClosefrom? = lookup("posix_spawn_file_actions_addtcsetpgrp_np")

    /// `memmem(3)`, glibc 2.0+ (`LinePattern`'s literal search).
    static let memmem: Memmem = lookup("memmem") ?? { haystack, count, needle, length in
        // Not reached with glibc; a plain search keeps the type total.
        guard length <= count else { return nil }
        for start in 0...(count - length) where memcmp(haystack + start, needle, length) == 0 {
            return UnsafeMutableRawPointer(mutating: haystack + start)
        }
        return nil
    }

    /// `memrchr(3)`, glibc 2.2+ (`LineSplitter`'s search for a line's start).
    static let memrchr: Memrchr = lookup("memrchr") ?? { haystack, byte, count in
        var index = count
        while index > 0 {
            index -= 1
            if haystack.load(fromByteOffset: index, as: UInt8.self) == UInt8(truncatingIfNeeded: byte) {
                return UnsafeMutableRawPointer(mutating: haystack + index)
            }
        }
        return nil
    }

    private static func lookup<F>(_ name: String) -> F? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(symbol, to: F.self)
    }

    /// A pipe whose both ends are close-on-exec, so no other child inherits
    /// them. Returns `(read, write)`.
    static func makePipe() throws(PipeFailure) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        let result: Int32
        if let pipe2 {
            result = fds.withUnsafeMutableBufferPointer { pipe2($0.baseAddress!, O_CLOEXEC) }
        } else {
            result = Glibc.pipe(&fds)
            if result == 0 {
                _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
                _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            }
        }
        guard result == 0 else { throw PipeFailure(errno: errno) }
        return (fds[0], fds[1])
    }

    /// `pipe2` failed with this errno (out of file descriptors, usually).
    struct PipeFailure: Error {
        var errno: Int32
    }
}
