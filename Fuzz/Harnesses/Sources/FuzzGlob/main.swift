// Glob compiling and matching (`-f`, `-i`, `--ignore-file`, in both
// dialects): the first line of the input is a pattern, the other lines are
// paths. A pattern that compiles never traps when matched, the String and
// FilePath ways of matching agree, and every path, its punctuation escaped
// with `\`, is a pattern that matches that very name at any depth; a
// gitignore pattern compiled case-folded (`core.ignorecase`) gives the same
// verdict for a path in any ASCII case.
import FuzzSupport
import SystemPackage
@testable import WatchSources

fuzz { data, size in
    let input = bytes(data, size)
    let lines = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
    let pattern = lines[0]
    let paths = lines.dropFirst().filter { !$0.contains(0) }
    for syntax in [Glob.Syntax.rwatch, .gitignore] {
        if let glob = try? Glob(bytes: pattern, syntax: syntax) {
            for path in paths {
                for isDirectory in [false, true] {
                    let byBytes = glob.matches(FilePath(bytes: path), isDirectory: isDirectory)
                    if let text = String(validating: path, as: UTF8.self), !text.contains("\0") {
                        check(glob.matches(text, isDirectory: isDirectory) == byBytes, "\(glob) matches \(text.debugDescription) one way only")
                    }
                }
            }
        }
        // gitignore under core.ignorecase: the path's case never matters.
        if syntax == .gitignore, let folded = try? Glob(bytes: pattern, syntax: syntax, caseFold: true) {
            for path in paths {
                let lower = path.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
                let upper = path.map { (0x61...0x7A).contains($0) ? $0 & ~0x20 : $0 }
                let verdict = folded.matches(FilePath(bytes: path))
                check(folded.matches(FilePath(bytes: lower)) == verdict && folded.matches(FilePath(bytes: upper)) == verdict,
                      "\(folded) (case folded) matches \(path) but not another case of it, or the reverse")
            }
        }
        for path in paths {
            let name = path.filter { $0 != UInt8(ascii: "/") }
            guard !name.isEmpty else { continue }
            var escaped: [UInt8] = []
            for byte in name {
                if byte < 0x80 && !(byte >= 0x30 && byte <= 0x39) && !(byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) { escaped.append(UInt8(ascii: "\\")) }
                escaped.append(byte)
            }
            guard let literal = try? Glob(bytes: escaped, syntax: syntax) else {
                check(false, "the escaped name \(escaped) does not compile (\(syntax))")
                return 0
            }
            for deep in [name, Array("a/b/".utf8) + name] {
                check(literal.matches(FilePath(bytes: deep)), "\(literal) (\(syntax)) does not match \(deep)")
            }
        }
    }
    return 0
}

