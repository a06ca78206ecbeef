import Benchmark
import OpenCombine
import Signals

@Sendable func increment(_ value: Int) -> Int { value &+ 1 }
@Sendable func isNonNegative(_ value: Int) -> Bool { value >= 0 }

/// Issue 3: operator chains, switching, combining and throttling.
enum OperatorShapes {
    static func register() {
        mapFilterPumping()
        mapFilterCreating()
        flatMapLatestPumping()
        combineLatestPumping()
        throttlePumping()
    }

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

    /// Values through 6 `map` + 6 `filter`; per value.
    static func mapFilterPumping() {
        Benchmark("MapFilterPumping:Signals", configuration: guarded) { benchmark in
            let subject = PublishSubject<Int>()
            let sink = Sink()
            let subscription = mapFilterChain(subject.asSignal()).subscribe(onNext: { sink.total &+= $0 })
            benchmark.startMeasurement()
            for value in benchmark.scaledIterations { subject.sendNext(value) }
            benchmark.stopMeasurement()
            subscription.dispose()
            blackHole(sink.total)
        }
        // The same chain built inside `SignalNode.recording`: every stage
        // carries its `SignalNode`, which no value's path reads. Measured
        // beside the row above, without stored figures.
        Benchmark("MapFilterPumpingDescribed:Signals", configuration: peer) { benchmark in
            let subject = PublishSubject<Int>()
            let sink = Sink()
            let chain = SignalNode.recording { mapFilterChain(subject.asSignal().described("source")) }
            let subscription = chain.subscribe(onNext: { sink.total &+= $0 })
            benchmark.startMeasurement()
            for value in benchmark.scaledIterations { subject.sendNext(value) }
            benchmark.stopMeasurement()
            subscription.dispose()
            blackHole(sink.total)
        }
        Benchmark("MapFilterPumping:OpenCombine", configuration: peer) { benchmark in
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let sink = Sink()
            let cancellable = mapFilterChain(subject).sink { sink.total &+= $0 }
            benchmark.startMeasurement()
            for value in benchmark.scaledIterations { subject.send(value) }
            benchmark.stopMeasurement()
            cancellable.cancel()
            blackHole(sink.total)
        }
        Benchmark("MapFilterPumping:closure-floor", configuration: peer) { benchmark in
            let sink = Sink()
            let chain = mapFilterClosures(sink)
            benchmark.startMeasurement()
            for value in benchmark.scaledIterations { chain(value) }
            benchmark.stopMeasurement()
            blackHole(sink.total)
        }
    }

