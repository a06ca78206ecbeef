extension Signal {
    /// This signal with `node` as its description; the same producer, so
    /// subscribing to it is subscribing to this signal.
    @inlinable
    public func described(_ node: SignalNode?) -> Signal<Value> {
        Signal(producer: producer, serializes: serializes, filtering: filtering, node: node)
    }

    /// This signal as a source: `name(parameters…)`, with no upstream
    /// (`FileWatcher.watch`, `Timer.interval`).
    @inlinable
    public func described(_ name: String, _ parameters: [String] = []) -> Signal<Value> {
        described(SignalNode(name, parameters))
    }

    /// This signal as a stage after `upstream`: `name(parameters…)`. An
    /// undescribed upstream leaves it undescribed, and `parameters` is then
    /// never built: an operator over a subject or a `Signal { }` costs no
    /// allocation more when its chain is built.
    @inlinable
    public func described<Upstream>(
        _ name: String, _ parameters: @autoclosure () -> [String] = [], after upstream: Signal<Upstream>
    ) -> Signal<Value> {
        guard let node = upstream.node else { return self }
        return described(SignalNode(name, parameters(), upstreams: [node]))
    }

    /// This signal as a stage reading several upstreams (`merge`, `zip`,
    /// `takeUntil`): described when at least one of them is, the others
    /// shown as `SignalNode.unknown`.
    @inlinable
    public func described(
        _ name: String, _ parameters: @autoclosure () -> [String] = [], upstreams: [SignalNode?]
    ) -> Signal<Value> {
        guard upstreams.contains(where: { $0 != nil }) else { return self }
        return described(SignalNode(name, parameters(), upstreams: upstreams.map { $0 ?? .unknown }))
    }
}
