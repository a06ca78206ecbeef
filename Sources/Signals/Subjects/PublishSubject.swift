/// A hot signal you send into by hand (ReactiveCocoa's `RACSubject`):
/// subscribers receive what is sent after they subscribe; a subscriber that
/// comes after the end receives the terminal event at once.
///
///     let subject = PublishSubject<Int>()
///     subject.subscribe(onNext: { print($0) })
///     subject.sendNext(1)
public final class PublishSubject<Value>: SubjectProtocol {
    @usableFromInline let core = SubjectCore<Value>(capacity: 0)

    /// A subject with no subscribers yet.
    public init() {}

    @inlinable public func send(_ event: Event<Value>) { core.send(event) }

    @inlinable public func asSignal() -> Signal<Value> { core.signal }
}
