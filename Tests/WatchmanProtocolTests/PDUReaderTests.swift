import Testing
import WatchmanProtocol

@Suite struct PDUReaderTests {
    @Test func pdusFedOneByteAtATimeComeOutWhole() {
        let stream = BSER.encode(["version"], version: 1, capabilities: []) + JSONLines.encode(["get-pid"])
            + BSER.encode(["clock", "/r"], version: 2, capabilities: .disableUnicode)
        var reader = PDUReader()
        var frames: [PDUReader.Frame] = []
        for byte in stream {
            reader.append([byte])
            while case let frame = reader.next(), frame != .needMoreBytes { frames.append(frame) }
        }
        #expect(frames == [
            .pdu([.bytes(Array("version".utf8))], .bserV1),
            .pdu(["get-pid"], .json),
            .pdu([.bytes(Array("clock".utf8)), .bytes(Array("/r".utf8))], .bserV2(capabilities: .disableUnicode)),
        ])
        #expect(reader.bufferedCount == 0)
    }

    @Test func aMalformedJSONLineIsSkippedAndTheNextIsRead() {
        var reader = PDUReader()
        reader.append(Array("{oops\n\n[\"version\"]\n".utf8))
        guard case .malformed(_, .json, canContinue: true) = reader.next() else { Issue.record("no error"); return }
        #expect(reader.next() == .pdu(["version"], .json))
    }

    @Test func anAbsurdBSERLengthIsRefusedBeforeItsBytesAreAwaited() {
        var reader = PDUReader(maximumLength: 1 << 20)
        reader.append([0x00, 0x01, 0x06, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f])
        guard case .malformed(_, .bserV1, canContinue: false) = reader.next() else { Issue.record("not refused"); return }
        reader.append(JSONLines.encode(["version"]))
        #expect(reader.next() == .needMoreBytes)
    }

    @Test func aLengthThatIsNoIntegerLosesTheFraming() {
        var reader = PDUReader()
        reader.append([0x00, 0x02, 0, 0, 0, 0, 0x02, 0x01])
        guard case .malformed(_, .bserV2, canContinue: false) = reader.next() else { Issue.record("not refused"); return }
    }

    @Test func aJSONLineLongerThanTheLimitIsRefusedWithoutItsNewline() {
        var reader = PDUReader(maximumLength: 100)
        reader.append([UInt8](repeating: UInt8(ascii: "["), count: 101))
        guard case .malformed(_, .json, canContinue: false) = reader.next() else { Issue.record("not refused"); return }
    }

    @Test func atTheEndALastLineWithoutNewlineCountsAndHalfABSERPDUDoesNot() {
        var json = PDUReader()
        json.append(Array("[\"version\"]".utf8))
        #expect(json.next() == .needMoreBytes)
        #expect(json.finish() == .pdu(["version"], .json))
        var bser = PDUReader()
        bser.append(Array(BSER.encode(["version"], version: 1, capabilities: []).dropLast()))
        #expect(bser.isMidPDU)
        guard case .malformed(_, .bserV1, canContinue: false) = bser.finish() else { Issue.record("no error"); return }
    }

    @Test func aBadBodyWithAGoodLengthIsSkipped() {
        var reader = PDUReader()
        reader.append([0x00, 0x01, 0x03, 0x01, 0x0e] + BSER.encode(["version"], version: 1, capabilities: []))
        guard case .malformed(_, .bserV1, canContinue: true) = reader.next() else { Issue.record("no error"); return }
        #expect(reader.next() == .pdu([.bytes(Array("version".utf8))], .bserV1))
    }
}
