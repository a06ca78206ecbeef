/// A subject that replays the last `capacity` values, then the terminal event
/// if there was one, to every new subscriber (`RACReplaySubject`).
///
///     let subject = ReplaySubject<Int>(capacity: 2)
///     subject.sendNext(1); subject.sendNext(2); subject.sendNext(3)
///     subject.subscribe(onNext: { print($0) })   // 2, 3
public final class ReplaySubject<Value>: SubjectProtocol {
    @usableFromInline let core: SubjectCore<Value>

    /// A subject that remembers the last `capacity` values (all, by default).
    public init(capacity: Int = .max) {
        core = SubjectCore(capacity: capacity)
    }

    @inlinable public func send(_ event: Event<Value>) { core.send(event) }

    @inlinable public func asSignal() -> Signal<Value> { core.signal }
}
