import Testing
import WatchmanProtocol
@testable import Service

/// Each expression term `version` announces (`term-NAME`) keeps the files
/// watchman's docs say it keeps: the terms no other test evaluates.
@Suite struct TermEvaluationTests {
    typealias Q = QueryEngineTests
    static let table = Q.table(["Foo.c", "bar.txt", "src/Lib/x.c", "src/lib/y.C", "a/b", "a/x/y/b"])

    static func keep(_ expression: WatchmanValue, _ more: (String, WatchmanValue)...) throws -> [String] {
        try Q.names(table, .object([(key: "expression", value: expression)] + more.map { (key: $0.0, value: $0.1) }))
    }

    @Test func trueKeepsEverythingAndFalseNothing() throws {
        #expect(try Self.keep("true").count == 12)
        #expect(try Self.keep("false") == [])
    }

    @Test func notAnyofAndAllofCombineTerms() throws {
        #expect(try Self.keep(["not", ["type", "d"]]) == ["Foo.c", "a/b", "a/x/y/b", "bar.txt", "src/Lib/x.c", "src/lib/y.C"])
        #expect(try Self.keep(["anyof", ["name", "bar.txt"], ["name", "b"]]) == ["a/b", "a/x/y/b", "bar.txt"])
        #expect(try Self.keep(["allof", ["suffix", "c"], ["dirname", "src"]]) == ["src/Lib/x.c", "src/lib/y.C"])
    }

    /// `exists` keeps what is there; a deleted file is only reported by a
    /// `since` query, where the term tells the two apart.
    @Test func existsTellsADeletedFileFromOneThatIsThere() throws {
        var table = Q.table(["kept", "gone"])
        let clock = Q.s(ClockPosition(rootNumber: 1, tick: 1).clockString())
        table.advance(now: 2000)
        let gone = Array("gone".utf8).withUnsafeBufferPointer { table.lookup(parent: 0, $0) }!
        table.markDeleted(gone)
        Q.record(&table, "kept", Q.file(99, size: 1))
        let since: WatchmanValue = .object([(key: "since", value: clock)])
        #expect(try Q.names(table, since) == ["gone", "kept"])
        let existing: WatchmanValue = .object([(key: "since", value: clock), (key: "expression", value: "exists")])
        #expect(try Q.names(table, existing) == ["kept"])
        let deleted: WatchmanValue = .object([(key: "since", value: clock), (key: "expression", value: ["not", "exists"])])
        #expect(try Q.names(table, deleted) == ["gone"])
    }

    @Test func nameAndInameMatchWholeNamesOrBasenames() throws {
        #expect(try Self.keep(["name", ["foo.c", "bar.txt"]]) == ["bar.txt"])
        #expect(try Self.keep(["iname", ["foo.c", "bar.txt"]]) == ["Foo.c", "bar.txt"])
        #expect(try Self.keep(["name", "src/lib/y.C", "wholename"]) == ["src/lib/y.C"])
        #expect(try Self.keep(["iname", "SRC/LIB/Y.c", "wholename"]) == ["src/lib/y.C"])
    }

    @Test func imatchAndIdirnameFoldCase() throws {
        #expect(try Self.keep(["match", "foo.*"]) == [])
        #expect(try Self.keep(["imatch", "foo.*"]) == ["Foo.c"])
        #expect(try Self.keep(["allof", ["dirname", "src/lib"], ["type", "f"]]) == ["src/lib/y.C"])
        #expect(try Self.keep(["allof", ["idirname", "SRC/LIB"], ["type", "f"]]) == ["src/Lib/x.c", "src/lib/y.C"])
    }

    @Test func pcreAndIpcreMatchRegularExpressions() throws {
        #expect(try Self.keep(["pcre", "^[a-z]+\\.c$"]) == ["src/Lib/x.c"])
        #expect(try Self.keep(["ipcre", "^[a-z]+\\.c$"]) == ["Foo.c", "src/Lib/x.c", "src/lib/y.C"])
        #expect(try Self.keep(["pcre", "^src/l", "wholename"]) == ["src/lib", "src/lib/y.C"])
    }

    /// `wildmatch-multislash`: `**/` in a wholename pattern matches no
    /// directory as well as several.
    @Test func aDoubleStarSlashMatchesZeroOrMoreDirectories() throws {
        #expect(try Self.keep(["match", "a/**/b", "wholename"]) == ["a/b", "a/x/y/b"])
    }

    /// The `since` term keeps what changed after its clock (or time), by
    /// the field it names.
    @Test func theSinceTermKeepsWhatChangedAfterItsClock() throws {
        var table = Q.table(["old"])
        let clock = Q.s(ClockPosition(rootNumber: 1, tick: 1).clockString())
        table.advance(now: 2000)
        Q.record(&table, "fresh", Q.file(50))
        #expect(try Q.names(table, .object([(key: "expression", value: ["since", clock])])) == ["fresh"])
        #expect(try Q.names(table, .object([(key: "expression", value: ["since", .int(1500)])])) == ["fresh"])
        #expect(try Q.names(table, .object([(key: "expression", value: ["not", ["since", clock]])])) == ["old"])
    }
}
