// gitignore parsing (`.gitignore`, `.ignore`, `info/exclude`, the global
// excludes file): the input is a whole ignore file. Parsing never traps,
// each kept pattern comes from a real line (1...line count, one line of
// text), and matching every pattern against every line of the file taken
// as a path never traps.
import FuzzSupport
import SystemPackage
@testable import WatchSources

fuzz { data, size in
    let input = bytes(data, size)
    let file = IgnoreFile.gitignore(input, path: "/project/.gitignore")
    let lineCount = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
    var previous = 0
    for pattern in file.patterns {
        check(pattern.line > previous && pattern.line <= lineCount, "pattern \(pattern.text.debugDescription) has line \(pattern.line) of \(lineCount)")
        check(!pattern.text.contains("\n"), "pattern \(pattern.text.debugDescription) spans lines")
        previous = pattern.line
    }
    let paths = input.split(separator: UInt8(ascii: "\n")).map { FilePath(bytes: $0.drop { $0 == UInt8(ascii: "/") }) }
    for pattern in file.patterns {
        for path in paths.prefix(16) {
            _ = pattern.glob.matches(path, isDirectory: false)
            _ = pattern.glob.matches(path, isDirectory: true)
        }
    }
    return 0
}
