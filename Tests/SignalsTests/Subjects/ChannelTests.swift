import Testing
@testable import Signals

@Suite struct ChannelTests {
    @Test func whatOneTerminalSendsTheOthersSubscribersReceive() {
        let channel = Channel<String>()
        let leading = Recorder<String>(), following = Recorder<String>()
        channel.leadingTerminal.subscribe(leading.handler)
        channel.followingTerminal.subscribe(following.handler)
        channel.leadingTerminal.sendNext("model")
        channel.followingTerminal.sendNext("view")
        #expect(following.events == ["model"])
        #expect(leading.events == ["view"])
    }

    @Test func theFollowingTerminalReplaysTheLatestLeadingValue() {
        let channel = Channel<Int>()
        channel.leadingTerminal.sendNext(1)
        channel.leadingTerminal.sendNext(2)
        let late = Recorder<Int>()
        channel.followingTerminal.subscribe(late.handler)
        #expect(late.events == ["2"])
    }

    @Test func completionReachesBothSides() {
        let channel = Channel<Int>()
        let leading = Recorder<Int>(), following = Recorder<Int>()
        channel.leadingTerminal.subscribe(leading.handler)
        channel.followingTerminal.subscribe(following.handler)
        channel.followingTerminal.sendCompleted()
        #expect(leading.events == ["|"])
        #expect(following.events == ["|"])
    }
}
