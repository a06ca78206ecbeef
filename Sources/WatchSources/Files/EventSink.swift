import Signals
import Synchronization

/// Where one subscription's changes go, from whichever thread found them:
/// the inotify reader for what it watches, the poller for what it polls.
/// Each send is one array (what one kernel event, or one pass, brought),
/// delivered whole; sends from both threads reach the subscriber one at a
/// time and in the order they were made (queue-drain, as every observer
/// of Signals), never under a lock.
///
/// Only the kinds the subscriber asked for pass: asked for modifications
/// but not renames, a file renamed onto a path is a modification of that
/// path (new contents arrived there whole: a save through a temporary
/// name).
final class EventSink: Sendable {
    private enum Delivery {
        case events([FileEvent])
        case failure(FileWatchError)
        /// Runs once everything sent before it is delivered.
        case marker(@Sendable () -> Void)
    }

    private let observer: Observer<[FileEvent]>
    private let kinds: Set<FileEvent.Kind>
    private let deliveries = SerialQueue<Delivery>()
    private let ended = Atomic<Bool>(false)

    init(observer: Observer<[FileEvent]>, kinds: Set<FileEvent.Kind>) {
        self.observer = observer
        self.kinds = kinds
    }

    /// Whether the subscription ended (failed, or disposed): what is sent
    /// now goes nowhere.
    var isEnded: Bool { ended.load(ordering: .acquiring) }

    /// Delivers `events` (those of the kinds asked for) as one array.
    func send(_ events: [FileEvent]) {
        guard !events.isEmpty, !isEnded else { return }
        let reported = EventSink.reported(events, kinds: kinds)
        guard !reported.isEmpty else { return }
        deliver(.events(reported))
    }

    /// Ends the subscription with `error`, after what was sent before.
    func fail(_ error: FileWatchError) {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        deliver(.failure(error))
    }

    /// The subscriber left: nothing more is delivered.
    func end() {
        ended.store(true, ordering: .releasing)
    }

    /// Calls `body` once what was sent before this call has reached the
    /// subscriber (at once when nothing is on its way).
    func whenDelivered(_ body: @escaping @Sendable () -> Void) {
        deliver(.marker(body))
    }

    private func deliver(_ delivery: Delivery) {
        deliveries.submit(delivery) { [observer] delivery in
            switch delivery {
            case .events(let events): observer.sendNext(events)
            case .failure(let error): observer.sendError(error)
            case .marker(let body): body()
            }
        }
    }

    /// The events of `events` a subscriber asking for `kinds` sees.
    static func reported(_ events: [FileEvent], kinds: Set<FileEvent.Kind>) -> [FileEvent] {
        var reported: [FileEvent] = []
        reported.reserveCapacity(events.count)
        for event in events {
            if event.kind == .overflow || kinds.contains(event.kind) {
                reported.append(event)
            } else if event.kind == .movedTo, !event.isDirectory, kinds.contains(.modified) {
                reported.append(FileEvent(path: event.path, kind: .modified))
            }
        }
        return reported
    }
}
