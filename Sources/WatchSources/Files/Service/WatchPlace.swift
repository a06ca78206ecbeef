/// Where a watch's changes come from now, as the watch itself tells it
/// (`FileWatcher.batches(_:options:placed:)`).
package enum WatchPlace: Sendable, Equatable {
    /// This process's own watches (inotify, or polling).
    case local
    /// A running `rwatch serve`: it holds its results while git rewrites
    /// the tree, if the watch asked it to (`WatchOptions.defersDuringVCS`).
    case served
}
