internal import CGlibcShims
#if canImport(Glibc)
import Glibc
#endif

/// Starts a detached pthread running `body`: for the blocking loops of
/// process readers, reapers and tail followers, which must not tie up the
/// Dispatch pool.
package enum DetachedThread {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Runs `body` on a new thread with a stack of `stackSize` bytes (nil:
    /// the system's default, for loops that recurse deeply), named `name`
    /// (at most 15 bytes; what `top -H` and `/proc/PID/task/*/comm` show).
    /// Returns false if the system refused one.
    @discardableResult
    package static func start(stackSize: Int? = 512 * 1024, name: String? = nil, _ body: @escaping @Sendable () -> Void) -> Bool {
        var named = body
        if let name {
            let short = String(decoding: name.utf8.prefix(15), as: UTF8.self)
            named = {
                _ = CGlibcShims_set_thread_name(short)
                body()
            }
        }
        let context = Unmanaged.passRetained(Box(named)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, context)
        if result != 0 {
            Unmanaged<Box>.fromOpaque(context).release()
            return false
        }
        return true
    }
}
