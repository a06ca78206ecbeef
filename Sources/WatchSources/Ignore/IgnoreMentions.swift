import SystemPackage

/// What `-v` has already said, for one watch, about changes an ignore rule
/// dropped, so that it says each once: a save through a temporary file is
/// four events of that file (made, written, closed, renamed), and `sed -i`
/// gives its file a new name each time.
///
/// - A default ignore (`DefaultIgnores`: swap, backup and temporary
///   names) is named once, with the first path it dropped: its names are
///   noise, one example says why they never start a run.
/// - Any other rule (a `.gitignore` line, `-i`) is named once per path:
///   those paths are the user's own, each worth one answer to "why did my
///   change not start a run?".
///
///     ignored /src/sedQ3xT9k: default ignore sed?????? (named once; later names it ignores are not listed)
///     ignored /src/app.log: /src/.gitignore:1: *.log
///
/// A pure value: `ReaderMachine.noteDropped` asks it before saying a line.
struct IgnoreMentions {
    /// How many paths are remembered before they are forgotten at once
    /// (a tree that keeps making new ignored names keeps the memory bounded;
    /// a path is then said once more).
    static let pathLimit = 4096

    private var defaultPatterns: Set<String> = []
    private var paths = PathSet()

    /// The `-v` line for `path`, dropped by `reason`, when it is the first
    /// of its kind (and remembers it); nil when it was said already.
    mutating func line(for path: FilePath, _ reason: IgnoreReason) -> String? {
        if case .defaultIgnore = reason.source {
            guard defaultPatterns.insert(reason.pattern).inserted else { return nil }
            return "ignored \(Quoted.path(path)): \(reason) (named once; later names it ignores are not listed)"
        }
        if paths.count >= Self.pathLimit { paths = PathSet() }
        guard paths.insert(path) else { return nil }
        return "ignored \(Quoted.path(path)): \(reason)"
    }
}
