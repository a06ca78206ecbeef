import Testing
import WatchmanProtocol
@testable import Service

@Suite struct ConnectionMachineTests {
    private func machine() -> ConnectionMachine { ConnectionMachine(maximumLength: 1 << 20, version: "v") }

    @Test func requestsAreHandedOutOneAtATimeInOrder() {
        var connection = machine()
        let both = JSONLines.encode(["version"]) + BSER.encode(["get-pid"], version: 1, capabilities: [])
        #expect(connection.received(both) == [.dispatch(CommandRequest(name: "version", arguments: []), .json)])
        #expect(connection.isBusy)
        #expect(connection.handlerFinished() == [.dispatch(CommandRequest(name: "get-pid", arguments: []), .bserV1)])
        #expect(connection.handlerFinished() == [])
    }

    @Test func aRequestThatIsNoCommandGetsWatchmansErrorAndReadingGoesOn() {
        var connection = machine()
        let actions = connection.received(Array("{}\n[1]\n[\"version\"]\n".utf8))
        #expect(actions == [
            .reply(["version": "v", "error": "invalid command (expected an array with some elements!)"], .json),
            .reply(["version": "v", "error": "invalid command: expected element 0 to be the command name"], .json),
            .dispatch(CommandRequest(name: "version", arguments: []), .json),
        ])
    }

    @Test func malformedJSONIsAnsweredAndTheConnectionStays() {
        var connection = machine()
        let actions = connection.received(Array("[\"version\"\n".utf8))
        guard case .reply(let reply, .json) = actions.first else { Issue.record("no reply"); return }
        #expect(reply["error"]?.text?.hasPrefix("invalid json at position") == true)
        #expect(connection.wantsInput)
    }

    @Test func aBSERLengthThatCannotBeTrustedIsAnsweredThenTheConnectionCloses() {
        var connection = machine()
        let actions = connection.received([0x00, 0x02, 0, 0, 0, 0, 0x06, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f])
        #expect(actions.count == 2)
        guard case .reply(_, .bserV2) = actions.first else { Issue.record("no BSER reply"); return }
        #expect(actions.last == .closeAfterFlush)
        #expect(!connection.wantsInput)
    }

    @Test func aClientGoneMidPDUIsClosedWithoutADispatch() {
        var connection = machine()
        #expect(connection.received(BSER.encode(["version"], version: 1, capabilities: []).dropLast(2)) == [])
        let actions = connection.endOfInput()
        #expect(actions.last == .closeAfterFlush)
        #expect(!actions.contains { if case .dispatch = $0 { true } else { false } })
    }

    @Test func aClientThatShutsItsSideAfterARequestStillGetsTheReply() {
        var connection = machine()
        #expect(connection.received(Array("[\"version\"]".utf8)) == [])
        #expect(connection.endOfInput() == [.dispatch(CommandRequest(name: "version", arguments: []), .json)])
        #expect(connection.handlerFinished() == [.closeAfterFlush])
    }

    @Test func readingPausesWhileBusyWithMuchWaiting() {
        var connection = ConnectionMachine(maximumLength: 1 << 20, version: "v", readAheadLimit: 8)
        _ = connection.received(Array("[\"version\"]\n[\"version\"]\n".utf8))
        #expect(connection.isBusy && !connection.wantsInput)
        _ = connection.handlerFinished()
        _ = connection.handlerFinished()
        #expect(connection.wantsInput)
    }
}
