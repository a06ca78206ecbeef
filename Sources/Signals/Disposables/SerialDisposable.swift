/// Holds one disposable at a time: setting a new one disposes the previous.
///
/// Once disposed, a disposable set later is disposed at once. Used for
/// "the current inner subscription" (flatMapLatest, retry, restarts).
public final class SerialDisposable: Disposable {
    private struct State {
        var disposed = false
        var current: (any Disposable)?
    }

    private let state = Locked(State())

    /// An empty serial disposable.
    public init() {}

    /// The current disposable. Setting it disposes the one it replaces.
    public var disposable: (any Disposable)? {
        get { state.withLock { $0.current } }
        set {
            let (previous, disposeNew): ((any Disposable)?, Bool) = state.withLock { state in
                if state.disposed { return (nil, true) }
                let previous = state.current
                state.current = newValue
                return (previous, false)
            }
            previous?.dispose()
            if disposeNew { newValue?.dispose() }
        }
    }

    public func dispose() {
        let current: (any Disposable)?? = state.withLock { state in
            guard !state.disposed else { return .none }
            state.disposed = true
            defer { state.current = nil }
            return .some(state.current)
        }
        if case .some(let disposable?) = current { disposable.dispose() }
    }

    public var isDisposed: Bool { state.withLock { $0.disposed } }
}
