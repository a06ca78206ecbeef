/// The deadlines of one kind of `SaveCoalescer` entry, in the order they
/// were set. Each kind waits one fixed length, so each timeline is in
/// increasing order and what is due is at the front of one of them: no
/// search over every path per read. An item whose path has moved on since
/// is skipped when it comes up.
struct SaveTimeline {
    private var items: [(deadline: Double, key: PathKey)] = []
    private var head = 0

    var first: Double? { head < items.count ? items[head].deadline : nil }

    mutating func append(_ deadline: Double, _ key: PathKey) { items.append((deadline, key)) }

    mutating func removeFirst() -> (deadline: Double, key: PathKey) {
        let item = items[head]
        head += 1
        if head == items.count {
            removeAll()
        } else if head >= 256, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }

    mutating func removeAll() {
        items.removeAll(keepingCapacity: items.count <= 256)
        head = 0
    }
}
