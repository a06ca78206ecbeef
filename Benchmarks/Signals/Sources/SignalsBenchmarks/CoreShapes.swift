import OpenCombine
import Signals

/// Issue 2: a subject pumping values to one subscriber, and subscribe +
/// dispose cycles on a subject.
enum CoreShapes {
    static func subjectPumping(_ events: Int) -> [Measurement] {
        let signals = measure("SubjectPumping", "Signals", events: events) {
            let subject = PublishSubject<Int>()
            let sink = Sink()
            let subscription = subject.subscribe(onNext: { sink.total &+= $0 })
            for value in 0..<events { subject.sendNext(value) }
            subscription.dispose()
            blackHole(sink.total)
        }
        let openCombine = measure("SubjectPumping", "OpenCombine", events: events) {
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let sink = Sink()
            let cancellable = subject.sink { sink.total &+= $0 }
            for value in 0..<events { subject.send(value) }
            cancellable.cancel()
            blackHole(sink.total)
        }
        let floor = measure("SubjectPumping", "closure floor", events: events) {
            let sink = Sink()
            let observer: (Int) -> Void = opaque { sink.total &+= $0 }
            for value in 0..<events { observer(value) }
            blackHole(sink.total)
        }
        return [signals, openCombine, floor]
    }

    static func subscribeDisposeCycles(_ cycles: Int) -> [Measurement] {
        let signals = measure("SubscribeDispose", "Signals", events: cycles) {
            let subject = PublishSubject<Int>()
            let sink = Sink()
            for _ in 0..<cycles {
                subject.subscribe(onNext: { sink.total &+= $0 }).dispose()
            }
            blackHole(sink.total)
        }
        let openCombine = measure("SubscribeDispose", "OpenCombine", events: cycles) {
            let subject = OpenCombine.PassthroughSubject<Int, Never>()
            let sink = Sink()
            for _ in 0..<cycles {
                subject.sink { sink.total &+= $0 }.cancel()
            }
            blackHole(sink.total)
        }
        let floor = measure("SubscribeDispose", "closure floor", events: cycles) {
            // A list of observer closures: add one, remove it.
            var observers: [(Int) -> Void] = []
            observers.reserveCapacity(1)
            let sink = Sink()
            for _ in 0..<cycles {
                observers.append(opaque { sink.total &+= $0 })
                observers.removeLast()
            }
            blackHole(sink.total)
        }
        return [signals, openCombine, floor]
    }
}
