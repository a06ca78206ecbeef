internal import CGlibcShims

/// Runs `body` while no child of this process is being spawned (the spawn
/// fence that rwatch's `posix_spawn` calls and the tests' own hold). A
/// test that opens, writes and closes a file inside it sees the file's
/// `IN_CLOSE_WRITE` when it closes it: a child spawned meanwhile by a test
/// running in parallel would hold the file open until its `exec`, and the
/// close would come late, after whatever the test did next.
public func withoutSpawns<Result>(_ body: () throws -> Result) rethrows -> Result {
    CGlibcShims_spawn_fence_enter()
    defer { CGlibcShims_spawn_fence_leave() }
    return try body()
}
