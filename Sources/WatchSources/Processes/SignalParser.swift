/// Signal names on the command line: `TERM`, `SIGTERM`, `term`, `15`.
package enum SignalParser {
    /// The number `text` names; throws an `InputError` for anything else.
    package static func parse(_ text: String) throws -> Int32 {
        guard let number = SignalName.number(text) else {
            throw InputError("unknown signal '\(text)': use a name like TERM, INT, HUP, KILL, USR1 or a number")
        }
        return number
    }
}
