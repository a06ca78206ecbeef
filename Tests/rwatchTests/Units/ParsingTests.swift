import RecipeKit
@testable import rwatch
import Testing

@Suite struct ParsingTests {
    @Test func durationsTakeUnitsAndBareMilliseconds() throws {
        #expect(try DurationParser.parse("50ms") == .milliseconds(50))
        #expect(try DurationParser.parse("2s") == .seconds(2))
        #expect(try DurationParser.parse("1.5s") == .milliseconds(1500))
        #expect(try DurationParser.parse("1m") == .seconds(60))
        #expect(try DurationParser.parse("250us") == .microseconds(250))
        #expect(try DurationParser.parse("100") == .milliseconds(100))
        #expect(try DurationParser.parse("0") == .zero)
    }

    /// Found by Fuzz/Harnesses FuzzDuration: going through seconds in
    /// floating point, `4421457458000000ns` came out 1.5 ns too long.
    @Test func wholeDurationsAreExactInEveryUnit() throws {
        #expect(try DurationParser.parse("4421457458000000ns") == .milliseconds(4_421_457_458))
        #expect(try DurationParser.parse("4421457458") == .milliseconds(4_421_457_458))
        #expect(try DurationParser.parse("4421457458000us") == .milliseconds(4_421_457_458))
        #expect(try DurationParser.parse("7h") == .seconds(7 * 3600))
    }

    @Test func badDurationsSayWhatIsAccepted() {
        for text in ["", "fast", "5x", "-1s", "1e999s"] {
            #expect(throws: RWatchError.self) { try DurationParser.parse(text) }
        }
    }

    @Test func signalsParseByNameOrNumber() throws {
        #expect(try SignalParser.parse("TERM") == 15)
        #expect(try SignalParser.parse("SIGint") == 2)
        #expect(try SignalParser.parse("hup") == 1)
        #expect(try SignalParser.parse("9") == 9)
        #expect(throws: RWatchError.self) { try SignalParser.parse("SIGFOO") }
        #expect(throws: RWatchError.self) { try SignalParser.parse("0") }
        #expect(SignalName.name(15) == "SIGTERM")
    }

    @Test func sha256MatchesTheStandardVectors() {
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(SHA256.hex(Array(long.utf8)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test func recipeDescriptionsAreReadWithoutCompiling() {
        let text = #"let recipe = Recipe("x", "does \"y\" well") { }"#
        #expect(RecipeLibrary.description(in: text) == #"does "y" well"#)
        #expect(RecipeLibrary.description(in: "let x = 1") == nil)
    }
}
