@testable import WatchSources
import Glibc
import Testing

@Suite struct LinePatternTests {
    @Test(arguments: [
        ("status=5[0-9]{2} took=", "status=5"),
        ("colou?r", "colo"),
        ("ab+c", "ab"),
        ("ab*c", "a"),
        ("x{2}yz", "yz"),
        ("a{1,3}bcd", "bcd"),
        ("[abc]def", "def"),
        ("[]x]yz", "yz"),
        ("[[:digit:]]+ms", "ms"),
        ("(foo|bar)baz", "baz"),
        ("^ERROR: ", "ERROR: "),
        ("1\\.2\\.3", "1.2.3"),
        ("\\bword\\b", "word"),
        ("a.b", "a"),
        ("\\(x\\)", "(x)"),
    ])
    func theRequiredLiteralIsTheLongestCertainRun(pattern: String, literal: String) {
        #expect(RequiredLiteral(extendedRegex: Array(pattern.utf8)).map { String(decoding: $0.bytes, as: UTF8.self) } == literal)
    }

    @Test(arguments: ["(a|b)", "a*", ".*", "[a-z]+", "\\w+", "x?", "é+", "a+*", "a+?", "a++?", "a+{0,2}"])
    func patternsWithoutACertainRunHaveNoLiteral(pattern: String) {
        #expect(RequiredLiteral(extendedRegex: Array(pattern.utf8)) == nil)
    }

    @Test func eachTopLevelAlternativeHasItsLiteral() {
        let literals = RequiredLiteral.forEachAlternative(of: Array("error|warn(ing)?|[0-9]+ fatal".utf8))
        #expect(literals?.map { String(decoding: $0.bytes, as: UTF8.self) } == ["error", "warn", " fatal"])
        #expect(RequiredLiteral.forEachAlternative(of: Array("(a|b)c|d".utf8))?.map(\.bytes) == [Array("c".utf8), Array("d".utf8)])
        #expect(RequiredLiteral.forEachAlternative(of: Array("error|.*".utf8)) == nil)
        #expect(RequiredLiteral.forEachAlternative(of: Array("error|".utf8)) == nil)
    }

    @Test func onlyPlainTextIsAWholePatternLiteral() {
        #expect(RequiredLiteral(extendedRegex: Array("timeout".utf8))?.isWholePattern == true)
        #expect(RequiredLiteral(extendedRegex: Array("a\\.b".utf8))?.isWholePattern == true)
        #expect(RequiredLiteral(extendedRegex: Array("^timeout".utf8))?.isWholePattern == false)
        #expect(RequiredLiteral(extendedRegex: Array("timeouts?".utf8))?.isWholePattern == false)
    }

    /// The pre-filter must never change an answer: every pattern against
    /// every line, compared with plain `regexec` on a C string.
    @Test func matchesExactlyWhatRegexecMatches() throws {
        let patterns = [
            "status=5[0-9]{2} took=[0-9]{3,}ms", "colou?r", "ab+c", "ab*c", "x{2}yz", "[]x]yz",
            "(foo|bar)baz", "^ERROR: ", "done$", "1\\.2\\.3", "error|warn", "a.b", "timeout",
            "\\bword\\b", "[[:upper:]]{2}", "^$", "o{0}k", "(ab)+c", "TIMEOUT", "x*", "error|warn",
            "timeout|refused", "^ERROR|done$", "a\\|b|c", "[|]x|ok",
            // A `+` made optional by what follows it (found by FuzzLinePattern
            // as `s*A+*`, which is now refused as a stacked operator).
            "s*(A+)*", "x(A+)?y", "(A+){0,3}B",
        ]
        let lines = [
            "", "color", "colour", "colouur", "abc", "abbbc", "ac", "xxyz", "xyz", "]yz", "x]yz",
            "foobaz", "barbaz", "bazbaz", "ERROR: disk", "an ERROR: x", "all done", "done later",
            "1.2.3", "1x2x3", "an error", "warning", "a-b", "ab", "timeout", "Timeout", "TIMEOUT here",
            "a word here", "swordfish", "AB", "ok", "k", "ababc", "status=503 took=1200ms",
            "status=503 took=12ms", "status=200 took=1200ms", "a|b", "c", "|x", "connection refused",
            "xy", "xAy", "B", "AAB",
        ]
        for pattern in patterns {
            for ignoringCase in [false, true] {
                let fast = try LinePattern(pattern, ignoringCase: ignoringCase)
                var plain = regex_t()
                #expect(regcomp(&plain, pattern, REG_EXTENDED | REG_NOSUB | (ignoringCase ? REG_ICASE : 0)) == 0)
                defer { regfree(&plain) }
                for line in lines {
                    let expected = regexec(&plain, line, 0, nil, 0) == 0
                    #expect(fast.matches(line) == expected, "\(pattern) ignoringCase: \(ignoringCase) on '\(line)'")
                }
            }
        }
    }

    @Test func ignoringCaseFoldsTheLiteralToo() throws {
        let pattern = try LinePattern("Connection refused", ignoringCase: true)
        #expect(pattern.matches("ERR: CONNECTION REFUSED by peer"))
        #expect(!pattern.matches("connection accepted"))
    }

    @Test func digitEscapesAreAccepted() throws {
        let pattern = try LinePattern("took=\\d{3,}ms")
        #expect(pattern.matches("took=1200ms"))
        #expect(!pattern.matches("took=12ms"))
        #expect(try LinePattern("[\\d]").matches("d"))  // inside brackets a backslash is itself
        #expect(try LinePattern("id=\\D").matches("id=x"))
        #expect(try LinePattern("^[[:alpha:]\\d]$").matches("\\"))  // the class closes at `:]`, not `]`
        #expect(try !LinePattern("^[[:alpha:]\\d]$").matches("7"))
    }

