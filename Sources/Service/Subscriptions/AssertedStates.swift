/// The states asserted on one root (`state-enter` / `state-leave`), as a
/// pure value: for each name, the queue of clients' assertions of it.
///
/// A name is asserted by one client at a time: a second `state-enter`
/// while another is entering or holding it is refused; one that comes
/// while the holder is leaving queues behind it, and its notice goes out
/// only once it reaches the front (so subscribers always see enter and
/// leave alternate). An assertion is pending until its sync cookie has
/// been seen, then asserted, then pending leave until the leave's
/// cookie has been seen, then gone.
struct AssertedStates: Sendable {
    enum Disposition: String, Sendable {
        case pendingEnter = "PendingEnter"
        case asserted = "Asserted"
        case pendingLeave = "PendingLeave"
    }

    struct Assertion: Sendable, Equatable {
        let id: Int
        let name: String
        let client: Int
        var disposition: Disposition = .pendingEnter
        /// Asserted while not at the front: its notice, sent when it gets there.
        var waitingNotice = false
    }

    struct Refused: Error, Equatable {
        let message: String
    }

    private var queues: [String: [Assertion]] = [:]
    private var nextID = 1

    /// Queues `client`'s assertion of `name` (pending enter); its id.
    mutating func enter(_ name: String, client: Int) throws(Refused) -> Int {
        if let last = queues[name]?.last, last.disposition != .pendingLeave {
            throw Refused(message: "state \(name) is already Asserted or PendingEnter")
        }
        let id = nextID
        nextID += 1
        queues[name, default: []].append(Assertion(id: id, name: name, client: client))
        return id
    }

    /// The sync of assertion `id` is done: it is asserted. True when its
    /// notice goes out now (it is at the front of its name's queue).
    mutating func asserted(_ id: Int) -> Bool {
        guard let (name, index) = locate(id) else { return false }
        queues[name]![index].disposition = .asserted
        if index == 0 { return true }
        queues[name]![index].waitingNotice = true
        return false
    }

    /// Assertion `id` is leaving (its leave's sync is under way): it still counts.
    mutating func leaving(_ id: Int) {
        guard let (name, index) = locate(id) else { return }
        queues[name]![index].disposition = .pendingLeave
    }

    /// Back to asserted (the leave's sync failed).
    mutating func stayed(_ id: Int) {
        guard let (name, index) = locate(id) else { return }
        queues[name]![index].disposition = .asserted
    }

    /// Removes assertion `id`; returns it, and the assertion now at the
    /// front whose enter notice was waiting for that (to send now).
    mutating func remove(_ id: Int) -> (removed: Assertion?, nowFront: Assertion?) {
        guard let (name, index) = locate(id) else { return (nil, nil) }
        let removed = queues[name]!.remove(at: index)
        guard var queue = queues[name], !queue.isEmpty else {
            queues[name] = nil
            return (removed, nil)
        }
        guard index == 0, queue[0].waitingNotice else { return (removed, nil) }
        queue[0].waitingNotice = false
        queues[name] = queue
        return (removed, queue[0])
    }

    /// Whether some client holds `name` (asserted, or leaving but not yet gone).
    func isAsserted(_ name: String) -> Bool {
        queues[name]?.contains { $0.disposition != .pendingEnter } ?? false
    }

    /// Every name some client holds.
    var assertedNames: Set<String> {
        Set(queues.compactMap { name, queue in queue.contains { $0.disposition != .pendingEnter } ? name : nil })
    }

    /// Every assertion, by name, each name's queue in order (`debug-get-asserted-states`).
    var all: [Assertion] {
        queues.keys.sorted().flatMap { queues[$0]! }
    }

    /// The assertions `client` holds or is entering.
    func held(by client: Int) -> [Assertion] {
        all.filter { $0.client == client }
    }

    private func locate(_ id: Int) -> (String, Int)? {
        for (name, queue) in queues {
            if let index = queue.firstIndex(where: { $0.id == id }) { return (name, index) }
        }
        return nil
    }
}
