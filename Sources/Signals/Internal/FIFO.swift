/// A first-in first-out queue with O(1) amortized `popFirst`, for operators
/// that buffer values (zip, concatMap, delay) and `SerialQueue`'s backlog.
@usableFromInline
struct FIFO<Element> {
    @usableFromInline var storage: [Element] = []
    @usableFromInline var head = 0

    @inlinable init() {}

    @inlinable var isEmpty: Bool { head == storage.count }
    @inlinable var count: Int { storage.count - head }
    @inlinable var first: Element? { isEmpty ? nil : storage[head] }

    @inlinable
    mutating func append(_ element: Element) {
        storage.append(element)
    }

    @inlinable
    mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: storage.count <= 64)
            head = 0
        } else if head >= 64, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    @inlinable
    mutating func removeAll() {
        storage = []
        head = 0
    }
}
