extension Signal where Value == FileEvent {
    /// Collects file events into batches: a batch is sent once no event has
    /// come for `quiet` (a trailing debounce), or `maxWait` after its first
    /// event, so that a steady stream of writes cannot postpone a run
    /// forever.
    ///
    ///     events:  -a-b-c-----d-e-e-e-e-e-e-e-|
    ///     output:  -------[abc]------[de…]---[e…]|    quiet 4, maxWait 8 ticks
    ///
    /// Each batch coalesces events per path (`ChangeBatch`). On completion
    /// the open batch is sent, then completion; on error the open batch is
    /// sent, then the error. Disposing cancels the timer and drops the open
    /// batch. With `quiet` zero a batch holds what arrived before the
    /// scheduler got to run.
    public func batched(
        _ quiet: Duration = .milliseconds(50),
        maxWait: Duration = .seconds(1),
        scheduler: some Scheduler = QueueScheduler(label: "rwatch.batch")
    ) -> Signal<ChangeBatch> {
        let source = self
        return Signal<ChangeBatch> { observer in
            let window = Locked(BatchWindow(quiet: quiet, maxWait: maxWait))
            let timer = SerialDisposable()
            // `perform` is recursive through the timer; keep it in a box the
            // timer closure can reach.
            let perform = Locked<(@Sendable (BatchWindow.Step) -> Void)?>(nil)
            let body: @Sendable (BatchWindow.Step) -> Void = { step in
                switch step {
                case .none:
                    break
                case .arm(let delay):
                    timer.disposable = scheduler.schedule(after: delay) {
                        let next = window.withLock { $0.timerFired(now: scheduler.now) }
                        perform.withLock { $0 }?(next)
                    }
                case .flush(let events):
                    observer.sendNext(ChangeBatch(events))
                case .finish(let events):
                    if !events.isEmpty { observer.sendNext(ChangeBatch(events)) }
                }
            }
            perform.withLock { $0 = body }
            let upstream = source.subscribe { event in
                switch event {
                case .next(let fileEvent):
                    body(window.withLock { $0.receive(fileEvent, now: scheduler.now) })
                case .error(let error):
                    timer.dispose()
                    body(window.withLock { $0.finish() })
                    observer.sendError(error)
                case .completed:
                    timer.dispose()
                    body(window.withLock { $0.finish() })
                    observer.sendCompleted()
                }
            }
            return ActionDisposable {
                upstream.dispose()
                timer.dispose()
                perform.withLock { $0 = nil }
            }
        }
    }
}
