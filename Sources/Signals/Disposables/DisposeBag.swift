/// Disposes everything put into it when it is deinitialized, tying
/// subscriptions to an owner's lifetime (RxSwift's `DisposeBag`).
public final class DisposeBag: Sendable {
    private let disposables = Locked<[any Disposable]>([])

    /// An empty bag.
    public init() {}

    /// Adds a disposable, to be disposed with the bag.
    public func insert(_ disposable: any Disposable) {
        disposables.withLock { $0.append(disposable) }
    }

    deinit {
        let all = disposables.withLock { bag in
            defer { bag = [] }
            return bag
        }
        for disposable in all { disposable.dispose() }
    }
}
