import Dispatch
import RecipeKit
import Testing
import TestSupport

/// Recipes leave out `scheduler:`; these check that the overloads exist and
/// deliver, on rwatch's own queue. (The operators' timing is tested in
/// Signals, on virtual time.) State is behind `Locked` (a pthread mutex),
/// which ThreadSanitizer sees: it does not see Synchronization's `Mutex`,
/// and reported a race behind it.
@Suite struct DefaultSchedulerTests {
    @Test func timeOperatorsWithoutASchedulerDeliver() {
        let seen = Locked<Set<String>>([])
        let record: @Sendable (String) -> Void = { name in _ = seen.withLock { $0.insert(name) } }
        let open = Signal.just(1).concat(Signal.never())
        let subscriptions = [
            open.delay(.milliseconds(1)).subscribe(onNext: { _ in record("delay") }),
            open.debounce(.milliseconds(1)).subscribe(onNext: { _ in record("debounce") }),
            open.debounce(.milliseconds(1), maxWait: .seconds(60)).subscribe(onNext: { _ in record("maxWait") }),
            open.throttle(.milliseconds(1), latest: true).subscribe(onNext: { _ in record("throttle") }),
            Signal<Int>.never().timeout(.milliseconds(1)).subscribe(onError: { _ in record("timeout") }),
            open.buffer(timeSpan: .milliseconds(1)).subscribe(onNext: { _ in record("buffer") }),
            Timer.after(.milliseconds(1)).subscribe(onCompleted: { record("after") }),
            Timer.interval(.milliseconds(1)).take(2).subscribe(onCompleted: { record("interval") }),
        ]
        #expect(eventually { seen.withLock { $0.count } == 8 })
        subscriptions.forEach { $0.dispose() }
    }

    @Test func timersWithoutASchedulerFireOnTheRecipeQueue() {
        let key = DispatchSpecificKey<Int>()
        QueueScheduler.recipe.queue.setSpecific(key: key, value: 1)
        let onRecipeQueue = Locked<Bool?>(nil)
        let subscription = Timer.after(.milliseconds(1)).subscribe(onNext: { _ in
            let here = DispatchQueue.getSpecific(key: key) == 1
            onRecipeQueue.withLock { $0 = here }
        })
        #expect(eventually { onRecipeQueue.withLock { $0 } != nil })
        #expect(onRecipeQueue.withLock { $0 } == true)
        subscription.dispose()
    }
}
