import WatchSources

/// The pattern of a `match` or `imatch` term, or of a glob generator:
/// git's wildmatch as watchman runs it, through rwatch's own glob matcher
/// (`Glob`, gitignore dialect).
///
/// Against a wholename (`WM_PATHNAME`) `*` stays within one segment and
/// `**/` spans any number; the whole relative name must match (`*.c` is
/// only the top level's). Against a basename a pattern holding `/` matches
/// nothing. Unless `includeDotFiles`, a segment starting with `.` is only
/// matched by a literal `.` (`WM_PERIOD`); with `noEscape` a backslash is
/// an ordinary character. A malformed pattern (an unclosed `[`) matches
/// nothing, as wildmatch's does.
struct Wildmatch: Sendable {
    private let glob: Glob?

    init(_ pattern: [UInt8], wholename: Bool, caseFold: Bool, includeDotFiles: Bool, noEscape: Bool) {
        let slash = UInt8(ascii: "/")
        var bytes = pattern
        if noEscape {
            bytes = bytes.flatMap { $0 == UInt8(ascii: "\\") ? [$0, $0] : [$0] }
        }
        if wholename {
            // Anchored: the pattern is the whole relative name, never a last segment.
            bytes = bytes.first == slash ? [] : [slash] + bytes
        } else if bytes.contains(slash) {
            bytes = []
        }
        glob = bytes.isEmpty ? nil : try? Glob(wildmatch: bytes, caseFold: caseFold, explicitPeriod: !includeDotFiles)
    }

    func matches(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let glob, !name.isEmpty else { return false }
        return glob.matches(bytes: name)
    }
}
