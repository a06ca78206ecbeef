/// Two terminals joined back to back (`RACChannel`): what is sent into one
/// terminal reaches the subscribers of the other. Errors and completion
/// reach both sides. The following terminal also replays the latest value
/// sent from the leading side to a new subscriber, so a late binding starts
/// from the current value.
///
///     let channel = Channel<String>()
///     channel.followingTerminal.subscribe(onNext: { print("view:", $0) })
///     channel.leadingTerminal.sendNext("model value")   // view: model value
public final class Channel<Value>: Sendable {
    /// The model side, by convention.
    public let leadingTerminal: ChannelTerminal<Value>
    /// The view side, by convention.
    public let followingTerminal: ChannelTerminal<Value>

    /// A channel with no subscribers yet.
    public init() {
        let leadingValues = ReplaySubject<Value>(capacity: 0)
        let followingValues = ReplaySubject<Value>(capacity: 1)
        // Errors and completion reach everything.
        _ = leadingValues.asSignal().start({ event in
            if event.isTerminal { followingValues.send(event) }
        })
        _ = followingValues.asSignal().start({ event in
            if event.isTerminal { leadingValues.send(event) }
        })
        leadingTerminal = ChannelTerminal(values: leadingValues, other: followingValues)
        followingTerminal = ChannelTerminal(values: followingValues, other: leadingValues)
    }
}

/// One end of a `Channel`: subscribing receives what the other end sends;
/// sending reaches the other end's subscribers.
public final class ChannelTerminal<Value>: SubjectProtocol {
    private let values: ReplaySubject<Value>
    private let other: ReplaySubject<Value>

    init(values: ReplaySubject<Value>, other: ReplaySubject<Value>) {
        self.values = values
        self.other = other
    }

    public func send(_ event: Event<Value>) { other.send(event) }

    public func asSignal() -> Signal<Value> { values.asSignal() }
}
