extension Signal {
    /// Splits the source into one `GroupedSignal` per key: the first value
    /// of a key emits its group, then every value of that key goes to it.
    ///
    ///     source:  -a-B-c-D-|
    ///     output:  -x-y-----|     groupBy { $0.isUppercase }
    ///     x (key false):  -a---c---|
    ///     y (key true):   ---B---D-|
    ///
    /// Subscribe to a group when it arrives (groups are hot: a late
    /// subscriber misses earlier values). Every group completes, or fails,
    /// when the source does, just before the result. Disposing disposes the
    /// source: groups then receive nothing more.
    @inlinable
    public func groupBy<Key: Hashable & Sendable>(
        _ key: @escaping @Sendable (Value) -> Key
    ) -> Signal<GroupedSignal<Key, Value>> {
        Signal<GroupedSignal<Key, Value>>.serial({ observer in
            var groups: [Key: GroupedSignal<Key, Value>] = [:]
            return self.start(for: observer, { event in
                switch event {
                case .next(let value):
                    let groupKey = key(value)
                    if let group = groups[groupKey] { return group.send(event) }
                    let group = GroupedSignal<Key, Value>(key: groupKey)
                    groups[groupKey] = group
                    observer.sendNext(group)
                    group.send(event)
                case .error(let error):
                    finishGroups(&groups, with: event)
                    observer.sendError(error)
                case .completed:
                    finishGroups(&groups, with: event)
                    observer.sendCompleted()
                }
            })
        }).described("groupBy", after: self)
    }
}

/// Ends every group with the source's terminal event and forgets them.
@inlinable
func finishGroups<Key, Value>(_ groups: inout [Key: GroupedSignal<Key, Value>], with terminal: Event<Value>) {
    let all = groups.values
    groups = [:]
    for group in all { group.send(terminal) }
}
