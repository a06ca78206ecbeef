import Signals

/// Marble diagrams on virtual time: one character is one tick, one tick is
/// one second of `TestScheduler` time, counted from the subscription.
///
///     -      nothing happens this tick
///     a      a value (any other character; values are one-character strings)
///     |      completion
///     #      an error (`MarbleError`)
///     (ab)   several events in the same tick; the group takes one tick
///
///     marbles("-a-b--c|", scheduler) { $0.skip(1) }   // "---b--c|"
///
/// The recorded output ends at its last event, so expected strings carry no
/// trailing `-`. Shared by every test target, so that any timed behaviour is
/// tested on virtual time the same way.

/// The error `#` stands for.
public struct MarbleError: Error, Equatable, CustomStringConvertible {
    public init() {}
    public var description: String { "#" }
}

/// One parsed marble event: its tick and what happens.
public struct MarbleEvent {
    public let tick: Int
    public let event: Event<String>
}

/// Parses a marble string into timed events.
public func parseMarbles(_ marbles: String) -> [MarbleEvent] {
    var events: [MarbleEvent] = []
    var tick = 0
    var inGroup = false
    for character in marbles {
        switch character {
        case "(": inGroup = true
        case ")": inGroup = false; tick += 1
        case "-": tick += 1
        case " ": continue
        default:
            let event: Event<String>
            switch character {
            case "|": event = .completed
            case "#": event = .error(MarbleError())
            default: event = .next(String(character))
            }
            events.append(MarbleEvent(tick: tick, event: event))
            if !inGroup { tick += 1 }
        }
    }
    return events
}

/// How many ticks a marble string spans.
public func marbleLength(_ marbles: String) -> Int {
    (parseMarbles(marbles).last?.tick ?? 0) + 1
}

extension Duration {
    /// `ticks` marble ticks (seconds).
    public static func ticks(_ ticks: Int) -> Duration { .seconds(ticks) }
}

/// A cold signal that plays a marble string, relative to each subscription,
/// and counts its subscriptions and disposals (to test that operators
/// release what they subscribed to).
public final class MarbleSource: Sendable {
    private struct Counts {
        var subscriptions = 0
        var disposals = 0
    }

    private let counts = Locked(Counts())
    public let signal: Signal<String>

    public init(_ marbles: String, _ scheduler: TestScheduler) {
        let events = parseMarbles(marbles).map { ($0.tick, $0.event) }
        let counts = counts
        signal = Signal { observer in
            counts.withLock { $0.subscriptions += 1 }
            let timers = CompositeDisposable()
            for (tick, event) in events {
                timers.add(scheduler.schedule(after: .ticks(tick)) { observer.send(event) })
            }
            timers.add { counts.withLock { $0.disposals += 1 } }
            return timers
        }
    }

    /// How many times the signal was subscribed.
    public var subscriptions: Int { counts.withLock { $0.subscriptions } }
    /// How many subscriptions are still alive (subscribed, not yet disposed).
    public var active: Int { counts.withLock { $0.subscriptions - $0.disposals } }
}

extension TestScheduler {
    /// A cold signal playing `marbles` on this scheduler.
    public func source(_ marbles: String) -> MarbleSource {
        MarbleSource(marbles, self)
    }
}

/// Subscribes to `signal` at tick 0, runs the scheduler until `horizon`
/// ticks, and renders what arrived as a marble string, a value as
/// `symbol` makes it (its description by default). With `disposeAt`, the
/// subscription is disposed at that tick, after all of that tick's events;
/// with `horizon` equal to it, the test can check what is left pending
/// right after the dispose.
public func record<T>(
    _ scheduler: TestScheduler, disposeAt: Int? = nil, horizon: Int = 100, _ signal: Signal<T>,
    symbol: @escaping @Sendable (T) -> String = { "\($0)" }
) -> String {
    let recorded = Locked<[(tick: Int, symbol: String)]>([])
    let origin = scheduler.now
    let subscription = signal.subscribe { event in
        let tick = Int((scheduler.now - origin).components.seconds)
        let text: String
        switch event {
        case .next(let value): text = symbol(value)
        case .error: text = "#"
        case .completed: text = "|"
        }
        recorded.withLock { $0.append((tick, text)) }
    }
    if let disposeAt {
        // A millisecond past the tick: after everything due at that tick.
        scheduler.schedule(after: .ticks(disposeAt) + .milliseconds(1)) { subscription.dispose() }
    }
    scheduler.advance(to: origin + .ticks(horizon) + .milliseconds(1))
    return renderMarbles(recorded.withLock { $0 })
}

/// Plays `source` as a cold signal, applies `transform`, and records the
/// output (see `record`).
public func marbles<T>(
    _ source: String, _ scheduler: TestScheduler, disposeAt: Int? = nil,
    symbol: @escaping @Sendable (T) -> String = { "\($0)" },
    _ transform: (Signal<String>) -> Signal<T>
) -> String {
    record(scheduler, disposeAt: disposeAt, transform(scheduler.source(source).signal), symbol: symbol)
}

/// Renders timed symbols as a marble string ending at the last event.
public func renderMarbles(_ events: [(tick: Int, symbol: String)]) -> String {
    var output = ""
    var index = 0
    var tick = 0
    while index < events.count {
        var group: [String] = []
        while index < events.count, events[index].tick == tick {
            group.append(events[index].symbol)
            index += 1
        }
        switch group.count {
        case 0: output += "-"
        case 1: output += group[0]
        default: output += "(" + group.joined() + ")"
        }
        tick += 1
    }
    return output
}

/// Collects every event of a synchronous subscription, for operators that
/// do not depend on time.
public final class EventLog<Value>: @unchecked Sendable {
    // Safety: `events` is guarded by `lock`.
    private let lock = Lock()
    private var events: [Event<Value>] = []

    public init() {}

    public func append(_ event: Event<Value>) { lock.withLock { events.append(event) } }

    /// The events as `next(1)`, `error(#)`, `completed`.
    public var descriptions: [String] { lock.withLock { events.map { "\($0)" } } }

    /// The values received so far.
    public var values: [Value] { lock.withLock { events.compactMap(\.value) } }
}

extension Signal {
    /// Subscribes and returns the log its events go to, and the subscription.
    public func log() -> (EventLog<Value>, any Disposable) {
        let log = EventLog<Value>()
        let subscription = subscribe { log.append($0) }
        return (log, subscription)
    }
}
