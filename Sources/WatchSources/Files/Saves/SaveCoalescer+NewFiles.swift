extension SaveCoalescer {
    /// When the last new file held now is due (monotonic seconds): created
    /// and held for the save window, or still being written; nil when none
    /// is held. `NewFileHolds` publishes it, so that a batch waits for the
    /// new file of a save of several files.
    var newFilesDue: Double? {
        entries.values.lazy.filter(\.isNew).map(\.deadline).max()
    }
}
