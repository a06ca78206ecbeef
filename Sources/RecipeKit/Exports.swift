// A recipe file imports RecipeKit and gets the whole vocabulary with it.
@_exported import Signals
@_exported import WatchSources
