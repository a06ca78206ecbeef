/// Who writes a root's table (`RootMachine.writer`): one at a time, so
/// that what an `lstat` found is applied in the order it was looked at.
enum RootWriter: Sendable, Equatable {
    /// The root's worker: the first crawl, drains, recrawls, and a sync's
    /// drain. It waits its turn when another writes.
    case worker
    /// The reader's thread, applying a small batch it just delivered
    /// (`RootMachine.Action.applyHere`). Never waits: granted only when
    /// no one writes.
    case reader
    /// The socket loop, moving the clock for a sync that needs no wait
    /// (`RootMachine.loopSyncs`). Never waits: refused when anyone
    /// writes or anything waits to be applied.
    case loop
}
