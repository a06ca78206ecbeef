/// Where a root is in its life (`RootMachine.phase`): crawling for the
/// first time, ready to answer, or over for good. A recrawl does not
/// leave `ready`: queries go on meanwhile.
enum RootPhase: Sendable, Equatable {
    case crawling
    case ready
    /// Gone for good (the root was deleted, or could not be watched).
    case failed(String)
    /// `watch-del`, `watch-del-all`, or the service stopping.
    case cancelled
}
