// A recipe file imports RecipeKit and gets the whole vocabulary with it.
@_exported import Signals
@_exported import WatchSources
// `FileEvent.path` and `ChangeBatch.paths` are `FilePath`s: paths are bytes.
@_exported import SystemPackage

/// A line of a followed file (`Tail.follow`): its `path` and `text`. It
/// prints as its text.
public typealias Line = Tail.Line
