import Testing
import WatchmanProtocol
@testable import Service

/// Ill-shaped expressions get watchman's error texts, never a crash.
@Suite struct ExpressionParseTests {
    static func error(_ value: WatchmanValue, caseSensitive: Bool = true) -> String? {
        do {
            _ = try QueryExpression(parsing: value, caseSensitive: caseSensitive)
            return nil
        } catch {
            return error.description
        }
    }

    static func s(_ text: String) -> WatchmanValue { .string(text) }
    static func a(_ values: WatchmanValue...) -> WatchmanValue { .array(values) }

    @Test func anUnknownTermIsNamed() {
        let text = Self.error(Self.a(Self.s("allof"), Self.s("dont-implement-this-term"), Self.a(Self.s("anyof"), Self.a(Self.s("suffix"), Self.s("apcarc")))))
        #expect(text?.contains("failed to parse query: unknown expression term 'dont-implement-this-term'") == true)
    }

    @Test func termsWithoutArraysSayWhatTheyNeed() {
        #expect(Self.error(Self.s("name"))?.contains("Expected array for 'name' term") == true)
        #expect(Self.error(Self.s("suffix"))?.contains("Expected array for 'suffix' term") == true)
        #expect(Self.error(Self.s("type"))?.contains("\"type\" term requires a type string parameter") == true)
        #expect(Self.error(Self.s("not"))?.contains("must use [\"not\", expr]") == true)
        #expect(Self.error(Self.s("allof"))?.contains("must use [\"allof\", expr...]") == true)
    }

    @Test func nameArgumentsAreChecked() {
        #expect(Self.error(Self.a(Self.s("name"), Self.s("one"), Self.s("two"), Self.s("three")))?.contains("Invalid number of arguments for 'name' term") == true)
        #expect(Self.error(Self.a(Self.s("name"), .int(2)))?.contains("Argument 2 to 'name' must be either a string or an array of string") == true)
        #expect(Self.error(Self.a(Self.s("iname"), Self.s("one"), .int(2)))?.contains("Argument 3 to 'iname' must be a string") == true)
        #expect(Self.error(Self.a(Self.s("name"), Self.s("one"), Self.s("invalid")))?.contains("Invalid scope 'invalid' for name expression") == true)
    }

    @Test func typeLettersAreChecked() {
        #expect(Self.error(Self.a(Self.s("type"), Self.s("x")))?.contains("invalid type string 'x'") == true)
        #expect(Self.error(Self.a(Self.s("type"), .int(123)))?.contains("First parameter to \"type\" term must be a type string") == true)
        #expect(Self.error(Self.a(Self.s("type"), Self.s("D"))) == nil)
    }

    @Test func aBadRegexSaysWhereItBroke() {
        let text = Self.error(Self.a(Self.s("pcre"), Self.s("(")))
        #expect(text?.contains("at offset 1 in (") == true)
    }

    @Test func sinceTermsRefuseCursorsAndFieldMismatches() {
        #expect(Self.error(Self.a(Self.s("since"), Self.s("n:foo")))?.contains("named cursors are not allowed") == true)
        #expect(Self.error(Self.a(Self.s("since"), Self.s("c:1:2:3:4"), Self.s("mtime")))?.contains("requires a timestamp value") == true)
        #expect(Self.error(Self.a(Self.s("since"), .int(5), Self.s("atime")))?.contains("invalid field name \"atime\"") == true)
        #expect(Self.error(Self.a(Self.s("since"), .int(5), Self.s("mtime"))) == nil)
    }

    @Test func sizeNeedsAnOperatorAndAnInteger() {
        #expect(Self.error(Self.a(Self.s("size"), Self.s("gt")))?.contains("integer comparator must have 3 elements") == true)
        #expect(Self.error(Self.a(Self.s("size"), Self.s("bigger"), .int(1)))?.contains("integer comparator opname `bigger' is invalid") == true)
        #expect(Self.error(Self.a(Self.s("size"), Self.s("gt"), Self.s("1")))?.contains("operand must be an integer") == true)
    }

    @Test func deepNestingIsRefusedNotFollowed() {
        var value = Self.s("true")
        for _ in 0..<1_000 { value = Self.a(Self.s("not"), value) }
        #expect(Self.error(value)?.contains("nested") == true)
    }

    @Test func otherShapesAreErrors() {
        #expect(Self.error(.int(3))?.contains("expected array or string for an expression") == true)
        #expect(Self.error(Self.a(.int(3)))?.contains("first element of an expression must be a string") == true)
        #expect(Self.error(Self.a())?.contains("first element of an expression must be a string") == true)
        #expect(Self.error(Self.a(Self.s("match")))?.contains("must be a pattern string") == true)
        #expect(Self.error(Self.a(Self.s("match"), Self.s("*"), Self.s("basename"), .int(1)))?.contains("optional object") == true)
        #expect(Self.error(Self.a(Self.s("dirname"), Self.s("a"), Self.a(Self.s("width"), Self.s("eq"), .int(1))))?.contains("relational depth term") == true)
    }

    /// A fat clock parses into its two halves; whether the root can answer
    /// it is the root's question (`SCMQueryTests`).
    @Test func aFatClockSinceParsesIntoItsClockAndSourceControlHalves() throws {
        let since: WatchmanValue = .object([(key: "scm", value: .object([(key: "mergebase-with", value: Self.s("remote/master"))])),
                                            (key: "clock", value: Self.s("c:0:0"))])
        let spec = try QuerySpec(parsing: .object([(key: "since", value: since)]))
        #expect(spec.since == .legacy)
        #expect(spec.scm == SCMClock(mergebaseWith: "remote/master", mergebase: ""))
    }

    @Test func bytesStringsAreReadLikeText() {
        #expect(Self.error(.array([.bytes(Array("suffix".utf8)), .bytes(Array("c".utf8))])) == nil)
    }
}
