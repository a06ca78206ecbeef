import Testing
@testable import Signals

/// Disposing a subscription of a multi-input operator releases what it
/// captured: the operator's internal cycles (drain ↔ inner subscriptions ↔
/// observer) are broken by the dispose, as RxSwift's SinkDisposer does.
@Suite struct ReleaseTests {
    private final class Token: Sendable {}

    /// Subscribes with a handler that captures a token, runs `drive` (to get
    /// inner subscriptions and timers going), disposes, and reports whether
    /// the token is gone once the test lets go of it.
    private func releasesAfterDispose(
        _ scheduler: TestScheduler = TestScheduler(), drive: () -> Void = {}, _ makeSignal: () -> Signal<Int>
    ) -> Bool {
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let subscription = makeSignal().subscribe(onNext: { _ in _ = token })
            drive()
            subscription.dispose()
        }
        scheduler.advance(by: .zero)   // lets the scheduler drop cancelled timers
        return weakToken == nil
    }

    @Test func flatMapLatest() {
        let outer = PublishSubject<Int>(), inner = PublishSubject<Int>()
        #expect(releasesAfterDispose(drive: { outer.sendNext(1); inner.sendNext(2) }) {
            outer.asSignal().flatMapLatest { _ in inner.asSignal() }
        })
        _ = (outer, inner)
    }

    @Test func flatMapAndConcatMap() {
        let outer = PublishSubject<Int>(), inner = PublishSubject<Int>()
        let drive = { outer.sendNext(1); outer.sendNext(2); inner.sendNext(3) }
        #expect(releasesAfterDispose(drive: drive) { outer.asSignal().flatMap { _ in inner.asSignal() } })
        #expect(releasesAfterDispose(drive: drive) { outer.asSignal().concatMap { _ in inner.asSignal() } })
    }

    @Test func zipAndCombineLatest() {
        let a = PublishSubject<Int>(), b = PublishSubject<Int>()
        let drive = { a.sendNext(1); a.sendNext(2); b.sendNext(3) }
        #expect(releasesAfterDispose(drive: drive) { Signal.zip(a.asSignal(), b.asSignal()).map { $0.0 } })
        #expect(releasesAfterDispose(drive: drive) { Signal.combineLatest(a.asSignal(), b.asSignal()).map { $0.0 } })
    }

    @Test func timeBasedOperators() {
        let scheduler = TestScheduler()
        let subject = PublishSubject<Int>()
        let drive = { subject.sendNext(1); subject.sendNext(2); scheduler.advance(by: .seconds(1)) }
        #expect(releasesAfterDispose(scheduler, drive: drive) {
            subject.asSignal().throttle(.seconds(5), latest: true, scheduler: scheduler)
        })
        #expect(releasesAfterDispose(scheduler, drive: drive) { subject.asSignal().debounce(.seconds(5), scheduler: scheduler) })
        #expect(releasesAfterDispose(scheduler, drive: drive) { subject.asSignal().timeout(.seconds(5), scheduler: scheduler) })
        #expect(releasesAfterDispose(scheduler, drive: drive) { subject.asSignal().delay(.seconds(5), scheduler: scheduler) })
        #expect(releasesAfterDispose(scheduler, drive: drive) {
            subject.asSignal().buffer(timeSpan: .seconds(5), scheduler: scheduler).map(\.count)
        })
    }

    @Test func concatRetryAndCatchError() {
        let subject = PublishSubject<Int>()
        let drive = { subject.sendNext(1) }
        #expect(releasesAfterDispose(drive: drive) { Signal.concat([subject.asSignal(), subject.asSignal()]) })
        #expect(releasesAfterDispose(drive: drive) { subject.asSignal().retry(3) })
        #expect(releasesAfterDispose(drive: drive) { subject.asSignal().catchError { _ in .never() } })
    }
}
