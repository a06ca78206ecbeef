extension Signal {
    /// This signal with `node` as its description; the same producer, so
    /// subscribing to it is subscribing to this signal. Outside
    /// `SignalNode.recording`, this signal unchanged, and `node` never
    /// evaluated.
    @inlinable
    public func described(_ node: @autoclosure () -> SignalNode?) -> Signal<Value> {
        guard SignalNode.isRecording else { return self }
        return Signal(producer: producer, serializes: serializes, filtering: filtering, nodeStorage: SignalNode.retained(node()))
    }

    /// This signal as a source: `name(parameters…)`, with no upstream
    /// (`FileWatcher.watch`, `Timer.interval`). Outside
    /// `SignalNode.recording`, this signal unchanged, and `parameters`
    /// never built: a source made for each value (`Timer.after` inside a
    /// `flatMapLatest`) makes no node.
    @inlinable
    public func described(_ name: String, _ parameters: @autoclosure () -> [String] = []) -> Signal<Value> {
        guard SignalNode.isRecording else { return self }
        return described(SignalNode(name, parameters()))
    }

    /// This signal as a stage after `upstream`: `name(parameters…)`. An
    /// undescribed upstream leaves it undescribed, and `parameters` is then
    /// never built: an operator over a subject or a `Signal { }`, or built
    /// outside `SignalNode.recording`, pays the test of one field and
    /// nothing else.
    @inlinable @inline(__always)
    public func described<Upstream>(
        _ name: String, _ parameters: @autoclosure () -> [String] = [], after upstream: Signal<Upstream>
    ) -> Signal<Value> {
        guard let upstreamNode = upstream.nodeStorage else { return self }
        let node = SignalNode.stage(name, parameters, after: upstreamNode)
        return Signal(producer: producer, serializes: serializes, filtering: filtering, nodeStorage: node)
    }

    /// This signal as a stage reading several upstreams (`merge`, `zip`,
    /// `takeUntil`), inside `SignalNode.recording`: described when at
    /// least one of them is, the others shown as `SignalNode.unknown`.
    /// Outside it, `upstreams` is never evaluated.
    @inlinable
    public func described(
        _ name: String, _ parameters: @autoclosure () -> [String] = [], upstreams: @autoclosure () -> [SignalNode?]
    ) -> Signal<Value> {
        guard SignalNode.isRecording else { return self }
        let nodes = upstreams()
        guard nodes.contains(where: { $0 != nil }) else { return self }
        return described(SignalNode(name, parameters(), upstreams: nodes.map { $0 ?? .unknown }))
    }
}

extension SignalNode {
    /// `node` retained for `Signal.nodeStorage`, for good.
    @usableFromInline
    static func retained(_ node: SignalNode?) -> UnsafeRawPointer? {
        node.map { UnsafeRawPointer(Unmanaged.passRetained($0).toOpaque()) }
    }

    /// The node of a stage after the node `upstream` points to, retained
    /// for `Signal.nodeStorage`; nil outside `recording` (a recorded
    /// chain extended later). Out of line and given no signal, so that an
    /// operator's signal never escapes into it (which too would cost its
    /// closures their stack promotion).
    @usableFromInline @inline(never)
    static func stage(_ name: String, _ parameters: () -> [String], after upstream: UnsafeRawPointer) -> UnsafeRawPointer? {
        guard isRecording else { return nil }
        let upstreamNode = Unmanaged<SignalNode>.fromOpaque(upstream).takeUnretainedValue()
        return retained(SignalNode(name, parameters(), upstreams: [upstreamNode]))
    }
}
