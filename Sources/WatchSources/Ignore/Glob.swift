import SystemPackage

/// A shell-style pattern over `/`-separated relative paths, matched on
/// their bytes.
///
/// rwatch's syntax (`-f`, `-i`, `WatchOptions`): `*` matches within one
/// path segment, `?` one character (a whole UTF-8 sequence, not one byte),
/// `[a-z]`, `[!a-z]` and `[[:alpha:]]` one character of a class, `\`
/// escapes, `{a,b}` either alternative (nested, and across `/`), and `**`
/// as a whole segment any number of segments: `Sources/**/*.swift` matches
/// `Sources/a.swift` and `Sources/x/y/b.swift`. A pattern without `/`
/// matches the last segment at any depth (`*.md` matches `docs/guide.md`,
/// as in gitignore); a leading `/` or a `/` inside anchors it at the root
/// (`/top.txt`, `src/*.c`); a trailing `/` makes it match directories only.
///
/// gitignore's syntax is git's wildmatch: the same, except that there are no
/// `{…}` alternatives, `?` and `[…]` take one byte, a malformed pattern
/// matches nothing, and `a/**` matches what is inside `a` but not `a`.
public struct Glob: Sendable, Hashable, CustomStringConvertible {
    /// Which dialect a pattern is written in.
    public enum Syntax: Sendable, Hashable {
        /// rwatch's globs: `{a,b}`, characters rather than bytes.
        case rwatch
        /// A line of a `.gitignore` (after `!` and trailing spaces are taken off).
        case gitignore
    }

    /// The pattern as written.
    public let pattern: String
    /// The dialect it was read in.
    public let syntax: Syntax
    let alternatives: [GlobPattern]

    /// The most alternatives `{…}` may expand to.
    static let maximumAlternatives = 1024

    /// Compiles `pattern`; throws `FileWatchError` (`.badGlob`) when it is
    /// empty, has an unclosed `[` or `{`, ends in a lone `\`, names an
    /// unknown `[:class:]`, or (rwatch syntax) has a reversed range.
    public init(_ pattern: String, syntax: Syntax = .rwatch) throws {
        try self.init(bytes: Array(pattern.utf8), syntax: syntax)
    }

    /// Compiles a pattern given as bytes (a line of an ignore file may
    /// hold any bytes a file name can). With `caseFold` (gitignore syntax
    /// only: `core.ignorecase`), ASCII letters match either case the way
    /// git's wildmatch folds them.
    init(bytes: [UInt8], syntax: Syntax, caseFold: Bool = false, explicitPeriod: Bool = false) throws {
        let pattern = String(decoding: bytes, as: UTF8.self)
        self.pattern = pattern
        self.syntax = syntax
        func bad(_ problem: String) -> FileWatchError {
            FileWatchError(.badGlob(pattern: pattern, problem: problem))
        }
        let texts: [[UInt8]]
        switch syntax {
        case .gitignore:
            texts = [bytes]
        case .rwatch:
            switch Glob.expandAlternatives(bytes) {
            case .success(let expanded): texts = expanded
            case .failure(.unclosed): throw bad("unclosed {")
            case .failure(.tooMany): throw bad("more than \(Glob.maximumAlternatives) {...} alternatives")
            }
        }
        var alternatives: [GlobPattern] = []
        for text in texts {
            do {
                alternatives.append(try GlobPattern(text, syntax: syntax, caseFold: caseFold, explicitPeriod: explicitPeriod))
            } catch {
                switch error {
                case .empty: throw bad("empty pattern")
                case .loneBackslash: throw bad("ends with a lone backslash")
                case .characterClass(.unclosed): throw bad("unclosed [")
                case .characterClass(.reversedRange): throw bad("reversed range in [...]")
                case .characterClass(.unknownName(let name)): throw bad("unknown class [:\(name):]")
                }
            }
        }
        self.alternatives = alternatives
    }

    /// watchman's `match` term: git's wildmatch with `WM_PATHNAME` (`*`
    /// within a segment, `**/` across segments), ASCII letters of either
    /// case with `caseFold`, and with `explicitPeriod` (`WM_PERIOD`) a
    /// segment starting with `.` matched only by a literal `.`. Written
    /// without `/`, a pattern matches the last segment at any depth; with a
    /// leading `/`, from the start.
    package init(wildmatch bytes: [UInt8], caseFold: Bool, explicitPeriod: Bool) throws {
        try self.init(bytes: bytes, syntax: .gitignore, caseFold: caseFold, explicitPeriod: explicitPeriod)
    }

