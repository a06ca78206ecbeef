// A recipe file imports RecipeKit and gets the whole vocabulary with it.
@_exported import Signals
@_exported import WatchSources

/// A line of a followed file (`Tail.follow`): its `path` and `text`. It
/// prints as its text.
public typealias Line = Tail.Line
