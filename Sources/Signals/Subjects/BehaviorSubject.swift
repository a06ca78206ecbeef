/// A subject with a current value, which every new subscriber receives first
/// (`RACBehaviorSubject`: a replay subject of capacity one with a start value).
///
///     let mode = BehaviorSubject("idle")
///     mode.subscribe(onNext: { print($0) })   // idle
///     mode.sendNext("building")               // building
public final class BehaviorSubject<Value: Sendable>: SubjectProtocol {
    private let current: Locked<Value>
    @usableFromInline let core: SubjectCore<Value>

    /// A subject whose current value starts as `value`.
    public init(_ value: Value) {
        let current = Locked(value)
        self.current = current
        core = SubjectCore(capacity: 1, initial: [value], onNext: { value in
            current.withLock { $0 = value }
        })
    }

    /// The latest value sent (or the start value).
    public var value: Value { current.withLock { $0 } }

    @inlinable public func send(_ event: Event<Value>) { core.send(event) }

    @inlinable public func asSignal() -> Signal<Value> { core.signal }
}
