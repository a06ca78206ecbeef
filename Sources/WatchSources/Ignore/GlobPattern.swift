/// One alternative of a `Glob` (after `{a,b}` is expanded), compiled into
/// `/`-separated segments of tokens, and matched against a path's bytes
/// without copying them.
struct GlobPattern: Sendable, Hashable {
    enum Token: Sendable, Hashable {
        case byte(UInt8)
        /// `?`: one character (rwatch) or one byte (gitignore).
        case one
        /// `*`: any run within one segment.
        case star
        case set(GlobCharacterClass)
    }

    enum Segment: Sendable, Hashable {
        /// `**` as a whole segment: any number of segments.
        case globstar
        case tokens([Token])
    }

    let segments: [Segment]
    /// Written without a `/` (but a trailing one): matches the last component, at any depth.
    let matchesName: Bool
    /// Written with a trailing `/`: matches directories only.
    let directoryOnly: Bool
    /// gitignore: a final `/**` needs something below it (`a/**` does not match `a`).
    let trailingGlobstarNeedsComponent: Bool
    /// `?` and `[…]` take whole UTF-8 characters (rwatch) or single bytes (gitignore).
    let unicode: Bool
    /// gitignore under `core.ignorecase`: ASCII letters compare folded, as
    /// git's wildmatch does with `WM_CASEFOLD` (the path's bytes are
    /// folded as they are read; the pattern's literal bytes were at compile).
    let caseFold: Bool
    /// wildmatch's `WM_PERIOD` (watchman's `match` without
    /// `includedotfiles`): a segment starting with `.` is matched only by
    /// a literal `.`, and `**` does not reach through one to what follows.
    let explicitPeriod: Bool
    /// How many `**` segments the pattern has (two or more: matching
    /// remembers failures).
    private let globstarCount: Int

    enum Problem: Error {
        case empty
        case loneBackslash
        case characterClass(GlobCharacterClass.Problem)
    }

    /// Compiles one alternative. rwatch's syntax drops every trailing `/`,
    /// gitignore's one (as git does). With `caseFold` (gitignore only),
    /// literal letters are folded to lower case, but not an escaped one: git
    /// compares `\X` as written with the folded path, so it matches nothing.
    init(_ text: [UInt8], syntax: Glob.Syntax, caseFold: Bool = false, explicitPeriod: Bool = false) throws(Problem) {
        precondition(!caseFold || syntax == .gitignore, "only gitignore patterns fold case")
        let slash = UInt8(ascii: "/")
        var bytes = text[...]
        var directoryOnly = false
        while bytes.count > 1, bytes.last == slash, !Self.escapesLast(bytes) {
            bytes = bytes.dropLast()
            directoryOnly = true
            if syntax == .gitignore { break }
        }
        let anchored = bytes.first == slash
        if anchored { bytes = bytes.dropFirst() }
        guard !bytes.isEmpty else { throw .empty }
        let unicode = syntax == .rwatch
        var builder = SegmentBuilder()
        let all = Array(bytes)
        var i = 0
        while i < all.count {
            try builder.take(all, &i, syntax: syntax, caseFold: caseFold)
        }
        builder.endSegment()
        let segments = builder.segments
        self.segments = segments
        self.globstarCount = segments.count { if case .globstar = $0 { true } else { false } }
        self.matchesName = !anchored && segments.count == 1
        self.directoryOnly = directoryOnly
        self.trailingGlobstarNeedsComponent = syntax == .gitignore
        self.unicode = unicode
        self.caseFold = caseFold
        self.explicitPeriod = explicitPeriod
    }

    /// The segments of a pattern being compiled, token by token.
    private struct SegmentBuilder {
        var segments: [Segment] = []
        var tokens: [Token] = []
        /// How many tokens the segment's text made (`**` is two stars).
        var written = 0
        var onlyStars = true

        mutating func endSegment() {
            segments.append(onlyStars && written >= 2 ? .globstar : .tokens(tokens))
            tokens = []
            written = 0
            onlyStars = true
        }

        /// Takes the token at `i` of `all`, moving `i` past it.
        mutating func take(_ all: [UInt8], _ i: inout Int, syntax: Glob.Syntax, caseFold: Bool) throws(Problem) {
            let slash = UInt8(ascii: "/")
            let byte = all[i]
            switch byte {
            case slash:
                endSegment()
                i += 1
                return
            case UInt8(ascii: "*"):
                if tokens.last != .star { tokens.append(.star) }
                i += 1
            case UInt8(ascii: "?"):
                tokens.append(.one)
                onlyStars = false
                i += 1
            case UInt8(ascii: "\\"):
                guard i + 1 < all.count else { throw .loneBackslash }
                if all[i + 1] == slash {
                    // An escaped `/` still separates segments.
                    endSegment()
                    i += 2
                    return
                }
                tokens.append(.byte(all[i + 1]))
                onlyStars = false
                i += 2
            case UInt8(ascii: "["):
                do {
                    let (set, next) = try GlobCharacterClass.parse(all, open: i, unicode: syntax == .rwatch, strictRanges: syntax == .rwatch)
                    tokens.append(.set(set))
                    i = next
                } catch {
                    throw .characterClass(error)
                }
                onlyStars = false
            default:
                tokens.append(.byte(caseFold ? GlobPattern.folded(byte) : byte))
                onlyStars = false
                i += 1
            }
            written += 1
        }
    }

