// Signals benchmarks: every shape side by side with OpenCombine (where it
// has the operator) and a hand-written closure floor, in one run.
//
//     swift run -c release --package-path Benchmarks/Signals
//     swift run -c release --package-path Benchmarks/Signals SignalsBenchmarks MapFilterPumping 100000
//
// Prints Markdown table rows for BENCHMARKS.md. The optional arguments run
// one shape with a smaller count (for a profiler such as callgrind).

let arguments = CommandLine.arguments.dropFirst()
let only = arguments.first
let scale = arguments.dropFirst().first.flatMap { Int($0) }

func run(_ shape: String, _ count: Int, _ body: (Int) -> [Measurement]) {
    guard only == nil || only == shape else { return }
    report(body(scale ?? count))
}

print("| shape | contender | ns/event | allocations/event | vs floor | vs Signals |")
print("| --- | --- | ---: | ---: | ---: | ---: |")
run("SubjectPumping", 1_000_000, CoreShapes.subjectPumping)
run("SubscribeDispose", 100_000, CoreShapes.subscribeDisposeCycles)
run("MapFilterPumping", 1_000_000, OperatorShapes.mapFilterPumping)
run("MapFilterCreating", 10_000, OperatorShapes.mapFilterCreating)
run("FlatMapLatestPumping", 1_000_000) { OperatorShapes.flatMapLatestPumping(switches: $0 / 1_000, perSwitch: 1_000) }
run("CombineLatestPumping", 1_000_000, OperatorShapes.combineLatestPumping)
run("ThrottlePumping", 1_000_000) { OperatorShapes.throttlePumping($0, perTick: 100) }
