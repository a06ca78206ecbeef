import OpenCombine
import Signals

@Sendable func increment(_ value: Int) -> Int { value &+ 1 }
@Sendable func isNonNegative(_ value: Int) -> Bool { value >= 0 }

/// Issue 3: operator chains.
enum OperatorShapes {
    // MARK: 6 map + 6 filter

    static func mapFilterChain(_ source: Signal<Int>) -> Signal<Int> {
        source
            .map(increment).filter(isNonNegative)
            .map(increment).filter(isNonNegative)
            .map(increment).filter(isNonNegative)
            .map(increment).filter(isNonNegative)
            .map(increment).filter(isNonNegative)
            .map(increment).filter(isNonNegative)
    }

    static func mapFilterChain<P: OpenCombine.Publisher>(_ source: P) -> some OpenCombine.Publisher<Int, Never>
    where P.Output == Int, P.Failure == Never {
        source
            .map(increment).filter(isNonNegative)
            .map(increment).filter(isNonNegative)
            .map(increment).filter(isNonNegative)
            .map(increment).filter(isNonNegative)
            .map(increment).filter(isNonNegative)
            .map(increment).filter(isNonNegative)
    }

    /// The floor: the same 12 stages as a chain of closures, each calling
    /// the next through an opaque reference.
    static func mapFilterClosures(_ sink: Sink) -> (Int) -> Void {
        var next: (Int) -> Void = opaque { sink.total &+= $0 }
        for _ in 0..<6 {
            let afterFilter = next
            let filter: (Int) -> Void = opaque { if $0 >= 0 { afterFilter($0) } }
            next = opaque { filter($0 &+ 1) }
        }
        return next
    }

    static func mapFilterPumping(_ events: Int) -> [Measurement] {
        let signals = measure("MapFilterPumping", "Signals", events: events) {
            let subject = PublishSubject<Int>()
            let sink = Sink()
            let subscription = mapFilterChain(subject.asSignal()).subscribe(onNext: { sink.total &+= $0 })
            for value in 0..<events { subject.sendNext(value) }
            subscription.dispose()
            blackHole(sink.total)
        }
        let openCombine = measure("MapFilterPumping", "OpenCombine", events: events) {
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let sink = Sink()
            let cancellable = mapFilterChain(subject).sink { sink.total &+= $0 }
            for value in 0..<events { subject.send(value) }
            cancellable.cancel()
            blackHole(sink.total)
        }
        let floor = measure("MapFilterPumping", "closure floor", events: events) {
            let sink = Sink()
            let chain = mapFilterClosures(sink)
            for value in 0..<events { chain(value) }
            blackHole(sink.total)
        }
        return [signals, openCombine, floor]
    }

    static func mapFilterCreating(_ cycles: Int) -> [Measurement] {
        let signals = measure("MapFilterCreating", "Signals", events: cycles) {
            let subject = PublishSubject<Int>()
            let sink = Sink()
            for _ in 0..<cycles {
                mapFilterChain(subject.asSignal()).subscribe(onNext: { sink.total &+= $0 }).dispose()
            }
            blackHole(sink.total)
        }
        let openCombine = measure("MapFilterCreating", "OpenCombine", events: cycles) {
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let sink = Sink()
            for _ in 0..<cycles {
                mapFilterChain(subject).sink { sink.total &+= $0 }.cancel()
            }
            blackHole(sink.total)
        }
        let floor = measure("MapFilterCreating", "closure floor", events: cycles) {
            let sink = Sink()
            for _ in 0..<cycles { blackHole(mapFilterClosures(sink)) }
            blackHole(sink.total)
        }
        return [signals, openCombine, floor]
    }

    // MARK: flatMapLatest

