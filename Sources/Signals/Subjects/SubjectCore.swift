/// The machinery shared by every subject: a list of observers, an optional
/// replay buffer, and one queue-drain through which sends, subscriptions and
/// removals all pass. Because only the drainer touches the state, a send
/// costs no lock on the fast path, a send from inside an observer is
/// delivered after the current event has reached every observer, and all
/// observers see one order.
@usableFromInline
final class SubjectCore<Value>: @unchecked Sendable {
    // Safety: every field except `serial` is touched only inside `serial`'s
    // drain (see `SerialQueue`), which runs one item at a time; so dynamic
    // exclusivity checks (`@exclusivity(unchecked)`) would only repeat that.
    @usableFromInline
    enum Operation {
        case event(Event<Value>)
        case add(Observer<Value>)
        case remove(Observer<Value>)
    }

    @usableFromInline let serial = SerialQueue<Operation>()
    @usableFromInline @exclusivity(unchecked) var observers: [Observer<Value>] = []
    @usableFromInline @exclusivity(unchecked) var buffer: RingBuffer<Value>
    @usableFromInline @exclusivity(unchecked) var terminal: Event<Value>?
    @usableFromInline let onNext: (@Sendable (Value) -> Void)?

    /// - Parameters:
    ///   - capacity: how many recent values a new subscriber is replayed.
    ///   - initial: values already in the buffer (BehaviorSubject's start).
    ///   - onNext: called inside the drain for each value (to mirror state).
    @usableFromInline
    init(capacity: Int, initial: [Value] = [], onNext: (@Sendable (Value) -> Void)? = nil) {
        buffer = RingBuffer(capacity: capacity)
        for value in initial { buffer.append(value) }
        self.onNext = onNext
    }

    @inlinable
    func send(_ event: Event<Value>) {
        serial.submit(.event(event)) { process($0) }
    }

    /// The read side: each subscription adds an observer that the drain
    /// feeds, so the observer itself need not serialize.
    @inlinable
    var signal: Signal<Value> {
        Signal.serial({ observer in
            self.serial.submit(.add(observer)) { self.process($0) }
            return Removal(core: self, observer: observer)
        })
    }

    @usableFromInline
    struct Removal: Disposable {
        @usableFromInline let core: SubjectCore<Value>
        @usableFromInline let observer: Observer<Value>

        @inlinable
        init(core: SubjectCore<Value>, observer: Observer<Value>) {
            self.core = core
            self.observer = observer
        }

        @inlinable func dispose() { core.serial.submit(.remove(observer)) { core.process($0) } }
        @inlinable var isDisposed: Bool { observer.isStopped }
    }

    @inlinable
    func process(_ operation: Operation) {
        switch operation {
        case .event(let event):
            guard terminal == nil else { return }
            switch event {
            case .next(let value):
                buffer.append(value)
                onNext?(value)
                for observer in observers { observer.send(event) }
            case .error, .completed:
                terminal = event
                let all = observers
                observers = []
                for observer in all { observer.send(event) }
            }
        case .add(let observer):
            for value in buffer where !observer.isStopped { observer.sendNext(value) }
            if let terminal {
                observer.send(terminal)
            } else if !observer.isStopped {
                observers.append(observer)
            }
        case .remove(let observer):
            // A plain index loop: `firstIndex(where:)`, reached unspecialized
            // through the `Removal` witness, allocated a coroutine frame for
            // its element reads on every dispose.
            var index = observers.startIndex
            while index < observers.endIndex, observers[index] !== observer { index += 1 }
            if index < observers.endIndex { observers.remove(at: index) }
        }
    }
}

/// A fixed-capacity FIFO that drops its oldest value when full.
@usableFromInline
struct RingBuffer<Element>: Sequence {
    @usableFromInline let capacity: Int
    @usableFromInline var storage: [Element] = []
    @usableFromInline var start = 0

    @usableFromInline
    init(capacity: Int) {
        self.capacity = Swift.max(0, capacity)
    }

    @inlinable
    mutating func append(_ element: Element) {
        guard capacity > 0 else { return }
        if storage.count < capacity {
            storage.append(element)
        } else {
            storage[start] = element
            start = (start + 1) % capacity
        }
    }

    var last: Element? {
        guard !storage.isEmpty else { return nil }
        return storage[(start + storage.count - 1) % storage.count]
    }

    /// Oldest first. A struct, so that replaying (or finding nothing to
    /// replay) on every subscribe allocates nothing.
    @usableFromInline
    struct Iterator: IteratorProtocol {
        @usableFromInline let storage: [Element]
        @usableFromInline let start: Int
        @usableFromInline var index = 0

        @inlinable init(storage: [Element], start: Int) {
            self.storage = storage
            self.start = start
        }

        @inlinable
        mutating func next() -> Element? {
            guard index < storage.count else { return nil }
            defer { index += 1 }
            return storage[(start + index) % storage.count]
        }
    }

    @inlinable
    func makeIterator() -> Iterator {
        Iterator(storage: storage, start: start)
    }
}
