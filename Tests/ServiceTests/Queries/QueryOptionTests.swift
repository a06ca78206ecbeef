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
}