    /// Whether the relative path whose bytes are `path` matches (as a file).
    package func matches(bytes path: UnsafeBufferPointer<UInt8>) -> Bool {
        matches(path, isDirectory: false)
    }

    /// Whether `relativePath` (no leading `/`) matches; a pattern written
    /// with a trailing `/` matches only when `isDirectory`.
    public func matches(_ relativePath: String, isDirectory: Bool = false) -> Bool {
        var path = relativePath
        return path.withUTF8 { matches($0, isDirectory: isDirectory) }
    }

    /// Whether the relative `path` matches, on its bytes (a name need not be UTF-8).
    public func matches(_ path: FilePath, isDirectory: Bool = false) -> Bool {
        path.withBytes { matches($0, isDirectory: isDirectory) }
    }

    /// Whether the path whose bytes are `path` matches.
    func matches(_ path: UnsafeBufferPointer<UInt8>, isDirectory: Bool) -> Bool {
        alternatives.contains { $0.matches(path, isDirectory: isDirectory) }
    }

    /// True when every alternative matches last components only (no `/` in it).
    var matchesNamesOnly: Bool { alternatives.allSatisfy(\.matchesName) }

    public var description: String { pattern }

    // MARK: {a,b}

    enum ExpansionProblem: Error {
        case unclosed
        case tooMany
    }

    /// Expands every `{a,b,…}` group (nested groups too) into the patterns
    /// it stands for. A group without a top-level `,` is kept literally,
    /// as the shell does; `\{` and braces inside `[…]` are not groups.
    static func expandAlternatives(_ bytes: [UInt8]) -> Result<[[UInt8]], ExpansionProblem> {
        var done: [[UInt8]] = []
        var pending = [bytes]
        while let text = pending.popLast() {
            guard let group = firstGroup(in: text) else {
                done.append(text)
                continue
            }
            switch group {
            case .failure(let problem):
                return .failure(problem)
            case .success(let (open, close, commas)):
                let prefix = text[..<open], suffix = text[(close + 1)...]
                var start = open + 1
                for end in commas + [close] {
                    pending.append(Array(prefix) + text[start..<end] + suffix)
                    start = end + 1
                }
            }
            if done.count + pending.count > maximumAlternatives { return .failure(.tooMany) }
        }
        return .success(done.reversed())
    }

    /// The first `{…}` with a top-level comma: its braces and commas.
    private static func firstGroup(in text: [UInt8]) -> Result<(open: Int, close: Int, commas: [Int]), ExpansionProblem>? {
        var i = 0
        var candidates: [Int] = []
        while i < text.count {
            if let next = skippingQuoted(text, at: i) {
                i = next
                continue
            }
            if text[i] == UInt8(ascii: "{") { candidates.append(i) }
            i += 1
        }
        // Outermost groups first, left to right; a group without a comma is literal.
        var sawUnclosed = false
        for open in candidates {
            guard let (close, commas) = groupEnd(text, open: open) else {
                sawUnclosed = true
                continue
            }
            if !commas.isEmpty { return .success((open, close, commas)) }
        }
        return sawUnclosed ? .failure(.unclosed) : nil
    }

    /// The `}` matching the `{` at `open`, and the commas at its own depth.
    private static func groupEnd(_ text: [UInt8], open: Int) -> (Int, [Int])? {
        var depth = 0
        var commas: [Int] = []
        var i = open
        while i < text.count {
            if let next = skippingQuoted(text, at: i) {
                i = next
                continue
            }
            switch text[i] {
            case UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return (i, commas) }
            case UInt8(ascii: ","):
                if depth == 1 { commas.append(i) }
            default:
                break
            }
            i += 1
        }
        return nil
    }

    /// Where scanning for braces goes on after an escape (`\\x`) or a whole
    /// character class (`[…]`, whose braces and commas are its own) at `i`;
    /// nil when neither starts there.
    private static func skippingQuoted(_ text: [UInt8], at i: Int) -> Int? {
        switch text[i] {
        case UInt8(ascii: "\\"):
            return i + 2
        case UInt8(ascii: "["):
            return (try? GlobCharacterClass.parse(text, open: i, unicode: true, strictRanges: false))?.1
        default:
            return nil
        }
    }
}
