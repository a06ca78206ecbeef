import Synchronization

/// Runs a closure on the first `dispose()`, then lets go of it.
///
///     let disposable = ActionDisposable { timer.cancel() }
public final class ActionDisposable: Disposable, @unchecked Sendable {
    // Safety: `action` is read and cleared only by the single caller that
    // wins the `disposed` exchange.
    private let disposed = Atomic<Bool>(false)
    private var action: (@Sendable () -> Void)?

    /// A disposable that runs `action` once, when first disposed.
    public init(_ action: @escaping @Sendable () -> Void = {}) {
        self.action = action
    }

    public func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let action = self.action
        self.action = nil
        action?()
    }

    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }
}
