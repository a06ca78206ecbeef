extension Signal where Value: Sendable {
    /// The signal as an async sequence: iterating subscribes, ending the
    /// iteration (or cancelling its task) disposes. Values are buffered while
    /// the consumer is busy.
    ///
    ///     for try await event in watcher.values { … }
    public var values: AsyncThrowingStream<Value, any Error> {
        AsyncThrowingStream { continuation in
            let subscription = self.subscribe(
                onNext: { continuation.yield($0) },
                onError: { continuation.finish(throwing: $0) },
                onCompleted: { continuation.finish() }
            )
            continuation.onTermination = { _ in subscription.dispose() }
        }
    }

    /// A signal that iterates `sequence` in a task for each subscriber and
    /// sends its elements, then completes (or fails with its error).
    /// Disposing cancels the task.
    public init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Value {
        self.init { observer in
            let task = Task {
                do {
                    for try await value in sequence {
                        if observer.isStopped { return }
                        observer.sendNext(value)
                    }
                    observer.sendCompleted()
                } catch {
                    observer.sendError(error)
                }
            }
            return ActionDisposable { task.cancel() }
        }
    }
}
