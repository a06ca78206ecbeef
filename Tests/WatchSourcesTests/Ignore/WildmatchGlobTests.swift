import Testing
@testable import WatchSources

/// `Glob(wildmatch:)`: git's wildmatch as watchman's `match` term runs it,
/// in particular `WM_PERIOD` (`explicitPeriod`).
@Suite struct WildmatchGlobTests {
    static func matches(_ pattern: String, _ path: String, period: Bool = true, fold: Bool = false) -> Bool {
        guard let glob = try? Glob(wildmatch: Array(pattern.utf8), caseFold: fold, explicitPeriod: period) else { return false }
        return Array(path.utf8).withUnsafeBufferPointer { glob.matches(bytes: $0) }
    }

    @Test func aStarDoesNotMatchALeadingPeriod() {
        #expect(!Self.matches("*.c", ".bar.c"))
        #expect(Self.matches("*.c", ".bar.c", period: false))
        #expect(Self.matches(".*.c", ".bar.c"))
    }

    @Test func aGlobstarDoesNotReachThroughADotDirectory() {
        #expect(!Self.matches("/**/*.c", "foo/.bar.c"))
        #expect(!Self.matches("/**/*.c", ".git/x.c"))
        #expect(Self.matches("/**/*.c", "foo/baz.c"))
        #expect(Self.matches("/**/*.c", "foo/.bar.c", period: false))
        #expect(Self.matches("/**/.bar.c", ".bar.c"))
        #expect(Self.matches("/**/.hidden/*.c", "a/.hidden/x.c"))
    }

    @Test func aTrailingGlobstarTakesWhatIsBelowItsDirectory() {
        #expect(Self.matches("/src/**", "src/.hidden"))
        #expect(!Self.matches("/**", ".hidden"))
    }

    @Test func caseFoldingIsASCII() {
        #expect(Self.matches("/FOO/*.c", "foo/baz.c", fold: true))
        #expect(!Self.matches("/FOO/*.c", "foo/baz.c"))
    }

    @Test func withoutPeriodTheMatcherIsUnchanged() {
        #expect(Self.matches("/**/*.c", "a/.b/c.c", period: false))
        #expect(Self.matches("*.c", "deep/x.c", period: false))
    }
}
