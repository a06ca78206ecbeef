import SystemPackage

/// One ignore file, parsed: where it is (for "why is this ignored") and
/// its patterns in the order written.
struct IgnoreFile: Sendable {
    /// One usable line.
    struct Pattern: Sendable {
        let glob: Glob
        /// `!pattern`: re-includes what an earlier or shallower pattern ignored.
        let negated: Bool
        /// 1-based line number in the file.
        let line: Int
        /// The line as written (trailing spaces trimmed), for messages.
        let text: String
    }

    /// The file's absolute path.
    let path: FilePath
    let patterns: [Pattern]

    /// Parses gitignore syntax, as git does: `#` starts a comment line,
    /// blank lines separate nothing, trailing spaces go unless escaped
    /// (`\ `), `!` negates (`\!` and `\#` are literal), a UTF-8 byte order
    /// mark at the start is skipped, CR LF is a line end. Lines git would
    /// never match (an unclosed `[`, a lone trailing `\`) are dropped.
    /// With `ignoreCase` (git's `core.ignorecase`), the patterns match
    /// ASCII letters of either case, as git's do then.
    static func gitignore(_ bytes: [UInt8], path: FilePath, ignoreCase: Bool = false) -> IgnoreFile {
        var patterns: [Pattern] = []
        forEachLine(bytes) { number, line in
            var line = line
            guard let first = line.first, first != UInt8(ascii: "#") else { return }
            trimTrailingSpaces(&line)
            let text = String(decoding: line, as: UTF8.self)
            var negated = false
            if line.first == UInt8(ascii: "!") {
                negated = true
                line = line.dropFirst()
            }
            guard !line.isEmpty else { return }
            guard let glob = try? Glob(bytes: Array(line), syntax: .gitignore, caseFold: ignoreCase) else { return }
            patterns.append(Pattern(glob: glob, negated: negated, line: number, text: text))
        }
        return IgnoreFile(path: path, patterns: patterns)
    }

    /// Parses a list of rwatch globs, one per line (`--ignore-file`,
    /// `--filter-file`): blank lines and `#` comments are skipped, spaces
    /// around a glob are trimmed. Throws the first malformed glob, its
    /// message naming the file and line.
    static func globs(_ bytes: [UInt8], path: FilePath) throws -> IgnoreFile {
        var patterns: [Pattern] = []
        var failure: FileWatchError? = nil
        forEachLine(bytes) { number, line in
            guard failure == nil else { return }
            var line = line
            while let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { line = line.dropFirst() }
            while let last = line.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { line = line.dropLast() }
            guard let first = line.first, first != UInt8(ascii: "#") else { return }
            let text = String(decoding: line, as: UTF8.self)
            do {
                patterns.append(Pattern(glob: try Glob(text), negated: false, line: number, text: text))
            } catch let error as FileWatchError {
                if case .badGlob(_, let problem) = error.reason {
                    failure = FileWatchError(.badGlob(pattern: text, problem: "\(problem) (\(Quoted.path(path)) line \(number))"))
                } else {
                    failure = error
                }
            } catch {}
        }
        if let failure { throw failure }
        return IgnoreFile(path: path, patterns: patterns)
    }

    /// Calls `body` with each line's number and bytes (without its `\n` or `\r\n`).
    private static func forEachLine(_ bytes: [UInt8], _ body: (Int, ArraySlice<UInt8>) -> Void) {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        var number = 1
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var line = bytes[start..<end]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            body(number, line)
            number += 1
            start = end + 1
        }
    }

    /// Drops trailing spaces that no backslash escapes (git's rule: tabs stay).
    private static func trimTrailingSpaces(_ line: inout ArraySlice<UInt8>) {
        var lastSpace: Int? = nil
        var i = line.startIndex
        while i < line.endIndex {
            switch line[i] {
            case UInt8(ascii: " "):
                if lastSpace == nil { lastSpace = i }
            case UInt8(ascii: "\\"):
                i += 1
                if i == line.endIndex { return }
                lastSpace = nil
            default:
                lastSpace = nil
            }
            i += 1
        }
        if let lastSpace { line = line[..<lastSpace] }
    }
}
