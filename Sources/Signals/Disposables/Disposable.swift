/// Something that can be cancelled or cleaned up: a subscription, a timer,
/// a child process.
///
/// `dispose()` is idempotent and thread-safe. Dropping a disposable does
/// **not** dispose it (unlike Combine's `AnyCancellable`): call `dispose()`
/// or put it in a `DisposeBag`.
public protocol Disposable: Sendable {
    /// Cancels the work and releases what it holds. Later calls do nothing.
    func dispose()
    /// Whether `dispose()` has run.
    var isDisposed: Bool { get }
}

extension Disposable {
    /// Adds the disposable to `bag`, to be disposed when the bag goes away.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}

/// A disposable that does nothing, for producers with nothing to clean up.
@usableFromInline
struct NopDisposable: Disposable {
    @inlinable init() {}
    @inlinable func dispose() {}
    @inlinable var isDisposed: Bool { false }
}
