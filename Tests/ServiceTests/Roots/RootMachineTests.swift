import Testing
import WatchSources
import WatchmanProtocol
@testable import Service

/// The root's decisions, without a root: waiters are numbers, time is
/// given.
@Suite struct RootMachineTests {
    typealias Machine = RootMachine<Int>

    static let start = ContinuousClock.now

    static func machine(ready: Bool = true) -> Machine {
        var machine = Machine(now: start, wall: 1000)
        if ready { _ = machine.crawlEnded(now: start + .milliseconds(5)) }
        return machine
    }

    static let save = [FileEvent(path: "/r/a", kind: .closedWrite)]

    /// What was returned, as text: `Action` holds no `Equatable` waiter.
    static func names(_ actions: [Machine.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .applyHere: "applyHere"
            case .scheduleDrain: "scheduleDrain"
            case .publishTick(let tick): "publishTick \(tick)"
            case .signal(let waiter): "signal \(waiter)"
            case .stopWatching: "stopWatching"
            case .completeChanges: "completeChanges"
            case .leaveRegistry: "leaveRegistry"
            case .ageOut(let seconds): "ageOut \(seconds)"
            }
        }
    }

    /// Those waiting for the first crawl are woken when it ends, once;
    /// after it no one waits.
    @Test func theFirstCrawlWakesItsWaiters() {
        var machine = Self.machine(ready: false)
        let step1 = machine.waitForReady(1)
        #expect(step1)
        let step2 = machine.waitForReady(2)
        #expect(step2)
        let step3 = machine.crawlEnded(now: Self.start + .seconds(1))
        #expect(Self.names(step3) == ["signal 1", "signal 2"])
        #expect(machine.phase == .ready)
        #expect(machine.crawlFinished == Self.start + .seconds(1))
        let step4 = machine.waitForReady(3)
        #expect(!step4)
    }

    /// A quick batch on a ready root is applied on the reader's thread;
    /// one that is not, or any batch while crawling, goes to the worker;
    /// while a drain is scheduled, later batches only queue.
    @Test func aBatchWakesOneApplier() {
        var machine = Self.machine()
        let step5 = machine.received(Self.save, quick: true, readerBehind: false)
        #expect(Self.names(step5) == ["applyHere"])
        let step6 = machine.received(Self.save, quick: true, readerBehind: false)
        #expect(Self.names(step6).isEmpty)
        let step7 = machine.takeEvents()
        #expect(step7.count == 2)
        let step8 = machine.takeEvents()
        #expect(step8.isEmpty)
        let step9 = machine.received(Self.save, quick: false, readerBehind: false)
        #expect(Self.names(step9) == ["scheduleDrain"])
        var crawling = Self.machine(ready: false)
        let step10 = crawling.received(Self.save, quick: true, readerBehind: false)
        #expect(Self.names(step10) == ["scheduleDrain"])
    }

    /// A drain ends only when it finds the inbox empty: a batch that came
    /// while it applied is taken by the same drain, not a second one.
    @Test func aDrainTakesWhatCameWhileItApplied() {
        var machine = Self.machine()
        _ = machine.received(Self.save, quick: false, readerBehind: false)
        let step11 = machine.takeEvents()
        #expect(step11.count == 1)
        let step12 = machine.received(Self.save, quick: false, readerBehind: false)
        #expect(Self.names(step12).isEmpty)
        let step13 = machine.takeEvents()
        #expect(step13.count == 1)
        let step14 = machine.takeEvents()
        #expect(step14.isEmpty)
        let step15 = machine.received(Self.save, quick: false, readerBehind: false)
        #expect(Self.names(step15) == ["scheduleDrain"])
    }

    /// While a sync is about to have the worker drain for it, no drain
    /// is scheduled for what it will apply anyway; what came too late for
    /// the sync schedules one when the last sync ends.
    @Test func aSyncsDrainIsNotScheduledTwice() {
        var machine = Self.machine()
        machine.syncBegan()
        machine.syncBegan()
        let step16 = machine.received(Self.save, quick: true, readerBehind: false)
        #expect(Self.names(step16).isEmpty)
        let step17 = machine.syncEnded()
        #expect(Self.names(step17).isEmpty)
        let step18 = machine.syncEnded()
        #expect(Self.names(step18) == ["scheduleDrain"])
        machine.syncBegan()
        _ = machine.takeEvents()
        _ = machine.takeEvents()
        let step19 = machine.syncEnded()
        #expect(Self.names(step19).isEmpty, "the sync applied everything")
    }

    /// What a drain applied is published; a clock out of ticks also
    /// ends the root, once.
    @Test func aDrainPublishesItsTickAndAnExhaustedClockEndsTheRoot() {
        var machine = Self.machine()
        let published = machine.applied(tick: 7, exhausted: false)
        #expect(Self.names(published) == ["publishTick 7"])
        let exhausted = machine.applied(tick: 8, exhausted: true)
        #expect(Self.names(exhausted) == ["publishTick 8", "stopWatching", "completeChanges", "leaveRegistry"])
        #expect(machine.phase == .failed(Machine.clockExhausted))
        let after = machine.applied(tick: 8, exhausted: true)
        #expect(Self.names(after).isEmpty)
    }

    /// Once the root is over, `changes` has completed: a clock moved
    /// afterwards (a drain or sync finishing late) publishes nothing.
    @Test func aTickAfterTheEndIsNotPublished() {
        var machine = Self.machine()
        _ = machine.cancelled()
        let late = machine.applied(tick: 9, exhausted: false)
        #expect(Self.names(late).isEmpty)
    }

    /// The reader's thread is made the table's writer with `applyHere`,
    /// and the worker wanting the table meanwhile waits, then gets it
    /// when the reader is done; a quick batch while the worker writes is
    /// the worker's to apply.
    @Test func theReaderWritesAloneAndHandsTheTableToAWaitingWorker() {
        var machine = Self.machine()
        let applying = machine.received(Self.save, quick: true, readerBehind: false)
        #expect(Self.names(applying) == ["applyHere"])
        #expect(machine.writer == .reader)
        let mayWrite = machine.workerWrites(9)
        #expect(!mayWrite)
        _ = machine.takeEvents()
        _ = machine.takeEvents()
        let handed = machine.writeEnded()
        #expect(Self.names(handed) == ["signal 9"])
        #expect(machine.writer == .worker)
        let whileWorkerWrites = machine.received(Self.save, quick: true, readerBehind: false)
        #expect(Self.names(whileWorkerWrites) == ["scheduleDrain"])
        let done = machine.writeEnded()
        #expect(done.isEmpty)
        #expect(machine.writer == nil)
        let next = machine.workerWrites(10)
        #expect(next)
    }

    /// The socket loop moves the clock only when no one writes and
    /// nothing waits to be applied; while it does, the reader's thread is
    /// refused (the worker applies) and the worker waits.
    @Test func theLoopSyncsOnlyWithTheTableFree() {
        var machine = Self.machine()
        let free = machine.loopSyncs()
        #expect(free)
        #expect(machine.writer == .loop)
        let refused = machine.loopSyncs()
        #expect(!refused)
        let batch = machine.received(Self.save, quick: true, readerBehind: false)
        #expect(Self.names(batch) == ["scheduleDrain"])
        let workerNow = machine.workerWrites(4)
        #expect(!workerNow)
        #expect(Self.names(machine.writeEnded()) == ["signal 4"])
        let whileDelivered = machine.loopSyncs()
        #expect(!whileDelivered)
        _ = machine.takeEvents()
        _ = machine.takeEvents()
        _ = machine.writeEnded()
        let again = machine.loopSyncs()
        #expect(again)
        var crawling = Self.machine(ready: false)
        let whileCrawling = crawling.loopSyncs()
        #expect(!whileCrawling)
    }

    /// A quick batch with more records queued behind it in the kernel (a
    /// storm beginning) goes to the worker, which applies them at once.
    @Test func aQuickBatchWithTheReaderBehindGoesToTheWorker() {
        var machine = Self.machine()
        let step = machine.received(Self.save, quick: true, readerBehind: true)
        #expect(Self.names(step) == ["scheduleDrain"])
    }

    /// A cookie seen wakes its sync, once; one abandoned wakes no one.
    @Test func aCookieSeenWakesItsSync() {
        var machine = Self.machine()
        machine.cookieAwaited(7, 70)
        machine.cookieAwaited(8, 80)
        #expect(machine.awaitedCookies == [7, 8])
        machine.cookieAbandoned(8)
        let step20 = machine.cookiesSeen([7, 8, 9])
        #expect(Self.names(step20) == ["signal 70"])
        let step21 = machine.cookiesSeen([7])
        #expect(Self.names(step21).isEmpty)
        #expect(machine.awaitedCookies.isEmpty)
    }

    /// A sync whose deadline passed waits for none of its cookies: one
    /// seen afterwards wakes no one; another sync's is still awaited.
    @Test func aSyncPastItsDeadlineWaitsForNoCookie() {
        var machine = Self.machine()
        machine.cookieAwaited(1, 10)
        machine.cookieAwaited(2, 20)
        machine.cookieAwaited(3, 30)
        machine.syncDeadlinePassed([1, 2])
        #expect(machine.awaitedCookies == [3])
        let seen = machine.cookiesSeen([1, 2, 3])
        #expect(Self.names(seen) == ["signal 30"])
    }

    /// A sync answers on the caller's thread only on a ready root with
    /// nothing polled, and only with the inbox empty.
    @Test func aSyncWithoutWaitingNeedsAReadyUnpolledRoot() {
        #expect(!Self.machine(ready: false).maySyncWithoutWaiting)
        var machine = Self.machine()
        #expect(machine.maySyncWithoutWaiting)
        _ = machine.received(Self.save, quick: false, readerBehind: false)
        #expect(!machine.inbox.events.isEmpty)
        machine.polledSubtree(Array("mnt".utf8))
        #expect(!machine.maySyncWithoutWaiting)
        #expect(machine.polled == [Array("mnt".utf8)])
    }

    /// A failure stops watching, wakes every waiter, ends `changes` and
    /// leaves the registry, once; a later failure does nothing.
    @Test func aFailureEndsTheRootOnce() {
        var machine = Self.machine(ready: false)
        _ = machine.waitForReady(1)
        machine.cookieAwaited(5, 50)
        let actions = Self.names(machine.failed("gone"))
        #expect(actions == ["stopWatching", "signal 1", "signal 50", "completeChanges", "leaveRegistry"])
        #expect(machine.phase == .failed("gone"))
        #expect(!machine.isLive)
        let step22 = machine.failed("again")
        #expect(step22.isEmpty)
        #expect(machine.phase == .failed("gone"))
    }

    /// A cancel ends the root without leaving the registry (the registry
    /// asked for it).
    @Test func aCancelEndsTheRoot() {
        var machine = Self.machine()
        let step23 = machine.cancelled()
        #expect(Self.names(step23) == ["stopWatching", "completeChanges"])
        #expect(machine.phase == .cancelled)
        #expect(!machine.maySyncWithoutWaiting)
    }

    /// A recrawl counts, and its times replace the last crawl's.
    @Test func aRecrawlIsCountedAndTimed() {
        var machine = Self.machine()
        machine.recrawlStarted(because: "overflow", now: Self.start + .seconds(2))
        #expect(machine.recrawls == 1)
        #expect(machine.recrawlReason == "overflow")
        #expect(machine.crawlFinished == nil)
        machine.recrawlEnded(now: Self.start + .seconds(3))
        #expect(machine.crawlStarted == Self.start + .seconds(2))
        #expect(machine.crawlFinished == Self.start + .seconds(3))
        #expect(machine.phase == .ready)
    }

    /// Deleted entries are aged out every `gc_interval_seconds`; an idle
    /// root is reaped after `idle_reap_age_seconds` unless kept.
    @Test func housekeepingAgesOutAndReaps() {
        let configuration = RootConfiguration(global: .object([
            ("gc_interval_seconds", .int(60)), ("gc_age_seconds", .int(30)), ("idle_reap_age_seconds", .int(100)),
        ]))
        var machine = Self.machine()
        var care = machine.housekeep(wall: 1059, configuration)
        #expect(care.actions.isEmpty && !care.reap)
        care = machine.housekeep(wall: 1060, configuration)
        #expect(Self.names(care.actions) == ["ageOut 30"])
        let step24 = machine.housekeep(wall: 1061, configuration)
        #expect(Self.names(step24.actions).isEmpty)
        let step25 = machine.housekeep(wall: 1100, configuration)
        #expect(step25.reap)
        _ = machine.subscribersChanged(keep: true)
        let step26 = machine.housekeep(wall: 1100, configuration)
        #expect(!step26.reap)
        _ = machine.subscribersChanged(keep: false)
        machine.used(wall: 1050)
        let step27 = machine.housekeep(wall: 1100, configuration)
        #expect(!step27.reap)
    }
}
