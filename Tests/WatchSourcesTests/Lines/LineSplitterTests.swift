@testable import WatchSources
import Testing

@Suite struct LineSplitterTests {
    private func split(_ chunks: [[UInt8]], maximum: Int = LineSplitter.defaultMaximumLineLength, finish: Bool = true) -> [String] {
        var splitter = LineSplitter(maximumLineLength: maximum)
        var lines: [String] = []
        for chunk in chunks {
            chunk.withUnsafeBytes { splitter.append($0) { lines.append(LineSplitter.decode($0)) } }
        }
        if finish { splitter.finish { lines.append(LineSplitter.decode($0)) } }
        return lines
    }

    @Test func splitsOnNewlineAndStripsCarriageReturn() {
        #expect(split([Array("a\nb\r\n\nc\r\n".utf8)]) == ["a", "b", "", "c"])
    }

    @Test func joinsALineSplitAcrossChunks() {
        #expect(split([Array("hel".utf8), Array("lo\nwo".utf8), Array("rld\n".utf8)]) == ["hello", "world"])
    }

    @Test func aCarriageReturnSplitFromItsNewlineIsStillStripped() {
        #expect(split([Array("dos\r".utf8), Array("\n".utf8)]) == ["dos"])
    }

    @Test func holdsTheUnfinishedLineUntilFinish() {
        #expect(split([Array("done\nhalf".utf8)], finish: false) == ["done"])
        #expect(split([Array("done\nhalf".utf8)]) == ["done", "half"])
    }

    @Test func aLoneCarriageReturnInsideALineIsKept() {
        #expect(split([Array("a\rb\n".utf8)]) == ["a\rb"])
    }

    @Test func anOverlongLineIsCutIntoPiecesInsteadOfGrowingForever() {
        let lines = split([Array("abcdefgh".utf8), Array("ij\n".utf8)], maximum: 4)
        #expect(lines == ["abcdefgh", "ij"])
        let pieces = split([Array("abcd".utf8), Array("efgh".utf8), Array("ij".utf8)], maximum: 4, finish: false)
        #expect(pieces == ["abcd", "efgh"])
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        #expect(split([[0x61, 0xC3, 0x0A, 0xFF, 0xFE, 0x0A]]) == ["a\u{FFFD}", "\u{FFFD}\u{FFFD}"])
    }
}
