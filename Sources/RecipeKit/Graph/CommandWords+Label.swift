import Signals
import WatchSources

extension [CommandWord] {
    /// The words as a list of strings: `["swift", "build"]`.
    var parameterLabel: String {
        SignalNode.list(map(\.text))
    }
}
