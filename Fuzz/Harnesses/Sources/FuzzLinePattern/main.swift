// LinePattern (`rwatch tail --grep`, `Tail.follow(matching:)`): the first
// line of the input is a pattern, the other lines are log lines. The plain
// text LinePattern extracts and searches first (RequiredLiteral) must never
// change the answer: each line matches exactly when glibc's regexec alone,
// on the same expression, says it does.
import FuzzSupport
import Glibc
@testable import WatchSources

fuzz { data, size in
    let input = bytes(data, size)
    let lines = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    // Short patterns, as people type them. LinePattern refuses what glibc
    // cannot compile or match quickly (RegexBudget); regcomp below only
    // sees what it accepted, so a timeout here is a pattern it let through.
    guard lines[0].count <= 64 else { return 0 }
    let pattern = String(decoding: lines[0], as: UTF8.self)
    let texts = lines.dropFirst().prefix(16).map { String(decoding: $0.prefix(256), as: UTF8.self) }.filter { !$0.contains("\0") }
    // `\d` and `\D` are rewritten before compiling: no plain regexec twin.
    let rewritten = pattern.contains("\\d") || pattern.contains("\\D")
    for ignoringCase in [false, true] {
        guard let compiled = try? LinePattern(pattern, ignoringCase: ignoringCase) else { continue }
        guard !rewritten else {
            for text in texts { _ = compiled.matches(text) }
            continue
        }
        var regex = regex_t()
        var flags = REG_EXTENDED | REG_NOSUB
        if ignoringCase { flags |= REG_ICASE }
        guard regcomp(&regex, pattern, flags) == 0 else {
            check(false, "LinePattern compiled \(pattern.debugDescription) but regcomp did not")
            return 0
        }
        defer { regfree(&regex) }
        for text in texts {
            let expected = regexec(&regex, text, 0, nil, 0) == 0
            check(compiled.matches(text) == expected, "\(pattern.debugDescription) (ignoringCase \(ignoringCase)) on \(text.debugDescription): LinePattern says \(!expected), regexec \(expected)")
        }
    }
    return 0
}