    /// Build that chain, subscribe, dispose; per cycle.
    static func mapFilterCreating() {
        Benchmark("MapFilterCreating:Signals", configuration: guarded) { benchmark in
            let subject = PublishSubject<Int>()
            let sink = Sink()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                mapFilterChain(subject.asSignal()).subscribe(onNext: { sink.total &+= $0 }).dispose()
            }
            benchmark.stopMeasurement()
            blackHole(sink.total)
        }
        // Described (inside `SignalNode.recording`, as `rwatch graph` and
        // `-v` build a recipe's chains once): each of the 12 stages makes
        // its node. Nodes made while recording are kept for good, so this
        // row keeps 1,000 cycles' worth per iteration (20 at most); it measures what
        // describing costs, not a path a running chain takes.
        Benchmark("MapFilterCreatingDescribed:Signals", configuration: Benchmark.Configuration(maxIterations: 20, thresholds: [:])) { benchmark in
            let subject = PublishSubject<Int>()
            let sink = Sink()
            benchmark.startMeasurement()
            SignalNode.recording {
                for _ in benchmark.scaledIterations {
                    mapFilterChain(subject.asSignal().described("source")).subscribe(onNext: { sink.total &+= $0 }).dispose()
                }
            }
            benchmark.stopMeasurement()
            blackHole(sink.total)
        }
        Benchmark("MapFilterCreating:OpenCombine", configuration: peer) { benchmark in
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let sink = Sink()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                mapFilterChain(subject).sink { sink.total &+= $0 }.cancel()
            }
            benchmark.stopMeasurement()
            blackHole(sink.total)
        }
        Benchmark("MapFilterCreating:closure-floor", configuration: peer) { benchmark in
            let sink = Sink()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(mapFilterClosures(sink)) }
            benchmark.stopMeasurement()
            blackHole(sink.total)
        }
    }

    // MARK: flatMapLatest

    /// A switch, then 1,000 values of the new inner signal; per value.
    static func flatMapLatestPumping() {
        Benchmark("FlatMapLatestPumping:Signals", configuration: guarded) { benchmark in
            let outer = PublishSubject<Int>(), inner = PublishSubject<Int>()
            let sink = Sink()
            let subscription = outer.asSignal()
                .flatMapLatest { _ in inner.asSignal() }
                .subscribe(onNext: { sink.total &+= $0 })
            outer.sendNext(0)
            benchmark.startMeasurement()
            outer.sendNext(1)
            for value in benchmark.scaledIterations { inner.sendNext(value) }
            benchmark.stopMeasurement()
            subscription.dispose()
            blackHole(sink.total)
        }
        Benchmark("FlatMapLatestPumping:OpenCombine", configuration: peer) { benchmark in
            let outer = OpenCombine.PassthroughSubject<Int, Never>()
            let inner = OpenCombine.PassthroughSubject<Int, Never>()
            let sink = Sink()
            let cancellable = outer.map { _ in inner }.switchToLatest().sink { sink.total &+= $0 }
            outer.send(0)
            benchmark.startMeasurement()
            outer.send(1)
            for value in benchmark.scaledIterations { inner.send(value) }
            benchmark.stopMeasurement()
            cancellable.cancel()
            blackHole(sink.total)
        }
        Benchmark("FlatMapLatestPumping:closure-floor", configuration: peer) { benchmark in
            let sink = Sink()
            final class Current { var observer: ((Int) -> Void)? }
            let current = Current()
            let switchTo: (Int) -> Void = opaque { _ in current.observer = opaque { sink.total &+= $0 } }
            switchTo(0)
            benchmark.startMeasurement()
            switchTo(1)
            for value in benchmark.scaledIterations { current.observer?(value) }
            benchmark.stopMeasurement()
            blackHole(sink.total)
        }
    }

    // MARK: combineLatest

    /// Two subjects sending in turn; per value (OpenCombine 0.14 has no
    /// `combineLatest`).
    static func combineLatestPumping() {
        Benchmark("CombineLatestPumping:Signals", configuration: guarded) { benchmark in
            let a = PublishSubject<Int>(), b = PublishSubject<Int>()
            let sink = Sink()
            let subscription = Signal.combineLatest(a.asSignal(), b.asSignal())
                .subscribe(onNext: { sink.total &+= $0.0 &+ $0.1 })
            benchmark.startMeasurement()
            for value in benchmark.scaledIterations {
                if value & 1 == 0 { a.sendNext(value) } else { b.sendNext(value) }
            }
            benchmark.stopMeasurement()
            subscription.dispose()
            blackHole(sink.total)
        }
        Benchmark("CombineLatestPumping:closure-floor", configuration: peer) { benchmark in
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
            benchmark.startMeasurement()
            for value in benchmark.scaledIterations {
                if value & 1 == 0 { sendA(value) } else { sendB(value) }
            }
            benchmark.stopMeasurement()
            blackHole(sink.total)
        }
    }

    // MARK: throttle

    /// 100 values per tick of virtual time, throttled to one per 5 ticks
    /// with `latest: true`; per value.
    static func throttlePumping() {
        let perTick = 100
        Benchmark("ThrottlePumping:Signals", configuration: guarded) { benchmark in
            let scheduler = TestScheduler()
            let subject = PublishSubject<Int>()
            let sink = Sink()
            let subscription = subject.asSignal()
                .throttle(.seconds(5), latest: true, scheduler: scheduler)
                .subscribe(onNext: { sink.total &+= $0 })
            benchmark.startMeasurement()
            for value in benchmark.scaledIterations {
                subject.sendNext(value)
                if value % perTick == perTick - 1 { scheduler.advance(by: .seconds(1)) }
            }
            benchmark.stopMeasurement()
            subscription.dispose()
            blackHole(sink.total)
        }
        Benchmark("ThrottlePumping:OpenCombine", configuration: peer) { benchmark in
            let scheduler = VirtualScheduler()
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let sink = Sink()
            let cancellable = subject
                .throttle(for: .seconds(5), scheduler: scheduler, latest: true)
                .sink { sink.total &+= $0 }
            benchmark.startMeasurement()
            for value in benchmark.scaledIterations {
                subject.send(value)
                if value % perTick == perTick - 1 { scheduler.advance(by: 1) }
            }
            benchmark.stopMeasurement()
            cancellable.cancel()
            blackHole(sink.total)
        }
        Benchmark("ThrottlePumping:closure-floor", configuration: peer) { benchmark in
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
            benchmark.startMeasurement()
            for value in benchmark.scaledIterations {
                send(value)
                if value % perTick == perTick - 1 { tick() }
            }
            benchmark.stopMeasurement()
            blackHole(sink.total)
        }
    }
}
