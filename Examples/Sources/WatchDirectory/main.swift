// Watches a directory with FileWatcher and prints one line per change.
//
//     WatchDirectory DIR [COUNT]
//
// With COUNT, exits after that many changes (`take`); otherwise runs until
// interrupted. Prints "watching DIR" once the watch is in place.
import Dispatch
import Signals
import Synchronization
import WatchSources

#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let directory = arguments.first ?? "."
let count = arguments.count > 1 ? Int(arguments[1]) ?? Int.max : Int.max

let finished = DispatchSemaphore(value: 0)
let status = Atomic(Int32(0))

let subscription = FileWatcher.watch([directory])
    .filter { $0.kind != .attributes }
    .take(count)
    .subscribe(
        onNext: { event in
            print(event)
            fflush(nil)
        },
        onError: { error in
            var line = "WatchDirectory: \(error)\n"
            line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
            status.store(1, ordering: .relaxed)
            finished.signal()
        },
        onCompleted: { finished.signal() }
    )
// `subscribe` returns once the watch is in place.
print("watching \(directory)")
fflush(nil)
finished.wait()
subscription.dispose()
exit(status.load(ordering: .relaxed))
