extension Signal {
    /// Collects values into arrays of `count` and emits each array when full.
    ///
    ///     source:  -a-b-c-d-e-|
    ///     output:  ---x---y---(z|)     buffer(count: 2): x = [a, b], y = [c, d], z = [e]
    ///
    /// On completion a partial, non-empty array is emitted first. An error
    /// is forwarded at once and drops the partial array. Disposing disposes
    /// the source. A `count` below one is treated as one.
    @inlinable
    public func buffer(count: Int) -> Signal<[Value]> {
        let size = Swift.max(1, count)
        return Signal<[Value]>.serial({ observer in
            var buffer: [Value] = []
            return self.start(for: observer, { event in
                switch event {
                case .next(let value):
                    if buffer.isEmpty { buffer.reserveCapacity(size) }
                    buffer.append(value)
                    if buffer.count == size {
                        let full = buffer
                        buffer = []
                        observer.sendNext(full)
                    }
                case .error(let error):
                    buffer = []
                    observer.sendError(error)
                case .completed:
                    if !buffer.isEmpty { observer.sendNext(buffer) }
                    buffer = []
                    observer.sendCompleted()
                }
            })
        }).described("buffer", ["count: \(count)"], after: self)
    }
}
