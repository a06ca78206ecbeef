/// Virtual time for tests: nothing runs until the test moves the clock with
/// `advance(by:)` or `run()`, and then everything due runs at once, in
/// order of due time and, for equal times, of scheduling.
///
///     let scheduler = TestScheduler()
///     scheduler.schedule(after: .seconds(5)) { fired = true }
///     scheduler.advance(by: .seconds(5))   // fired
public final class TestScheduler: Scheduler {
    private struct Item {
        let due: Duration
        let order: Int
        let interval: Duration?
        let cancel: ActionDisposable
        let action: @Sendable () -> Void
    }

    private struct State {
        var now: Duration = .zero
        var nextOrder = 0
        /// A binary min-heap on (due, order): a test that schedules ten
        /// thousand steps (a replayed session) pays log n per step, not n.
        var items: [Item] = []

        mutating func insert(due: Duration, interval: Duration?, cancel: ActionDisposable,
                             action: @escaping @Sendable () -> Void) {
            items.append(Item(due: due, order: nextOrder, interval: interval, cancel: cancel, action: action))
            nextOrder += 1
            var child = items.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard Self.precedes(items[child], items[parent]) else { break }
                items.swapAt(child, parent)
                child = parent
            }
        }

        /// The earliest item, still in the heap.
        var first: Item? { items.first }

        /// Takes the earliest item off the heap.
        mutating func removeFirst() {
            items.swapAt(0, items.count - 1)
            items.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < items.count, Self.precedes(items[left], items[smallest]) { smallest = left }
                if right < items.count, Self.precedes(items[right], items[smallest]) { smallest = right }
                guard smallest != parent else { return }
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }

        private static func precedes(_ a: Item, _ b: Item) -> Bool {
            a.due < b.due || (a.due == b.due && a.order < b.order)
        }
    }

    private let state = Locked(State())

    /// A scheduler whose clock starts at zero.
    public init() {}

    /// The virtual time.
    public var now: Duration { state.withLock { $0.now } }

    /// How many actions wait to run.
    public var pendingCount: Int { state.withLock { $0.items.count(where: { !$0.cancel.isDisposed }) } }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        schedule(after: .zero, action)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        let cancel = ActionDisposable()
        state.withLock { $0.insert(due: $0.now + max(delay, .zero), interval: nil, cancel: cancel, action: action) }
        return cancel
    }

    @discardableResult
    public func schedule(every interval: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        let cancel = ActionDisposable()
        let interval = max(interval, .nanoseconds(1))
        state.withLock { $0.insert(due: $0.now + interval, interval: interval, cancel: cancel, action: action) }
        return cancel
    }

    /// Moves the clock forward by `duration`, running everything that falls
    /// due on the way (including what those actions schedule).
    public func advance(by duration: Duration = .zero) {
        advance(to: now + duration)
    }

    /// Moves the clock to `time`, running everything due by then.
    public func advance(to time: Duration) {
        while let item = nextItem(dueBy: time) {
            if !item.cancel.isDisposed { item.action() }
        }
        state.withLock { state in
            if state.now < time { state.now = time }
        }
    }

    /// Runs everything scheduled, moving the clock as far as needed. Never
    /// returns while a repeating action stays scheduled.
    public func run() {
        while let item = nextItem(dueBy: nil) {
            if !item.cancel.isDisposed { item.action() }
        }
    }

    /// Takes the next due item off the queue and sets the clock to its time;
    /// a repeating item is put back for its next time.
    private func nextItem(dueBy limit: Duration?) -> Item? {
        state.withLock { state in
            while let first = state.first, first.cancel.isDisposed { state.removeFirst() }
            guard let first = state.first else { return nil }
            if let limit, first.due > limit { return nil }
            state.removeFirst()
            if state.now < first.due { state.now = first.due }
            if let interval = first.interval {
                state.insert(due: first.due + interval, interval: interval, cancel: first.cancel, action: first.action)
            }
            return first
        }
    }
}
