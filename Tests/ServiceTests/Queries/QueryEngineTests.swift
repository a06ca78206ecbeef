import Glibc
import Testing
import WatchmanProtocol
@testable import Service

/// Queries against a table built in memory: generators, relative roots,
/// fresh instances, and the terms, without a watcher or a socket.
@Suite struct QueryEngineTests {
    static let directory = FileStat(ino: 1, mode: UInt32(S_IFDIR) | 0o755)
    static func file(_ ino: UInt64, size: Int64 = 0, mtime: Int64 = 0) -> FileStat {
        FileStat(size: size, ino: ino, mode: UInt32(S_IFREG) | 0o644, mtime: mtime)
    }

    /// A table holding `files` (relative paths; parents made as directories) at tick 1.
    static func table(_ files: [String]) -> FileTable {
        var table = FileTable(root: directory)
        table.advance(now: 1000)
        for (index, path) in files.enumerated() { record(&table, path, file(UInt64(index + 10))) }
        return table
    }

    static func record(_ table: inout FileTable, _ path: String, _ stat: FileStat) {
        var parent: Int32 = 0
        let parts = path.split(separator: "/").map { Array($0.utf8) }
        for (position, part) in parts.enumerated() {
            let stat = position == parts.count - 1 ? stat : directory
            parent = part.withUnsafeBufferPointer { table.record(parent: parent, name: $0, stat).id }
        }
    }

    static func object(_ pairs: (String, WatchmanValue)...) -> WatchmanValue { .object(pairs.map { (key: $0.0, value: $0.1) }) }
    static func s(_ text: String) -> WatchmanValue { .string(text) }
    static func a(_ values: WatchmanValue...) -> WatchmanValue { .array(values) }

    /// The names a query over `table` reports.
    static func names(_ table: FileTable, _ query: WatchmanValue, cursors: inout [String: UInt64]) throws -> [String] {
        let spec = try QuerySpec(parsing: query)
        let outcome = try QueryEngine(spec: spec, table: table, rootNumber: 1).run(cursors: &cursors)
        return outcome.matches.map { String(decoding: $0.name, as: UTF8.self) }.sorted()
    }

    static func names(_ table: FileTable, _ query: WatchmanValue) throws -> [String] {
        var cursors: [String: UInt64] = [:]
        return try names(table, query, cursors: &cursors)
    }

    static func expression(_ table: FileTable, _ expression: WatchmanValue, _ more: (String, WatchmanValue)...) throws -> [String] {
        try names(table, .object([(key: "expression", value: expression)] + more.map { (key: $0.0, value: $0.1) }))
    }

    @Test func matchIsBasenameByDefaultAndWholeWithWholename() throws {
        let table = Self.table(["foo.c", "bar.txt", "foo/.bar.c", "foo/baz.c"])
        #expect(try Self.expression(table, Self.a(Self.s("match"), Self.s("*.c"))) == ["foo.c", "foo/baz.c"])
        #expect(try Self.expression(table, Self.a(Self.s("match"), Self.s("*.c"), Self.s("wholename"))) == ["foo.c"])
        #expect(try Self.expression(table, Self.a(Self.s("match"), Self.s("**/*.c"), Self.s("wholename"))) == ["foo.c", "foo/baz.c"])
        let dotted = Self.a(Self.s("match"), Self.s("**/*.c"), Self.s("wholename"), Self.object(("includedotfiles", .bool(true))))
        #expect(try Self.expression(table, dotted) == ["foo.c", "foo/.bar.c", "foo/baz.c"])
        #expect(try Self.expression(table, Self.a(Self.s("match"), Self.s("FOO/*.c"), Self.s("wholename"))) == [])
        #expect(try Self.expression(table, Self.a(Self.s("match"), Self.s("FOO/*.c"), Self.s("wholename")), ("case_sensitive", .bool(false))) == ["foo/baz.c"])
    }

    @Test func dirnameCountsDepthBelowTheDirectory() throws {
        let table = Self.table(["a", "1/a", "1a", "1/1/a", "1/1/1/a", "1/1/1/1/a", "1/1/1/1/1/a"])
        let a = Self.a(Self.s("name"), Self.s("a"))
        func dirname(_ name: String, _ depth: Int64?) throws -> [String] {
            var term = [Self.s("dirname"), Self.s(name)]
            if let depth { term.append(Self.a(Self.s("depth"), Self.s("gt"), .int(depth))) }
            return try Self.expression(table, Self.a(Self.s("allof"), .array(term), a))
        }
        #expect(try dirname("1", nil) == ["1/1/1/1/1/a", "1/1/1/1/a", "1/1/1/a", "1/1/a", "1/a"])
        #expect(try dirname("1", 2) == ["1/1/1/1/1/a", "1/1/1/1/a"])
        #expect(try dirname("", 3) == ["1/1/1/1/1/a", "1/1/1/1/a"])
        #expect(try dirname("", nil).count == 6)
    }

