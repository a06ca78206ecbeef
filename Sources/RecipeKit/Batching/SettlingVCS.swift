import SystemPackage

extension Signal where Value == FileEvent {
    /// Holds file events while git or Mercurial is rewriting the working
    /// tree of a repository holding one of `paths` (`index.lock`, a rebase,
    /// merge, cherry-pick or revert in progress, `.hg/wlock`), then lets
    /// them all through at once, as one array, so that a checkout of 2,000
    /// files is one run carrying every path, not a run in the middle of it
    /// (`batched` takes the array in one step). While no operation runs,
    /// each event passes at once, alone in its array.
    ///
    ///     FileWatcher.watch(paths).settlingVCS(of: paths).batched()
    ///
    /// Each repository is found by walking up from the paths, even far
    /// above them (`FileWatcher.vcsState(for:)`). An operation that waits for
    /// the person (a stopped rebase, a merge with conflicts) gets one status
    /// line when it starts holding, so that a run that does not come is
    /// explained.
    public func settlingVCS(of paths: [FilePath]) -> Signal<[FileEvent]> {
        map { [$0] }.settlingVCS(of: paths).described("settlingVCS", [paths.parameterLabel], after: self)
    }
}

extension Signal where Value == [FileEvent] {
    /// `settlingVCS(of:)` for events in arrays (`FileWatcher.batches`): an
    /// array passes whole, or is held whole and sent with the rest.
    ///
    ///     FileWatcher.batches(paths).settlingVCS(of: paths).batched(.zero)
    public func settlingVCS(of paths: [FilePath]) -> Signal<[FileEvent]> {
        settlingVCS(of: paths, servedBy: Signal<Bool>.never())
    }

    /// `settlingVCS(of:)` for a watch a service may serve, which `served`
    /// tells as it learns it: while it last said true, the service holds
    /// its results during git's operations itself, so every array passes
    /// at once and the repository is not watched here; from a false on (a
    /// service that went away), the repository is watched here again and
    /// arrays held. Watch mode's settle: its watch says where it is as it
    /// starts, and again if it moves. The repository is watched before
    /// `self` is subscribed, so that subscription can be the one that
    /// starts a shared watch.
    public func settlingVCS(of paths: [FilePath], servedBy served: Signal<Bool>) -> Signal<[FileEvent]> {
        let source = self
        let world = RecipeWorld.current
        return Signal<[FileEvent]>.deferred {
            let announced = Locked<Set<VCSState.Operation>>([])
            let operations = world.sources.files.vcsState(for: paths).on(next: { state in
                let lasting = Set(state.operations.filter(\.kind.waitsForPerson))
                let new = announced.withLock { seen -> [VCSState.Operation] in
                    defer { seen = lasting }
                    return lasting.subtracting(seen).sorted { $0.description < $1.description }
                }
                for operation in new {
                    world.output.status("\(operation) is in progress: runs wait until it ends", color: .yellow)
                }
            }).map(\.isBusy)
            let busy = served.startWith(false).distinctUntilChanged().flatMapLatest { served -> Signal<Bool> in
                served ? Signal<Bool>.just(false) : operations
            }
            return source.hold(while: busy, into: [FileEvent]()) { $0 += $1 }
        }.described("settlingVCS", [paths.parameterLabel], after: self)
    }
}

extension Signal where Value == FileEvent {
    /// `settlingVCS(of:)` for paths given as text.
    public func settlingVCS(of paths: [String]) -> Signal<[FileEvent]> {
        settlingVCS(of: paths.map { FilePath($0) })
    }
}
