import SystemPackage
import Testing
import WatchSources

@Suite struct QuotedTests {
    @Test(arguments: [
        ("/var/log/app.log", "/var/log/app.log"),
        ("my logs/app.log", "'my logs/app.log'"),
        ("a\nb", "'a\\nb'"),
        ("tab\there", "'tab\\there'"),
        ("it's", "'it\\'s'"),
        ("$(touch pwned)", "'$(touch pwned)'"),
        ("$(id)", "$(id)"),
        ("bell\u{7}", "'bell\\x07'"),
        ("café", "café"),
        ("invoice\u{202E}gpj.exe", "'invoice\\xe2\\x80\\xaegpj.exe'"),
        ("line\u{2028}sep", "'line\\xe2\\x80\\xa8sep'"),
        ("non\u{FFFF}char", "'non\\xef\\xbf\\xbfchar'"),
        ("", "''"),
    ])
    func pathsAreShownOnOneUnambiguousLine(path: String, shown: String) {
        #expect(Quoted.path(path) == shown)
        #expect(!Quoted.path(path).contains("\n"))
    }

    @Test(arguments: [
        ("plain/name.txt", "plain/name.txt"),
        ("red\u{1B}[31m", "red\\e[31m"),
        ("new\nline\r", "new\\nline\\r"),
        ("tab\t", "tab\\t"),
        ("del\u{7F}", "del\\x7f"),
        ("c1\u{85}", "c1\\xc2\\x85"),
        ("back\\slash", "back\\\\slash"),
        ("quote'd space", "quote'd space"),
        ("naïve ✓", "naïve ✓"),
    ])
    func controlCharactersAreEscapedLikeLsB(text: String, shown: String) {
        #expect(Quoted.escaped(text) == shown)
        #expect(Quoted.escaped(FilePath(text)) == shown)
    }

    @Test func bytesThatAreNotUTF8AreShownAsHexEscapes() {
        let path = FilePath(platformString: (Array("/d/bad".utf8) + [0xFF, 0xFE, 0xC3] + Array("(.txt".utf8) + [0]).map { CChar(bitPattern: $0) })
        #expect(Quoted.escaped(path) == "/d/bad\\xff\\xfe\\xc3(.txt")
        #expect(Quoted.path(path) == "'/d/bad\\xff\\xfe\\xc3(.txt'")
    }

    @Test func aMessageLineKeepsItsBackslashesAndLosesItsControlCharacters() {
        #expect(Quoted.line("cannot watch 'a\\nb': gone") == "cannot watch 'a\\nb': gone")
        #expect(Quoted.line("dropped /d/x\u{1B}[2J\ny: ignored") == "dropped /d/x\\e[2J\\ny: ignored")
        #expect(Quoted.line("c1\u{9B}31m") == "c1\\xc2\\x9b31m")
    }

    /// A followed log on a terminal: colours and tabs pass, every other
    /// control sequence is shown, not obeyed.
    @Test(arguments: [
        ("plain text", "plain text"),
        ("\u{1B}[31mred\u{1B}[0m and \u{1B}[1;38;5;208mbold\u{1B}[m", "\u{1B}[31mred\u{1B}[0m and \u{1B}[1;38;5;208mbold\u{1B}[m"),
        ("a\tb", "a\tb"),
        ("\u{1B}]0;pwned\u{7}", "\\e]0;pwned\\x07"),
        ("\u{1B}[2J\u{1B}[H", "\\e[2J\\e[H"),
        ("hidden\rshown", "hidden\\rshown"),
        ("c1 \u{9B}31m", "c1 \\xc2\\x9b31m"),
        ("\u{1B}[31", "\\e[31"),
        ("back\\slash", "back\\slash"),
    ])
    func aLogLineKeepsItsColoursAndNothingElseTheTerminalWouldObey(_ line: String, _ shown: String) {
        #expect(Quoted.terminalLine(line) == shown)
    }
}
