extension Signal {
    /// A connection that multicasts this signal through `subject`.
    @inlinable
    public func multicast(_ subject: some SubjectProtocol<Value>) -> MulticastConnection<Value> {
        MulticastConnection(source: self, subject: subject)
    }

    /// A connection through a `PublishSubject`: subscribers see only what
    /// arrives after they subscribe. Call `connect()` to start.
    @inlinable
    public func publish() -> MulticastConnection<Value> {
        multicast(PublishSubject())
    }

    /// Subscribes once, now, and replays everything to every subscriber
    /// (`RACSignal -replay`).
    @inlinable
    public func replay() -> Signal<Value> {
        let connection = multicast(ReplaySubject(capacity: .max))
        connection.connect()
        return connection.signal.described("replay", after: self)
    }

    /// Subscribes once, now, and replays the latest value to every
    /// subscriber (`-replayLast`).
    @inlinable
    public func replayLast() -> Signal<Value> {
        let connection = multicast(ReplaySubject(capacity: 1))
        connection.connect()
        return connection.signal.described("replayLast", after: self)
    }

    /// Subscribes once, on the first subscription, and replays everything to
    /// every subscriber; never disconnects (`-replayLazily`). The cure for
    /// "one request became six": derive every signal from this one.
    @inlinable
    public func replayLazily() -> Signal<Value> {
        let connection = multicast(ReplaySubject(capacity: .max))
        return Signal.serial({ observer in
            let subscription = connection.signal.start(for: observer) { observer.send($0) }
            connection.connect()
            return subscription
        }).described("replayLazily", after: self)
    }
}
