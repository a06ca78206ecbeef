/// What `FileWatcher` does when a watched root itself is deleted or moved away.
public enum RootDeletion: Sendable, Hashable {
    /// Report the deletion, then end the signal with `FileWatchError.rootDeleted`.
    case fail
    /// Report the deletion, then wait for the path to appear again and
    /// resume watching it (reporting what it contains as created).
    case waitForReappearance
}
