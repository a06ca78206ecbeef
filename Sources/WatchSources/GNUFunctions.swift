internal import CGlibcShims
#if canImport(Glibc)
import Glibc
#endif

/// glibc functions that Swift's Glibc module hides (declared only under
/// `_GNU_SOURCE`), reached through the `CGlibcShims` C target, which is
/// compiled with it.
package enum GNUFunctions {
    typealias Memmem = @convention(c) (UnsafeRawPointer, Int, UnsafeRawPointer, Int) -> UnsafeMutableRawPointer?
    typealias Memrchr = @convention(c) (UnsafeRawPointer, Int32, Int) -> UnsafeMutableRawPointer?

    /// `memmem(3)` (`LinePattern`'s literal search).
    static let memmem: Memmem = CGlibcShims_memmem

    /// `memrchr(3)` (`LineSplitter`'s search for a line's start).
    static let memrchr: Memrchr = CGlibcShims_memrchr

    /// A pipe whose both ends are close-on-exec, so no other child inherits
    /// them. Returns `(read, write)`.
    package static func makePipe() throws(PipeFailure) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        let result = fds.withUnsafeMutableBufferPointer { CGlibcShims_pipe2($0.baseAddress!, O_CLOEXEC) }
        guard result == 0 else { throw PipeFailure(errno: errno) }
        return (fds[0], fds[1])
    }

    /// `pipe2` failed with this errno (out of file descriptors, usually).
    package struct PipeFailure: Error {
        package var errno: Int32
    }
}
