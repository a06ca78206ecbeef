import Benchmark
import OpenCombine
import Signals

/// Issue 2: a subject pumping values to one subscriber, and subscribe +
/// dispose cycles on a subject.
enum CoreShapes {
    static func register() {
        subjectPumping()
        subscribeDispose()
    }

    /// `PublishSubject` → 1 subscriber; per value.
    static func subjectPumping() {
        Benchmark("SubjectPumping:Signals", configuration: guarded) { benchmark in
            let subject = PublishSubject<Int>()
            let sink = Sink()
            let subscription = subject.subscribe(onNext: { sink.total &+= $0 })
            benchmark.startMeasurement()
            for value in benchmark.scaledIterations { subject.sendNext(value) }
            benchmark.stopMeasurement()
            subscription.dispose()
            blackHole(sink.total)
        }
        Benchmark("SubjectPumping:OpenCombine", configuration: peer) { benchmark in
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let sink = Sink()
            let cancellable = subject.sink { sink.total &+= $0 }
            benchmark.startMeasurement()
            for value in benchmark.scaledIterations { subject.send(value) }
            benchmark.stopMeasurement()
            cancellable.cancel()
            blackHole(sink.total)
        }
        Benchmark("SubjectPumping:closure-floor", configuration: peer) { benchmark in
            let sink = Sink()
            let observer: (Int) -> Void = opaque { sink.total &+= $0 }
            benchmark.startMeasurement()
            for value in benchmark.scaledIterations { observer(value) }
            benchmark.stopMeasurement()
            blackHole(sink.total)
        }
    }

    /// Subscribe + dispose on a subject; per cycle.
    static func subscribeDispose() {
        Benchmark("SubscribeDispose:Signals", configuration: guarded) { benchmark in
            let subject = PublishSubject<Int>()
            let sink = Sink()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                subject.subscribe(onNext: { sink.total &+= $0 }).dispose()
            }
            benchmark.stopMeasurement()
            blackHole(sink.total)
        }
        Benchmark("SubscribeDispose:OpenCombine", configuration: peer) { benchmark in
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let sink = Sink()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                subject.sink { sink.total &+= $0 }.cancel()
            }
            benchmark.stopMeasurement()
            blackHole(sink.total)
        }
        Benchmark("SubscribeDispose:closure-floor", configuration: peer) { benchmark in
            // A list of observer closures: add one, remove it.
            var observers: [(Int) -> Void] = []
            observers.reserveCapacity(1)
            let sink = Sink()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                observers.append(opaque { sink.total &+= $0 })
                observers.removeLast()
            }
            benchmark.stopMeasurement()
            blackHole(sink.total)
        }
    }
}
