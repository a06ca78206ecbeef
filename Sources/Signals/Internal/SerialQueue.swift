import Synchronization

/// Queue-drain serialization: items submitted from any thread, or from inside
/// the body itself (re-entrancy), are handed to the body one at a time, in
/// submission order, and never while a lock is held.
///
/// Whoever finds the queue idle becomes the drainer and delivers its own item
/// at once (the fast path: two atomic operations, no lock). Others append
/// their item and return; the drainer delivers it before it lets go. This is
/// the "work in progress" counter of RxJava's serialized observers.
@usableFromInline
package final class SerialQueue<Item>: @unchecked Sendable {
    // Safety: `pending` is guarded by `lock`; the drain role (and so the right
    // to run the body) is handed over through `wip` with acquire/release order.
    @usableFromInline let wip = Atomic<Int>(0)
    @usableFromInline let lock = Lock()
    @usableFromInline var pending = FIFO<Item>()

    @usableFromInline package init() {}

    /// Delivers `item` through `body`, or queues it for the thread that is
    /// draining. `body` must not throw and must not block on other drainers.
    @inlinable @inline(__always)
    package func submit(_ item: Item, _ body: (Item) -> Void) {
        if wip.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged {
            body(item)
            if wip.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { return }
        } else {
            lock.withLock { pending.append(item) }
            if wip.add(1, ordering: .acquiringAndReleasing).oldValue != 0 { return }
        }
        drain(body)
    }

    @inlinable
    func drain(_ body: (Item) -> Void) {
        var missed = 1
        while true {
            while let item = pop() { body(item) }
            missed = wip.subtract(missed, ordering: .acquiringAndReleasing).newValue
            if missed == 0 { return }
        }
    }

    @inlinable
    func pop() -> Item? {
        lock.withLock { pending.popFirst() }
    }
}
