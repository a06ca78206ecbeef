import OpenCombine

/// Virtual time for OpenCombine's `throttle`, the counterpart of Signals'
/// `TestScheduler`: actions run when the benchmark advances the clock.
final class VirtualScheduler: OpenCombine.Scheduler {
    struct Time: Strideable {
        var ticks: Int
        func distance(to other: Time) -> Stride { Stride(ticks: other.ticks - ticks) }
        func advanced(by stride: Stride) -> Time { Time(ticks: ticks + stride.ticks) }
    }

    struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByIntegerLiteral {
        var ticks: Int
        init(ticks: Int) { self.ticks = ticks }
        init(integerLiteral value: Int) { ticks = value }
        init?<T: BinaryInteger>(exactly source: T) {
            guard let value = Int(exactly: source) else { return nil }
            ticks = value
        }
        var magnitude: Int { abs(ticks) }
        static func seconds(_ s: Int) -> Stride { Stride(ticks: s) }
        static func seconds(_ s: Double) -> Stride { Stride(ticks: Int(s)) }
        static func milliseconds(_ ms: Int) -> Stride { Stride(ticks: ms / 1000) }
        static func microseconds(_ us: Int) -> Stride { Stride(ticks: us / 1_000_000) }
        static func nanoseconds(_ ns: Int) -> Stride { Stride(ticks: ns / 1_000_000_000) }
        static func < (a: Stride, b: Stride) -> Bool { a.ticks < b.ticks }
        static func + (a: Stride, b: Stride) -> Stride { Stride(ticks: a.ticks + b.ticks) }
        static func - (a: Stride, b: Stride) -> Stride { Stride(ticks: a.ticks - b.ticks) }
        static func * (a: Stride, b: Stride) -> Stride { Stride(ticks: a.ticks * b.ticks) }
        static func += (a: inout Stride, b: Stride) { a.ticks += b.ticks }
        static func -= (a: inout Stride, b: Stride) { a.ticks -= b.ticks }
        static func *= (a: inout Stride, b: Stride) { a.ticks *= b.ticks }
    }

    private var items: [(due: Int, order: Int, action: () -> Void)] = []
    private var order = 0
    private(set) var now = Time(ticks: 0)
    var minimumTolerance: Stride { 0 }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        schedule(after: now, tolerance: 0, options: nil, action)
    }

    func schedule(after date: Time, tolerance: Stride, options: Never?, _ action: @escaping () -> Void) {
        order += 1
        let index = items.firstIndex { $0.due > date.ticks } ?? items.endIndex
        items.insert((date.ticks, order, action), at: index)
    }

    func schedule(after date: Time, interval: Stride, tolerance: Stride, options: Never?,
                  _ action: @escaping () -> Void) -> any Cancellable {
        fatalError("not used by the benchmarks")
    }

    /// Moves the clock by `ticks`, running what falls due.
    func advance(by ticks: Int) {
        let target = now.ticks + ticks
        while let first = items.first, first.due <= target {
            items.removeFirst()
            now = Time(ticks: first.due)
            first.action()
        }
        now = Time(ticks: target)
    }
}
