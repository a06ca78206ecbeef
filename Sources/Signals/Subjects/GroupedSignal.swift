/// One group of `groupBy`: the values of the source that share `key`
/// (`RACGroupedSignal`, RxSwift's `GroupedObservable`).
///
/// A group is hot: subscribe when it arrives to see all of its values. It
/// completes, or fails, when the source does. Use `asSignal()` to apply
/// operators.
public final class GroupedSignal<Key: Hashable & Sendable, Value>: Sendable {
    /// What every value of this group has in common.
    public let key: Key
    @usableFromInline let subject = PublishSubject<Value>()

    @usableFromInline
    init(key: Key) {
        self.key = key
    }

    @inlinable
    func send(_ event: Event<Value>) { subject.send(event) }

    /// The group's values as a signal.
    public func asSignal() -> Signal<Value> { subject.asSignal() }

    /// Subscribes with one closure for every event.
    @discardableResult
    public func subscribe(_ handler: @escaping @Sendable (Event<Value>) -> Void) -> any Disposable {
        subject.subscribe(handler)
    }

    /// Subscribes with a closure per kind of event, each optional.
    @discardableResult
    public func subscribe(
        onNext: (@Sendable (Value) -> Void)? = nil,
        onError: (@Sendable (any Error) -> Void)? = nil,
        onCompleted: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        subject.subscribe(onNext: onNext, onError: onError, onCompleted: onCompleted)
    }
}