    @Test func suffixSizeTypeAndEmpty() throws {
        var table = Self.table(["foo.C", "sub/bar.txt", "README"])
        Self.record(&table, "big.bin", Self.file(99, size: 1024))
        #expect(try Self.expression(table, Self.a(Self.s("suffix"), Self.s("c"))) == ["foo.C"])
        #expect(try Self.expression(table, Self.a(Self.s("suffix"), Self.a(Self.s("c"), Self.s("txt")))) == ["foo.C", "sub/bar.txt"])
        #expect(try Self.expression(table, Self.a(Self.s("size"), Self.s("gt"), .int(100))) == ["big.bin"])
        #expect(try Self.expression(table, Self.a(Self.s("type"), Self.s("d"))) == ["sub"])
        #expect(try Self.expression(table, Self.s("empty")) == ["README", "foo.C", "sub", "sub/bar.txt"])
    }

    @Test func theSuffixAndGlobGeneratorsDeduplicate() throws {
        let table = Self.table(["a.c", ".a.c", "includes/a.h", "includes/second/b.h", "Hello/x", "hello.c"])
        #expect(try Self.names(table, Self.object(("glob", Self.a(Self.s("*.h"))))) == [])
        #expect(try Self.names(table, Self.object(("glob", Self.a(Self.s("**/*.h"), Self.s("**/**/*.h"), Self.s("includes/*.h"))))) == ["includes/a.h", "includes/second/b.h"])
        #expect(try Self.names(table, Self.object(("glob", Self.a(Self.s("*.c"))))) == ["a.c", "hello.c"])
        #expect(try Self.names(table, Self.object(("glob", Self.a(Self.s("*.c"))), ("glob_includedotfiles", .bool(true)))) == [".a.c", "a.c", "hello.c"])
        #expect(try Self.names(table, Self.object(("glob", Self.a(Self.s("*.h"))), ("relative_root", Self.s("includes")))) == ["a.h"])
        #expect(try Self.names(table, Self.object(("glob", Self.a(Self.s("Hello*"))), ("case_sensitive", .bool(false)))) == ["Hello", "hello.c"])
        #expect(try Self.names(table, Self.object(("suffix", Self.a(Self.s("C"), Self.s("h"))))) == [".a.c", "a.c", "hello.c", "includes/a.h", "includes/second/b.h"])
    }

    @Test func thePathGeneratorWalksToItsDepth() throws {
        let table = Self.table(["foo/bar", "foo/deep/x", "foo/deep/er/y", "top"])
        #expect(try Self.names(table, Self.object(("path", Self.a(Self.s("foo"))))) == ["foo/bar", "foo/deep", "foo/deep/er", "foo/deep/er/y", "foo/deep/x"])
        let shallow = Self.object(("path", Self.s("foo")), ("depth", .int(0)))
        #expect(try Self.names(table, Self.object(("path", Self.a(shallow)))) == ["foo/bar", "foo/deep"])
        #expect(try Self.names(table, Self.object(("path", Self.a(Self.s("top"))))) == ["top"])
        #expect(try Self.names(table, Self.object(("path", Self.a(Self.s("bar"))), ("relative_root", Self.s("foo")))) == ["bar"])
        #expect(try Self.names(table, Self.object(("path", Self.a()))) == [])
        #expect(try Self.names(table, Self.object(("path", Self.a(Self.s("nothing"))))) == [])
    }