    /// An ASCII upper-case letter as lower case; any other byte as it is.
    @inline(__always)
    static func folded(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    /// Whether the last byte is escaped by an odd run of backslashes.
    private static func escapesLast(_ bytes: ArraySlice<UInt8>) -> Bool {
        var count = 0
        var index = bytes.index(before: bytes.endIndex)
        while index > bytes.startIndex {
            index = bytes.index(before: index)
            guard bytes[index] == UInt8(ascii: "\\") else { break }
            count += 1
        }
        return count % 2 == 1
    }

    /// Whether `path` (relative, `/`-separated, no leading `/`) matches.
    func matches(_ path: UnsafeBufferPointer<UInt8>, isDirectory: Bool) -> Bool {
        if directoryOnly, !isDirectory { return false }
        let slash = UInt8(ascii: "/")
        var end = path.count
        while end > 0, path[end - 1] == slash { end -= 1 }
        guard end > 0 else { return false }
        if matchesName {
            var start = end
            while start > 0, path[start - 1] != slash { start -= 1 }
            switch segments[0] {
            case .globstar: return !(explicitPeriod && path[start] == UInt8(ascii: "."))
            case .tokens(let tokens): return matchComponent(tokens, UnsafeBufferPointer(rebasing: path[start..<end]))
            }
        }
        // With two `**` or more, the same (segment, position) is reached
        // along many splits: remembering the ones that failed keeps the
        // match polynomial (`**/**/…/**/x` in a hostile ignore file took
        // exponential time). One `**` needs no memory and allocates none.
        var failed = Failures(segments: segments.count, end: end, needed: globstarCount > 1)
        return match(segment: 0, from: 0, end: end, in: path, failed: &failed)
    }

    /// The (segment, position) pairs known not to match.
    private struct Failures {
        private var seen: [Bool]
        private let width: Int

        init(segments: Int, end: Int, needed: Bool) {
            width = end + 1
            seen = needed ? [Bool](repeating: false, count: (segments + 1) * (end + 1)) : []
        }

        func contains(_ index: Int, _ position: Int) -> Bool {
            !seen.isEmpty && seen[index * width + position]
        }

        mutating func insert(_ index: Int, _ position: Int) {
            if !seen.isEmpty { seen[index * width + position] = true }
        }
    }

    private func match(
        segment index: Int, from start: Int, end: Int, in path: UnsafeBufferPointer<UInt8>, failed: inout Failures
    ) -> Bool {
        let slash = UInt8(ascii: "/")
        var position = start
        while position < end, path[position] == slash { position += 1 }
        guard index < segments.count else { return position >= end }
        switch segments[index] {
        case .globstar:
            if failed.contains(index, position) { return false }
            let needsOne = trailingGlobstarNeedsComponent && index > 0 && index == segments.count - 1
            if !needsOne, match(segment: index + 1, from: position, end: end, in: path, failed: &failed) { return true }
            // Under `explicitPeriod`, `**` never takes a leading dot
            // segment, nor (with segments after it) any dot segment.
            let stopsAtPeriod = explicitPeriod && index < segments.count - 1
            if explicitPeriod, position == 0, path[0] == UInt8(ascii: ".") {
                failed.insert(index, position)
                return false
            }
            var next = position
            while next < end {
                if stopsAtPeriod, path[next] == UInt8(ascii: ".") { break }
                while next < end, path[next] != slash { next += 1 }
                if match(segment: index + 1, from: next, end: end, in: path, failed: &failed) { return true }
                while next < end, path[next] == slash { next += 1 }
            }
            failed.insert(index, position)
            return false
        case .tokens(let tokens):
            guard position < end else { return false }
            var componentEnd = position
            while componentEnd < end, path[componentEnd] != slash { componentEnd += 1 }
            guard matchComponent(tokens, UnsafeBufferPointer(rebasing: path[position..<componentEnd])) else {
                return false
            }
            return match(segment: index + 1, from: componentEnd, end: end, in: path, failed: &failed)
        }
    }

    /// One path component against one segment's tokens; under
    /// `explicitPeriod` a component starting with `.` needs a literal `.`.
    private func matchComponent(_ tokens: [Token], _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        if explicitPeriod, name.first == UInt8(ascii: "."), tokens.first != .byte(UInt8(ascii: ".")) { return false }
        return Self.match(tokens, name, unicode: unicode, caseFold: caseFold)
    }

    /// Wildcard match of one component, backtracking to the last `*`; with
    /// `caseFold` (bytes only, never `unicode`), each byte of `name` is
    /// folded to lower case before it is compared.
    static func match(_ tokens: [Token], _ name: UnsafeBufferPointer<UInt8>, unicode: Bool, caseFold: Bool = false) -> Bool {
        var t = 0, n = 0
        var starAt = -1, starName = 0
        while n < name.count {
            if t < tokens.count {
                switch tokens[t] {
                case .star:
                    starAt = t
                    starName = n
                    t += 1
                    continue
                case .one:
                    n += GlobText.character(name, at: n, unicode: unicode).1
                    t += 1
                    continue
                case .byte(let byte):
                    if byte == (caseFold ? folded(name[n]) : name[n]) {
                        t += 1
                        n += 1
                        continue
                    }
                case .set(let set):
                    let (character, length) = GlobText.character(name, at: n, unicode: unicode)
                    if caseFold ? set.containsFolded(UInt32(folded(UInt8(truncatingIfNeeded: character)))) : set.contains(character) {
                        t += 1
                        n += length
                        continue
                    }
                }
            }
            guard starAt >= 0 else { return false }
            starName += GlobText.character(name, at: starName, unicode: unicode).1
            n = starName
            t = starAt + 1
        }
        while t < tokens.count, tokens[t] == .star { t += 1 }
        return t == tokens.count
    }
}
