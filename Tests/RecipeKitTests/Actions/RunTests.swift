import Dispatch
import Glibc
@testable import RecipeKit
import Testing
import TestSupport

@Suite struct RunTests {
    private let quiet = RunOptions(statusLines: false)

    private func batch(_ paths: [String]) -> ChangeBatch {
        ChangeBatch(paths.map { FileEvent(path: FilePath($0), kind: .modified, isDirectory: false, cookie: 0) })
    }

    @Test func aCommandRunsOnceWhenThreeObserversLookAtItsResult() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let subject = PublishSubject<ChangeBatch>()
        let results = subject.asSignal().run(["sh", "-c", "echo run >> \"$0\"", dir.file("count")], options: quiet)
        let seen = Locked(0)
        let subscriptions = (0..<3).map { _ in results.subscribe(onNext: { _ in seen.withLock { $0 += 1 } }) }
        subject.sendNext(batch(["/x"]))
        #expect(eventually { seen.withLock { $0 } == 3 })
        #expect(dir.read("count") == "run\n")
        subscriptions.forEach { $0.dispose() }
    }

    /// A recipe's `{}` inside a shell's script is refused as the command
    /// line refuses it: each subscriber hears the one line, nothing runs.
    @Test func aPlaceholderInsideAShellScriptFailsTheRunWithItsSafeSpelling() {
        let subject = PublishSubject<ChangeBatch>()
        let failure = Locked<String?>(nil)
        let subscription = subject.asSignal().run(["sh", "-c", "cat {}"], options: quiet)
            .subscribe(onError: { error in failure.withLock { $0 = "\(error)" } })
        #expect(failure.withLock { $0 }?.contains(#"sh -c 'cat "${1}"' sh {}"#) == true, "\(failure.withLock { $0 } ?? "none")")
        var pasting = quiet
        pasting.unsafePasteIntoCode = true
        let failed = Locked(false)
        let pasted = subject.asSignal().run(["sh", "-c", "cat {}"], options: pasting).subscribe(onError: { _ in failed.withLock { $0 = true } })
        #expect(!failed.withLock { $0 })
        subscription.dispose()
        pasted.dispose()
    }

    @Test func changedPathsReachTheCommandIntactAndExecuteNothing() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let names = ["with space", "new\nline", "quote\"s'", "$(touch \(dir.file("pwned")))", "`touch \(dir.file("pwned"))`"]
        let paths = names.map { dir.path + "/" + $0 }
        let subject = PublishSubject<ChangeBatch>()
        let done = Locked(false)
        let subscription = subject.asSignal()
            .run(["sh", "-c", "printf '%s' \"$RWATCH_PATHS\" > \"$0\"; cp \"$RWATCH_EVENTS_FILE\" \"$0.events\"", dir.file("out")], options: quiet)
            .subscribe(onNext: { _ in done.withLock { $0 = true } })
        subject.sendNext(batch(paths))
        #expect(eventually { done.withLock { $0 } })
        #expect(dir.read("out") == paths.joined(separator: "\n"))
        let events = dir.read("out.events")
        #expect(events.split(separator: "\n").count == paths.count)
        #expect(events.contains(JSONLine.quote(dir.path + "/new\nline")))
        #expect(access(dir.file("pwned"), F_OK) != 0)
        subscription.dispose()
    }

    @Test func pathsAreCutAt64KiBAndTheEventsFileStaysComplete() {
        let paths = (0..<2000).map { "/tmp/" + String(repeating: "p", count: 60) + "\($0)" }
        let environment = RunEnvironment(batch(paths))
        defer { environment.remove() }
        let variables = environment.variables
        #expect(variables["RWATCH_PATHS_TRUNCATED"] == Array("1".utf8))
        #expect((variables["RWATCH_PATHS"]?.count ?? .max) <= 64 * 1024)
        #expect(variables["RWATCH_PATHS"]?.last != UInt8(ascii: "\n"))
        let file = String(decoding: variables["RWATCH_EVENTS_FILE"] ?? [], as: UTF8.self)
        #expect(countLines(file) == 2000)
    }

    private func countLines(_ path: String) -> Int {
        guard let handle = fopen(path, "r") else { return -1 }
        defer { fclose(handle) }
        var count = 0
        while true {
            let character = getc(handle)
            if character == EOF { break }
            if character == 10 { count += 1 }
        }
        return count
    }

    @Test func thenRunsOnlyAfterSuccessAndCarriesTheChain() {
        let subject = PublishSubject<ChangeBatch>()
        let results = Locked<[RunResult]>([])
        let subscription = subject.asSignal()
            .run(["sh", "-c", "test -n \"$RWATCH_PATHS\""], options: quiet)
            .then(["true"], options: quiet)
            .subscribe(onNext: { result in results.withLock { $0.append(result) } })
        subject.sendNext(batch(["/ok"]))
        #expect(eventually { results.withLock { $0.count } == 1 })
        subject.sendNext(batch([]))
        #expect(eventually { results.withLock { $0.count } == 2 })
        let chains = results.withLock { $0 }.map { $0.steps.map(\.arguments[0]) }
        #expect(chains == [["sh", "true"], ["sh"]])
        #expect(results.withLock { $0 }.map(\.succeeded) == [true, false])
        subscription.dispose()
    }

    @Test func queuedTriggersRunOnceMoreWithEveryPath() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let subject = PublishSubject<ChangeBatch>()
        let count = Locked(0)
        // The first run waits for the file "go", so the next triggers queue.
        let script = "while [ ! -e \"$0/go\" ]; do sleep 0.01; done; printf '%s|' \"$RWATCH_PATHS\" >> \"$0/log\""
        let subscription = subject.asSignal().run(["sh", "-c", script, dir.path], options: quiet)
            .subscribe(onNext: { _ in count.withLock { $0 += 1 } })
        subject.sendNext(batch(["/a"]))
        subject.sendNext(batch(["/b"]))
        subject.sendNext(batch(["/c"]))
        _ = creat(dir.file("go"), 0o600)
        #expect(eventually { count.withLock { $0 } == 2 })
        #expect(dir.read("log") == "/a|/b\n/c|")
        subscription.dispose()
    }

    /// A run's end is news from its output reader's thread; the action
    /// takes it, reports it and starts the queued run on the recipe queue,
    /// where all its state changes.
    @Test func resultsAndTheQueuedRunComeFromTheRecipeQueue() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let subject = PublishSubject<ChangeBatch>()
        let onQueue = Locked<[Bool]>([])
        let script = "while [ ! -e \"$0/go\" ]; do sleep 0.01; done"
        let subscription = subject.asSignal().run(["sh", "-c", script, dir.path], options: quiet)
            .subscribe(onNext: { _ in onQueue.withLock { $0.append(DispatchQueue.getSpecific(key: RecipeQueue.key) == true) } })
        subject.sendNext(batch(["/a"]))
        subject.sendNext(batch(["/b"]))
        _ = creat(dir.file("go"), 0o600)
        #expect(eventually { onQueue.withLock { $0.count } == 2 })
        #expect(onQueue.withLock { $0 } == [true, true])
        subscription.dispose()
    }
}

