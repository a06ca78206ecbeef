@testable import RecipeKit
import Testing

/// `JSONLine`: every line valid UTF-8 JSON, every path's bytes recoverable.
@Suite struct JSONLineTests {
    private func path(_ bytes: [UInt8]) -> FilePath {
        FilePath(platformString: (bytes + [0]).map { CChar(bitPattern: $0) })
    }

    @Test func bytesThatAreNotUTF8BecomeSurrogateEscapes() {
        let name = path(Array("/d/bad".utf8) + [0xFF, 0xFE, 0xC3] + Array("(.txt".utf8))
        let line = JSONLine.encode(FileEvent(path: name, kind: .created))
        #expect(line == #"{"path":"/d/bad\udcff\udcfe\udcc3(.txt","kind":"created","isDirectory":false}"#)
    }

    @Test func validUTF8StaysAsItIs() {
        #expect(JSONLine.quote(FilePath("/d/naïve ✓.txt")) == "\"/d/naïve ✓.txt\"")
    }

    @Test func aTruncatedSequenceIsEscapedByteByByte() {
        // E2 82 is the start of "€" (E2 82 AC) cut short.
        #expect(JSONLine.quote(path([0x2F, 0xE2, 0x82, 0x61])) == #""/\udce2\udc82a""#)
    }

    @Test func controlCharactersAreEscapedTheJSONWay() {
        #expect(JSONLine.quote(FilePath("/a\u{1B}[31m\n\t\"\\\u{7F}\u{85}")) == #""/a\u001b[31m\n\t\"\\\u007f\u0085""#)
    }
}