    /// `switches` outer values, each followed by `perSwitch` inner values.
    static func flatMapLatestPumping(switches: Int, perSwitch: Int) -> [Measurement] {
        let events = switches * perSwitch
        let signals = measure("FlatMapLatestPumping", "Signals", events: events) {
            let outer = PublishSubject<Int>(), inner = PublishSubject<Int>()
            let sink = Sink()
            let subscription = outer.asSignal()
                .flatMapLatest { _ in inner.asSignal() }
                .subscribe(onNext: { sink.total &+= $0 })
            for switchIndex in 0..<switches {
                outer.sendNext(switchIndex)
                for value in 0..<perSwitch { inner.sendNext(value) }
            }
            subscription.dispose()
            blackHole(sink.total)
        }
        let openCombine = measure("FlatMapLatestPumping", "OpenCombine", events: events) {
            let outer = OpenCombine.PassthroughSubject<Int, Never>()
            let inner = OpenCombine.PassthroughSubject<Int, Never>()
            let sink = Sink()
            let cancellable = outer.map { _ in inner }.switchToLatest().sink { sink.total &+= $0 }
            for switchIndex in 0..<switches {
                outer.send(switchIndex)
                for value in 0..<perSwitch { inner.send(value) }
            }
            cancellable.cancel()
            blackHole(sink.total)
        }
        let floor = measure("FlatMapLatestPumping", "closure floor", events: events) {
            let sink = Sink()
            final class Current { var observer: ((Int) -> Void)? }
            let current = Current()
            let switchTo: (Int) -> Void = opaque { _ in current.observer = opaque { sink.total &+= $0 } }
            for switchIndex in 0..<switches {
                switchTo(switchIndex)
                for value in 0..<perSwitch { current.observer?(value) }
            }
            blackHole(sink.total)
        }
        return [signals, openCombine, floor]
    }

    // MARK: combineLatest

    static func combineLatestPumping(_ events: Int) -> [Measurement] {
        let signals = measure("CombineLatestPumping", "Signals", events: events) {
            let a = PublishSubject<Int>(), b = PublishSubject<Int>()
            let sink = Sink()
            let subscription = Signal.combineLatest(a.asSignal(), b.asSignal())
                .subscribe(onNext: { sink.total &+= $0.0 &+ $0.1 })
            for value in 0..<events / 2 {
                a.sendNext(value)
                b.sendNext(value)
            }
            subscription.dispose()
            blackHole(sink.total)
        }
        let floor = measure("CombineLatestPumping", "closure floor", events: events) {
            let sink = Sink()
            final class Latest { var a: Int?; var b: Int? }
            let latest = Latest()
            let emit: ((Int, Int)) -> Void = opaque { sink.total &+= $0.0 &+ $0.1 }
            let sendA: (Int) -> Void = opaque { value in
                latest.a = value
                if let b = latest.b { emit((value, b)) }
            }
            let sendB: (Int) -> Void = opaque { value in
                latest.b = value
                if let a = latest.a { emit((a, value)) }
            }
            for value in 0..<events / 2 {
                sendA(value)
                sendB(value)
            }
            blackHole(sink.total)
        }
        return [signals, floor]
    }

    // MARK: throttle

    /// Values on virtual time: `perTick` values per tick, throttled to one
    /// per 5 ticks with `latest: true`.
    static func throttlePumping(_ events: Int, perTick: Int) -> [Measurement] {
        let signals = measure("ThrottlePumping", "Signals", events: events) {
            let scheduler = TestScheduler()
            let subject = PublishSubject<Int>()
            let sink = Sink()
            let subscription = subject.asSignal()
                .throttle(.seconds(5), latest: true, scheduler: scheduler)
                .subscribe(onNext: { sink.total &+= $0 })
            for value in 0..<events {
                subject.sendNext(value)
                if value % perTick == perTick - 1 { scheduler.advance(by: .seconds(1)) }
            }
            subscription.dispose()
            blackHole(sink.total)
        }
        let openCombine = measure("ThrottlePumping", "OpenCombine", events: events) {
            let scheduler = VirtualScheduler()
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let sink = Sink()
            let cancellable = subject
                .throttle(for: .seconds(5), scheduler: scheduler, latest: true)
                .sink { sink.total &+= $0 }
            for value in 0..<events {
                subject.send(value)
                if value % perTick == perTick - 1 { scheduler.advance(by: 1) }
            }
            cancellable.cancel()
            blackHole(sink.total)
        }
        let floor = measure("ThrottlePumping", "closure floor", events: events) {
            // The same window logic inline, on a hand-kept virtual clock.
            final class Window { var now = 0; var end = -1; var pending: Int? }
            let window = Window()
            let sink = Sink()
            let emit: (Int) -> Void = opaque { sink.total &+= $0 }
            let send: (Int) -> Void = opaque { value in
                if window.now >= window.end {
                    window.end = window.now + 5
                    emit(value)
                } else {
                    window.pending = value
                }
            }
            let tick: () -> Void = opaque {
                window.now += 1
                if window.now >= window.end, let value = window.pending {
                    window.pending = nil
                    window.end = window.now + 5
                    emit(value)
                }
            }
            for value in 0..<events {
                send(value)
                if value % perTick == perTick - 1 { tick() }
            }
            blackHole(sink.total)
        }
        return [signals, openCombine, floor]
    }
}
