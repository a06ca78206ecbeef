extension Signal where Value == FileEvent {
    /// Collects file events into batches: a batch is sent once no event has
    /// come for `quiet` (a trailing debounce), or `maxWait` after its first
    /// event, so that a steady stream of writes cannot postpone a run
    /// forever.
    ///
    ///     events:  -a-b-c-----d-e-f-g-h-i-j-|
    ///     output:  ---------x---------y-----(z|)    quiet 4, maxWait 8 ticks
    ///                                               x = abc, y = defgh, z = ij
    ///
    /// Events are coalesced per path and kind into the batch as they arrive
    /// (`ChangeBatch.add`): a file created and gone again within the batch
    /// (a temporary file renamed over the real one) leaves it, and a batch
    /// left empty is not sent. A `closedWrite` that only completes a write
    /// already reported (`FileEvent.closesReportedWrite`) is left out: it
    /// is no new change. On completion the open batch is sent, then
    /// completion; on error the open batch is sent, then the error. Disposing
    /// cancels the timer and drops the open batch. With `quiet` zero a batch
    /// holds what arrived before the scheduler got to run. Without a
    /// scheduler the timers run on the world's (`RecipeWorld.scheduler`).
    ///
    /// With `holdingNewFiles` (`NewFileHolds.shared`, the file watchers'),
    /// a batch that would close while the watcher holds a new file for its
    /// save window waits for it (up to `maxWait`): an edited file and a new
    /// one saved together are one batch, not two.
    public func batched(
        _ quiet: Duration = .milliseconds(50),
        maxWait: Duration = .seconds(1),
        holdingNewFiles: NewFileHolds? = nil,
        scheduler: any Scheduler = RecipeWorld.current.scheduler
    ) -> Signal<ChangeBatch> {
        // One shape from the watcher to the batch: each event is an array
        // of one, batched as the watcher's own arrays are.
        map { [$0] }.batched(quiet, maxWait: maxWait, holdingNewFiles: holdingNewFiles, scheduler: scheduler)
            .described("batched", BatchedLabel.parameters(quiet, maxWait, holdingNewFiles), after: self)
    }
}

extension Signal where Value == [FileEvent] {
    /// `batched` for events that come in arrays (`FileWatcher.batches`,
    /// `settlingVCS(of:)`): each array is added to the open batch in one
    /// step, so an editor's save or a burst released at once is never cut
    /// by the window closing half-way through it, even with `quiet` zero.
    /// As there, a close that completes a reported write is left out.
    ///
    ///     FileWatcher.batches(["Sources"]).batched(.zero)   // one run per save
    public func batched(
        _ quiet: Duration = .milliseconds(50),
        maxWait: Duration = .seconds(1),
        holdingNewFiles: NewFileHolds? = nil,
        scheduler: any Scheduler = RecipeWorld.current.scheduler
    ) -> Signal<ChangeBatch> {
        var holding: (@Sendable () -> Duration?)?
        if let holdingNewFiles { holding = { holdingNewFiles.remaining() } }
        return compactMap { events -> [FileEvent]? in
            let changes = events.filter { !$0.closesReportedWrite }
            return changes.isEmpty ? nil : changes
        }
        .debounce(quiet, maxWait: maxWait, scheduler: scheduler, into: ChangeBatch(), holding: holding) { batch, events in
            for event in events { batch.add(event) }
        }
        .filter { !$0.events.isEmpty }
        .described("batched", BatchedLabel.parameters(quiet, maxWait, holdingNewFiles), after: self)
    }
}
