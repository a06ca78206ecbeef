import Testing
import WatchmanProtocol

@Suite struct BSERTests {
    /// The template example of watchman's docs/bser.md, byte for byte.
    @Test func watchmansTemplateExampleDecodes() throws {
        let body: [UInt8] = [
            0x0b, 0x00, 0x03, 0x02, 0x02, 0x03, 0x04, 0x6e, 0x61, 0x6d, 0x65, 0x02, 0x03, 0x03, 0x61, 0x67, 0x65,
            0x03, 0x03,
            0x02, 0x03, 0x04, 0x66, 0x72, 0x65, 0x64, 0x03, 0x14,
            0x02, 0x03, 0x04, 0x70, 0x65, 0x74, 0x65, 0x03, 0x1e,
            0x0c, 0x03, 0x19,
        ]
        let value = try BSER.decodeBody(body)
        #expect(value == [["name": .bytes(Array("fred".utf8)), "age": 20], ["name": .bytes(Array("pete".utf8)), "age": 30], ["age": 25]])
    }

    @Test func integersTakeTheFewestBytesThatHoldThem() {
        let expected: [(Int64, [UInt8])] = [
            (1, [0x03, 0x01]), (-128, [0x03, 0x80]), (128, [0x04, 0x80, 0x00]),
            (70000, [0x05, 0x70, 0x11, 0x01, 0x00]), (Int64(Int32.max) + 1, [0x06, 0, 0, 0, 0x80, 0, 0, 0, 0]),
        ]
        for (number, bytes) in expected {
            let pdu = BSER.encode(.int(number), version: 1, capabilities: [])
            #expect(Array(pdu.dropFirst(4)) == bytes, "\(number)")
        }
    }

    @Test func aV1PDUHasItsHeaderAndLength() {
        #expect(BSER.encode(["a": true], version: 1, capabilities: []) == [0x00, 0x01, 0x03, 0x08, 0x01, 0x03, 0x01, 0x02, 0x03, 0x01, 0x61, 0x08])
    }

    @Test func textIsUTF8TypeInV2UnlessDisabledAndBytesInV1() throws {
        let v2 = BSER.encode(.string("é"), version: 2, capabilities: [])
        #expect(Array(v2.prefix(6)) == [0x00, 0x02, 0, 0, 0, 0])
        #expect(v2[8] == 0x0d)
        let disabled = BSER.encode(.string("é"), version: 2, capabilities: .disableUnicode)
        #expect(disabled[8] == 0x02)
        #expect(Array(disabled[2..<6]) == [1, 0, 0, 0])
        #expect(BSER.encode(.string("é"), version: 1, capabilities: [])[4] == 0x02)
        let decoded = try BSER.decode(v2)
        #expect(decoded.0 == .string("é") && decoded.1 == .bserV2(capabilities: []))
        #expect(try BSER.decode(disabled).0 == .bytes(Array("é".utf8)))
    }

    @Test func arraysOfLikeObjectsAreWrittenAsTemplatesAndReadBack() throws {
        let files: WatchmanValue = [["name": "a", "size": 1], ["name": "b", "size": 2]]
        let pdu = BSER.encode(files, version: 2, capabilities: [])
        #expect(pdu[8] == 0x0b)
        #expect(try BSER.decode(pdu).0 == files)
        let mixed: WatchmanValue = [["name": "a"], ["size": 2]]
        #expect(BSER.encode(mixed, version: 2, capabilities: [])[8] == 0x00)
        #expect(try BSER.decode(BSER.encode(mixed, version: 2, capabilities: [])).0 == mixed)
    }

    @Test func everyKindRoundTrips() throws {
        let value: WatchmanValue = ["n": nil, "t": true, "f": false, "i": .int(Int64.min), "r": .real(-0.5),
                                    "b": .bytes([0, 0xFF]), "s": "ü", "a": [[], [:]], "o": ["x": ["y": 1]]]
        for version in [1, 2] {
            let decoded = try BSER.decode(BSER.encode(value, version: version, capabilities: [])).0
            let expected = version == 1 ? value.setting("s", to: .bytes(Array("ü".utf8))) : value
            #expect(decoded == expected)
        }
    }

    @Test func hostileBodiesAreErrorsNotAllocations() {
        let bad: [[UInt8]] = [
            [0x00, 0x06, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f],  // an array of 2^63 - 1
            [0x00, 0x03, 0xff],                                          // negative count
            [0x02, 0x05, 0x00, 0x00, 0x00, 0x40, 0x61],                 // a 1 GiB string, 1 byte sent
            [0x0b, 0x00, 0x03, 0x00, 0x03, 0x7f],                        // an empty template
            [0x0b, 0x00, 0x03, 0x01, 0x03, 0x01, 0x03, 0x01],            // a template key that is not a string
            [0x01, 0x03, 0x01, 0x03, 0x01, 0x08],                        // an object key that is not a string
            [0x07, 0, 0, 0, 0, 0, 0, 0xf0, 0x7f],                        // infinity
            [0x0c], [0x0e], [0x04, 0x01],                                 // skip outside a template, unknown type, truncated int
        ]
        for body in bad {
            #expect(throws: WireError.self, "\(body)") { try BSER.decodeBody(body) }
        }
    }

    @Test func nestingIsBoundedAsWatchmanBoundsIt() {
        var deep: [UInt8] = []
        for _ in 0..<1000 { deep += [0x00, 0x03, 0x01] }
        deep.append(0x0a)
        #expect(throws: WireError.self) { try BSER.decodeBody(deep) }
    }
}
