/// Disposes many disposables together (ReactiveCocoa's compound disposable).
///
/// Once disposed, anything added later is disposed at once.
public final class CompositeDisposable: Disposable {
    /// Identifies an added disposable, to `remove` it again.
    public struct Key: Hashable, Sendable {
        fileprivate let rawValue: Int
    }

    private struct State {
        var disposed = false
        var nextKey = 0
        var entries: [(key: Int, disposable: any Disposable)] = []
    }

    private let state: Locked<State>

    /// A composite holding `disposables`.
    public init(_ disposables: [any Disposable] = []) {
        var initial = State()
        for disposable in disposables {
            initial.entries.append((initial.nextKey, disposable))
            initial.nextKey += 1
        }
        state = Locked(initial)
    }

    /// Adds a disposable; if the composite is already disposed, disposes it
    /// at once and returns `nil`.
    @discardableResult
    public func add(_ disposable: any Disposable) -> Key? {
        let key: Int? = state.withLock { state in
            guard !state.disposed else { return nil }
            let key = state.nextKey
            state.nextKey += 1
            state.entries.append((key, disposable))
            return key
        }
        guard let key else {
            disposable.dispose()
            return nil
        }
        return Key(rawValue: key)
    }

    /// Adds a closure to run on dispose.
    @discardableResult
    public func add(_ action: @escaping @Sendable () -> Void) -> Key? {
        add(ActionDisposable(action))
    }

    /// Removes a disposable without disposing it, e.g. when the work it
    /// cancels has finished on its own.
    public func remove(_ key: Key) {
        let removed: (any Disposable)? = state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.key == key.rawValue }) else { return nil }
            return state.entries.remove(at: index).disposable
        }
        _ = removed  // released outside the lock
    }

    public func dispose() {
        let entries = state.withLock { state -> [(key: Int, disposable: any Disposable)] in
            guard !state.disposed else { return [] }
            state.disposed = true
            defer { state.entries = [] }
            return state.entries
        }
        for entry in entries { entry.disposable.dispose() }
    }

    public var isDisposed: Bool { state.withLock { $0.disposed } }

    /// How many disposables the composite holds now.
    public var count: Int { state.withLock { $0.entries.count } }
}
