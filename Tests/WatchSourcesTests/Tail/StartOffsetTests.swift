#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import WatchSources

@Suite struct StartOffsetTests {
    /// The text a follower starting at `start` reads first from a file holding `content`.
    func firstRead(_ content: String, _ start: Tail.Start, pattern: LinePattern? = nil) -> String {
        let scratch = TemporaryDirectory(prefix: "rwatch-start")
        defer { scratch.remove() }
        scratch.write("f", content)
        let fd = open(scratch.file("f"), O_RDONLY)
        defer { close(fd) }
        let size = content.utf8.count
        let offset = StartOffset.offset(of: start, in: fd, size: size, pattern: pattern)
        return String(decoding: Array(content.utf8)[offset...], as: UTF8.self)
    }

    @Test func lastLinesLikeTail() {
        #expect(firstRead("1\n2\n3\n4\n", .lastLines(2)) == "3\n4\n")
        #expect(firstRead("1\n2\n3\n4", .lastLines(2)) == "3\n4")
        #expect(firstRead("1\n2\n", .lastLines(5)) == "1\n2\n")
        #expect(firstRead("1\n2\n", .lastLines(0)) == "")
        #expect(firstRead("", .lastLines(3)) == "")
        #expect(firstRead("\n\n\n", .lastLines(2)) == "\n\n")
    }

    /// `.lastMatching`: the start of the last N lines that the pattern
    /// keeps, however far back (`grep | tail -n N`); the follower's pattern
    /// drops the rest after it.
    @Test func lastMatchingStartsAtTheNthMatchFromTheEnd() throws {
        let errors = try LinePattern("error", ignoringCase: true)
        let content = "ERROR 1\ninfo\nerror 2\n" + String(repeating: "info\n", count: 20)
        #expect(firstRead(content, .lastMatching(1), pattern: errors) == "error 2\n" + String(repeating: "info\n", count: 20))
        #expect(firstRead(content, .lastMatching(2), pattern: errors) == content)
        #expect(firstRead(content, .lastMatching(5), pattern: errors) == content)
        #expect(firstRead("info\nerror\r\n", .lastMatching(1), pattern: try LinePattern("error$")) == "error\r\n")
        #expect(firstRead("info\nerror", .lastMatching(1), pattern: errors) == "error")
        #expect(firstRead("info\n", .lastMatching(3), pattern: errors) == "info\n")
        #expect(firstRead(content, .lastMatching(0), pattern: errors) == "")
    }

    @Test func lastMatchingWithoutAPatternIsLastLines() {
        #expect(firstRead("1\n2\n3\n", .lastMatching(2)) == "2\n3\n")
    }

    @Test func lastMatchingFindsALineLongerThanAReadChunk() throws {
        let long = String(repeating: "x", count: StartOffset.chunk + 10)
        let content = "error early\n" + long + " error\n" + String(repeating: "y\n", count: 10)
        let errors = try LinePattern("error")
        #expect(firstRead(content, .lastMatching(1), pattern: errors) == long + " error\n" + String(repeating: "y\n", count: 10))
        #expect(firstRead(content, .lastMatching(2), pattern: errors) == content)
    }

    @Test func lastLinesAcrossReadChunks() {
        let long = String(repeating: "x", count: StartOffset.chunk + 10)
        let content = "first\n" + long + "\nlast\n"
        #expect(firstRead(content, .lastLines(2)) == long + "\nlast\n")
        #expect(firstRead(content, .lastLines(3)) == content)
    }

    @Test func fromLineNumber() {
        #expect(firstRead("1\n2\n3\n", .line(1)) == "1\n2\n3\n")
        #expect(firstRead("1\n2\n3\n", .line(2)) == "2\n3\n")
        #expect(firstRead("1\n2\n3\n", .line(4)) == "")
        #expect(firstRead("1\n2\n3\n", .line(9)) == "")
        #expect(firstRead("1\n2\n3\n", .start) == "1\n2\n3\n")
        #expect(firstRead("1\n2\n3\n", .end) == "")
    }
}
