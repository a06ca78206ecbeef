/// A save a test replays is one change only if its steps follow each other
/// within the shortest wait the watcher gives a save: a new file, complete,
/// is held 200 ms for its rename or deletion, and a polled file found
/// emptied waits 200 ms for its write (`SaveCoalescer.freshWindow`). A test
/// thread held up longer than that between two steps (a loaded machine, a
/// spawn in another test) made two changes, and the watcher rightly reports
/// two: such a save says nothing about the claim under test.
public enum QuickSave {
    /// The watcher's shortest wait between a save's steps.
    public static let window: Duration = .milliseconds(200)

    /// Runs one save's steps (`body`) with no child spawned meanwhile (a
    /// spawn between two steps would hold the test thread up, and its
    /// child would hold the files open until its `exec`); says whether
    /// they took less than `window`.
    public static func run(_ body: () -> Void) -> Bool {
        withoutSpawns {
            let start = ContinuousClock.now
            body()
            return ContinuousClock.now - start < window
        }
    }

    /// Runs `attempt` (one whole case: a watch, its saves, what arrived)
    /// again while one of its saves was not quick, at most `limit` times;
    /// returns the first outcome whose saves all were, or the last, and
    /// hands the others to `discard` (to remove their files). The checks
    /// then run on a case that tested the claim or, on a machine that never
    /// allowed one, on the last try, whose failure shows it.
    public static func attempts<Outcome>(_ limit: Int = 3, discarding discard: (Outcome) -> Void = { _ in },
                                         _ attempt: () -> (quick: Bool, outcome: Outcome)) -> Outcome {
        var tries = 1
        while true {
            let (quick, outcome) = attempt()
            if quick || tries == limit { return outcome }
            discard(outcome)
            tries += 1
        }
    }
}
