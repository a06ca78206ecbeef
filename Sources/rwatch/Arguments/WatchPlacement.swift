import RecipeKit
import WatchSources

/// Where each of a command's watches is now, as the watches tell it
/// (`FileWatcher.batches(_:options:placed:)`): nobody asks after the fact.
/// Watch mode's VCS settle holds runs only while some watch is local (a
/// service holds its own results during git's operations), and the armed
/// line says whether the watch is served.
final class WatchPlacement: Sendable {
    private let places: Locked<[WatchPlace?]>
    private let changes = PublishSubject<Bool>()

    /// Places for `count` watches, none known yet.
    init(count: Int) {
        places = Locked([WatchPlace?](repeating: nil, count: count))
    }

    /// What watch `index` calls with where it is.
    func teller(_ index: Int) -> @Sendable (WatchPlace) -> Void {
        { [self] place in
            let (before, after) = places.withLock { places -> (Bool, Bool) in
                let before = Self.allServed(places)
                places[index] = place
                return (before, Self.allServed(places))
            }
            if before != after { changes.sendNext(after) }
        }
    }

    /// Whether every watch is served now.
    var isServed: Bool { places.withLock { Self.allServed($0) } }

    /// Whether every watch is served, each time that changes (hot: sent
    /// while the watches subscribe and move).
    var served: Signal<Bool> { changes.asSignal() }

    private static func allServed(_ places: [WatchPlace?]) -> Bool {
        !places.isEmpty && places.allSatisfy { $0 == .served }
    }
}
