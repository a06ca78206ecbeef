/// An option the command does not have, said with the nearest one it has
/// (`NearName`), on one line as every usage error:
/// `unknown option '--debouce'; did you mean '--debounce'?`.
///
/// Raised for an unknown option before `rwatch`'s command (`CommandWords`)
/// and made from ArgumentParser's message for one in a subcommand
/// (`rwatch events --jsno`): its own suggestion would offer far names
/// (`--foo` → `--json`) and never `--help`.
struct UnknownOption: Error, CustomStringConvertible, Sendable, Hashable {
    /// As typed, without any `=value`.
    var name: String
    /// A known name near `name`, or nil.
    var suggestion: String?

    init(_ name: String, among known: [String]) {
        self.name = name
        suggestion = NearName.nearest(to: name, among: known)
    }

    /// `name` as an option of `command` (from the command tree's
    /// description; no suggestion without it): only the names its help
    /// shows are suggested, never a hidden or private one.
    init(_ name: String, of command: CommandDescription.Command?) {
        self.init(name, among: command?.visibleLongNames ?? [])
    }

    var description: String {
        guard let suggestion else { return "unknown option '\(name)'" }
        return "unknown option '\(name)'; did you mean '\(suggestion)'?"
    }

    /// The option ArgumentParser's message is about, when it is its
    /// unknown-option message (`Unknown option '--jsno'. Did you mean
    /// '--json'?`, first word in either case); nil for any other message.
    static func name(inParserMessage line: String) -> String? {
        let opening = "nknown option '"
        guard line.hasPrefix("U" + opening) || line.hasPrefix("u" + opening) else { return nil }
        let rest = line.dropFirst(opening.count + 1)
        guard let close = rest.firstIndex(of: "'"), rest[..<close].hasPrefix("-") else { return nil }
        return String(rest[..<close])
    }
}
