internal import CGlibcShims

/// The process's spawns, one at a time, and a way to keep them out.
///
/// `posix_spawn` gives the child a copy of every open descriptor, which it
/// holds until its `exec` drops the close-on-exec ones; a file that another
/// thread writes and closes meanwhile stays open for the kernel, and its
/// `IN_CLOSE_WRITE` comes whenever that child gets to `exec`. Every spawn
/// holds the fence (`posix_spawn` returns once the child has exec'd), and
/// code that must see its close happen when it closes holds it from `open`
/// to `close`: the tests that check what a save reports do.
package enum SpawnFence {
    /// Runs `body` while no spawn of this process is under way.
    package static func hold<Result>(_ body: () throws -> Result) rethrows -> Result {
        CGlibcShims_spawn_fence_enter()
        defer { CGlibcShims_spawn_fence_leave() }
        return try body()
    }
}
