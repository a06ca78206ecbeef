import Testing
import WatchmanProtocol
@testable import Service

/// What newer clients (Jest, Metro, Buck2, Sapling) put in their queries,
/// over a real socket on real files: the `suffix` set, `dedup_results`
/// and `always_include_directories`.
@Suite struct QueryOptionTests {
    /// `["suffix", [...]]` keeps a name whose suffix is any of the set, in
    /// any case, as the single form does (watchman's `suffix-set`).
    @Test func aSuffixSetMatchesAnyOfItsSuffixesInAnyCase() throws {
        let service = try ServiceRoot()
        for name in ["a.js", "b.TS", "c.css", "d.jsx", "js"] { service.write(name) }
        service.watch()
        let names = service.names([("expression", ["suffix", ["js", "ts"]])])
        #expect(names == ["a.js", "b.TS"])
        #expect(service.names([("expression", ["suffix", "ts"])]) == ["b.TS"])
    }

    /// A client asks for `suffix-set` before sending the set form: both
    /// `version` and `list-capabilities` report it.
    @Test func suffixSetIsAnnouncedByVersionAndListCapabilities() throws {
        let service = try ServiceRoot()
        let version = service.call(["version", ["required": ["suffix-set"]]])
        #expect(version["capabilities"] == ["suffix-set": true])
        let listed = service.call(["list-capabilities"])["capabilities"]?.elements?.compactMap(\.text) ?? []
        #expect(listed.contains("suffix-set"))
    }

    /// Two generators naming the same file report it twice, unless the
    /// query sets `dedup_results`.
    @Test func dedupResultsReportsANameOnce() throws {
        let service = try ServiceRoot()
        service.mkdir("sub")
        service.write("sub/a")
        service.watch()
        let twice: WatchmanValue = ["sub", "sub"]
        #expect(service.names([("path", twice)]) == ["sub/a", "sub/a"])
        #expect(service.names([("path", twice), ("dedup_results", true)]) == ["sub/a"])
        let refused = service.call(["query", .string(service.root), ["dedup_results": "yes"]])
        #expect(refused["error"]?.text?.contains("dedup_results must be a boolean") == true)
    }

    /// A directory made since the clock is reported with
    /// `always_include_directories` (as it is without: here no commit
    /// change hides a directory); a value that is no boolean is refused
    /// with watchman's error.
    @Test func alwaysIncludeDirectoriesReportsChangedDirectories() throws {
        let service = try ServiceRoot()
        service.watch()
        let clock = service.call(["clock", .string(service.root), ["sync_timeout": 10_000]])["clock"] ?? .null
        service.mkdir("made")
        service.write("made/file")
        let names = service.names([("since", clock), ("always_include_directories", true)])
        #expect(names == ["made", "made/file"])
        let refused = service.call(["query", .string(service.root), ["always_include_directories": 1]])
        #expect(refused["error"]?.text?.contains("always_include_directories must be a boolean") == true)
    }
}
