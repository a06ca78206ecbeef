#if canImport(Glibc)
import Glibc
#endif

/// A self-pipe that wakes a thread blocked in `poll`. Its descriptors close
/// when the last reference goes away, so a late `wake()` never writes into a
/// descriptor number that was closed and reused.
package final class WakePipe: Sendable {
    /// Poll this for `POLLIN`; `drain()` after waking.
    package let readEnd: Int32
    private let writeEnd: Int32

    package init() throws(GNUFunctions.PipeFailure) {
        let pipe = try GNUFunctions.makePipe()
        readEnd = pipe.read
        writeEnd = pipe.write
        _ = fcntl(readEnd, F_SETFL, O_NONBLOCK)
        _ = fcntl(writeEnd, F_SETFL, O_NONBLOCK)
    }

    /// Makes `readEnd` readable. Never blocks: a full pipe is awake already.
    package func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe after a wake-up.
    package func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}
