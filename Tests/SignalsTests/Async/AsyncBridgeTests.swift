import Testing
@testable import Signals
import TestSupport

@Suite struct AsyncBridgeTests {
    @Test func valuesIteratesASignal() async throws {
        var collected: [Int] = []
        for try await value in Signal.from([1, 2, 3]).values { collected.append(value) }
        #expect(collected == [1, 2, 3])
    }

    @Test func valuesRethrowsTheSignalsError() async {
        await #expect(throws: TestError.self) {
            for try await _ in Signal<Int>.error(TestError()).values {}
        }
    }

    @Test func endingTheIterationDisposesTheSubscription() async throws {
        let disposed = Counter()
        let subject = PublishSubject<Int>()
        let signal = Signal<Int> { observer in
            let inner = subject.subscribe(observer)
            return ActionDisposable {
                disposed.increment()
                inner.dispose()
            }
        }
        let consumer = Task {
            for try await value in signal.values where value == 2 { return value }
            return -1
        }
        let sender = Task {
            var value = 0
            while disposed.count == 0, !Task.isCancelled {
                value = value % 3 + 1
                subject.sendNext(value)
                await Task.yield()
            }
        }
        #expect(try await consumer.value == 2)
        sender.cancel()
        #expect(eventually { disposed.count == 1 })
    }

    @Test func aSignalFromAnAsyncSequence() async {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        let recorder = Recorder<Int>()
        Signal(stream).subscribe(recorder.handler)
        #expect(await eventuallyAsync { recorder.events.last == "|" })
        #expect(recorder.events == ["1", "2", "3", "|"])
    }

    @Test func disposingCancelsTheAsyncIteration() async {
        let stream = AsyncStream<Int> { continuation in
            continuation.yield(1)  // never finishes
        }
        let recorder = Recorder<Int>()
        let subscription = Signal(stream).subscribe(recorder.handler)
        #expect(await eventuallyAsync { recorder.events == ["1"] })
        subscription.dispose()
        #expect(subscription.isDisposed)
    }

    private func eventuallyAsync(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<10_000 {
            if condition() { return true }
            await Task.yield()
        }
        return eventually(.seconds(20), condition)
    }
}
