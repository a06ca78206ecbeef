/// A shell-style pattern over `/`-separated relative paths.
///
/// `*` matches within one path component, `?` one character, `[a-z]` and
/// `[!a-z]` a class, `\` escapes, and `**` as a whole component matches any
/// number of directories: `Sources/**/*.swift` matches `Sources/a.swift` and
/// `Sources/x/y/b.swift`. A pattern without `/` matches the last component
/// at any depth (`*.md` matches `docs/guide.md`); a leading `/` anchors it
/// at the root without changing anything else.
public struct Glob: Sendable, Hashable, CustomStringConvertible {
    enum Token: Sendable, Hashable {
        case byte(UInt8)
        case one
        case star
        case set(ranges: [ClosedRange<UInt8>], negated: Bool)
    }

    enum Segment: Sendable, Hashable {
        case globstar
        case tokens([Token])
    }

    /// The pattern as written.
    public let pattern: String
    let segments: [Segment]
    /// True when the pattern has no `/`: it matches the last component.
    let matchesName: Bool

    /// Compiles `pattern`; throws `FileWatchError` (`.badGlob`) when it is
    /// empty, has an unclosed `[` or ends in a lone `\`.
    public init(_ pattern: String) throws {
        self.pattern = pattern
        var text = Substring(pattern)
        while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
        let anchored = text.hasPrefix("/")
        if anchored { text = text.dropFirst() }
        guard !text.isEmpty else {
            throw FileWatchError(.badGlob(pattern: pattern, problem: "empty pattern"))
        }
        matchesName = !anchored && !text.contains("/")
        segments = try text.split(separator: "/", omittingEmptySubsequences: true).map { part in
            if part == "**" { return .globstar }
            return .tokens(try Glob.tokens(Array(part.utf8), pattern: pattern))
        }
    }

    /// Whether `relativePath` (no leading `/`) matches.
    public func matches(_ relativePath: String) -> Bool {
        var path = relativePath
        return path.withUTF8 { matches($0) }
    }

    public var description: String { pattern }

    /// Matching on the path's bytes, without copying them.
    private func matches(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        let slash = UInt8(ascii: "/")
        if matchesName {
            var end = path.count
            while end > 0, path[end - 1] == slash { end -= 1 }
            var start = end
            while start > 0, path[start - 1] != slash { start -= 1 }
            guard start < end, case .tokens(let tokens) = segments[0] else { return segments[0] == .globstar && end > 0 }
            return Glob.match(tokens, UnsafeBufferPointer(rebasing: path[start..<end]))
        }
        var components: [Range<Int>] = []
        var start = 0
        for index in 0...path.count where index == path.count || path[index] == slash {
            if index > start { components.append(start..<index) }
            start = index + 1
        }
        return match(segmentIndex: 0, components[...], in: path)
    }

    private func match(segmentIndex: Int, _ components: ArraySlice<Range<Int>>, in path: UnsafeBufferPointer<UInt8>) -> Bool {
        guard segmentIndex < segments.count else { return components.isEmpty }
        switch segments[segmentIndex] {
        case .globstar:
            var rest = components
            while true {
                if match(segmentIndex: segmentIndex + 1, rest, in: path) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        case .tokens(let tokens):
            guard let first = components.first,
                  Glob.match(tokens, UnsafeBufferPointer(rebasing: path[first])) else { return false }
            return match(segmentIndex: segmentIndex + 1, components.dropFirst(), in: path)
        }
    }

    /// Wildcard match of one component, backtracking to the last `*`.
    static func match(_ tokens: [Token], _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        var t = 0, n = 0
        var starAt: Int? = nil, starName = 0
        while n < name.count {
            if t < tokens.count {
                switch tokens[t] {
                case .star:
                    starAt = t; starName = n; t += 1
                    continue
                case .one:
                    t += 1; n += 1
                    continue
                case .byte(let b) where b == name[n]:
                    t += 1; n += 1
                    continue
                case .set(let ranges, let negated) where ranges.contains { $0.contains(name[n]) } != negated:
                    t += 1; n += 1
                    continue
                default:
                    break
                }
            }
            guard let star = starAt else { return false }
            starName += 1
            n = starName
            t = star + 1
        }
        while t < tokens.count, tokens[t] == .star { t += 1 }
        return t == tokens.count
    }

    private static func tokens(_ bytes: [UInt8], pattern: String) throws -> [Token] {
        var result: [Token] = []
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "*"):
                if result.last != .star { result.append(.star) }
                i += 1
            case UInt8(ascii: "?"):
                result.append(.one)
                i += 1
            case UInt8(ascii: "\\"):
                guard i + 1 < bytes.count else {
                    throw FileWatchError(.badGlob(pattern: pattern, problem: "ends with a lone backslash"))
                }
                result.append(.byte(bytes[i + 1]))
                i += 2
            case UInt8(ascii: "["):
                let (token, next) = try set(bytes, from: i + 1, pattern: pattern)
                result.append(token)
                i = next
            default:
                result.append(.byte(byte))
                i += 1
            }
        }
        return result
    }

    /// Parses a class after its `[`; returns the token and the index after `]`.
    private static func set(_ bytes: [UInt8], from start: Int, pattern: String) throws -> (Token, Int) {
        var i = start
        var negated = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "!") || bytes[i] == UInt8(ascii: "^") {
            negated = true
            i += 1
        }
        var ranges: [ClosedRange<UInt8>] = []
        var first = true
        while i < bytes.count {
            var low = bytes[i]
            if low == UInt8(ascii: "]"), !first {
                return (.set(ranges: ranges, negated: negated), i + 1)
            }
            first = false
            if low == UInt8(ascii: "\\"), i + 1 < bytes.count {
                i += 1
                low = bytes[i]
            }
            if i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "-"), bytes[i + 2] != UInt8(ascii: "]") {
                let high = bytes[i + 2]
                guard low <= high else {
                    throw FileWatchError(.badGlob(pattern: pattern, problem: "reversed range in [...]"))
                }
                ranges.append(low...high)
                i += 3
            } else {
                ranges.append(low...low)
                i += 1
            }
        }
        throw FileWatchError(.badGlob(pattern: pattern, problem: "unclosed ["))
    }
}
