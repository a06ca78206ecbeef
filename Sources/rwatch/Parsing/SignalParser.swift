import WatchSources

/// Signal names on the command line: `TERM`, `SIGTERM`, `term`, `15`.
enum SignalParser {
    /// The number `text` names; throws an `RWatchError` for anything else.
    static func parse(_ text: String) throws -> Int32 {
        guard let number = SignalName.number(text) else {
            throw RWatchError("unknown signal '\(text)': use a name like TERM, INT, HUP, KILL, USR1 or a number")
        }
        return number
    }
}