    @Test func aBadPatternIsAOneLineError() {
        #expect(throws: LinePatternError(pattern: "(", reason: "Unmatched ( or \\(")) {
            try LinePattern("(")
        }
        #expect(throws: LinePatternError.self) { try LinePattern("a{2,1}") }
    }

    /// Found by Fuzz/Harnesses FuzzLinePattern: `x++++…` made glibc's
    /// regcomp take gigabytes (it doubles the tree per `+`, and copies it
    /// per count of an interval). Each of these asks for a million copies
    /// or more and is refused before regcomp; the largest single interval
    /// stays allowed.
    @Test(arguments: ["x" + String(repeating: "+", count: 20), "(a{1000}){1000}", "(((a+)+){600})+{500}", "b)(c{1000}){1000}"])
    func aPatternThatExpandsPastTheBoundIsRefused(pattern: String) {
        #expect(throws: LinePatternError.self) { try LinePattern(pattern) }
    }

    /// Found by FuzzLinePattern: shapes that make glibc's regcomp compute
    /// reachability for seconds to minutes over a pattern of a few dozen
    /// bytes (stacked operators, optional copies, deep nesting) and
    /// back-references, which regexec matches in exponential time. Each is
    /// refused with its reason before regcomp sees it.
    @Test(arguments: [
        ("\u{FF}\u{FF}29=\u{8}a???++++++++??t", "two repetition operators in a row"),
        ("a+*", "two repetition operators in a row"), ("a{2}{3}", "two repetition operators in a row"),
        ("(a?){2000}t", "optional copies"), ("(a{0,100}){0,100}t", "optional copies"),
        ("((a|b|c|d|e|f|g|h|i|j)?){2000}t", "optional copies"),
        ("((((a?|b?|c?)+)+)+)+t", "nested more than 2 deep"),
        ("(a*)b\\1", "back-references"),
    ])
    func aPatternGlibcCannotCompileOrMatchQuicklyIsRefused(pattern: String, reason: String) {
        do {
            _ = try LinePattern(pattern)
            Issue.record("\(pattern.debugDescription) compiled")
        } catch {
            #expect(error.reason.contains(reason), "\(error)")
        }
    }

    @Test func largeButReasonableRepetitionsCompile() throws {
        #expect(try LinePattern("(a?){1000}b").matches(String(repeating: "a", count: 999) + "b"))
        #expect(try LinePattern("(x{0,30}){0,30}y").matches("xxy"))
        #expect(try LinePattern("((GET|POST) /api/v[0-9]+ )+done").matches("GET /api/v2 POST /api/v10 done"))
        #expect(try LinePattern("[\\1]x").matches("\\x"))
        #expect(try LinePattern("x{32767}").matches(String(repeating: "x", count: 32767)))
        #expect(try LinePattern("([0-9]{1,3}\\.){3}[0-9]{1,3}").matches("10.0.0.1"))
        #expect(try LinePattern("a{2,}b+c*").matches("aabbb"))
    }

    @Test func linesWithNulAndInvalidUTF8AreMatchedByteWise() throws {
        let pattern = try LinePattern("end$")
        let bytes: [UInt8] = [0x61, 0x00, 0xFF, 0x20, 0x65, 0x6E, 0x64]
        #expect(bytes.withUnsafeBytes { line in pattern.withMatcher { $0.matches(line) } })
        #expect(!bytes.dropLast().withUnsafeBytes { line in pattern.withMatcher { $0.matches(line) } })
    }
}

/// The case-folding literal search looks at 16 positions at a time; its
/// answer must be the naive search's for every needle length and place.
@Suite struct FoldedSearchTests {
    private func naiveFirst(_ needle: [UInt8], in text: [UInt8]) -> Int? {
        func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }
        guard text.count >= needle.count else { return nil }
        return (0...(text.count - needle.count)).first { start in
            needle.indices.allSatisfy { lower(text[start + $0]) == lower(needle[$0]) }
        }
    }

    @Test func findsTheFirstOccurrenceAtEveryOffset() throws {
        var random = LineSkippingTests.XorShift(state: 0xDEAD_BEEF_CAFE_F00D)
        let alphabet = Array("aAbB@`[{ 0zZ".utf8)  // ASCII: a byte beyond it ends a literal
        for length in 1...20 {
            let needle = (0..<length).map { _ in alphabet.randomElement(using: &random)! }
            // A pattern that is this literal, ignoring case (escaped: plain text).
            let pattern = try LinePattern(String(decoding: needle, as: UTF8.self).map { "[]\\[{}().*+?|^$".contains($0) ? "\\\($0)" : "\($0)" }.joined(),
                                          ignoringCase: true)
            for place in 0..<48 {
                var text = (0..<(place + length + Int.random(in: 0...20, using: &random))).map { _ in alphabet.randomElement(using: &random)! }
                for offset in 0..<length {
                    let byte = needle[offset]
                    text[place + offset] = byte &- 0x61 < 26 && Bool.random(using: &random) ? byte & ~0x20 : byte
                }
                let found = text.withUnsafeBytes { bytes in pattern.withMatcher { $0.find(0, in: bytes) } }
                #expect(found == naiveFirst(needle, in: text), "\(needle) in \(text)")
            }
        }
    }
}
