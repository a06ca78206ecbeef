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

/// `decode` builds short lines a word at a time: every length and every
/// kind of byte must come out as the standard decoder makes it.
@Suite struct LineDecodingTests {
    @Test func everyLengthDecodesAsTheStandardDecoderDoes() {
        let alphabets: [[UInt8]] = [
            Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8),
            Array("é✓ab".utf8),                      // multi-byte characters, cut anywhere
            [0x61, 0xFF, 0x62, 0xC3, 0x80, 0xE2],    // invalid and truncated sequences
            [0x00, 0x7F, 0x09, 0x20],                // NUL and controls
        ]
        for alphabet in alphabets {
            for length in 0...40 {
                for offset in 0..<alphabet.count {
                    let bytes = (0..<length).map { alphabet[($0 + offset) % alphabet.count] }
                    // Padding around the line: decode must read only the line.
                    let padded = [0xAA, 0xBB] + bytes + [0x0A, 0xCC]
                    let decoded = padded.withUnsafeBytes { LineSplitter.decode(UnsafeRawBufferPointer(rebasing: $0[2..<(2 + length)])) }
                    #expect(decoded == String(decoding: bytes, as: UTF8.self), "\(bytes)")
                    #expect(decoded.utf8.count == String(decoding: bytes, as: UTF8.self).utf8.count)
                }
            }
        }
    }

    @Test func shortLinesCompareAndHashLikeLiterals() {
        let line = Array("12345".utf8).withUnsafeBytes { LineSplitter.decode($0) }
        #expect(line == "12345")
        #expect(line.hashValue == "12345".hashValue)
        #expect(Set([line, "12345"]).count == 1)
    }
}
