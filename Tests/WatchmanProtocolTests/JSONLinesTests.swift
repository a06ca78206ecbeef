import Testing
import WatchmanProtocol

@Suite struct JSONLinesTests {
    private func line(_ value: WatchmanValue) -> String {
        String(decoding: JSONLines.encode(value), as: UTF8.self)
    }

    @Test func aReplyIsOneCompactLineInTheOrderItWasBuilt() {
        let reply: WatchmanValue = ["version": "1", "files": [["name": .bytes(Array("a b".utf8)), "size": 3]], "fresh": true, "none": nil]
        #expect(line(reply) == #"{"version":"1","files":[{"name":"a b","size":3}],"fresh":true,"none":null}"# + "\n")
    }

    @Test func aNameThatIsNotUTF8IsWrittenWithSurrogateEscapesAsRwatchEventsWritesIt() throws {
        // "é" as UTF-8 stays; 0xff and a lone continuation byte become \udcXX.
        let name = WatchmanValue.bytes([0x61, 0xC3, 0xA9, 0xFF, 0x80, 0x62])
        #expect(line(name) == "\"aé\\udcff\\udc80b\"\n")
        #expect(try JSONLines.decode(JSONLines.encode(name)) == name)
    }

    @Test func controlCharactersQuotesAndC1AreEscaped() throws {
        let text = WatchmanValue.string("a\"b\\c\n\t\u{1b}\u{7f}\u{85}é")
        #expect(line(text) == #""a\"b\\c\n\t\u001b\u007f\u0085é""# + "\n")
        #expect(try JSONLines.decode(JSONLines.encode(text)) == text)
    }

    @Test func whatPythonClientsSendIsRead() throws {
        // json.dumps with ensure_ascii: \u escapes, surrogate pairs, and a
        // surrogate-escaped name from os.fsdecode.
        let value = try JSONLines.decode(Array(#"["query", "/r\u00e9", "\ud83d\ude00", "\udcff", 1.5, -2, 1e3, 99999999999999999999]"#.utf8))
        #expect(value == [.string("query"), .string("/ré"), .string("😀"), .bytes([0xFF]), .real(1.5), .int(-2), .real(1000), .real(1e20)])
    }

    @Test func rawBytesThatAreNotUTF8AreKeptAsBytes() throws {
        #expect(try JSONLines.decode([0x22, 0x61, 0xFF, 0x22]) == .bytes([0x61, 0xFF]))
    }

    @Test func realsThatAreNotFiniteBecomeNull() {
        #expect(line(.real(.infinity)) == "null\n")
        #expect(line(.real(0.25)) == "0.25\n")
    }

    @Test func malformedDocumentsAreErrorsWithAPosition() {
        for bad in [#"["a""#, "{", #"{"a" 1}"#, "[1,]", "tru", "01", #""\x""#, #""\ud800""#, "[1] x", "\"a\u{1}\"", "-", "1.", "1e"] {
            #expect(throws: WireError.self, "\(bad)") { try JSONLines.decode(Array(bad.utf8)) }
        }
    }

    @Test func nestingIsBounded() throws {
        let deep = String(repeating: "[", count: 501) + String(repeating: "]", count: 501)
        #expect(throws: WireError.self) { try JSONLines.decode(Array(deep.utf8)) }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        _ = try JSONLines.decode(Array(fine.utf8))
    }

    @Test func aRepeatedKeyTakesTheLastValueInTheFirstPlace() throws {
        #expect(try JSONLines.decode(Array(#"{"a":1,"b":2,"a":3}"#.utf8)) == ["a": 3, "b": 2])
    }
}
