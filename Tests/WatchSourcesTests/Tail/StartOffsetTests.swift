#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import WatchSources

@Suite struct StartOffsetTests {
    /// The text a follower starting at `start` reads first from a file holding `content`.
    func firstRead(_ content: String, _ start: Tail.Start) -> String {
        let scratch = TemporaryDirectory(prefix: "rwatch-start")
        defer { scratch.remove() }
        scratch.write("f", content)
        let fd = open(scratch.file("f"), O_RDONLY)
        defer { close(fd) }
        let size = content.utf8.count
        let offset = StartOffset.offset(of: start, in: fd, size: size)
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