@Suite struct RestartTests {
    @Test func restartStopsTheOldGroupWithItsGrandchildBeforeStartingAnew() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let subject = PublishSubject<ChangeBatch>()
        // Each run records its shell and a background grandchild, then waits.
        let script = "sleep 300 & echo $! >> \"$0/grandchildren\"; echo $$ >> \"$0/children\"; wait"
        let results = Locked<[RunResult]>([])
        let subscription = subject.asSignal()
            .run(["sh", "-c", script, dir.path], onBusy: .restart, options: RunOptions(statusLines: false))
            .subscribe(onNext: { result in results.withLock { $0.append(result) } })
        subject.sendNext(ChangeBatch([]))
        #expect(eventually { dir.read("children").split(separator: "\n").count == 1 })
        #expect(eventually { dir.read("grandchildren").split(separator: "\n").count == 1 })
        subject.sendNext(ChangeBatch([]))
        #expect(eventually { dir.read("children").split(separator: "\n").count == 2 })
        let grandchild = Int32(dir.read("grandchildren").split(separator: "\n").first ?? "") ?? 0
        let child = Int32(dir.read("children").split(separator: "\n").first ?? "") ?? 0
        // The second run started only after the whole first group had gone.
        #expect(child > 0 && !ProcessGroups.hasRunningMembers(child))
        #expect(grandchild > 0 && !isRunning(grandchild))
        #expect(results.withLock { $0 }.first?.status == .signaled(SIGTERM))
        // Disposing stops the second group and returns once it is gone.
        let second = Int32(dir.read("children").split(separator: "\n").last ?? "") ?? 0
        subscription.dispose()
        #expect(second > 0 && !ProcessGroups.hasRunningMembers(second))
    }

    private func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0, let handle = fopen("/proc/\(pid)/stat", "r") else { return false }
        defer { fclose(handle) }
        var buffer = [CChar](repeating: 0, count: 512)
        guard fgets(&buffer, 512, handle) != nil else { return false }
        let stat = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(close, offsetBy: 2)] != "Z"
    }
}
