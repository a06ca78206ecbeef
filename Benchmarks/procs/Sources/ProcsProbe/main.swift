// The rwatch side of Benchmarks/procs/run.sh. Modes:
//
//   ProcsProbe count-seq N            seq N through ProcessSource; prints the line count
//   ProcsProbe count-cat FILE         the same with `cat FILE` (a producer faster than the reader)
//   ProcsProbe tail-count FILE END   Tail.follow(FILE, from: .start); counts lines until a
//                                     line equal to END arrives; prints the count
//   ProcsProbe tail-grep FILE REGEX END
//                                     Tail.follow(FILE, from: .start, matching: REGEX|^END$)
//                                     (LinePattern: grep -E syntax, case-sensitive like
//                                     grep); counts the matching lines until the END line
//                                     arrives; prints the count
//   ProcsProbe tail-grep-i FILE REGEX END
//                                     the same, ignoring case (rwatch tail --grep's default)
//
// Each mode exits as soon as it has its answer.
import Dispatch
import Signals
import WatchSources
#if canImport(Glibc)
import Glibc
#endif

func say(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = write(1, &bytes, bytes.count)
}

func fail(_ message: String) -> Never {
    var bytes = Array(("ProcsProbe: " + message + "\n").utf8)
    _ = write(2, &bytes, bytes.count)
    exit(2)
}

/// A counter touched by one delivering thread at a time, without Swift's
/// dynamic exclusivity checks (a tally in C would have none either).
final class Tally: @unchecked Sendable {
    // Safety: only the one thread that delivers events touches it.
    @exclusivity(unchecked) var value = 0
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: ProcsProbe count-seq N | tail-count FILE END | tail-grep FILE REGEX END") }

switch arguments[1] {
case "count-seq" where arguments.count == 3, "count-cat" where arguments.count == 3:
    let done = DispatchSemaphore(value: 0)
    // Touched only by the delivering reader thread, one event at a time.
    let lines = Tally()
    let command = arguments[1] == "count-seq" ? ["seq", arguments[2]] : ["cat", arguments[2]]
    ProcessSource.run(command).subscribe(onNext: { event in
        if case .stdout = event { lines.value += 1 }
    }, onError: { error in
        fail("\(error)")
    }, onCompleted: {
        done.signal()
    })
    done.wait()
    say("\(lines.value)")

case "tail-count" where arguments.count == 4:
    let end = arguments[3]
    let done = DispatchSemaphore(value: 0)
    // Touched only by the follower thread, one line at a time.
    let lines = Tally()
    let subscription = Tail.follow(arguments[2], from: .start).subscribe(onNext: { line in
        if line == end { done.signal() } else { lines.value += 1 }
    }, onError: { error in
        fail("\(error)")
    })
    done.wait()
    subscription.dispose()
    say("\(lines.value)")

case "tail-grep" where arguments.count == 5, "tail-grep-i" where arguments.count == 5:
    let end = arguments[4]
    // The END line must get through the filter too, as in follow-peer.sh.
    let pattern: LinePattern
    do {
        pattern = try LinePattern("\(arguments[3])|^\(end)$", ignoringCase: arguments[1] == "tail-grep-i")
    } catch {
        fail("\(error)")
    }
    let done = DispatchSemaphore(value: 0)
    let matches = Tally()
    let subscription = Tail.follow(arguments[2], from: .start, matching: pattern).subscribe(onNext: { line in
        if line == end { done.signal() } else { matches.value += 1 }
    }, onError: { error in
        fail("\(error)")
    })
    done.wait()
    subscription.dispose()
    say("\(matches.value)")

default:
    fail("usage: ProcsProbe count-seq N | tail-count FILE END | tail-grep FILE REGEX END")
}
