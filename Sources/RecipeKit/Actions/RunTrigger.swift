/// A value that can start a command run: it says which changes the run is
/// about (for `RWATCH_PATHS` and friends) and how two pending triggers
/// combine when the command was busy.
public protocol RunTrigger: Sendable {
    /// The file changes this trigger carries, if any.
    var changes: ChangeBatch? { get }
    /// The chain steps that led here (non-empty for `RunResult`).
    var steps: [RunResult.Step] { get }
    /// One trigger standing for `self` followed by `later`.
    func merging(_ later: Self) -> Self
    /// The trigger of a run the user asked for (the `r` key), for the
    /// actions that start chains (file changes); nil for the others (a
    /// `then` step runs after its predecessor, never on its own), which
    /// keys neither rerun nor pause.
    static var manual: Self? { get }
}

extension RunTrigger {
    public var steps: [RunResult.Step] { [] }
    public func merging(_ later: Self) -> Self { later }
    public static var manual: Self? { nil }
}

extension ChangeBatch: RunTrigger {
    public var changes: ChangeBatch? { self }
    /// A run with no changed path.
    public static var manual: ChangeBatch? { ChangeBatch([]) }
}

extension FileEvent: RunTrigger {
    public var changes: ChangeBatch? { ChangeBatch([self]) }
}

extension String: RunTrigger {
    public var changes: ChangeBatch? { nil }
}

extension Tail.Line: RunTrigger {
    public var changes: ChangeBatch? { nil }
}

extension Duration: RunTrigger {
    public var changes: ChangeBatch? { nil }
}

extension RunResult: RunTrigger {
    public var changes: ChangeBatch? { batch }
    public func merging(_ later: RunResult) -> RunResult {
        var merged = later
        if let batch, let next = later.batch { merged.batch = batch.merging(next) }
        return merged
    }
}
