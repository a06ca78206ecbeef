import SystemPackage
import Testing
@testable import WatchSources

/// `-v` says each ignored change once: a default ignore once in all, any
/// other rule once per path.
@Suite struct IgnoreMentionsTests {
    let sed = IgnoreReason(source: .defaultIgnore, pattern: "sed??????")
    let swap = IgnoreReason(source: .defaultIgnore, pattern: "*.swp")
    let log = IgnoreReason(source: .file(path: "/w/.gitignore", line: 1), pattern: "*.log")

    @Test func aDefaultIgnoreIsNamedOnceWithItsFirstPath() {
        var mentions = IgnoreMentions()
        #expect(mentions.line(for: "/w/sedAb12Cd", sed)
                == "ignored /w/sedAb12Cd: default ignore sed?????? (named once; later names it ignores are not listed)")
        #expect(mentions.line(for: "/w/sedAb12Cd", sed) == nil)
        #expect(mentions.line(for: "/w/sedZz98Yx", sed) == nil)
    }

    @Test func eachDefaultIgnoreIsNamedOnItsOwn() {
        var mentions = IgnoreMentions()
        #expect(mentions.line(for: "/w/sedAb12Cd", sed) != nil)
        #expect(mentions.line(for: "/w/.a.c.swp", swap) != nil)
    }

    @Test func anotherRuleIsNamedOncePerPath() {
        var mentions = IgnoreMentions()
        #expect(mentions.line(for: "/w/app.log", log) == "ignored /w/app.log: /w/.gitignore:1: *.log")
        #expect(mentions.line(for: "/w/app.log", log) == nil)
        #expect(mentions.line(for: "/w/db.log", log) == "ignored /w/db.log: /w/.gitignore:1: *.log")
    }

    @Test func pathsPastTheLimitAreForgottenAndSaidAgain() {
        var mentions = IgnoreMentions()
        #expect(mentions.line(for: "/w/first.log", log) != nil)
        for index in 1..<IgnoreMentions.pathLimit { _ = mentions.line(for: FilePath("/w/\(index).log"), log) }
        #expect(mentions.line(for: "/w/first.log", log) != nil)
    }
}