    @Test func sinceReportsChangesAndFreshInstancesReportExistingFiles() throws {
        var table = Self.table(["one", "two"])
        var cursors: [String: UInt64] = [:]
        let clock = Self.s(ClockPosition(rootNumber: 1, tick: 1).clockString())
        table.advance(now: 2000)
        Self.record(&table, "three", Self.file(3))
        let two = Array("two".utf8).withUnsafeBufferPointer { table.lookup(parent: 0, $0) }!
        table.markDeleted(two)
        #expect(try Self.names(table, Self.object(("since", clock)), cursors: &cursors) == ["three", "two"])
        let stranger = Self.s("c:1:2:3:4")
        #expect(try Self.names(table, Self.object(("since", stranger)), cursors: &cursors) == ["one", "three"])
        #expect(try Self.names(table, Self.object(("since", Self.s("n:c"))), cursors: &cursors) == ["one", "three"])
        #expect(try Self.names(table, Self.object(("since", Self.s("n:c"))), cursors: &cursors) == [])
        #expect(try Self.names(table, Self.object(("since", stranger), ("empty_on_fresh_instance", .bool(true))), cursors: &cursors) == [])
        #expect(try Self.names(table, Self.object(("since", .int(1500))), cursors: &cursors) == ["three", "two"])
    }

    @Test func aRelativeRootStripsItsPrefixAndHidesTheRest() throws {
        let table = Self.table(["subdir/bar.txt", "foo.c"])
        let query = Self.object(("expression", Self.a(Self.s("name"), Self.s("bar.txt"), Self.s("wholename"))), ("relative_root", Self.s("subdir")))
        #expect(try Self.names(table, query) == ["bar.txt"])
        #expect(try Self.names(table, Self.object(("relative_root", Self.s("./subdir/")))) == ["bar.txt"])
    }

    @Test func fieldsAreRenderedAsWatchmanNamesThem() throws {
        var table = FileTable(root: Self.directory)
        table.advance(now: 1000)
        Self.record(&table, "a", Self.file(42, size: 3, mtime: 1_700_000_000_123_456_789))
        let spec = try QuerySpec(parsing: Self.object(("fields", Self.a(Self.s("name"), Self.s("size"), Self.s("mtime"), Self.s("mtime_ms"), Self.s("mtime_ns"), Self.s("type"), Self.s("new"), Self.s("cclock")))))
        var cursors: [String: UInt64] = [:]
        let outcome = try QueryEngine(spec: spec, table: table, rootNumber: 7).run(cursors: &cursors)
        let renderer = FieldRenderer(fields: spec.fields, position: outcome.position, basis: outcome.basis, times: table.times, base: Array("/r".utf8), hashes: nil)
        let file = renderer.render(outcome.matches)[0]
        #expect(file["name"] == .bytes(Array("a".utf8)))
        #expect(file["size"] == .int(3))
        #expect(file["mtime"] == .int(1_700_000_000))
        #expect(file["mtime_ms"] == .int(1_700_000_000_123))
        #expect(file["mtime_ns"] == .int(1_700_000_000_123_456_789))
        #expect(file["type"] == .string("f"))
        #expect(file["new"] == .bool(true))
        #expect(file["cclock"] == .string(ClockPosition(rootNumber: 7, tick: 1).clockString()))
        let one = try QuerySpec(parsing: Self.object(("fields", Self.a(Self.s("name")))))
        #expect(FieldRenderer(fields: one.fields, position: outcome.position, basis: .fresh, times: table.times, base: [], hashes: nil).render(outcome.matches) == [.bytes(Array("a".utf8))])
    }

    @Test func unknownFieldsAndBadOptionsAreErrors() {
        #expect(throws: QueryError.self) { try QuerySpec(parsing: Self.object(("fields", Self.a(Self.s("colour"))))) }
        #expect(throws: QueryError.self) { try QuerySpec(parsing: Self.object(("sync_timeout", .int(-1)))) }
        #expect(throws: QueryError.self) { try QuerySpec(parsing: Self.object(("glob", Self.a(Self.s("//abs/*.c"))))) }
        #expect(throws: QueryError.self) { try QuerySpec(parsing: Self.object(("suffix", Self.object(("a", Self.s("b")))))) }
        #expect(throws: QueryError.self) { try QuerySpec(parsing: Self.object(("since", .bool(true)))) }
        #expect(throws: QueryError.self) { try QuerySpec(parsing: .array([])) }
    }

    @Test func sha1MatchesKnownDigests() {
        func hex(_ text: String) -> String {
            var hasher = SHA1()
            Array(text.utf8).withUnsafeBytes { hasher.update($0) }
            return hasher.finish()
        }
        #expect(hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex("hello\n") == "f572d396fae9206628714fb2ce00f72e94f2258f")
        #expect(hex(String(repeating: "a", count: 1_000)) == "291e9a6c66994949b57ba5e650361e98fc36b1ba")
        #expect(hex(String(repeating: "x", count: 55)) == hex(String(repeating: "x", count: 55)))
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }
}
