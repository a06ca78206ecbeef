/// One subscription to a source, shared by every subscriber of `signal`
/// (`RACMulticastConnection`, RxSwift's `ConnectableObservable`).
///
/// Nothing flows until `connect()`; subscribers that come later see only
/// what the subject gives them (a `PublishSubject` nothing earlier, a
/// `ReplaySubject` its buffer).
public final class MulticastConnection<Value>: Sendable {
    @usableFromInline
    struct State: Sendable {
        @usableFromInline var connection: (handle: ActionDisposable, upstream: SerialDisposable)?
        @usableFromInline var subscribers = 0
    }

    @usableFromInline let source: Signal<Value>
    @usableFromInline let subject: any SubjectProtocol<Value>
    @usableFromInline let state = Locked(State())

    /// The shared, hot side. Subscribing does not connect.
    public let signal: Signal<Value>

    /// A connection that multicasts `source` through `subject`.
    @inlinable
    public init(source: Signal<Value>, subject: some SubjectProtocol<Value>) {
        self.source = source
        self.subject = subject
        signal = subject.asSignal()
    }

    /// Subscribes the subject to the source, once: while connected, later
    /// calls return the same disposable. Disposing it disconnects; a later
    /// `connect()` subscribes again.
    @discardableResult
    @inlinable
    public func connect() -> any Disposable {
        let upstream = SerialDisposable()
        let handle = ActionDisposable { [weak self] in
            self?.state.withLock { state in
                if state.connection?.upstream === upstream { state.connection = nil }
            }
            upstream.dispose()
        }
        let existing: ActionDisposable? = state.withLock { state in
            if let connection = state.connection { return connection.handle }
            state.connection = (handle, upstream)
            return nil
        }
        if let existing { return existing }
        _ = source.start({ [subject] in subject.send($0) }, beforeRunning: { upstream.disposable = $0 })
        return handle
    }

    /// A signal that connects when its first subscriber arrives and
    /// disconnects when the last one leaves; the next subscriber connects
    /// anew (RxSwift's `refCount`).
    @inlinable
    public func autoconnect() -> Signal<Value> {
        Signal.serial({ observer in
            self.signal.start(for: observer) { observer.send($0) }
            let first = self.state.withLock { state in
                state.subscribers += 1
                return state.subscribers == 1
            }
            if first { self.connect() }
            // The subject subscription is linked to `observer`; this only counts.
            return ActionDisposable {
                let connection: (any Disposable)? = self.state.withLock { state in
                    state.subscribers -= 1
                    return state.subscribers == 0 ? state.connection?.handle : nil
                }
                connection?.dispose()
            }
        }).described("autoconnect", after: source)
    }
}

