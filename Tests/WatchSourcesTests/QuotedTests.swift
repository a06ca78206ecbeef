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
        ("bell\u{7}", "'bell\\x7'"),
        ("", "''"),
    ])
    func pathsAreShownOnOneUnambiguousLine(path: String, shown: String) {
        #expect(Quoted.path(path) == shown)
        #expect(!Quoted.path(path).contains("\n"))
    }
}
